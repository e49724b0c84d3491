// SPDX-License-Identifier: MIT
#include "core/quarantine.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/enum_names.h"
#include "core/error.h"

#if defined(__SANITIZE_ADDRESS__)
#define URC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define URC_ASAN 1
#endif
#endif

#ifdef URC_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n)   ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n)   ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define CLASSES (URC_QUARANTINE_OTHER + 1)

// One ring per class. A park takes the next slot with one atomic add and swaps its block in;
// whatever the swap takes out is the block parked `window` parks ago, the oldest, and is freed.
// No lock: two parks that land on the same slot (only after a full lap) each get a distinct
// block from the exchange.
typedef struct ring_t {
    _Atomic(size_t) window; // 0 until the first park fixes it
    _Atomic(size_t) next;
    _Atomic(void *) slots[URC_QUARANTINE_MAX_OBJECTS];
} ring_t;

// Under ASan, each slot's block size, to unpoison it before it is freed (the block's own bytes
// past the readable part are poisoned).
typedef struct sizes_t {
    _Atomic(size_t) size[URC_QUARANTINE_MAX_OBJECTS];
} sizes_t;

static ring_t rings[CLASSES];
#ifdef URC_ASAN
static sizes_t sizes[CLASSES];
#endif
static _Atomic(urc_logger_t *) released_logger;

size_t urc_quarantine_window(unsigned cls, size_t size) {
    if (cls >= CLASSES)
        cls = URC_QUARANTINE_OTHER;
    ring_t *r = &rings[cls];
    size_t w = atomic_load_explicit(&r->window, memory_order_acquire);
    if (w != 0)
        return w;
    size_t want = size == 0 ? URC_QUARANTINE_MAX_OBJECTS : URC_QUARANTINE_MAX_BYTES / size;
    want = want < 16 ? 16 : want > URC_QUARANTINE_MAX_OBJECTS ? URC_QUARANTINE_MAX_OBJECTS : want;
    atomic_compare_exchange_strong_explicit(&r->window, &w, want, memory_order_acq_rel,
                                            memory_order_acquire);
    return w != 0 ? w : want;
}

void urc_quarantine_park(unsigned cls, void *mem, size_t size, size_t keep) {
    if (mem == NULL)
        return;
    if (cls >= CLASSES)
        cls = URC_QUARANTINE_OTHER;
    ring_t *r = &rings[cls];
    size_t window = urc_quarantine_window(cls, size);
    size_t slot = atomic_fetch_add_explicit(&r->next, 1, memory_order_relaxed) % window;
    size_t prev = 0;
#ifdef URC_ASAN
    if (size > keep)
        POISON((char *)mem + keep, size - keep);
    prev = atomic_exchange_explicit(&sizes[cls].size[slot], size, memory_order_relaxed);
#else
    (void)keep;
#endif
    void *old = atomic_exchange_explicit(&r->slots[slot], mem, memory_order_acq_rel);
    if (old != NULL) {
        UNPOISON(old, prev);
        free(old);
    }
}

void urc_quarantine_drain(void) {
    for (unsigned c = 0; c < CLASSES; ++c)
        for (size_t i = 0; i < URC_QUARANTINE_MAX_OBJECTS; ++i) {
            void *old = atomic_exchange_explicit(&rings[c].slots[i], NULL, memory_order_acq_rel);
            if (old == NULL)
                continue;
#ifdef URC_ASAN
            UNPOISON(old, atomic_load_explicit(&sizes[c].size[i], memory_order_relaxed));
#endif
            free(old);
        }
}

bool urc_quarantine_holds(const void *mem) {
    for (unsigned c = 0; c < CLASSES; ++c)
        for (size_t i = 0; i < URC_QUARANTINE_MAX_OBJECTS; ++i)
            if (atomic_load_explicit(&rings[c].slots[i], memory_order_acquire) == mem)
                return true;
    return false;
}

void urc_quarantine_set_logger(urc_logger_t *logger) {
    atomic_store_explicit(&released_logger, logger, memory_order_release);
}

ur_result_t urc_released_call(const char *entry_point, ur_result_t result) {
    urc_logger_t *logger = atomic_load_explicit(&released_logger, memory_order_acquire);
    if (logger != NULL && urc_log_enabled(logger, UR_LOGGER_LEVEL_ERROR))
        urc_log_write(logger, UR_LOGGER_LEVEL_ERROR,
                      "%s: called with a handle that was already released (its last reference "
                      "is gone); answered %s",
                      entry_point, urc_result_name(result));
    return urc_error_set(
        result, 0, "%s: the handle was already released (its last reference is gone)", entry_point);
}

// Library unload: what is still parked is freed, so leak checkers see every object go.
__attribute__((destructor)) static void drain_at_unload(void) {
    urc_quarantine_drain();
}
