// SPDX-License-Identifier: MIT
// urAdapter*: the adapter is one static object; it exists even without a Level Zero driver, so
// that urAdapterGet always succeeds and urPlatformGet can answer "no platform".
#include "l0_internal.h"

static urc_object_t adapter = {&l0_ddi, 0, URC_KIND_ADAPTER, 0};

urc_logger_t *l0_log(void) {
    return urc_logger(URC_ENV_LOG_LEVEL_ZERO);
}

ur_adapter_handle_t l0_adapter_handle(void) {
    return (ur_adapter_handle_t)&adapter;
}

ur_result_t l0_adapter_get(uint32_t NumEntries, ur_adapter_handle_t *phAdapters,
                           uint32_t *pNumAdapters) {
    if (NumEntries > 0 && phAdapters != NULL) {
        urc_quarantine_set_logger(l0_log());
        urc_user_retain(&adapter);
        phAdapters[0] = l0_adapter_handle();
    }
    if (pNumAdapters != NULL)
        *pNumAdapters = 1;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_adapter_retain(ur_adapter_handle_t hAdapter) {
    if (!l0_is(hAdapter, URC_KIND_ADAPTER))
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    urc_user_retain(&adapter);
    return UR_RESULT_SUCCESS;
}

// Platforms and devices live as long as the process (SYCL keeps their handles in static
// caches, and the Level Zero loader cannot be initialised twice), so the last release only
// waits for the pending host tasks and event callbacks, as the CUDA adapter's does, and stops
// their threads (host tasks first: an event callback may wait for one).
ur_result_t l0_adapter_release(ur_adapter_handle_t hAdapter) {
    if (!l0_is(hAdapter, URC_KIND_ADAPTER))
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    urc_release_t released = urc_user_release(&adapter);
    if (released == URC_RELEASE_REFUSED)
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (released == URC_RELEASE_DESTROY) {
        l0_host_tasks_stop(true);
        l0_callbacks_stop(true);
        urc_quarantine_drain(); // released handles are freed at last
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_adapter_get_last_error(ur_adapter_handle_t hAdapter, const char **ppMessage,
                                      int32_t *pError) {
    (void)hAdapter;
    urc_error_get(ppMessage, pError);
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_adapter_get_info(ur_adapter_handle_t hAdapter, ur_adapter_info_t propName,
                                size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    (void)hAdapter;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    // Version 1: the v1 semantics, as UR's legacy adapter reports.
    return urc_info_adapter(&out, propName, UR_BACKEND_LEVEL_ZERO, urc_refcount(&adapter));
}

ur_result_t l0_adapter_set_logger_callback(ur_adapter_handle_t hAdapter,
                                           ur_logger_callback_t pfnLoggerCallback, void *pUserData,
                                           ur_logger_level_t level) {
    (void)hAdapter;
    urc_log_set_callback(l0_log(), pfnLoggerCallback, pUserData, level);
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_adapter_set_logger_callback_level(ur_adapter_handle_t hAdapter,
                                                 ur_logger_level_t level) {
    (void)hAdapter;
    urc_log_set_callback_level(l0_log(), level);
    return UR_RESULT_SUCCESS;
}
