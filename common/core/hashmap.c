// SPDX-License-Identifier: MIT
#include "core/hashmap.h"

#include <stdlib.h>

#include "core/alloc.h"

uint64_t urc_hash_bytes(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

static size_t capacity_for(size_t expected) {
    // At most half full, so probe sequences stay short.
    size_t cap = 16;
    while (cap / 2 < expected && cap < (SIZE_MAX >> 2))
        cap <<= 1;
    return cap;
}

bool urc_index_init(urc_index_t *ix, size_t expected) {
    size_t cap = capacity_for(expected);
    ix->slots = urc_calloc(cap, sizeof(*ix->slots));
    ix->mask = cap - 1;
    ix->used = 0;
    return ix->slots != NULL;
}

void urc_index_free(urc_index_t *ix) {
    URC_FREE(ix->slots);
    ix->mask = 0;
    ix->used = 0;
}

// The slot holding the key, or the empty slot where it would go.
static size_t probe(const urc_index_t *ix, uint64_t hash, urc_index_eq_fn eq, const void *key) {
    uint32_t h32 = (uint32_t)(hash >> 32);
    size_t i = h32 & ix->mask;
    for (;;) {
        const urc_index_slot_t *s = &ix->slots[i];
        if (s->pos_plus_one == 0)
            return i;
        if (s->hash == h32 && eq(key, s->pos_plus_one - 1))
            return i;
        i = (i + 1) & ix->mask;
    }
}

uint32_t urc_index_find(const urc_index_t *ix, uint64_t hash, urc_index_eq_fn eq, const void *key) {
    if (ix->slots == NULL)
        return URC_INDEX_NONE;
    const urc_index_slot_t *s = &ix->slots[probe(ix, hash, eq, key)];
    return s->pos_plus_one != 0 ? s->pos_plus_one - 1 : URC_INDEX_NONE;
}

// Doubles the table. A slot's home is taken from the 32 hash bits it stores, so entries move to
// their new homes without looking at the keys again.
static bool grow(urc_index_t *ix) {
    size_t cap = (ix->mask + 1) * 2;
    urc_index_slot_t *slots = urc_calloc(cap, sizeof(*slots));
    if (slots == NULL)
        return false;
    for (size_t i = 0; i <= ix->mask; ++i) {
        urc_index_slot_t s = ix->slots[i];
        if (s.pos_plus_one == 0)
            continue;
        size_t j = s.hash & (cap - 1);
        while (slots[j].pos_plus_one != 0)
            j = (j + 1) & (cap - 1);
        slots[j] = s;
    }
    free(ix->slots);
    ix->slots = slots;
    ix->mask = cap - 1;
    return true;
}

uint32_t urc_index_insert(urc_index_t *ix, uint64_t hash, uint32_t pos, urc_index_eq_fn eq,
                          const void *key) {
    if (ix->slots == NULL && !urc_index_init(ix, 8))
        return URC_INDEX_NONE;
    size_t i = probe(ix, hash, eq, key);
    if (ix->slots[i].pos_plus_one != 0)
        return ix->slots[i].pos_plus_one - 1;
    ix->slots[i].pos_plus_one = pos + 1;
    ix->slots[i].hash = (uint32_t)(hash >> 32);
    ix->used++;
    if (ix->used * 2 > ix->mask + 1 && !grow(ix))
        return URC_INDEX_NONE;
    return pos;
}
