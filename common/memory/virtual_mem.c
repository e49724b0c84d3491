// SPDX-License-Identifier: MIT
// Shared rules of virtual and physical memory (virtual_mem.h).
#include "memory/virtual_mem.h"

#include <stdint.h>

#include "core/error.h"

ur_result_t urc_vm_check_range(const void *start, size_t size, size_t granularity,
                               ur_result_t bad_size) {
    if (granularity == 0)
        return UR_RESULT_ERROR_INVALID_VALUE;
    if (size == 0 || size % granularity != 0)
        return urc_error_set(bad_size, 0, "%zu bytes is not a multiple of the %zu-byte granularity",
                             size, granularity);
    if ((uintptr_t)start % granularity != 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%p is not aligned to the %zu-byte granularity", start, granularity);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_vm_check_offset(size_t offset, size_t size, size_t total) {
    if (offset > total || size > total - offset)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "mapping %zu bytes at offset %zu of %zu-byte physical memory", size,
                             offset, total);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_physical_mem_info(const urc_info_t *out, ur_physical_mem_info_t propName,
                                  ur_context_handle_t context, ur_device_handle_t device,
                                  size_t size, const ur_physical_mem_properties_t *props,
                                  uint32_t refcount) {
    switch (propName) {
    case UR_PHYSICAL_MEM_INFO_CONTEXT:
        return urc_info_ptr(out, context);
    case UR_PHYSICAL_MEM_INFO_DEVICE:
        return urc_info_ptr(out, device);
    case UR_PHYSICAL_MEM_INFO_SIZE:
        return urc_info_size(out, size);
    case UR_PHYSICAL_MEM_INFO_PROPERTIES:
        return urc_info_bytes(out, props, sizeof *props);
    case UR_PHYSICAL_MEM_INFO_REFERENCE_COUNT:
        return urc_info_u32(out, refcount);
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}
