// SPDX-License-Identifier: MIT
// The platform and device cases every adapter shares (platform_cases.h).
#include "platform_cases.h"

// The backend the adapter's suite expects (set before the suite runs; forked tests inherit it).
static ur_backend_t expected_backend = UR_BACKEND_UNKNOWN;

START_TEST(platform_backend_and_adapter) {
    ur_backend_t backend = UR_BACKEND_UNKNOWN;
    ur_adapter_handle_t adapter = NULL;
    ck_assert_ur_ok(urPlatformGetInfo(urc_test_opened.platform, UR_PLATFORM_INFO_BACKEND,
                                      sizeof backend, &backend, NULL));
    ck_assert_ur_ok(urPlatformGetInfo(urc_test_opened.platform, UR_PLATFORM_INFO_ADAPTER,
                                      sizeof adapter, &adapter, NULL));
    ck_assert_int_eq(backend, expected_backend);
    ck_assert_ptr_eq(adapter, urc_test_opened.adapter);
}
END_TEST

// The native platform gives the same handle back, not a new one.
START_TEST(platform_native_handle_round_trip) {
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urPlatformGetNativeHandle(urc_test_opened.platform, &native));
    ck_assert_uint_ne(native, 0);
    ur_platform_handle_t again = NULL;
    ck_assert_ur_ok(
        urPlatformCreateWithNativeHandle(native, urc_test_opened.adapter, NULL, &again));
    ck_assert_ptr_eq(again, urc_test_opened.platform);
}
END_TEST

START_TEST(device_info_small_buffer_is_invalid_size) {
    char name[2];
    ck_assert_ur(
        urDeviceGetInfo(urc_test_opened.device, UR_DEVICE_INFO_NAME, sizeof name, name, NULL),
        UR_RESULT_ERROR_INVALID_SIZE);
}
END_TEST

// Devices are found, not made: the native device gives the adapter's handle back.
START_TEST(device_native_handle_round_trip) {
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urDeviceGetNativeHandle(urc_test_opened.device, &native));
    ur_device_handle_t again = NULL;
    ck_assert_ur_ok(urDeviceCreateWithNativeHandle(native, urc_test_opened.adapter, NULL, &again));
    ck_assert_ptr_eq(again, urc_test_opened.device);
}
END_TEST

void platform_cases_add_backend(TCase *tc, ur_backend_t backend) {
    expected_backend = backend;
    tcase_add_test(tc, platform_backend_and_adapter);
}

void platform_cases_add_native(TCase *tc) {
    tcase_add_test(tc, platform_native_handle_round_trip);
}

void platform_cases_add_device_info(TCase *tc) {
    tcase_add_test(tc, device_info_small_buffer_is_invalid_size);
}

void platform_cases_add_device_native(TCase *tc) {
    tcase_add_test(tc, device_native_handle_round_trip);
}
