// SPDX-License-Identifier: MIT
// Shared checks and refusals of host registration, import and peer access (see usm_exp.h).
#include "memory/usm_import_peer.h"

#include "core/error.h"

static bool range_ok(const void *p, size_t size) {
    return size != 0 && size <= UINTPTR_MAX - (uintptr_t)p;
}

ur_result_t urc_usm_host_register_check(const void *p, size_t size,
                                        const ur_exp_usm_host_alloc_register_properties_t *props,
                                        bool *read_only) {
    ur_exp_usm_host_alloc_register_flags_t flags = props != NULL ? props->flags : 0;
    if (flags & UR_EXP_USM_HOST_ALLOC_REGISTER_FLAGS_MASK)
        return urc_error_set(UR_RESULT_ERROR_INVALID_ENUMERATION, 0,
                             "unknown host registration flags 0x%x", (unsigned)flags);
    if (!range_ok(p, size))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "host range %p + %zu is empty or wraps", p, size);
    *read_only = (flags & UR_EXP_USM_HOST_ALLOC_REGISTER_FLAG_READ_ONLY) != 0;
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_usm_import_check(const void *p, size_t size) {
    if (!range_ok(p, size))
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "imported range %p + %zu is empty or wraps", p, size);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_usm_host_registered_already(const void *p, int32_t native) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, native,
                         "%p is registered already (or is the driver's own memory)", p);
}

ur_result_t urc_usm_host_not_registered(const void *p, int32_t native) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, native, "%p is not registered", p);
}

ur_result_t urc_peer_unreachable(uint32_t command, uint32_t peer, int32_t native) {
    return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, native,
                         "device %u cannot access device %u's memory", command, peer);
}

ur_result_t urc_peer_state_wrong(bool enabled, int32_t native) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, native,
                         enabled ? "peer access is enabled already" : "peer access is not enabled");
}
