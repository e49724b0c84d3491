// SPDX-License-Identifier: MIT
// urAdapter* of the OpenCL adapter, through the loader.
#include <stdint.h>
#include <string.h>

#include "oclt.h"

START_TEST(get_returns_one_adapter) {
    uint32_t n = 0;
    ck_assert_ur_ok(urAdapterGet(0, NULL, &n));
    ck_assert_uint_eq(n, 1);
}
END_TEST

START_TEST(get_info_backend_is_opencl) {
    ur_backend_t backend = UR_BACKEND_UNKNOWN;
    ck_assert_ur_ok(
        urAdapterGetInfo(T.adapter, UR_ADAPTER_INFO_BACKEND, sizeof backend, &backend, NULL));
    ck_assert_int_eq(backend, UR_BACKEND_OPENCL);
}
END_TEST

START_TEST(get_info_size_query) {
    size_t size = 0;
    ck_assert_ur_ok(urAdapterGetInfo(T.adapter, UR_ADAPTER_INFO_VERSION, 0, NULL, &size));
    ck_assert_uint_eq(size, sizeof(uint32_t));
}
END_TEST

START_TEST(get_info_larger_buffer_accepted) {
    uint64_t big = 0;
    size_t size = 0;
    ck_assert_ur_ok(urAdapterGetInfo(T.adapter, UR_ADAPTER_INFO_VERSION, sizeof big, &big, &size));
    ck_assert_uint_eq(size, sizeof(uint32_t));
    ck_assert_uint_eq((uint32_t)big, 1);
}
END_TEST

START_TEST(get_info_small_buffer_is_invalid_size) {
    uint8_t small = 0;
    ck_assert_ur(urAdapterGetInfo(T.adapter, UR_ADAPTER_INFO_BACKEND, sizeof small, &small, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
}
END_TEST

static uint32_t refcount(void) {
    uint32_t n = 0;
    ck_assert_ur_ok(
        urAdapterGetInfo(T.adapter, UR_ADAPTER_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    return n;
}

START_TEST(retain_increments_reference_count) {
    uint32_t before = refcount();
    ck_assert_ur_ok(urAdapterRetain(T.adapter));
    ck_assert_uint_eq(refcount(), before + 1);
    ck_assert_ur_ok(urAdapterRelease(T.adapter));
}
END_TEST

START_TEST(release_decrements_reference_count) {
    ck_assert_ur_ok(urAdapterRetain(T.adapter));
    uint32_t before = refcount();
    ck_assert_ur_ok(urAdapterRelease(T.adapter));
    ck_assert_uint_eq(refcount(), before - 1);
}
END_TEST

START_TEST(last_error_names_native_failure) {
    // A buffer larger than any device allows: OpenCL's CL_INVALID_BUFFER_SIZE (-61).
    ur_mem_handle_t m = NULL;
    ck_assert_ur(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, SIZE_MAX / 2, NULL, &m),
                 UR_RESULT_ERROR_INVALID_BUFFER_SIZE);
    const char *message = NULL;
    int32_t native = 0;
    ck_assert_ur_ok(urAdapterGetLastError(T.adapter, &message, &native));
    ck_assert_int_eq(native, -61);
    ck_assert_ptr_nonnull(strstr(message, "CL_INVALID_BUFFER_SIZE"));
}
END_TEST

static int calls;
static char last_message[512];

static void on_log(ur_logger_level_t level, const char *msg, void *user) {
    (void)level;
    *(int *)user += 1;
    strncpy(last_message, msg, sizeof last_message - 1);
}

START_TEST(logger_callback_receives_warnings) {
    calls = 0;
    ck_assert_ur_ok(urAdapterSetLoggerCallback(T.adapter, on_log, &calls, UR_LOGGER_LEVEL_WARN));
    ur_mem_handle_t m = NULL;
    urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, SIZE_MAX / 2, NULL, &m);
    ck_assert_int_ge(calls, 1);
    ck_assert_ptr_nonnull(strstr(last_message, "clCreateBuffer"));
}
END_TEST

START_TEST(logger_callback_level_quiet_silences) {
    calls = 0;
    ck_assert_ur_ok(urAdapterSetLoggerCallback(T.adapter, on_log, &calls, UR_LOGGER_LEVEL_WARN));
    ck_assert_ur_ok(urAdapterSetLoggerCallbackLevel(T.adapter, UR_LOGGER_LEVEL_QUIET));
    ur_mem_handle_t m = NULL;
    urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, SIZE_MAX / 2, NULL, &m);
    ck_assert_int_eq(calls, 0);
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl adapter");
    TCase *tc = oclt_tcase("urAdapterGet");
    tcase_add_test(tc, get_returns_one_adapter);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urAdapterGetInfo");
    tcase_add_test(tc, get_info_backend_is_opencl);
    tcase_add_test(tc, get_info_size_query);
    tcase_add_test(tc, get_info_larger_buffer_accepted);
    tcase_add_test(tc, get_info_small_buffer_is_invalid_size);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urAdapterRetain");
    tcase_add_test(tc, retain_increments_reference_count);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urAdapterRelease");
    tcase_add_test(tc, release_decrements_reference_count);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urAdapterGetLastError");
    tcase_add_test(tc, last_error_names_native_failure);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urAdapterSetLoggerCallback");
    tcase_add_test(tc, logger_callback_receives_warnings);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urAdapterSetLoggerCallbackLevel");
    tcase_add_test(tc, logger_callback_level_quiet_silences);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
