// SPDX-License-Identifier: MIT
// The host-task cases every adapter shares (host_task_cases.h).
#include "host_task_cases.h"

static struct {
    ur_context_handle_t context;
    ur_device_handle_t device;
    ur_queue_handle_t queue;
} H;

void host_task_cases_bind(ur_context_handle_t context, ur_device_handle_t device,
                          ur_queue_handle_t queue) {
    H.context = context;
    H.device = device;
    H.queue = queue;
}

void host_task_record(void *p) {
    host_task_t *t = p;
    int at = atomic_fetch_add(&t->log->next, 1);
    t->log->order[at] = t->id;
    t->log->seen[t->id] = t->log->data != NULL ? t->log->data[0] : 0;
}

void host_task_set_flag(void *p) {
    atomic_store((atomic_int *)p, 1);
}

static void nothing(void *p) {
    (void)p;
}

static ur_bool_t device_bool(ur_device_info_t name) {
    ur_bool_t b = 0;
    ck_assert_ur_ok(urDeviceGetInfo(H.device, name, sizeof b, &b, NULL));
    return b;
}

START_TEST(device_info_reports_support) {
    ck_assert_int_eq(device_bool(UR_DEVICE_INFO_ENQUEUE_HOST_TASK_SUPPORT_EXP), 1);
    ck_assert_int_eq(device_bool(UR_DEVICE_INFO_ENQUEUE_NATIVE_COMMAND_SUPPORT_EXP), 1);
    ck_assert_int_eq(device_bool(UR_DEVICE_INFO_TIMESTAMP_RECORDING_SUPPORT_EXP), 1);
    ck_assert_int_eq(device_bool(UR_DEVICE_INFO_DEVICE_WAIT_SUPPORT_EXP), 1);
}
END_TEST

// Ten tasks on the in-order queue run in order, each once; the last one's event completes
// after it ran.
START_TEST(host_tasks_run_in_order) {
    static host_task_log_t log;
    static host_task_t tasks[10];
    atomic_init(&log.next, 0);
    ur_event_handle_t ev = NULL;
    for (int i = 0; i < 10; ++i) {
        tasks[i] = (host_task_t){&log, i};
        ck_assert_ur_ok(urEnqueueHostTaskExp(H.queue, host_task_record, &tasks[i], NULL, 0, NULL,
                                             i == 9 ? &ev : NULL));
    }
    ck_assert_ur_ok(urEventWait(1, &ev));
    ck_assert_int_eq(atomic_load(&log.next), 10);
    for (int i = 0; i < 10; ++i)
        ck_assert_int_eq(log.order[i], i);
    ur_command_t type = 0;
    ck_assert_ur_ok(urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_TYPE, sizeof type, &type, NULL));
    ck_assert_int_eq(type, UR_COMMAND_HOST_TASK_EXP);
    ur_event_status_t status = UR_EVENT_STATUS_ERROR;
    ck_assert_ur_ok(
        urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    ck_assert_int_eq(status, UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(urQueueFinish(H.queue));
}
END_TEST

// On an out-of-order queue a task waits for its wait list: B waits for A's event.
START_TEST(host_task_waits_for_its_wait_list) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(H.context, H.device, &props, &q));
    static host_task_log_t log;
    static host_task_t a, b;
    atomic_init(&log.next, 0);
    a = (host_task_t){&log, 0};
    b = (host_task_t){&log, 1};
    ur_event_handle_t ea = NULL, eb = NULL;
    ck_assert_ur_ok(urEnqueueHostTaskExp(q, host_task_record, &a, NULL, 0, NULL, &ea));
    ck_assert_ur_ok(urEnqueueHostTaskExp(q, host_task_record, &b, NULL, 1, &ea, &eb));
    ck_assert_ur_ok(urEventWait(1, &eb));
    ck_assert_int_eq(atomic_load(&log.next), 2);
    ck_assert_int_eq(log.order[0], 0);
    ck_assert_int_eq(log.order[1], 1);
    ck_assert_ur_ok(urEventRelease(ea));
    ck_assert_ur_ok(urEventRelease(eb));
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

START_TEST(host_task_bad_input) {
    ur_exp_host_task_properties_t props = {UR_STRUCTURE_TYPE_EXP_HOST_TASK_PROPERTIES, NULL,
                                           UR_EXP_HOST_TASK_FLAG_TBD};
    ck_assert_ur(urEnqueueHostTaskExp(H.queue, nothing, NULL, &props, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_ur(urEnqueueHostTaskExp(H.queue, NULL, NULL, NULL, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urEnqueueHostTaskExp(H.queue, nothing, NULL, NULL, 1, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ur_event_handle_t not_event = (ur_event_handle_t)H.queue;
    ck_assert_ur(urEnqueueHostTaskExp(H.queue, nothing, NULL, NULL, 1, &not_event, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur(
        urEnqueueHostTaskExp((ur_queue_handle_t)H.context, nothing, NULL, NULL, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_QUEUE);
}
END_TEST

START_TEST(timestamp_bad_input) {
    ck_assert_ur(urEnqueueTimestampRecordingExp(H.queue, false, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ur_event_handle_t ev = NULL;
    ck_assert_ur(urEnqueueTimestampRecordingExp(H.queue, false, 1, NULL, &ev),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ur_event_handle_t not_event = (ur_event_handle_t)H.queue;
    ck_assert_ur(urEnqueueTimestampRecordingExp(H.queue, false, 1, &not_event, &ev),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur(urEnqueueTimestampRecordingExp((ur_queue_handle_t)H.device, false, 0, NULL, &ev),
                 UR_RESULT_ERROR_INVALID_QUEUE);
    ck_assert_ptr_null(ev);
}
END_TEST

START_TEST(device_wait_bad_input) {
    ck_assert_ur(urDeviceWaitExp(NULL), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urDeviceWaitExp((ur_device_handle_t)H.queue), UR_RESULT_ERROR_INVALID_DEVICE);
}
END_TEST

void host_task_cases_add(TCase *tc) {
    tcase_add_test(tc, host_tasks_run_in_order);
    tcase_add_test(tc, host_task_bad_input);
}

void host_task_cases_add_wait_list(TCase *tc) {
    tcase_add_test(tc, host_task_waits_for_its_wait_list);
}

void host_task_cases_add_support(TCase *tc) {
    tcase_add_test(tc, device_info_reports_support);
}

void host_task_cases_add_timestamp_errors(TCase *tc) {
    tcase_add_test(tc, timestamp_bad_input);
}

void host_task_cases_add_device_wait_errors(TCase *tc) {
    tcase_add_test(tc, device_wait_bad_input);
}
