// SPDX-License-Identifier: MIT
// common/program/requirements: aspect names, URC_MASK_ASPECTS, and every message of the check.
#include <stdlib.h>

#include "env/env.h"
#include "ur_ddi.h"
#include "md_builder.h"
#include "program/requirements.h"
#include "urc_test.h"

#define REQ "SYCL/device requirements/"

// A GPU-like device: fp16, fp64, atomic64; sub-groups 8/16/32; 1024 work-items.
static urc_device_caps_t gpu_caps(void) {
    urc_device_caps_t caps = {0};
    uint32_t aspects[] = {URC_ASPECT_GPU, URC_ASPECT_FP16, URC_ASPECT_FP64, URC_ASPECT_ATOMIC64};
    for (size_t i = 0; i < sizeof(aspects) / sizeof(aspects[0]); ++i)
        urc_caps_add_aspect(&caps, aspects[i]);
    caps.sub_group_sizes[0] = 8;
    caps.sub_group_sizes[1] = 16;
    caps.sub_group_sizes[2] = 32;
    caps.num_sub_group_sizes = 3;
    caps.max_work_group_size = 1024;
    caps.max_work_item_sizes[0] = 1024;
    caps.max_work_item_sizes[1] = 1024;
    caps.max_work_item_sizes[2] = 64;
    return caps;
}

// Checks the parsed list against `caps`; expects `want` and, unless NULL, exactly `msg`.
static void expect_check(md_list_t *l, const urc_device_caps_t *caps, ur_result_t want,
                         const char *msg) {
    urc_props_t *props = md_parse(l);
    char buf[256] = "unset";
    ck_assert_ur(urc_check_requirements(props, caps, buf, sizeof(buf)), want);
    if (msg != NULL)
        ck_assert_str_eq(buf, msg);
    urc_props_release(props);
}

// --- aspects ---------------------------------------------------------------------------------

START_TEST(aspect_names) {
    ck_assert_str_eq(urc_aspect_name(URC_ASPECT_FP16), "fp16");
    ck_assert_str_eq(urc_aspect_name(0), "host");
    ck_assert_str_eq(urc_aspect_name(28), "atomic64");
    ck_assert_str_eq(urc_aspect_name(81), "ext_oneapi_virtual_functions");
    ck_assert_str_eq(urc_aspect_name(87), "ext_oneapi_async_memory_alloc");
    ck_assert_ptr_null(urc_aspect_name(71));
    ck_assert_ptr_null(urc_aspect_name(88));
    ck_assert_ptr_null(urc_aspect_name(UINT32_MAX));
}
END_TEST

START_TEST(aspect_parse) {
    uint32_t a = 0;
    ck_assert(urc_aspect_parse("fp64", 4, &a) && a == 6);
    ck_assert(urc_aspect_parse("aspect::fp16", 12, &a) && a == 5);
    ck_assert(urc_aspect_parse("28", 2, &a) && a == 28);
    ck_assert(urc_aspect_parse("255", 3, &a) && a == 255);
    ck_assert(urc_aspect_parse("usm_system_allocator", 20, &a) && a == 17);
    ck_assert(urc_aspect_parse("fp64,fp16", 4, &a) && a == 6); // length-bounded
    ck_assert(!urc_aspect_parse("256", 3, &a));
    ck_assert(!urc_aspect_parse("fp", 2, &a));
    ck_assert(!urc_aspect_parse("6x", 2, &a));
    ck_assert(!urc_aspect_parse("", 0, &a));
    ck_assert(!urc_aspect_parse("aspect::", 8, &a));
}
END_TEST

START_TEST(caps_bitset) {
    urc_device_caps_t caps = {0};
    urc_caps_add_aspect(&caps, 6);
    urc_caps_add_aspect(&caps, 200);
    urc_caps_add_aspect(&caps, 300); // ignored
    ck_assert(urc_caps_has_aspect(&caps, 6));
    ck_assert(urc_caps_has_aspect(&caps, 200));
    ck_assert(!urc_caps_has_aspect(&caps, 5));
    ck_assert(!urc_caps_has_aspect(&caps, 300));
    urc_caps_remove_aspect(&caps, 6);
    ck_assert(!urc_caps_has_aspect(&caps, 6));
}
END_TEST

START_TEST(mask_list) {
    urc_device_caps_t caps = gpu_caps();
    urc_caps_apply_mask_list(&caps, " fp64 , bogus,,5,aspect::atomic64,999", NULL);
    ck_assert(!urc_caps_has_aspect(&caps, URC_ASPECT_FP64));
    ck_assert(!urc_caps_has_aspect(&caps, URC_ASPECT_FP16));
    ck_assert(!urc_caps_has_aspect(&caps, URC_ASPECT_ATOMIC64));
    ck_assert(urc_caps_has_aspect(&caps, URC_ASPECT_GPU));
}
END_TEST

START_TEST(mask_from_environment) {
    // Check runs each test in its own process, so the variable stays here.
    setenv("URC_MASK_ASPECTS", "fp16,not_an_aspect", 1);
    urc_env_reload();
    urc_device_caps_t caps = gpu_caps();
    urc_caps_apply_mask(&caps, urc_logger(URC_ENV_LOG_LOADER));
    ck_assert(!urc_caps_has_aspect(&caps, URC_ASPECT_FP16));
    ck_assert(urc_caps_has_aspect(&caps, URC_ASPECT_FP64));
    unsetenv("URC_MASK_ASPECTS");
    urc_env_reload();
    caps = gpu_caps();
    urc_caps_apply_mask(&caps, NULL);
    ck_assert(urc_caps_has_aspect(&caps, URC_ASPECT_FP16));
}
END_TEST

// --- urc_check_requirements ------------------------------------------------------------------

START_TEST(no_requirements_pass) {
    urc_device_caps_t caps = {0};
    ck_assert_ur_ok(urc_check_requirements(NULL, &caps, NULL, 0));
    md_list_t l = {0};
    md_u32(&l, "SYCL/assert used/k", 1);
    expect_check(&l, &caps, UR_RESULT_SUCCESS, "");
}
END_TEST

START_TEST(aspects_met) {
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    uint32_t a[] = {URC_ASPECT_FP16, URC_ASPECT_FP64};
    md_u32s(&l, REQ "aspects", a, 2);
    expect_check(&l, &caps, UR_RESULT_SUCCESS, "");
}
END_TEST

START_TEST(aspect_missing_message) {
    urc_device_caps_t caps = gpu_caps();
    urc_caps_remove_aspect(&caps, URC_ASPECT_FP16);
    md_list_t l = {0};
    uint32_t a[] = {URC_ASPECT_FP64, URC_ASPECT_FP16};
    md_u32s(&l, REQ "aspects", a, 2);
    expect_check(&l, &caps, UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                 "Kernel uses optional feature corresponding to 'aspect::fp16' but device does "
                 "not support this aspect.");
}
END_TEST

START_TEST(aspect_unknown_number_message) {
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    uint32_t a[] = {200};
    md_u32s(&l, REQ "aspects", a, 1);
    expect_check(&l, &caps, UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                 "Kernel uses optional feature corresponding to 'aspect::200' but device does "
                 "not support this aspect.");
    uint32_t big[] = {UINT32_MAX};
    md_u32s(&l, REQ "aspects", big, 1);
    expect_check(&l, &caps, UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                 "Kernel uses optional feature corresponding to 'aspect::4294967295' but device "
                 "does not support this aspect.");
}
END_TEST

START_TEST(aspect_seed_property_name) {
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    uint32_t a[] = {URC_ASPECT_CPU};
    md_u32s(&l, REQ "aspect", a, 1);
    expect_check(&l, &caps, UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                 "Kernel uses optional feature corresponding to 'aspect::cpu' but device does "
                 "not support this aspect.");
}
END_TEST

START_TEST(aspect_masked_by_environment) {
    setenv("URC_MASK_ASPECTS", "fp64", 1);
    urc_env_reload();
    urc_device_caps_t caps = gpu_caps();
    urc_caps_apply_mask(&caps, NULL);
    md_list_t l = {0};
    uint32_t a[] = {URC_ASPECT_FP64};
    md_u32s(&l, REQ "aspects", a, 1);
    expect_check(&l, &caps, UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                 "Kernel uses optional feature corresponding to 'aspect::fp64' but device does "
                 "not support this aspect.");
}
END_TEST

START_TEST(aspects_wrong_type) {
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    md_str(&l, REQ "aspects", "fp64");
    expect_check(&l, &caps, UR_RESULT_ERROR_INVALID_VALUE,
                 "'SYCL/device requirements/aspects' must be a byte array of uint32 aspects");
}
END_TEST

START_TEST(sub_group_uint32_form) {
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    md_u32(&l, REQ "reqd_sub_group_size", 16);
    expect_check(&l, &caps, UR_RESULT_SUCCESS, "");
    caps.num_sub_group_sizes = 2; // 8 and 16
    md_u32(&l, REQ "reqd_sub_group_size", 32);
    expect_check(&l, &caps, UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                 "Kernel has a required sub-group size of '32' but device does not support this "
                 "sub-group size.");
}
END_TEST

START_TEST(sub_group_array_form) {
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    uint32_t s[] = {8, 64};
    md_u32s(&l, REQ "reqd_sub_group_size", s, 2);
    expect_check(&l, &caps, UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                 "Kernel has a required sub-group size of '64' but device does not support this "
                 "sub-group size.");
}
END_TEST

START_TEST(sub_group_wrong_type) {
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    md_str(&l, REQ "reqd_sub_group_size", "16");
    expect_check(&l, &caps, UR_RESULT_ERROR_INVALID_VALUE,
                 "'SYCL/device requirements/reqd_sub_group_size' must be a UINT32 or a uint32 "
                 "byte array");
}
END_TEST

START_TEST(fixed_target_met) {
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    uint32_t t[] = {URC_ASPECT_CPU, URC_ASPECT_GPU};
    md_u32s(&l, REQ "fixed_target", t, 2);
    expect_check(&l, &caps, UR_RESULT_SUCCESS, "");
}
END_TEST

START_TEST(fixed_target_message) {
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    uint32_t t[] = {URC_ASPECT_CPU, URC_ASPECT_ACCELERATOR, 200};
    md_u32s(&l, REQ "fixed_target", t, 3);
    expect_check(&l, &caps, UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                 "Kernel was compiled with '-fsycl-fixed-targets=cpu,accelerator,200' but was "
                 "submitted to a different device.");
}
END_TEST

START_TEST(fixed_target_empty_list) {
    // The post-link tool writes the property even when no target is left: nothing may run it.
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    md_u32s(&l, REQ "fixed_target", NULL, 0);
    expect_check(&l, &caps, UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                 "Kernel was compiled with '-fsycl-fixed-targets=' but was submitted to a "
                 "different device.");
}
END_TEST

START_TEST(fixed_target_checked_first) {
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    uint32_t a[] = {URC_ASPECT_CPU};
    md_u32s(&l, REQ "aspects", a, 1);
    md_u32s(&l, REQ "fixed_target", a, 1);
    expect_check(&l, &caps, UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                 "Kernel was compiled with '-fsycl-fixed-targets=cpu' but was submitted to a "
                 "different device.");
}
END_TEST

START_TEST(work_group_dpcpp_form) {
    // DPC++: sizes padded to 3 with 1s, and the dimension count in work_group_num_dim.
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    uint32_t wg[] = {64, 64, 1};
    md_u32s(&l, REQ "reqd_work_group_size", wg, 3);
    md_u32(&l, REQ "work_group_num_dim", 2);
    expect_check(&l, &caps, UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                 "Kernel has a required work-group size of '[64,64,1]' but device does not "
                 "support this work-group size.");
    uint32_t ok[] = {32, 32, 1};
    md_u32s(&l, REQ "reqd_work_group_size", ok, 3);
    md_u32(&l, REQ "work_group_num_dim", 2);
    expect_check(&l, &caps, UR_RESULT_SUCCESS, "");
}
END_TEST

START_TEST(work_group_seed_form) {
    // The seed: <dim_count> <dim0> ...
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    uint32_t wg[] = {2, 16, 16};
    md_u32s(&l, REQ "reqd_work_group_size", wg, 3);
    expect_check(&l, &caps, UR_RESULT_SUCCESS, "");
    uint32_t big[] = {3, 8, 8, 128};
    md_u32s(&l, REQ "reqd_work_group_size", big, 4);
    expect_check(&l, &caps, UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                 "Kernel has a required work-group size of '[8,8,128]' but device does not "
                 "support this work-group size.");
}
END_TEST

START_TEST(work_group_per_dimension_limit) {
    // 1x1x128 = 128 items fits the total but not dimension 2 (64).
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    uint32_t wg[] = {1, 1, 128};
    md_u32s(&l, REQ "reqd_work_group_size", wg, 3);
    md_u32(&l, REQ "work_group_num_dim", 3);
    expect_check(&l, &caps, UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                 "Kernel has a required work-group size of '[1,1,128]' but device does not "
                 "support this work-group size.");
}
END_TEST

START_TEST(work_group_uint64_form) {
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    uint8_t v[24] = {0};
    uint64_t dims[3] = {UINT64_C(1) << 40, UINT64_C(1) << 40, 1};
    for (int i = 0; i < 3; ++i)
        for (int b = 0; b < 8; ++b)
            v[8 * i + b] = (uint8_t)(dims[i] >> (8 * b));
    md_bytes(&l, REQ "reqd_work_group_size_uint64_t", v, 24);
    // The product overflows 64 bits: no device can have it.
    expect_check(&l, &caps, UR_RESULT_ERROR_UNSUPPORTED_FEATURE,
                 "Kernel has a required work-group size of '[1099511627776,1099511627776,1]' but "
                 "device does not support this work-group size.");
    uint64_t small = 256;
    md_bytes(&l, REQ "reqd_work_group_size_uint64_t", &small, 8);
    expect_check(&l, &caps, UR_RESULT_SUCCESS, "");
}
END_TEST

START_TEST(work_group_unknown_limits_not_checked) {
    urc_device_caps_t caps = gpu_caps();
    caps.max_work_group_size = 0;
    memset(caps.max_work_item_sizes, 0, sizeof(caps.max_work_item_sizes));
    md_list_t l = {0};
    uint32_t wg[] = {4096, 4, 4};
    md_u32s(&l, REQ "reqd_work_group_size", wg, 3);
    md_u32(&l, REQ "work_group_num_dim", 3);
    expect_check(&l, &caps, UR_RESULT_SUCCESS, "");
}
END_TEST

START_TEST(work_group_malformed) {
    urc_device_caps_t caps = gpu_caps();
    md_list_t l = {0};
    md_u32s(&l, REQ "reqd_work_group_size", NULL, 0);
    expect_check(&l, &caps, UR_RESULT_ERROR_INVALID_VALUE,
                 "'SYCL/device requirements/reqd_work_group_size' must hold 1 to 3 dimensions");
    uint32_t zero[] = {16, 0, 1};
    md_u32s(&l, REQ "reqd_work_group_size", zero, 3);
    md_u32(&l, REQ "work_group_num_dim", 2);
    expect_check(&l, &caps, UR_RESULT_ERROR_INVALID_VALUE,
                 "'SYCL/device requirements/reqd_work_group_size' has a zero dimension");
    uint32_t five[] = {1, 2, 3, 4, 5};
    md_u32s(&l, REQ "reqd_work_group_size", five, 5);
    expect_check(&l, &caps, UR_RESULT_ERROR_INVALID_VALUE,
                 "'SYCL/device requirements/reqd_work_group_size' must hold 1 to 3 dimensions");
}
END_TEST

START_TEST(check_null_caps) {
    md_list_t l = {0};
    uint32_t a[] = {URC_ASPECT_FP64};
    md_u32s(&l, REQ "aspects", a, 1);
    urc_props_t *props = md_parse(&l);
    ck_assert_ur(urc_check_requirements(props, NULL, NULL, 0),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    urc_props_release(props);
}
END_TEST

START_TEST(message_truncates_safely) {
    urc_device_caps_t caps = {0};
    md_list_t l = {0};
    uint32_t t[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    md_u32s(&l, REQ "fixed_target", t, 16);
    urc_props_t *props = md_parse(&l);
    char small[20];
    ck_assert_ur(urc_check_requirements(props, &caps, small, sizeof(small)),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_str_eq(small, "Kernel was compiled");
    ck_assert_ur(urc_check_requirements(props, &caps, NULL, 0),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    urc_props_release(props);
}
END_TEST

// --- urc_caps_from_device --------------------------------------------------------------------

// A fake adapter: handles whose first word is a table with only the two GetInfo slots filled,
// answering from the `fake` description below.
static struct {
    ur_device_type_t type;
    const char *extensions;
    ur_backend_t backend;
    uint32_t usm_host, usm_device, usm_shared;
    ur_bool_t atomic64, native_assert;
    uint32_t sub_groups[3];
    size_t num_sub_groups;
    size_t max_wg, items[3];
    bool answers_uuid;
} fake;

static ur_dditable_t fake_ddi;
static struct fake_handle_t {
    const ur_dditable_t *ddi;
} fake_device = {&fake_ddi}, fake_platform = {&fake_ddi};

static ur_result_t answer(const void *value, size_t size, size_t prop_size, void *out,
                          size_t *size_ret) {
    if (size_ret != NULL)
        *size_ret = size;
    if (out != NULL) {
        if (prop_size < size)
            return UR_RESULT_ERROR_INVALID_SIZE;
        memcpy(out, value, size);
    }
    return UR_RESULT_SUCCESS;
}

static ur_result_t UR_APICALL fake_device_info(ur_device_handle_t device, ur_device_info_t what,
                                               size_t size, void *value, size_t *size_ret) {
    ck_assert_ptr_eq(device, (void *)&fake_device);
    uint32_t queue_flags = UR_QUEUE_FLAG_PROFILING_ENABLE;
    ur_platform_handle_t platform = (ur_platform_handle_t)&fake_platform;
    uint8_t uuid[16] = {1};
    switch (what) {
    case UR_DEVICE_INFO_TYPE:
        return answer(&fake.type, sizeof(fake.type), size, value, size_ret);
    case UR_DEVICE_INFO_EXTENSIONS:
        return answer(fake.extensions, strlen(fake.extensions) + 1, size, value, size_ret);
    case UR_DEVICE_INFO_PLATFORM:
        return answer(&platform, sizeof(platform), size, value, size_ret);
    case UR_DEVICE_INFO_QUEUE_PROPERTIES:
        return answer(&queue_flags, sizeof(queue_flags), size, value, size_ret);
    case UR_DEVICE_INFO_USM_HOST_SUPPORT:
        return answer(&fake.usm_host, sizeof(uint32_t), size, value, size_ret);
    case UR_DEVICE_INFO_USM_DEVICE_SUPPORT:
        return answer(&fake.usm_device, sizeof(uint32_t), size, value, size_ret);
    case UR_DEVICE_INFO_USM_SINGLE_SHARED_SUPPORT:
        return answer(&fake.usm_shared, sizeof(uint32_t), size, value, size_ret);
    case UR_DEVICE_INFO_ATOMIC_64:
        return answer(&fake.atomic64, sizeof(ur_bool_t), size, value, size_ret);
    case UR_DEVICE_INFO_USE_NATIVE_ASSERT:
        return answer(&fake.native_assert, sizeof(ur_bool_t), size, value, size_ret);
    case UR_DEVICE_INFO_SUB_GROUP_SIZES_INTEL:
        return answer(fake.sub_groups, fake.num_sub_groups * sizeof(uint32_t), size, value,
                      size_ret);
    case UR_DEVICE_INFO_MAX_WORK_GROUP_SIZE:
        return answer(&fake.max_wg, sizeof(size_t), size, value, size_ret);
    case UR_DEVICE_INFO_MAX_WORK_ITEM_SIZES:
        return answer(fake.items, sizeof(fake.items), size, value, size_ret);
    case UR_DEVICE_INFO_UUID:
        if (fake.answers_uuid)
            return answer(uuid, sizeof(uuid), size, value, size_ret);
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    default:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
}

static ur_result_t UR_APICALL fake_platform_info(ur_platform_handle_t platform,
                                                 ur_platform_info_t what, size_t size, void *value,
                                                 size_t *size_ret) {
    ck_assert_ptr_eq(platform, (void *)&fake_platform);
    if (what != UR_PLATFORM_INFO_BACKEND)
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    return answer(&fake.backend, sizeof(fake.backend), size, value, size_ret);
}

static urc_device_caps_t query_fake(void) {
    fake_ddi.Device.pfnGetInfo = fake_device_info;
    fake_ddi.Platform.pfnGetInfo = fake_platform_info;
    urc_device_caps_t caps;
    ck_assert_ur_ok(urc_caps_from_device((ur_device_handle_t)&fake_device, &caps, NULL));
    return caps;
}

static void fake_opencl_cpu(void) {
    memset(&fake, 0, sizeof(fake));
    fake.type = UR_DEVICE_TYPE_CPU;
    fake.extensions = "cl_khr_fp64x cl_khr_int64_base_atomics cl_khr_fp16";
    fake.backend = UR_BACKEND_OPENCL;
    fake.usm_host = UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ACCESS |
                    UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ATOMIC_CONCURRENT_ACCESS;
    fake.usm_device = UR_DEVICE_USM_ACCESS_CAPABILITY_FLAG_ACCESS;
    fake.atomic64 = 1;
    fake.sub_groups[0] = 8;
    fake.sub_groups[1] = 16;
    fake.num_sub_groups = 2;
    fake.max_wg = 256;
    fake.items[0] = 256;
    fake.items[1] = 128;
    fake.items[2] = 64;
    fake.answers_uuid = true;
}

START_TEST(caps_from_opencl_cpu) {
    fake_opencl_cpu();
    urc_device_caps_t caps = query_fake();
    ck_assert(urc_caps_has_aspect(&caps, URC_ASPECT_CPU));
    ck_assert(!urc_caps_has_aspect(&caps, URC_ASPECT_GPU));
    ck_assert(urc_caps_has_aspect(&caps, URC_ASPECT_FP16));
    ck_assert(!urc_caps_has_aspect(&caps, URC_ASPECT_FP64)); // "cl_khr_fp64x" is another name
    ck_assert(urc_caps_has_aspect(&caps, 7));                // int64_base_atomics
    ck_assert(urc_caps_has_aspect(&caps, URC_ASPECT_ATOMIC64));
    ck_assert(urc_caps_has_aspect(&caps, URC_ASPECT_QUEUE_PROFILING));
    ck_assert(urc_caps_has_aspect(&caps, URC_ASPECT_USM_HOST_ALLOCATIONS));
    ck_assert(urc_caps_has_aspect(&caps, URC_ASPECT_USM_ATOMIC_HOST_ALLOCATIONS));
    ck_assert(urc_caps_has_aspect(&caps, URC_ASPECT_USM_DEVICE_ALLOCATIONS));
    ck_assert(!urc_caps_has_aspect(&caps, URC_ASPECT_USM_SHARED_ALLOCATIONS));
    ck_assert(!urc_caps_has_aspect(&caps, URC_ASPECT_EXT_ONEAPI_NATIVE_ASSERT));
    ck_assert(urc_caps_has_aspect(&caps, 29));  // ext_intel_device_info_uuid: answered
    ck_assert(!urc_caps_has_aspect(&caps, 37)); // ext_intel_device_id: not answered
    ck_assert(urc_caps_has_aspect(&caps, URC_ASPECT_EXT_ONEAPI_VIRTUAL_FUNCTIONS));
    ck_assert_uint_eq(caps.num_sub_group_sizes, 2);
    ck_assert_uint_eq(caps.sub_group_sizes[1], 16);
    ck_assert_uint_eq(caps.max_work_group_size, 256);
    ck_assert_uint_eq(caps.max_work_item_sizes[2], 64);
}
END_TEST

START_TEST(caps_from_cuda_gpu) {
    fake_opencl_cpu();
    fake.type = UR_DEVICE_TYPE_GPU;
    fake.backend = UR_BACKEND_CUDA;
    fake.extensions = "cl_khr_fp64 cl_khr_fp16";
    fake.native_assert = 1;
    urc_device_caps_t caps = query_fake();
    ck_assert(urc_caps_has_aspect(&caps, URC_ASPECT_GPU));
    ck_assert(urc_caps_has_aspect(&caps, URC_ASPECT_FP64));
    ck_assert(urc_caps_has_aspect(&caps, URC_ASPECT_EXT_ONEAPI_NATIVE_ASSERT));
    ck_assert(!urc_caps_has_aspect(&caps, URC_ASPECT_EXT_ONEAPI_VIRTUAL_FUNCTIONS));
    ck_assert(urc_caps_has_aspect(&caps, 54));  // ballot_group: CUDA too
    ck_assert(!urc_caps_has_aspect(&caps, 57)); // tangle_group: SPIR-V backends only
}
END_TEST

START_TEST(caps_from_device_masked) {
    setenv("URC_MASK_ASPECTS", "fp16,atomic64", 1);
    urc_env_reload();
    fake_opencl_cpu();
    urc_device_caps_t caps = query_fake();
    ck_assert(!urc_caps_has_aspect(&caps, URC_ASPECT_FP16));
    ck_assert(!urc_caps_has_aspect(&caps, URC_ASPECT_ATOMIC64));
    ck_assert(urc_caps_has_aspect(&caps, URC_ASPECT_CPU));
}
END_TEST

START_TEST(caps_from_device_bad_arguments) {
    urc_device_caps_t caps;
    ck_assert_ur(urc_caps_from_device(NULL, &caps, NULL), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urc_caps_from_device((ur_device_handle_t)&fake_device, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    struct fake_handle_t no_table = {NULL};
    ck_assert_ur(urc_caps_from_device((ur_device_handle_t)&no_table, &caps, NULL),
                 UR_RESULT_ERROR_INVALID_DEVICE);
}
END_TEST

static Suite *requirements_suite(void) {
    Suite *s = suite_create("requirements");
    TCase *tc = tcase_create("urc_aspect");
    tcase_add_test(tc, aspect_names);
    tcase_add_test(tc, aspect_parse);
    tcase_add_test(tc, caps_bitset);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_caps_apply_mask");
    tcase_add_test(tc, mask_list);
    tcase_add_test(tc, mask_from_environment);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_caps_from_device");
    tcase_add_test(tc, caps_from_opencl_cpu);
    tcase_add_test(tc, caps_from_cuda_gpu);
    tcase_add_test(tc, caps_from_device_masked);
    tcase_add_test(tc, caps_from_device_bad_arguments);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_check_requirements");
    tcase_add_test(tc, no_requirements_pass);
    tcase_add_test(tc, aspects_met);
    tcase_add_test(tc, aspect_missing_message);
    tcase_add_test(tc, aspect_unknown_number_message);
    tcase_add_test(tc, aspect_seed_property_name);
    tcase_add_test(tc, aspect_masked_by_environment);
    tcase_add_test(tc, aspects_wrong_type);
    tcase_add_test(tc, sub_group_uint32_form);
    tcase_add_test(tc, sub_group_array_form);
    tcase_add_test(tc, sub_group_wrong_type);
    tcase_add_test(tc, fixed_target_met);
    tcase_add_test(tc, fixed_target_message);
    tcase_add_test(tc, fixed_target_empty_list);
    tcase_add_test(tc, fixed_target_checked_first);
    tcase_add_test(tc, work_group_dpcpp_form);
    tcase_add_test(tc, work_group_seed_form);
    tcase_add_test(tc, work_group_per_dimension_limit);
    tcase_add_test(tc, work_group_uint64_form);
    tcase_add_test(tc, work_group_unknown_limits_not_checked);
    tcase_add_test(tc, work_group_malformed);
    tcase_add_test(tc, check_null_caps);
    tcase_add_test(tc, message_truncates_safely);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return urc_test_run(requirements_suite());
}
