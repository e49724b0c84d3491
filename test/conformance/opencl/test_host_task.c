// SPDX-License-Identifier: MIT
// urEnqueueHostTaskExp and urEnqueueNativeCommandExp of the OpenCL adapter: host functions
// run in queue order between kernels, after their wait lists, with events; native commands
// run the caller's OpenCL work in order.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdatomic.h>
#include <string.h>

#include "oclt.h"

enum { N = 64 };

typedef struct log_t {
    atomic_int next;
    int order[64];
    int *data;    // shared USM the kernels write, or NULL
    int seen[64]; // data[0] when each task ran
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
}

START_TEST(device_info_reports_support) {
    ur_bool_t host = 0, native = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_ENQUEUE_HOST_TASK_SUPPORT_EXP,
                                    sizeof host, &host, NULL));
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_ENQUEUE_NATIVE_COMMAND_SUPPORT_EXP,
                                    sizeof native, &native, NULL));
    ck_assert_int_eq(host, 1);
    ck_assert_int_eq(native, 1);
}
END_TEST

// Ten tasks on the in-order queue run in order, each once; the last one's event completes
// after it ran.
START_TEST(host_tasks_run_in_order) {
    static log_t log;
    static task_t tasks[10];
    atomic_init(&log.next, 0);
    ur_event_handle_t ev = NULL;
    for (int i = 0; i < 10; ++i) {
        tasks[i] = (task_t){&log, i};
        ck_assert_ur_ok(
            urEnqueueHostTaskExp(T.queue, record, &tasks[i], NULL, 0, NULL, i == 9 ? &ev : NULL));
    }
    ck_assert_ur_ok(urEventWait(1, &ev));
    ck_assert_int_eq(atomic_load(&log.next), 10);
    for (int i = 0; i < 10; ++i)
        ck_assert_int_eq(log.order[i], i);
    ur_command_t type = 0;
    ck_assert_ur_ok(urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_TYPE, sizeof type, &type, NULL));
    ck_assert_int_eq(type, UR_COMMAND_HOST_TASK_EXP);
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(urQueueFinish(T.queue));
}
END_TEST

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
    static log_t log;
    static task_t tasks[5];
    atomic_init(&log.next, 0);
    log.data = data;
    ur_exp_kernel_arg_properties_t arg = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                          NULL,
                                          UR_EXP_KERNEL_ARG_TYPE_POINTER,
                                          0,
                                          sizeof(void *),
                                          {.pointer = data}};
    size_t global = N;
    int expect = 0;
    int expect_seen[5];
    for (int i = 0; i < 5; ++i) {
        ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL, 1,
                                                         &arg, NULL, 0, NULL, NULL));
        expect += 1;
        tasks[i] = (task_t){&log, i};
        expect_seen[i] = expect;
        ck_assert_ur_ok(urEnqueueHostTaskExp(T.queue, record, &tasks[i], NULL, 0, NULL, NULL));
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

// On an out-of-order queue a task waits for its wait list: B waits for A's event.
START_TEST(host_task_waits_for_its_wait_list) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    static log_t log;
    static task_t a, b;
    atomic_init(&log.next, 0);
    a = (task_t){&log, 0};
    b = (task_t){&log, 1};
    ur_event_handle_t ea = NULL, eb = NULL;
    ck_assert_ur_ok(urEnqueueHostTaskExp(q, record, &a, NULL, 0, NULL, &ea));
    ck_assert_ur_ok(urEnqueueHostTaskExp(q, record, &b, NULL, 1, &ea, &eb));
    ck_assert_ur_ok(urEventWait(1, &eb));
    ck_assert_int_eq(atomic_load(&log.next), 2);
    ck_assert_int_eq(log.order[0], 0);
    ck_assert_int_eq(log.order[1], 1);
    ck_assert_ur_ok(urEventRelease(ea));
    ck_assert_ur_ok(urEventRelease(eb));
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

static void nothing(void *p) {
    (void)p;
}

START_TEST(host_task_bad_input) {
    ur_exp_host_task_properties_t props = {UR_STRUCTURE_TYPE_EXP_HOST_TASK_PROPERTIES, NULL,
                                           UR_EXP_HOST_TASK_FLAG_TBD};
    ck_assert_ur(urEnqueueHostTaskExp(T.queue, nothing, NULL, &props, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_ur(urEnqueueHostTaskExp(T.queue, NULL, NULL, NULL, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urEnqueueHostTaskExp(T.queue, nothing, NULL, NULL, 1, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur(
        urEnqueueHostTaskExp((ur_queue_handle_t)T.context, nothing, NULL, NULL, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_QUEUE);
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

int main(void) {
    Suite *s = suite_create("opencl_host_task");
    TCase *tc = oclt_tcase("urEnqueueHostTaskExp");
    tcase_add_test(tc, device_info_reports_support);
    tcase_add_test(tc, host_tasks_run_in_order);
    tcase_add_test(tc, host_tasks_interleave_with_kernels);
    tcase_add_test(tc, host_task_waits_for_its_wait_list);
    tcase_add_test(tc, host_task_bad_input);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueNativeCommandExp");
    tcase_add_test(tc, native_command_runs_in_order);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
