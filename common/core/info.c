// SPDX-License-Identifier: MIT
// Answers to get-info queries (info.h).
#include "core/info.h"

#include "core/error.h"

ur_result_t urc_info_reserve(const urc_info_t *out, size_t size) {
    // The needed size is reported even when the buffer turns out too small, so a caller can
    // retry with the right size.
    if (out->size_ret != NULL)
        *out->size_ret = size;
    if (out->value != NULL && out->size < size)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "value buffer of %zu bytes, %zu needed", out->size, size);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_info_bytes(const urc_info_t *out, const void *data, size_t size) {
    ur_result_t res = urc_info_reserve(out, size);
    if (res == UR_RESULT_SUCCESS && out->value != NULL && size != 0)
        memcpy(out->value, data, size);
    return res;
}

ur_result_t urc_info_exact(const urc_info_t *out, const void *data, size_t size) {
    if (out->value != NULL && out->size != size) {
        if (out->size_ret != NULL)
            *out->size_ret = size;
        return UR_RESULT_ERROR_INVALID_SIZE;
    }
    return urc_info_bytes(out, data, size);
}

ur_result_t urc_info_adapter(const urc_info_t *out, ur_adapter_info_t propName,
                             ur_backend_t backend, uint32_t refcount) {
    switch (propName) {
    case UR_ADAPTER_INFO_BACKEND:
        return urc_info_bytes(out, &backend, sizeof backend);
    case UR_ADAPTER_INFO_REFERENCE_COUNT:
        return urc_info_u32(out, refcount);
    case UR_ADAPTER_INFO_VERSION:
        return urc_info_u32(out, 1);
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

ur_result_t urc_info_context(const urc_info_t *out, ur_context_info_t propName, uint32_t ndevices,
                             const ur_device_handle_t *devices, uint32_t refcount, bool usm_2d) {
    switch (propName) {
    case UR_CONTEXT_INFO_NUM_DEVICES:
        return urc_info_u32(out, ndevices);
    case UR_CONTEXT_INFO_DEVICES:
        return urc_info_bytes(out, devices, ndevices * sizeof *devices);
    case UR_CONTEXT_INFO_REFERENCE_COUNT:
        return urc_info_u32(out, refcount);
    case UR_CONTEXT_INFO_USM_MEMCPY2D_SUPPORT:
    case UR_CONTEXT_INFO_USM_FILL2D_SUPPORT:
        return urc_info_bool(out, usm_2d);
    default:
        // Unreachable through the entry points: their checks reject unknown enumerators.
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

ur_result_t urc_info_queue(const urc_info_t *out, ur_queue_info_t propName,
                           ur_context_handle_t context, ur_device_handle_t device,
                           ur_queue_flags_t flags, uint32_t refcount) {
    switch (propName) {
    case UR_QUEUE_INFO_CONTEXT:
        return urc_info_ptr(out, context);
    case UR_QUEUE_INFO_DEVICE:
        return urc_info_ptr(out, device);
    case UR_QUEUE_INFO_FLAGS:
        return urc_info_u32(out, flags);
    case UR_QUEUE_INFO_REFERENCE_COUNT:
        return urc_info_u32(out, refcount);
    default:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
}

ur_result_t urc_info_mem(const urc_info_t *out, ur_mem_info_t propName, size_t size,
                         ur_context_handle_t context, uint32_t refcount) {
    switch (propName) {
    case UR_MEM_INFO_SIZE:
        return urc_info_size(out, size);
    case UR_MEM_INFO_CONTEXT:
        return urc_info_ptr(out, context);
    case UR_MEM_INFO_REFERENCE_COUNT:
        return urc_info_u32(out, refcount);
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

ur_result_t urc_backend_option(const urc_backend_option_t *table, size_t count,
                               const char *frontend, const char **backend) {
    for (size_t i = 0; i < count; ++i) {
        if (strcmp(frontend, table[i].frontend) == 0) {
            *backend = table[i].backend;
            return UR_RESULT_SUCCESS;
        }
    }
    return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0, "unknown frontend option '%s'",
                         frontend);
}
