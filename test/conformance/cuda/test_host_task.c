// SPDX-License-Identifier: MIT
// urEnqueueHostTaskExp (cuLaunchHostFunc) and urEnqueueNativeCommandExp of the CUDA adapter:
// host functions in stream order between kernels, after their wait lists, with events; the
// caller's own CUDA work in order. Runs on a GPU and on the simulated driver.
// The cases every adapter shares are in ../common/host_task_cases.c.
#include <dlfcn.h>
#include <stdatomic.h>
#include <string.h>

#include <cuda.h>

#include "cudat.h"
#include "../common/host_task_cases.h"

enum { N = 256 };

static void times_ten(void *p) {
    int *data = p;
    for (int i = 0; i < N; ++i)
        data[i] *= 10;
}

// add_value(+1) then task(*10), five times, on shared memory: each task sees the kernel before
// it and the next kernel sees what the task wrote.
START_TEST(host_tasks_interleave_with_kernels) {
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(T.program, "add_value", &k));
    int *data = NULL;
    ck_assert_ur_ok(
        urUSMSharedAlloc(T.context, T.device, NULL, NULL, N * sizeof(int), (void **)&data));
    memset(data, 0, N * sizeof(int));
    static host_task_log_t log;
    static host_task_t tasks[5];
    atomic_init(&log.next, 0);
    log.data = data;
    int one = 1, expect = 0, expect_seen[5];
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, data),
                                              cudat_arg_value(1, &one, sizeof one)};
    size_t local = 64;
    for (int i = 0; i < 5; ++i) {
        ck_assert_ur_ok(cudat_launch(T.queue, k, N, &local, 2, args, 0, NULL, NULL));
        expect += 1;
        expect_seen[i] = expect;
        tasks[i] = (host_task_t){&log, i};
        ck_assert_ur_ok(
            urEnqueueHostTaskExp(T.queue, host_task_record, &tasks[i], NULL, 0, NULL, NULL));
        ck_assert_ur_ok(urEnqueueHostTaskExp(T.queue, times_ten, data, NULL, 0, NULL, NULL));
        expect *= 10;
    }
    ck_assert_ur_ok(urQueueFinish(T.queue));
    for (int i = 0; i < 5; ++i)
        ck_assert_int_eq(log.seen[i], expect_seen[i]);
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(data[i], expect);
    ck_assert_ur_ok(urUSMFree(T.context, data));
    ck_assert_ur_ok(urKernelRelease(k));
}
END_TEST

typedef CUresult (*memset_fn)(CUdeviceptr, unsigned int, size_t, CUstream);

typedef struct native_t {
    int *dst;
    memset_fn memset32;
    CUresult r;
} native_t;

static void fill_natively(ur_queue_handle_t q, void *p) {
    native_t *n = p;
    ur_native_handle_t stream = 0;
    urQueueGetNativeHandle(q, NULL, &stream);
    n->r = n->memset32((CUdeviceptr)(uintptr_t)n->dst, 7, N, (CUstream)stream);
}

// A UR fill, the native memset after it, then a UR copy back: the native 7 wins.
START_TEST(native_command_runs_in_order) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    ck_assert_ptr_nonnull(lib);
    native_t n = {NULL, (memset_fn)dlsym(lib, "cuMemsetD32Async"), CUDA_ERROR_UNKNOWN};
    ck_assert_ptr_nonnull(n.memset32);
    ck_assert_ur_ok(
        urUSMDeviceAlloc(T.context, T.device, NULL, NULL, N * sizeof(int), (void **)&n.dst));
    int zero = 0, out[N];
    ck_assert_ur_ok(
        urEnqueueUSMFill(T.queue, n.dst, sizeof zero, &zero, N * sizeof(int), 0, NULL, NULL));
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(
        urEnqueueNativeCommandExp(T.queue, fill_natively, &n, 0, NULL, NULL, 0, NULL, &ev));
    ck_assert_int_eq(n.r, CUDA_SUCCESS);
    ck_assert_int_eq(cudat_event_command(ev), UR_COMMAND_ENQUEUE_NATIVE_EXP);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, n.dst, sizeof out, 0, NULL, NULL));
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], 7);
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(urUSMFree(T.context, n.dst));
    dlclose(lib);
}
END_TEST

// Timestamps on a queue without profiling: the event carries the time, later ones are later.
START_TEST(timestamps_record_device_time) {
    ur_bool_t b = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_TIMESTAMP_RECORDING_SUPPORT_EXP,
                                    sizeof b, &b, NULL));
    ck_assert_int_eq(b, 1);
    ur_event_handle_t first = NULL, second = NULL;
    ck_assert_ur_ok(urEnqueueTimestampRecordingExp(T.queue, false, 0, NULL, &first));
    ck_assert_ur_ok(urEnqueueTimestampRecordingExp(T.queue, true, 1, &first, &second));
    ck_assert_int_eq(cudat_event_command(second), UR_COMMAND_TIMESTAMP_RECORDING_EXP);
    uint64_t s1 = 0, e1 = 0, s2 = 0, e2 = 0;
    ck_assert_ur_ok(
        urEventGetProfilingInfo(first, UR_PROFILING_INFO_COMMAND_START, sizeof s1, &s1, NULL));
    ck_assert_ur_ok(
        urEventGetProfilingInfo(first, UR_PROFILING_INFO_COMMAND_END, sizeof e1, &e1, NULL));
    ck_assert_ur_ok(
        urEventGetProfilingInfo(second, UR_PROFILING_INFO_COMMAND_START, sizeof s2, &s2, NULL));
    ck_assert_ur_ok(
        urEventGetProfilingInfo(second, UR_PROFILING_INFO_COMMAND_END, sizeof e2, &e2, NULL));
    ck_assert_uint_gt(s1, 0);
    ck_assert_uint_le(s1, e1);
    ck_assert_uint_le(e1, s2);
    ck_assert_uint_le(s2, e2);
    ck_assert_ur_ok(urEventRelease(first));
    ck_assert_ur_ok(urEventRelease(second));
}
END_TEST

// urDeviceWaitExp returns after the work of every queue of the device.
START_TEST(device_wait_waits_for_every_queue) {
    ur_queue_handle_t q2 = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &q2));
    static atomic_int a, b;
    atomic_init(&a, 0);
    atomic_init(&b, 0);
    ck_assert_ur_ok(urEnqueueHostTaskExp(T.queue, host_task_set_flag, &a, NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueHostTaskExp(q2, host_task_set_flag, &b, NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urDeviceWaitExp(T.device));
    ck_assert_int_eq(atomic_load(&a), 1);
    ck_assert_int_eq(atomic_load(&b), 1);
    ck_assert_ur(urDeviceWaitExp((ur_device_handle_t)T.queue), UR_RESULT_ERROR_INVALID_DEVICE);
    ck_assert_ur_ok(urQueueRelease(q2));
}
END_TEST

// The shared cases run on this suite's handles.
static void bind(void) {
    host_task_cases_bind(T.context, T.device, T.queue);
}

int main(void) {
    Suite *s = suite_create("cuda_host_task");
    TCase *tc = cudat_program_tcase("urEnqueueHostTaskExp");
    tcase_add_checked_fixture(tc, bind, NULL);
    host_task_cases_add(tc);
    tcase_add_test(tc, host_tasks_interleave_with_kernels);
    host_task_cases_add_wait_list(tc);
    tcase_add_test(tc, native_command_runs_in_order);
    tcase_add_test(tc, timestamps_record_device_time);
    tcase_add_test(tc, device_wait_waits_for_every_queue);
    suite_add_tcase(s, tc);
    return cudat_main(s, true);
}
