// SPDX-License-Identifier: MIT
// urPlatform*: one platform holding every CUDA device, made once per process. Without a
// driver, or with no device, there is no platform and urPlatformGet reports 0.
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cuda_internal.h"

// Made on first use, torn down when the adapter's last reference goes (so a loader teardown
// followed by a new init starts afresh), guarded by `lock`; `state` is read without it.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static cuda_platform_t platform;
static atomic_int state; // 0 not tried, 1 usable, 2 no platform

uint64_t cuda_host_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

// Why there is no platform, for urAdapterGetLastError after urPlatformGet found none
// (urinfo -v prints it).
static char why_none[300] = "no CUDA device";

static void init(void) {
    urc_logger_t *lg = cuda_log();
    if (!cuda_driver_load()) {
        snprintf(why_none, sizeof why_none, "%s", cuda_driver_failure());
        return;
    }
    memset(&platform, 0, sizeof platform);
    CUresult r = cu.Init(0);
    if (r != CUDA_SUCCESS) {
        // CUDA_ERROR_NO_DEVICE on a machine with a driver but no GPU: not an error.
        URC_LOG(lg, UR_LOGGER_LEVEL_INFO, "cuInit returned %d: no CUDA platform", (int)r);
        snprintf(why_none, sizeof why_none, "cuInit returned %d%s", (int)r,
                 r == CUDA_ERROR_NO_DEVICE ? " (CUDA_ERROR_NO_DEVICE: a driver but no GPU)" : "");
        return;
    }
    int count = 0;
    if (cu.DeviceGetCount(&count) != CUDA_SUCCESS || count <= 0)
        return;
    if (cu.DriverGetVersion(&platform.driver_version) != CUDA_SUCCESS)
        platform.driver_version = 0;
    cuda_device_t *devices = urc_calloc((size_t)count, sizeof *devices);
    if (devices == NULL)
        return;
    uint32_t usable = 0;
    for (int i = 0; i < count; ++i) {
        cuda_device_t *dev = &devices[usable];
        dev->platform = &platform;
        dev->index = usable;
        if (cu.DeviceGet(&dev->cu, i) != CUDA_SUCCESS)
            continue;
        // A device another process holds exclusively fails here; it is skipped, not fatal.
        if (cuda_device_init(dev) != UR_RESULT_SUCCESS) {
            URC_LOG(lg, UR_LOGGER_LEVEL_WARN, "CUDA device %d skipped: %s", i,
                    "initialisation failed");
            memset(dev, 0, sizeof *dev);
            continue;
        }
        ++usable;
    }
    if (usable == 0) {
        snprintf(why_none, sizeof why_none, "no CUDA device could be initialised");
        free(devices);
        return;
    }
    urc_object_init(&platform.obj, &cuda_ddi, URC_KIND_PLATFORM);
    platform.devices = devices;
    platform.ndevices = usable;
}

cuda_platform_t *cuda_platform(void) {
    int s = atomic_load_explicit(&state, memory_order_acquire);
    if (s == 0) {
        pthread_mutex_lock(&lock);
        s = atomic_load_explicit(&state, memory_order_relaxed);
        if (s == 0) {
            init();
            s = platform.ndevices > 0 ? 1 : 2;
            atomic_store_explicit(&state, s, memory_order_release);
        }
        pthread_mutex_unlock(&lock);
    }
    return s == 1 ? &platform : NULL;
}

void cuda_platform_teardown(void) {
    // Pending event callbacks run first (they may still query their events), outside the
    // platform lock, which a callback calling into UR may need.
    cuda_callbacks_stop(true);
    pthread_mutex_lock(&lock);
    if (atomic_load(&state) == 1) {
        for (uint32_t i = 0; i < platform.ndevices; ++i) {
            cuda_device_t *dev = &platform.devices[i];
            if (cuda_activate(dev) == UR_RESULT_SUCCESS) {
                cuda_queue_pool_drain(dev);
                cu.EventDestroy(dev->base_event);
            }
            // Events need no current context to go (a dead or failed context has none).
            cuda_event_pool_drain(dev);
            pthread_mutex_destroy(&dev->stream_pool_lock);
            cu.DevicePrimaryCtxRelease(dev->cu);
        }
        free(platform.devices);
        memset(&platform, 0, sizeof platform);
    }
    atomic_store(&state, 0);
    pthread_mutex_unlock(&lock);
}

cuda_device_t *cuda_device_by_native(CUdevice cu_device) {
    cuda_platform_t *p = cuda_platform();
    for (uint32_t i = 0; p != NULL && i < p->ndevices; ++i)
        if (p->devices[i].cu == cu_device)
            return &p->devices[i];
    return NULL;
}

ur_result_t cuda_platform_get(ur_adapter_handle_t hAdapter, uint32_t NumEntries,
                              ur_platform_handle_t *phPlatforms, uint32_t *pNumPlatforms) {
    (void)hAdapter;
    cuda_platform_t *p = cuda_platform();
    if (p == NULL)
        urc_error_set(UR_RESULT_SUCCESS, 0, "no CUDA platform: %s", why_none);
    if (pNumPlatforms != NULL)
        *pNumPlatforms = p != NULL ? 1 : 0;
    if (p != NULL && phPlatforms != NULL && NumEntries > 0)
        phPlatforms[0] = (ur_platform_handle_t)p;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_platform_get_info(ur_platform_handle_t hPlatform, ur_platform_info_t propName,
                                   size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_PLATFORM_INFO_NAME:
        return urc_info_string(&out, "NVIDIA CUDA BACKEND");
    case UR_PLATFORM_INFO_VENDOR_NAME:
        return urc_info_string(&out, "NVIDIA Corporation");
    case UR_PLATFORM_INFO_PROFILE:
        return urc_info_string(&out, "FULL PROFILE");
    case UR_PLATFORM_INFO_VERSION: {
        // cuDriverGetVersion gives 1000 * major + 10 * minor.
        int v = CUDA_PLATFORM(hPlatform)->driver_version;
        char text[32];
        snprintf(text, sizeof text, "CUDA %d.%d", v / 1000, v % 1000 / 10);
        return urc_info_string(&out, text);
    }
    case UR_PLATFORM_INFO_EXTENSIONS:
        return urc_info_string(&out, "");
    case UR_PLATFORM_INFO_BACKEND:
        return urc_info_bytes(&out, &(ur_backend_t){UR_BACKEND_CUDA}, sizeof(ur_backend_t));
    case UR_PLATFORM_INFO_ADAPTER:
        return urc_info_ptr(&out, cuda_adapter_handle());
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

URC_PLATFORM_GET_API_VERSION(cuda)

// SYCL passes its own options through urPlatformGetBackendOption; the CUDA JIT takes none of
// these flags, so those UR knows are accepted and dropped, the rest are refused.
static const urc_backend_option_t backend_options[] = {
    {"", ""},
    {"-O0", ""},
    {"-O1", ""},
    {"-O2", ""},
    {"-O3", ""},
    {"-foffload-fp32-prec-div", ""},
    {"-foffload-fp32-prec-sqrt", ""},
};

URC_PLATFORM_GET_BACKEND_OPTION(cuda, backend_options)
