// SPDX-License-Identifier: MIT
// urContext* of the OpenCL adapter, through the loader.
#include "oclt.h"

static uint32_t refcount(ur_context_handle_t c) {
    uint32_t n = 0;
    ck_assert_ur_ok(urContextGetInfo(c, UR_CONTEXT_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    return n;
}

START_TEST(create_and_release) {
    ur_context_handle_t c = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &c));
    ck_assert_ptr_nonnull(c);
    ck_assert_uint_eq(refcount(c), 1);
    ck_assert_ur_ok(urContextRelease(c));
}
END_TEST

START_TEST(create_with_platform_handle_is_invalid_device) {
    ur_context_handle_t c = NULL;
    ur_device_handle_t wrong = (ur_device_handle_t)T.platform;
    ck_assert_ur(urContextCreate(1, &wrong, NULL, &c), UR_RESULT_ERROR_INVALID_DEVICE);
}
END_TEST

START_TEST(retain_increments) {
    ck_assert_ur_ok(urContextRetain(T.context));
    // The user's references only (the fixture's and this one); the queue's is the adapter's.
    ck_assert_uint_eq(refcount(T.context), 2);
    ck_assert_ur_ok(urContextRelease(T.context));
}
END_TEST

START_TEST(release_decrements) {
    ck_assert_ur_ok(urContextRetain(T.context));
    ck_assert_ur_ok(urContextRelease(T.context));
    ck_assert_uint_eq(refcount(T.context), 1);
}
END_TEST

START_TEST(get_info_devices) {
    uint32_t n = 0;
    ur_device_handle_t devices[4] = {NULL};
    size_t size = 0;
    ck_assert_ur_ok(urContextGetInfo(T.context, UR_CONTEXT_INFO_NUM_DEVICES, sizeof n, &n, NULL));
    ck_assert_ur_ok(
        urContextGetInfo(T.context, UR_CONTEXT_INFO_DEVICES, sizeof devices, devices, &size));
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(size, sizeof devices[0]);
    ck_assert_ptr_eq(devices[0], T.device);
}
END_TEST

START_TEST(get_info_usm_2d_follows_usm) {
    ur_bool_t memcpy2d = false, fill2d = false;
    ck_assert_ur_ok(urContextGetInfo(T.context, UR_CONTEXT_INFO_USM_MEMCPY2D_SUPPORT,
                                     sizeof memcpy2d, &memcpy2d, NULL));
    ck_assert_ur_ok(urContextGetInfo(T.context, UR_CONTEXT_INFO_USM_FILL2D_SUPPORT, sizeof fill2d,
                                     &fill2d, NULL));
    ck_assert_int_eq(memcpy2d, T.usm);
    ck_assert_int_eq(fill2d, T.usm);
}
END_TEST

START_TEST(get_info_small_buffer_is_invalid_size) {
    uint8_t n = 0;
    ck_assert_ur(urContextGetInfo(T.context, UR_CONTEXT_INFO_NUM_DEVICES, sizeof n, &n, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
}
END_TEST

START_TEST(native_handle_round_trip) {
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urContextGetNativeHandle(T.context, &native));
    ur_context_handle_t c = NULL;
    ck_assert_ur_ok(urContextCreateWithNativeHandle(native, T.adapter, 1, &T.device, NULL, &c));
    ur_native_handle_t again = 0;
    ck_assert_ur_ok(urContextGetNativeHandle(c, &again));
    ck_assert(again == native);
    ck_assert_ur_ok(urContextRelease(c)); // not owned: the fixture's context stays valid
    uint32_t n = 0;
    ck_assert_ur_ok(urContextGetInfo(T.context, UR_CONTEXT_INFO_NUM_DEVICES, sizeof n, &n, NULL));
}
END_TEST

START_TEST(create_with_native_handle_finds_devices) {
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urContextGetNativeHandle(T.context, &native));
    ur_context_handle_t c = NULL;
    ck_assert_ur_ok(urContextCreateWithNativeHandle(native, T.adapter, 0, NULL, NULL, &c));
    ur_device_handle_t d = NULL;
    ck_assert_ur_ok(urContextGetInfo(c, UR_CONTEXT_INFO_DEVICES, sizeof d, &d, NULL));
    ck_assert_ptr_eq(d, T.device);
    ck_assert_ur_ok(urContextRelease(c));
}
END_TEST

START_TEST(create_with_native_handle_wrong_count_is_invalid_context) {
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urContextGetNativeHandle(T.context, &native));
    ur_device_handle_t two[2] = {T.device, T.device};
    ur_context_handle_t c = NULL;
    ck_assert_ur(urContextCreateWithNativeHandle(native, T.adapter, 2, two, NULL, &c),
                 UR_RESULT_ERROR_INVALID_CONTEXT);
}
END_TEST

static int deleted;

static void on_delete(void *user) {
    *(int *)user += 1;
}

START_TEST(extended_deleter_runs_at_destruction) {
    deleted = 0;
    ur_context_handle_t c = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &c));
    ck_assert_ur_ok(urContextSetExtendedDeleter(c, on_delete, &deleted));
    ck_assert_ur_ok(urContextRetain(c));
    ck_assert_ur_ok(urContextRelease(c));
    ck_assert_int_eq(deleted, 0);
    ck_assert_ur_ok(urContextRelease(c));
    ck_assert_int_eq(deleted, 1);
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl context");
    TCase *tc = oclt_tcase("urContextCreate");
    tcase_add_test(tc, create_and_release);
    tcase_add_test(tc, create_with_platform_handle_is_invalid_device);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urContextRetain");
    tcase_add_test(tc, retain_increments);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urContextRelease");
    tcase_add_test(tc, release_decrements);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urContextGetInfo");
    tcase_add_test(tc, get_info_devices);
    tcase_add_test(tc, get_info_usm_2d_follows_usm);
    tcase_add_test(tc, get_info_small_buffer_is_invalid_size);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urContextGetNativeHandle");
    tcase_add_test(tc, native_handle_round_trip);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urContextCreateWithNativeHandle");
    tcase_add_test(tc, create_with_native_handle_finds_devices);
    tcase_add_test(tc, create_with_native_handle_wrong_count_is_invalid_context);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urContextSetExtendedDeleter");
    tcase_add_test(tc, extended_deleter_runs_at_destruction);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
