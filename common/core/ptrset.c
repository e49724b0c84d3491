// SPDX-License-Identifier: MIT
// The pointer set of ptrset.h.
#include "core/ptrset.h"

#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

static urc_ptrset_shard_t *shard_of(urc_ptrset_t *set, const void *p) {
    // Allocations are aligned: mix the high bits in so neighbours spread over the shards.
    uintptr_t v = (uintptr_t)p;
    v ^= v >> 17;
    v *= UINT64_C(0x9e3779b97f4a7c15);
    return &set->shards[(v >> 40) % URC_PTRSET_SHARDS];
}

static void lock(urc_ptrset_shard_t *s) {
    while (atomic_exchange_explicit(&s->busy, true, memory_order_acquire))
        sched_yield();
}

static void unlock(urc_ptrset_shard_t *s) {
    atomic_store_explicit(&s->busy, false, memory_order_release);
}

static size_t find(const urc_ptrset_shard_t *s, const void *p) {
    for (size_t i = 0; i < s->count; ++i)
        if (s->items[i] == p)
            return i;
    return SIZE_MAX;
}

bool urc_ptrset_add(urc_ptrset_t *set, const void *p) {
    urc_ptrset_shard_t *s = shard_of(set, p);
    lock(s);
    bool ok = true;
    if (s->count == s->capacity) {
        size_t cap = s->capacity != 0 ? s->capacity * 2 : 8;
        const void **items = realloc((void *)s->items, cap * sizeof *items);
        ok = items != NULL;
        if (ok) {
            s->items = items;
            s->capacity = cap;
        }
    }
    if (ok) {
        s->items[s->count++] = p;
        atomic_fetch_add_explicit(&set->size, 1, memory_order_relaxed);
    }
    unlock(s);
    return ok;
}

bool urc_ptrset_remove(urc_ptrset_t *set, const void *p) {
    return urc_ptrset_remove_if(set, p, NULL, NULL);
}

bool urc_ptrset_remove_if(urc_ptrset_t *set, const void *p,
                          bool (*accept)(const void *p, void *arg), void *arg) {
    urc_ptrset_shard_t *s = shard_of(set, p);
    lock(s);
    size_t i = find(s, p);
    if (i != SIZE_MAX && accept != NULL && !accept(p, arg))
        i = SIZE_MAX;
    if (i != SIZE_MAX) {
        s->items[i] = s->items[--s->count];
        atomic_fetch_sub_explicit(&set->size, 1, memory_order_relaxed);
    }
    if (s->count == 0) {
        // An empty shard gives its memory back, so a set emptied before exit leaks nothing.
        free((void *)s->items);
        s->items = NULL;
        s->capacity = 0;
    }
    unlock(s);
    return i != SIZE_MAX;
}

bool urc_ptrset_claim(urc_ptrset_t *set, const void *p, void (*claim)(const void *p)) {
    if (p == NULL || atomic_load_explicit(&set->size, memory_order_relaxed) == 0)
        return false;
    urc_ptrset_shard_t *s = shard_of(set, p);
    lock(s);
    bool member = find(s, p) != SIZE_MAX;
    if (member && claim != NULL)
        claim(p);
    unlock(s);
    return member;
}

size_t urc_ptrset_size(urc_ptrset_t *set) {
    return atomic_load_explicit(&set->size, memory_order_relaxed);
}
