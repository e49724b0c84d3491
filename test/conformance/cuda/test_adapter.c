// SPDX-License-Identifier: MIT
// urAdapter* of the CUDA adapter, through the loader. These run everywhere: on a machine
// without a driver or GPU the adapter must still load, and then report no platform.
#include <stdlib.h>
#include <string.h>

#include "cudat.h"

static ur_adapter_handle_t adapter;

static void setup(void) {
    adapter = NULL;
    ck_assert_ur_ok(urLoaderInit(0, NULL));
    uint32_t n = 0;
    ck_assert_ur_ok(urAdapterGet(1, &adapter, &n));
    ck_assert_uint_eq(n, 1);
}

static void teardown(void) {
    if (adapter != NULL)
        urAdapterRelease(adapter);
    urLoaderTearDown();
}

START_TEST(get_returns_the_cuda_adapter) {
    ur_backend_t backend = UR_BACKEND_UNKNOWN;
    ck_assert_ur_ok(
        urAdapterGetInfo(adapter, UR_ADAPTER_INFO_BACKEND, sizeof backend, &backend, NULL));
    ck_assert_int_eq(backend, UR_BACKEND_CUDA);
}
END_TEST

START_TEST(get_info_version_is_one) {
    uint32_t version = 0;
    ck_assert_ur_ok(
        urAdapterGetInfo(adapter, UR_ADAPTER_INFO_VERSION, sizeof version, &version, NULL));
    ck_assert_uint_eq(version, 1);
}
END_TEST

START_TEST(retain_and_release_count) {
    uint32_t before = 0, after = 0;
    ck_assert_ur_ok(
        urAdapterGetInfo(adapter, UR_ADAPTER_INFO_REFERENCE_COUNT, sizeof before, &before, NULL));
    ck_assert_ur_ok(urAdapterRetain(adapter));
    ck_assert_ur_ok(
        urAdapterGetInfo(adapter, UR_ADAPTER_INFO_REFERENCE_COUNT, sizeof after, &after, NULL));
    ck_assert_uint_eq(after, before + 1);
    ck_assert_ur_ok(urAdapterRelease(adapter));
}
END_TEST

START_TEST(get_info_small_buffer_is_invalid_size) {
    uint8_t small = 0;
    ck_assert_ur(urAdapterGetInfo(adapter, UR_ADAPTER_INFO_BACKEND, sizeof small, &small, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
}
END_TEST

START_TEST(get_last_error_succeeds) {
    const char *message = NULL;
    int32_t code = -1;
    ck_assert_ur_ok(urAdapterGetLastError(adapter, &message, &code));
    ck_assert_ptr_nonnull(message);
}
END_TEST

static void log_sink(ur_logger_level_t level, const char *msg, void *data) {
    (void)level;
    (void)msg;
    (void)data;
}

START_TEST(set_logger_callback_succeeds) {
    ck_assert_ur_ok(urAdapterSetLoggerCallback(adapter, log_sink, NULL, UR_LOGGER_LEVEL_ERROR));
    ck_assert_ur_ok(urAdapterSetLoggerCallbackLevel(adapter, UR_LOGGER_LEVEL_WARN));
}
END_TEST

// Without libcuda.so.1 or a GPU the count is 0 and the call still succeeds; with one it is 1.
START_TEST(platform_get_counts_zero_or_one) {
    uint32_t n = 99;
    ck_assert_ur_ok(urPlatformGet(adapter, 0, NULL, &n));
    ck_assert_uint_le(n, 1);
    ur_platform_handle_t platform = NULL;
    ck_assert_ur_ok(urPlatformGet(adapter, 1, &platform, NULL));
    ck_assert(n == 0 ? platform == NULL : platform != NULL);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda adapter");
    TCase *tc = tcase_create("urAdapterGet");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, get_returns_the_cuda_adapter);
    tcase_add_test(tc, platform_get_counts_zero_or_one);
    suite_add_tcase(s, tc);
    tc = tcase_create("urAdapterGetInfo");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, get_info_version_is_one);
    tcase_add_test(tc, get_info_small_buffer_is_invalid_size);
    suite_add_tcase(s, tc);
    tc = tcase_create("urAdapterRetain");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, retain_and_release_count);
    suite_add_tcase(s, tc);
    tc = tcase_create("urAdapterGetLastError");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, get_last_error_succeeds);
    suite_add_tcase(s, tc);
    tc = tcase_create("urAdapterSetLoggerCallback");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, set_logger_callback_succeeds);
    suite_add_tcase(s, tc);
    // No probe: these must pass with or without a device.
    return urc_test_run(s);
}
