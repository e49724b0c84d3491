// SPDX-License-Identifier: MIT
// urEnqueueHostTaskExp, urEnqueueNativeCommandExp, urEnqueueTimestampRecordingExp and
// urDeviceWaitExp of the OpenCL adapter: host functions run in queue order between kernels,
// after their wait lists, with events; native commands run the caller's OpenCL work in order;
// timestamps carry device times also on queues without profiling; a device wait finishes every
// queue of the device. The cases every adapter shares are in ../common/host_task_cases.c.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdatomic.h>
#include <string.h>

#include "../common/host_task_cases.h"
#include "oclt.h"

enum { N = 64 };

static void bump(void *p) {
    int *data = p;
    for (int i = 0; i < N; ++i)
        data[i] *= 10;
}

// Kernel, task, kernel, task... on shared USM: each task sees the kernels before it, and the
// kernels after it see what it wrote. ((1 + 1) * 10 + 1) * 10 ... checked every step.
START_TEST(host_tasks_interleave_with_kernels) {
    if (!T.usm)
        return;
    ur_program_handle_t p = oclt_built_program("add_one");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_one", &k));
    int *data = NULL;
    ck_assert_ur_ok(
        urUSMSharedAlloc(T.context, T.device, NULL, NULL, N * sizeof(int), (void **)&data));
    memset(data, 0, N * sizeof(int));
    static host_task_log_t log;
    static host_task_t tasks[5];
    atomic_init(&log.next, 0);
    log.data = data;
    ur_exp_kernel_arg_properties_t arg = urc_test_arg_pointer(0, data);
    size_t global = N;
    int expect = 0;
    int expect_seen[5];
    for (int i = 0; i < 5; ++i) {
        ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL, 1,
                                                         &arg, NULL, 0, NULL, NULL));
        expect += 1;
        tasks[i] = (host_task_t){&log, i};
        expect_seen[i] = expect;
        ck_assert_ur_ok(
            urEnqueueHostTaskExp(T.queue, host_task_record, &tasks[i], NULL, 0, NULL, NULL));
        ck_assert_ur_ok(urEnqueueHostTaskExp(T.queue, bump, data, NULL, 0, NULL, NULL));
        expect *= 10;
    }
    ck_assert_ur_ok(urQueueFinish(T.queue));
    for (int i = 0; i < 5; ++i)
        ck_assert_int_eq(log.seen[i], expect_seen[i]);
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(data[i], expect);
    ck_assert_ur_ok(urUSMFree(T.context, data));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

typedef struct native_t {
    ur_mem_handle_t mem;
    cl_int err;
} native_t;

static void fill_natively(ur_queue_handle_t q, void *p) {
    native_t *n = p;
    ur_native_handle_t nq = 0, nmem = 0;
    urQueueGetNativeHandle(q, NULL, &nq);
    urMemGetNativeHandle(n->mem, T.device, &nmem);
    cl_mem m = (cl_mem)nmem;
    int pattern = 7;
    n->err = clEnqueueFillBuffer((cl_command_queue)nq, m, &pattern, sizeof pattern, 0,
                                 N * sizeof(int), 0, NULL, NULL);
}

// A UR fill, the native fill after it, then a UR read: the native fill's 7 wins.
START_TEST(native_command_runs_in_order) {
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(
        urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, N * sizeof(int), NULL, &m));
    int zero = 0, out[N];
    ur_event_handle_t fill = NULL, ev = NULL;
    ck_assert_ur_ok(
        urEnqueueMemBufferFill(T.queue, m, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, &fill));
    native_t n = {m, -1};
    ck_assert_ur_ok(
        urEnqueueNativeCommandExp(T.queue, fill_natively, &n, 1, &m, NULL, 1, &fill, &ev));
    ck_assert_int_eq(n.err, CL_SUCCESS);
    ur_command_t type = 0;
    ck_assert_ur_ok(urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_TYPE, sizeof type, &type, NULL));
    ck_assert_int_eq(type, UR_COMMAND_ENQUEUE_NATIVE_EXP);
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, m, true, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], 7);
    ck_assert_ur_ok(urEventRelease(fill));
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

// ---- timestamps ----

static uint64_t profile(ur_event_handle_t ev, ur_profiling_info_t what) {
    uint64_t v = 0;
    ck_assert_ur_ok(urEventGetProfilingInfo(ev, what, sizeof v, &v, NULL));
    return v;
}

static ur_event_status_t status_of(ur_event_handle_t ev) {
    ur_event_status_t st = UR_EVENT_STATUS_ERROR;
    ck_assert_ur_ok(
        urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    return st;
}

// Three timestamps around a fill, the last one blocking: each event carries device times, in
// the queue's order, whether or not the queue has profiling. UR's rule (its conformance suite
// checks it): QUEUED and SUBMIT are the call's time, START and END the one instant it ran.
static void check_timestamps(ur_queue_handle_t q) {
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(
        urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, N * sizeof(int), NULL, &m));
    ur_event_handle_t ts[3] = {NULL, NULL, NULL};
    int one = 1;
    ck_assert_ur_ok(urEnqueueTimestampRecordingExp(q, false, 0, NULL, &ts[0]));
    ck_assert_ur_ok(
        urEnqueueMemBufferFill(q, m, &one, sizeof one, 0, N * sizeof(int), 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueTimestampRecordingExp(q, false, 1, &ts[0], &ts[1]));
    ck_assert_ur_ok(urEnqueueTimestampRecordingExp(q, true, 0, NULL, &ts[2]));
    ck_assert_int_eq(status_of(ts[2]), UR_EVENT_STATUS_COMPLETE);
    uint64_t last_end = 0;
    for (int i = 0; i < 3; ++i) {
        ur_command_t type = 0;
        ck_assert_ur_ok(
            urEventGetInfo(ts[i], UR_EVENT_INFO_COMMAND_TYPE, sizeof type, &type, NULL));
        ck_assert_int_eq(type, UR_COMMAND_TIMESTAMP_RECORDING_EXP);
        ur_queue_handle_t owner = NULL;
        ck_assert_ur_ok(
            urEventGetInfo(ts[i], UR_EVENT_INFO_COMMAND_QUEUE, sizeof owner, &owner, NULL));
        ck_assert_ptr_eq(owner, q);
        ck_assert_ur_ok(urEventWait(1, &ts[i]));
        uint64_t queued = profile(ts[i], UR_PROFILING_INFO_COMMAND_QUEUED);
        uint64_t start = profile(ts[i], UR_PROFILING_INFO_COMMAND_START);
        uint64_t end = profile(ts[i], UR_PROFILING_INFO_COMMAND_END);
        ck_assert_uint_gt(queued, 0);
        ck_assert_uint_eq(profile(ts[i], UR_PROFILING_INFO_COMMAND_SUBMIT), queued);
        ck_assert_uint_eq(start, end);
        ck_assert_uint_gt(start, 0);
        ck_assert_uint_le(queued, start);
        ck_assert_uint_le(start, end);
        ck_assert_uint_le(last_end, start);
        last_end = end;
    }
    for (int i = 0; i < 3; ++i)
        ck_assert_ur_ok(urEventRelease(ts[i]));
    ck_assert_ur_ok(urMemRelease(m));
}

START_TEST(timestamps_without_profiling) {
    check_timestamps(T.queue);
}
END_TEST

START_TEST(timestamps_with_profiling) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_PROFILING_ENABLE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    check_timestamps(q);
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

START_TEST(timestamps_on_out_of_order_queue) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    check_timestamps(q);
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

// A user event of OpenCL's own, wrapped (owned) as a UR event.
static ur_event_handle_t user_event(cl_event *cl) {
    ur_native_handle_t ctx = 0;
    ck_assert_ur_ok(urContextGetNativeHandle(T.context, &ctx));
    cl_int err = CL_SUCCESS;
    *cl = clCreateUserEvent((cl_context)ctx, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    ur_event_native_properties_t props = {UR_STRUCTURE_TYPE_EVENT_NATIVE_PROPERTIES, NULL, true};
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(urEventCreateWithNativeHandle((ur_native_handle_t)*cl, T.context, &props, &ev));
    return ev;
}

// A timestamp behind a user event records when the event completes, after an earlier one.
START_TEST(timestamp_waits_for_its_wait_list) {
    cl_event gate_cl = NULL;
    ur_event_handle_t gate = user_event(&gate_cl);
    ur_event_handle_t before = NULL, ts = NULL;
    ck_assert_ur_ok(urEnqueueTimestampRecordingExp(T.queue, true, 0, NULL, &before));
    ck_assert_ur_ok(urEnqueueTimestampRecordingExp(T.queue, false, 1, &gate, &ts));
    ck_assert_int_ne(status_of(ts), UR_EVENT_STATUS_COMPLETE);
    ck_assert_int_eq(clSetUserEventStatus(gate_cl, CL_COMPLETE), CL_SUCCESS);
    ck_assert_ur_ok(urEventWait(1, &ts));
    ck_assert_uint_le(profile(before, UR_PROFILING_INFO_COMMAND_END),
                      profile(ts, UR_PROFILING_INFO_COMMAND_START));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urEventRelease(before));
    ck_assert_ur_ok(urEventRelease(ts));
    ck_assert_ur_ok(urEventRelease(gate));
}
END_TEST

// ---- urDeviceWaitExp ----

// Work on three queues, each behind a user event the device wait cannot see: once the events
// complete, the wait returns after every queue's work (host tasks and a read).
START_TEST(device_wait_waits_for_every_queue) {
    ur_queue_properties_t ooo = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                 UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_handle_t q2 = NULL, q3 = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &q2));
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &ooo, &q3));
    static atomic_int a, b, c;
    atomic_init(&a, 0);
    atomic_init(&b, 0);
    atomic_init(&c, 0);
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(
        urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, N * sizeof(int), NULL, &m));
    int five = 5, out[N];
    memset(out, 0, sizeof out);
    ck_assert_ur_ok(urEnqueueHostTaskExp(T.queue, host_task_set_flag, &a, NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueHostTaskExp(q2, host_task_set_flag, &b, NULL, 0, NULL, NULL));
    ck_assert_ur_ok(
        urEnqueueMemBufferFill(q2, m, &five, sizeof five, 0, N * sizeof(int), 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferRead(q2, m, false, 0, sizeof out, out, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueHostTaskExp(q3, host_task_set_flag, &c, NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urDeviceWaitExp(T.device));
    ck_assert_int_eq(atomic_load(&a), 1);
    ck_assert_int_eq(atomic_load(&b), 1);
    ck_assert_int_eq(atomic_load(&c), 1);
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], 5);
    ck_assert_ur_ok(urQueueRelease(q2));
    ck_assert_ur_ok(urQueueRelease(q3));
    ck_assert_ur_ok(urDeviceWaitExp(T.device)); // released queues are gone; nothing to wait for
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

// The shared cases run on this suite's handles.
static void bind(void) {
    host_task_cases_bind(T.context, T.device, T.queue);
}

static TCase *tcase(const char *name) {
    TCase *tc = oclt_tcase(name);
    tcase_add_checked_fixture(tc, bind, NULL);
    return tc;
}

int main(void) {
    Suite *s = suite_create("opencl_host_task");
    TCase *tc = tcase("urEnqueueHostTaskExp");
    host_task_cases_add_support(tc);
    host_task_cases_add(tc);
    tcase_add_test(tc, host_tasks_interleave_with_kernels);
    host_task_cases_add_wait_list(tc);
    suite_add_tcase(s, tc);
    tc = tcase("urEnqueueNativeCommandExp");
    tcase_add_test(tc, native_command_runs_in_order);
    suite_add_tcase(s, tc);
    tc = tcase("urEnqueueTimestampRecordingExp");
    tcase_add_test(tc, timestamps_without_profiling);
    tcase_add_test(tc, timestamps_with_profiling);
    tcase_add_test(tc, timestamps_on_out_of_order_queue);
    tcase_add_test(tc, timestamp_waits_for_its_wait_list);
    host_task_cases_add_timestamp_errors(tc);
    suite_add_tcase(s, tc);
    tc = tcase("urDeviceWaitExp");
    tcase_add_test(tc, device_wait_waits_for_every_queue);
    host_task_cases_add_device_wait_errors(tc);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
