// SPDX-License-Identifier: MIT
// The allocator below a pool made in the caller's memory (ur_usm_pool_buffer_desc_t): instead of
// calling the driver, a pool's slabs and large blocks are carved out of one address range, first
// fit at any power-of-two alignment, and given back to it. The bookkeeping is host-side (the
// range may be device memory). Live ranges never overlap, process-wide.
#ifndef URC_COMMON_POOL_POOL_IN_RANGE_H
#define URC_COMMON_POOL_POOL_IN_RANGE_H

#include "pool/pool_allocator.h"

typedef struct urc_pool_range_t urc_pool_range_t;

/// Zeroes `size` bytes at `ptr` (for UR_USM_POOL_FLAG_ZERO_INITIALIZE_BLOCK).
typedef ur_result_t (*urc_pool_range_zero_t)(void *arg, void *ptr, size_t size);

/// A range of `size` bytes at `base`; `out_of_memory` is the result when it is full.
/// INVALID_VALUE when the range wraps or overlaps a live range, OUT_OF_HOST_MEMORY.
ur_result_t urc_pool_range_create(void *base, size_t size, ur_result_t out_of_memory,
                                  urc_pool_range_zero_t zero, void *zero_arg,
                                  urc_pool_range_t **out);

/// Forgets the range (whatever is still carved out of it is the caller's concern).
void urc_pool_range_destroy(urc_pool_range_t *range);

/// Pool operations carving from the range; their `native` is the urc_pool_range_t.
extern const urc_pool_ops_t urc_pool_range_ops;

#endif // URC_COMMON_POOL_POOL_IN_RANGE_H
