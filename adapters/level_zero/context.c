// SPDX-License-Identifier: MIT
// urContext*: a UR context is one Level Zero context over its devices, plus the context's
// event pool cache. Every command takes an event from the cache and gives it back (reset) when
// the UR event is destroyed, so steady enqueueing creates no new Level Zero objects.
#include "l0_internal.h"
#include "pool/pool_handle.h"
#include "core/release.h"

bool l0_context_has_device(const l0_context_t *ctx, const l0_device_t *dev) {
    for (uint32_t i = 0; i < ctx->ndevices; ++i) {
        // A sub-device may use its root device's context.
        if (ctx->devices[i] == dev || ctx->devices[i] == dev->parent)
            return true;
    }
    return false;
}

static void cache_init(l0_event_cache_t *c, ze_event_pool_flags_t flags) {
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    c->flags = flags;
}

static void cache_fini(l0_event_cache_t *c) {
    for (uint32_t i = 0; i < c->nfree; ++i)
        (void)zeEventDestroy(c->free[i]);
    for (uint32_t i = 0; i < c->npools; ++i)
        (void)zeEventPoolDestroy(c->pools[i]);
    free(c->free);
    free(c->pools);
    pthread_mutex_destroy(&c->lock);
}

static bool grow(void **array, uint32_t *cap, uint32_t need, size_t elem) {
    if (need <= *cap)
        return true;
    uint32_t n = *cap != 0 ? *cap * 2 : 16;
    while (n < need)
        n *= 2;
    void *p = realloc(*array, (size_t)n * elem);
    if (p == NULL)
        return false;
    *array = p;
    *cap = n;
    return true;
}

// A new pool when the newest is used up; called with the cache locked.
static ur_result_t cache_new_pool(l0_context_t *ctx, l0_event_cache_t *c) {
    if (!grow((void **)&c->pools, &c->pools_cap, c->npools + 1, sizeof *c->pools))
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ze_device_handle_t devs[16];
    uint32_t n = ctx->ndevices < 16 ? ctx->ndevices : 16;
    for (uint32_t i = 0; i < n; ++i)
        devs[i] = ctx->devices[i]->ze;
    ze_event_pool_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL, c->flags,
                                 L0_EVENTS_PER_POOL};
    ze_event_pool_handle_t pool = NULL;
    ur_result_t res = l0_ok(zeEventPoolCreate(ctx->ze, &desc, n, devs, &pool), "zeEventPoolCreate");
    if (res != UR_RESULT_SUCCESS)
        return res;
    c->pools[c->npools++] = pool;
    c->next_index = 0;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_context_take_event(l0_context_t *ctx, int cache, ze_event_handle_t *out) {
    l0_event_cache_t *c = &ctx->events[cache];
    ur_result_t res = UR_RESULT_SUCCESS;
    pthread_mutex_lock(&c->lock);
    if (c->nfree > 0) {
        *out = c->free[--c->nfree];
        goto done;
    }
    if (c->npools == 0 || c->next_index == L0_EVENTS_PER_POOL)
        res = cache_new_pool(ctx, c);
    if (res == UR_RESULT_SUCCESS) {
        // Host scope on both sides: the host waits on and queries every event.
        ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, c->next_index,
                                ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
        res = l0_ok(zeEventCreate(c->pools[c->npools - 1], &desc, out), "zeEventCreate");
        if (res == UR_RESULT_SUCCESS)
            ++c->next_index;
    }
done:
    pthread_mutex_unlock(&c->lock);
    return res;
}

void l0_context_give_event(l0_context_t *ctx, int cache, ze_event_handle_t ze) {
    l0_event_cache_t *c = &ctx->events[cache];
    if (zeEventHostReset(ze) != ZE_RESULT_SUCCESS) {
        (void)zeEventDestroy(ze);
        return;
    }
    pthread_mutex_lock(&c->lock);
    if (grow((void **)&c->free, &c->free_cap, c->nfree + 1, sizeof *c->free))
        c->free[c->nfree++] = ze;
    else
        (void)zeEventDestroy(ze);
    pthread_mutex_unlock(&c->lock);
}

static ur_result_t context_new(uint32_t n, const ur_device_handle_t *phDevices,
                               l0_context_t **out) {
    l0_context_t *ctx = URC_NEW(l0_context_t);
    l0_device_t **devices = urc_calloc(n, sizeof *devices);
    if (ctx == NULL || devices == NULL) {
        free(ctx);
        free(devices);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (uint32_t i = 0; i < n; ++i)
        devices[i] = L0_DEVICE(phDevices[i]);
    ctx->devices = devices;
    ctx->ndevices = n;
    cache_init(&ctx->events[0], ZE_EVENT_POOL_FLAG_HOST_VISIBLE);
    cache_init(&ctx->events[1],
               ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP);
    pthread_mutex_init(&ctx->lock, NULL);
    urc_object_init(&ctx->obj, &l0_ddi, URC_KIND_CONTEXT);
    *out = ctx;
    return UR_RESULT_SUCCESS;
}

static void context_destroy(l0_context_t *ctx) {
    urc_usm_pool_context_destroyed((ur_context_handle_t)ctx); // its default pool, first
    // Extended deleters run first, while everything they may touch still exists.
    urc_deleters_run(&ctx->deleters);
    cache_fini(&ctx->events[0]);
    cache_fini(&ctx->events[1]);
    if (ctx->owns_native)
        (void)l0_ok(zeContextDestroy(ctx->ze), "zeContextDestroy");
    pthread_mutex_destroy(&ctx->lock);
    free(ctx->devices);
    URC_OBJECT_FREE(ctx);
}

void l0_context_retain_internal(l0_context_t *ctx) {
    urc_hold(&ctx->obj);
}

void l0_context_release_internal(l0_context_t *ctx) {
    if (urc_unhold(&ctx->obj))
        context_destroy(ctx);
}

static ur_result_t check_devices(uint32_t n, const ur_device_handle_t *devices) {
    for (uint32_t i = 0; i < n; ++i) {
        if (!l0_is(devices[i], URC_KIND_DEVICE))
            return UR_RESULT_ERROR_INVALID_DEVICE;
        if (L0_DEVICE(devices[i])->platform != L0_DEVICE(devices[0])->platform)
            return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                                 "a context's devices must share one Level Zero driver");
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_context_create(uint32_t DeviceCount, const ur_device_handle_t *phDevices,
                              const ur_context_properties_t *pProperties,
                              ur_context_handle_t *phContext) {
    (void)pProperties;
    if (DeviceCount == 0)
        return UR_RESULT_ERROR_INVALID_SIZE;
    ur_result_t res = check_devices(DeviceCount, phDevices);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_context_t *ctx = NULL;
    res = context_new(DeviceCount, phDevices, &ctx);
    if (res != UR_RESULT_SUCCESS)
        return res;
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    res = l0_ok(zeContextCreate(ctx->devices[0]->platform->ze, &desc, &ctx->ze), "zeContextCreate");
    if (res != UR_RESULT_SUCCESS) {
        context_destroy(ctx);
        return res;
    }
    ctx->owns_native = true;
    *phContext = (ur_context_handle_t)ctx;
    return UR_RESULT_SUCCESS;
}

URC_RETAIN_RELEASE(l0_context, ur_context_handle_t, L0_CONTEXT, UR_RESULT_ERROR_INVALID_CONTEXT,
                   "urContextRelease", context_destroy)

URC_CONTEXT_GET_INFO(l0, L0_CONTEXT)

ur_result_t l0_context_get_native_handle(ur_context_handle_t hContext,
                                         ur_native_handle_t *phNativeContext) {
    *phNativeContext = (ur_native_handle_t)L0_CONTEXT(hContext)->ze;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_context_create_with_native_handle(ur_native_handle_t hNativeContext,
                                                 ur_adapter_handle_t hAdapter, uint32_t numDevices,
                                                 const ur_device_handle_t *phDevices,
                                                 const ur_context_native_properties_t *pProperties,
                                                 ur_context_handle_t *phContext) {
    (void)hAdapter;
    if (hNativeContext == 0)
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (numDevices == 0 || phDevices == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "a Level Zero context needs its devices named");
    ur_result_t res = check_devices(numDevices, phDevices);
    l0_context_t *ctx = NULL;
    if (res == UR_RESULT_SUCCESS)
        res = context_new(numDevices, phDevices, &ctx);
    if (res != UR_RESULT_SUCCESS)
        return res;
    ctx->ze = (ze_context_handle_t)hNativeContext;
    ctx->owns_native = pProperties != NULL && pProperties->isNativeHandleOwned;
    *phContext = (ur_context_handle_t)ctx;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_context_set_extended_deleter(ur_context_handle_t hContext,
                                            ur_context_extended_deleter_t pfnDeleter,
                                            void *pUserData) {
    return urc_deleter_add(&L0_CONTEXT(hContext)->deleters, &L0_CONTEXT(hContext)->lock, pfnDeleter,
                           pUserData);
}
