// SPDX-License-Identifier: MIT
// urContext*, urQueue* and urEvent* of the Level Zero adapter over the simulated driver. The
// suite runs twice: with the default (immediate) command lists, and with regular ones
// (UR_L0_USE_IMMEDIATE_COMMANDLISTS=0) for every queue created without a submission flag.
#include <stdlib.h>
#include <string.h>

#include "l0t.h"

// ---- helpers ----

static void *host_alloc(size_t size) {
    void *p = NULL;
    ck_assert_ur_ok(urUSMHostAlloc(T.context, NULL, NULL, size, &p));
    return p;
}

// A non-blocking copy of one int on q, returning its event.
static ur_event_handle_t copy_int(ur_queue_handle_t q, int *dst, const int *src, uint32_t n,
                                  const ur_event_handle_t *wait) {
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, false, dst, src, sizeof(int), n, wait, &e));
    return e;
}

static int32_t immediate_of(ur_queue_handle_t q) {
    int32_t immediate = -1;
    ur_queue_native_desc_t desc = {UR_STRUCTURE_TYPE_QUEUE_NATIVE_DESC, NULL, &immediate};
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urQueueGetNativeHandle(q, &desc, &native));
    ck_assert_uint_ne(native, 0);
    return immediate;
}

// ---- urContext* ----

START_TEST(context_info_and_refcount) {
    uint32_t n = 0, refs = 0;
    ur_device_handle_t dev = NULL;
    ck_assert_ur_ok(urContextGetInfo(T.context, UR_CONTEXT_INFO_NUM_DEVICES, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 1);
    ck_assert_ur_ok(urContextGetInfo(T.context, UR_CONTEXT_INFO_DEVICES, sizeof dev, &dev, NULL));
    ck_assert_ptr_eq(dev, T.device);
    ck_assert_ur_ok(urContextRetain(T.context));
    ck_assert_ur_ok(
        urContextGetInfo(T.context, UR_CONTEXT_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_uint_ge(refs, 2);
    ck_assert_ur_ok(urContextRelease(T.context));
    ur_bool_t fill2d = false;
    ck_assert_ur_ok(urContextGetInfo(T.context, UR_CONTEXT_INFO_USM_FILL2D_SUPPORT, sizeof fill2d,
                                     &fill2d, NULL));
    ck_assert(fill2d);
}
END_TEST

static void deleter(void *data) {
    ++*(int *)data;
}

START_TEST(context_extended_deleter_runs_at_release) {
    ur_context_handle_t ctx = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &ctx));
    int calls = 0;
    ck_assert_ur_ok(urContextSetExtendedDeleter(ctx, deleter, &calls));
    ck_assert_int_eq(calls, 0);
    ck_assert_ur_ok(urContextRelease(ctx));
    ck_assert_int_eq(calls, 1);
}
END_TEST

START_TEST(context_from_native_handle_does_not_own_it) {
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urContextGetNativeHandle(T.context, &native));
    ur_context_native_properties_t props = {UR_STRUCTURE_TYPE_CONTEXT_NATIVE_PROPERTIES, NULL,
                                            false};
    ur_context_handle_t ctx = NULL;
    ck_assert_ur_ok(urContextCreateWithNativeHandle(native, T.adapter, 1, &T.device, &props, &ctx));
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(ctx, T.device, NULL, &q));
    ck_assert_ur_ok(urQueueFinish(q));
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur_ok(urContextRelease(ctx));
    // The fixture's context (the same native one) still works.
    ck_assert_ur_ok(urQueueFinish(T.queue));
}
END_TEST

// ---- urQueue* ----

START_TEST(queue_info) {
    ur_context_handle_t ctx = NULL;
    ur_device_handle_t dev = NULL;
    ur_queue_flags_t flags = 99;
    uint32_t refs = 0;
    ck_assert_ur_ok(urQueueGetInfo(T.queue, UR_QUEUE_INFO_CONTEXT, sizeof ctx, &ctx, NULL));
    ck_assert_ptr_eq(ctx, T.context);
    ck_assert_ur_ok(urQueueGetInfo(T.queue, UR_QUEUE_INFO_DEVICE, sizeof dev, &dev, NULL));
    ck_assert_ptr_eq(dev, T.device);
    ck_assert_ur_ok(urQueueGetInfo(T.queue, UR_QUEUE_INFO_FLAGS, sizeof flags, &flags, NULL));
    ck_assert_uint_eq(flags, 0);
    ck_assert_ur_ok(urQueueRetain(T.queue));
    ck_assert_ur_ok(
        urQueueGetInfo(T.queue, UR_QUEUE_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_uint_eq(refs, 2);
    ck_assert_ur_ok(urQueueRelease(T.queue));
    ur_bool_t empty = false;
    ck_assert_ur_ok(urQueueGetInfo(T.queue, UR_QUEUE_INFO_EMPTY, sizeof empty, &empty, NULL));
    ck_assert(empty);
}
END_TEST

START_TEST(queue_flags_are_kept) {
    ur_queue_flags_t want =
        UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE | UR_QUEUE_FLAG_PROFILING_ENABLE;
    ur_queue_handle_t q = l0t_queue(want);
    ur_queue_flags_t flags = 0;
    ck_assert_ur_ok(urQueueGetInfo(q, UR_QUEUE_INFO_FLAGS, sizeof flags, &flags, NULL));
    ck_assert_uint_eq(flags, want);
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

START_TEST(queue_conflicting_flags_are_refused) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_SUBMISSION_BATCHED |
                                       UR_QUEUE_FLAG_SUBMISSION_IMMEDIATE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur(urQueueCreate(T.context, T.device, &props, &q),
                 UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES);
    props.flags = UR_QUEUE_FLAG_PRIORITY_LOW | UR_QUEUE_FLAG_PRIORITY_HIGH;
    ck_assert_ur(urQueueCreate(T.context, T.device, &props, &q),
                 UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES);
}
END_TEST

START_TEST(queue_submission_flags_choose_the_command_list) {
    ur_queue_handle_t imm = l0t_queue(UR_QUEUE_FLAG_SUBMISSION_IMMEDIATE);
    ur_queue_handle_t reg = l0t_queue(UR_QUEUE_FLAG_SUBMISSION_BATCHED);
    ck_assert_int_eq(immediate_of(imm), 1);
    ck_assert_int_eq(immediate_of(reg), 0);
    // Without a flag, UR_L0_USE_IMMEDIATE_COMMANDLISTS decides (immediate by default).
    const char *env = getenv("UR_L0_USE_IMMEDIATE_COMMANDLISTS");
    ck_assert_int_eq(immediate_of(T.queue), env != NULL && strcmp(env, "0") == 0 ? 0 : 1);
    ck_assert_ur_ok(urQueueRelease(imm));
    ck_assert_ur_ok(urQueueRelease(reg));
}
END_TEST

START_TEST(queue_regular_batch_runs_at_flush) {
    ur_queue_handle_t q = l0t_queue(UR_QUEUE_FLAG_SUBMISSION_BATCHED);
    int *buf = host_alloc(2 * sizeof(int));
    buf[0] = 7;
    buf[1] = 0;
    ur_event_handle_t e = copy_int(q, &buf[1], &buf[0], 0, NULL);
    // Recorded, not executed: the batch waits for a reason to go.
    ck_assert_int_eq(l0t_status(e), UR_EVENT_STATUS_QUEUED);
    ck_assert_int_eq(buf[1], 0);
    ck_assert_ur_ok(urQueueFlush(q));
    ck_assert_ur_ok(urEventWait(1, &e));
    ck_assert_int_eq(l0t_status(e), UR_EVENT_STATUS_COMPLETE);
    ck_assert_int_eq(buf[1], 7);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

START_TEST(queue_regular_batch_runs_when_its_event_is_awaited) {
    ur_queue_handle_t q = l0t_queue(UR_QUEUE_FLAG_SUBMISSION_BATCHED);
    int *buf = host_alloc(2 * sizeof(int));
    buf[0] = 11;
    ur_event_handle_t e = copy_int(q, &buf[1], &buf[0], 0, NULL);
    ck_assert_ur_ok(urEventWait(1, &e));
    ck_assert_int_eq(buf[1], 11);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

// Another queue waiting for an event still being recorded submits that batch first.
START_TEST(queue_regular_batch_runs_when_another_queue_waits) {
    ur_queue_handle_t reg = l0t_queue(UR_QUEUE_FLAG_SUBMISSION_BATCHED);
    ur_queue_handle_t imm = l0t_queue(UR_QUEUE_FLAG_SUBMISSION_IMMEDIATE);
    int *buf = host_alloc(3 * sizeof(int));
    buf[0] = 5;
    ur_event_handle_t e1 = copy_int(reg, &buf[1], &buf[0], 0, NULL);
    ur_event_handle_t e2 = copy_int(imm, &buf[2], &buf[1], 1, &e1);
    ck_assert_ur_ok(urEventWait(1, &e2));
    ck_assert_int_eq(buf[2], 5);
    ck_assert_ur_ok(urEventRelease(e1));
    ck_assert_ur_ok(urEventRelease(e2));
    ck_assert_ur_ok(urQueueRelease(reg));
    ck_assert_ur_ok(urQueueRelease(imm));
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

START_TEST(queue_finish_completes_every_command) {
    enum { N = 100 };
    int *buf = host_alloc(2 * N * sizeof(int));
    for (int i = 0; i < N; ++i)
        buf[i] = i * 3;
    for (int i = 0; i < N; ++i)
        ck_assert_ur_ok(
            urEnqueueUSMMemcpy(T.queue, false, &buf[N + i], &buf[i], sizeof(int), 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(buf[N + i], i * 3);
    ur_bool_t empty = false;
    ck_assert_ur_ok(urQueueGetInfo(T.queue, UR_QUEUE_INFO_EMPTY, sizeof empty, &empty, NULL));
    ck_assert(empty);
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

START_TEST(queue_compute_index_is_checked) {
    ur_queue_index_properties_t index = {UR_STRUCTURE_TYPE_QUEUE_INDEX_PROPERTIES, NULL, 3};
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, &index, 0};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q)); // the group has 4 queues
    ck_assert_ur_ok(urQueueRelease(q));
    index.computeIndex = 4;
    ck_assert_ur(urQueueCreate(T.context, T.device, &props, &q),
                 UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES);
}
END_TEST

// ---- urEvent* ----

START_TEST(event_info) {
    int *buf = host_alloc(2 * sizeof(int));
    ur_event_handle_t e = copy_int(T.queue, &buf[1], &buf[0], 0, NULL);
    ur_queue_handle_t q = NULL;
    ur_context_handle_t ctx = NULL;
    uint32_t refs = 0;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_QUEUE, sizeof q, &q, NULL));
    ck_assert_ptr_eq(q, T.queue);
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_CONTEXT, sizeof ctx, &ctx, NULL));
    ck_assert_ptr_eq(ctx, T.context);
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_uint_ge(refs, 1);
    ck_assert_int_eq(l0t_command(e), UR_COMMAND_USM_MEMCPY);
    ck_assert_ur_ok(urEventWait(1, &e));
    ck_assert_int_eq(l0t_status(e), UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

START_TEST(event_command_types_name_the_command) {
    int *buf = host_alloc(64);
    int pattern = 3;
    ur_event_handle_t e[5] = {NULL};
    ck_assert_ur_ok(urEnqueueUSMFill(T.queue, buf, sizeof pattern, &pattern, 64, 0, NULL, &e[0]));
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 0, NULL, &e[1]));
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrier(T.queue, 0, NULL, &e[2]));
    ck_assert_ur_ok(urEnqueueUSMPrefetch(T.queue, buf, 64, 0, 0, NULL, &e[3]));
    ck_assert_ur_ok(
        urEnqueueUSMAdvise(T.queue, buf, 64, UR_USM_ADVICE_FLAG_SET_READ_MOSTLY, &e[4]));
    ck_assert_ur_ok(urEventWait(5, e));
    ck_assert_int_eq(l0t_command(e[0]), UR_COMMAND_USM_FILL);
    ck_assert_int_eq(l0t_command(e[1]), UR_COMMAND_EVENTS_WAIT);
    ck_assert_int_eq(l0t_command(e[2]), UR_COMMAND_EVENTS_WAIT_WITH_BARRIER);
    ck_assert_int_eq(l0t_command(e[3]), UR_COMMAND_USM_PREFETCH);
    ck_assert_int_eq(l0t_command(e[4]), UR_COMMAND_USM_ADVISE);
    for (int i = 0; i < 5; ++i)
        ck_assert_ur_ok(urEventRelease(e[i]));
    ck_assert_int_eq(buf[15], 3);
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

START_TEST(event_profiling_times_are_ordered) {
    ur_queue_handle_t q = l0t_queue(UR_QUEUE_FLAG_PROFILING_ENABLE);
    int *buf = host_alloc(4096);
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, true, buf + 512, buf, 2048, 0, NULL, &e));
    uint64_t t[5] = {0};
    const ur_profiling_info_t what[5] = {
        UR_PROFILING_INFO_COMMAND_QUEUED, UR_PROFILING_INFO_COMMAND_SUBMIT,
        UR_PROFILING_INFO_COMMAND_START, UR_PROFILING_INFO_COMMAND_END,
        UR_PROFILING_INFO_COMMAND_COMPLETE};
    for (int i = 0; i < 5; ++i)
        ck_assert_ur_ok(urEventGetProfilingInfo(e, what[i], sizeof t[i], &t[i], NULL));
    ck_assert_uint_gt(t[0], 0);
    ck_assert_uint_le(t[0], t[1]);
    ck_assert_uint_le(t[1], t[2]);
    ck_assert_uint_le(t[2], t[3]);
    ck_assert_uint_eq(t[3], t[4]);
    // On the device timer's timeline, which urDeviceGetGlobalTimestamps also reads.
    uint64_t now = 0;
    ck_assert_ur_ok(urDeviceGetGlobalTimestamps(T.device, &now, NULL));
    ck_assert_uint_ge(now, t[3]);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

START_TEST(event_profiling_needs_a_profiling_queue) {
    int *buf = host_alloc(2 * sizeof(int));
    ur_event_handle_t e = copy_int(T.queue, &buf[1], &buf[0], 0, NULL);
    ck_assert_ur_ok(urEventWait(1, &e));
    uint64_t t = 0;
    ck_assert_ur(urEventGetProfilingInfo(e, UR_PROFILING_INFO_COMMAND_START, sizeof t, &t, NULL),
                 UR_RESULT_ERROR_PROFILING_INFO_NOT_AVAILABLE);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

// A command waits for its wait list; the in-order queue's next command waits behind it.
START_TEST(event_wait_list_gates_the_command) {
    ze_event_handle_t gate_ze = NULL;
    ur_event_handle_t gate = l0t_user_event(&gate_ze);
    int *buf = host_alloc(3 * sizeof(int));
    buf[0] = 42;
    ur_event_handle_t e1 = copy_int(T.queue, &buf[1], &buf[0], 1, &gate);
    ur_event_handle_t e2 = copy_int(T.queue, &buf[2], &buf[1], 0, NULL);
    ur_result_t flushed = urQueueFlush(T.queue);
    ck_assert_ur_ok(flushed);
    ck_assert_int_ne(l0t_status(e1), UR_EVENT_STATUS_COMPLETE);
    ck_assert_int_ne(l0t_status(e2), UR_EVENT_STATUS_COMPLETE);
    ck_assert_int_eq(buf[1], 0);
    ck_assert_int_eq(zeEventHostSignal(gate_ze), ZE_RESULT_SUCCESS);
    ck_assert_ur_ok(urEventWait(1, &e2));
    ck_assert_int_eq(l0t_status(e1), UR_EVENT_STATUS_COMPLETE);
    ck_assert_int_eq(buf[2], 42);
    ck_assert_ur_ok(urEventRelease(e1));
    ck_assert_ur_ok(urEventRelease(e2));
    ck_assert_ur_ok(urEventRelease(gate));
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

// On an out-of-order queue a barrier with no wait list waits for everything before it, and
// everything after it waits for the barrier.
START_TEST(event_barrier_orders_an_out_of_order_queue) {
    ur_queue_handle_t q = l0t_queue(UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    ze_event_handle_t gate_ze = NULL;
    ur_event_handle_t gate = l0t_user_event(&gate_ze);
    int *buf = host_alloc(3 * sizeof(int));
    buf[0] = 9;
    ur_event_handle_t e1 = copy_int(q, &buf[1], &buf[0], 1, &gate);
    ur_event_handle_t b = NULL;
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrier(q, 0, NULL, &b));
    ur_event_handle_t e2 = copy_int(q, &buf[2], &buf[1], 0, NULL);
    ck_assert_ur_ok(urQueueFlush(q));
    ck_assert_int_ne(l0t_status(b), UR_EVENT_STATUS_COMPLETE);
    ck_assert_int_eq(zeEventHostSignal(gate_ze), ZE_RESULT_SUCCESS);
    ck_assert_ur_ok(urEventWait(1, &e2));
    ck_assert_int_eq(buf[2], 9);
    ck_assert_int_eq(l0t_status(b), UR_EVENT_STATUS_COMPLETE);
    ur_event_handle_t all[] = {e1, b, e2, gate};
    for (int i = 0; i < 4; ++i)
        ck_assert_ur_ok(urEventRelease(all[i]));
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

// A queue's user release waits for its commands; its events stay valid after it.
START_TEST(event_outlives_its_queue) {
    ur_queue_handle_t q = l0t_queue(0);
    int *buf = host_alloc(2 * sizeof(int));
    buf[0] = 3;
    ur_event_handle_t e = copy_int(q, &buf[1], &buf[0], 0, NULL);
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_int_eq(buf[1], 3);
    ur_queue_handle_t owner = NULL;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_QUEUE, sizeof owner, &owner, NULL));
    ck_assert_ptr_eq(owner, q);
    ck_assert_int_eq(l0t_status(e), UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

START_TEST(event_wait_list_entries_must_be_events) {
    int *buf = host_alloc(2 * sizeof(int));
    ur_event_handle_t not_event = (ur_event_handle_t)T.queue;
    ck_assert_ur(urEnqueueUSMMemcpy(T.queue, false, &buf[1], &buf[0], 4, 1, &not_event, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ur_event_handle_t null_event = NULL;
    ck_assert_ur(urEnqueueUSMMemcpy(T.queue, false, &buf[1], &buf[0], 4, 1, &null_event, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

START_TEST(event_native_handle_round_trip) {
    int *buf = host_alloc(2 * sizeof(int));
    ur_event_handle_t e = copy_int(T.queue, &buf[1], &buf[0], 0, NULL);
    ck_assert_ur_ok(urEventWait(1, &e));
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urEventGetNativeHandle(e, &native));
    ck_assert_int_eq(zeEventQueryStatus((ze_event_handle_t)native), ZE_RESULT_SUCCESS);
    ur_event_native_properties_t props = {UR_STRUCTURE_TYPE_EVENT_NATIVE_PROPERTIES, NULL, false};
    ur_event_handle_t wrapped = NULL;
    ck_assert_ur_ok(urEventCreateWithNativeHandle(native, T.context, &props, &wrapped));
    ck_assert_int_eq(l0t_status(wrapped), UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventRelease(wrapped));
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("level_zero_queue");
    const urc_test_case_t cases[] = {
        {"urContextGetInfo", {context_info_and_refcount}},
        {"urContextSetExtendedDeleter", {context_extended_deleter_runs_at_release}},
        {"urContextCreateWithNativeHandle", {context_from_native_handle_does_not_own_it}},
        {"urQueueGetInfo", {queue_info}},
        {"urQueueCreate",
         {queue_flags_are_kept, queue_conflicting_flags_are_refused,
          queue_submission_flags_choose_the_command_list, queue_compute_index_is_checked}},
        {"urQueueFlush",
         {queue_regular_batch_runs_at_flush, queue_regular_batch_runs_when_its_event_is_awaited,
          queue_regular_batch_runs_when_another_queue_waits}},
        {"urQueueFinish", {queue_finish_completes_every_command}},
        {"urEventGetInfo",
         {event_info, event_command_types_name_the_command, event_outlives_its_queue}},
        {"urEventGetProfilingInfo",
         {event_profiling_times_are_ordered, event_profiling_needs_a_profiling_queue}},
        {"urEventWait",
         {event_wait_list_gates_the_command, event_barrier_orders_an_out_of_order_queue,
          event_wait_list_entries_must_be_events}},
        {"urEventGetNativeHandle", {event_native_handle_round_trip}},
    };
    urc_test_add_cases(s, l0t_tcase, cases, sizeof cases / sizeof cases[0]);
    return s;
}

int main(void) {
    return l0t_main(suite());
}
