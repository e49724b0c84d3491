// SPDX-License-Identifier: MIT
// The argument rules of urMemBufferCreate and urMemBufferPartition that hold whatever the
// backend: which flags go with a host pointer, and what a sub-buffer may be; the entry points
// of rectangular reads and writes over one adapter function.
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

/// urMemBufferPartition where the backend keeps no access flags of its own: an image has no
/// sub-buffers (INVALID_MEM_OBJECT), `*flags` 0 become READ_WRITE, then
/// urc_buffer_check_partition.
ur_result_t urc_buffer_check_sub_buffer(bool parent_is_image, bool parent_is_sub,
                                        size_t parent_size, ur_mem_flags_t parent_flags,
                                        ur_mem_flags_t *flags, const ur_buffer_region_t *region);

/// urMemBufferPartition of adapter `prefix` whose memory objects `object(h)` keep `is_image`,
/// `parent` (NULL for a buffer of its own), `size` and `flags`: urc_buffer_check_sub_buffer,
/// then `sub_buffer(object(hBuffer), flags, pRegion, phMem)` makes the sub-buffer.
#define URC_BUFFER_PARTITION(prefix, object, sub_buffer)                                           \
    ur_result_t prefix##_mem_buffer_partition(                                                     \
        ur_mem_handle_t hBuffer, ur_mem_flags_t flags, ur_buffer_create_type_t bufferCreateType,   \
        const ur_buffer_region_t *pRegion, ur_mem_handle_t *phMem) {                               \
        (void)bufferCreateType; /* REGION is the only type */                                      \
        ur_result_t res = urc_buffer_check_sub_buffer(                                             \
            object(hBuffer)->is_image, object(hBuffer)->parent != NULL, object(hBuffer)->size,     \
            object(hBuffer)->flags, &flags, pRegion);                                              \
        return res != UR_RESULT_SUCCESS ? res                                                      \
                                        : sub_buffer(object(hBuffer), flags, pRegion, phMem);      \
    }

/// One rectangular buffer read or write entry point `name`, forwarded to
/// `transfer_rect(write, <its arguments>)`.
#define URC_BUFFER_RECT_ENTRY(name, transfer_rect, write, blocking, host)                          \
    ur_result_t name(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer, bool blocking,             \
                     ur_rect_offset_t bufferOrigin, ur_rect_offset_t hostOrigin,                   \
                     ur_rect_region_t region, size_t bufferRowPitch, size_t bufferSlicePitch,      \
                     size_t hostRowPitch, size_t hostSlicePitch, void *host,                       \
                     uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,       \
                     ur_event_handle_t *phEvent) {                                                 \
        return transfer_rect(write, hQueue, hBuffer, blocking, bufferOrigin, hostOrigin, region,   \
                             bufferRowPitch, bufferSlicePitch, hostRowPitch, hostSlicePitch, host, \
                             numEventsInWaitList, phEventWaitList, phEvent);                       \
    }

/// urEnqueueMemBufferReadRect and urEnqueueMemBufferWriteRect of adapter `prefix`, both
/// forwarded to its `transfer_rect(bool write, <the entry point's arguments>)`.
#define URC_BUFFER_RECT_READ_WRITE(prefix, transfer_rect)                                          \
    URC_BUFFER_RECT_ENTRY(prefix##_enqueue_mem_buffer_read_rect, transfer_rect, false,             \
                          blockingRead, pDst)                                                      \
    URC_BUFFER_RECT_ENTRY(prefix##_enqueue_mem_buffer_write_rect, transfer_rect, true,             \
                          blockingWrite, pSrc)

#endif // URC_COMMON_MEMORY_BUFFER_H
