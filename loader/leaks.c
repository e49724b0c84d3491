// SPDX-License-Identifier: MIT
// The leak and lifetime checker. The loader sees every call that creates, retains or releases
// a handle (or a USM allocation), so it counts the application's own references: created = 1,
// each retain +1, each release -1. At the last urLoaderTearDown (or at exit) every handle
// still counted is reported, by kind, with its count and the entry point that made it (and a
// backtrace when UR_LOG_LOADER is at debug). A handle used or released after its count reached
// 0 is reported at that call. References adapters take internally (a queue holding its
// context) are not the application's and are not counted.
#include <execinfo.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "intercept.h"
#include "loader.h"

typedef struct entry_t {
    const void *handle; // NULL: empty slot
    const char *kind;
    const char *creator;
    char *backtrace; // at debug level only
    int64_t refs;    // the application's references; 0 after its last release
} entry_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry_t *slots; // open addressing, linear probing; guarded by lock
static size_t cap, used;

static size_t slot_of(const void *handle) {
    uintptr_t h = (uintptr_t)handle;
    h ^= h >> 17;
    h *= UINT64_C(0xed5ad4bb);
    h ^= h >> 11;
    return (size_t)h & (cap - 1);
}

static entry_t *find(const void *handle) {
    if (cap == 0)
        return NULL;
    for (size_t i = slot_of(handle);; i = (i + 1) & (cap - 1)) {
        if (slots[i].handle == handle)
            return &slots[i];
        if (slots[i].handle == NULL)
            return NULL;
    }
}

static bool grow(void) {
    size_t ncap = cap ? cap * 2 : 256;
    entry_t *old = slots;
    size_t ocap = cap;
    slots = calloc(ncap, sizeof *slots);
    if (slots == NULL) {
        slots = old;
        return false;
    }
    cap = ncap;
    for (size_t i = 0; i < ocap; ++i) {
        if (old[i].handle == NULL)
            continue;
        size_t j = slot_of(old[i].handle);
        while (slots[j].handle != NULL)
            j = (j + 1) & (cap - 1);
        slots[j] = old[i];
    }
    free(old);
    return true;
}

static char *capture_backtrace(void) {
    void *frames[24];
    int n = backtrace(frames, 24);
    char **names = backtrace_symbols(frames, n);
    if (names == NULL)
        return NULL;
    size_t len = 1;
    for (int i = 2; i < n; ++i) // skip this function and urc_leak_created
        len += strlen(names[i]) + 8;
    char *text = malloc(len);
    if (text != NULL) {
        text[0] = '\0';
        for (int i = 2; i < n; ++i) {
            strcat(text, "\n      ");
            strcat(text, names[i]);
        }
    }
    free(names);
    return text;
}

static void complain(const char *what, const void *handle, const char *kind, const char *where) {
    // Asked for explicitly with the layer, so it goes to stderr whatever UR_LOG_LOADER says.
    fprintf(stderr, "<LOADER>[ERROR]: %s: %s %p %s after its last release\n", where, kind, handle,
            what);
}

void urc_leak_created(const char *kind, const void *handle, const char *creator) {
    if (handle == NULL)
        return;
    char *bt =
        urc_log_enabled(urc_loader_log(), UR_LOGGER_LEVEL_DEBUG) ? capture_backtrace() : NULL;
    pthread_mutex_lock(&lock);
    entry_t *e = find(handle);
    if (e == NULL) {
        if ((used + 1) * 2 > cap && !grow()) {
            pthread_mutex_unlock(&lock);
            free(bt);
            return;
        }
        size_t i = slot_of(handle);
        while (slots[i].handle != NULL)
            i = (i + 1) & (cap - 1);
        e = &slots[i];
        e->handle = handle;
        ++used;
    } else {
        free(e->backtrace);
    }
    // A handle handed out again (urDeviceGet's root devices, a reused address) counts once more.
    e->refs = e->refs > 0 && strcmp(e->kind, kind) == 0 ? e->refs + 1 : 1;
    e->kind = kind;
    e->creator = creator;
    e->backtrace = bt;
    pthread_mutex_unlock(&lock);
}

void urc_leak_retained(const void *handle, const char *where) {
    pthread_mutex_lock(&lock);
    entry_t *e = find(handle);
    if (e != NULL && e->refs > 0)
        ++e->refs;
    else if (e != NULL)
        complain("retained", handle, e->kind, where);
    pthread_mutex_unlock(&lock);
}

void urc_leak_released(const void *handle, const char *where) {
    pthread_mutex_lock(&lock);
    entry_t *e = find(handle);
    if (e != NULL && e->refs > 0)
        --e->refs;
    else if (e != NULL)
        complain("released", handle, e->kind, where);
    pthread_mutex_unlock(&lock);
}

void urc_leak_use(const void *handle, const char *where) {
    if (handle == NULL)
        return;
    pthread_mutex_lock(&lock);
    entry_t *e = find(handle);
    if (e != NULL && e->refs == 0)
        complain("used", handle, e->kind, where);
    pthread_mutex_unlock(&lock);
}

void urc_leak_report(void) {
    pthread_mutex_lock(&lock);
    static const char *const kinds[] = {"usm",      "mem",     "kernel",  "program",
                                        "event",    "queue",   "sampler", "physical_mem",
                                        "usm_pool", "context", "device",  NULL};
    size_t leaked = 0;
    for (size_t i = 0; i < cap; ++i)
        if (slots[i].handle != NULL && slots[i].refs > 0)
            ++leaked;
    if (leaked > 0)
        fprintf(stderr, "<LOADER>[ERROR]: leak check: %zu handle(s) still alive at teardown\n",
                leaked);
    // Grouped by kind, children before their parents; kinds not in the list come last.
    for (size_t k = 0; k <= sizeof kinds / sizeof kinds[0] - 1; ++k) {
        for (size_t i = 0; i < cap; ++i) {
            entry_t *e = &slots[i];
            if (e->handle == NULL || e->refs <= 0)
                continue;
            bool listed = false;
            for (size_t j = 0; kinds[j] != NULL; ++j)
                listed |= strcmp(kinds[j], e->kind) == 0;
            if (kinds[k] != NULL ? strcmp(kinds[k], e->kind) != 0 : listed)
                continue;
            fprintf(stderr, "<LOADER>[ERROR]:   %s %p: %lld reference(s), created by %s%s\n",
                    e->kind, e->handle, (long long)e->refs, e->creator,
                    e->backtrace ? e->backtrace : "");
        }
    }
    pthread_mutex_unlock(&lock);
    urc_leak_reset();
}

void urc_leak_reset(void) {
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < cap; ++i)
        free(slots[i].backtrace);
    free(slots);
    slots = NULL;
    cap = used = 0;
    pthread_mutex_unlock(&lock);
}
