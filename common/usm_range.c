// SPDX-License-Identifier: MIT
#include "usm_range.h"

#include <stdint.h>

#include "error.h"

ur_result_t urc_usm_range_check(urc_usm_lookup_fn lookup, void *backend, const void *ptr,
                                size_t size) {
    uintptr_t start = (uintptr_t)ptr;
    if (size > UINTPTR_MAX - start)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "%zu bytes from %p wrap around the address space", size, ptr);
    const void *base = NULL;
    size_t alloc_size = 0;
    if (lookup == NULL || !lookup(backend, ptr, &base, &alloc_size))
        return UR_RESULT_SUCCESS;
    if (start < (uintptr_t)base)
        return UR_RESULT_SUCCESS; // not an allocation holding ptr after all
    size_t offset = (size_t)(start - (uintptr_t)base);
    if (offset > alloc_size || size > alloc_size - offset)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "%zu bytes from %p pass the end of its USM allocation (%zu bytes "
                             "at %p)",
                             size, ptr, alloc_size, base);
    return UR_RESULT_SUCCESS;
}

size_t urc_usm_host_limit(urc_usm_lookup_fn lookup, void *backend, const void *ptr) {
    uintptr_t start = (uintptr_t)ptr;
    const void *base = NULL;
    size_t size = 0;
    if (lookup != NULL && lookup(backend, ptr, &base, &size) && start >= (uintptr_t)base &&
        start - (uintptr_t)base <= size)
        return size - (size_t)(start - (uintptr_t)base);
    return start < URC_USER_ADDRESS_END ? (size_t)(URC_USER_ADDRESS_END - start) : 0;
}

ur_result_t urc_usm_range_check_2d(urc_usm_lookup_fn lookup, void *backend, const void *ptr,
                                   size_t pitch, size_t width, size_t height) {
    if (height == 0 || width == 0)
        return UR_RESULT_SUCCESS;
    if (height - 1 > 0 && pitch > (SIZE_MAX - width) / (height - 1))
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "%zu rows %zu bytes apart overflow a size_t", height, pitch);
    return urc_usm_range_check(lookup, backend, ptr, (height - 1) * pitch + width);
}
