// SPDX-License-Identifier: MIT
// A first-fit allocator over one caller-given range (usm_pool_range.h). Extents form an address-
// ordered list, free and used alike; carving splits a free extent in up to three, freeing
// merges with free neighbours. Only slab and large-block creation and release come here.
#include "pool/pool_in_range.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "core/error.h"

typedef struct extent_t {
    uintptr_t start;
    size_t size;
    bool used;
    struct extent_t *prev, *next;
} extent_t;

struct urc_pool_range_t {
    uintptr_t base;
    size_t size;
    ur_result_t out_of_memory;
    urc_pool_range_zero_t zero;
    void *zero_arg;
    pthread_mutex_t lock;
    extent_t *extents;
    urc_pool_range_t *next_live; // the process's live ranges, for the overlap check
};

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static urc_pool_range_t *live;

ur_result_t urc_pool_range_create(void *base, size_t size, ur_result_t out_of_memory,
                                  urc_pool_range_zero_t zero, void *zero_arg,
                                  urc_pool_range_t **out) {
    uintptr_t b = (uintptr_t)base;
    if (size == 0 || b + size < b)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "a pool buffer of %zu bytes at %p wraps around", size, base);
    urc_pool_range_t *r = URC_NEW(urc_pool_range_t);
    extent_t *all = URC_NEW(extent_t);
    if (r == NULL || all == NULL) {
        free(r);
        free(all);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    *all = (extent_t){b, size, false, NULL, NULL};
    *r = (urc_pool_range_t){b,   size, out_of_memory, zero, zero_arg, PTHREAD_MUTEX_INITIALIZER,
                            all, NULL};
    pthread_mutex_lock(&live_lock);
    for (urc_pool_range_t *o = live; o != NULL; o = o->next_live)
        if (b < o->base + o->size && o->base < b + size) {
            pthread_mutex_unlock(&live_lock);
            free(all);
            free(r);
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "the pool buffer [%p, +%zu) overlaps another pool's buffer", base,
                                 size);
        }
    r->next_live = live;
    live = r;
    pthread_mutex_unlock(&live_lock);
    *out = r;
    return UR_RESULT_SUCCESS;
}

void urc_pool_range_destroy(urc_pool_range_t *r) {
    if (r == NULL)
        return;
    pthread_mutex_lock(&live_lock);
    for (urc_pool_range_t **at = &live; *at != NULL; at = &(*at)->next_live)
        if (*at == r) {
            *at = r->next_live;
            break;
        }
    pthread_mutex_unlock(&live_lock);
    for (extent_t *e = r->extents, *next; e != NULL; e = next) {
        next = e->next;
        free(e);
    }
    pthread_mutex_destroy(&r->lock);
    free(r);
}

// Inserts a new extent after `e` (lock held); NULL when the host is out of memory.
static extent_t *split_after(extent_t *e, uintptr_t start) {
    extent_t *n = URC_NEW(extent_t);
    if (n == NULL)
        return NULL;
    *n = (extent_t){start, e->start + e->size - start, e->used, e, e->next};
    if (e->next != NULL)
        e->next->prev = n;
    e->next = n;
    e->size = start - e->start;
    return n;
}

static ur_result_t range_alloc(void *native, size_t size, size_t align, bool zero, void **out) {
    urc_pool_range_t *r = native;
    if (align == 0)
        align = 1;
    ur_result_t res = r->out_of_memory;
    uintptr_t at = 0;
    pthread_mutex_lock(&r->lock);
    for (extent_t *e = r->extents; e != NULL; e = e->next) {
        if (e->used)
            continue;
        uintptr_t start = (e->start + align - 1) & ~(uintptr_t)(align - 1);
        if (start < e->start || start - e->start > e->size || e->size - (start - e->start) < size)
            continue;
        // Split off the alignment gap before and the rest after; both stay free.
        extent_t *mine = e;
        if (start > e->start && (mine = split_after(e, start)) == NULL) {
            res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            break;
        }
        if (mine->size > size && split_after(mine, start + size) == NULL) {
            res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY; // the gap merges back at the next free
            break;
        }
        mine->used = true;
        at = start;
        res = UR_RESULT_SUCCESS;
        break;
    }
    pthread_mutex_unlock(&r->lock);
    if (res == UR_RESULT_SUCCESS && zero && r->zero != NULL)
        res = r->zero(r->zero_arg, (void *)at, size);
    if (res == UR_RESULT_SUCCESS)
        *out = (void *)at;
    else if (at != 0)
        urc_pool_range_ops.free(native, (void *)at);
    return res;
}

// Marks a used extent free and merges it with free neighbours (lock held).
static void give_back(urc_pool_range_t *r, extent_t *e) {
    e->used = false;
    if (e->next != NULL && !e->next->used) {
        extent_t *n = e->next;
        e->size += n->size;
        e->next = n->next;
        if (n->next != NULL)
            n->next->prev = e;
        free(n);
    }
    if (e->prev != NULL && !e->prev->used) {
        extent_t *p = e->prev;
        p->size += e->size;
        p->next = e->next;
        if (e->next != NULL)
            e->next->prev = p;
        free(e);
    }
    (void)r;
}

static ur_result_t range_free(void *native, void *ptr) {
    urc_pool_range_t *r = native;
    ur_result_t res = UR_RESULT_ERROR_INVALID_MEM_OBJECT;
    pthread_mutex_lock(&r->lock);
    for (extent_t *e = r->extents; e != NULL; e = e->next)
        if (e->used && e->start == (uintptr_t)ptr) {
            give_back(r, e);
            res = UR_RESULT_SUCCESS;
            break;
        }
    pthread_mutex_unlock(&r->lock);
    return res;
}

const urc_pool_ops_t urc_pool_range_ops = {range_alloc, range_free};
