// SPDX-License-Identifier: MIT
// The simulated GPUs and their property queries. One by default; ZE_SIM_DEVICES (1 to 4) asks
// for more, for peer-access tests: devices 0 and 1 reach each other's memory, later ones none.
#include "ze_sim_internal.h"
#include "ze_sim_entry.h"

#include <stdio.h>
#include <string.h>

#define SIM_DEVICE_NAME    "urc simulated Level Zero GPU"
#define SIM_VENDOR_ID      0x8086u
#define SIM_DEVICE_ID      0x5a51u /* not a real Intel id, so no adapter quirk matches it */
#define SIM_CLOCK_MHZ      1600u
#define SIM_THREADS_PER_EU 8u
#define SIM_SIMD_WIDTH     8u
#define SIM_EUS_PER_SUB    8u
#define SIM_SUBS_PER_SLICE 8u
#define SIM_SLICES         1u

#define SIM_MAX_DEVICES 4u

static sim_device_t g_devices[SIM_MAX_DEVICES] = {
    {{SIM_MAGIC, SIM_KIND_DEVICE}},
    {{SIM_MAGIC, SIM_KIND_DEVICE}},
    {{SIM_MAGIC, SIM_KIND_DEVICE}},
    {{SIM_MAGIC, SIM_KIND_DEVICE}},
};

sim_device_t *sim_the_device(void) {
    return &g_devices[0];
}

static uint32_t device_count(void) {
    uint64_t n = sim_env_u64("ZE_SIM_DEVICES", 1);
    return n < 1 ? 1 : n > SIM_MAX_DEVICES ? SIM_MAX_DEVICES : (uint32_t)n;
}

static uint32_t device_index(ze_device_handle_t hDevice) {
    return (uint32_t)((sim_device_t *)hDevice - g_devices);
}

// Every query starts the same way: a valid device and a non-NULL output.
static ze_result_t check_device(ze_device_handle_t hDevice, const void *out) {
    ze_result_t r;
    if (!sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    return out ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_NULL_POINTER;
}

ze_result_t sim_device_get(ze_driver_handle_t hDriver, uint32_t *pCount,
                           ze_device_handle_t *phDevices) {
    ze_result_t r;
    if (!sim_obj(hDriver, SIM_KIND_DRIVER, &r))
        return r;
    if (!pCount)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    ze_device_handle_t all[SIM_MAX_DEVICES];
    for (uint32_t i = 0; i < SIM_MAX_DEVICES; ++i)
        all[i] = (ze_device_handle_t)&g_devices[i];
    sim_copy_out_count(pCount, phDevices, all, device_count(), sizeof(all[0]));
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_device_get_sub_devices(ze_device_handle_t hDevice, uint32_t *pCount,
                                       ze_device_handle_t *phSubdevices) {
    (void)phSubdevices;
    ze_result_t r = check_device(hDevice, pCount);
    if (r == ZE_RESULT_SUCCESS)
        *pCount = 0;
    return r;
}

// Shared with zesDeviceGetProperties, whose core member is this structure.
void sim_fill_device_properties(ze_device_properties_t *p) {
    p->type = ZE_DEVICE_TYPE_GPU;
    p->vendorId = SIM_VENDOR_ID;
    p->deviceId = SIM_DEVICE_ID;
    p->flags = 0;
    p->subdeviceId = 0;
    p->coreClockRate = SIM_CLOCK_MHZ;
    // Below the total, so that the relaxed-allocation-limits path can be exercised.
    p->maxMemAllocSize = SIM_MAX_ALLOC;
    p->maxHardwareContexts = 64;
    p->maxCommandQueuePriority = 0;
    // 64 EUs of 8 threads: small, but shaped like an Intel GPU for occupancy arithmetic.
    p->numThreadsPerEU = SIM_THREADS_PER_EU;
    p->physicalEUSimdWidth = SIM_SIMD_WIDTH;
    p->numEUsPerSubslice = SIM_EUS_PER_SUB;
    p->numSubslicesPerSlice = SIM_SUBS_PER_SLICE;
    p->numSlices = SIM_SLICES;
    // One tick is one nanosecond: the 1.0 structure reports ns per tick, 1.2 ticks per second.
    p->timerResolution = p->stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 ? 1000000000ull : 1;
    // Below 64 bits, so an adapter computing (1 << bits) - 1 stays within defined behaviour.
    p->timestampValidBits = SIM_TIMESTAMP_BITS;
    p->kernelTimestampValidBits = SIM_KERNEL_TS_BITS;
    static const uint8_t uuid[ZE_MAX_DEVICE_UUID_SIZE] = "urc-ze-sim-gpu1";
    memcpy(p->uuid.id, uuid, sizeof(uuid));
    snprintf(p->name, sizeof(p->name), "%s", SIM_DEVICE_NAME);
}

ze_result_t sim_device_get_properties(ze_device_handle_t hDevice, ze_device_properties_t *props) {
    ze_result_t r = check_device(hDevice, props);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    sim_fill_device_properties(props);
    props->uuid.id[ZE_MAX_DEVICE_UUID_SIZE - 1] = (uint8_t)device_index(hDevice); // distinct
    ze_eu_count_ext_t *eu = sim_find_ext(props->pNext, ZE_STRUCTURE_TYPE_EU_COUNT_EXT);
    if (eu)
        eu->numTotalEUs = SIM_EUS_PER_SUB * SIM_SUBS_PER_SLICE * SIM_SLICES;
    sim_mutable_device_properties(props->pNext);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_device_get_compute_properties(ze_device_handle_t hDevice,
                                              ze_device_compute_properties_t *props) {
    ze_result_t r = check_device(hDevice, props);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    props->maxTotalGroupSize = SIM_MAX_GROUP_SIZE;
    props->maxGroupSizeX = SIM_MAX_GROUP_SIZE;
    props->maxGroupSizeY = SIM_MAX_GROUP_SIZE;
    props->maxGroupSizeZ = SIM_MAX_GROUP_SIZE_Z;
    // Group counts are only recorded, so any 32-bit count is accepted.
    props->maxGroupCountX = UINT32_MAX;
    props->maxGroupCountY = UINT32_MAX;
    props->maxGroupCountZ = UINT32_MAX;
    props->maxSharedLocalMemory = 64u * 1024u;
    memset(props->subGroupSizes, 0, sizeof(props->subGroupSizes));
    props->numSubGroupSizes = 3;
    props->subGroupSizes[0] = 8;
    props->subGroupSizes[1] = 16;
    props->subGroupSizes[2] = SIM_MAX_SUBGROUP;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_device_get_module_properties(ze_device_handle_t hDevice,
                                             ze_device_module_properties_t *props) {
    ze_result_t r = check_device(hDevice, props);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    const ze_device_fp_flags_t common = ZE_DEVICE_FP_FLAG_DENORM | ZE_DEVICE_FP_FLAG_INF_NAN |
                                        ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST | ZE_DEVICE_FP_FLAG_FMA;
    const ze_device_fp_flags_t all_rounding =
        ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO | ZE_DEVICE_FP_FLAG_ROUND_TO_INF;
    props->spirvVersionSupported = SIM_SPIRV_VERSION_MAX;
    props->flags = ZE_DEVICE_MODULE_FLAG_FP16 | ZE_DEVICE_MODULE_FLAG_FP64 |
                   ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
    props->fp16flags = common;
    props->fp32flags = common | all_rounding | ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT;
    props->fp64flags = common | all_rounding;
    // Limits with no effect here, set to values typical of Intel GPUs.
    props->maxArgumentsSize = 2048;
    props->printfBufferSize = 4u * 1024u * 1024u;
    // The "native" format accepted here is ze_sim's container, named by this uuid (README).
    static const uint8_t native_id[ZE_MAX_NATIVE_KERNEL_UUID_SIZE] = "urc-ze-sim-nat1";
    memcpy(props->nativeKernelSupported.id, native_id, sizeof(native_id));

    ze_float_atomic_ext_properties_t *fa =
        sim_find_ext(props->pNext, ZE_STRUCTURE_TYPE_FLOAT_ATOMIC_EXT_PROPERTIES);
    if (fa) {
        const ze_device_fp_atomic_ext_flags_t ls = ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_LOAD_STORE |
                                                   ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_LOAD_STORE;
        const ze_device_fp_atomic_ext_flags_t add =
            ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_ADD | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_ADD;
        fa->fp16Flags = ls;
        fa->fp32Flags = ls | add;
        fa->fp64Flags = ls | add;
    }
    ze_scheduling_hint_exp_properties_t *sh =
        sim_find_ext(props->pNext, ZE_STRUCTURE_TYPE_SCHEDULING_HINT_EXP_PROPERTIES);
    if (sh)
        sh->schedulingHintFlags = ZE_SCHEDULING_HINT_EXP_FLAG_OLDEST_FIRST |
                                  ZE_SCHEDULING_HINT_EXP_FLAG_ROUND_ROBIN |
                                  ZE_SCHEDULING_HINT_EXP_FLAG_STALL_BASED_ROUND_ROBIN;
    return ZE_RESULT_SUCCESS;
}

ze_result_t
sim_device_get_command_queue_group_properties(ze_device_handle_t hDevice, uint32_t *pCount,
                                              ze_command_queue_group_properties_t *props) {
    ze_result_t r = check_device(hDevice, pCount);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    if (*pCount == 0 || !props) {
        *pCount = 1;
        return ZE_RESULT_SUCCESS;
    }
    *pCount = 1;
    props[0].flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
                     ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY |
                     ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COOPERATIVE_KERNELS;
    // One group serves compute and copy, so adapters find no separate copy engine.
    props[0].maxMemoryFillPatternSize = SIM_MAX_FILL_PATTERN;
    props[0].numQueues = SIM_NUM_QUEUES;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_device_get_memory_properties(ze_device_handle_t hDevice, uint32_t *pCount,
                                             ze_device_memory_properties_t *props) {
    ze_result_t r = check_device(hDevice, pCount);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    if (*pCount == 0 || !props) {
        *pCount = 1;
        return ZE_RESULT_SUCCESS;
    }
    *pCount = 1;
    props[0].flags = 0;
    props[0].maxClockRate = SIM_CLOCK_MHZ;
    props[0].maxBusWidth = 256;
    props[0].totalSize = SIM_TOTAL_MEMORY;
    snprintf(props[0].name, sizeof(props[0].name), "HBM");
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_device_get_memory_access_properties(ze_device_handle_t hDevice,
                                                    ze_device_memory_access_properties_t *props) {
    ze_result_t r = check_device(hDevice, props);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    const ze_memory_access_cap_flags_t full =
        ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC |
        ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT | ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC;
    props->hostAllocCapabilities = full;
    props->deviceAllocCapabilities =
        ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC;
    props->sharedSingleDeviceAllocCapabilities = full;
    // One device: nothing is shared across devices, and system (malloc) memory is not USM.
    props->sharedCrossDeviceAllocCapabilities = 0;
    props->sharedSystemAllocCapabilities = 0;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_device_get_cache_properties(ze_device_handle_t hDevice, uint32_t *pCount,
                                            ze_device_cache_properties_t *props) {
    ze_result_t r = check_device(hDevice, pCount);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    if (*pCount == 0 || !props) {
        *pCount = 1;
        return ZE_RESULT_SUCCESS;
    }
    *pCount = 1;
    props[0].flags = 0;
    props[0].cacheSize = 4u * 1024u * 1024u;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_device_get_image_properties(ze_device_handle_t hDevice,
                                            ze_device_image_properties_t *props) {
    ze_result_t r = check_device(hDevice, props);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    props->maxImageDims1D = SIM_MAX_IMAGE_2D;
    props->maxImageDims2D = SIM_MAX_IMAGE_2D;
    props->maxImageDims3D = SIM_MAX_IMAGE_3D;
    props->maxImageBufferSize = SIM_MAX_ALLOC;
    props->maxImageArraySlices = SIM_MAX_IMAGE_2D;
    props->maxSamplers = SIM_MAX_SAMPLERS;
    props->maxReadImageArgs = 128;
    props->maxWriteImageArgs = 128;
    return ZE_RESULT_SUCCESS;
}

ze_result_t
sim_device_get_external_memory_properties(ze_device_handle_t hDevice,
                                          ze_device_external_memory_properties_t *props) {
    ze_result_t r = check_device(hDevice, props);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    // mem_import.c maps opaque descriptors and DMA buffers into allocations and images;
    // mem_export.c makes device allocations exportable as either.
    props->memoryAllocationImportTypes =
        ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD | ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;
    props->memoryAllocationExportTypes = props->memoryAllocationImportTypes;
    props->imageImportTypes = props->memoryAllocationImportTypes;
    props->imageExportTypes = 0;
    return ZE_RESULT_SUCCESS;
}

int sim_device_peers(ze_device_handle_t hDevice, ze_device_handle_t hPeer) {
    uint32_t a = device_index(hDevice), b = device_index(hPeer);
    return a == b || (a < 2 && b < 2);
}

ze_result_t sim_device_get_p2p_properties(ze_device_handle_t hDevice, ze_device_handle_t hPeer,
                                          ze_device_p2p_properties_t *props) {
    ze_result_t r = check_device(hDevice, props);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    if (!sim_obj(hPeer, SIM_KIND_DEVICE, &r))
        return r;
    props->flags = sim_device_peers(hDevice, hPeer)
                       ? ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS | ZE_DEVICE_P2P_PROPERTY_FLAG_ATOMICS
                       : 0;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_device_can_access_peer(ze_device_handle_t hDevice, ze_device_handle_t hPeer,
                                       ze_bool_t *value) {
    ze_result_t r = check_device(hDevice, value);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    if (!sim_obj(hPeer, SIM_KIND_DEVICE, &r))
        return r;
    *value = sim_device_peers(hDevice, hPeer);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_device_get_status(ze_device_handle_t hDevice) {
    ze_result_t r;
    if (!sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    return sim_inject_take(ZE_SIM_FAIL_DEVICE_STATUS);
}

ze_result_t sim_device_get_global_timestamps(ze_device_handle_t hDevice, uint64_t *hostTimestamp,
                                             uint64_t *deviceTimestamp) {
    ze_result_t r = check_device(hDevice, hostTimestamp);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    if (!deviceTimestamp)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // Both come from one reading so they correlate exactly.
    uint64_t now = sim_now_ns();
    // The device clock is the host clock masked to timestampValidBits.
    *hostTimestamp = now;
    *deviceTimestamp = now & ((1ull << SIM_TIMESTAMP_BITS) - 1);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_device_pci_get_properties_ext(ze_device_handle_t hDevice,
                                              ze_pci_ext_properties_t *props) {
    ze_result_t r = check_device(hDevice, props);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    props->address.domain = 0;
    props->address.bus = 0x5a;
    props->address.device = 0;
    props->address.function = 0;
    props->maxSpeed.genVersion = 4;
    props->maxSpeed.width = 16;
    props->maxSpeed.maxBandwidth = 32ll * 1000 * 1000 * 1000;
    return ZE_RESULT_SUCCESS;
}
