// SPDX-License-Identifier: MIT
// Driver failures injected with zeSimFailNext, and the UR results they become: each failure
// gives the documented result, the native code through urAdapterGetLastError, no event for a
// failed command, and a queue that still works afterwards. The leak check of the fixture runs
// after every test, so failure paths release what they made.
#include <stdlib.h>
#include <string.h>

#include "l0t.h"

static int32_t last_native(void) {
    const char *msg = NULL;
    int32_t code = 0;
    ck_assert_ur_ok(urAdapterGetLastError(T.adapter, &msg, &code));
    return code;
}

START_TEST(module_create_failure_is_build_failure_with_log) {
    ur_program_handle_t p = l0t_program("globals.spv", NULL);
    T.sim.FailNext(ZE_SIM_FAIL_MODULE_CREATE, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    ck_assert_ur(urProgramBuild(T.context, p, NULL), UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE);
    ck_assert_int_eq(last_native(), ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    char *log = l0t_log(p);
    ck_assert_ptr_nonnull(strstr(log, "injected failure"));
    free(log);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(module_create_out_of_memory_keeps_its_meaning) {
    ur_program_handle_t p = l0t_program("globals.spv", NULL);
    T.sim.FailNext(ZE_SIM_FAIL_MODULE_CREATE, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    ck_assert_ur(urProgramBuild(T.context, p, NULL), UR_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(kernel_create_failure) {
    ur_program_handle_t p = l0t_built("globals.spv");
    ur_kernel_handle_t k = NULL;
    T.sim.FailNext(ZE_SIM_FAIL_KERNEL_CREATE, ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ck_assert_ur(urKernelCreate(p, "sim_fill", &k), UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ck_assert_ptr_null(k);
    ck_assert_ur_ok(urKernelCreate(p, "sim_fill", &k));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(allocation_failures) {
    void *p = NULL;
    T.sim.FailNext(ZE_SIM_FAIL_MEM_ALLOC, ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ck_assert_ur(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 64, &p),
                 UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ck_assert_int_eq(last_native(), ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ur_mem_handle_t m = NULL;
    T.sim.FailNext(ZE_SIM_FAIL_MEM_ALLOC, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    ck_assert_ur(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 64, NULL, &m),
                 UR_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    ck_assert_ptr_null(m);
    // A code with no UR meaning is ADAPTER_SPECIFIC, and the native code says which.
    T.sim.FailNext(ZE_SIM_FAIL_MEM_ALLOC, ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE);
    ck_assert_ur(urUSMHostAlloc(T.context, NULL, NULL, 64, &p), UR_RESULT_ERROR_ADAPTER_SPECIFIC);
    ck_assert_int_eq(last_native(), ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE);
}
END_TEST

static void *usm(size_t size) {
    void *p = NULL;
    ck_assert_ur_ok(urUSMHostAlloc(T.context, NULL, NULL, size, &p));
    return p;
}

START_TEST(copy_failure_leaves_no_event) {
    int *buf = usm(4 * sizeof(int));
    buf[0] = 1;
    ur_event_handle_t e = NULL;
    T.sim.FailNext(ZE_SIM_FAIL_MEMORY_COPY, ZE_RESULT_ERROR_DEVICE_LOST);
    ck_assert_ur(urEnqueueUSMMemcpy(T.queue, false, &buf[1], &buf[0], sizeof(int), 0, NULL, &e),
                 UR_RESULT_ERROR_DEVICE_LOST);
    ck_assert_ptr_null(e);
    ck_assert_int_eq(last_native(), ZE_RESULT_ERROR_DEVICE_LOST);
    // The queue goes on: the next command and its in-order successor work.
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, &buf[2], &buf[0], sizeof(int), 0, NULL, &e));
    ck_assert_int_eq(buf[2], 1);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

START_TEST(fill_failure_leaves_no_event) {
    int *buf = usm(64);
    int pattern = 5;
    ur_event_handle_t e = NULL;
    T.sim.FailNext(ZE_SIM_FAIL_MEMORY_FILL, ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ck_assert_ur(urEnqueueUSMFill(T.queue, buf, sizeof pattern, &pattern, 64, 0, NULL, &e),
                 UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ck_assert_ptr_null(e);
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

START_TEST(device_global_copy_failure_leaves_no_event) {
    ur_program_handle_t p = l0t_built("device_globals.spv");
    int v = 3;
    ur_event_handle_t e = NULL;
    T.sim.FailNext(ZE_SIM_FAIL_MEMORY_COPY, ZE_RESULT_ERROR_DEVICE_LOST);
    ck_assert_ur(urEnqueueDeviceGlobalVariableWrite(T.queue, p, "uid_dev_var", false, sizeof v, 0,
                                                    &v, 0, NULL, &e),
                 UR_RESULT_ERROR_DEVICE_LOST);
    ck_assert_ptr_null(e);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(launch_failure_leaves_no_event_and_no_launch) {
    ur_program_handle_t p = l0t_built("globals.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "sim_reqd", &k));
    size_t global[2] = {8, 4};
    uint64_t before = T.sim.GetLaunchCount();
    ur_event_handle_t e = NULL;
    T.sim.FailNext(ZE_SIM_FAIL_LAUNCH, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 2, NULL, global, NULL, 0, NULL, NULL,
                                                  0, NULL, &e),
                 UR_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    ck_assert_ptr_null(e);
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_uint_eq(T.sim.GetLaunchCount(), before);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// A batch that cannot execute reports the error, and its events are signalled from the host so
// that nothing waits for them forever.
START_TEST(execute_failure_reports_and_releases_waiters) {
    ur_queue_handle_t q = l0t_queue(UR_QUEUE_FLAG_SUBMISSION_BATCHED);
    int *buf = usm(2 * sizeof(int));
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, false, &buf[1], &buf[0], sizeof(int), 0, NULL, &e));
    T.sim.FailNext(ZE_SIM_FAIL_EXECUTE, ZE_RESULT_ERROR_DEVICE_LOST);
    ck_assert_ur(urQueueFlush(q), UR_RESULT_ERROR_DEVICE_LOST);
    ck_assert_ur_ok(urEventWait(1, &e));
    ck_assert_ur_ok(urQueueFinish(q));
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

START_TEST(context_create_failure) {
    ur_context_handle_t ctx = NULL;
    T.sim.FailNext(ZE_SIM_FAIL_CONTEXT_CREATE, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    ck_assert_ur(urContextCreate(1, &T.device, NULL, &ctx), UR_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    ck_assert_ptr_null(ctx);
}
END_TEST

// Events come from the context's pools; when no pool can be made the command fails cleanly.
START_TEST(event_pool_failure_fails_the_command) {
    ur_context_handle_t ctx = NULL;
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &ctx));
    ck_assert_ur_ok(urQueueCreate(ctx, T.device, NULL, &q));
    int *buf = NULL;
    ck_assert_ur_ok(urUSMHostAlloc(ctx, NULL, NULL, 8, (void **)&buf));
    ur_event_handle_t e = NULL;
    T.sim.FailNext(ZE_SIM_FAIL_EVENT_POOL_CREATE, ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ck_assert_ur(urEnqueueUSMMemcpy(q, true, &buf[1], &buf[0], sizeof(int), 0, NULL, &e),
                 UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ck_assert_ptr_null(e);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, true, &buf[1], &buf[0], sizeof(int), 0, NULL, NULL));
    ck_assert_ur_ok(urUSMFree(ctx, buf));
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur_ok(urContextRelease(ctx));
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("level_zero_faults");
    const urc_test_case_t cases[] = {
        {"urProgramBuild",
         {module_create_failure_is_build_failure_with_log,
          module_create_out_of_memory_keeps_its_meaning}},
        {"urKernelCreate", {kernel_create_failure}},
        {"urUSMAlloc", {allocation_failures}},
        {"urEnqueueUSM", {copy_failure_leaves_no_event, fill_failure_leaves_no_event}},
        {"urEnqueueDeviceGlobalVariableWrite", {device_global_copy_failure_leaves_no_event}},
        {"urEnqueueKernelLaunchWithArgsExp", {launch_failure_leaves_no_event_and_no_launch}},
        {"urQueueFlush", {execute_failure_reports_and_releases_waiters}},
        {"urContextCreate", {context_create_failure}},
        {"EventPools", {event_pool_failure_fails_the_command}},
    };
    urc_test_add_cases(s, l0t_tcase, cases, sizeof cases / sizeof cases[0]);
    return s;
}

int main(void) {
    return l0t_main(suite());
}
