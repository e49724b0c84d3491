// SPDX-License-Identifier: MIT
// A device's SYCL aspects, sub-group sizes and work-group limits from UR device queries
// (urc_caps_from_device in requirements.h). The aspect ← query mapping is DPC++'s
// (device_impl::has, 2025). Queries go through the handle's own table, so an adapter calls its
// own urDeviceGetInfo and nothing here touches a native API.
#include <stdlib.h>
#include <string.h>

#include "device/device_info.h"
#include "program/requirements.h"
#include "ur_ddi.h"

typedef struct query_t {
    ur_device_handle_t device;
    ur_pfnDeviceGetInfo_t get;
} query_t;

// A fixed-size value; false when the query fails (an unsupported query means "no").
static bool get_value(const query_t *q, ur_device_info_t what, void *value, size_t size) {
    memset(value, 0, size);
    return q->get(q->device, what, size, value, NULL) == UR_RESULT_SUCCESS;
}

static bool get_bool(const query_t *q, ur_device_info_t what) {
    ur_bool_t b = 0;
    return get_value(q, what, &b, sizeof(b)) && b;
}

static uint32_t get_flags(const query_t *q, ur_device_info_t what) {
    uint32_t flags = 0;
    get_value(q, what, &flags, sizeof(flags));
    return flags;
}

// DPC++'s has_info_desc: the query is answered at all.
static bool answers(const query_t *q, ur_device_info_t what) {
    size_t size = 0;
    return q->get(q->device, what, 0, NULL, &size) == UR_RESULT_SUCCESS && size > 0;
}

// A variable-size value in a fresh allocation (NUL-terminated for strings), or NULL.
static void *get_array(const query_t *q, ur_device_info_t what, size_t *size) {
    *size = 0;
    if (q->get(q->device, what, 0, NULL, size) != UR_RESULT_SUCCESS || *size == 0)
        return NULL;
    char *buf = calloc(1, *size + 1);
    if (buf != NULL && q->get(q->device, what, *size, buf, NULL) != UR_RESULT_SUCCESS) {
        free(buf);
        buf = NULL;
    }
    return buf;
}

static ur_backend_t backend_of(const query_t *q) {
    ur_platform_handle_t platform = NULL;
    ur_backend_t backend = UR_BACKEND_UNKNOWN;
    if (!get_value(q, UR_DEVICE_INFO_PLATFORM, &platform, sizeof(platform)) || platform == NULL)
        return UR_BACKEND_UNKNOWN;
    const ur_dditable_t *ddi = *(const ur_dditable_t *const *)platform;
    if (ddi == NULL || ddi->Platform.pfnGetInfo == NULL ||
        ddi->Platform.pfnGetInfo(platform, UR_PLATFORM_INFO_BACKEND, sizeof(backend), &backend,
                                 NULL) != UR_RESULT_SUCCESS)
        return UR_BACKEND_UNKNOWN;
    return backend;
}

static void add_if(urc_device_caps_t *caps, uint32_t aspect, bool present) {
    if (present)
        urc_caps_add_aspect(caps, aspect);
}

static void query_limits(const query_t *q, urc_device_caps_t *caps) {
    size_t size;
    uint32_t *sgs = get_array(q, UR_DEVICE_INFO_SUB_GROUP_SIZES_INTEL, &size);
    size_t room = sizeof(caps->sub_group_sizes) / sizeof(caps->sub_group_sizes[0]);
    for (size_t i = 0; sgs != NULL && i < size / sizeof(uint32_t) && i < room; ++i)
        caps->sub_group_sizes[caps->num_sub_group_sizes++] = sgs[i];
    free(sgs);
    get_value(q, UR_DEVICE_INFO_MAX_WORK_GROUP_SIZE, &caps->max_work_group_size,
              sizeof(caps->max_work_group_size));
    size_t *items = get_array(q, UR_DEVICE_INFO_MAX_WORK_ITEM_SIZES, &size);
    for (size_t i = 0; items != NULL && i < size / sizeof(size_t) && i < 3; ++i)
        caps->max_work_item_sizes[i] = items[i];
    free(items);
}

static void query_usm(const query_t *q, urc_device_caps_t *caps) {
    const uint32_t access = UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ACCESS;
    const uint32_t atomic = UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ATOMIC_CONCURRENT_ACCESS;
    uint32_t host = get_flags(q, UR_DEVICE_INFO_USM_HOST_SUPPORT);
    uint32_t shared = get_flags(q, UR_DEVICE_INFO_USM_SINGLE_SHARED_SUPPORT);
    add_if(caps, URC_ASPECT_USM_DEVICE_ALLOCATIONS,
           (get_flags(q, UR_DEVICE_INFO_USM_DEVICE_SUPPORT) & access) != 0);
    add_if(caps, URC_ASPECT_USM_HOST_ALLOCATIONS, (host & access) != 0);
    add_if(caps, URC_ASPECT_USM_SHARED_ALLOCATIONS, (shared & access) != 0);
    add_if(caps, URC_ASPECT_USM_SYSTEM_ALLOCATIONS,
           (get_flags(q, UR_DEVICE_INFO_USM_SYSTEM_SHARED_SUPPORT) & access) != 0);
    add_if(caps, URC_ASPECT_USM_ATOMIC_HOST_ALLOCATIONS, (host & atomic) != 0);
    add_if(caps, URC_ASPECT_USM_ATOMIC_SHARED_ALLOCATIONS, (shared & atomic) != 0);
}

// Aspects that are one boolean query each.
static const struct {
    uint32_t aspect;
    ur_device_info_t query;
} bool_aspects[] = {
    {URC_ASPECT_ATOMIC64, UR_DEVICE_INFO_ATOMIC_64},
    {URC_ASPECT_IMAGE, UR_DEVICE_INFO_IMAGE_SUPPORT},
    {41 /* ext_intel_legacy_image */, UR_DEVICE_INFO_IMAGE_SUPPORT},
    {URC_ASPECT_ONLINE_COMPILER, UR_DEVICE_INFO_COMPILER_AVAILABLE},
    {URC_ASPECT_ONLINE_LINKER, UR_DEVICE_INFO_LINKER_AVAILABLE},
    {30 /* ext_oneapi_srgb */, UR_DEVICE_INFO_IMAGE_SRGB},
    {URC_ASPECT_EXT_ONEAPI_NATIVE_ASSERT, UR_DEVICE_INFO_USE_NATIVE_ASSERT},
    {34 /* ext_oneapi_cuda_async_barrier */, UR_DEVICE_INFO_ASYNC_BARRIER},
    {42 /* ext_oneapi_bindless_images */, UR_DEVICE_INFO_BINDLESS_IMAGES_SUPPORT_EXP},
    {53 /* ext_intel_esimd */, UR_DEVICE_INFO_ESIMD_SUPPORT},
    {63 /* ext_oneapi_limited_graph */, UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP},
    {73 /* ext_oneapi_queue_profiling_tag */, UR_DEVICE_INFO_TIMESTAMP_RECORDING_SUPPORT_EXP},
    {74 /* ext_oneapi_virtual_mem */, UR_DEVICE_INFO_VIRTUAL_MEMORY_SUPPORT},
    {87 /* ext_oneapi_async_memory_alloc */, UR_DEVICE_INFO_ASYNC_USM_ALLOCATIONS_SUPPORT_EXP},
};

// Aspects present when the device answers an (optional) query at all.
static const struct {
    uint32_t aspect;
    ur_device_info_t query;
} answered_aspects[] = {
    {18, UR_DEVICE_INFO_PCI_ADDRESS},
    {19, UR_DEVICE_INFO_GPU_EU_COUNT},
    {20, UR_DEVICE_INFO_GPU_EU_SIMD_WIDTH},
    {21, UR_DEVICE_INFO_GPU_EU_SLICES},
    {22, UR_DEVICE_INFO_GPU_SUBSLICES_PER_SLICE},
    {23, UR_DEVICE_INFO_GPU_EU_COUNT_PER_SUBSLICE},
    {29, UR_DEVICE_INFO_UUID},
    {33, UR_DEVICE_INFO_GPU_HW_THREADS_PER_EU},
    {36, UR_DEVICE_INFO_GLOBAL_MEM_FREE},
    {37, UR_DEVICE_INFO_DEVICE_ID},
    {38, UR_DEVICE_INFO_MEMORY_CLOCK_RATE},
    {39, UR_DEVICE_INFO_MEMORY_BUS_WIDTH},
};

ur_result_t urc_caps_from_device(ur_device_handle_t device, urc_device_caps_t *caps,
                                 urc_logger_t *logger) {
    if (device == NULL || caps == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    memset(caps, 0, sizeof(*caps));
    const ur_dditable_t *ddi = *(const ur_dditable_t *const *)device;
    if (ddi == NULL || ddi->Device.pfnGetInfo == NULL)
        return UR_RESULT_ERROR_INVALID_DEVICE;
    query_t q = {device, ddi->Device.pfnGetInfo};

    ur_device_type_t type = 0;
    get_value(&q, UR_DEVICE_INFO_TYPE, &type, sizeof(type));
    bool cpu = type == UR_DEVICE_TYPE_CPU, gpu = type == UR_DEVICE_TYPE_GPU;
    bool accelerator = type == UR_DEVICE_TYPE_FPGA;
    add_if(caps, URC_ASPECT_CPU, cpu);
    add_if(caps, URC_ASPECT_GPU, gpu);
    add_if(caps, URC_ASPECT_ACCELERATOR, accelerator);
    add_if(caps, 62 /* ext_intel_fpga_task_sequence */, accelerator);

    // fp16 and fp64 follow the OpenCL extension names, as in DPC++ (every adapter lists them).
    size_t size;
    char *ext = get_array(&q, UR_DEVICE_INFO_EXTENSIONS, &size);
    add_if(caps, URC_ASPECT_FP16, urc_device_info_word_listed(ext, "cl_khr_fp16"));
    add_if(caps, URC_ASPECT_FP64, urc_device_info_word_listed(ext, "cl_khr_fp64"));
    add_if(caps, 7, urc_device_info_word_listed(ext, "cl_khr_int64_base_atomics"));
    add_if(caps, 8, urc_device_info_word_listed(ext, "cl_khr_int64_extended_atomics"));
    add_if(caps, 80 /* ext_oneapi_atomic16 */,
           urc_device_info_word_listed(ext, "cl_ext_float_atomics"));
    free(ext);

    add_if(caps, URC_ASPECT_QUEUE_PROFILING,
           (get_flags(&q, UR_DEVICE_INFO_QUEUE_PROPERTIES) & UR_QUEUE_FLAG_PROFILING_ENABLE) != 0);
    query_usm(&q, caps);
    for (size_t i = 0; i < sizeof(bool_aspects) / sizeof(bool_aspects[0]); ++i)
        add_if(caps, bool_aspects[i].aspect, get_bool(&q, bool_aspects[i].query));
    for (size_t i = 0; i < sizeof(answered_aspects) / sizeof(answered_aspects[0]); ++i)
        add_if(caps, answered_aspects[i].aspect, answers(&q, answered_aspects[i].query));
    ur_device_handle_t composite = NULL;
    add_if(caps, 60 /* ext_oneapi_is_component */,
           get_value(&q, UR_DEVICE_INFO_COMPOSITE_DEVICE, &composite, sizeof(composite)) &&
               composite != NULL);

    // Aspects DPC++ derives from the backend alone.
    ur_backend_t be = backend_of(&q);
    bool spirv = be == UR_BACKEND_LEVEL_ZERO || be == UR_BACKEND_OPENCL;
    add_if(caps, 54 /* ext_oneapi_ballot_group */, spirv || be == UR_BACKEND_CUDA);
    add_if(caps, 55 /* ext_oneapi_fixed_size_group */, spirv || be == UR_BACKEND_CUDA);
    add_if(caps, 56 /* ext_oneapi_opportunistic_group */, spirv || be == UR_BACKEND_CUDA);
    add_if(caps, 57 /* ext_oneapi_tangle_group */, spirv);
    add_if(caps, 64 /* ext_oneapi_private_alloca */, spirv);
    add_if(caps, URC_ASPECT_EXT_ONEAPI_VIRTUAL_FUNCTIONS, spirv && (cpu || gpu));
    add_if(caps, 82 /* ext_intel_spill_memory_size */, gpu && be == UR_BACKEND_LEVEL_ZERO);

    query_limits(&q, caps);
    urc_caps_apply_mask(caps, logger);
    return UR_RESULT_SUCCESS;
}
