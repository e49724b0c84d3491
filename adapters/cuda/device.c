// SPDX-License-Identifier: MIT
// urDevice*: one handle per CUDA device, made at platform start-up and kept for the life of
// the process. Queries follow UR's CUDA adapter; features this adapter does not implement
// (images, pools, command buffers, virtual memory...) are reported absent, not present.
#include <stdio.h>
#include <string.h>

#include "program/assert_record.h"
#include "bindless.h"
#include "cuda_internal.h"
#include "nvml.h"
#include "physical_mem.h"

// What cuda_activate_cached (cuda_internal.h) trusts instead of asking the driver.
_Thread_local CUcontext cuda_thread_ctx;

ur_result_t cuda_activate(const cuda_device_t *dev) {
    CUcontext current = NULL;
    CUresult r = cu.CtxGetCurrent(&current);
    if (r != CUDA_SUCCESS)
        return cuda_error(r, "cuCtxGetCurrent");
    // The primary context is shared by every thread; setting it is only needed once per thread
    // (or after the application made another context current).
    if (current != dev->ctx) {
        r = cu.CtxSetCurrent(dev->ctx);
        if (r != CUDA_SUCCESS) {
            cuda_thread_ctx = current;
            return cuda_error(r, "cuCtxSetCurrent");
        }
    }
    cuda_thread_ctx = dev->ctx;
    return UR_RESULT_SUCCESS;
}

bool cuda_activate_recheck(const cuda_device_t *dev, CUresult failure) {
    if (failure != CUDA_ERROR_INVALID_CONTEXT && failure != CUDA_ERROR_CONTEXT_IS_DESTROYED &&
        failure != CUDA_ERROR_INVALID_HANDLE)
        return false;
    CUcontext current = NULL;
    if (cu.CtxGetCurrent(&current) != CUDA_SUCCESS || current == dev->ctx) {
        cuda_thread_ctx = current;
        return false; // the context was right: the failure is real
    }
    return cuda_activate(dev) == UR_RESULT_SUCCESS;
}

static int attr(const cuda_device_t *dev, CUdevice_attribute a) {
    int value = 0;
    if (cu.DeviceGetAttribute(&value, a, dev->cu) != CUDA_SUCCESS)
        return 0;
    return value;
}

static bool has_fp16(const cuda_device_t *dev) {
    return dev->cc_major > 5 || (dev->cc_major == 5 && dev->cc_minor >= 3);
}

// The aspects requirement checks compare against. URC_MASK_ASPECTS then removes some, and
// every query below that reports one of these features reads it from here, so a masked aspect
// disappears from the queries too.
static void init_caps(cuda_device_t *dev) {
    urc_device_caps_t *caps = &dev->caps;
    memset(caps, 0, sizeof *caps);
    urc_caps_add_aspect(caps, URC_ASPECT_GPU);
    urc_caps_add_aspect(caps, URC_ASPECT_FP64);
    if (has_fp16(dev))
        urc_caps_add_aspect(caps, URC_ASPECT_FP16);
    if (dev->cc_major >= 6)
        urc_caps_add_aspect(caps, URC_ASPECT_ATOMIC64);
    urc_caps_add_aspect(caps, URC_ASPECT_ONLINE_COMPILER);
    urc_caps_add_aspect(caps, URC_ASPECT_ONLINE_LINKER);
    urc_caps_add_aspect(caps, URC_ASPECT_QUEUE_PROFILING);
    urc_caps_add_aspect(caps, URC_ASPECT_USM_DEVICE_ALLOCATIONS);
    if (dev->unified_addressing)
        urc_caps_add_aspect(caps, URC_ASPECT_USM_HOST_ALLOCATIONS);
    if (dev->managed)
        urc_caps_add_aspect(caps, URC_ASPECT_USM_SHARED_ALLOCATIONS);
    if (attr(dev, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS))
        urc_caps_add_aspect(caps, URC_ASPECT_USM_SYSTEM_ALLOCATIONS);
    urc_caps_add_aspect(caps, URC_ASPECT_EXT_ONEAPI_NATIVE_ASSERT);
    caps->sub_group_sizes[0] = (uint32_t)dev->warp_size;
    caps->num_sub_group_sizes = 1;
    caps->max_work_group_size = (size_t)dev->max_threads_per_block;
    for (int i = 0; i < 3; ++i)
        caps->max_work_item_sizes[i] = (size_t)dev->max_block[i];
    urc_caps_apply_mask(caps, cuda_log());
}

// The GPU records the base event somewhere between the host times before the record and after
// the wait. A few tries keep the narrowest such window, and its middle is the base's host
// time: off by at most half the window (microseconds), not by a whole wake-up latency.
static ur_result_t calibrate(cuda_device_t *dev) {
    CUevent candidate;
    ur_result_t res = cuda_ok(cu.EventCreate(&candidate, CU_EVENT_DEFAULT), "cuEventCreate");
    uint64_t best_window = UINT64_MAX;
    for (int i = 0; res == UR_RESULT_SUCCESS && i < 5; ++i) {
        uint64_t before = cuda_host_ns();
        res = cuda_ok(cu.EventRecord(candidate, NULL), "cuEventRecord");
        if (res == UR_RESULT_SUCCESS)
            res = cuda_ok(cu.EventSynchronize(candidate), "cuEventSynchronize");
        uint64_t after = cuda_host_ns();
        if (res == UR_RESULT_SUCCESS && after - before < best_window) {
            // The candidate becomes the base; the old base is the next candidate.
            CUevent old = dev->base_event;
            dev->base_event = candidate;
            candidate = old;
            best_window = after - before;
            dev->base_host_ns = before + best_window / 2;
        }
    }
    cu.EventDestroy(candidate);
    return res;
}

ur_result_t cuda_device_init(cuda_device_t *dev) {
    urc_object_init(&dev->obj, &cuda_ddi, URC_KIND_DEVICE);
    pthread_mutex_init(&dev->stream_pool_lock, NULL);
    dev->stream_pool_count = 0;
    cuda_event_pool_init(dev);
    dev->cc_major = attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    dev->cc_minor = attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    dev->warp_size = attr(dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    dev->sm_count = attr(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    dev->max_threads_per_block = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    dev->max_block[0] = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
    dev->max_block[1] = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
    dev->max_block[2] = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
    dev->max_grid[0] = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
    dev->max_grid[1] = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
    dev->max_grid[2] = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
    dev->max_regs_per_block = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    dev->max_shared_optin = attr(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    dev->managed = attr(dev, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY) != 0;
    dev->concurrent_managed = attr(dev, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS) != 0;
    dev->unified_addressing = attr(dev, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING) != 0;
    if (dev->warp_size <= 0 || dev->max_threads_per_block <= 0)
        return UR_RESULT_ERROR_DEVICE_NOT_AVAILABLE;
    if (cu.DeviceGetName(dev->name, (int)sizeof dev->name, dev->cu) != CUDA_SUCCESS)
        snprintf(dev->name, sizeof dev->name, "CUDA device %u", dev->index);
    dev->name[sizeof dev->name - 1] = '\0';
    ur_result_t res = cuda_ok(cu.DeviceTotalMem(&dev->total_mem, dev->cu), "cuDeviceTotalMem");
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = cuda_ok(cu.DevicePrimaryCtxRetain(&dev->ctx, dev->cu), "cuDevicePrimaryCtxRetain");
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = cuda_activate(dev);
    if (res != UR_RESULT_SUCCESS)
        goto fail_ctx;
    // The profiling base: an event on the legacy stream and the host time it happened at.
    // Every event time is that host time plus the elapsed time from the base event.
    res = cuda_ok(cu.EventCreate(&dev->base_event, CU_EVENT_DEFAULT), "cuEventCreate");
    if (res != UR_RESULT_SUCCESS)
        goto fail_ctx;
    res = calibrate(dev);
    if (res != UR_RESULT_SUCCESS)
        goto fail_event;
    init_caps(dev);
    return UR_RESULT_SUCCESS;

fail_event:
    cu.EventDestroy(dev->base_event);
fail_ctx:
    cu.DevicePrimaryCtxRelease(dev->cu);
    return res;
}

ur_result_t cuda_device_get(ur_platform_handle_t hPlatform, ur_device_type_t DeviceType,
                            uint32_t NumEntries, ur_device_handle_t *phDevices,
                            uint32_t *pNumDevices) {
    cuda_platform_t *p = CUDA_PLATFORM(hPlatform);
    bool wanted = DeviceType == UR_DEVICE_TYPE_ALL || DeviceType == UR_DEVICE_TYPE_DEFAULT ||
                  DeviceType == UR_DEVICE_TYPE_GPU;
    uint32_t n = wanted ? p->ndevices : 0;
    if (pNumDevices != NULL)
        *pNumDevices = n;
    for (uint32_t i = 0; phDevices != NULL && i < n && i < NumEntries; ++i)
        phDevices[i] = (ur_device_handle_t)&p->devices[i];
    return UR_RESULT_SUCCESS;
}

// CUDA devices are root devices that live as long as the process: counting is a no-op.
ur_result_t cuda_device_retain(ur_device_handle_t hDevice) {
    return cuda_is(hDevice, URC_KIND_DEVICE) ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_INVALID_DEVICE;
}

ur_result_t cuda_device_release(ur_device_handle_t hDevice) {
    return cuda_is(hDevice, URC_KIND_DEVICE) ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_INVALID_DEVICE;
}

ur_result_t cuda_device_get_native_handle(ur_device_handle_t hDevice,
                                          ur_native_handle_t *phNativeDevice) {
    *phNativeDevice = (ur_native_handle_t)(intptr_t)CUDA_DEVICE(hDevice)->cu;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_device_create_with_native_handle(ur_native_handle_t hNativeDevice,
                                                  ur_adapter_handle_t hAdapter,
                                                  const ur_device_native_properties_t *pProperties,
                                                  ur_device_handle_t *phDevice) {
    (void)hAdapter;
    (void)pProperties;
    cuda_device_t *dev = cuda_device_by_native((CUdevice)(intptr_t)hNativeDevice);
    if (dev == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                             "CUdevice %d is not a device of the CUDA platform",
                             (int)(intptr_t)hNativeDevice);
    *phDevice = (ur_device_handle_t)dev;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_device_select_binary(ur_device_handle_t hDevice,
                                      const ur_device_binary_t *pBinaries, uint32_t NumBinaries,
                                      uint32_t *pSelectedBinary) {
    (void)hDevice;
    if (pBinaries == NULL || pSelectedBinary == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    for (uint32_t i = 0; i < NumBinaries; ++i) {
        const char *spec = pBinaries[i].pDeviceTargetSpec;
        if (spec != NULL && strcmp(spec, UR_DEVICE_BINARY_TARGET_NVPTX64) == 0) {
            *pSelectedBinary = i;
            return UR_RESULT_SUCCESS;
        }
    }
    return UR_RESULT_ERROR_INVALID_BINARY;
}

ur_result_t cuda_device_get_global_timestamps(ur_device_handle_t hDevice,
                                              uint64_t *pDeviceTimestamp,
                                              uint64_t *pHostTimestamp) {
    cuda_device_t *dev = CUDA_DEVICE(hDevice);
    if (pDeviceTimestamp != NULL) {
        ur_result_t res = cuda_activate(dev);
        if (res != UR_RESULT_SUCCESS)
            return res;
        CUevent ev;
        res = cuda_ok(cu.EventCreate(&ev, CU_EVENT_DEFAULT), "cuEventCreate");
        if (res != UR_RESULT_SUCCESS)
            return res;
        res = cuda_ok(cu.EventRecord(ev, NULL), "cuEventRecord");
        if (res == UR_RESULT_SUCCESS)
            res = cuda_ok(cu.EventSynchronize(ev), "cuEventSynchronize");
        float ms = 0.0f;
        if (res == UR_RESULT_SUCCESS)
            res = cuda_ok(cu.EventElapsedTime(&ms, dev->base_event, ev), "cuEventElapsedTime");
        cu.EventDestroy(ev);
        if (res != UR_RESULT_SUCCESS)
            return res;
        *pDeviceTimestamp = dev->base_host_ns + (uint64_t)((double)ms * 1e6);
    }
    // Taken after the device event completed. The device time carries the base's own read
    // latency, so it is capped at the host time: the two are one timeline and the device's
    // moment was not later.
    if (pHostTimestamp != NULL) {
        *pHostTimestamp = cuda_host_ns();
        if (pDeviceTimestamp != NULL && *pDeviceTimestamp > *pHostTimestamp)
            *pDeviceTimestamp = *pHostTimestamp;
    }
    return UR_RESULT_SUCCESS;
}

// UR_DEVICE_INFO_EXTENSIONS, like every other query naming fp16, fp64, 64-bit atomics or the
// native assert (HALF/DOUBLE_FP_CONFIG, the half and double vector widths, ATOMIC_64,
// USE_NATIVE_ASSERT), reads the device's capabilities, so the queries always agree.
static void extensions(const cuda_device_t *dev, char *buf, size_t size) {
    snprintf(buf, size, "%s%s%s%s",
             urc_caps_has_aspect(&dev->caps, URC_ASPECT_FP64) ? "cl_khr_fp64 " : "",
             urc_caps_has_aspect(&dev->caps, URC_ASPECT_FP16) ? "cl_khr_fp16 " : "",
             urc_caps_has_aspect(&dev->caps, URC_ASPECT_ATOMIC64)
                 ? "cl_khr_int64_base_atomics cl_khr_int64_extended_atomics "
                 : "",
             urc_caps_has_aspect(&dev->caps, URC_ASPECT_EXT_ONEAPI_NATIVE_ASSERT)
                 ? URC_NATIVE_ASSERT_EXTENSION " "
                 : "");
}

static uint32_t usm_host_support(const cuda_device_t *dev) {
    if (!urc_caps_has_aspect(&dev->caps, URC_ASPECT_USM_HOST_ALLOCATIONS))
        return 0;
    uint32_t v = UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ACCESS |
                 UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_CONCURRENT_ACCESS;
    // Compute capability 6 made GPU atomics atomic with respect to the host.
    if (dev->cc_major >= 6)
        v |= UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ATOMIC_ACCESS;
    return v;
}

static uint32_t usm_single_shared_support(const cuda_device_t *dev) {
    if (!urc_caps_has_aspect(&dev->caps, URC_ASPECT_USM_SHARED_ALLOCATIONS))
        return 0;
    uint32_t v = UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ACCESS |
                 UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ATOMIC_ACCESS;
    if (dev->concurrent_managed) {
        v |= UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_CONCURRENT_ACCESS;
        if (dev->cc_major >= 6)
            v |= UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ATOMIC_CONCURRENT_ACCESS;
    }
    return v;
}

static uint32_t usm_cross_shared_support(const cuda_device_t *dev) {
    uint32_t v = 0;
    if (urc_caps_has_aspect(&dev->caps, URC_ASPECT_USM_SHARED_ALLOCATIONS))
        v |= UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ACCESS;
    if (dev->concurrent_managed)
        v |= UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_CONCURRENT_ACCESS;
    if (dev->cc_major >= 6) {
        if (v & UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ACCESS)
            v |= UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ATOMIC_ACCESS;
        if (v & UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_CONCURRENT_ACCESS)
            v |= UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ATOMIC_CONCURRENT_ACCESS;
    }
    return v;
}

static uint32_t usm_system_support(const cuda_device_t *dev) {
    if (!urc_caps_has_aspect(&dev->caps, URC_ASPECT_USM_SYSTEM_ALLOCATIONS))
        return 0;
    uint32_t v = UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ACCESS |
                 UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_CONCURRENT_ACCESS;
    if (attr(dev, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED))
        v |= UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ATOMIC_ACCESS |
             UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ATOMIC_CONCURRENT_ACCESS;
    return v;
}

// The smaller of a texture and a surface limit: images need both.
static size_t min_attr(const cuda_device_t *dev, CUdevice_attribute a, CUdevice_attribute b) {
    int x = attr(dev, a), y = attr(dev, b);
    return (size_t)(x < y ? x : y);
}

void cuda_device_image_limits(const cuda_device_t *dev, urc_image_limits_t *lim) {
    lim->max_1d_width = min_attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH,
                                 CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH);
    lim->max_2d_width = min_attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH,
                                 CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH);
    lim->max_2d_height = min_attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT,
                                  CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT);
    lim->max_3d_width = min_attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH,
                                 CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH);
    lim->max_3d_height = min_attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT,
                                  CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT);
    lim->max_3d_depth = min_attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH,
                                 CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH);
    lim->max_array_size = min_attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS,
                                   CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS);
}

// Answers that are the same for every CUDA device (UR's CUDA values), looked up for the
// queries cuda_device_get_info's switch leaves (common/device/device_info).
static const urc_device_fixed_t fixed_answers[] = {
    URC_FIXED_TRUE(UR_DEVICE_INFO_ENQUEUE_NATIVE_COMMAND_SUPPORT_EXP), // host_task.c
    URC_FIXED_TRUE(UR_DEVICE_INFO_ENQUEUE_HOST_TASK_SUPPORT_EXP),
    URC_FIXED_TRUE(UR_DEVICE_INFO_TIMESTAMP_RECORDING_SUPPORT_EXP),
    URC_FIXED_TRUE(UR_DEVICE_INFO_DEVICE_WAIT_SUPPORT_EXP),
    URC_FIXED_TRUE(UR_DEVICE_INFO_REUSABLE_EVENTS_SUPPORT_EXP), // event.c: a CUevent recorded again
    URC_FIXED_TRUE(UR_DEVICE_INFO_ENDIAN_LITTLE),
    URC_FIXED_TRUE(UR_DEVICE_INFO_AVAILABLE),
    URC_FIXED_TRUE(UR_DEVICE_INFO_BUILD_ON_SUBDEVICE),
    URC_FIXED_TRUE(UR_DEVICE_INFO_PREFERRED_INTEROP_USER_SYNC),
    URC_FIXED_TRUE(UR_DEVICE_INFO_GLOBAL_VARIABLE_SUPPORT),
    URC_FIXED_TRUE(UR_DEVICE_INFO_USM_POOL_SUPPORT),                  // common/pool/pool_allocator
    URC_FIXED_TRUE(UR_DEVICE_INFO_ASYNC_USM_ALLOCATIONS_SUPPORT_EXP), // common/memory/usm_async
    URC_FIXED_TRUE(UR_DEVICE_INFO_VIRTUAL_MEMORY_SUPPORT),            // virtual_mem.c
    URC_FIXED_TRUE(UR_DEVICE_INFO_USM_HOST_ALLOC_REGISTER_SUPPORT_EXP), // usm_exp.c
    URC_FIXED_TRUE(UR_DEVICE_INFO_USM_P2P_SUPPORT_EXP),
    URC_FIXED_TRUE(UR_DEVICE_INFO_USM_CONTEXT_MEMCPY_SUPPORT_EXP),
    URC_FIXED_TRUE(UR_DEVICE_INFO_IPC_MEMORY_SUPPORT_EXP), // ipc.c
    URC_FIXED_FALSE(UR_DEVICE_INFO_IMAGE_SRGB),
    URC_FIXED_FALSE(UR_DEVICE_INFO_MEM_CHANNEL_SUPPORT),
    URC_FIXED_FALSE(UR_DEVICE_INFO_HOST_PIPE_READ_WRITE_SUPPORT),
    URC_FIXED_FALSE(UR_DEVICE_INFO_ESIMD_SUPPORT),
    URC_FIXED_FALSE(UR_DEVICE_INFO_BFLOAT16_CONVERSIONS_NATIVE),
    URC_FIXED_FALSE(UR_DEVICE_INFO_KERNEL_SET_SPECIALIZATION_CONSTANTS),
    URC_FIXED_FALSE(UR_DEVICE_INFO_PROGRAM_SET_SPECIALIZATION_CONSTANTS),
    URC_FIXED_FALSE(UR_DEVICE_INFO_MULTI_DEVICE_COMPILE_SUPPORT_EXP),
    URC_FIXED_FALSE(UR_DEVICE_INFO_DYNAMIC_LINK_SUPPORT_EXP),
    URC_FIXED_U32(UR_DEVICE_INFO_VENDOR_ID, 4318), // 0x10de, NVIDIA
    URC_FIXED_U32(UR_DEVICE_INFO_MAX_WORK_ITEM_DIMENSIONS, 3),
    URC_FIXED_U32(UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_CHAR, 1),
    URC_FIXED_U32(UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_SHORT, 1),
    URC_FIXED_U32(UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_INT, 1),
    URC_FIXED_U32(UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_LONG, 1),
    URC_FIXED_U32(UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_LONG_LONG, 1),
    URC_FIXED_U32(UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_FLOAT, 1),
    URC_FIXED_U32(UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_CHAR, 1),
    URC_FIXED_U32(UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_SHORT, 1),
    URC_FIXED_U32(UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_INT, 1),
    URC_FIXED_U32(UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_LONG, 1),
    URC_FIXED_U32(UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_LONG_LONG, 1),
    URC_FIXED_U32(UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_FLOAT, 1),
    URC_FIXED_U32(UR_DEVICE_INFO_PARTITION_MAX_SUB_DEVICES, 0),
    URC_FIXED_U32(UR_DEVICE_INFO_PARTITION_AFFINITY_DOMAIN, 0),
    URC_FIXED_U32(UR_DEVICE_INFO_QUEUE_ON_DEVICE_PROPERTIES, 0),
    URC_FIXED_U32(UR_DEVICE_INFO_2D_BLOCK_ARRAY_CAPABILITIES_EXP, 0),
    // Every NVIDIA GPU so far (CUDA programming guide, global memory).
    URC_FIXED_U32(UR_DEVICE_INFO_GLOBAL_MEM_CACHELINE_SIZE, 128),
    URC_FIXED_U32(UR_DEVICE_INFO_MAX_CONSTANT_ARGS, 9),
    URC_FIXED_U32(UR_DEVICE_INFO_MAX_COMPUTE_QUEUE_INDICES, 1),
    URC_FIXED_U32(UR_DEVICE_INFO_EXECUTION_CAPABILITIES, UR_DEVICE_EXEC_CAPABILITY_FLAG_KERNEL),
    URC_FIXED_U32(UR_DEVICE_INFO_QUEUE_PROPERTIES,
                  UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE | UR_QUEUE_FLAG_PROFILING_ENABLE),
    URC_FIXED_U32(UR_DEVICE_INFO_QUEUE_ON_HOST_PROPERTIES, UR_QUEUE_FLAG_PROFILING_ENABLE),
    URC_FIXED_U32(UR_DEVICE_INFO_ADDRESS_BITS, 64),
    URC_FIXED_U32(UR_DEVICE_INFO_GLOBAL_MEM_CACHE_TYPE, UR_DEVICE_MEM_CACHE_TYPE_READ_WRITE_CACHE),
    URC_FIXED_U32(UR_DEVICE_INFO_LOCAL_MEM_TYPE, UR_DEVICE_LOCAL_MEM_TYPE_LOCAL),
};

static ur_result_t version_string(const urc_info_t *out, int major, int minor) {
    char text[32];
    snprintf(text, sizeof text, "%d.%d", major, minor);
    return urc_info_string(out, text);
}

// Power and thermal queries through NVML (nvml.c): unsupported without it.
static ur_result_t nvml_info(const cuda_device_t *dev, ur_device_info_t propName,
                             const urc_info_t *out) {
    char bus[32] = {0};
    if (cu.DeviceGetPCIBusId(bus, (int)sizeof bus - 1, dev->cu) != CUDA_SUCCESS)
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    int32_t lo = 0, hi = 0;
    ur_device_throttle_reasons_flags_t reasons = 0;
    switch (propName) {
    case UR_DEVICE_INFO_MIN_POWER_LIMIT:
    case UR_DEVICE_INFO_MAX_POWER_LIMIT:
        if (!cuda_nvml_power_limits(bus, &lo, &hi))
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        return urc_info_i32(out, propName == UR_DEVICE_INFO_MIN_POWER_LIMIT ? lo : hi);
    case UR_DEVICE_INFO_CURRENT_CLOCK_THROTTLE_REASONS:
        if (!cuda_nvml_throttle_reasons(bus, &reasons))
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        return urc_info_u32(out, reasons);
    default: // UR_DEVICE_INFO_FAN_SPEED
        if (!cuda_nvml_fan_speed(bus, &lo))
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        return urc_info_i32(out, lo);
    }
}

ur_result_t cuda_device_get_info(ur_device_handle_t hDevice, ur_device_info_t propName,
                                 size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    const cuda_device_t *dev = CUDA_DEVICE(hDevice);
    const urc_device_caps_t *caps = &dev->caps;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    // Shareable physical memory and exportable memory (ipc_physical.c, memory_export.c) need
    // memory the device can export as a POSIX file descriptor.
    if (propName == UR_DEVICE_INFO_IPC_PHYSICAL_MEMORY_SUPPORT_EXP ||
        propName == UR_DEVICE_INFO_MEMORY_EXPORT_EXPORTABLE_DEVICE_MEM_EXP)
        return urc_info_bool(&out, cuda_device_exports_fd(dev));
    ur_result_t bindless;
    if (cuda_bindless_device_info(dev, propName, &out, &bindless)) // bindless.c
        return bindless;
    switch (propName) {
    case UR_DEVICE_INFO_IPC_EVENT_SUPPORT_EXP: // ipc_event.c, when the driver has the calls
        return urc_info_bool(&out, cuda_ipc_events_available());
    case UR_DEVICE_INFO_COMMAND_BUFFER_SUBGRAPH_SUPPORT_EXP: // a native command's child buffer
        return urc_info_bool(&out, cu.GraphAddChildGraphNode != NULL); // is a child-graph node
    case UR_DEVICE_INFO_GRAPH_RECORD_AND_REPLAY_SUPPORT_EXP:           // graph.c
        return urc_info_bool(&out, cuda_graph_capture_available());
    case UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP:
    case UR_DEVICE_INFO_COMMAND_BUFFER_EVENT_SUPPORT_EXP: // event nodes (command_buffer.c)
    case UR_DEVICE_INFO_COMMAND_BUFFER_UPDATE_CAPABILITIES_EXP: {
        urc_cb_caps_t cb;
        cuda_cb_caps(dev, &cb);
        if (propName == UR_DEVICE_INFO_COMMAND_BUFFER_UPDATE_CAPABILITIES_EXP)
            return urc_info_u32(&out, cb.update_caps);
        return urc_info_bool(
            &out, propName == UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP ? cb.supported : cb.events);
    }
    case UR_DEVICE_INFO_TYPE:
        return urc_info_bytes(&out, &(ur_device_type_t){UR_DEVICE_TYPE_GPU},
                              sizeof(ur_device_type_t));
    case UR_DEVICE_INFO_DEVICE_ID:
        return urc_info_u32(&out, (uint32_t)attr(dev, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID));
    case UR_DEVICE_INFO_MAX_COMPUTE_UNITS:
    case UR_DEVICE_INFO_NUM_COMPUTE_UNITS:
        return urc_info_u32(&out, (uint32_t)dev->sm_count);
    case UR_DEVICE_INFO_MAX_WORK_ITEM_SIZES: {
        size_t sizes[3] = {(size_t)dev->max_block[0], (size_t)dev->max_block[1],
                           (size_t)dev->max_block[2]};
        return urc_info_bytes(&out, sizes, sizeof sizes);
    }
    case UR_DEVICE_INFO_MAX_WORK_GROUPS_3D: {
        size_t sizes[3] = {(size_t)dev->max_grid[0], (size_t)dev->max_grid[1],
                           (size_t)dev->max_grid[2]};
        return urc_info_bytes(&out, sizes, sizeof sizes);
    }
    case UR_DEVICE_INFO_MAX_WORK_GROUPS: {
        // The product of the grid limits, saturated rather than wrapped.
        size_t total = 1;
        for (int i = 0; i < 3; ++i) {
            size_t g = (size_t)dev->max_grid[i];
            total = (g != 0 && total > SIZE_MAX / g) ? SIZE_MAX : total * g;
        }
        return urc_info_size(&out, total);
    }
    case UR_DEVICE_INFO_MAX_WORK_GROUP_SIZE:
        return urc_info_size(&out, (size_t)dev->max_threads_per_block);
    case UR_DEVICE_INFO_MAX_NUM_SUB_GROUPS:
        return urc_info_u32(
            &out, (uint32_t)((dev->max_threads_per_block + dev->warp_size - 1) / dev->warp_size));
    case UR_DEVICE_INFO_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
        return urc_info_bool(&out, dev->cc_major >= 7); // Volta's independent scheduling
    case UR_DEVICE_INFO_SUB_GROUP_SIZES_INTEL:
        return urc_info_bytes(&out, caps->sub_group_sizes,
                              caps->num_sub_group_sizes * sizeof(uint32_t));
    case UR_DEVICE_INFO_ATOMIC_64:
        return urc_info_bool(&out, urc_caps_has_aspect(caps, URC_ASPECT_ATOMIC64));
    // A type's vector widths are 0 exactly when the device lacks it (OpenCL's rule; UR's
    // adapter answered 0 for half while listing cl_khr_fp16, and 1 for double regardless).
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_HALF:
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_HALF:
        return urc_info_u32(&out, urc_caps_has_aspect(caps, URC_ASPECT_FP16) ? 1u : 0u);
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_DOUBLE:
        return urc_info_u32(&out, urc_caps_has_aspect(caps, URC_ASPECT_FP64) ? 1u : 0u);
    case UR_DEVICE_INFO_ATOMIC_MEMORY_ORDER_CAPABILITIES:
    case UR_DEVICE_INFO_ATOMIC_FENCE_ORDER_CAPABILITIES: {
        uint32_t v =
            UR_MEMORY_ORDER_CAPABILITY_FLAG_RELAXED | UR_MEMORY_ORDER_CAPABILITY_FLAG_ACQUIRE |
            UR_MEMORY_ORDER_CAPABILITY_FLAG_RELEASE | UR_MEMORY_ORDER_CAPABILITY_FLAG_ACQ_REL;
        if (dev->cc_major >= 7)
            v |= UR_MEMORY_ORDER_CAPABILITY_FLAG_SEQ_CST;
        return urc_info_u32(&out, v);
    }
    case UR_DEVICE_INFO_ATOMIC_MEMORY_SCOPE_CAPABILITIES: {
        uint32_t v =
            UR_MEMORY_SCOPE_CAPABILITY_FLAG_WORK_ITEM | UR_MEMORY_SCOPE_CAPABILITY_FLAG_SUB_GROUP |
            UR_MEMORY_SCOPE_CAPABILITY_FLAG_WORK_GROUP | UR_MEMORY_SCOPE_CAPABILITY_FLAG_DEVICE;
        if (dev->cc_major >= 7)
            v |= UR_MEMORY_SCOPE_CAPABILITY_FLAG_SYSTEM;
        return urc_info_u32(&out, v);
    }
    case UR_DEVICE_INFO_ATOMIC_FENCE_SCOPE_CAPABILITIES:
        return urc_info_u32(&out, UR_MEMORY_SCOPE_CAPABILITY_FLAG_WORK_ITEM |
                                      UR_MEMORY_SCOPE_CAPABILITY_FLAG_SUB_GROUP |
                                      UR_MEMORY_SCOPE_CAPABILITY_FLAG_WORK_GROUP);
    case UR_DEVICE_INFO_MAX_CLOCK_FREQUENCY: // kHz -> MHz
        return urc_info_u32(&out, (uint32_t)attr(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000u);
    case UR_DEVICE_INFO_MEMORY_CLOCK_RATE:
        return urc_info_u32(&out,
                            (uint32_t)attr(dev, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) / 1000u);
    case UR_DEVICE_INFO_MEMORY_BUS_WIDTH:
        return urc_info_u32(&out, (uint32_t)attr(dev, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH));
    case UR_DEVICE_INFO_MAX_MEMORY_BANDWIDTH: {
        // 250 * kHz * bits = bytes/s for double data rate memory (UR's formula).
        uint64_t khz = (uint64_t)attr(dev, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
        uint64_t bits = (uint64_t)attr(dev, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
        return urc_info_u64(&out, 250u * khz * bits);
    }
    case UR_DEVICE_INFO_MAX_MEM_ALLOC_SIZE:
    case UR_DEVICE_INFO_GLOBAL_MEM_SIZE:
        return urc_info_u64(&out, (uint64_t)dev->total_mem);
    case UR_DEVICE_INFO_GLOBAL_MEM_FREE: {
        size_t free_bytes = 0, total = 0;
        ur_result_t res = cuda_activate(dev);
        if (res == UR_RESULT_SUCCESS)
            res = cuda_ok(cu.MemGetInfo(&free_bytes, &total), "cuMemGetInfo");
        return res != UR_RESULT_SUCCESS ? res : urc_info_u64(&out, (uint64_t)free_bytes);
    }
    case UR_DEVICE_INFO_IMAGE2D_MAX_WIDTH:
        return urc_info_size(&out, min_attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH,
                                            CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH));
    case UR_DEVICE_INFO_IMAGE2D_MAX_HEIGHT:
        return urc_info_size(&out, min_attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT,
                                            CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT));
    case UR_DEVICE_INFO_IMAGE3D_MAX_WIDTH:
        return urc_info_size(&out, min_attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH,
                                            CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH));
    case UR_DEVICE_INFO_IMAGE3D_MAX_HEIGHT:
        return urc_info_size(&out, min_attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT,
                                            CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT));
    case UR_DEVICE_INFO_IMAGE3D_MAX_DEPTH:
        return urc_info_size(&out, min_attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH,
                                            CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH));
    case UR_DEVICE_INFO_IMAGE_MAX_BUFFER_SIZE:
        return urc_info_size(&out, min_attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH,
                                            CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH));
    // Linear (pitched) image limits, which the bindless extension's queries ask for; CUDA
    // knows them whether or not urc offers bindless images.
    case UR_DEVICE_INFO_IMAGE_PITCH_ALIGN_EXP:
        return urc_info_u32(&out, (uint32_t)attr(dev, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT));
    case UR_DEVICE_INFO_MAX_IMAGE_LINEAR_WIDTH_EXP:
        return urc_info_size(&out,
                             (size_t)attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH));
    case UR_DEVICE_INFO_MAX_IMAGE_LINEAR_HEIGHT_EXP:
        return urc_info_size(
            &out, (size_t)attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT));
    case UR_DEVICE_INFO_MAX_IMAGE_LINEAR_PITCH_EXP:
        return urc_info_size(&out,
                             (size_t)attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH));
    case UR_DEVICE_INFO_MIPMAP_MAX_ANISOTROPY_EXP:
        return urc_info_u32(&out, 16); // every CUDA GPU's texture units (CUDA_TEXTURE_DESC)
    case UR_DEVICE_INFO_IMAGE_MAX_ARRAY_SIZE:
        return urc_info_size(&out,
                             min_attr(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS,
                                      CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS));
    case UR_DEVICE_INFO_IMAGE_SUPPORT:
        return urc_info_bool(&out, cuda_images_available());
    // Texture and surface objects have no per-kernel limit; these are OpenCL's minimums for a
    // device with images, which SYCL reads.
    case UR_DEVICE_INFO_MAX_READ_IMAGE_ARGS:
        return urc_info_u32(&out, cuda_images_available() ? 128 : 0);
    case UR_DEVICE_INFO_MAX_WRITE_IMAGE_ARGS:
        return urc_info_u32(&out, cuda_images_available() ? 64 : 0);
    case UR_DEVICE_INFO_MAX_SAMPLERS:
        return urc_info_u32(&out, cuda_images_available() ? 16 : 0);
    case UR_DEVICE_INFO_MAX_PARAMETER_SIZE:
        return urc_info_size(&out, 4000);    // kernel parameters live in 4 KB of constant memory
    case UR_DEVICE_INFO_MEM_BASE_ADDR_ALIGN: // in bits, as OpenCL reports it
        return urc_info_u32(&out, (uint32_t)attr(dev, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT) * 8u);
    case UR_DEVICE_INFO_SINGLE_FP_CONFIG:
        return urc_info_u32(
            &out, UR_DEVICE_FP_CAPABILITY_FLAG_DENORM | UR_DEVICE_FP_CAPABILITY_FLAG_INF_NAN |
                      UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_NEAREST |
                      UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_ZERO |
                      UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_INF | UR_DEVICE_FP_CAPABILITY_FLAG_FMA |
                      UR_DEVICE_FP_CAPABILITY_FLAG_CORRECTLY_ROUNDED_DIVIDE_SQRT);
    case UR_DEVICE_INFO_HALF_FP_CONFIG:
        // PTX's f16 arithmetic rounds to nearest only; denormals and fma.rn.f16 exist.
        if (!urc_caps_has_aspect(caps, URC_ASPECT_FP16))
            return urc_info_u32(&out, 0);
        return urc_info_u32(&out, UR_DEVICE_FP_CAPABILITY_FLAG_DENORM |
                                      UR_DEVICE_FP_CAPABILITY_FLAG_INF_NAN |
                                      UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_NEAREST |
                                      UR_DEVICE_FP_CAPABILITY_FLAG_FMA);
    case UR_DEVICE_INFO_DOUBLE_FP_CONFIG:
        if (!urc_caps_has_aspect(caps, URC_ASPECT_FP64))
            return urc_info_u32(&out, 0);
        return urc_info_u32(
            &out, UR_DEVICE_FP_CAPABILITY_FLAG_DENORM | UR_DEVICE_FP_CAPABILITY_FLAG_INF_NAN |
                      UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_NEAREST |
                      UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_ZERO |
                      UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_INF | UR_DEVICE_FP_CAPABILITY_FLAG_FMA);
    case UR_DEVICE_INFO_GLOBAL_MEM_CACHE_SIZE:
        return urc_info_u64(&out, (uint64_t)attr(dev, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
    case UR_DEVICE_INFO_MAX_CONSTANT_BUFFER_SIZE:
        return urc_info_u64(&out, (uint64_t)attr(dev, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY));
    case UR_DEVICE_INFO_LOCAL_MEM_SIZE: // OpenCL "local" is CUDA "shared" memory
        return urc_info_u64(&out, (uint64_t)dev->max_shared_optin);
    case UR_DEVICE_INFO_ERROR_CORRECTION_SUPPORT:
        return urc_info_bool(&out, attr(dev, CU_DEVICE_ATTRIBUTE_ECC_ENABLED) != 0);
    case UR_DEVICE_INFO_HOST_UNIFIED_MEMORY:
    case UR_DEVICE_INFO_IS_INTEGRATED_GPU:
        return urc_info_bool(&out, attr(dev, CU_DEVICE_ATTRIBUTE_INTEGRATED) != 0);
    case UR_DEVICE_INFO_PROFILING_TIMER_RESOLUTION:
        return urc_info_size(&out, 1000);
    case UR_DEVICE_INFO_COMPILER_AVAILABLE:
        return urc_info_bool(&out, urc_caps_has_aspect(caps, URC_ASPECT_ONLINE_COMPILER));
    case UR_DEVICE_INFO_LINKER_AVAILABLE:
        return urc_info_bool(&out, urc_caps_has_aspect(caps, URC_ASPECT_ONLINE_LINKER));
    case UR_DEVICE_INFO_BUILT_IN_KERNELS:
        return urc_info_string(&out, "");
    case UR_DEVICE_INFO_PLATFORM:
        return urc_info_ptr(&out, dev->platform);
    case UR_DEVICE_INFO_REFERENCE_COUNT:
        return urc_info_u32(&out, 1);
    case UR_DEVICE_INFO_IL_VERSION: {
        // PTX ISA follows the driver: CUDA 11.x and later speak PTX (major - 4).(minor).
        int v = dev->platform->driver_version, major = v / 1000, minor = v % 1000 / 10;
        char text[32];
        if (major < 10)
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        snprintf(text, sizeof text, "nvptx-%d.%d", major - 4, major == 10 ? minor + 3 : minor);
        // SPIR-V is listed only where urc-spirv-ptx runs (docs/spirv.md); the translator
        // reads versions 1.0 to 1.4.
        if (!cuda_spirv_available(NULL, 0))
            return urc_info_string(&out, text);
        char both[160];
        snprintf(both, sizeof both, "%s SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4",
                 text);
        return urc_info_string(&out, both);
    }
    case UR_DEVICE_INFO_NAME:
        return urc_info_string(&out, dev->name);
    case UR_DEVICE_INFO_VENDOR:
        return urc_info_string(&out, "NVIDIA Corporation");
    case UR_DEVICE_INFO_DRIVER_VERSION: {
        int v = dev->platform->driver_version;
        char text[32];
        snprintf(text, sizeof text, "CUDA %d.%d", v / 1000, v % 1000 / 10);
        return urc_info_string(&out, text);
    }
    case UR_DEVICE_INFO_PROFILE:
        return urc_info_string(&out, "CUDA");
    case UR_DEVICE_INFO_VERSION:
    case UR_DEVICE_INFO_BACKEND_RUNTIME_VERSION:
        return version_string(&out, dev->cc_major, dev->cc_minor);
    case UR_DEVICE_INFO_EXTENSIONS: {
        char text[256];
        extensions(dev, text, sizeof text);
        return urc_info_string(&out, text);
    }
    case UR_DEVICE_INFO_USE_NATIVE_ASSERT:
        return urc_info_bool(&out, urc_caps_has_aspect(caps, URC_ASPECT_EXT_ONEAPI_NATIVE_ASSERT));
    case UR_DEVICE_INFO_PRINTF_BUFFER_SIZE:
        return urc_info_size(&out, 1024);
    case UR_DEVICE_INFO_PARENT_DEVICE:
        return urc_info_ptr(&out, NULL);
    case UR_DEVICE_INFO_SUPPORTED_PARTITIONS:
    case UR_DEVICE_INFO_PARTITION_TYPE:
        return urc_info_bytes(&out, NULL, 0);
    case UR_DEVICE_INFO_USM_HOST_SUPPORT:
        return urc_info_u32(&out, usm_host_support(dev));
    case UR_DEVICE_INFO_USM_DEVICE_SUPPORT:
        return urc_info_u32(&out,
                            UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ACCESS |
                                UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ATOMIC_ACCESS |
                                UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_CONCURRENT_ACCESS |
                                UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ATOMIC_CONCURRENT_ACCESS);
    case UR_DEVICE_INFO_USM_SINGLE_SHARED_SUPPORT:
        return urc_info_u32(&out, usm_single_shared_support(dev));
    case UR_DEVICE_INFO_USM_CROSS_SHARED_SUPPORT:
        return urc_info_u32(&out, usm_cross_shared_support(dev));
    case UR_DEVICE_INFO_USM_SYSTEM_SHARED_SUPPORT:
        return urc_info_u32(&out, usm_system_support(dev));
    case UR_DEVICE_INFO_UUID: {
        CUuuid uuid;
        if (cu.DeviceGetUuid == NULL)
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        ur_result_t res = cuda_ok(cu.DeviceGetUuid(&uuid, dev->cu), "cuDeviceGetUuid");
        return res != UR_RESULT_SUCCESS ? res : urc_info_bytes(&out, uuid.bytes, 16);
    }
    case UR_DEVICE_INFO_PCI_ADDRESS: {
        char bus[32] = {0};
        ur_result_t res =
            cuda_ok(cu.DeviceGetPCIBusId(bus, (int)sizeof bus - 1, dev->cu), "cuDeviceGetPCIBusId");
        return res != UR_RESULT_SUCCESS ? res : urc_info_string(&out, bus);
    }
    case UR_DEVICE_INFO_ASYNC_BARRIER:
        return urc_info_bool(&out, dev->cc_major >= 8);
    case UR_DEVICE_INFO_MAX_REGISTERS_PER_WORK_GROUP:
        return urc_info_u32(&out, (uint32_t)dev->max_regs_per_block);
    case UR_DEVICE_INFO_KERNEL_LAUNCH_CAPABILITIES: {
        uint32_t v = UR_KERNEL_LAUNCH_PROPERTIES_FLAG_WORK_GROUP_MEMORY;
        // Cooperative and cluster launches need cuLaunchKernelEx (CUDA 11.8 drivers).
        if (cu.LaunchKernelEx != NULL) {
            v |= UR_KERNEL_LAUNCH_PROPERTIES_FLAG_COOPERATIVE;
            if (dev->cc_major >= 9)
                v |= UR_KERNEL_LAUNCH_PROPERTIES_FLAG_CLUSTER_DIMENSION |
                     UR_KERNEL_LAUNCH_PROPERTIES_FLAG_OPPORTUNISTIC_QUEUE_SERIALIZE;
        }
        return urc_info_u32(&out, v);
    }
    case UR_DEVICE_INFO_MIN_POWER_LIMIT:
    case UR_DEVICE_INFO_MAX_POWER_LIMIT:
    case UR_DEVICE_INFO_CURRENT_CLOCK_THROTTLE_REASONS:
    case UR_DEVICE_INFO_FAN_SPEED:
        return nvml_info(dev, propName, &out);
    default: {
        // The answers every device of the adapter gives, and features no adapter has; last,
        // so the queries above take the switch's jump and only the rest scan the table.
        ur_result_t fixed;
        if (URC_DEVICE_INFO_FIXED(fixed_answers, propName, &out, &fixed))
            return fixed;
        // Intel GPU topology, Windows LUIDs, image details of the unsupported image features,
        // and values added after this snapshot.
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
    }
}
