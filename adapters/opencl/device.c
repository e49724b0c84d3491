// SPDX-License-Identifier: MIT
// Devices: what each one offers (decided once, at discovery), every urDeviceGetInfo query,
// partitioning, native handles, binary selection and timestamps.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ocl_internal.h"
#include "core/release.h"
#include "core/flags.h"

#ifndef CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR // cl_khr_kernel_clock, newer than our headers
#define CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR     0x1076
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR     (1 << 0)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR (1 << 1)
#define CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR  (1 << 2)
#endif

#define NATIVE_ASSERT_EXTENSION "cl_intel_devicelib_assert"

static char *device_string(cl_device_id d, cl_device_info param) {
    size_t size = 0;
    if (clGetDeviceInfo(d, param, 0, NULL, &size) != CL_SUCCESS)
        return NULL;
    char *s = malloc(size + 1);
    if (s != NULL && clGetDeviceInfo(d, param, size, s, NULL) != CL_SUCCESS)
        URC_FREE(s);
    if (s != NULL)
        s[size] = '\0';
    return s;
}

static bool has_ext(ur_device_handle_t d, const char *name) {
    return urc_device_info_word_listed(d->extensions, name);
}

/// The one decision whether the device asserts natively (seeds 000/001). Both
/// UR_DEVICE_INFO_USE_NATIVE_ASSERT and the extension list reported by
/// UR_DEVICE_INFO_EXTENSIONS follow it, so SYCL's two ways of asking always agree, and the
/// adapter runs its fallback checks (assert.c) exactly on the devices it says "no" for.
/// URC_OPENCL_FORCE_FALLBACK_ASSERT makes it say "no" everywhere, so the fallback can be
/// tested on a runtime that takes SPIR-V (PoCL, the one without the extension, takes none).
static bool decide_native_assert(const char *cl_extensions) {
    return urc_device_info_word_listed(cl_extensions, NATIVE_ASSERT_EXTENSION) &&
           !urc_env_bool(URC_ENV_OPENCL_FORCE_FALLBACK_ASSERT, false);
}

/// The reported extension list: OpenCL's, with cl_intel_devicelib_assert present exactly
/// when decide_native_assert() says so.
static char *compose_extensions(const char *cl_extensions, bool native_assert) {
    size_t n = strlen(cl_extensions);
    char *out = malloc(n + sizeof NATIVE_ASSERT_EXTENSION + 2);
    if (out == NULL)
        return NULL;
    size_t len = 0;
    for (const char *p = cl_extensions; *p != '\0';) {
        while (*p == ' ')
            ++p;
        const char *end = p;
        while (*end != '\0' && *end != ' ')
            ++end;
        size_t w = (size_t)(end - p);
        bool is_assert =
            w == strlen(NATIVE_ASSERT_EXTENSION) && memcmp(p, NATIVE_ASSERT_EXTENSION, w) == 0;
        if (w > 0 && !is_assert) {
            if (len > 0)
                out[len++] = ' ';
            memcpy(out + len, p, w);
            len += w;
        }
        p = end;
    }
    if (native_assert) {
        if (len > 0)
            out[len++] = ' ';
        memcpy(out + len, NATIVE_ASSERT_EXTENSION, strlen(NATIVE_ASSERT_EXTENSION));
        len += strlen(NATIVE_ASSERT_EXTENSION);
    }
    out[len] = '\0';
    return out;
}

// Live sub-devices, so that wrapping a native sub-device twice gives the same handle (UR's
// identity rule; root devices live in their platform). Not a hot path: one list, one lock.
static pthread_mutex_t subs_lock = PTHREAD_MUTEX_INITIALIZER;
static ur_device_handle_t subs;
// Serialises urDeviceCreateWithNativeHandle's look-up and wrap of one native sub-device.
static pthread_mutex_t wrap_lock = PTHREAD_MUTEX_INITIALIZER;

static void sub_register(ur_device_handle_t d) {
    pthread_mutex_lock(&subs_lock);
    d->next_sub = subs;
    subs = d;
    pthread_mutex_unlock(&subs_lock);
}

static void sub_unregister(ur_device_handle_t d) {
    pthread_mutex_lock(&subs_lock);
    for (ur_device_handle_t *at = &subs; *at != NULL; at = &(*at)->next_sub) {
        if (*at == d) {
            *at = d->next_sub;
            break;
        }
    }
    pthread_mutex_unlock(&subs_lock);
}

// The live sub-device wrapping `cl`, with a new reference, or NULL.
static ur_device_handle_t sub_find(cl_device_id cl) {
    ur_device_handle_t found = NULL;
    pthread_mutex_lock(&subs_lock);
    for (ur_device_handle_t d = subs; d != NULL && found == NULL; d = d->next_sub)
        if (d->cl == cl && urc_retain_unless_zero(&d->obj))
            found = d;
    pthread_mutex_unlock(&subs_lock);
    return found;
}

ur_result_t ocl_device_create(ur_platform_handle_t platform, cl_device_id cl,
                              ur_device_handle_t parent, ur_device_handle_t *out) {
    ur_device_handle_t d = URC_NEW(struct ur_device_handle_t_);
    if (d == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    urc_object_init(&d->obj, &ocl_ddi, URC_KIND_DEVICE);
    d->cl = cl;
    d->platform = platform;
    d->parent = parent;
    cl_int err = clGetDeviceInfo(cl, CL_DEVICE_TYPE, sizeof d->type, &d->type, NULL);
    char *version = device_string(cl, CL_DEVICE_VERSION);
    char *cl_ext = device_string(cl, CL_DEVICE_EXTENSIONS);
    unsigned major = 0, minor = 0;
    if (version != NULL && sscanf(version, "OpenCL %u.%u", &major, &minor) == 2)
        d->version = major * 10 + (minor > 9 ? 9 : minor);
    free(version);
    if (err != CL_SUCCESS || cl_ext == NULL) {
        free(cl_ext);
        free(d);
        return ocl_fail(err != CL_SUCCESS ? err : CL_OUT_OF_HOST_MEMORY, "clGetDeviceInfo");
    }
    d->native_assert = decide_native_assert(cl_ext);
    // PoCL 3.1 reports OpenCL 3.0 but no IL version and rejects clCreateProgramWithIL.
    char *il_version = device_string(cl, CL_DEVICE_IL_VERSION);
    d->il = (d->version >= 21 || urc_device_info_word_listed(cl_ext, "cl_khr_il_program")) &&
            il_version != NULL && il_version[0] != '\0';
    free(il_version);
    d->extensions = compose_extensions(cl_ext, d->native_assert);
    const ocl_ext_t *e = &platform->ext;
    d->usm = urc_device_info_word_listed(cl_ext, "cl_intel_unified_shared_memory") &&
             e->host_mem_alloc != NULL && e->device_mem_alloc != NULL &&
             e->shared_mem_alloc != NULL && e->mem_blocking_free != NULL &&
             e->get_mem_alloc_info != NULL && e->enqueue_memcpy != NULL &&
             e->enqueue_mem_fill != NULL && e->set_kernel_arg_mem_pointer != NULL;
    d->global_variables = e->get_global_variable_pointer != NULL &&
                          e->enqueue_read_global_variable != NULL &&
                          e->enqueue_write_global_variable != NULL;
    ocl_cb_detect(d, cl_ext);
    free(cl_ext);
    if (d->extensions == NULL) {
        free(d);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    atomic_init(&d->caps, NULL);
    urc_queue_registry_init(&d->queues);
    if (parent != NULL) {
        ocl_device_retain_internal(parent);
        sub_register(d);
    }
    *out = d;
    return UR_RESULT_SUCCESS;
}

void ocl_device_destroy(ur_device_handle_t d) {
    if (d->parent != NULL) {
        sub_unregister(d);
        clReleaseDevice(d->cl);
        ocl_device_release_internal(d->parent);
    }
    urc_queue_registry_fini(&d->queues);
    free(atomic_load(&d->caps));
    free(d->extensions);
    URC_OBJECT_FREE(d);
}

void ocl_device_retain_internal(ur_device_handle_t d) {
    if (d->parent != NULL)
        urc_hold(&d->obj);
}

void ocl_device_release_internal(ur_device_handle_t d) {
    if (d->parent != NULL && urc_unhold(&d->obj))
        ocl_device_destroy(d);
}

ur_result_t ocl_device_caps(ur_device_handle_t d, const urc_device_caps_t **out) {
    urc_device_caps_t *caps = atomic_load_explicit(&d->caps, memory_order_acquire);
    if (caps != NULL) {
        *out = caps;
        return UR_RESULT_SUCCESS;
    }
    // About 40 queries; threads racing here each compute them and the first one is kept.
    caps = URC_NEW(urc_device_caps_t);
    if (caps == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ur_result_t result = urc_caps_from_device(d, caps, ocl_log());
    if (result != UR_RESULT_SUCCESS) {
        free(caps);
        return result;
    }
    urc_device_caps_t *expected = NULL;
    if (!atomic_compare_exchange_strong_explicit(&d->caps, &expected, caps, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        free(caps);
        caps = expected;
    }
    *out = caps;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_device_get(ur_platform_handle_t hPlatform, ur_device_type_t DeviceType,
                           uint32_t NumEntries, ur_device_handle_t *phDevices,
                           uint32_t *pNumDevices) {
    cl_device_type want;
    switch (DeviceType) {
    case UR_DEVICE_TYPE_ALL:
    case UR_DEVICE_TYPE_DEFAULT:
        want = CL_DEVICE_TYPE_ALL;
        break;
    case UR_DEVICE_TYPE_GPU:
        want = CL_DEVICE_TYPE_GPU;
        break;
    case UR_DEVICE_TYPE_CPU:
        want = CL_DEVICE_TYPE_CPU;
        break;
    case UR_DEVICE_TYPE_FPGA:
    case UR_DEVICE_TYPE_MCA:
    case UR_DEVICE_TYPE_VPU:
        want = CL_DEVICE_TYPE_ACCELERATOR;
        break;
    case UR_DEVICE_TYPE_CUSTOM:
        want = CL_DEVICE_TYPE_CUSTOM;
        break;
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < hPlatform->num_devices; ++i) {
        ur_device_handle_t d = hPlatform->devices[i];
        if ((d->type & want) == 0)
            continue;
        if (phDevices != NULL && n < NumEntries)
            phDevices[n] = d;
        ++n;
        // DEFAULT is the platform's first device.
        if (DeviceType == UR_DEVICE_TYPE_DEFAULT)
            break;
    }
    if (pNumDevices != NULL)
        *pNumDevices = n;
    return UR_RESULT_SUCCESS;
}

// ---- reading OpenCL values -------------------------------------------------------------------

static ur_result_t cl_fixed(ur_device_handle_t d, cl_device_info p, void *v, size_t n) {
    cl_int err = clGetDeviceInfo(d->cl, p, n, v, NULL);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clGetDeviceInfo");
    return UR_RESULT_SUCCESS;
}

static ur_result_t put_cl_u32(const urc_info_t *out, ur_device_handle_t d, cl_device_info p) {
    cl_uint v = 0;
    OCL_TRY_UR(cl_fixed(d, p, &v, sizeof v));
    return urc_info_u32(out, v);
}

static ur_result_t put_cl_u64(const urc_info_t *out, ur_device_handle_t d, cl_device_info p) {
    cl_ulong v = 0;
    OCL_TRY_UR(cl_fixed(d, p, &v, sizeof v));
    return urc_info_u64(out, v);
}

static ur_result_t put_cl_size(const urc_info_t *out, ur_device_handle_t d, cl_device_info p) {
    size_t v = 0;
    OCL_TRY_UR(cl_fixed(d, p, &v, sizeof v));
    return urc_info_size(out, v);
}

// cl_bool is 4 bytes, ur_bool_t 1: every boolean is converted, never passed through.
static ur_result_t put_cl_bool(const urc_info_t *out, ur_device_handle_t d, cl_device_info p) {
    cl_bool v = CL_FALSE;
    OCL_TRY_UR(cl_fixed(d, p, &v, sizeof v));
    return urc_info_bool(out, v != CL_FALSE);
}

/// A cl_bitfield whose bits equal the UR flags' bits, narrowed to UR's 32-bit flags.
static ur_result_t put_cl_flags(const urc_info_t *out, ur_device_handle_t d, cl_device_info p) {
    cl_bitfield v = 0;
    OCL_TRY_UR(cl_fixed(d, p, &v, sizeof v));
    return urc_info_u32(out, (uint32_t)v);
}

static ur_result_t put_cl_string(const urc_info_t *out, ur_device_handle_t d, cl_device_info p) {
    char *s = device_string(d->cl, p);
    if (s == NULL)
        return ocl_fail(CL_INVALID_VALUE, "clGetDeviceInfo");
    ur_result_t result = urc_info_string(out, s);
    free(s);
    return result;
}

/// Reads a variable-size OpenCL value into a new buffer; *n gets its size in bytes.
static ur_result_t cl_array(ur_device_handle_t d, cl_device_info p, void **v, size_t *n) {
    *v = NULL;
    OCL_TRY("clGetDeviceInfo", clGetDeviceInfo(d->cl, p, 0, NULL, n));
    *v = malloc(*n ? *n : 1);
    if (*v == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    cl_int err = clGetDeviceInfo(d->cl, p, *n, *v, NULL);
    if (err != CL_SUCCESS) {
        URC_FREE(*v);
        return ocl_fail(err, "clGetDeviceInfo");
    }
    return UR_RESULT_SUCCESS;
}

static const urc_flag_pair_t fp_flags_pairs[] = {
    {CL_FP_DENORM, UR_DEVICE_FP_CAPABILITY_FLAG_DENORM},
    {CL_FP_INF_NAN, UR_DEVICE_FP_CAPABILITY_FLAG_INF_NAN},
    {CL_FP_ROUND_TO_NEAREST, UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_NEAREST},
    {CL_FP_ROUND_TO_ZERO, UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_ZERO},
    {CL_FP_ROUND_TO_INF, UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_INF},
    {CL_FP_FMA, UR_DEVICE_FP_CAPABILITY_FLAG_FMA},
    {CL_FP_SOFT_FLOAT, UR_DEVICE_FP_CAPABILITY_FLAG_SOFT_FLOAT},
    {CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT,
     UR_DEVICE_FP_CAPABILITY_FLAG_CORRECTLY_ROUNDED_DIVIDE_SQRT},
};

static ur_device_fp_capability_flags_t fp_flags(cl_device_fp_config c) {
    return (ur_device_fp_capability_flags_t)URC_FLAGS_MAP(c, fp_flags_pairs);
}

static ur_result_t put_fp_config(const urc_info_t *out, ur_device_handle_t d, cl_device_info p,
                                 const char *needs) {
    cl_device_fp_config c = 0;
    // Without the extension the query is not defined; report "no capabilities".
    if (needs == NULL || has_ext(d, needs))
        OCL_TRY_UR(cl_fixed(d, p, &c, sizeof c));
    return urc_info_u32(out, fp_flags(c));
}

static ur_queue_flags_t queue_flags_of(cl_command_queue_properties p) {
    ur_queue_flags_t f = 0;
    if (p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        f |= UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    if (p & CL_QUEUE_PROFILING_ENABLE)
        f |= UR_QUEUE_FLAG_PROFILING_ENABLE;
    if (p & CL_QUEUE_ON_DEVICE)
        f |= UR_QUEUE_FLAG_ON_DEVICE;
    if (p & CL_QUEUE_ON_DEVICE_DEFAULT)
        f |= UR_QUEUE_FLAG_ON_DEVICE_DEFAULT;
    return f;
}

static ur_result_t put_queue_flags(const urc_info_t *out, ur_device_handle_t d, cl_device_info p) {
    cl_command_queue_properties v = 0;
    OCL_TRY_UR(cl_fixed(d, p, &v, sizeof v));
    return urc_info_u32(out, queue_flags_of(v));
}

static ur_result_t put_atomic_caps(const urc_info_t *out, ur_device_handle_t d,
                                   ur_device_info_t what) {
    // OpenCL 3.0 reports atomic capabilities; older versions imply the mandated minimums.
    bool memory = what == UR_DEVICE_INFO_ATOMIC_MEMORY_ORDER_CAPABILITIES ||
                  what == UR_DEVICE_INFO_ATOMIC_MEMORY_SCOPE_CAPABILITIES;
    bool order = what == UR_DEVICE_INFO_ATOMIC_MEMORY_ORDER_CAPABILITIES ||
                 what == UR_DEVICE_INFO_ATOMIC_FENCE_ORDER_CAPABILITIES;
    cl_device_atomic_capabilities c = 0;
    if (d->version >= 30)
        OCL_TRY_UR(cl_fixed(
            d, memory ? CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES : CL_DEVICE_ATOMIC_FENCE_CAPABILITIES,
            &c, sizeof c));
    else if (d->version >= 20)
        c = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
            CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
            CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
    else
        c = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
            (memory ? 0 : CL_DEVICE_ATOMIC_ORDER_ACQ_REL);
    uint32_t f = 0;
    if (order) {
        // Orders are hierarchical: ACQ_REL implies ACQUIRE and RELEASE; fences always
        // offer at least RELAXED and ACQ_REL (SYCL 2020 4.6.3.2).
        f = UR_MEMORY_ORDER_CAPABILITY_FLAG_RELAXED;
        if (!memory)
            c |= CL_DEVICE_ATOMIC_ORDER_ACQ_REL;
        if (c & (CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_ORDER_SEQ_CST))
            f |= UR_MEMORY_ORDER_CAPABILITY_FLAG_ACQUIRE | UR_MEMORY_ORDER_CAPABILITY_FLAG_RELEASE |
                 UR_MEMORY_ORDER_CAPABILITY_FLAG_ACQ_REL;
        if (c & CL_DEVICE_ATOMIC_ORDER_SEQ_CST)
            f |= UR_MEMORY_ORDER_CAPABILITY_FLAG_SEQ_CST;
    } else {
        // Scopes are hierarchical too; WORK_ITEM, SUB_GROUP and WORK_GROUP are mandated.
        f = UR_MEMORY_SCOPE_CAPABILITY_FLAG_WORK_ITEM | UR_MEMORY_SCOPE_CAPABILITY_FLAG_SUB_GROUP |
            UR_MEMORY_SCOPE_CAPABILITY_FLAG_WORK_GROUP;
        if (c & CL_DEVICE_ATOMIC_SCOPE_DEVICE)
            f |= UR_MEMORY_SCOPE_CAPABILITY_FLAG_DEVICE;
        if (c & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES)
            f |= UR_MEMORY_SCOPE_CAPABILITY_FLAG_SYSTEM;
    }
    return urc_info_u32(out, f);
}

static ur_result_t put_partitions(const urc_info_t *out, ur_device_handle_t d) {
    void *raw = NULL;
    size_t bytes = 0;
    OCL_TRY_UR(cl_array(d, CL_DEVICE_PARTITION_PROPERTIES, &raw, &bytes));
    const cl_device_partition_property *cl = raw;
    size_t n = bytes / sizeof *cl;
    ur_device_partition_t list[8];
    size_t count = 0;
    // OpenCL lists a single 0 when the device cannot be partitioned: an empty UR list.
    for (size_t i = 0; i < n && count < 8; ++i) {
        if (cl[i] == CL_DEVICE_PARTITION_EQUALLY || cl[i] == CL_DEVICE_PARTITION_BY_COUNTS ||
            cl[i] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN)
            list[count++] = (ur_device_partition_t)cl[i];
    }
    free(raw);
    return urc_info_bytes(out, list, count * sizeof list[0]);
}

static ur_result_t put_partition_type(const urc_info_t *out, ur_device_handle_t d) {
    void *raw = NULL;
    size_t bytes = 0;
    OCL_TRY_UR(cl_array(d, CL_DEVICE_PARTITION_TYPE, &raw, &bytes));
    const cl_device_partition_property *cl = raw;
    size_t n = bytes / sizeof *cl;
    // A root device reports nothing or a lone 0; a sub-device its type and values, 0-ended.
    size_t values = 0;
    while (n > 1 && 1 + values < n && cl[1 + values] != 0)
        ++values;
    if (n <= 1 || cl[0] == 0) {
        free(raw);
        return urc_info_bytes(out, NULL, 0);
    }
    // By counts, OpenCL's list ends with CL_DEVICE_PARTITION_BY_COUNTS_LIST_END (0) before the
    // property list's own 0; that end marker is part of the answer, as {BY_COUNTS, 0} (UR's
    // OpenCL adapter returns it, and SYCL reads the counts up to it).
    size_t entries = values;
    if (cl[0] == CL_DEVICE_PARTITION_BY_COUNTS && 1 + values < n)
        ++entries;
    ur_device_partition_property_t *list = urc_calloc(entries ? entries : 1, sizeof *list);
    if (list == NULL) {
        free(raw);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (size_t i = 0; i < values; ++i) {
        list[i].type = (ur_device_partition_t)cl[0];
        switch (cl[0]) {
        case CL_DEVICE_PARTITION_EQUALLY:
            list[i].value.equally = (uint32_t)cl[i + 1];
            break;
        case CL_DEVICE_PARTITION_BY_COUNTS:
            list[i].value.count = (uint32_t)cl[i + 1];
            break;
        default:
            list[i].value.affinity_domain = (uint32_t)cl[i + 1];
            break;
        }
    }
    if (entries > values) {
        list[values].type = UR_DEVICE_PARTITION_BY_COUNTS;
        list[values].value.count = 0;
    }
    ur_result_t result = urc_info_bytes(out, list, entries * sizeof *list);
    free(list);
    free(raw);
    return result;
}

static ur_result_t put_sub_group_sizes(const urc_info_t *out, ur_device_handle_t d) {
    if (!has_ext(d, "cl_intel_required_subgroup_size")) {
        // No sub-groups: each work-item is its own sub-group of size 1.
        uint32_t one = 1;
        return urc_info_bytes(out, &one, sizeof one);
    }
    void *raw = NULL;
    size_t bytes = 0;
    OCL_TRY_UR(cl_array(d, CL_DEVICE_SUB_GROUP_SIZES_INTEL, &raw, &bytes));
    const size_t *sizes = raw;
    size_t n = bytes / sizeof *sizes;
    uint32_t *list = urc_calloc(n ? n : 1, sizeof *list);
    if (list == NULL) {
        free(raw);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (size_t i = 0; i < n; ++i)
        list[i] = (uint32_t)sizes[i];
    ur_result_t result = urc_info_bytes(out, list, n * sizeof *list);
    free(list);
    free(raw);
    return result;
}

static ur_result_t put_usm_caps(const urc_info_t *out, ur_device_handle_t d, cl_device_info p) {
    if (!d->usm)
        return urc_info_u32(out, 0);
    // CL_UNIFIED_SHARED_MEMORY_*_INTEL bits equal UR's USM access capability bits.
    return put_cl_flags(out, d, p);
}

/// Queries that cl_intel_device_attribute_query answers, on Intel GPUs only.
// cl_intel_device_attribute_query's counts. As in UR's adapter, only the EU count asks for a
// GPU (it is CL_DEVICE_MAX_COMPUTE_UNITS, which means EUs only there); slices, sub-slices, EUs
// per sub-slice and threads per EU are answered by any device with the extension (Intel's CPU
// runtime has it).
static ur_result_t put_intel_u32(const urc_info_t *out, ur_device_handle_t d, cl_device_info p,
                                 bool gpu_only) {
    if ((gpu_only && !(d->type & CL_DEVICE_TYPE_GPU)) ||
        !has_ext(d, "cl_intel_device_attribute_query"))
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    return put_cl_u32(out, d, p);
}

static ur_result_t put_clock_support(const urc_info_t *out, ur_device_handle_t d,
                                     cl_bitfield scope) {
    cl_bitfield caps = 0;
    if (has_ext(d, "cl_khr_kernel_clock"))
        OCL_TRY_UR(cl_fixed(d, CL_DEVICE_KERNEL_CLOCK_CAPABILITIES_KHR, &caps, sizeof caps));
    return urc_info_bool(out, (caps & scope) != 0);
}

ur_result_t ocl_device_get_info(ur_device_handle_t hDevice, ur_device_info_t propName,
                                size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    ur_device_handle_t d = hDevice;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_DEVICE_INFO_TYPE: {
        // OpenCL types are a bit set; UR has one type, and FPGA stands for any accelerator.
        ur_device_type_t t = UR_DEVICE_TYPE_DEFAULT;
        if (d->type & CL_DEVICE_TYPE_CPU)
            t = UR_DEVICE_TYPE_CPU;
        else if (d->type & CL_DEVICE_TYPE_GPU)
            t = UR_DEVICE_TYPE_GPU;
        else if (d->type & CL_DEVICE_TYPE_ACCELERATOR)
            t = UR_DEVICE_TYPE_FPGA;
        else if (d->type & CL_DEVICE_TYPE_CUSTOM)
            t = UR_DEVICE_TYPE_CUSTOM;
        return urc_info_bytes(&out, &t, sizeof t);
    }
    case UR_DEVICE_INFO_VENDOR_ID:
        return put_cl_u32(&out, d, CL_DEVICE_VENDOR_ID);
    case UR_DEVICE_INFO_DEVICE_ID:
        if (!has_ext(d, "cl_intel_device_attribute_query"))
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        return put_cl_u32(&out, d, CL_DEVICE_ID_INTEL);
    case UR_DEVICE_INFO_MAX_COMPUTE_UNITS:
        return put_cl_u32(&out, d, CL_DEVICE_MAX_COMPUTE_UNITS);
    case UR_DEVICE_INFO_MAX_WORK_ITEM_DIMENSIONS:
        return put_cl_u32(&out, d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    case UR_DEVICE_INFO_MAX_WORK_ITEM_SIZES: {
        void *raw = NULL;
        size_t bytes = 0;
        OCL_TRY_UR(cl_array(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, &raw, &bytes));
        ur_result_t result = urc_info_bytes(&out, raw, bytes);
        free(raw);
        return result;
    }
    case UR_DEVICE_INFO_MAX_WORK_GROUP_SIZE:
        return put_cl_size(&out, d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    case UR_DEVICE_INFO_SINGLE_FP_CONFIG:
        return put_fp_config(&out, d, CL_DEVICE_SINGLE_FP_CONFIG, NULL);
    case UR_DEVICE_INFO_HALF_FP_CONFIG:
        return put_fp_config(&out, d, CL_DEVICE_HALF_FP_CONFIG, "cl_khr_fp16");
    case UR_DEVICE_INFO_DOUBLE_FP_CONFIG:
        return put_fp_config(&out, d, CL_DEVICE_DOUBLE_FP_CONFIG, "cl_khr_fp64");
    case UR_DEVICE_INFO_QUEUE_PROPERTIES:
    case UR_DEVICE_INFO_QUEUE_ON_HOST_PROPERTIES:
        return put_queue_flags(&out, d, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
    case UR_DEVICE_INFO_QUEUE_ON_DEVICE_PROPERTIES:
        if (d->version < 20)
            return urc_info_u32(&out, 0);
        return put_queue_flags(&out, d, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES);
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_CHAR:
        return put_cl_u32(&out, d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR);
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_SHORT:
        return put_cl_u32(&out, d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT);
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_INT:
        return put_cl_u32(&out, d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT);
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_LONG:
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_LONG_LONG:
        return put_cl_u32(&out, d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG);
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_FLOAT:
        return put_cl_u32(&out, d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT);
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_DOUBLE:
        return put_cl_u32(&out, d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE);
    case UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_HALF:
        return put_cl_u32(&out, d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF);
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_CHAR:
        return put_cl_u32(&out, d, CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR);
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_SHORT:
        return put_cl_u32(&out, d, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT);
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_INT:
        return put_cl_u32(&out, d, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT);
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_LONG:
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_LONG_LONG:
        return put_cl_u32(&out, d, CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG);
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_FLOAT:
        return put_cl_u32(&out, d, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT);
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_DOUBLE:
        return put_cl_u32(&out, d, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE);
    case UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_HALF:
        return put_cl_u32(&out, d, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF);
    case UR_DEVICE_INFO_MAX_CLOCK_FREQUENCY:
        return put_cl_u32(&out, d, CL_DEVICE_MAX_CLOCK_FREQUENCY);
    case UR_DEVICE_INFO_ADDRESS_BITS:
        return put_cl_u32(&out, d, CL_DEVICE_ADDRESS_BITS);
    case UR_DEVICE_INFO_MAX_MEM_ALLOC_SIZE:
        return put_cl_u64(&out, d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    case UR_DEVICE_INFO_IMAGE_SUPPORT: {
        cl_bool images = CL_FALSE;
        OCL_TRY_UR(cl_fixed(d, CL_DEVICE_IMAGE_SUPPORT, &images, sizeof images));
        return urc_info_bool(&out, images);
    }
    case UR_DEVICE_INFO_IMAGE_SRGB:
        // sRGB images are read by every OpenCL 2.0 device with images; writes need an extension.
        return urc_info_bool(
            &out, urc_device_info_word_listed(d->extensions, "cl_khr_srgb_image_writes"));
    case UR_DEVICE_INFO_MAX_READ_IMAGE_ARGS:
        return put_cl_u32(&out, d, CL_DEVICE_MAX_READ_IMAGE_ARGS);
    case UR_DEVICE_INFO_MAX_WRITE_IMAGE_ARGS:
        return put_cl_u32(&out, d, CL_DEVICE_MAX_WRITE_IMAGE_ARGS);
    case UR_DEVICE_INFO_MAX_READ_WRITE_IMAGE_ARGS:
        if (d->version < 20)
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        return put_cl_u32(&out, d, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS);
    case UR_DEVICE_INFO_IMAGE2D_MAX_WIDTH:
        return put_cl_size(&out, d, CL_DEVICE_IMAGE2D_MAX_WIDTH);
    case UR_DEVICE_INFO_IMAGE2D_MAX_HEIGHT:
        return put_cl_size(&out, d, CL_DEVICE_IMAGE2D_MAX_HEIGHT);
    case UR_DEVICE_INFO_IMAGE3D_MAX_WIDTH:
        return put_cl_size(&out, d, CL_DEVICE_IMAGE3D_MAX_WIDTH);
    case UR_DEVICE_INFO_IMAGE3D_MAX_HEIGHT:
        return put_cl_size(&out, d, CL_DEVICE_IMAGE3D_MAX_HEIGHT);
    case UR_DEVICE_INFO_IMAGE3D_MAX_DEPTH:
        return put_cl_size(&out, d, CL_DEVICE_IMAGE3D_MAX_DEPTH);
    case UR_DEVICE_INFO_IMAGE_MAX_BUFFER_SIZE:
        return put_cl_size(&out, d, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE);
    case UR_DEVICE_INFO_IMAGE_MAX_ARRAY_SIZE:
        return put_cl_size(&out, d, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE);
    case UR_DEVICE_INFO_MAX_SAMPLERS:
        return put_cl_u32(&out, d, CL_DEVICE_MAX_SAMPLERS);
    case UR_DEVICE_INFO_MAX_PARAMETER_SIZE:
        return put_cl_size(&out, d, CL_DEVICE_MAX_PARAMETER_SIZE);
    case UR_DEVICE_INFO_MEM_BASE_ADDR_ALIGN:
        return put_cl_u32(&out, d, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
    case UR_DEVICE_INFO_GLOBAL_MEM_CACHE_TYPE: {
        // CL_NONE / CL_READ_ONLY_CACHE / CL_READ_WRITE_CACHE are 0, 1, 2 like UR's values.
        cl_device_mem_cache_type v = CL_NONE;
        OCL_TRY_UR(cl_fixed(d, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, &v, sizeof v));
        ur_device_mem_cache_type_t t = (ur_device_mem_cache_type_t)v;
        return urc_info_bytes(&out, &t, sizeof t);
    }
    case UR_DEVICE_INFO_GLOBAL_MEM_CACHELINE_SIZE:
        return put_cl_u32(&out, d, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE);
    case UR_DEVICE_INFO_GLOBAL_MEM_CACHE_SIZE:
        return put_cl_u64(&out, d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
    case UR_DEVICE_INFO_GLOBAL_MEM_SIZE:
        return put_cl_u64(&out, d, CL_DEVICE_GLOBAL_MEM_SIZE);
    case UR_DEVICE_INFO_MAX_CONSTANT_BUFFER_SIZE:
        return put_cl_u64(&out, d, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE);
    case UR_DEVICE_INFO_MAX_CONSTANT_ARGS:
        return put_cl_u32(&out, d, CL_DEVICE_MAX_CONSTANT_ARGS);
    case UR_DEVICE_INFO_LOCAL_MEM_TYPE: {
        // CL_NONE / CL_LOCAL / CL_GLOBAL are 0, 1, 2 like UR's values.
        cl_device_local_mem_type v = CL_NONE;
        OCL_TRY_UR(cl_fixed(d, CL_DEVICE_LOCAL_MEM_TYPE, &v, sizeof v));
        ur_device_local_mem_type_t t = (ur_device_local_mem_type_t)v;
        return urc_info_bytes(&out, &t, sizeof t);
    }
    case UR_DEVICE_INFO_LOCAL_MEM_SIZE:
        return put_cl_u64(&out, d, CL_DEVICE_LOCAL_MEM_SIZE);
    case UR_DEVICE_INFO_ERROR_CORRECTION_SUPPORT:
        return put_cl_bool(&out, d, CL_DEVICE_ERROR_CORRECTION_SUPPORT);
    case UR_DEVICE_INFO_HOST_UNIFIED_MEMORY:
        return put_cl_bool(&out, d, CL_DEVICE_HOST_UNIFIED_MEMORY);
    case UR_DEVICE_INFO_PROFILING_TIMER_RESOLUTION:
        return put_cl_size(&out, d, CL_DEVICE_PROFILING_TIMER_RESOLUTION);
    case UR_DEVICE_INFO_ENDIAN_LITTLE:
        return put_cl_bool(&out, d, CL_DEVICE_ENDIAN_LITTLE);
    case UR_DEVICE_INFO_AVAILABLE:
        return put_cl_bool(&out, d, CL_DEVICE_AVAILABLE);
    case UR_DEVICE_INFO_COMPILER_AVAILABLE:
        return put_cl_bool(&out, d, CL_DEVICE_COMPILER_AVAILABLE);
    case UR_DEVICE_INFO_LINKER_AVAILABLE:
        return put_cl_bool(&out, d, CL_DEVICE_LINKER_AVAILABLE);
    case UR_DEVICE_INFO_EXECUTION_CAPABILITIES:
        // CL_EXEC_KERNEL and CL_EXEC_NATIVE_KERNEL are UR's bits 0 and 1.
        return put_cl_flags(&out, d, CL_DEVICE_EXECUTION_CAPABILITIES);
    case UR_DEVICE_INFO_BUILT_IN_KERNELS:
        return put_cl_string(&out, d, CL_DEVICE_BUILT_IN_KERNELS);
    case UR_DEVICE_INFO_PLATFORM:
        return urc_info_ptr(&out, d->platform);
    case UR_DEVICE_INFO_REFERENCE_COUNT:
        return urc_info_u32(&out, urc_refcount(&d->obj));
    case UR_DEVICE_INFO_IL_VERSION: {
        // What the device says, as UR answers, even an empty list (PoCL takes no IL); only a
        // device that cannot be asked (OpenCL 1.2 without cl_khr_il_program) leaves it open.
        char *il = device_string(d->cl, CL_DEVICE_IL_VERSION);
        if (il == NULL)
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        ur_result_t result = urc_info_string(&out, il);
        free(il);
        return result;
    }
    case UR_DEVICE_INFO_NAME:
        return put_cl_string(&out, d, CL_DEVICE_NAME);
    case UR_DEVICE_INFO_VENDOR:
        return put_cl_string(&out, d, CL_DEVICE_VENDOR);
    case UR_DEVICE_INFO_DRIVER_VERSION:
        return put_cl_string(&out, d, CL_DRIVER_VERSION);
    case UR_DEVICE_INFO_PROFILE:
        return put_cl_string(&out, d, CL_DEVICE_PROFILE);
    case UR_DEVICE_INFO_VERSION:
        return put_cl_string(&out, d, CL_DEVICE_VERSION);
    case UR_DEVICE_INFO_BACKEND_RUNTIME_VERSION: {
        char text[16];
        snprintf(text, sizeof text, "%u.%u", d->version / 10, d->version % 10);
        return urc_info_string(&out, text);
    }
    case UR_DEVICE_INFO_EXTENSIONS:
        return urc_info_string(&out, d->extensions);
    case UR_DEVICE_INFO_PRINTF_BUFFER_SIZE:
        return put_cl_size(&out, d, CL_DEVICE_PRINTF_BUFFER_SIZE);
    case UR_DEVICE_INFO_PREFERRED_INTEROP_USER_SYNC:
        return put_cl_bool(&out, d, CL_DEVICE_PREFERRED_INTEROP_USER_SYNC);
    case UR_DEVICE_INFO_PARENT_DEVICE:
        return urc_info_ptr(&out, d->parent);
    case UR_DEVICE_INFO_SUPPORTED_PARTITIONS:
        return put_partitions(&out, d);
    case UR_DEVICE_INFO_PARTITION_MAX_SUB_DEVICES:
        return put_cl_u32(&out, d, CL_DEVICE_PARTITION_MAX_SUB_DEVICES);
    case UR_DEVICE_INFO_PARTITION_AFFINITY_DOMAIN:
        // CL_DEVICE_AFFINITY_DOMAIN_NUMA .. NEXT_PARTITIONABLE are UR's bits 0..5.
        return put_cl_flags(&out, d, CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
    case UR_DEVICE_INFO_PARTITION_TYPE:
        return put_partition_type(&out, d);
    case UR_DEVICE_INFO_MAX_NUM_SUB_GROUPS: {
        // SYCL's minimum is 1; OpenCL before 2.1 cannot tell, and says 0 without sub-groups.
        cl_uint v = 0;
        if (d->version >= 21)
            OCL_TRY_UR(cl_fixed(d, CL_DEVICE_MAX_NUM_SUB_GROUPS, &v, sizeof v));
        return urc_info_u32(&out, v == 0 ? 1 : v);
    }
    case UR_DEVICE_INFO_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
        if (d->version < 21)
            return urc_info_bool(&out, false);
        return put_cl_bool(&out, d, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS);
    case UR_DEVICE_INFO_SUB_GROUP_SIZES_INTEL:
        return put_sub_group_sizes(&out, d);
    case UR_DEVICE_INFO_USM_HOST_SUPPORT:
        return put_usm_caps(&out, d, CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL);
    case UR_DEVICE_INFO_USM_DEVICE_SUPPORT:
        return put_usm_caps(&out, d, CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL);
    case UR_DEVICE_INFO_USM_SINGLE_SHARED_SUPPORT:
        return put_usm_caps(&out, d, CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL);
    case UR_DEVICE_INFO_USM_CROSS_SHARED_SUPPORT:
        return put_usm_caps(&out, d, CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL);
    case UR_DEVICE_INFO_USM_SYSTEM_SHARED_SUPPORT:
        return put_usm_caps(&out, d, CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL);
    case UR_DEVICE_INFO_VIRTUAL_MEMORY_SUPPORT: // OpenCL has no virtual memory API
    case UR_DEVICE_INFO_USM_HOST_ALLOC_REGISTER_SUPPORT_EXP:
    case UR_DEVICE_INFO_MEMORY_EXPORT_EXPORTABLE_DEVICE_MEM_EXP: // no exportable allocation call
    case UR_DEVICE_INFO_USM_P2P_SUPPORT_EXP:
    case UR_DEVICE_INFO_IPC_MEMORY_SUPPORT_EXP:
        return urc_info_bool(&out, false);
    case UR_DEVICE_INFO_USM_POOL_SUPPORT:
    case UR_DEVICE_INFO_ASYNC_USM_ALLOCATIONS_SUPPORT_EXP:
    case UR_DEVICE_INFO_USM_CONTEXT_MEMCPY_SUPPORT_EXP:
        return urc_info_bool(&out, d->usm); // common/pool/pool_allocator (and usm_async) over USM
    case UR_DEVICE_INFO_UUID: {
        if (!has_ext(d, "cl_khr_device_uuid"))
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        uint8_t uuid[CL_UUID_SIZE_KHR];
        OCL_TRY_UR(cl_fixed(d, CL_DEVICE_UUID_KHR, uuid, sizeof uuid));
        return urc_info_bytes(&out, uuid, sizeof uuid);
    }
    case UR_DEVICE_INFO_PCI_ADDRESS: {
        if (!has_ext(d, "cl_khr_pci_bus_info"))
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        cl_device_pci_bus_info_khr pci = {0};
        OCL_TRY_UR(cl_fixed(d, CL_DEVICE_PCI_BUS_INFO_KHR, &pci, sizeof pci));
        char text[32];
        snprintf(text, sizeof text, "%04x:%02x:%02x.%01x", pci.pci_domain, pci.pci_bus,
                 pci.pci_device, pci.pci_function);
        return urc_info_string(&out, text);
    }
    case UR_DEVICE_INFO_GPU_EU_COUNT:
        return put_intel_u32(&out, d, CL_DEVICE_MAX_COMPUTE_UNITS, true);
    case UR_DEVICE_INFO_GPU_EU_SLICES:
        return put_intel_u32(&out, d, CL_DEVICE_NUM_SLICES_INTEL, false);
    case UR_DEVICE_INFO_GPU_EU_COUNT_PER_SUBSLICE:
        return put_intel_u32(&out, d, CL_DEVICE_NUM_EUS_PER_SUB_SLICE_INTEL, false);
    case UR_DEVICE_INFO_GPU_SUBSLICES_PER_SLICE:
        return put_intel_u32(&out, d, CL_DEVICE_NUM_SUB_SLICES_PER_SLICE_INTEL, false);
    case UR_DEVICE_INFO_GPU_HW_THREADS_PER_EU:
        return put_intel_u32(&out, d, CL_DEVICE_NUM_THREADS_PER_EU_INTEL, false);
    case UR_DEVICE_INFO_IP_VERSION: {
        cl_uint v = 0;
        if (!has_ext(d, "cl_intel_device_attribute_query") ||
            clGetDeviceInfo(d->cl, CL_DEVICE_IP_VERSION_INTEL, sizeof v, &v, NULL) != CL_SUCCESS)
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        return urc_info_u32(&out, v);
    }
    case UR_DEVICE_INFO_BUILD_ON_SUBDEVICE:
        return urc_info_bool(&out, (d->type & CL_DEVICE_TYPE_GPU) != 0);
    case UR_DEVICE_INFO_ATOMIC_64:
        return urc_info_bool(&out, has_ext(d, "cl_khr_int64_base_atomics") &&
                                       has_ext(d, "cl_khr_int64_extended_atomics"));
    case UR_DEVICE_INFO_ATOMIC_MEMORY_ORDER_CAPABILITIES:
    case UR_DEVICE_INFO_ATOMIC_MEMORY_SCOPE_CAPABILITIES:
    case UR_DEVICE_INFO_ATOMIC_FENCE_ORDER_CAPABILITIES:
    case UR_DEVICE_INFO_ATOMIC_FENCE_SCOPE_CAPABILITIES:
        return put_atomic_caps(&out, d, propName);
    case UR_DEVICE_INFO_MAX_COMPUTE_QUEUE_INDICES:
        return urc_info_u32(&out, 1);
    case UR_DEVICE_INFO_MAX_WORK_GROUPS_3D: {
        // OpenCL has no limit on the number of work-groups.
        size_t max[3] = {SIZE_MAX, SIZE_MAX, SIZE_MAX};
        return urc_info_bytes(&out, max, sizeof max);
    }
    case UR_DEVICE_INFO_MAX_WORK_GROUPS:
        return urc_info_size(&out, SIZE_MAX);
    case UR_DEVICE_INFO_MEM_CHANNEL_SUPPORT:
        return urc_info_bool(&out, has_ext(d, "cl_intel_mem_channel_property"));
    case UR_DEVICE_INFO_ESIMD_SUPPORT: {
        cl_uint vendor = 0;
        OCL_TRY_UR(cl_fixed(d, CL_DEVICE_VENDOR_ID, &vendor, sizeof vendor));
        return urc_info_bool(&out, (d->type & CL_DEVICE_TYPE_GPU) != 0 && vendor == 0x8086);
    }
    case UR_DEVICE_INFO_GLOBAL_VARIABLE_SUPPORT:
        return urc_info_bool(&out, d->global_variables);
    case UR_DEVICE_INFO_NUM_COMPUTE_UNITS: {
        cl_uint n = 0;
        if ((d->type & CL_DEVICE_TYPE_GPU) && has_ext(d, "cl_intel_device_attribute_query")) {
            cl_uint slices = 0, sub_slices = 0;
            OCL_TRY_UR(cl_fixed(d, CL_DEVICE_NUM_SLICES_INTEL, &slices, sizeof slices));
            OCL_TRY_UR(cl_fixed(d, CL_DEVICE_NUM_SUB_SLICES_PER_SLICE_INTEL, &sub_slices,
                                sizeof sub_slices));
            n = slices * sub_slices;
        } else {
            OCL_TRY_UR(cl_fixed(d, CL_DEVICE_MAX_COMPUTE_UNITS, &n, sizeof n));
        }
        return urc_info_u32(&out, n);
    }
    case UR_DEVICE_INFO_PROGRAM_SET_SPECIALIZATION_CONSTANTS:
        // clSetProgramSpecializationConstant is OpenCL 2.2 and applies to SPIR-V programs.
        return urc_info_bool(&out, d->platform->version >= 22 && d->version >= 22 && d->il);
    case UR_DEVICE_INFO_USE_NATIVE_ASSERT:
        return urc_info_bool(&out, d->native_assert);
    case UR_DEVICE_INFO_BFLOAT16_CONVERSIONS_NATIVE:
        return urc_info_bool(&out, has_ext(d, "cl_intel_bfloat16_conversions"));
    case UR_DEVICE_INFO_KERNEL_LAUNCH_CAPABILITIES:
        return urc_info_u32(&out, 0);
    case UR_DEVICE_INFO_2D_BLOCK_ARRAY_CAPABILITIES_EXP:
        return urc_info_u32(&out, has_ext(d, "cl_intel_subgroup_2d_block_io")
                                      ? UR_EXP_DEVICE_2D_BLOCK_ARRAY_CAPABILITY_FLAG_LOAD |
                                            UR_EXP_DEVICE_2D_BLOCK_ARRAY_CAPABILITY_FLAG_STORE
                                      : 0);
    case UR_DEVICE_INFO_CLOCK_SUB_GROUP_SUPPORT_EXP:
        return put_clock_support(&out, d, CL_DEVICE_KERNEL_CLOCK_SCOPE_SUB_GROUP_KHR);
    case UR_DEVICE_INFO_CLOCK_WORK_GROUP_SUPPORT_EXP:
        return put_clock_support(&out, d, CL_DEVICE_KERNEL_CLOCK_SCOPE_WORK_GROUP_KHR);
    case UR_DEVICE_INFO_CLOCK_DEVICE_SUPPORT_EXP:
        return put_clock_support(&out, d, CL_DEVICE_KERNEL_CLOCK_SCOPE_DEVICE_KHR);
    case UR_DEVICE_INFO_IS_INTEGRATED_GPU: {
        cl_bool unified = CL_FALSE;
        if (d->type & CL_DEVICE_TYPE_GPU)
            OCL_TRY_UR(cl_fixed(d, CL_DEVICE_HOST_UNIFIED_MEMORY, &unified, sizeof unified));
        return urc_info_bool(&out, unified != CL_FALSE);
    }
    case UR_DEVICE_INFO_MULTI_DEVICE_COMPILE_SUPPORT_EXP:
        return urc_info_bool(&out, true);
    case UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP:
        return urc_info_bool(&out, d->cb_caps.supported);
    case UR_DEVICE_INFO_COMMAND_BUFFER_EVENT_SUPPORT_EXP:
        return urc_info_bool(&out, d->cb_caps.events);
    case UR_DEVICE_INFO_COMMAND_BUFFER_SUBGRAPH_SUPPORT_EXP:
        return urc_info_bool(&out, false); // UR's API has no append of a child buffer yet
    case UR_DEVICE_INFO_COMMAND_BUFFER_UPDATE_CAPABILITIES_EXP:
        return urc_info_u32(&out, d->cb_caps.update_caps);
    case UR_DEVICE_INFO_ENQUEUE_NATIVE_COMMAND_SUPPORT_EXP: // host_task.c
    case UR_DEVICE_INFO_ENQUEUE_HOST_TASK_SUPPORT_EXP:
    case UR_DEVICE_INFO_REUSABLE_EVENTS_SUPPORT_EXP:     // event.c: a replaceable cl_event
    case UR_DEVICE_INFO_TIMESTAMP_RECORDING_SUPPORT_EXP: // a marker with profiling
    case UR_DEVICE_INFO_DEVICE_WAIT_SUPPORT_EXP:
        return urc_info_bool(&out, true);
    case UR_DEVICE_INFO_IPC_EVENT_SUPPORT_EXP: // OpenCL cannot share events between processes
    case UR_DEVICE_INFO_GRAPH_RECORD_AND_REPLAY_SUPPORT_EXP: // OpenCL has no stream capture
        return urc_info_bool(&out, false);

    // Features this adapter does not offer (yet): answered "no", so a SYCL runtime asking at
    // start-up gets a definite answer rather than an error.
    case UR_DEVICE_INFO_HOST_PIPE_READ_WRITE_SUPPORT:
    case UR_DEVICE_INFO_KERNEL_SET_SPECIALIZATION_CONSTANTS:
    case UR_DEVICE_INFO_ASYNC_BARRIER:
    case UR_DEVICE_INFO_DYNAMIC_LINK_SUPPORT_EXP:
        return urc_info_bool(&out, false);

    default:
        // Features no urc adapter implements get the same definite "no".
        if (urc_device_info_unimplemented_feature(propName))
            return urc_info_bool(&out, false);
        // Values OpenCL cannot tell (memory clock, bus width, free memory, power, fan, LUID
        // outside Windows, Xe topology, image limits of bindless images...).
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
}

// Root devices belong to their platform and are not reference-counted, as in OpenCL
// (clRetainDevice/clReleaseDevice do nothing on root devices) and UR's OpenCL adapter: their
// REFERENCE_COUNT stays 1, so callers that release handles they did not retain (the loader's
// urDeviceGetSelected drops the devices it filters out) can never destroy or skew them.
ur_result_t ocl_device_retain(ur_device_handle_t hDevice) {
    if (hDevice->parent != NULL)
        urc_user_retain(&hDevice->obj);
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_device_release(ur_device_handle_t hDevice) {
    if (hDevice->parent == NULL)
        return UR_RESULT_SUCCESS;
    ur_result_t released;
    if (urc_release_destroys(urc_user_release(&hDevice->obj), UR_RESULT_ERROR_INVALID_DEVICE,
                             "urDeviceRelease", &released))
        ocl_device_destroy(hDevice);
    return released;
}

ur_result_t ocl_device_partition(ur_device_handle_t hDevice,
                                 const ur_device_partition_properties_t *pProperties,
                                 uint32_t NumDevices, ur_device_handle_t *phSubDevices,
                                 uint32_t *pNumDevicesRet) {
    if (pProperties->PropCount == 0 || pProperties->PropCount > 64)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "urDevicePartition: %zu properties (1 to 64 accepted)",
                             pProperties->PropCount);
    if (NumDevices == 0 && phSubDevices != NULL)
        return UR_RESULT_ERROR_INVALID_SIZE;
    // OpenCL takes one partition type followed by its values; BY_COUNTS ends its list with
    // CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, the others take one value.
    cl_device_partition_property props[64 + 3];
    const ur_device_partition_property_t *p = pProperties->pProperties;
    size_t n = 0;
    props[n++] = (cl_device_partition_property)p[0].type;
    switch (p[0].type) {
    case UR_DEVICE_PARTITION_EQUALLY:
        props[n++] = (cl_device_partition_property)p[0].value.equally;
        break;
    case UR_DEVICE_PARTITION_BY_AFFINITY_DOMAIN:
        props[n++] = (cl_device_partition_property)p[0].value.affinity_domain;
        break;
    case UR_DEVICE_PARTITION_BY_COUNTS:
        for (size_t i = 0; i < pProperties->PropCount; ++i) {
            if (p[i].type != UR_DEVICE_PARTITION_BY_COUNTS)
                return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                     "urDevicePartition: mixed partition types");
            props[n++] = (cl_device_partition_property)p[i].value.count;
        }
        props[n++] = CL_DEVICE_PARTITION_BY_COUNTS_LIST_END;
        break;
    default:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
    props[n] = 0;

    cl_uint available = 0;
    OCL_TRY("clCreateSubDevices", clCreateSubDevices(hDevice->cl, props, 0, NULL, &available));
    if (pNumDevicesRet != NULL)
        *pNumDevicesRet = available;
    if (phSubDevices == NULL)
        return UR_RESULT_SUCCESS;
    cl_device_id *ids = urc_calloc(available, sizeof *ids);
    if (ids == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    cl_int err = clCreateSubDevices(hDevice->cl, props, available, ids, NULL);
    if (err != CL_SUCCESS) {
        free(ids);
        return ocl_fail(err, "clCreateSubDevices");
    }
    // Only NumDevices handles are asked for; the other native sub-devices are released.
    ur_result_t result = UR_RESULT_SUCCESS;
    uint32_t made = 0;
    for (cl_uint i = 0; i < available; ++i) {
        if (i < NumDevices && result == UR_RESULT_SUCCESS) {
            result = ocl_device_create(hDevice->platform, ids[i], hDevice, &phSubDevices[i]);
            if (result == UR_RESULT_SUCCESS) {
                ++made;
                continue;
            }
        }
        clReleaseDevice(ids[i]);
    }
    free(ids);
    if (result != UR_RESULT_SUCCESS) {
        for (uint32_t i = 0; i < made; ++i)
            ocl_device_release(phSubDevices[i]);
    }
    return result;
}

ur_result_t ocl_device_select_binary(ur_device_handle_t hDevice,
                                     const ur_device_binary_t *pBinaries, uint32_t NumBinaries,
                                     uint32_t *pSelectedBinary) {
    // The device's own target first, generic SPIR-V (spir64) otherwise.
    const char *target = UR_DEVICE_BINARY_TARGET_SPIRV64;
    if (hDevice->type & CL_DEVICE_TYPE_CPU)
        target = UR_DEVICE_BINARY_TARGET_SPIRV64_X86_64;
    else if (hDevice->type & CL_DEVICE_TYPE_GPU)
        target = UR_DEVICE_BINARY_TARGET_SPIRV64_GEN;
    else if (hDevice->type & CL_DEVICE_TYPE_ACCELERATOR)
        target = UR_DEVICE_BINARY_TARGET_SPIRV64_FPGA;
    uint32_t fallback = UINT32_MAX;
    for (uint32_t i = 0; i < NumBinaries; ++i) {
        const char *spec = pBinaries[i].pDeviceTargetSpec;
        if (spec == NULL)
            continue;
        if (strcmp(spec, target) == 0) {
            *pSelectedBinary = i;
            return UR_RESULT_SUCCESS;
        }
        if (fallback == UINT32_MAX && strcmp(spec, UR_DEVICE_BINARY_TARGET_SPIRV64) == 0)
            fallback = i;
    }
    *pSelectedBinary = fallback;
    if (fallback == UINT32_MAX)
        return urc_error_set(UR_RESULT_ERROR_INVALID_BINARY, 0, "no binary for target %s or %s",
                             target, UR_DEVICE_BINARY_TARGET_SPIRV64);
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_device_get_native_handle(ur_device_handle_t hDevice,
                                         ur_native_handle_t *phNativeDevice) {
    *phNativeDevice = (ur_native_handle_t)hDevice->cl;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_device_create_with_native_handle(ur_native_handle_t hNativeDevice,
                                                 ur_adapter_handle_t hAdapter,
                                                 const ur_device_native_properties_t *pProps,
                                                 ur_device_handle_t *phDevice) {
    (void)pProps; // root devices are never owned by a handle; sub-devices always are
    cl_device_id cl = (cl_device_id)hNativeDevice;
    ur_device_handle_t root = ocl_device_find(cl);
    if (root != NULL) {
        *phDevice = root;
        return UR_RESULT_SUCCESS;
    }
    // A native sub-device: wrap it (retaining the native handle) under its parent's handle.
    cl_device_id parent_cl = NULL;
    cl_int err = clGetDeviceInfo(cl, CL_DEVICE_PARENT_DEVICE, sizeof parent_cl, &parent_cl, NULL);
    if (err != CL_SUCCESS || parent_cl == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, err,
                             "native handle %p is not a device of any OpenCL platform",
                             (void *)hNativeDevice);
    ur_device_handle_t parent = NULL;
    OCL_TRY_UR(ocl_device_create_with_native_handle((ur_native_handle_t)parent_cl, hAdapter, NULL,
                                                    &parent));
    ur_result_t result = UR_RESULT_SUCCESS;
    pthread_mutex_lock(&wrap_lock);
    // A sub-device already wrapped (by urDevicePartition or an earlier call) is handed out again.
    *phDevice = sub_find(cl);
    if (*phDevice == NULL) {
        cl_int retained = clRetainDevice(cl);
        result = retained == CL_SUCCESS ? ocl_device_create(parent->platform, cl, parent, phDevice)
                                        : ocl_fail(retained, "clRetainDevice");
        if (result != UR_RESULT_SUCCESS && retained == CL_SUCCESS)
            clReleaseDevice(cl);
    }
    pthread_mutex_unlock(&wrap_lock);
    ocl_device_release(parent); // the sub-device holds its own reference
    return result;
}

ur_result_t ocl_device_get_global_timestamps(ur_device_handle_t hDevice, uint64_t *pDeviceTimestamp,
                                             uint64_t *pHostTimestamp) {
    // clGetDeviceAndHostTimer is OpenCL 2.1.
    if (hDevice->version < 21 || hDevice->platform->version < 21)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "device timestamps need OpenCL 2.1");
    cl_ulong device_ts = 0, host_ts = 0;
    cl_int err = CL_SUCCESS;
    if (pDeviceTimestamp != NULL)
        err = clGetDeviceAndHostTimer(hDevice->cl, &device_ts, &host_ts);
    else if (pHostTimestamp != NULL)
        err = clGetHostTimer(hDevice->cl, &host_ts);
    // OpenCL's answer when the platform cannot synchronise device and host timers (PoCL).
    if (err == CL_INVALID_OPERATION)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, err,
                             "the platform has no device and host timers");
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clGetDeviceAndHostTimer");
    if (pDeviceTimestamp != NULL)
        *pDeviceTimestamp = device_ts;
    if (pHostTimestamp != NULL)
        *pHostTimestamp = host_ts;
    return UR_RESULT_SUCCESS;
}
