// SPDX-License-Identifier: MIT
// urEnqueueHostTaskExp, urEnqueueNativeCommandExp, urEnqueueTimestampRecordingExp and
// urDeviceWaitExp of the Level Zero adapter on the simulated driver: host functions in queue
// order between kernels and copies, after their wait lists, with events; the caller's own
// Level Zero commands in order; timestamps on queues with and without profiling; waits for
// every queue of the device. Runs with immediate and with regular command lists. The cases
// every adapter shares are in ../common/host_task_cases.c.
#include <stdatomic.h>
#include <string.h>

#include <level_zero/ze_api.h>

#include "../common/host_task_cases.h"
#include "l0t.h"

enum { N = 64 };

typedef struct log_t {
    atomic_int next;
    int order[64];
    int *data;             // USM the commands write, or NULL
    int seen[64];          // data[0] when each task ran
    uint64_t launches[64]; // kernel launches the simulator had recorded when each task ran
} log_t;

typedef struct task_t {
    log_t *log;
    int id;
} task_t;

static void record(void *p) {
    task_t *t = p;
    int at = atomic_fetch_add(&t->log->next, 1);
    t->log->order[at] = t->id;
    t->log->seen[t->id] = t->log->data != NULL ? t->log->data[0] : 0;
    t->log->launches[t->id] = T.sim.GetLaunchCount();
}

static void times_ten(void *p) {
    int *data = p;
    for (int i = 0; i < N; ++i)
        data[i] *= 10;
}

// fill(i + 1), kernel, task(record), task(x10), copy out, five times on host USM: each task
// sees the fill and the launch before it and not the launch after it (the simulator records a
// launch when it runs), and each copy sees what the task before it wrote.
START_TEST(host_tasks_interleave_with_kernels_and_copies) {
    ur_program_handle_t p = l0t_built("add_one.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_one", &k));
    int *data = NULL, *out = NULL;
    ck_assert_ur_ok(urUSMHostAlloc(T.context, NULL, NULL, N * sizeof(int), (void **)&data));
    ck_assert_ur_ok(urUSMHostAlloc(T.context, NULL, NULL, 5 * N * sizeof(int), (void **)&out));
    static log_t log;
    static task_t tasks[5];
    atomic_init(&log.next, 0);
    log.data = data;
    ur_exp_kernel_arg_properties_t arg = urc_test_arg_pointer(0, data);
    size_t global = N;
    uint64_t before = T.sim.GetLaunchCount();
    for (int i = 0; i < 5; ++i) {
        int value = i + 1;
        ck_assert_ur_ok(
            urEnqueueUSMFill(T.queue, data, sizeof value, &value, N * sizeof(int), 0, NULL, NULL));
        ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL, 1,
                                                         &arg, NULL, 0, NULL, NULL));
        tasks[i] = (task_t){&log, i};
        ck_assert_ur_ok(urEnqueueHostTaskExp(T.queue, record, &tasks[i], NULL, 0, NULL, NULL));
        ck_assert_ur_ok(urEnqueueHostTaskExp(T.queue, times_ten, data, NULL, 0, NULL, NULL));
        ck_assert_ur_ok(
            urEnqueueUSMMemcpy(T.queue, false, out + i * N, data, N * sizeof(int), 0, NULL, NULL));
    }
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_int_eq(atomic_load(&log.next), 5);
    for (int i = 0; i < 5; ++i) {
        ck_assert_int_eq(log.order[i], i);
        ck_assert_int_eq(log.seen[i], i + 1); // kernels do not run in the simulator
        ck_assert_uint_eq(log.launches[i] - before, (uint64_t)i + 1);
        for (int j = 0; j < N; ++j)
            ck_assert_int_eq(out[i * N + j], (i + 1) * 10);
    }
    ck_assert_uint_eq(T.sim.GetLaunchCount() - before, 5);
    ck_assert_ur_ok(urUSMFree(T.context, data));
    ck_assert_ur_ok(urUSMFree(T.context, out));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// On an out-of-order queue a task waits for its wait list: B waits for a user event and for
// A, and runs after both. (Level Zero runs a command list's commands in order, so a task
// behind B would wait for B too, on real hardware as in the simulator.)
START_TEST(host_task_waits_for_its_wait_list) {
    ur_queue_handle_t q = l0t_queue(UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    static log_t log;
    static task_t a, b;
    atomic_init(&log.next, 0);
    a = (task_t){&log, 0};
    b = (task_t){&log, 1};
    ze_event_handle_t gate_ze = NULL;
    ur_event_handle_t gate = l0t_user_event(&gate_ze);
    ur_event_handle_t ea = NULL, eb = NULL;
    ck_assert_ur_ok(urEnqueueHostTaskExp(q, record, &a, NULL, 0, NULL, &ea));
    ur_event_handle_t waits[2] = {gate, ea};
    ck_assert_ur_ok(urEnqueueHostTaskExp(q, record, &b, NULL, 2, waits, &eb));
    ck_assert_ur_ok(urEventWait(1, &ea));
    // Nothing can signal the gate but this thread: B has not run.
    ck_assert_int_ne(l0t_status(eb), UR_EVENT_STATUS_COMPLETE);
    ck_assert_int_eq(atomic_load(&log.next), 1);
    ck_assert_int_eq(zeEventHostSignal(gate_ze), ZE_RESULT_SUCCESS);
    ck_assert_ur_ok(urEventWait(1, &eb));
    ck_assert_int_eq(atomic_load(&log.next), 2);
    ck_assert_int_eq(log.order[0], 0);
    ck_assert_int_eq(log.order[1], 1);
    ck_assert_ur_ok(urEventRelease(ea));
    ck_assert_ur_ok(urEventRelease(eb));
    ck_assert_ur_ok(urEventRelease(gate));
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

// A task whose event the caller released at once still runs, and the queue's last release
// waits for it.
START_TEST(host_task_outlives_its_handles) {
    ur_queue_handle_t q = l0t_queue(0);
    static atomic_int ran;
    atomic_init(&ran, 0);
    ze_event_handle_t gate_ze = NULL;
    ur_event_handle_t gate = l0t_user_event(&gate_ze);
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(urEnqueueHostTaskExp(q, host_task_set_flag, &ran, NULL, 1, &gate, &ev));
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_int_eq(atomic_load(&ran), 0);
    ck_assert_int_eq(zeEventHostSignal(gate_ze), ZE_RESULT_SUCCESS);
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_int_eq(atomic_load(&ran), 1);
    ck_assert_ur_ok(urEventRelease(gate));
}
END_TEST

// ---- native commands ----

typedef struct native_t {
    int *dst;
    int32_t is_list;
    ze_result_t r;
} native_t;

static void fill_natively(ur_queue_handle_t q, void *p) {
    native_t *n = p;
    ur_native_handle_t handle = 0;
    ur_queue_native_desc_t desc = {UR_STRUCTURE_TYPE_QUEUE_NATIVE_DESC, NULL, &n->is_list};
    n->r = ZE_RESULT_ERROR_UNKNOWN;
    if (urQueueGetNativeHandle(q, &desc, &handle) != UR_RESULT_SUCCESS)
        return;
    int pattern = 7;
    n->r = zeCommandListAppendMemoryFill((ze_command_list_handle_t)handle, n->dst, &pattern,
                                         sizeof pattern, N * sizeof(int), NULL, 0, NULL);
}

// A UR fill, the native fill after it (waiting for the UR fill's event), then a UR copy back:
// the native 7 wins. The callback gets a command list (pNativeData 1), also on a batched queue.
START_TEST(native_command_runs_in_order) {
    native_t n = {NULL, -1, ZE_RESULT_ERROR_UNKNOWN};
    ck_assert_ur_ok(
        urUSMDeviceAlloc(T.context, T.device, NULL, NULL, N * sizeof(int), (void **)&n.dst));
    int zero = 0, out[N];
    ur_event_handle_t fill = NULL, ev = NULL;
    ck_assert_ur_ok(
        urEnqueueUSMFill(T.queue, n.dst, sizeof zero, &zero, N * sizeof(int), 0, NULL, &fill));
    ck_assert_ur_ok(
        urEnqueueNativeCommandExp(T.queue, fill_natively, &n, 0, NULL, NULL, 1, &fill, &ev));
    ck_assert_int_eq(n.r, ZE_RESULT_SUCCESS);
    ck_assert_int_eq(n.is_list, 1);
    ck_assert_int_eq(l0t_command(ev), UR_COMMAND_ENQUEUE_NATIVE_EXP);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, n.dst, sizeof out, 0, NULL, NULL));
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], 7);
    ck_assert_ur_ok(urEventWait(1, &ev));
    ck_assert_ur_ok(urEventRelease(fill));
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(urUSMFree(T.context, n.dst));
}
END_TEST

// Outside a native command the native handle is the queue's own again.
START_TEST(native_handle_after_native_command) {
    ur_native_handle_t before = 0, after = 0;
    ck_assert_ur_ok(urQueueGetNativeHandle(T.queue, NULL, &before));
    native_t n = {NULL, -1, ZE_RESULT_ERROR_UNKNOWN};
    ck_assert_ur_ok(urUSMHostAlloc(T.context, NULL, NULL, N * sizeof(int), (void **)&n.dst));
    ck_assert_ur_ok(
        urEnqueueNativeCommandExp(T.queue, fill_natively, &n, 0, NULL, NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_int_eq(n.dst[N - 1], 7);
    ck_assert_ur_ok(urQueueGetNativeHandle(T.queue, NULL, &after));
    ck_assert_ptr_eq((void *)before, (void *)after);
    ck_assert_ur_ok(urUSMFree(T.context, n.dst));
}
END_TEST

START_TEST(native_command_bad_input) {
    ur_mem_handle_t not_mem = (ur_mem_handle_t)T.queue;
    ck_assert_ur(urEnqueueNativeCommandExp(T.queue, (ur_exp_enqueue_native_command_function_t)NULL,
                                           NULL, 0, NULL, NULL, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    native_t n = {NULL, -1, ZE_RESULT_ERROR_UNKNOWN};
    ck_assert_ur(
        urEnqueueNativeCommandExp(T.queue, fill_natively, &n, 1, &not_mem, NULL, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(
        urEnqueueNativeCommandExp(T.queue, fill_natively, &n, 0, NULL, NULL, 1, NULL, NULL),
        UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ur_exp_enqueue_native_command_properties_t props = {
        UR_STRUCTURE_TYPE_EXP_ENQUEUE_NATIVE_COMMAND_PROPERTIES, NULL,
        UR_EXP_ENQUEUE_NATIVE_COMMAND_FLAG_TBD};
    ck_assert_ur(
        urEnqueueNativeCommandExp(T.queue, fill_natively, &n, 0, NULL, &props, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_int_eq(n.is_list, -1); // the callback never ran
}
END_TEST

// ---- timestamps ----

static uint64_t profile(ur_event_handle_t ev, ur_profiling_info_t what) {
    uint64_t v = 0;
    ck_assert_ur_ok(urEventGetProfilingInfo(ev, what, sizeof v, &v, NULL));
    return v;
}

// Three timestamps around a copy, the last one blocking: each event carries device times, in
// the queue's order, also on a queue without profiling.
static void check_timestamps(ur_queue_handle_t q) {
    int *buf = NULL;
    ck_assert_ur_ok(urUSMHostAlloc(T.context, NULL, NULL, N * sizeof(int), (void **)&buf));
    ur_event_handle_t ts[3] = {NULL, NULL, NULL};
    int one = 1;
    ck_assert_ur_ok(urEnqueueTimestampRecordingExp(q, false, 0, NULL, &ts[0]));
    ck_assert_ur_ok(urEnqueueUSMFill(q, buf, sizeof one, &one, N * sizeof(int), 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueTimestampRecordingExp(q, false, 1, &ts[0], &ts[1]));
    ck_assert_ur_ok(urEnqueueTimestampRecordingExp(q, true, 0, NULL, &ts[2]));
    // Blocking: complete on return, and so is everything before it on the in-order queue.
    ck_assert_int_eq(l0t_status(ts[2]), UR_EVENT_STATUS_COMPLETE);
    ck_assert_int_eq(buf[N - 1], 1);
    uint64_t last_end = 0;
    for (int i = 0; i < 3; ++i) {
        ck_assert_int_eq(l0t_command(ts[i]), UR_COMMAND_TIMESTAMP_RECORDING_EXP);
        uint64_t queued = profile(ts[i], UR_PROFILING_INFO_COMMAND_QUEUED);
        uint64_t submit = profile(ts[i], UR_PROFILING_INFO_COMMAND_SUBMIT);
        uint64_t start = profile(ts[i], UR_PROFILING_INFO_COMMAND_START);
        uint64_t end = profile(ts[i], UR_PROFILING_INFO_COMMAND_END);
        ck_assert_uint_gt(start, 0);
        ck_assert_uint_le(queued, submit);
        ck_assert_uint_le(submit, start);
        ck_assert_uint_le(start, end);
        ck_assert_uint_le(last_end, start);
        last_end = end;
    }
    for (int i = 0; i < 3; ++i)
        ck_assert_ur_ok(urEventRelease(ts[i]));
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}

START_TEST(timestamps_without_profiling) {
    check_timestamps(T.queue);
    // An ordinary command of the same queue still has no profiling information.
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 0, NULL, &ev));
    ck_assert_ur_ok(urEventWait(1, &ev));
    uint64_t v = 0;
    ck_assert_ur(urEventGetProfilingInfo(ev, UR_PROFILING_INFO_COMMAND_START, sizeof v, &v, NULL),
                 UR_RESULT_ERROR_PROFILING_INFO_NOT_AVAILABLE);
    ck_assert_ur_ok(urEventRelease(ev));
}
END_TEST

START_TEST(timestamps_with_profiling) {
    ur_queue_handle_t q = l0t_queue(UR_QUEUE_FLAG_PROFILING_ENABLE);
    check_timestamps(q);
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

// A timestamp behind a user event records when the event is signalled, not when enqueued.
START_TEST(timestamp_waits_for_its_wait_list) {
    ze_event_handle_t gate_ze = NULL;
    ur_event_handle_t gate = l0t_user_event(&gate_ze);
    ur_event_handle_t before = NULL, ts = NULL;
    ck_assert_ur_ok(urEnqueueTimestampRecordingExp(T.queue, true, 0, NULL, &before));
    ck_assert_ur_ok(urEnqueueTimestampRecordingExp(T.queue, false, 1, &gate, &ts));
    ck_assert_int_ne(l0t_status(ts), UR_EVENT_STATUS_COMPLETE);
    uint64_t v = 0;
    ck_assert_ur(urEventGetProfilingInfo(ts, UR_PROFILING_INFO_COMMAND_END, sizeof v, &v, NULL),
                 UR_RESULT_ERROR_PROFILING_INFO_NOT_AVAILABLE);
    ck_assert_int_eq(zeEventHostSignal(gate_ze), ZE_RESULT_SUCCESS);
    ck_assert_ur_ok(urEventWait(1, &ts));
    ck_assert_uint_le(profile(before, UR_PROFILING_INFO_COMMAND_END),
                      profile(ts, UR_PROFILING_INFO_COMMAND_START));
    ck_assert_ur_ok(urEventRelease(before));
    ck_assert_ur_ok(urEventRelease(ts));
    ck_assert_ur_ok(urEventRelease(gate));
}
END_TEST

// ---- urDeviceWaitExp ----

// Work on two queues (one batched), each behind a task: the device wait returns after both.
START_TEST(device_wait_waits_for_every_queue) {
    ur_queue_handle_t q2 = l0t_queue(UR_QUEUE_FLAG_SUBMISSION_BATCHED);
    ur_queue_handle_t q3 = l0t_queue(UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    static atomic_int a, b, c;
    atomic_init(&a, 0);
    atomic_init(&b, 0);
    atomic_init(&c, 0);
    int *buf = NULL;
    ck_assert_ur_ok(urUSMHostAlloc(T.context, NULL, NULL, N * sizeof(int), (void **)&buf));
    int five = 5;
    ck_assert_ur_ok(urEnqueueHostTaskExp(T.queue, host_task_set_flag, &a, NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueHostTaskExp(q2, host_task_set_flag, &b, NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMFill(q2, buf, sizeof five, &five, N * sizeof(int), 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueHostTaskExp(q3, host_task_set_flag, &c, NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urDeviceWaitExp(T.device));
    ck_assert_int_eq(atomic_load(&a), 1);
    ck_assert_int_eq(atomic_load(&b), 1);
    ck_assert_int_eq(atomic_load(&c), 1);
    ck_assert_int_eq(buf[N - 1], 5); // the batch was sent and ran
    ck_assert_ur_ok(urQueueRelease(q2));
    ck_assert_ur_ok(urQueueRelease(q3));
    // Released queues are not waited for any more; an idle device returns at once.
    ck_assert_ur_ok(urDeviceWaitExp(T.device));
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

// The shared cases run on this suite's handles.
static void bind(void) {
    host_task_cases_bind(T.context, T.device, T.queue);
}

static TCase *tcase(const char *name) {
    TCase *tc = l0t_tcase(name);
    tcase_add_checked_fixture(tc, bind, NULL);
    return tc;
}

int main(void) {
    Suite *s = suite_create("l0_host_task");
    TCase *tc = tcase("urEnqueueHostTaskExp");
    host_task_cases_add_support(tc);
    host_task_cases_add(tc);
    tcase_add_test(tc, host_tasks_interleave_with_kernels_and_copies);
    tcase_add_test(tc, host_task_waits_for_its_wait_list);
    tcase_add_test(tc, host_task_outlives_its_handles);
    suite_add_tcase(s, tc);
    tc = tcase("urEnqueueNativeCommandExp");
    tcase_add_test(tc, native_command_runs_in_order);
    tcase_add_test(tc, native_handle_after_native_command);
    tcase_add_test(tc, native_command_bad_input);
    suite_add_tcase(s, tc);
    tc = tcase("urEnqueueTimestampRecordingExp");
    tcase_add_test(tc, timestamps_without_profiling);
    tcase_add_test(tc, timestamps_with_profiling);
    tcase_add_test(tc, timestamp_waits_for_its_wait_list);
    host_task_cases_add_timestamp_errors(tc);
    suite_add_tcase(s, tc);
    tc = tcase("urDeviceWaitExp");
    tcase_add_test(tc, device_wait_waits_for_every_queue);
    host_task_cases_add_device_wait_errors(tc);
    suite_add_tcase(s, tc);
    return l0t_main(s);
}
