// SPDX-License-Identifier: MIT
// The argument rules of urMemBufferCreate and urMemBufferPartition that hold whatever the
// backend: which flags go with a host pointer, and what a sub-buffer may be.
#ifndef URC_COMMON_MEMORY_BUFFER_H
#define URC_COMMON_MEMORY_BUFFER_H

#include <stdbool.h>
#include <stddef.h>

#include "ur_api.h"

/// urMemBufferCreate: a host pointer goes with USE_HOST_POINTER or ALLOC_COPY_HOST_POINTER,
/// and only then (INVALID_HOST_PTR); USE_HOST_POINTER excludes both ALLOC flags
/// (INVALID_VALUE).
ur_result_t urc_buffer_check_create(ur_mem_flags_t flags, const void *host);

/// urMemBufferPartition of a buffer of `parent_size` bytes made with `parent_flags`: a
/// sub-buffer is not partitioned again (INVALID_MEM_OBJECT); `flags` take no host-pointer flag
/// and may narrow the parent's access, never widen it (INVALID_VALUE; pass parent_flags 0
/// where the backend checks access itself); the region lies inside the parent
/// (INVALID_BUFFER_SIZE).
ur_result_t urc_buffer_check_partition(bool parent_is_sub, size_t parent_size,
                                       ur_mem_flags_t parent_flags, ur_mem_flags_t flags,
                                       const ur_buffer_region_t *region);

#endif // URC_COMMON_MEMORY_BUFFER_H
