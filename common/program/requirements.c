// SPDX-License-Identifier: MIT
// Optional kernel features (seed 002): aspect names, the URC_MASK_ASPECTS filter and the check
// of "SYCL/device requirements" with the seed's messages (requirements.h).
#include "program/requirements.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "env/env.h"

// sycl::aspect values and names: aspects.def of intel/llvm (2025), aspects_deprecated.def,
// and three values since removed (35, 47, 49) so that older images still get a name.
static const char *const aspect_names[] = {
    [0] = "host",
    [1] = "cpu",
    [2] = "gpu",
    [3] = "accelerator",
    [4] = "custom",
    [5] = "fp16",
    [6] = "fp64",
    [7] = "int64_base_atomics",
    [8] = "int64_extended_atomics",
    [9] = "image",
    [10] = "online_compiler",
    [11] = "online_linker",
    [12] = "queue_profiling",
    [13] = "usm_device_allocations",
    [14] = "usm_host_allocations",
    [15] = "usm_shared_allocations",
    [16] = "usm_restricted_shared_allocations",
    [17] = "usm_system_allocations",
    [18] = "ext_intel_pci_address",
    [19] = "ext_intel_gpu_eu_count",
    [20] = "ext_intel_gpu_eu_simd_width",
    [21] = "ext_intel_gpu_slices",
    [22] = "ext_intel_gpu_subslices_per_slice",
    [23] = "ext_intel_gpu_eu_count_per_subslice",
    [24] = "ext_intel_max_mem_bandwidth",
    [25] = "ext_intel_mem_channel",
    [26] = "usm_atomic_host_allocations",
    [27] = "usm_atomic_shared_allocations",
    [28] = "atomic64",
    [29] = "ext_intel_device_info_uuid",
    [30] = "ext_oneapi_srgb",
    [31] = "ext_oneapi_native_assert",
    [32] = "host_debuggable",
    [33] = "ext_intel_gpu_hw_threads_per_eu",
    [34] = "ext_oneapi_cuda_async_barrier",
    [35] = "ext_oneapi_bfloat16_math_functions",
    [36] = "ext_intel_free_memory",
    [37] = "ext_intel_device_id",
    [38] = "ext_intel_memory_clock_rate",
    [39] = "ext_intel_memory_bus_width",
    [40] = "emulated",
    [41] = "ext_intel_legacy_image",
    [42] = "ext_oneapi_bindless_images",
    [43] = "ext_oneapi_bindless_images_shared_usm",
    [44] = "ext_oneapi_bindless_images_1d_usm",
    [45] = "ext_oneapi_bindless_images_2d_usm",
    [46] = "ext_oneapi_external_memory_import",
    [47] = "ext_oneapi_interop_memory_export",
    [48] = "ext_oneapi_external_semaphore_import",
    [49] = "ext_oneapi_interop_semaphore_export",
    [50] = "ext_oneapi_mipmap",
    [51] = "ext_oneapi_mipmap_anisotropy",
    [52] = "ext_oneapi_mipmap_level_reference",
    [53] = "ext_intel_esimd",
    [54] = "ext_oneapi_ballot_group",
    [55] = "ext_oneapi_fixed_size_group",
    [56] = "ext_oneapi_opportunistic_group",
    [57] = "ext_oneapi_tangle_group",
    [58] = "ext_intel_matrix",
    [59] = "ext_oneapi_is_composite",
    [60] = "ext_oneapi_is_component",
    [61] = "ext_oneapi_graph",
    [62] = "ext_intel_fpga_task_sequence",
    [63] = "ext_oneapi_limited_graph",
    [64] = "ext_oneapi_private_alloca",
    [65] = "ext_oneapi_cubemap",
    [66] = "ext_oneapi_cubemap_seamless_filtering",
    [67] = "ext_oneapi_bindless_sampled_image_fetch_1d_usm",
    [68] = "ext_oneapi_bindless_sampled_image_fetch_1d",
    [69] = "ext_oneapi_bindless_sampled_image_fetch_2d_usm",
    [70] = "ext_oneapi_bindless_sampled_image_fetch_2d",
    [72] = "ext_oneapi_bindless_sampled_image_fetch_3d",
    [73] = "ext_oneapi_queue_profiling_tag",
    [74] = "ext_oneapi_virtual_mem",
    [75] = "ext_oneapi_cuda_cluster_group",
    [76] = "ext_oneapi_image_array",
    [77] = "ext_oneapi_unique_addressing_per_dim",
    [78] = "ext_oneapi_bindless_images_sample_1d_usm",
    [79] = "ext_oneapi_bindless_images_sample_2d_usm",
    [80] = "ext_oneapi_atomic16",
    [81] = "ext_oneapi_virtual_functions",
    [82] = "ext_intel_spill_memory_size",
    [83] = "ext_oneapi_bindless_images_gather",
    [84] = "ext_intel_current_clock_throttle_reasons",
    [85] = "ext_intel_fan_speed",
    [86] = "ext_intel_power_limits",
    [87] = "ext_oneapi_async_memory_alloc",
};
#define NUM_ASPECT_NAMES (sizeof(aspect_names) / sizeof(aspect_names[0]))

// Older spellings of the same values, accepted when reading names.
static const struct {
    const char *name;
    uint32_t aspect;
} aspect_aliases[] = {
    {"usm_system_allocator", 17},
    {"ext_oneapi_interop_memory_import", 46},
    {"ext_oneapi_interop_semaphore_import", 48},
};

const char *urc_aspect_name(uint32_t aspect) {
    return aspect < NUM_ASPECT_NAMES ? aspect_names[aspect] : NULL;
}

bool urc_aspect_parse(const char *text, size_t len, uint32_t *aspect) {
    if (text == NULL || aspect == NULL)
        return false;
    static const char prefix[] = "aspect::";
    if (len > sizeof(prefix) - 1 && memcmp(text, prefix, sizeof(prefix) - 1) == 0) {
        text += sizeof(prefix) - 1;
        len -= sizeof(prefix) - 1;
    }
    if (len == 0)
        return false;
    if (text[0] >= '0' && text[0] <= '9') {
        uint32_t v = 0;
        for (size_t i = 0; i < len; ++i) {
            if (text[i] < '0' || text[i] > '9')
                return false;
            v = v * 10 + (uint32_t)(text[i] - '0');
            if (v >= URC_ASPECT_LIMIT)
                return false;
        }
        *aspect = v;
        return true;
    }
    for (uint32_t a = 0; a < NUM_ASPECT_NAMES; ++a) {
        const char *n = aspect_names[a];
        if (n != NULL && strlen(n) == len && memcmp(n, text, len) == 0) {
            *aspect = a;
            return true;
        }
    }
    for (size_t i = 0; i < sizeof(aspect_aliases) / sizeof(aspect_aliases[0]); ++i) {
        const char *n = aspect_aliases[i].name;
        if (strlen(n) == len && memcmp(n, text, len) == 0) {
            *aspect = aspect_aliases[i].aspect;
            return true;
        }
    }
    return false;
}

void urc_caps_add_aspect(urc_device_caps_t *caps, uint32_t aspect) {
    if (caps != NULL && aspect < URC_ASPECT_LIMIT)
        caps->aspects[aspect / 64] |= UINT64_C(1) << (aspect % 64);
}

void urc_caps_remove_aspect(urc_device_caps_t *caps, uint32_t aspect) {
    if (caps != NULL && aspect < URC_ASPECT_LIMIT)
        caps->aspects[aspect / 64] &= ~(UINT64_C(1) << (aspect % 64));
}

bool urc_caps_has_aspect(const urc_device_caps_t *caps, uint32_t aspect) {
    return caps != NULL && aspect < URC_ASPECT_LIMIT &&
           (caps->aspects[aspect / 64] >> (aspect % 64) & 1u) != 0;
}

void urc_caps_apply_mask_list(urc_device_caps_t *caps, const char *list, urc_logger_t *logger) {
    if (caps == NULL || list == NULL)
        return;
    const char *p = list;
    while (*p != '\0') {
        const char *end = strchr(p, ',');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        // Blanks around an entry are allowed ("fp64, fp16").
        const char *s = p;
        size_t n = len;
        while (n > 0 && (*s == ' ' || *s == '\t')) {
            s++;
            n--;
        }
        while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
            n--;
        uint32_t aspect;
        if (urc_aspect_parse(s, n, &aspect))
            urc_caps_remove_aspect(caps, aspect);
        else if (n > 0 && logger != NULL)
            URC_LOG(logger, UR_LOGGER_LEVEL_WARN,
                    "URC_MASK_ASPECTS: '%.*s' is not a SYCL aspect name or number; ignored", (int)n,
                    s);
        p += len;
        if (*p == ',')
            p++;
    }
}

void urc_caps_apply_mask(urc_device_caps_t *caps, urc_logger_t *logger) {
    urc_caps_apply_mask_list(caps, urc_env_get(URC_ENV_MASK_ASPECTS), logger);
}

// ---------------------------------------------------------------------------------------------
// The check

typedef struct msgbuf_t {
    char *buf;
    size_t size;
    size_t len;
} msgbuf_t;

static void msg_add(msgbuf_t *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// Appends with truncation; `len` stops growing at the end of the buffer.
static void msg_add(msgbuf_t *m, const char *fmt, ...) {
    if (m->buf == NULL || m->size == 0 || m->len >= m->size - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(m->buf + m->len, m->size - m->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        m->len = (size_t)n < m->size - m->len ? m->len + (size_t)n : m->size - 1;
}

static void msg_aspect(msgbuf_t *m, uint32_t aspect) {
    const char *name = urc_aspect_name(aspect);
    if (name != NULL)
        msg_add(m, "%s", name);
    else
        msg_add(m, "%" PRIu32, aspect);
}

static ur_result_t malformed(msgbuf_t *m, const char *prop, const char *why) {
    msg_add(m, "'%s/%s' %s", URC_SET_DEVICE_REQUIREMENTS, prop, why);
    return UR_RESULT_ERROR_INVALID_VALUE;
}

static ur_result_t check_fixed_target(const urc_prop_t *p, const urc_device_caps_t *caps,
                                      msgbuf_t *m) {
    const uint8_t *data;
    size_t n;
    if (!urc_prop_u32_array(p, &data, &n))
        return malformed(m, "fixed_target", "must be a byte array of uint32 aspects");
    for (size_t i = 0; i < n; ++i)
        if (urc_caps_has_aspect(caps, urc_prop_u32_at(data, i)))
            return UR_RESULT_SUCCESS;
    // Each fixed target stands for one aspect; the list names the targets by those aspects.
    msg_add(m, "Kernel was compiled with '-fsycl-fixed-targets=");
    for (size_t i = 0; i < n; ++i) {
        if (i > 0)
            msg_add(m, ",");
        msg_aspect(m, urc_prop_u32_at(data, i));
    }
    msg_add(m, "' but was submitted to a different device.");
    return UR_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

static ur_result_t check_aspects(const urc_prop_t *p, const urc_device_caps_t *caps, msgbuf_t *m) {
    const uint8_t *data;
    size_t n;
    if (!urc_prop_u32_array(p, &data, &n))
        return malformed(m, p->name, "must be a byte array of uint32 aspects");
    for (size_t i = 0; i < n; ++i) {
        uint32_t a = urc_prop_u32_at(data, i);
        if (urc_caps_has_aspect(caps, a))
            continue;
        const char *name = urc_aspect_name(a);
        if (name != NULL)
            msg_add(m, "Kernel uses optional feature corresponding to 'aspect::%s'", name);
        else
            msg_add(m, "Kernel uses optional feature corresponding to 'aspect::%" PRIu32 "'", a);
        msg_add(m, " but device does not support this aspect.");
        return UR_RESULT_ERROR_UNSUPPORTED_FEATURE;
    }
    return UR_RESULT_SUCCESS;
}

static bool has_sub_group_size(const urc_device_caps_t *caps, uint32_t size) {
    uint32_t n = caps->num_sub_group_sizes;
    if (n > sizeof(caps->sub_group_sizes) / sizeof(caps->sub_group_sizes[0]))
        n = sizeof(caps->sub_group_sizes) / sizeof(caps->sub_group_sizes[0]);
    for (uint32_t i = 0; i < n; ++i)
        if (caps->sub_group_sizes[i] == size)
            return true;
    return false;
}

static ur_result_t check_sub_group(const urc_prop_t *p, const urc_device_caps_t *caps,
                                   msgbuf_t *m) {
    const uint8_t *data = NULL;
    size_t n = 1;
    // DPC++ writes a UINT32 property; the seed describes a uint32 array. Both are read.
    if (p->type != UR_PROGRAM_METADATA_TYPE_UINT32 && !urc_prop_u32_array(p, &data, &n))
        return malformed(m, "reqd_sub_group_size", "must be a UINT32 or a uint32 byte array");
    for (size_t i = 0; i < n; ++i) {
        uint32_t size = data != NULL ? urc_prop_u32_at(data, i) : p->u32;
        if (has_sub_group_size(caps, size))
            continue;
        msg_add(m,
                "Kernel has a required sub-group size of '%" PRIu32
                "' but device does not support this sub-group size.",
                size);
        return UR_RESULT_ERROR_UNSUPPORTED_FEATURE;
    }
    return UR_RESULT_SUCCESS;
}

// The required work-group size as written: up to 3 values (UR order), and how many.
typedef struct wg_size_t {
    uint64_t dims[3];
    size_t count;
} wg_size_t;

static ur_result_t read_work_group(const urc_props_t *props, msgbuf_t *m, wg_size_t *wg) {
    const char *set = URC_SET_DEVICE_REQUIREMENTS;
    const urc_prop_t *p64 = urc_props_find(props, set, "reqd_work_group_size_uint64_t");
    const urc_prop_t *p32 = urc_props_find(props, set, "reqd_work_group_size");
    const urc_prop_t *num_dim = urc_props_find(props, set, "work_group_num_dim");
    uint64_t v[4];
    size_t n;
    if (p64 != NULL) {
        if (p64->type != UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY || p64->size % 8 != 0)
            return malformed(m, p64->name, "must be a byte array of uint64 values");
        n = p64->size / 8;
        if (n == 0 || n > 3)
            return malformed(m, p64->name, "must hold 1 to 3 dimensions");
        for (size_t i = 0; i < n; ++i)
            v[i] = urc_prop_u64_at(p64->data, i);
    } else {
        const uint8_t *data;
        if (!urc_prop_u32_array(p32, &data, &n))
            return malformed(m, p32->name, "must be a byte array of uint32 values");
        if (n == 0 || n > 4)
            return malformed(m, p32->name, "must hold 1 to 3 dimensions");
        for (size_t i = 0; i < n; ++i)
            v[i] = urc_prop_u32_at(data, i);
        // The seed's layout leads with the dimension count; DPC++ writes the (padded) sizes and
        // the count separately as work_group_num_dim. The count form is recognised only when
        // that property is absent and the first value matches the number that follow.
        if (num_dim == NULL && n >= 2 && v[0] == n - 1) {
            memmove(v, v + 1, (n - 1) * sizeof(v[0]));
            n--;
        } else if (n > 3) {
            return malformed(m, p32->name, "must hold 1 to 3 dimensions");
        }
    }
    for (size_t i = 0; i < n; ++i) {
        if (v[i] == 0)
            return malformed(m, p64 != NULL ? p64->name : p32->name, "has a zero dimension");
        wg->dims[i] = v[i];
    }
    wg->count = n;
    return UR_RESULT_SUCCESS;
}

static ur_result_t check_work_group(const urc_props_t *props, const urc_device_caps_t *caps,
                                    msgbuf_t *m) {
    wg_size_t wg = {{0}, 0};
    ur_result_t r = read_work_group(props, m, &wg);
    if (r != UR_RESULT_SUCCESS)
        return r;
    bool fits = true;
    uint64_t total = 1;
    for (size_t i = 0; i < wg.count; ++i) {
        // A product that overflows cannot be a valid work-group on any device.
        if (wg.dims[i] > UINT64_MAX / total || wg.dims[i] > SIZE_MAX)
            fits = false;
        else
            total *= wg.dims[i];
        if (caps->max_work_item_sizes[i] != 0 && wg.dims[i] > caps->max_work_item_sizes[i])
            fits = false;
    }
    if (total > SIZE_MAX ||
        (caps->max_work_group_size != 0 && total > (uint64_t)caps->max_work_group_size))
        fits = false;
    if (fits)
        return UR_RESULT_SUCCESS;
    msg_add(m, "Kernel has a required work-group size of '[");
    for (size_t i = 0; i < wg.count; ++i)
        msg_add(m, "%s%" PRIu64, i > 0 ? "," : "", wg.dims[i]);
    msg_add(m, "]' but device does not support this work-group size.");
    return UR_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

ur_result_t urc_check_requirements(const urc_props_t *props, const urc_device_caps_t *caps,
                                   char *msg, size_t msg_size) {
    msgbuf_t m = {msg, msg_size, 0};
    if (msg != NULL && msg_size > 0)
        msg[0] = '\0';
    const char *set = URC_SET_DEVICE_REQUIREMENTS;
    if (!urc_props_has_set(props, set))
        return UR_RESULT_SUCCESS;
    if (caps == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;

    ur_result_t r = UR_RESULT_SUCCESS;
    const urc_prop_t *p = urc_props_find(props, set, "fixed_target");
    if (p != NULL && (r = check_fixed_target(p, caps, &m)) != UR_RESULT_SUCCESS)
        return r;
    // "aspects" is what DPC++ writes; the seed's table calls it "aspect".
    const char *aspect_props[] = {"aspects", "aspect"};
    for (size_t i = 0; i < 2; ++i) {
        p = urc_props_find(props, set, aspect_props[i]);
        if (p != NULL && (r = check_aspects(p, caps, &m)) != UR_RESULT_SUCCESS)
            return r;
    }
    p = urc_props_find(props, set, "reqd_sub_group_size");
    if (p != NULL && (r = check_sub_group(p, caps, &m)) != UR_RESULT_SUCCESS)
        return r;
    if (urc_props_find(props, set, "reqd_work_group_size") != NULL ||
        urc_props_find(props, set, "reqd_work_group_size_uint64_t") != NULL)
        return check_work_group(props, caps, &m);
    return UR_RESULT_SUCCESS;
}
