// SPDX-License-Identifier: MIT
// The urAdapter* entry points of an adapter that is one static object (CUDA, Level Zero): it
// exists even without a driver, so urAdapterGet always succeeds and urPlatformGet can answer
// "no platform".
#ifndef URC_COMMON_CORE_STATIC_ADAPTER_H
#define URC_COMMON_CORE_STATIC_ADAPTER_H

#include "core/error.h"
#include "core/info.h"
#include "core/object.h"
#include "core/quarantine.h"
#include "env/log.h"

/// Defines `prefix`_adapter_handle (the one handle) and `prefix`_adapter_get, _retain,
/// _release, _get_last_error, _get_info, _set_logger_callback and _set_logger_callback_level
/// for the adapter whose table is `prefix`_ddi. `backend` is what UR_ADAPTER_INFO_BACKEND
/// answers, `log()` the adapter's logger (released handles log to it too), and `teardown()`
/// runs at the last release and must call urc_quarantine_drain, which frees the released
/// handles. A release past zero is INVALID_NULL_HANDLE.
#define URC_STATIC_ADAPTER(prefix, backend, log, teardown)                                         \
    static urc_object_t prefix##_adapter = {&prefix##_ddi, 0, URC_KIND_ADAPTER, 0};                \
    ur_adapter_handle_t prefix##_adapter_handle(void) {                                            \
        return (ur_adapter_handle_t)&prefix##_adapter;                                             \
    }                                                                                              \
    ur_result_t prefix##_adapter_get(uint32_t NumEntries, ur_adapter_handle_t *phAdapters,         \
                                     uint32_t *pNumAdapters) {                                     \
        if (NumEntries > 0 && phAdapters != NULL) {                                                \
            urc_quarantine_set_logger(log());                                                      \
            urc_user_retain(&prefix##_adapter);                                                    \
            phAdapters[0] = prefix##_adapter_handle();                                             \
        }                                                                                          \
        if (pNumAdapters != NULL)                                                                  \
            *pNumAdapters = 1;                                                                     \
        return UR_RESULT_SUCCESS;                                                                  \
    }                                                                                              \
    ur_result_t prefix##_adapter_retain(ur_adapter_handle_t hAdapter) {                            \
        (void)hAdapter; /* the generated wrapper checked it: it is the one handle */               \
        urc_user_retain(&prefix##_adapter);                                                        \
        return UR_RESULT_SUCCESS;                                                                  \
    }                                                                                              \
    ur_result_t prefix##_adapter_release(ur_adapter_handle_t hAdapter) {                           \
        (void)hAdapter;                                                                            \
        urc_release_t released = urc_user_release(&prefix##_adapter);                              \
        if (released == URC_RELEASE_REFUSED)                                                       \
            return UR_RESULT_ERROR_INVALID_NULL_HANDLE;                                            \
        if (released == URC_RELEASE_DESTROY)                                                       \
            teardown();                                                                            \
        return UR_RESULT_SUCCESS;                                                                  \
    }                                                                                              \
    ur_result_t prefix##_adapter_get_last_error(ur_adapter_handle_t hAdapter,                      \
                                                const char **ppMessage, int32_t *pError) {         \
        (void)hAdapter;                                                                            \
        urc_error_get(ppMessage, pError);                                                          \
        return UR_RESULT_SUCCESS;                                                                  \
    }                                                                                              \
    ur_result_t prefix##_adapter_get_info(ur_adapter_handle_t hAdapter,                            \
                                          ur_adapter_info_t propName, size_t propSize,             \
                                          void *pPropValue, size_t *pPropSizeRet) {                \
        (void)hAdapter;                                                                            \
        const urc_info_t out = {propSize, pPropValue, pPropSizeRet};                               \
        return urc_info_adapter(&out, propName, backend, urc_refcount(&prefix##_adapter));         \
    }                                                                                              \
    ur_result_t prefix##_adapter_set_logger_callback(ur_adapter_handle_t hAdapter,                 \
                                                     ur_logger_callback_t pfnLoggerCallback,       \
                                                     void *pUserData, ur_logger_level_t level) {   \
        (void)hAdapter;                                                                            \
        urc_log_set_callback(log(), pfnLoggerCallback, pUserData, level);                          \
        return UR_RESULT_SUCCESS;                                                                  \
    }                                                                                              \
    ur_result_t prefix##_adapter_set_logger_callback_level(ur_adapter_handle_t hAdapter,           \
                                                           ur_logger_level_t level) {              \
        (void)hAdapter;                                                                            \
        urc_log_set_callback_level(log(), level);                                                  \
        return UR_RESULT_SUCCESS;                                                                  \
    }

#endif // URC_COMMON_CORE_STATIC_ADAPTER_H
