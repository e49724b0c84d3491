// SPDX-License-Identifier: MIT
#include "memory/usm_range.h"

#include <stdatomic.h>
#include <stdint.h>

#include "core/error.h"

ur_result_t urc_usm_range_check(urc_usm_lookup_fn lookup, void *backend, const void *ptr,
                                size_t size) {
    uintptr_t start = (uintptr_t)ptr;
    if (size > UINTPTR_MAX - start)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "%zu bytes from %p wrap around the address space", size, ptr);
    const void *base = NULL;
    size_t alloc_size = 0;
    if (lookup == NULL || !lookup(backend, ptr, &base, &alloc_size))
        return UR_RESULT_SUCCESS;
    if (start < (uintptr_t)base)
        return UR_RESULT_SUCCESS; // not an allocation holding ptr after all
    size_t offset = (size_t)(start - (uintptr_t)base);
    if (offset > alloc_size || size > alloc_size - offset)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "%zu bytes from %p pass the end of its USM allocation (%zu bytes "
                             "at %p)",
                             size, ptr, alloc_size, base);
    return UR_RESULT_SUCCESS;
}

size_t urc_usm_host_limit(urc_usm_lookup_fn lookup, void *backend, const void *ptr) {
    uintptr_t start = (uintptr_t)ptr;
    const void *base = NULL;
    size_t size = 0;
    if (lookup != NULL && lookup(backend, ptr, &base, &size) && start >= (uintptr_t)base &&
        start - (uintptr_t)base <= size)
        return size - (size_t)(start - (uintptr_t)base);
    return start < URC_USER_ADDRESS_END ? (size_t)(URC_USER_ADDRESS_END - start) : 0;
}

ur_result_t urc_usm_range_check_2d(urc_usm_lookup_fn lookup, void *backend, const void *ptr,
                                   size_t pitch, size_t width, size_t height) {
    if (height == 0 || width == 0)
        return UR_RESULT_SUCCESS;
    if (height - 1 > 0 && pitch > (SIZE_MAX - width) / (height - 1))
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "%zu rows %zu bytes apart overflow a size_t", height, pitch);
    return urc_usm_range_check(lookup, backend, ptr, (height - 1) * pitch + width);
}

// ---- remembered lookups ----

// A few slots per thread: a command checks at most two pointers, and loops reuse the same
// buffers. A miss overwrites the slots in turn.
enum { LOOKUP_SLOTS = 4 };

// An answer "no allocation holds this address" is kept for the smallest page around it: the
// drivers map whole pages, so an allocation that misses the address misses its page too.
#define UNKNOWN_SPAN ((uintptr_t)4096)

typedef struct lookup_slot {
    const urc_usm_lookup_cache_t *cache; // NULL: empty
    uint64_t epoch;
    uintptr_t lo, hi; // the addresses the answer covers, [lo, hi)
    bool known;       // an allocation [lo, hi) holds them; else none does
} lookup_slot_t;

static _Thread_local lookup_slot_t slots[LOOKUP_SLOTS];
static _Thread_local unsigned next_slot;

bool urc_usm_lookup_cached(void *backend, const void *ptr, const void **base, size_t *size) {
    urc_usm_lookup_cache_t *cache = backend;
    uint64_t epoch = atomic_load_explicit(&cache->epoch, memory_order_acquire);
    uintptr_t at = (uintptr_t)ptr;
    for (unsigned i = 0; i < LOOKUP_SLOTS; ++i) {
        const lookup_slot_t *s = &slots[i];
        if (s->cache == cache && s->epoch == epoch && at >= s->lo && at < s->hi) {
            if (s->known) {
                *base = (const void *)s->lo;
                *size = (size_t)(s->hi - s->lo);
            }
            return s->known;
        }
    }
    const void *found_base = NULL;
    size_t found_size = 0;
    bool known = cache->lookup(cache->backend, ptr, &found_base, &found_size);
    lookup_slot_t *s = &slots[next_slot++ % LOOKUP_SLOTS];
    uintptr_t lo = (uintptr_t)found_base;
    if (known && found_size > 0 && at >= lo && found_size <= UINTPTR_MAX - lo &&
        at < lo + found_size) {
        *s = (lookup_slot_t){cache, epoch, lo, lo + found_size, true};
    } else if (!known) {
        uintptr_t page = at & ~(UNKNOWN_SPAN - 1);
        *s = (lookup_slot_t){cache, epoch, page,
                             page <= UINTPTR_MAX - UNKNOWN_SPAN ? page + UNKNOWN_SPAN : UINTPTR_MAX,
                             false};
    } else {
        s->cache = NULL; // an answer that does not hold ptr is passed on but not kept
    }
    if (known) {
        *base = found_base;
        *size = found_size;
    }
    return known;
}

void urc_usm_lookup_cache_forget(urc_usm_lookup_cache_t *cache) {
    atomic_fetch_add_explicit(&cache->epoch, 1, memory_order_release);
}
