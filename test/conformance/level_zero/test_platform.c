// SPDX-License-Identifier: MIT
// urAdapter*, urPlatform* and urDevice* of the Level Zero adapter over the simulated driver.
#include <stdlib.h>
#include <string.h>

#include "../common/platform_cases.h"
#include "l0t.h"

// ---- urAdapter* ----

START_TEST(adapter_backend_is_level_zero) {
    ur_backend_t backend = UR_BACKEND_UNKNOWN;
    ck_assert_ur_ok(
        urAdapterGetInfo(T.adapter, UR_ADAPTER_INFO_BACKEND, sizeof backend, &backend, NULL));
    ck_assert_int_eq(backend, UR_BACKEND_LEVEL_ZERO);
}
END_TEST

START_TEST(adapter_retain_release_counts) {
    uint32_t before = 0, after = 0;
    ck_assert_ur_ok(
        urAdapterGetInfo(T.adapter, UR_ADAPTER_INFO_REFERENCE_COUNT, sizeof before, &before, NULL));
    ck_assert_ur_ok(urAdapterRetain(T.adapter));
    ck_assert_ur_ok(
        urAdapterGetInfo(T.adapter, UR_ADAPTER_INFO_REFERENCE_COUNT, sizeof after, &after, NULL));
    ck_assert_uint_eq(after, before + 1);
    ck_assert_ur_ok(urAdapterRelease(T.adapter));
}
END_TEST

START_TEST(adapter_last_error_explains_a_failure) {
    // A failure the adapter finds (the loader's argument checks keep their messages in the
    // loader, where urAdapterGetLastError does not look).
    ur_queue_index_properties_t index = {UR_STRUCTURE_TYPE_QUEUE_INDEX_PROPERTIES, NULL, 999};
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, &index, 0};
    ur_queue_handle_t q = NULL;
    ck_assert_ur(urQueueCreate(T.context, T.device, &props, &q),
                 UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES);
    const char *msg = NULL;
    int32_t code = -1;
    ck_assert_ur_ok(urAdapterGetLastError(T.adapter, &msg, &code));
    ck_assert_ptr_nonnull(strstr(msg, "compute queue index"));
}
END_TEST

// ---- urPlatform* ----

START_TEST(platform_get_finds_one) {
    uint32_t n = 0;
    ck_assert_ur_ok(urPlatformGet(T.adapter, 0, NULL, &n));
    ck_assert_uint_eq(n, 1);
}
END_TEST

START_TEST(platform_info_names_ur_level_zero) {
    char text[256] = "";
    ck_assert_ur_ok(urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_NAME, sizeof text, text, NULL));
    ck_assert_str_eq(text, "Intel(R) oneAPI Unified Runtime over Level-Zero");
    ck_assert_ur_ok(
        urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_VERSION, sizeof text, text, NULL));
    ck_assert_str_eq(text, "1.4"); // the API version the loader asked the driver for
    ur_backend_t backend = UR_BACKEND_UNKNOWN;
    ck_assert_ur_ok(
        urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_BACKEND, sizeof backend, &backend, NULL));
    ck_assert_int_eq(backend, UR_BACKEND_LEVEL_ZERO);
    ur_adapter_handle_t adapter = NULL;
    ck_assert_ur_ok(
        urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_ADAPTER, sizeof adapter, &adapter, NULL));
    ck_assert_ptr_eq(adapter, T.adapter);
}
END_TEST

START_TEST(platform_backend_options_translate) {
    const char *out = NULL;
    ck_assert_ur_ok(urPlatformGetBackendOption(T.platform, "-O0", &out));
    ck_assert_str_eq(out, "-ze-opt-disable");
    ck_assert_ur_ok(urPlatformGetBackendOption(T.platform, "-O3", &out));
    ck_assert_str_eq(out, "-ze-opt-level=2");
    ck_assert_ur(urPlatformGetBackendOption(T.platform, "-Ofast", &out),
                 UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

// ---- urDevice* ----

START_TEST(device_get_finds_the_gpu) {
    uint32_t n = 0;
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_GPU, 0, NULL, &n));
    ck_assert_uint_eq(n, 1);
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_CPU, 0, NULL, &n));
    ck_assert_uint_eq(n, 0);
}
END_TEST

/// Every value of ur_device_info_t is answered, or refused as unsupported; an answer's size
/// is the same for the size query, the exact buffer and a larger one.
START_TEST(device_info_answers_every_query) {
    ck_assert_int_ge(urc_test_assert_device_info_sizes(T.device), 150);
}
END_TEST

START_TEST(device_info_answers_sycl_startup_queries) {
    urc_test_assert_device_answers(T.device, urc_test_sycl_startup_queries,
                                   urc_test_sycl_startup_query_count);
    // And what the Level Zero path of a SYCL runtime asks besides.
    static const ur_device_info_t also[] = {
        UR_DEVICE_INFO_GLOBAL_MEM_FREE,
        UR_DEVICE_INFO_IL_VERSION,
        UR_DEVICE_INFO_DYNAMIC_LINK_SUPPORT_EXP,
        UR_DEVICE_INFO_MULTI_DEVICE_COMPILE_SUPPORT_EXP,
        UR_DEVICE_INFO_PCI_ADDRESS,
        UR_DEVICE_INFO_UUID,
    };
    urc_test_assert_device_answers(T.device, also, sizeof also / sizeof also[0]);
}
END_TEST

START_TEST(device_info_describes_the_simulated_gpu) {
    char name[256] = "";
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_NAME, sizeof name, name, NULL));
    ck_assert_str_eq(name, "urc simulated Level Zero GPU");
    ur_device_type_t type = UR_DEVICE_TYPE_ALL;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_TYPE, sizeof type, &type, NULL));
    ck_assert_int_eq(type, UR_DEVICE_TYPE_GPU);
    uint32_t vendor = 0, units = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_VENDOR_ID, sizeof vendor, &vendor, NULL));
    ck_assert_uint_eq(vendor, 0x8086);
    // 1 slice x 8 sub-slices x 8 EUs
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_MAX_COMPUTE_UNITS, sizeof units, &units, NULL));
    ck_assert_uint_eq(units, 64);
    uint32_t sg[8];
    size_t size = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_SUB_GROUP_SIZES_INTEL, sizeof sg, sg, &size));
    ck_assert_uint_eq(size, 3 * sizeof(uint32_t));
    ck_assert_uint_eq(sg[0], 8);
    ck_assert_uint_eq(sg[1], 16);
    ck_assert_uint_eq(sg[2], 32);
    char il[64] = "";
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_IL_VERSION, sizeof il, il, NULL));
    ck_assert_str_eq(il, "SPIR-V_1.4 ");
}
END_TEST

// One source of truth: the query and the extension string agree (UR's adapter said "native"
// through the query and left the extension out).
START_TEST(device_native_assert_is_reported_consistently) {
    ur_bool_t native = false;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_USE_NATIVE_ASSERT, sizeof native, &native, NULL));
    ck_assert(native);
    char ext[1024] = "";
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_EXTENSIONS, sizeof ext, ext, NULL));
    ck_assert_ptr_nonnull(strstr(ext, "cl_intel_devicelib_assert"));
    ck_assert_ptr_nonnull(strstr(ext, "cl_khr_il_program"));
    ck_assert_ptr_nonnull(strstr(ext, "cl_khr_fp64"));
    ck_assert_ptr_nonnull(strstr(ext, "cl_khr_fp16"));
}
END_TEST

START_TEST(device_global_variables_and_dynamic_link_supported) {
    ur_bool_t v = false;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_GLOBAL_VARIABLE_SUPPORT, sizeof v, &v, NULL));
    ck_assert(v);
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_DYNAMIC_LINK_SUPPORT_EXP, sizeof v, &v, NULL));
    ck_assert(v);
}
END_TEST

START_TEST(device_partition_without_sub_devices_fails) {
    ur_device_partition_property_t prop = {UR_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, {0}};
    prop.value.affinity_domain = UR_DEVICE_AFFINITY_DOMAIN_FLAG_NEXT_PARTITIONABLE;
    ur_device_partition_properties_t props = {UR_STRUCTURE_TYPE_DEVICE_PARTITION_PROPERTIES, NULL,
                                              &prop, 1};
    uint32_t n = 0;
    ck_assert_ur(urDevicePartition(T.device, &props, 0, NULL, &n),
                 UR_RESULT_ERROR_DEVICE_PARTITION_FAILED);
    size_t size = 99;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_SUPPORTED_PARTITIONS, 0, NULL, &size));
    ck_assert_uint_eq(size, 0);
}
END_TEST

START_TEST(device_select_binary_prefers_native) {
    ur_device_binary_t bins[3] = {
        {UR_STRUCTURE_TYPE_DEVICE_BINARY, NULL, UR_DEVICE_BINARY_TARGET_NVPTX64},
        {UR_STRUCTURE_TYPE_DEVICE_BINARY, NULL, UR_DEVICE_BINARY_TARGET_SPIRV64},
        {UR_STRUCTURE_TYPE_DEVICE_BINARY, NULL, UR_DEVICE_BINARY_TARGET_SPIRV64_GEN},
    };
    uint32_t sel = 99;
    ck_assert_ur_ok(urDeviceSelectBinary(T.device, bins, 3, &sel));
    ck_assert_uint_eq(sel, 2);
    ck_assert_ur_ok(urDeviceSelectBinary(T.device, bins, 2, &sel));
    ck_assert_uint_eq(sel, 1);
    ck_assert_ur(urDeviceSelectBinary(T.device, bins, 1, &sel), UR_RESULT_ERROR_INVALID_BINARY);
}
END_TEST

START_TEST(device_global_timestamps_advance) {
    uint64_t d1 = 0, h1 = 0, d2 = 0, h2 = 0;
    ck_assert_ur_ok(urDeviceGetGlobalTimestamps(T.device, &d1, &h1));
    ck_assert_ur_ok(urDeviceGetGlobalTimestamps(T.device, &d2, &h2));
    ck_assert_uint_ge(d2, d1);
    ck_assert_uint_ge(h2, h1);
    ck_assert_uint_gt(h1, 0);
}
END_TEST

// The round trip itself is a shared case (platform_cases).
START_TEST(device_native_handle_of_no_device_is_invalid_operation) {
    ur_native_handle_t native = 0;
    ur_device_handle_t again = NULL;
    ck_assert_ur(
        urDeviceCreateWithNativeHandle((ur_native_handle_t)&native, T.adapter, NULL, &again),
        UR_RESULT_ERROR_INVALID_OPERATION);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("level_zero_platform");
    const urc_test_case_t cases[] = {
        {"urAdapterGetInfo", {adapter_backend_is_level_zero, adapter_retain_release_counts}},
        {"urAdapterGetLastError", {adapter_last_error_explains_a_failure}},
        {"urPlatformGet", {platform_get_finds_one}},
        {"urPlatformGetInfo", {platform_info_names_ur_level_zero}},
        {"urPlatformGetBackendOption", {platform_backend_options_translate}},
        {"urDeviceGet", {device_get_finds_the_gpu}},
        {"urDevicePartition", {device_partition_without_sub_devices_fails}},
        {"urDeviceSelectBinary", {device_select_binary_prefers_native}},
        {"urDeviceGetGlobalTimestamps", {device_global_timestamps_advance}},
    };
    urc_test_add_cases(s, l0t_tcase, cases, sizeof cases / sizeof cases[0]);
    // The cases every adapter shares (test/conformance/common/platform_cases).
    TCase *tc = l0t_tcase("urPlatformGetNativeHandle");
    platform_cases_add_native(tc);
    suite_add_tcase(s, tc);
    tc = l0t_tcase("urDeviceGetInfo");
    tcase_add_test(tc, device_info_answers_every_query);
    tcase_add_test(tc, device_info_answers_sycl_startup_queries);
    tcase_add_test(tc, device_info_describes_the_simulated_gpu);
    tcase_add_test(tc, device_native_assert_is_reported_consistently);
    tcase_add_test(tc, device_global_variables_and_dynamic_link_supported);
    platform_cases_add_device_info(tc);
    suite_add_tcase(s, tc);
    tc = l0t_tcase("urDeviceGetNativeHandle");
    platform_cases_add_device_native(tc);
    tcase_add_test(tc, device_native_handle_of_no_device_is_invalid_operation);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return l0t_main(suite());
}
