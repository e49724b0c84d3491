// SPDX-License-Identifier: MIT
// urContext* of the CUDA adapter, through the loader.
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cudat.h"

START_TEST(create_and_get_info) {
    ur_context_handle_t ctx = NULL;
    uint32_t n = 0, refs = 0;
    ur_device_handle_t dev = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &ctx));
    ck_assert_ur_ok(urContextGetInfo(ctx, UR_CONTEXT_INFO_NUM_DEVICES, sizeof n, &n, NULL));
    ck_assert_ur_ok(urContextGetInfo(ctx, UR_CONTEXT_INFO_DEVICES, sizeof dev, &dev, NULL));
    ck_assert_ur_ok(
        urContextGetInfo(ctx, UR_CONTEXT_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_uint_eq(n, 1);
    ck_assert_ptr_eq(dev, T.device);
    ck_assert_uint_eq(refs, 1);
    ck_assert_ur_ok(urContextRelease(ctx));
}
END_TEST

// The fixture's queue holds a reference of its own.
START_TEST(retain_counts) {
    uint32_t before = 0, refs = 0;
    ck_assert_ur_ok(
        urContextGetInfo(T.context, UR_CONTEXT_INFO_REFERENCE_COUNT, sizeof before, &before, NULL));
    ck_assert_ur_ok(urContextRetain(T.context));
    ck_assert_ur_ok(
        urContextGetInfo(T.context, UR_CONTEXT_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_uint_eq(refs, before + 1);
    ck_assert_ur_ok(urContextRelease(T.context));
}
END_TEST

static int deleted;
static void deleter(void *data) {
    deleted += *(int *)data;
}

START_TEST(extended_deleter_runs_at_last_release) {
    static int one = 1;
    ur_context_handle_t ctx = NULL;
    deleted = 0;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &ctx));
    ck_assert_ur_ok(urContextSetExtendedDeleter(ctx, deleter, &one));
    ck_assert_ur_ok(urContextRetain(ctx));
    ck_assert_ur_ok(urContextRelease(ctx));
    ck_assert_int_eq(deleted, 0);
    ck_assert_ur_ok(urContextRelease(ctx));
    ck_assert_int_eq(deleted, 1);
}
END_TEST

START_TEST(native_handle_is_primary_context_and_wraps_back) {
    ur_native_handle_t native = 0;
    ur_context_handle_t ctx = NULL;
    ck_assert_ur_ok(urContextGetNativeHandle(T.context, &native));
    ck_assert_uint_ne(native, 0);
    ck_assert_ur_ok(urContextCreateWithNativeHandle(native, T.adapter, 1, &T.device, NULL, &ctx));
    ck_assert_ur_ok(urContextRelease(ctx));
}
END_TEST

START_TEST(usm_2d_support_reported) {
    ur_bool_t memcpy2d = 0, fill2d = 0;
    ck_assert_ur_ok(urContextGetInfo(T.context, UR_CONTEXT_INFO_USM_MEMCPY2D_SUPPORT,
                                     sizeof memcpy2d, &memcpy2d, NULL));
    ck_assert_ur_ok(urContextGetInfo(T.context, UR_CONTEXT_INFO_USM_FILL2D_SUPPORT, sizeof fill2d,
                                     &fill2d, NULL));
    ck_assert(memcpy2d && fill2d);
}
END_TEST

// After the driver has shut down (at process exit, before urc's teardown) calls fail with
// CUDA_ERROR_DEINITIALIZED silently, and the message names the error from urc's own table.
// Only the simulated driver can shut down on demand; on a real one the test has nothing to do.
START_TEST(driver_shutdown_is_silent) {
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    void (*shutdown)(void) = NULL, (*revive)(void) = NULL;
    if (cuda != NULL) {
        *(void **)&shutdown = dlsym(cuda, "cuda_sim_shutdown");
        *(void **)&revive = dlsym(cuda, "cuda_sim_revive");
    }
    if (shutdown == NULL || revive == NULL) {
        if (cuda != NULL)
            dlclose(cuda);
        return;
    }
    // urQueueCreate calls no driver function (streams are made on first use); asking for the
    // native stream makes one.
    ur_queue_handle_t queue = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &queue));
    FILE *err = tmpfile();
    ck_assert_ptr_nonnull(err);
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(err), 2);
    shutdown();
    ur_native_handle_t stream = 0;
    ur_result_t r = urQueueGetNativeHandle(queue, NULL, &stream);
    char message_copy[512] = "";
    const char *message = NULL;
    int32_t code = 0;
    if (urAdapterGetLastError(T.adapter, &message, &code) == UR_RESULT_SUCCESS && message != NULL)
        snprintf(message_copy, sizeof message_copy, "%s", message);
    fflush(stderr);
    // Back to life, so the fixture's teardown frees everything as usual.
    revive();
    ck_assert_ur_ok(urQueueRelease(queue));
    dup2(saved, 2);
    close(saved);
    ck_assert_int_ne(r, UR_RESULT_SUCCESS);
    char text[512] = "";
    rewind(err);
    size_t n = fread(text, 1, sizeof text - 1, err);
    text[n] = '\0';
    fclose(err);
    ck_assert_msg(n == 0, "stderr after the driver shut down: %s", text);
    if (r == UR_RESULT_ERROR_ADAPTER_SPECIFIC || r == UR_RESULT_ERROR_UNINITIALIZED)
        ck_assert_msg(strstr(message_copy, "CUDA_ERROR_DEINITIALIZED (4)") != NULL,
                      "last error: %s", message_copy);
    dlclose(cuda);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda context");
    TCase *tc = cudat_tcase("urContextCreate");
    tcase_add_test(tc, create_and_get_info);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urContextRetain");
    tcase_add_test(tc, retain_counts);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urContextSetExtendedDeleter");
    tcase_add_test(tc, extended_deleter_runs_at_last_release);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urContextGetNativeHandle");
    tcase_add_test(tc, native_handle_is_primary_context_and_wraps_back);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urContextGetInfo");
    tcase_add_test(tc, usm_2d_support_reported);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("driver shutdown");
    tcase_add_test(tc, driver_shutdown_is_silent);
    suite_add_tcase(s, tc);
    return cudat_main(s, false);
}
