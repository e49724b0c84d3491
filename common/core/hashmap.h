// SPDX-License-Identifier: MIT
// A small open-addressing index from hashed keys to positions in the caller's own array, for
// modules that look names up among thousands of entries (props, vfselect). The index stores
// only positions and hashes; the caller says whether the entry at a position matches a key, so
// keys of any shape (one string, a set and a name, a pointer and a length) use the same code.
#ifndef URC_COMMON_CORE_HASHMAP_H
#define URC_COMMON_CORE_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define URC_HASH_INIT  UINT64_C(0xcbf29ce484222325)
#define URC_INDEX_NONE UINT32_MAX

/// FNV-1a over `n` bytes, continuing from `h` (start with URC_HASH_INIT), so a key made of
/// several parts hashes without being concatenated first.
uint64_t urc_hash_bytes(uint64_t h, const void *data, size_t n);

static inline uint64_t urc_hash_str(uint64_t h, const char *s) {
    return urc_hash_bytes(h, s, s != NULL ? strlen(s) : 0);
}

typedef struct urc_index_slot_t {
    uint32_t pos_plus_one; // 0: empty
    uint32_t hash;         // low bits of the key's hash, to skip most comparisons
} urc_index_slot_t;

typedef struct urc_index_t {
    urc_index_slot_t *slots;
    size_t mask; // capacity - 1 (capacity is a power of two)
    size_t used;
} urc_index_t;

/// True when the entry at `pos` has the key that `key` describes.
typedef bool (*urc_index_eq_fn)(const void *key, uint32_t pos);

/// Sizes the index for about `expected` entries; false when out of memory.
bool urc_index_init(urc_index_t *ix, size_t expected);
void urc_index_free(urc_index_t *ix);

/// The position stored for the key, or URC_INDEX_NONE.
uint32_t urc_index_find(const urc_index_t *ix, uint64_t hash, urc_index_eq_fn eq, const void *key);

/// Stores `pos` for the key unless an entry already has it. Returns the position now stored for
/// the key (`pos` or the earlier one), or URC_INDEX_NONE when growing the index failed.
uint32_t urc_index_insert(urc_index_t *ix, uint64_t hash, uint32_t pos, urc_index_eq_fn eq,
                          const void *key);

#endif // URC_COMMON_CORE_HASHMAP_H
