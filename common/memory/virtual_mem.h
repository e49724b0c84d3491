// SPDX-License-Identifier: MIT
// The rules of urVirtualMem* and urPhysicalMem* every adapter with virtual memory shares:
// granularity checks before the driver sees a range, and urPhysicalMemGetInfo's answers.
#ifndef URC_COMMON_MEMORY_VIRTUAL_MEM_H
#define URC_COMMON_MEMORY_VIRTUAL_MEM_H

#include "core/info.h"

/// `size` must be a non-zero multiple of `granularity` (else `bad_size`, INVALID_SIZE for
/// reservations and physical memory) and `start` aligned to it (else INVALID_VALUE).
ur_result_t urc_vm_check_range(const void *start, size_t size, size_t granularity,
                               ur_result_t bad_size);

/// A mapping of `size` bytes at `offset` must lie inside the physical memory's `total`.
ur_result_t urc_vm_check_offset(size_t offset, size_t size, size_t total);

/// urPhysicalMemGetInfo from the object's facts.
ur_result_t urc_physical_mem_info(const urc_info_t *out, ur_physical_mem_info_t propName,
                                  ur_context_handle_t context, ur_device_handle_t device,
                                  size_t size, const ur_physical_mem_properties_t *props,
                                  uint32_t refcount);

/// urPhysicalMemGetInfo of adapter `prefix`, whose physical-memory object `object(h)` keeps
/// `ctx`, `dev`, `size`, `props` and its header `obj`.
#define URC_PHYSICAL_MEM_GET_INFO(prefix, object)                                                  \
    ur_result_t prefix##_physical_mem_get_info(ur_physical_mem_handle_t hPhysicalMem,              \
                                               ur_physical_mem_info_t propName, size_t propSize,   \
                                               void *pPropValue, size_t *pPropSizeRet) {           \
        const urc_info_t out = {propSize, pPropValue, pPropSizeRet};                               \
        return urc_physical_mem_info(                                                              \
            &out, propName, (ur_context_handle_t)object(hPhysicalMem)->ctx,                        \
            (ur_device_handle_t)object(hPhysicalMem)->dev, object(hPhysicalMem)->size,             \
            &object(hPhysicalMem)->props, urc_refcount(&object(hPhysicalMem)->obj));               \
    }

#endif // URC_COMMON_MEMORY_VIRTUAL_MEM_H
