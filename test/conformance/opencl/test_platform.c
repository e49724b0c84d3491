// SPDX-License-Identifier: MIT
// urPlatform* of the OpenCL adapter, through the loader.
#include <string.h>

#include "../common/platform_cases.h"
#include "oclt.h"

START_TEST(get_counts_platforms) {
    uint32_t n = 0;
    ck_assert_ur_ok(urPlatformGet(T.adapter, 0, NULL, &n));
    ck_assert_uint_ge(n, 1);
}
END_TEST

START_TEST(get_writes_no_more_than_exist) {
    uint32_t n = 0;
    ck_assert_ur_ok(urPlatformGet(T.adapter, 0, NULL, &n));
    ur_platform_handle_t list[16];
    for (int i = 0; i < 16; ++i)
        list[i] = (ur_platform_handle_t)(uintptr_t)0x5a5a;
    ck_assert_ur_ok(urPlatformGet(T.adapter, 16, list, NULL));
    ck_assert_ptr_eq(list[0], T.platform);
    for (uint32_t i = n; i < 16; ++i)
        ck_assert_ptr_eq(list[i], (ur_platform_handle_t)(uintptr_t)0x5a5a);
}
END_TEST

START_TEST(get_info_name) {
    char name[256] = "";
    size_t size = 0;
    ck_assert_ur_ok(urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_NAME, 0, NULL, &size));
    ck_assert_uint_gt(size, 1);
    ck_assert_ur_ok(urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_NAME, sizeof name, name, NULL));
    ck_assert_uint_eq(strlen(name) + 1, size);
}
END_TEST

START_TEST(get_info_version_is_opencl) {
    char version[256] = "";
    ck_assert_ur_ok(
        urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_VERSION, sizeof version, version, NULL));
    ck_assert_int_eq(strncmp(version, "OpenCL ", 7), 0);
}
END_TEST

START_TEST(get_info_small_buffer_is_invalid_size) {
    char name[2];
    ck_assert_ur(urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_NAME, sizeof name, name, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
}
END_TEST

START_TEST(get_info_unknown_query_is_invalid_enumeration) {
    size_t size = 0;
    ck_assert_ur(urPlatformGetInfo(T.platform, (ur_platform_info_t)0x7777, 0, NULL, &size),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
}
END_TEST

START_TEST(get_api_version_is_current) {
    ur_api_version_t v = 0;
    ck_assert_ur_ok(urPlatformGetApiVersion(T.platform, &v));
    ck_assert_int_eq(v, UR_API_VERSION_CURRENT);
}
END_TEST

START_TEST(create_with_unknown_native_handle_is_invalid_platform) {
    ur_platform_handle_t p = NULL;
    ck_assert_ur(urPlatformCreateWithNativeHandle((ur_native_handle_t)0x1234, T.adapter, NULL, &p),
                 UR_RESULT_ERROR_INVALID_PLATFORM);
}
END_TEST

START_TEST(backend_option_o0_disables_optimisation) {
    const char *option = NULL;
    ck_assert_ur_ok(urPlatformGetBackendOption(T.platform, "-O0", &option));
    ck_assert_str_eq(option, "-cl-opt-disable");
}
END_TEST

START_TEST(backend_option_o2_is_empty) {
    const char *option = NULL;
    ck_assert_ur_ok(urPlatformGetBackendOption(T.platform, "-O2", &option));
    ck_assert_str_eq(option, "");
}
END_TEST

START_TEST(backend_option_unknown_is_invalid_value) {
    const char *option = NULL;
    ck_assert_ur(urPlatformGetBackendOption(T.platform, "-funknown", &option),
                 UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl platform");
    TCase *tc = oclt_tcase("urPlatformGet");
    tcase_add_test(tc, get_counts_platforms);
    tcase_add_test(tc, get_writes_no_more_than_exist);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urPlatformGetInfo");
    tcase_add_test(tc, get_info_name);
    tcase_add_test(tc, get_info_version_is_opencl);
    platform_cases_add_backend(tc, UR_BACKEND_OPENCL);
    tcase_add_test(tc, get_info_small_buffer_is_invalid_size);
    tcase_add_test(tc, get_info_unknown_query_is_invalid_enumeration);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urPlatformGetApiVersion");
    tcase_add_test(tc, get_api_version_is_current);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urPlatformGetNativeHandle");
    platform_cases_add_native(tc);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urPlatformCreateWithNativeHandle");
    tcase_add_test(tc, create_with_unknown_native_handle_is_invalid_platform);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urPlatformGetBackendOption");
    tcase_add_test(tc, backend_option_o0_disables_optimisation);
    tcase_add_test(tc, backend_option_o2_is_empty);
    tcase_add_test(tc, backend_option_unknown_is_invalid_value);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
