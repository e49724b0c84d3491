// SPDX-License-Identifier: MIT
// urAdapter*: the adapter is one static object; it exists even without a driver, so that
// urAdapterGet always succeeds and urPlatformGet can answer "no platform".
#include "cuda_internal.h"

static urc_object_t adapter = {&cuda_ddi, 0, URC_KIND_ADAPTER, 0};

ur_adapter_handle_t cuda_adapter_handle(void) {
    return (ur_adapter_handle_t)&adapter;
}

ur_result_t cuda_adapter_get(uint32_t NumEntries, ur_adapter_handle_t *phAdapters,
                             uint32_t *pNumAdapters) {
    if (NumEntries > 0 && phAdapters != NULL) {
        urc_quarantine_set_logger(cuda_log());
        urc_user_retain(&adapter);
        phAdapters[0] = cuda_adapter_handle();
    }
    if (pNumAdapters != NULL)
        *pNumAdapters = 1;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_adapter_retain(ur_adapter_handle_t hAdapter) {
    if (!cuda_is(hAdapter, URC_KIND_ADAPTER))
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    urc_user_retain(&adapter);
    return UR_RESULT_SUCCESS;
}

// As in UR, the last release tears the adapter down: the platform and its devices go, and
// every handle made from them is invalid from then on.
ur_result_t cuda_adapter_release(ur_adapter_handle_t hAdapter) {
    if (!cuda_is(hAdapter, URC_KIND_ADAPTER))
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    urc_release_t released = urc_user_release(&adapter);
    if (released == URC_RELEASE_REFUSED)
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (released == URC_RELEASE_DESTROY) {
        urc_quarantine_drain(); // released handles are freed at last
        cuda_platform_teardown();
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_adapter_get_last_error(ur_adapter_handle_t hAdapter, const char **ppMessage,
                                        int32_t *pError) {
    (void)hAdapter;
    urc_error_get(ppMessage, pError);
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_adapter_get_info(ur_adapter_handle_t hAdapter, ur_adapter_info_t propName,
                                  size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    (void)hAdapter;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    return urc_info_adapter(&out, propName, UR_BACKEND_CUDA, urc_refcount(&adapter));
}

ur_result_t cuda_adapter_set_logger_callback(ur_adapter_handle_t hAdapter,
                                             ur_logger_callback_t pfnLoggerCallback,
                                             void *pUserData, ur_logger_level_t level) {
    (void)hAdapter;
    urc_log_set_callback(cuda_log(), pfnLoggerCallback, pUserData, level);
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_adapter_set_logger_callback_level(ur_adapter_handle_t hAdapter,
                                                   ur_logger_level_t level) {
    (void)hAdapter;
    urc_log_set_callback_level(cuda_log(), level);
    return UR_RESULT_SUCCESS;
}
