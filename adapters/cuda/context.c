// SPDX-License-Identifier: MIT
// urContext*: a set of devices. Each device's primary CUDA context does the work, so a UR
// context owns no native object, only its device list and the extended deleters.
#include "cuda_internal.h"
#include "pool/pool_handle.h"
#include "core/release.h"

bool cuda_context_has_device(const cuda_context_t *ctx, const cuda_device_t *dev) {
    for (uint32_t i = 0; i < ctx->ndevices; ++i)
        if (ctx->devices[i] == dev)
            return true;
    return false;
}

static ur_result_t create(uint32_t count, const ur_device_handle_t *devices,
                          ur_context_handle_t *phContext) {
    for (uint32_t i = 0; i < count; ++i)
        if (!cuda_is(devices[i], URC_KIND_DEVICE))
            return UR_RESULT_ERROR_INVALID_DEVICE;
    cuda_context_t *ctx = URC_NEW(cuda_context_t);
    if (ctx == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ctx->devices = urc_calloc(count, sizeof *ctx->devices);
    if (ctx->devices == NULL) {
        free(ctx);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (uint32_t i = 0; i < count; ++i)
        ctx->devices[i] = CUDA_DEVICE(devices[i]);
    ctx->ndevices = count;
    pthread_mutex_init(&ctx->lock, NULL);
    urc_object_init(&ctx->obj, &cuda_ddi, URC_KIND_CONTEXT);
    *phContext = (ur_context_handle_t)ctx;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_context_create(uint32_t DeviceCount, const ur_device_handle_t *phDevices,
                                const ur_context_properties_t *pProperties,
                                ur_context_handle_t *phContext) {
    (void)pProperties;
    return create(DeviceCount, phDevices, phContext);
}

static void context_destroy(cuda_context_t *ctx);

void cuda_context_retain_internal(cuda_context_t *ctx) {
    urc_hold(&ctx->obj);
}

void cuda_context_release_internal(cuda_context_t *ctx) {
    if (urc_unhold(&ctx->obj))
        context_destroy(ctx);
}

static void context_destroy(cuda_context_t *ctx) {
    urc_usm_pool_context_destroyed((ur_context_handle_t)ctx); // its default pool, first
    cuda_usm_async_context_destroyed(ctx); // the record of its enqueued allocations
    // Deleters run last-registered first, as destructors would.
    urc_deleters_run(&ctx->deleters);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx->devices);
    URC_OBJECT_FREE(ctx);
}

URC_RETAIN_RELEASE(cuda_context, ur_context_handle_t, CUDA_CONTEXT, UR_RESULT_ERROR_INVALID_CONTEXT,
                   "urContextRelease", context_destroy)

URC_CONTEXT_GET_INFO(cuda, CUDA_CONTEXT)

// The native handle is the first device's primary context, which is what UR hands out.
ur_result_t cuda_context_get_native_handle(ur_context_handle_t hContext,
                                           ur_native_handle_t *phNativeContext) {
    *phNativeContext = (ur_native_handle_t)CUDA_CONTEXT(hContext)->devices[0]->ctx;
    return UR_RESULT_SUCCESS;
}

// Only a device's primary context can be adopted: the adapter runs every device in its primary
// context, so any other CUcontext would be silently ignored.
ur_result_t cuda_context_create_with_native_handle(
    ur_native_handle_t hNativeContext, ur_adapter_handle_t hAdapter, uint32_t numDevices,
    const ur_device_handle_t *phDevices, const ur_context_native_properties_t *pProperties,
    ur_context_handle_t *phContext) {
    (void)hAdapter;
    (void)pProperties;
    CUcontext native = (CUcontext)hNativeContext;
    cuda_platform_t *p = cuda_platform();
    if (p == NULL)
        return UR_RESULT_ERROR_DEVICE_NOT_FOUND;
    if (numDevices == 0 || phDevices == NULL) {
        for (uint32_t i = 0; i < p->ndevices; ++i) {
            if (p->devices[i].ctx == native) {
                ur_device_handle_t dev = (ur_device_handle_t)&p->devices[i];
                return create(1, &dev, phContext);
            }
        }
    } else {
        bool all_primary = true;
        for (uint32_t i = 0; i < numDevices; ++i)
            all_primary = all_primary && cuda_is(phDevices[i], URC_KIND_DEVICE) &&
                          CUDA_DEVICE(phDevices[i])->ctx == native;
        if (all_primary)
            return create(numDevices, phDevices, phContext);
    }
    return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                         "only a device's primary CUcontext can be wrapped in a UR context");
}

ur_result_t cuda_context_set_extended_deleter(ur_context_handle_t hContext,
                                              ur_context_extended_deleter_t pfnDeleter,
                                              void *pUserData) {
    return urc_deleter_add(&CUDA_CONTEXT(hContext)->deleters, &CUDA_CONTEXT(hContext)->lock,
                           pfnDeleter, pUserData);
}
