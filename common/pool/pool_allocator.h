// SPDX-License-Identifier: MIT
// A USM pool over an adapter's native allocation call: power-of-two size classes carved out
// of slabs the driver gives, sharded free lists (a thread locks only its own shard of a class,
// never a pool-wide lock), allocations above the poolable limit straight to the driver, and
// a process-wide registry that finds the pool of any pointer without taking a lock.
#ifndef URC_COMMON_POOL_POOL_ALLOCATOR_H
#define URC_COMMON_POOL_POOL_ALLOCATOR_H

#include <stdbool.h>
#include <stddef.h>

#include "ur_api.h"

/// The driver below a pool. `native` is the adapter's own argument (context, device, type).
typedef struct urc_pool_ops_t {
    /// Allocates `size` bytes aligned to at least `align` (a power of two), zero-filled when
    /// `zero`; returns a UR result (OUT_OF_*_MEMORY when the driver has none).
    ur_result_t (*alloc)(void *native, size_t size, size_t align, bool zero, void **out);
    /// Gives back what `alloc` returned.
    ur_result_t (*free)(void *native, void *ptr);
} urc_pool_ops_t;

/// A pool's limits. Zero fields take the defaults below.
typedef struct urc_pool_config_t {
    size_t max_poolable;       ///< larger requests bypass the pool (ur_usm_pool_limits_desc_t)
    size_t min_driver_alloc;   ///< the smallest slab asked of the driver (idem)
    size_t max_size;           ///< the most the pool may hold from the driver; 0: no limit
    size_t max_align;          ///< the largest alignment the driver honours for a slab
    bool zero_init;            ///< UR_USM_POOL_FLAG_ZERO_INITIALIZE_BLOCK: driver blocks zeroed
    ur_result_t out_of_memory; ///< the result when max_size is reached (host or device kind)
} urc_pool_config_t;

#define URC_POOL_DEFAULT_MAX_POOLABLE     ((size_t)4 << 20)
#define URC_POOL_DEFAULT_MIN_DRIVER_ALLOC ((size_t)64 << 10)
#define URC_POOL_DEFAULT_MAX_ALIGN        ((size_t)256)
#define URC_POOL_MIN_CLASS                ((size_t)64)
#define URC_POOL_BUFFER_MIN_SLAB          ((size_t)4 << 10) // in the caller's memory

/// What a pool holds: `used` is handed out (whole size classes), `reserved` taken from the
/// driver; each with its high-water mark.
typedef struct urc_pool_stats_t {
    size_t used, used_high, reserved, reserved_high;
} urc_pool_stats_t;

typedef struct urc_pool_t urc_pool_t;

/// Creates an empty pool (no driver call). `owner` is the adapter's handle, returned by
/// urc_pool_owner. OUT_OF_HOST_MEMORY or INVALID_VALUE (a limit that is not usable).
ur_result_t urc_pool_create(const urc_pool_ops_t *ops, void *native, void *owner,
                            const urc_pool_config_t *config, urc_pool_t **out);

/// Gives every block back to the driver, allocations still in use included, and frees the pool.
void urc_pool_destroy(urc_pool_t *pool);

/// Allocates `size` bytes (0 is taken as 1) aligned to `align` (0 or a power of two).
ur_result_t urc_pool_alloc(urc_pool_t *pool, size_t size, size_t align, void **out);

/// Frees an allocation of this pool: INVALID_MEM_OBJECT for a pointer the pool did not hand
/// out (never allocated, freed already, or not the start of an allocation).
ur_result_t urc_pool_free(urc_pool_t *pool, void *ptr);

/// The pool that handed out the allocation holding `ptr` (any byte of a pooled allocation; the
/// start of a large one), or NULL. Lock-free. With `base`/`size`, the allocation's extent.
urc_pool_t *urc_pool_find(const void *ptr, void **base, size_t *size);

/// Like urc_pool_find, for a large allocation's interior pointer: the caller knows the
/// driver's allocation base (from a pointer query) and asks about it.
urc_pool_t *urc_pool_find_large(const void *driver_base);

void *urc_pool_owner(const urc_pool_t *pool);
void *urc_pool_native(const urc_pool_t *pool);

/// Gives empty slabs back to the driver until at most `keep` bytes stay reserved.
void urc_pool_trim(urc_pool_t *pool, size_t keep);

/// Reserved bytes above which a slab is given back as soon as it empties (default: keep all).
void urc_pool_set_release_threshold(urc_pool_t *pool, size_t bytes);
size_t urc_pool_release_threshold(const urc_pool_t *pool);

void urc_pool_stats(const urc_pool_t *pool, urc_pool_stats_t *out);
const urc_pool_config_t *urc_pool_config(const urc_pool_t *pool);

/// Restarts a high-water mark at the current value (UR lets a pool's HIGH counters be set to 0).
void urc_pool_reset_high(urc_pool_t *pool, bool used, bool reserved);

/// Reads a `ur_usm_pool_desc_t` chain into a config (limits descriptor, zero-init flag) and
/// finds its `ur_usm_pool_buffer_desc_t` (a pool in the caller's memory; NULL when none);
/// INVALID_VALUE for an unknown structure in the chain, a second buffer descriptor or a chain
/// longer than 64.
ur_result_t urc_pool_config_from_desc(const ur_usm_pool_desc_t *desc, urc_pool_config_t *out,
                                      const ur_usm_pool_buffer_desc_t **buffer);

#endif // URC_COMMON_POOL_POOL_ALLOCATOR_H
