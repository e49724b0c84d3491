// SPDX-License-Identifier: MIT
// urDevice*: one handle per Level Zero device (and sub-device), made at platform start-up and
// kept for the life of the process. Properties are read once; queries follow UR's Level Zero
// adapter, and features this adapter does not implement (images, pools, command buffers,
// virtual memory...) are reported absent rather than present.
#include <level_zero/zes_api.h>
#include <stdio.h>
#include <string.h>

#include "program/assert_record.h"
#include "l0_internal.h"
#include "core/flags.h"

static ur_result_t read_memory(l0_device_t *dev) {
    uint32_t n = 0;
    ur_result_t res =
        l0_ok(zeDeviceGetMemoryProperties(dev->ze, &n, NULL), "zeDeviceGetMemoryProperties");
    if (res != UR_RESULT_SUCCESS || n == 0)
        return res;
    ze_device_memory_properties_t *mem = urc_calloc(n, sizeof *mem);
    if (mem == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < n; ++i)
        mem[i].stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
    res = l0_ok(zeDeviceGetMemoryProperties(dev->ze, &n, mem), "zeDeviceGetMemoryProperties");
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < n; ++i) {
        dev->global_mem += mem[i].totalSize;
        // UR reports the slowest and narrowest module.
        if (i == 0 || mem[i].maxClockRate < dev->mem_clock_mhz)
            dev->mem_clock_mhz = mem[i].maxClockRate;
        if (i == 0 || mem[i].maxBusWidth < dev->mem_bus_width)
            dev->mem_bus_width = mem[i].maxBusWidth;
    }
    free(mem);
    return res;
}

// The compute queue group: the first one that takes compute work.
static ur_result_t read_queue_groups(l0_device_t *dev) {
    uint32_t n = 0;
    ur_result_t res = l0_ok(zeDeviceGetCommandQueueGroupProperties(dev->ze, &n, NULL),
                            "zeDeviceGetCommandQueueGroupProperties");
    if (res != UR_RESULT_SUCCESS)
        return res;
    ze_command_queue_group_properties_t *groups = urc_calloc(n, sizeof *groups);
    if (groups == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < n; ++i)
        groups[i].stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
    res = l0_ok(zeDeviceGetCommandQueueGroupProperties(dev->ze, &n, groups),
                "zeDeviceGetCommandQueueGroupProperties");
    bool found = false;
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < n && !found; ++i) {
        if (groups[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
            dev->compute_ordinal = i;
            dev->compute_queues = groups[i].numQueues;
            dev->max_fill_pattern = groups[i].maxMemoryFillPatternSize;
            found = true;
        }
    }
    free(groups);
    if (res == UR_RESULT_SUCCESS && !found)
        res = urc_error_set(UR_RESULT_ERROR_DEVICE_NOT_AVAILABLE, 0,
                            "the device has no compute command queue group");
    return res;
}

static bool rw(ze_memory_access_cap_flags_t f) {
    return (f & ZE_MEMORY_ACCESS_CAP_FLAG_RW) != 0;
}

// The aspects requirement checks compare against, from the driver's own answers. Queries that
// report one of these features read it from here, so an aspect masked with URC_MASK_ASPECTS
// disappears from the queries as well.
static void init_caps(l0_device_t *dev) {
    urc_device_caps_t *caps = &dev->caps;
    memset(caps, 0, sizeof *caps);
    switch (dev->props.type) {
    case ZE_DEVICE_TYPE_GPU:
        urc_caps_add_aspect(caps, URC_ASPECT_GPU);
        break;
    case ZE_DEVICE_TYPE_CPU:
        urc_caps_add_aspect(caps, URC_ASPECT_CPU);
        break;
    default:
        urc_caps_add_aspect(caps, URC_ASPECT_ACCELERATOR);
        break;
    }
    if (dev->module.flags & ZE_DEVICE_MODULE_FLAG_FP16)
        urc_caps_add_aspect(caps, URC_ASPECT_FP16);
    if (dev->module.flags & ZE_DEVICE_MODULE_FLAG_FP64)
        urc_caps_add_aspect(caps, URC_ASPECT_FP64);
    if (dev->module.flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS)
        urc_caps_add_aspect(caps, URC_ASPECT_ATOMIC64);
    urc_caps_add_aspect(caps, URC_ASPECT_ONLINE_COMPILER);
    urc_caps_add_aspect(caps, URC_ASPECT_ONLINE_LINKER);
    urc_caps_add_aspect(caps, URC_ASPECT_QUEUE_PROFILING);
    const ze_device_memory_access_properties_t *a = &dev->access;
    if (rw(a->deviceAllocCapabilities))
        urc_caps_add_aspect(caps, URC_ASPECT_USM_DEVICE_ALLOCATIONS);
    if (rw(a->hostAllocCapabilities))
        urc_caps_add_aspect(caps, URC_ASPECT_USM_HOST_ALLOCATIONS);
    if (rw(a->sharedSingleDeviceAllocCapabilities))
        urc_caps_add_aspect(caps, URC_ASPECT_USM_SHARED_ALLOCATIONS);
    if (rw(a->sharedSystemAllocCapabilities))
        urc_caps_add_aspect(caps, URC_ASPECT_USM_SYSTEM_ALLOCATIONS);
    if (a->hostAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC)
        urc_caps_add_aspect(caps, URC_ASPECT_USM_ATOMIC_HOST_ALLOCATIONS);
    if (a->sharedSingleDeviceAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC)
        urc_caps_add_aspect(caps, URC_ASPECT_USM_ATOMIC_SHARED_ALLOCATIONS);
    // Intel's driver implements __devicelib_assert_fail itself (anchor-behaviour §2.2).
    urc_caps_add_aspect(caps, URC_ASPECT_EXT_ONEAPI_NATIVE_ASSERT);
    uint32_t nsg = dev->compute.numSubGroupSizes;
    if (nsg > 32)
        nsg = 32;
    memcpy(caps->sub_group_sizes, dev->compute.subGroupSizes, nsg * sizeof(uint32_t));
    caps->num_sub_group_sizes = nsg;
    caps->max_work_group_size = dev->compute.maxTotalGroupSize;
    caps->max_work_item_sizes[0] = dev->compute.maxGroupSizeX;
    caps->max_work_item_sizes[1] = dev->compute.maxGroupSizeY;
    caps->max_work_item_sizes[2] = dev->compute.maxGroupSizeZ;
    urc_caps_apply_mask(caps, l0_log());
}

ur_result_t l0_device_init(l0_device_t *dev, l0_platform_t *platform, l0_device_t *parent,
                           ze_device_handle_t ze) {
    memset(dev, 0, sizeof *dev);
    urc_object_init(&dev->obj, &l0_ddi, URC_KIND_DEVICE);
    dev->platform = platform;
    dev->parent = parent;
    dev->ze = ze;
    urc_queue_registry_init(&dev->queues);
    // The 1.2 structure gives the timer in cycles per second rather than whole nanoseconds.
    dev->props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2;
    dev->compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
    dev->module.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
    dev->access.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES;
    dev->image.stype = ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES;
    dev->cache.stype = ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES;
    ur_result_t res = l0_ok(zeDeviceGetProperties(ze, &dev->props), "zeDeviceGetProperties");
    if (res == UR_RESULT_SUCCESS)
        res =
            l0_ok(zeDeviceGetComputeProperties(ze, &dev->compute), "zeDeviceGetComputeProperties");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeDeviceGetModuleProperties(ze, &dev->module), "zeDeviceGetModuleProperties");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeDeviceGetMemoryAccessProperties(ze, &dev->access),
                    "zeDeviceGetMemoryAccessProperties");
    if (res == UR_RESULT_SUCCESS)
        dev->mutable_flags = l0_mutable_device_flags(dev);
    if (res == UR_RESULT_SUCCESS)
        res = read_memory(dev);
    if (res == UR_RESULT_SUCCESS)
        res = read_queue_groups(dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // Images and caches are optional answers: a driver without them reports zeros.
    if (zeDeviceGetImageProperties(ze, &dev->image) != ZE_RESULT_SUCCESS)
        memset(&dev->image, 0, sizeof dev->image);
    uint32_t ncache = 1;
    if (zeDeviceGetCacheProperties(ze, &ncache, &dev->cache) != ZE_RESULT_SUCCESS || ncache == 0)
        memset(&dev->cache, 0, sizeof dev->cache);
    uint64_t hz = dev->props.timerResolution;
    dev->ns_per_tick = hz != 0 ? 1e9 / (double)hz : 1.0;
    uint32_t bits = dev->props.kernelTimestampValidBits;
    dev->kernel_ts_mask = bits == 0 || bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    init_caps(dev);

    // Sub-devices get the same treatment; a failure leaves the root device usable alone.
    uint32_t nsub = 0;
    if (parent == NULL && zeDeviceGetSubDevices(ze, &nsub, NULL) == ZE_RESULT_SUCCESS && nsub > 0) {
        ze_device_handle_t *subs = urc_calloc(nsub, sizeof *subs);
        dev->subs = urc_calloc(nsub, sizeof *dev->subs);
        if (subs != NULL && dev->subs != NULL &&
            zeDeviceGetSubDevices(ze, &nsub, subs) == ZE_RESULT_SUCCESS) {
            for (uint32_t i = 0; i < nsub; ++i)
                if (l0_device_init(&dev->subs[dev->nsub], platform, dev, subs[i]) ==
                    UR_RESULT_SUCCESS)
                    ++dev->nsub;
        }
        free(subs);
        if (dev->nsub == 0)
            URC_FREE(dev->subs);
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_device_ticks(const l0_device_t *dev, uint64_t *ticks) {
    uint64_t host = 0;
    return l0_ok(zeDeviceGetGlobalTimestamps(dev->ze, &host, ticks), "zeDeviceGetGlobalTimestamps");
}

ur_result_t l0_device_get(ur_platform_handle_t hPlatform, ur_device_type_t DeviceType,
                          uint32_t NumEntries, ur_device_handle_t *phDevices,
                          uint32_t *pNumDevices) {
    l0_platform_t *p = L0_PLATFORM(hPlatform);
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->ndevices; ++i) {
        l0_device_t *dev = &p->devices[i];
        bool wanted = DeviceType == UR_DEVICE_TYPE_ALL ||
                      (DeviceType == UR_DEVICE_TYPE_DEFAULT && i == 0) ||
                      (DeviceType == UR_DEVICE_TYPE_GPU && dev->props.type == ZE_DEVICE_TYPE_GPU) ||
                      (DeviceType == UR_DEVICE_TYPE_CPU && dev->props.type == ZE_DEVICE_TYPE_CPU) ||
                      (DeviceType == UR_DEVICE_TYPE_FPGA && dev->props.type == ZE_DEVICE_TYPE_FPGA);
        if (!wanted)
            continue;
        if (phDevices != NULL && n < NumEntries)
            phDevices[n] = (ur_device_handle_t)dev;
        ++n;
    }
    if (pNumDevices != NULL)
        *pNumDevices = n;
    return UR_RESULT_SUCCESS;
}

// Devices live as long as the process: counting is a no-op, as in UR for root devices.
ur_result_t l0_device_retain(ur_device_handle_t hDevice) {
    return l0_is(hDevice, URC_KIND_DEVICE) ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_INVALID_DEVICE;
}

ur_result_t l0_device_release(ur_device_handle_t hDevice) {
    return l0_is(hDevice, URC_KIND_DEVICE) ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_INVALID_DEVICE;
}

// The driver's own sub-devices are the only partition Level Zero offers; urc exposes them for
// the NUMA / next-partitionable affinity domain, as UR does on multi-tile GPUs.
ur_result_t l0_device_partition(ur_device_handle_t hDevice,
                                const ur_device_partition_properties_t *pProperties,
                                uint32_t NumDevices, ur_device_handle_t *phSubDevices,
                                uint32_t *pNumDevicesRet) {
    l0_device_t *dev = L0_DEVICE(hDevice);
    if (pProperties->PropCount != 1 || pProperties->pProperties == NULL)
        return UR_RESULT_ERROR_INVALID_VALUE;
    const ur_device_partition_property_t *prop = &pProperties->pProperties[0];
    if (prop->type != UR_DEVICE_PARTITION_BY_AFFINITY_DOMAIN ||
        (prop->value.affinity_domain != UR_DEVICE_AFFINITY_DOMAIN_FLAG_NUMA &&
         prop->value.affinity_domain != UR_DEVICE_AFFINITY_DOMAIN_FLAG_NEXT_PARTITIONABLE))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "Level Zero devices split only by NUMA affinity domain");
    if (dev->nsub < 2)
        return urc_error_set(UR_RESULT_ERROR_DEVICE_PARTITION_FAILED, 0,
                             "the device has %u sub-devices; nothing to partition", dev->nsub);
    if (phSubDevices != NULL && NumDevices < dev->nsub)
        return UR_RESULT_ERROR_INVALID_VALUE;
    for (uint32_t i = 0; phSubDevices != NULL && i < dev->nsub; ++i)
        phSubDevices[i] = (ur_device_handle_t)&dev->subs[i];
    if (pNumDevicesRet != NULL)
        *pNumDevicesRet = dev->nsub;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_device_get_native_handle(ur_device_handle_t hDevice,
                                        ur_native_handle_t *phNativeDevice) {
    *phNativeDevice = (ur_native_handle_t)L0_DEVICE(hDevice)->ze;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_device_create_with_native_handle(ur_native_handle_t hNativeDevice,
                                                ur_adapter_handle_t hAdapter,
                                                const ur_device_native_properties_t *pProperties,
                                                ur_device_handle_t *phDevice) {
    (void)hAdapter;
    (void)pProperties;
    l0_device_t *dev = l0_device_by_native((ze_device_handle_t)hNativeDevice);
    if (dev == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                             "the native handle is not a device of a Level Zero platform");
    *phDevice = (ur_device_handle_t)dev;
    return UR_RESULT_SUCCESS;
}

// Native (spir64_gen) images first, SPIR-V as the fallback, as UR's adapter chooses.
ur_result_t l0_device_select_binary(ur_device_handle_t hDevice, const ur_device_binary_t *pBinaries,
                                    uint32_t NumBinaries, uint32_t *pSelectedBinary) {
    (void)hDevice;
    uint32_t fallback = UINT32_MAX;
    for (uint32_t i = 0; i < NumBinaries; ++i) {
        const char *spec = pBinaries[i].pDeviceTargetSpec;
        if (spec == NULL)
            continue;
        if (strcmp(spec, UR_DEVICE_BINARY_TARGET_SPIRV64_GEN) == 0) {
            *pSelectedBinary = i;
            return UR_RESULT_SUCCESS;
        }
        if (fallback == UINT32_MAX && strcmp(spec, UR_DEVICE_BINARY_TARGET_SPIRV64) == 0)
            fallback = i;
    }
    if (fallback == UINT32_MAX)
        return UR_RESULT_ERROR_INVALID_BINARY;
    *pSelectedBinary = fallback;
    return UR_RESULT_SUCCESS;
}

// Both clocks from one driver call; the device counter is converted to nanoseconds, the
// timeline every profiling answer uses.
ur_result_t l0_device_get_global_timestamps(ur_device_handle_t hDevice, uint64_t *pDeviceTimestamp,
                                            uint64_t *pHostTimestamp) {
    const l0_device_t *dev = L0_DEVICE(hDevice);
    uint64_t host = 0, ticks = 0;
    ur_result_t res =
        l0_ok(zeDeviceGetGlobalTimestamps(dev->ze, &host, &ticks), "zeDeviceGetGlobalTimestamps");
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (pDeviceTimestamp != NULL)
        *pDeviceTimestamp = (uint64_t)((double)ticks * dev->ns_per_tick);
    if (pHostTimestamp != NULL)
        *pHostTimestamp = host;
    return UR_RESULT_SUCCESS;
}

// ---- urDeviceGetInfo ----

// UR_DEVICE_INFO_EXTENSIONS and UR_DEVICE_INFO_USE_NATIVE_ASSERT both come from the device's
// capabilities, so the two ways SYCL asks about native asserts always agree (UR's adapter
// said "native" through the query but left cl_intel_devicelib_assert out of the string).
static void extensions(const l0_device_t *dev, char *buf, size_t size) {
    const urc_device_caps_t *caps = &dev->caps;
    snprintf(buf, size, "%s%s%s%s%s%s", L0_BASE_EXTENSIONS,
             urc_caps_has_aspect(caps, URC_ASPECT_FP16) ? "cl_khr_fp16 " : "",
             urc_caps_has_aspect(caps, URC_ASPECT_FP64) ? "cl_khr_fp64 " : "",
             urc_caps_has_aspect(caps, URC_ASPECT_ATOMIC64)
                 ? "cl_khr_int64_base_atomics cl_khr_int64_extended_atomics "
                 : "",
             dev->image.maxImageDims3D > 0 ? "cl_khr_3d_image_writes " : "",
             urc_caps_has_aspect(caps, URC_ASPECT_EXT_ONEAPI_NATIVE_ASSERT)
                 ? URC_NATIVE_ASSERT_EXTENSION " "
                 : "");
}

static const urc_flag_pair_t usm_caps_pairs[] = {
    {ZE_MEMORY_ACCESS_CAP_FLAG_RW, UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ACCESS},
    {ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC, UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ATOMIC_ACCESS},
    {ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT, UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_CONCURRENT_ACCESS},
    {ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC,
     UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ATOMIC_CONCURRENT_ACCESS},
};

static uint32_t usm_caps(ze_memory_access_cap_flags_t f) {
    return (uint32_t)URC_FLAGS_MAP(f, usm_caps_pairs);
}

// A USM kind whose aspect is masked is reported as not accessible at all.
static uint32_t usm_query(const l0_device_t *dev, uint32_t aspect, ze_memory_access_cap_flags_t f) {
    return urc_caps_has_aspect(&dev->caps, aspect) ? usm_caps(f) : 0;
}

static const urc_flag_pair_t fp_config_pairs[] = {
    {ZE_DEVICE_FP_FLAG_DENORM, UR_DEVICE_FP_CAPABILITY_FLAG_DENORM},
    {ZE_DEVICE_FP_FLAG_INF_NAN, UR_DEVICE_FP_CAPABILITY_FLAG_INF_NAN},
    {ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST, UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_NEAREST},
    {ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO, UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_ZERO},
    {ZE_DEVICE_FP_FLAG_ROUND_TO_INF, UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_INF},
    {ZE_DEVICE_FP_FLAG_FMA, UR_DEVICE_FP_CAPABILITY_FLAG_FMA},
    {ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT,
     UR_DEVICE_FP_CAPABILITY_FLAG_CORRECTLY_ROUNDED_DIVIDE_SQRT},
};

static uint32_t fp_config(ze_device_fp_flags_t f) {
    return (uint32_t)URC_FLAGS_MAP(f, fp_config_pairs);
}

// Answers that are the same for every Level Zero device (UR's Level Zero values), looked up
// for the queries l0_device_get_info's switch leaves (common/device/device_info).
static const urc_device_fixed_t fixed_answers[] = {
    // Regular command lists (command_buffer.c), with events on the list's commands.
    URC_FIXED_TRUE(UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP),
    URC_FIXED_TRUE(UR_DEVICE_INFO_COMMAND_BUFFER_EVENT_SUPPORT_EXP),
    URC_FIXED_TRUE(UR_DEVICE_INFO_REUSABLE_EVENTS_SUPPORT_EXP),        // reusable_event.c
    URC_FIXED_TRUE(UR_DEVICE_INFO_ENQUEUE_NATIVE_COMMAND_SUPPORT_EXP), // host_task.c
    URC_FIXED_TRUE(UR_DEVICE_INFO_ENQUEUE_HOST_TASK_SUPPORT_EXP),
    URC_FIXED_TRUE(UR_DEVICE_INFO_TIMESTAMP_RECORDING_SUPPORT_EXP),
    URC_FIXED_TRUE(UR_DEVICE_INFO_DEVICE_WAIT_SUPPORT_EXP),
    URC_FIXED_FALSE(UR_DEVICE_INFO_GRAPH_RECORD_AND_REPLAY_SUPPORT_EXP),
    URC_FIXED_FALSE(UR_DEVICE_INFO_COMMAND_BUFFER_SUBGRAPH_SUPPORT_EXP),
    URC_FIXED_TRUE(UR_DEVICE_INFO_ENDIAN_LITTLE),
    URC_FIXED_TRUE(UR_DEVICE_INFO_AVAILABLE),
    URC_FIXED_TRUE(UR_DEVICE_INFO_PREFERRED_INTEROP_USER_SYNC),
    URC_FIXED_TRUE(UR_DEVICE_INFO_GLOBAL_VARIABLE_SUPPORT),
    URC_FIXED_TRUE(UR_DEVICE_INFO_MEMORY_EXPORT_EXPORTABLE_DEVICE_MEM_EXP), // memory_export.c
    URC_FIXED_TRUE(UR_DEVICE_INFO_PROGRAM_SET_SPECIALIZATION_CONSTANTS),
    URC_FIXED_TRUE(UR_DEVICE_INFO_MULTI_DEVICE_COMPILE_SUPPORT_EXP),
    URC_FIXED_TRUE(UR_DEVICE_INFO_DYNAMIC_LINK_SUPPORT_EXP),
    URC_FIXED_TRUE(UR_DEVICE_INFO_USM_POOL_SUPPORT),                  // common/pool/pool_allocator
    URC_FIXED_TRUE(UR_DEVICE_INFO_ASYNC_USM_ALLOCATIONS_SUPPORT_EXP), // common/memory/usm_async
    URC_FIXED_TRUE(UR_DEVICE_INFO_USM_CONTEXT_MEMCPY_SUPPORT_EXP),    // usm_exp.c
    URC_FIXED_TRUE(UR_DEVICE_INFO_VIRTUAL_MEMORY_SUPPORT),            // virtual_mem.c
    URC_FIXED_TRUE(UR_DEVICE_INFO_USM_P2P_SUPPORT_EXP),               // usm_exp.c
    URC_FIXED_FALSE(UR_DEVICE_INFO_BUILD_ON_SUBDEVICE),
    URC_FIXED_FALSE(UR_DEVICE_INFO_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS),
    URC_FIXED_FALSE(UR_DEVICE_INFO_KERNEL_SET_SPECIALIZATION_CONSTANTS),
    URC_FIXED_FALSE(UR_DEVICE_INFO_MEM_CHANNEL_SUPPORT),
    URC_FIXED_FALSE(UR_DEVICE_INFO_IMAGE_SRGB),
    URC_FIXED_FALSE(UR_DEVICE_INFO_ASYNC_BARRIER),
    URC_FIXED_FALSE(UR_DEVICE_INFO_HOST_PIPE_READ_WRITE_SUPPORT),
    URC_FIXED_FALSE(UR_DEVICE_INFO_BFLOAT16_CONVERSIONS_NATIVE),
    URC_FIXED_FALSE(UR_DEVICE_INFO_CLOCK_WORK_GROUP_SUPPORT_EXP),
    URC_FIXED_FALSE(UR_DEVICE_INFO_CLOCK_DEVICE_SUPPORT_EXP),
    URC_FIXED_FALSE(UR_DEVICE_INFO_CLOCK_SUB_GROUP_SUPPORT_EXP),
    URC_FIXED_U32(UR_DEVICE_INFO_MAX_WORK_ITEM_DIMENSIONS, 3), // Level Zero defines three
    URC_FIXED_U32(UR_DEVICE_INFO_ADDRESS_BITS, 64),
    URC_FIXED_U32(UR_DEVICE_INFO_MAX_CONSTANT_ARGS, 64),
    // In bits: Level Zero allows unaligned sub-buffers.
    URC_FIXED_U32(UR_DEVICE_INFO_MEM_BASE_ADDR_ALIGN, 8),
    URC_FIXED_U32(UR_DEVICE_INFO_GLOBAL_MEM_CACHE_TYPE, UR_DEVICE_MEM_CACHE_TYPE_READ_WRITE_CACHE),
    URC_FIXED_U32(UR_DEVICE_INFO_LOCAL_MEM_TYPE, UR_DEVICE_LOCAL_MEM_TYPE_LOCAL),
    URC_FIXED_U32(UR_DEVICE_INFO_EXECUTION_CAPABILITIES, UR_DEVICE_EXEC_CAPABILITY_FLAG_KERNEL),
    URC_FIXED_U32(UR_DEVICE_INFO_QUEUE_PROPERTIES,
                  UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE | UR_QUEUE_FLAG_PROFILING_ENABLE),
    URC_FIXED_U32(UR_DEVICE_INFO_QUEUE_ON_DEVICE_PROPERTIES, 0),
    URC_FIXED_U32(UR_DEVICE_INFO_QUEUE_ON_HOST_PROPERTIES, 0),
    URC_FIXED_U32(UR_DEVICE_INFO_MAX_READ_WRITE_IMAGE_ARGS, 0),
    URC_FIXED_U32(UR_DEVICE_INFO_2D_BLOCK_ARRAY_CAPABILITIES_EXP, 0),
    URC_FIXED_U32(UR_DEVICE_INFO_PARTITION_AFFINITY_DOMAIN,
                  UR_DEVICE_AFFINITY_DOMAIN_FLAG_NUMA |
                      UR_DEVICE_AFFINITY_DOMAIN_FLAG_NEXT_PARTITIONABLE),
    URC_FIXED_U32(UR_DEVICE_INFO_KERNEL_LAUNCH_CAPABILITIES,
                  UR_KERNEL_LAUNCH_PROPERTIES_FLAG_COOPERATIVE),
};

// Free memory through Sysman, as UR does; drivers without it leave the query unanswered.
static ur_result_t free_memory(const l0_device_t *dev, uint64_t *out) {
    zes_device_handle_t zes = (zes_device_handle_t)dev->ze;
    uint32_t n = 0;
    if (zesDeviceEnumMemoryModules(zes, &n, NULL) != ZE_RESULT_SUCCESS || n == 0)
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    zes_mem_handle_t *mods = urc_calloc(n, sizeof *mods);
    if (mods == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    uint64_t total = 0;
    ur_result_t res = UR_RESULT_SUCCESS;
    if (zesDeviceEnumMemoryModules(zes, &n, mods) != ZE_RESULT_SUCCESS)
        res = UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < n; ++i) {
        zes_mem_state_t state = {.stype = ZES_STRUCTURE_TYPE_MEM_STATE};
        if (zesMemoryGetState(mods[i], &state) != ZE_RESULT_SUCCESS)
            res = UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        total += state.free;
    }
    free(mods);
    *out = total < dev->global_mem ? total : dev->global_mem;
    return res;
}

static ur_result_t device_type(const urc_info_t *out, const l0_device_t *dev) {
    ur_device_type_t t;
    switch (dev->props.type) {
    case ZE_DEVICE_TYPE_GPU:
        t = UR_DEVICE_TYPE_GPU;
        break;
    case ZE_DEVICE_TYPE_CPU:
        t = UR_DEVICE_TYPE_CPU;
        break;
    case ZE_DEVICE_TYPE_FPGA:
        t = UR_DEVICE_TYPE_FPGA;
        break;
    default:
        t = UR_DEVICE_TYPE_VPU;
        break;
    }
    return urc_info_bytes(out, &t, sizeof t);
}

static ur_result_t size3(const urc_info_t *out, size_t x, size_t y, size_t z) {
    size_t v[3] = {x, y, z};
    return urc_info_bytes(out, v, sizeof v);
}

ur_result_t l0_device_get_info(ur_device_handle_t hDevice, ur_device_info_t propName,
                               size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    const l0_device_t *dev = L0_DEVICE(hDevice);
    const ze_device_properties_t *p = &dev->props;
    const ze_device_compute_properties_t *c = &dev->compute;
    const urc_device_caps_t *caps = &dev->caps;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    ur_result_t bindless;
    if (l0_bindless_device_info(dev, propName, &out, &bindless)) // bindless.c
        return bindless;
    switch (propName) {
    case UR_DEVICE_INFO_COMMAND_BUFFER_UPDATE_CAPABILITIES_EXP: {
        urc_cb_caps_t cb; // mutable command lists (command_buffer.c)
        l0_cb_caps(dev, &cb);
        return urc_info_u32(&out, cb.update_caps);
    }
    case UR_DEVICE_INFO_IPC_EVENT_SUPPORT_EXP: // reusable_event.c: IPC event pools
        return urc_info_bool(&out, l0_ipc_events_available(dev));
    case UR_DEVICE_INFO_TYPE:
        return device_type(&out, dev);
    case UR_DEVICE_INFO_IPC_MEMORY_SUPPORT_EXP:
        return urc_info_bool(&out, l0_ipc_memory_supported(dev));
    case UR_DEVICE_INFO_USM_HOST_ALLOC_REGISTER_SUPPORT_EXP:
        return urc_info_bool(&out, l0_host_import_supported(dev));
    case UR_DEVICE_INFO_VENDOR_ID:
        return urc_info_u32(&out, p->vendorId);
    case UR_DEVICE_INFO_DEVICE_ID:
        return urc_info_u32(&out, p->deviceId);
    case UR_DEVICE_INFO_UUID:
        return urc_info_bytes(&out, p->uuid.id, sizeof p->uuid.id);
    case UR_DEVICE_INFO_NAME:
        return urc_info_string(&out, p->name);
    case UR_DEVICE_INFO_VENDOR:
        return urc_info_string(&out, "Intel(R) Corporation");
    case UR_DEVICE_INFO_DRIVER_VERSION:
    case UR_DEVICE_INFO_BACKEND_RUNTIME_VERSION:
        return urc_info_string(&out, dev->platform->driver_version);
    case UR_DEVICE_INFO_VERSION:
        // UR formats the IP version (ze_device_ip_version_ext_t, API 1.5+); the 1.4 headers
        // have no such query, so the API version stands in.
        return urc_info_string(&out, dev->platform->version);
    case UR_DEVICE_INFO_PROFILE:
        return urc_info_string(&out, "FULL_PROFILE");
    case UR_DEVICE_INFO_BUILT_IN_KERNELS:
        return urc_info_string(&out, "");
    case UR_DEVICE_INFO_EXTENSIONS: {
        char text[512];
        extensions(dev, text, sizeof text);
        return urc_info_string(&out, text);
    }
    case UR_DEVICE_INFO_IL_VERSION: {
        char text[32];
        snprintf(text, sizeof text, "SPIR-V_%u.%u ",
                 ZE_MAJOR_VERSION(dev->module.spirvVersionSupported),
                 ZE_MINOR_VERSION(dev->module.spirvVersionSupported));
        return urc_info_string(&out, text);
    }
    case UR_DEVICE_INFO_PLATFORM:
        return urc_info_ptr(&out, dev->platform);
    case UR_DEVICE_INFO_PARENT_DEVICE:
        return urc_info_ptr(&out, dev->parent);
    case UR_DEVICE_INFO_REFERENCE_COUNT:
        return urc_info_u32(&out, urc_refcount(&dev->obj));
    case UR_DEVICE_INFO_MAX_COMPUTE_UNITS:
        return urc_info_u32(&out, p->numEUsPerSubslice * p->numSubslicesPerSlice * p->numSlices);
    case UR_DEVICE_INFO_NUM_COMPUTE_UNITS:
        return urc_info_u32(&out, p->numSubslicesPerSlice * p->numSlices);
    case UR_DEVICE_INFO_GPU_EU_COUNT:
        return urc_info_u32(&out, p->numEUsPerSubslice * p->numSubslicesPerSlice * p->numSlices);
    case UR_DEVICE_INFO_GPU_EU_SLICES:
        return urc_info_u32(&out, p->numSlices);
    case UR_DEVICE_INFO_GPU_EU_SIMD_WIDTH:
        return urc_info_u32(&out, p->physicalEUSimdWidth);
    case UR_DEVICE_INFO_GPU_SUBSLICES_PER_SLICE:
        return urc_info_u32(&out, p->numSubslicesPerSlice);
    case UR_DEVICE_INFO_GPU_EU_COUNT_PER_SUBSLICE:
        return urc_info_u32(&out, p->numEUsPerSubslice);
    case UR_DEVICE_INFO_GPU_HW_THREADS_PER_EU:
        return urc_info_u32(&out, p->numThreadsPerEU);
    case UR_DEVICE_INFO_MAX_COMPUTE_QUEUE_INDICES:
        return urc_info_i32(&out, (int32_t)dev->compute_queues);
    case UR_DEVICE_INFO_MAX_WORK_GROUP_SIZE:
        return urc_info_size(&out, c->maxTotalGroupSize);
    case UR_DEVICE_INFO_MAX_WORK_ITEM_SIZES:
        return size3(&out, c->maxGroupSizeX, c->maxGroupSizeY, c->maxGroupSizeZ);
    case UR_DEVICE_INFO_MAX_WORK_GROUPS_3D:
        return size3(&out, c->maxGroupCountX, c->maxGroupCountY, c->maxGroupCountZ);
    case UR_DEVICE_INFO_MAX_WORK_GROUPS: {
        // The product of the group-count limits, saturated rather than wrapped.
        size_t total = 1;
        const size_t g[3] = {c->maxGroupCountX, c->maxGroupCountY, c->maxGroupCountZ};
        for (int i = 0; i < 3; ++i)
            total = (g[i] != 0 && total > SIZE_MAX / g[i]) ? SIZE_MAX : total * g[i];
        return urc_info_size(&out, total);
    }
    case UR_DEVICE_INFO_MAX_NUM_SUB_GROUPS: {
        uint32_t min = 0;
        for (uint32_t i = 0; i < caps->num_sub_group_sizes; ++i)
            if (min == 0 || caps->sub_group_sizes[i] < min)
                min = caps->sub_group_sizes[i];
        return urc_info_u32(&out, min != 0 ? c->maxTotalGroupSize / min : 0);
    }
    case UR_DEVICE_INFO_SUB_GROUP_SIZES_INTEL:
        return urc_info_bytes(&out, caps->sub_group_sizes,
                              caps->num_sub_group_sizes * sizeof(uint32_t));
    case UR_DEVICE_INFO_MAX_CLOCK_FREQUENCY:
        return urc_info_u32(&out, p->coreClockRate);
    case UR_DEVICE_INFO_MEMORY_CLOCK_RATE:
        return urc_info_u32(&out, dev->mem_clock_mhz);
    case UR_DEVICE_INFO_MEMORY_BUS_WIDTH:
        return urc_info_u32(&out, dev->mem_bus_width);
    case UR_DEVICE_INFO_MAX_MEMORY_BANDWIDTH:
        return urc_info_u64(&out, 0); // needs the 1.5 memory extension properties
    case UR_DEVICE_INFO_MAX_MEM_ALLOC_SIZE:
        return urc_info_u64(&out, p->maxMemAllocSize);
    case UR_DEVICE_INFO_GLOBAL_MEM_SIZE:
        return urc_info_u64(&out, dev->global_mem);
    case UR_DEVICE_INFO_GLOBAL_MEM_FREE: {
        uint64_t v = 0;
        ur_result_t res = free_memory(dev, &v);
        return res != UR_RESULT_SUCCESS ? res : urc_info_u64(&out, v);
    }
    case UR_DEVICE_INFO_LOCAL_MEM_SIZE:
        return urc_info_u64(&out, c->maxSharedLocalMemory);
    case UR_DEVICE_INFO_GLOBAL_MEM_CACHE_SIZE:
        return urc_info_u64(&out, dev->cache.cacheSize);
    case UR_DEVICE_INFO_GLOBAL_MEM_CACHELINE_SIZE:
        return urc_info_u32(&out, 1); // UR's answer without the cache-line extension (API 1.6)
    case UR_DEVICE_INFO_MAX_CONSTANT_BUFFER_SIZE:
        return urc_info_u64(&out, dev->image.maxImageBufferSize);
    case UR_DEVICE_INFO_MAX_PARAMETER_SIZE:
        return urc_info_size(&out, dev->module.maxArgumentsSize);
    case UR_DEVICE_INFO_PRINTF_BUFFER_SIZE:
        return urc_info_size(&out, dev->module.printfBufferSize);
    case UR_DEVICE_INFO_HOST_UNIFIED_MEMORY:
    case UR_DEVICE_INFO_IS_INTEGRATED_GPU:
        return urc_info_bool(&out, (p->flags & ZE_DEVICE_PROPERTY_FLAG_INTEGRATED) != 0);
    case UR_DEVICE_INFO_ERROR_CORRECTION_SUPPORT:
        return urc_info_bool(&out, (p->flags & ZE_DEVICE_PROPERTY_FLAG_ECC) != 0);
    case UR_DEVICE_INFO_PROFILING_TIMER_RESOLUTION:
        return urc_info_size(&out, dev->ns_per_tick < 1.0 ? 1 : (size_t)dev->ns_per_tick);
    case UR_DEVICE_INFO_COMPILER_AVAILABLE:
        return urc_info_bool(&out, urc_caps_has_aspect(caps, URC_ASPECT_ONLINE_COMPILER));
    case UR_DEVICE_INFO_LINKER_AVAILABLE:
        return urc_info_bool(&out, urc_caps_has_aspect(caps, URC_ASPECT_ONLINE_LINKER));
    case UR_DEVICE_INFO_ATOMIC_64:
        return urc_info_bool(&out, urc_caps_has_aspect(caps, URC_ASPECT_ATOMIC64));
    case UR_DEVICE_INFO_USE_NATIVE_ASSERT:
        return urc_info_bool(&out, urc_caps_has_aspect(caps, URC_ASPECT_EXT_ONEAPI_NATIVE_ASSERT));
    case UR_DEVICE_INFO_ESIMD_SUPPORT:
        return urc_info_bool(&out, p->type == ZE_DEVICE_TYPE_GPU && p->vendorId == 0x8086);
    case UR_DEVICE_INFO_ATOMIC_MEMORY_ORDER_CAPABILITIES:
    case UR_DEVICE_INFO_ATOMIC_FENCE_ORDER_CAPABILITIES:
        return urc_info_u32(&out, UR_MEMORY_ORDER_CAPABILITY_FLAG_RELAXED |
                                      UR_MEMORY_ORDER_CAPABILITY_FLAG_ACQUIRE |
                                      UR_MEMORY_ORDER_CAPABILITY_FLAG_RELEASE |
                                      UR_MEMORY_ORDER_CAPABILITY_FLAG_ACQ_REL |
                                      UR_MEMORY_ORDER_CAPABILITY_FLAG_SEQ_CST);
    case UR_DEVICE_INFO_ATOMIC_MEMORY_SCOPE_CAPABILITIES:
    case UR_DEVICE_INFO_ATOMIC_FENCE_SCOPE_CAPABILITIES:
        return urc_info_u32(&out, UR_MEMORY_SCOPE_CAPABILITY_FLAG_WORK_ITEM |
                                      UR_MEMORY_SCOPE_CAPABILITY_FLAG_SUB_GROUP |
                                      UR_MEMORY_SCOPE_CAPABILITY_FLAG_WORK_GROUP |
                                      UR_MEMORY_SCOPE_CAPABILITY_FLAG_DEVICE |
                                      UR_MEMORY_SCOPE_CAPABILITY_FLAG_SYSTEM);
    case UR_DEVICE_INFO_SINGLE_FP_CONFIG:
        return urc_info_u32(&out, fp_config(dev->module.fp32flags));
    case UR_DEVICE_INFO_HALF_FP_CONFIG:
        return urc_info_u32(&out, urc_caps_has_aspect(caps, URC_ASPECT_FP16)
                                      ? fp_config(dev->module.fp16flags)
                                      : 0);
    case UR_DEVICE_INFO_DOUBLE_FP_CONFIG:
        return urc_info_u32(&out, urc_caps_has_aspect(caps, URC_ASPECT_FP64)
                                      ? fp_config(dev->module.fp64flags)
                                      : 0);
    // Intel's GPU values; UR reads them from ze_device_vector_width_properties_ext_t (API 1.9),
    // which the 1.4 headers this adapter builds against do not have.
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_CHAR:
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_CHAR:
        return urc_info_u32(&out, 16);
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_SHORT:
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_SHORT:
        return urc_info_u32(&out, 8);
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_INT:
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_INT:
        return urc_info_u32(&out, 4);
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_FLOAT:
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_FLOAT:
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_LONG:
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_LONG:
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_LONG_LONG:
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_LONG_LONG:
        return urc_info_u32(&out, 1);
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_HALF:
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_HALF:
        return urc_info_u32(&out, urc_caps_has_aspect(caps, URC_ASPECT_FP16) ? 8 : 0);
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_DOUBLE:
        return urc_info_u32(&out, urc_caps_has_aspect(caps, URC_ASPECT_FP64) ? 1 : 0);
    case UR_DEVICE_INFO_USM_HOST_SUPPORT:
        return urc_info_u32(&out, usm_query(dev, URC_ASPECT_USM_HOST_ALLOCATIONS,
                                            dev->access.hostAllocCapabilities));
    case UR_DEVICE_INFO_USM_DEVICE_SUPPORT:
        return urc_info_u32(&out, usm_query(dev, URC_ASPECT_USM_DEVICE_ALLOCATIONS,
                                            dev->access.deviceAllocCapabilities));
    case UR_DEVICE_INFO_USM_SINGLE_SHARED_SUPPORT:
        return urc_info_u32(&out, usm_query(dev, URC_ASPECT_USM_SHARED_ALLOCATIONS,
                                            dev->access.sharedSingleDeviceAllocCapabilities));
    case UR_DEVICE_INFO_USM_CROSS_SHARED_SUPPORT:
        return urc_info_u32(&out, usm_query(dev, URC_ASPECT_USM_SHARED_ALLOCATIONS,
                                            dev->access.sharedCrossDeviceAllocCapabilities));
    case UR_DEVICE_INFO_USM_SYSTEM_SHARED_SUPPORT:
        return urc_info_u32(&out, usm_query(dev, URC_ASPECT_USM_SYSTEM_ALLOCATIONS,
                                            dev->access.sharedSystemAllocCapabilities));
    // Images: the driver's image properties (all 0 on a device without images).
    case UR_DEVICE_INFO_IMAGE_SUPPORT:
        return urc_info_bool(&out, dev->image.maxImageDims2D != 0);
    case UR_DEVICE_INFO_IMAGE2D_MAX_WIDTH:
    case UR_DEVICE_INFO_IMAGE2D_MAX_HEIGHT:
        return urc_info_size(&out, dev->image.maxImageDims2D);
    case UR_DEVICE_INFO_IMAGE3D_MAX_WIDTH:
    case UR_DEVICE_INFO_IMAGE3D_MAX_HEIGHT:
    case UR_DEVICE_INFO_IMAGE3D_MAX_DEPTH:
        return urc_info_size(&out, dev->image.maxImageDims3D);
    case UR_DEVICE_INFO_IMAGE_MAX_BUFFER_SIZE:
        return urc_info_size(&out, (size_t)dev->image.maxImageBufferSize);
    case UR_DEVICE_INFO_IMAGE_MAX_ARRAY_SIZE:
        return urc_info_size(&out, dev->image.maxImageArraySlices);
    case UR_DEVICE_INFO_MAX_READ_IMAGE_ARGS:
        return urc_info_u32(&out, dev->image.maxReadImageArgs);
    case UR_DEVICE_INFO_MAX_WRITE_IMAGE_ARGS:
        return urc_info_u32(&out, dev->image.maxWriteImageArgs);
    case UR_DEVICE_INFO_MAX_SAMPLERS:
        return urc_info_u32(&out, dev->image.maxSamplers);
    case UR_DEVICE_INFO_PARTITION_MAX_SUB_DEVICES:
        return urc_info_u32(&out, dev->nsub);
    case UR_DEVICE_INFO_SUPPORTED_PARTITIONS: {
        // SYCL wants an empty list for a device that cannot be split in two.
        ur_device_partition_t by = UR_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
        return urc_info_bytes(&out, &by, dev->nsub >= 2 ? sizeof by : 0);
    }
    case UR_DEVICE_INFO_PARTITION_TYPE: {
        if (dev->parent == NULL)
            return urc_info_bytes(&out, NULL, 0);
        ur_device_partition_property_t prop = {UR_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, {0}};
        prop.value.affinity_domain = UR_DEVICE_AFFINITY_DOMAIN_FLAG_NUMA;
        return urc_info_bytes(&out, &prop, sizeof prop);
    }
    case UR_DEVICE_INFO_COMPOSITE_DEVICE:
        return urc_info_ptr(&out, NULL);
    case UR_DEVICE_INFO_PCI_ADDRESS: {
        ze_pci_ext_properties_t pci = {.stype = ZE_STRUCTURE_TYPE_PCI_EXT_PROPERTIES};
        if (zeDevicePciGetPropertiesExt(dev->ze, &pci) != ZE_RESULT_SUCCESS)
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        char text[16];
        snprintf(text, sizeof text, "%04x:%02x:%02x.%01x", pci.address.domain & 0xffffu,
                 pci.address.bus & 0xffu, pci.address.device & 0xffu, pci.address.function & 0xfu);
        return urc_info_string(&out, text);
    }
    default: {
        // The answers every device of the adapter gives, and features no adapter has; last,
        // so the queries above take the switch's jump and only the rest scan the table.
        ur_result_t fixed;
        if (URC_DEVICE_INFO_FIXED(fixed_answers, propName, &out, &fixed))
            return fixed;
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
    }
}
