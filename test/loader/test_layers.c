// SPDX-License-Identifier: MIT
// urc's layers through the real loader and fake adapter A: tracing prints UR's two lines per
// call with the arguments, result and duration to UR_LOG_TRACING's sink; the leak checker
// reports at the last urLoaderTearDown what is still alive and flags a use after the last
// release; URC_TRACE_FILE writes a well-formed Chrome trace with one slice per call, the
// slices of one thread one after another.
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader_test.h"
#include "urc_trace_check.h"

// The first device of fake A.
static ur_device_handle_t first_device(void) {
    ur_platform_handle_t platform = lt_platform_of(UR_BACKEND_OPENCL);
    ck_assert_ptr_nonnull(platform);
    ur_device_handle_t dev = NULL;
    ck_assert_int_eq(urDeviceGet(platform, UR_DEVICE_TYPE_ALL, 1, &dev, NULL), UR_RESULT_SUCCESS);
    return dev;
}

// Runs `body` with stderr going to `path`.
static void with_stderr_to(const char *path, void (*body)(void)) {
    fflush(stderr);
    int saved = dup(2);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    dup2(fd, 2);
    close(fd);
    body();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
}

START_TEST(tracing_prints_calls_to_the_sink) {
    char dir[512], log[600], spec[700];
    lt_temp_dir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/trace.log", dir);
    snprintf(spec, sizeof spec, "level:info;output:file,%s", log);
    lt_setenv("UR_LOG_TRACING", spec);
    lt_setenv("UR_ENABLE_LAYERS", "UR_LAYER_TRACING");
    lt_init_forced(FAKE_A);
    ur_device_handle_t dev = first_device();
    ur_device_type_t type;
    ck_assert_int_eq(urDeviceGetInfo(dev, UR_DEVICE_INFO_TYPE, sizeof type, &type, NULL),
                     UR_RESULT_SUCCESS);
    ck_assert_int_eq(urDeviceGetInfo(NULL, UR_DEVICE_INFO_TYPE, sizeof type, &type, NULL),
                     UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_int_eq(urLoaderTearDown(), UR_RESULT_SUCCESS);
    const char *text = lt_read_file(log);
    ck_assert_ptr_nonnull(strstr(text, "   ---> urDeviceGet\n"));
    char want[256];
    snprintf(
        want, sizeof want,
        "   <--- urDeviceGetInfo(.hDevice = %p, .propName = UR_DEVICE_INFO_TYPE, .propSize = 4, "
        ".pPropValue = %p (",
        (void *)dev, (void *)&type);
    ck_assert_msg(strstr(text, want) != NULL, "no line starting %s in:\n%s", want, text);
    ck_assert_ptr_nonnull(strstr(text, ") -> UR_RESULT_SUCCESS; ("));
    ck_assert_ptr_nonnull(strstr(
        text, "   <--- urDeviceGetInfo(.hDevice = nullptr, .propName = UR_DEVICE_INFO_TYPE"));
    ck_assert_ptr_nonnull(strstr(text, ") -> UR_RESULT_ERROR_INVALID_NULL_HANDLE; ("));
    ck_assert_ptr_nonnull(strstr(text, " us)\n"));
}
END_TEST

START_TEST(tracing_off_prints_nothing) {
    char dir[512], log[600], spec[700];
    lt_temp_dir(dir, sizeof dir);
    snprintf(log, sizeof log, "%s/trace.log", dir);
    snprintf(spec, sizeof spec, "level:info;output:file,%s", log);
    lt_setenv("UR_LOG_TRACING", spec);
    lt_init_forced(FAKE_A);
    (void)first_device();
    ck_assert_int_eq(urLoaderTearDown(), UR_RESULT_SUCCESS);
    ck_assert_str_eq(lt_read_file(log), "");
}
END_TEST

static ur_context_handle_t leaked;

static void leak_and_misuse(void) {
    fake_api_t a;
    lt_init_forced(FAKE_A);
    ck_assert(fake_api_open(FAKE_A, &a));
    ur_device_handle_t dev = first_device();
    // The fake writes no handle; the one already in the output is what "comes back".
    ur_context_handle_t ctx = a.generic_handle();
    ck_assert_int_eq(urContextCreate(1, &dev, NULL, &ctx), UR_RESULT_SUCCESS);
    ck_assert_int_eq(urContextRetain(ctx), UR_RESULT_SUCCESS);
    ck_assert_int_eq(urContextRelease(ctx), UR_RESULT_SUCCESS);
    leaked = ctx;
    // A barrier that gives back the event it was given signalled a reusable event: it made
    // nothing to track (the fake leaves the output as it is).
    ur_event_handle_t reused = (ur_event_handle_t)a.generic_handle();
    ck_assert_int_eq(urEnqueueEventsWaitWithBarrierExt((ur_queue_handle_t)a.generic_handle(), NULL,
                                                       0, NULL, &reused),
                     UR_RESULT_SUCCESS);
    ck_assert_int_eq(urDeviceRelease(dev), UR_RESULT_SUCCESS);
    // One release too many, and a use after the last: the fake answers as it likes.
    (void)urDeviceRelease(dev);
    uint32_t n;
    (void)urDeviceGetInfo(dev, UR_DEVICE_INFO_REFERENCE_COUNT, sizeof n, &n, NULL);
    ck_assert_int_eq(urLoaderTearDown(), UR_RESULT_SUCCESS);
    fake_api_close(&a);
}

START_TEST(leaks_reported_at_teardown) {
    char dir[512], err[600];
    lt_temp_dir(dir, sizeof dir);
    snprintf(err, sizeof err, "%s/stderr", dir);
    lt_setenv("UR_ENABLE_LAYERS", _i == 0 ? "UR_LAYER_LEAK_CHECKING" : "UR_LAYER_FULL_VALIDATION");
    with_stderr_to(err, leak_and_misuse);
    const char *text = lt_read_file(err);
    char want[256];
    snprintf(want, sizeof want, "context %p: 1 reference(s), created by urContextCreate",
             (void *)leaked);
    ck_assert_msg(strstr(text, want) != NULL, "no '%s' in:\n%s", want, text);
    // lt_platform_of keeps its adapter on purpose (a fake's objects live with its library).
    ck_assert_ptr_nonnull(strstr(text, "leak check: 2 handle(s) still alive at teardown"));
    ck_assert_ptr_nonnull(strstr(text, "reference(s), created by urAdapterGet"));
    ck_assert_ptr_nonnull(strstr(text, "urDeviceRelease: device"));
    ck_assert_ptr_nonnull(strstr(text, "urDeviceGetInfo: device"));
    ck_assert_ptr_nonnull(strstr(text, "used after its last release"));
}
END_TEST

START_TEST(no_report_without_the_layer) {
    char dir[512], err[600];
    lt_temp_dir(dir, sizeof dir);
    snprintf(err, sizeof err, "%s/stderr", dir);
    with_stderr_to(err, leak_and_misuse);
    ck_assert_ptr_null(strstr(lt_read_file(err), "last release"));
}
END_TEST

START_TEST(timeline_is_a_chrome_trace) {
    char dir[512], path[600];
    lt_temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/timeline.json", dir);
    lt_setenv("URC_TRACE_FILE", path);
    lt_init_forced(FAKE_A);
    ur_device_handle_t dev = first_device();
    for (int i = 0; i < 5; ++i) {
        ur_device_type_t type;
        ck_assert_int_eq(urDeviceGetInfo(dev, UR_DEVICE_INFO_TYPE, sizeof type, &type, NULL),
                         UR_RESULT_SUCCESS);
    }
    ck_assert_int_eq(urLoaderTearDown(), UR_RESULT_SUCCESS);
    urc_trace_counts_t counts = urc_check_trace(path);
    ck_assert_uint_ge(counts.calls, 6);   // urPlatformGet, urDeviceGet, 5 x urDeviceGetInfo...
    ck_assert_uint_eq(counts.devices, 0); // the fake runs no commands
    ck_assert_ptr_nonnull(strstr(lt_read_file(path), "\"name\":\"urDeviceGetInfo\""));
}
END_TEST

int main(void) {
    Suite *s = suite_create("loader_layers");
    TCase *tc = lt_tcase("tracing");
    tcase_add_test(tc, tracing_prints_calls_to_the_sink);
    tcase_add_test(tc, tracing_off_prints_nothing);
    suite_add_tcase(s, tc);
    tc = lt_tcase("leaks");
    tcase_add_loop_test(tc, leaks_reported_at_teardown, 0, 2);
    tcase_add_test(tc, no_report_without_the_layer);
    suite_add_tcase(s, tc);
    tc = lt_tcase("timeline");
    tcase_add_test(tc, timeline_is_a_chrome_trace);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
