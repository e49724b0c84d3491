// SPDX-License-Identifier: MIT
// The simulated driver's entry: initialisation, errors, the one device, its primary context.
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cuda_sim_internal.h"

atomic_int sim_sticky;
static atomic_bool initialised;
static _Thread_local CUcontext current;
// The primary context: any non-NULL value works, nothing dereferences it.
static int primary_ctx_storage;
#define SIM_PRIMARY ((CUcontext)&primary_ctx_storage)
static atomic_int primary_refs;

static atomic_size_t driver_calls;

void sim_count_call(void) {
    atomic_fetch_add_explicit(&driver_calls, 1, memory_order_relaxed);
}

// For tests, not a CUDA function: driver functions called so far (a cost per operation).
SIM_EXPORT size_t urc_cuda_sim_driver_calls(void) {
    return atomic_load(&driver_calls);
}

bool sim_initialised(void) {
    return atomic_load(&initialised);
}

double sim_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

SIM_EXPORT CUresult cuInit(unsigned int flags) {
    sim_count_call();
    if (flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (!atomic_exchange(&initialised, true))
        sim_streams_init();
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDriverGetVersion(int *version) {
    sim_count_call();
    if (version == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    *version = 13000;
    return CUDA_SUCCESS;
}

static const struct {
    CUresult code;
    const char *name, *text;
} errors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_ASSERT, "CUDA_ERROR_ASSERT", "device-side assert triggered"},
    {CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
     "part or all of the requested memory range is already mapped"},
};

static int error_index(CUresult r) {
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; ++i)
        if (errors[i].code == r)
            return (int)i;
    return -1;
}

// Test hook: the driver as it is at process exit after it has shut down. Every call that
// touches a context answers CUDA_ERROR_DEINITIALIZED, and the driver names no error.
static atomic_bool shut_down;

SIM_EXPORT void cuda_sim_shutdown(void) {
    atomic_store(&shut_down, true);
    atomic_store(&sim_sticky, CUDA_ERROR_DEINITIALIZED);
}

// Test hook: the driver back from the shutdown above, so a test can clean up normally.
SIM_EXPORT void cuda_sim_revive(void) {
    if (atomic_exchange(&shut_down, false))
        atomic_store(&sim_sticky, 0);
}

SIM_EXPORT CUresult cuGetErrorName(CUresult error, const char **str) {
    sim_count_call();
    if (atomic_load(&shut_down))
        return CUDA_ERROR_DEINITIALIZED;
    int i = error_index(error);
    if (str == NULL || i < 0)
        return CUDA_ERROR_INVALID_VALUE;
    *str = errors[i].name;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuGetErrorString(CUresult error, const char **str) {
    sim_count_call();
    if (atomic_load(&shut_down))
        return CUDA_ERROR_DEINITIALIZED;
    int i = error_index(error);
    if (str == NULL || i < 0)
        return CUDA_ERROR_INVALID_VALUE;
    *str = errors[i].text;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDeviceGetCount(int *count) {
    sim_count_call();
    if (!sim_initialised())
        return CUDA_ERROR_NOT_INITIALIZED;
    *count = 1;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal) {
    sim_count_call();
    if (!sim_initialised())
        return CUDA_ERROR_NOT_INITIALIZED;
    if (ordinal != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *device = 0;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
    sim_count_call();
    if (dev != 0 || name == NULL || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    snprintf(name, (size_t)len, "urc simulated CUDA device");
    return CUDA_SUCCESS;
}

// An H100-like device.
SIM_EXPORT CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev) {
    sim_count_call();
    if (dev != 0 || pi == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    switch (attrib) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
        *pi = 9;
        break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
        *pi = 0;
        break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
        *pi = 32;
        break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
        *pi = 132;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
        *pi = 1024;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
        *pi = 64;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
        *pi = 2147483647;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
        *pi = 65535;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK:
        *pi = 65536;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
        *pi = 232448;
        break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
        *pi = 49152;
        break;
    case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
    case CU_DEVICE_ATTRIBUTE_ECC_ENABLED:
        *pi = 1;
        break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
        *pi = 1755000;
        break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
        *pi = 2619000;
        break;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH:
        *pi = 5120;
        break;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
        *pi = 52428800;
        break;
    case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY:
        *pi = 65536;
        break;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT:
        *pi = 512;
        break;
    // Image limits of an H100 (texture and surface alike where both exist).
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH:
        *pi = 131072;
        break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT:
        *pi = 65536;
        break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH:
        *pi = 16384;
        break;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT:
        *pi = 32;
        break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT:
        *pi = 131072;
        break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH:
        *pi = 2097120;
        break;
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS:
    case CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS:
        *pi = 2048;
        break;
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED: // vmm_share.c
        *pi = 1;
        break;
    case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID:
        *pi = 0x2330;
        break;
    default:
        *pi = 0;
        break;
    }
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev) {
    sim_count_call();
    if (dev != 0 || bytes == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    *bytes = SIM_TOTAL_MEMORY;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev) {
    sim_count_call();
    if (dev != 0 || uuid == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    for (int i = 0; i < 16; ++i)
        uuid->bytes[i] = (char)(0xa0 + i);
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDeviceGetPCIBusId(char *bus, int len, CUdevice dev) {
    sim_count_call();
    if (dev != 0 || bus == NULL || len < 13)
        return CUDA_ERROR_INVALID_VALUE;
    snprintf(bus, (size_t)len, "0000:3b:00.0");
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev) {
    sim_count_call();
    if (dev != 0 || pctx == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    atomic_fetch_add(&primary_refs, 1);
    *pctx = SIM_PRIMARY;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
    sim_count_call();
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    atomic_fetch_sub(&primary_refs, 1);
    return CUDA_SUCCESS;
}

bool sim_has_context(void) {
    return current != NULL;
}

SIM_EXPORT CUresult cuCtxGetCurrent(CUcontext *pctx) {
    sim_count_call();
    // Only a shut-down driver fails this query; an assert's sticky error does not.
    if (atomic_load(&shut_down))
        return CUDA_ERROR_DEINITIALIZED;
    *pctx = current;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx) {
    sim_count_call();
    if (ctx != NULL && ctx != SIM_PRIMARY)
        return CUDA_ERROR_INVALID_CONTEXT;
    current = ctx;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuCtxGetStreamPriorityRange(int *least, int *greatest) {
    sim_count_call();
    if (least != NULL)
        *least = 0;
    if (greatest != NULL)
        *greatest = -5;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) {
    sim_count_call();
    SIM_STICKY();
    if (current == NULL)
        return CUDA_ERROR_INVALID_CONTEXT;
    size_t used = sim_device_bytes_in_use() + SIM_RESERVED_MEMORY;
    *free_bytes = used < SIM_TOTAL_MEMORY ? SIM_TOTAL_MEMORY - used : 0;
    *total = SIM_TOTAL_MEMORY;
    return CUDA_SUCCESS;
}
