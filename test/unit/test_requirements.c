// SPDX-License-Identifier: MIT
// common/requirements: aspect names, URC_MASK_ASPECTS, and every message of the check.
#include <stdlib.h>

#include "env.h"
#include "md_builder.h"
#include "requirements.h"
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
