// SPDX-License-Identifier: MIT
// The adapter object: one per process, created on the first urAdapterGet, its platforms
// destroyed when the last reference goes.
#include "ocl_internal.h"
#include "core/release.h"

static struct ur_adapter_handle_t_ the_adapter = {
    .obj = {.ddi = &ocl_ddi, .refcount = 0, .kind = URC_KIND_ADAPTER},
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

// Serialises the 0 -> 1 and 1 -> 0 transitions of the reference count with discovery and
// teardown; ordinary retains and releases only touch the atomic count.
static pthread_mutex_t lifetime_lock = PTHREAD_MUTEX_INITIALIZER;

ur_adapter_handle_t ocl_the_adapter(void) {
    return &the_adapter;
}

urc_logger_t *ocl_log(void) {
    return urc_logger(URC_ENV_LOG_OPENCL);
}

ur_result_t ocl_adapter_get(uint32_t NumEntries, ur_adapter_handle_t *phAdapters,
                            uint32_t *pNumAdapters) {
    if (NumEntries > 0 && phAdapters != NULL) {
        urc_quarantine_set_logger(ocl_log());
        pthread_mutex_lock(&lifetime_lock);
        urc_user_retain(&the_adapter.obj);
        pthread_mutex_unlock(&lifetime_lock);
        phAdapters[0] = &the_adapter;
    }
    if (pNumAdapters != NULL)
        *pNumAdapters = 1;
    return UR_RESULT_SUCCESS;
}

URC_RETAIN(ocl_adapter, ur_adapter_handle_t, )

ur_result_t ocl_adapter_release(ur_adapter_handle_t hAdapter) {
    switch (urc_user_release(&hAdapter->obj)) {
    case URC_RELEASE_REFUSED:
        return urc_error_set(UR_RESULT_ERROR_INVALID_NULL_HANDLE, 0,
                             "urAdapterRelease: the adapter holds no reference");
    default:
        return UR_RESULT_SUCCESS;
    case URC_RELEASE_DESTROY:
        break;
    }
    // A urAdapterGet racing with this release may already have taken a new reference; it
    // then keeps the platforms, which are still valid.
    pthread_mutex_lock(&lifetime_lock);
    if (urc_refcount(&hAdapter->obj) == 0) {
        // Handles released before now are freed; the platforms and devices go into the
        // quarantine instead, so they still answer until the next teardown or unload.
        urc_quarantine_drain();
        ocl_platforms_destroy(hAdapter);
    }
    pthread_mutex_unlock(&lifetime_lock);
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_adapter_get_last_error(ur_adapter_handle_t hAdapter, const char **ppMessage,
                                       int32_t *pError) {
    (void)hAdapter; // checked by the generated wrapper
    urc_error_get(ppMessage, pError);
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_adapter_get_info(ur_adapter_handle_t hAdapter, ur_adapter_info_t propName,
                                 size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    return urc_info_adapter(&out, propName, UR_BACKEND_OPENCL, urc_refcount(&hAdapter->obj));
}

ur_result_t ocl_adapter_set_logger_callback(ur_adapter_handle_t hAdapter,
                                            ur_logger_callback_t pfnLoggerCallback, void *pUserData,
                                            ur_logger_level_t level) {
    (void)hAdapter; // checked by the generated wrapper
    urc_log_set_callback(ocl_log(), pfnLoggerCallback, pUserData, level);
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_adapter_set_logger_callback_level(ur_adapter_handle_t hAdapter,
                                                  ur_logger_level_t level) {
    (void)hAdapter; // checked by the generated wrapper
    urc_log_set_callback_level(ocl_log(), level);
    return UR_RESULT_SUCCESS;
}
