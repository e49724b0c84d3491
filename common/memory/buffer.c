// SPDX-License-Identifier: MIT
// Backend-independent argument rules of buffers and sub-buffers (buffer.h).
#include "memory/buffer.h"

#include "core/error.h"
#include "memory/ranges.h"

static const ur_mem_flags_t host_flags = UR_MEM_FLAG_USE_HOST_POINTER |
                                         UR_MEM_FLAG_ALLOC_HOST_POINTER |
                                         UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER;

ur_result_t urc_buffer_check_create(ur_mem_flags_t flags, const void *host) {
    bool wants_host =
        (flags & (UR_MEM_FLAG_USE_HOST_POINTER | UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER)) != 0;
    if (wants_host != (host != NULL))
        return urc_error_set(UR_RESULT_ERROR_INVALID_HOST_PTR, 0,
                             "urMemBufferCreate: host pointer %p with flags 0x%x", host,
                             (unsigned)flags);
    // The caller's memory is either used in place or copied or allocated anew, not both.
    if ((flags & UR_MEM_FLAG_USE_HOST_POINTER) &&
        (flags & (UR_MEM_FLAG_ALLOC_HOST_POINTER | UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER)))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "urMemBufferCreate: USE_HOST_POINTER with an ALLOC flag (0x%x)",
                             (unsigned)flags);
    return UR_RESULT_SUCCESS;
}

// A write-only parent gives no read access to its parts, a read-only one no write access.
static bool narrows(ur_mem_flags_t parent, ur_mem_flags_t sub) {
    if ((parent & UR_MEM_FLAG_WRITE_ONLY) &&
        (sub & (UR_MEM_FLAG_READ_WRITE | UR_MEM_FLAG_READ_ONLY)))
        return false;
    if ((parent & UR_MEM_FLAG_READ_ONLY) &&
        (sub & (UR_MEM_FLAG_READ_WRITE | UR_MEM_FLAG_WRITE_ONLY)))
        return false;
    return true;
}

ur_result_t urc_buffer_check_partition(bool parent_is_sub, size_t parent_size,
                                       ur_mem_flags_t parent_flags, ur_mem_flags_t flags,
                                       const ur_buffer_region_t *region) {
    if (parent_is_sub)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "urMemBufferPartition: a sub-buffer cannot be partitioned again");
    if (flags & host_flags)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "urMemBufferPartition: host-pointer flags are not allowed");
    if (!narrows(parent_flags, flags))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "urMemBufferPartition: flags 0x%x widen the buffer's access 0x%x",
                             (unsigned)flags, (unsigned)parent_flags);
    if (!urc_range_fits(parent_size, region->origin, region->size))
        return urc_error_set(UR_RESULT_ERROR_INVALID_BUFFER_SIZE, 0,
                             "region [%zu, +%zu) outside a buffer of %zu bytes", region->origin,
                             region->size, parent_size);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_buffer_check_sub_buffer(bool parent_is_image, bool parent_is_sub,
                                        size_t parent_size, ur_mem_flags_t parent_flags,
                                        ur_mem_flags_t *flags, const ur_buffer_region_t *region) {
    if (parent_is_image)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0, "an image has no sub-buffers");
    if (*flags == 0)
        *flags = UR_MEM_FLAG_READ_WRITE;
    return urc_buffer_check_partition(parent_is_sub, parent_size, parent_flags, *flags, region);
}
