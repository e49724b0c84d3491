// SPDX-License-Identifier: MIT
// urEvent* and the cross-queue ordering events give, through the loader.
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "../common/event_callback_cases.h"
#include "cudat.h"

// Cycles of the spin kernel: tens of milliseconds on any recent GPU.
static const long long spin_cycles = 100000000;

static ur_event_handle_t spin(ur_queue_handle_t q) {
    ur_kernel_handle_t k = NULL;
    ur_event_handle_t ev = NULL;
    size_t local = 1;
    ur_exp_kernel_arg_properties_t arg = cudat_arg_value(0, &spin_cycles, sizeof spin_cycles);
    ck_assert_ur_ok(urKernelCreate(T.program, "spin", &k));
    ck_assert_ur_ok(cudat_launch(q, k, 1, &local, 1, &arg, 0, NULL, &ev));
    ck_assert_ur_ok(urKernelRelease(k));
    return ev;
}

START_TEST(get_info_of_events_wait) {
    ur_event_handle_t ev = NULL;
    ur_queue_handle_t q = NULL;
    ur_context_handle_t ctx = NULL;
    uint32_t refs = 0;
    ur_event_status_t status = UR_EVENT_STATUS_ERROR;
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 0, NULL, &ev));
    ck_assert_ur_ok(urEventWait(1, &ev));
    ck_assert_int_eq(cudat_event_command(ev), UR_COMMAND_EVENTS_WAIT);
    ck_assert_ur_ok(urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_QUEUE, sizeof q, &q, NULL));
    ck_assert_ur_ok(urEventGetInfo(ev, UR_EVENT_INFO_CONTEXT, sizeof ctx, &ctx, NULL));
    ck_assert_ur_ok(urEventGetInfo(ev, UR_EVENT_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_ur_ok(
        urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    ck_assert_ptr_eq(q, T.queue);
    ck_assert_ptr_eq(ctx, T.context);
    ck_assert_uint_eq(refs, 1);
    ck_assert_int_eq(status, UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventRelease(ev));
}
END_TEST

START_TEST(status_running_then_complete) {
    ur_event_handle_t ev = spin(T.queue);
    ur_event_status_t status = UR_EVENT_STATUS_ERROR;
    ck_assert_ur_ok(
        urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    ck_assert_int_ne(status, UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventWait(1, &ev));
    ck_assert_ur_ok(
        urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    ck_assert_int_eq(status, UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventRelease(ev));
}
END_TEST

START_TEST(retain_counts) {
    ur_event_handle_t ev = NULL;
    uint32_t refs = 0;
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 0, NULL, &ev));
    ck_assert_ur_ok(urEventRetain(ev));
    ck_assert_ur_ok(urEventGetInfo(ev, UR_EVENT_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_uint_eq(refs, 2);
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(urEventRelease(ev));
}
END_TEST

START_TEST(profiling_times_are_ordered) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_PROFILING_ENABLE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    ur_event_handle_t ev = spin(q);
    ck_assert_ur_ok(urEventWait(1, &ev));
    uint64_t t[4] = {0};
    const ur_profiling_info_t what[4] = {
        UR_PROFILING_INFO_COMMAND_QUEUED, UR_PROFILING_INFO_COMMAND_SUBMIT,
        UR_PROFILING_INFO_COMMAND_START, UR_PROFILING_INFO_COMMAND_END};
    for (int i = 0; i < 4; ++i)
        ck_assert_ur_ok(urEventGetProfilingInfo(ev, what[i], sizeof t[i], &t[i], NULL));
    ck_assert_uint_gt(t[0], 0);
    ck_assert_uint_le(t[0], t[1]);
    ck_assert_uint_le(t[1], t[2]);
    ck_assert_uint_lt(t[2], t[3]); // the spin takes milliseconds
    uint64_t host = 0;
    ck_assert_ur_ok(urDeviceGetGlobalTimestamps(T.device, NULL, &host));
    ck_assert_uint_le(t[3], host);
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

START_TEST(profiling_without_flag_not_available) {
    ur_event_handle_t ev = NULL;
    uint64_t t = 0;
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 0, NULL, &ev));
    ck_assert_ur(urEventGetProfilingInfo(ev, UR_PROFILING_INFO_COMMAND_START, sizeof t, &t, NULL),
                 UR_RESULT_ERROR_PROFILING_INFO_NOT_AVAILABLE);
    ck_assert_ur_ok(urEventRelease(ev));
}
END_TEST

// A copy on a second queue waits for a kernel on the first through the wait list.
START_TEST(wait_list_orders_across_queues) {
    ur_queue_handle_t q2 = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &q2));
    int *dev = NULL, host = 0, value = 7;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, sizeof(int), (void **)&dev));
    ur_event_handle_t slow = spin(T.queue), filled = NULL;
    ur_kernel_handle_t k = NULL;
    size_t local = 1;
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, dev),
                                              cudat_arg_value(1, &value, sizeof value)};
    ck_assert_ur_ok(urKernelCreate(T.program, "fill_value", &k));
    ck_assert_ur_ok(cudat_launch(T.queue, k, 1, &local, 2, args, 1, &slow, &filled));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q2, true, &host, dev, sizeof host, 1, &filled, NULL));
    ck_assert_int_eq(host, 7);
    ck_assert_ur_ok(urEventRelease(slow));
    ck_assert_ur_ok(urEventRelease(filled));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, dev));
    ck_assert_ur_ok(urQueueRelease(q2));
}
END_TEST

// In an out-of-order queue, a barrier orders everything after it behind everything before.
START_TEST(barrier_orders_out_of_order_queue) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    int *dev = NULL, host = 0, value = 11;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, sizeof(int), (void **)&dev));
    ck_assert_ur_ok(urEnqueueUSMFill(q, dev, sizeof(int), &host, sizeof(int), 0, NULL, NULL));
    ur_event_handle_t slow = spin(q), barrier = NULL;
    ur_kernel_handle_t k = NULL;
    size_t local = 1;
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, dev),
                                              cudat_arg_value(1, &value, sizeof value)};
    ck_assert_ur_ok(urKernelCreate(T.program, "fill_value", &k));
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrier(q, 0, NULL, NULL));
    ck_assert_ur_ok(cudat_launch(q, k, 1, &local, 2, args, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrier(q, 0, NULL, &barrier));
    ck_assert_int_eq(cudat_event_command(barrier), UR_COMMAND_EVENTS_WAIT_WITH_BARRIER);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, true, &host, dev, sizeof host, 0, NULL, NULL));
    ck_assert_int_eq(host, 11);
    ck_assert_ur_ok(urEventRelease(slow));
    ck_assert_ur_ok(urEventRelease(barrier));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, dev));
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

START_TEST(native_handle_round_trip) {
    ur_event_handle_t ev = spin(T.queue), wrapped = NULL;
    ur_native_handle_t native = 0;
    ur_event_native_properties_t props = {UR_STRUCTURE_TYPE_EVENT_NATIVE_PROPERTIES, NULL, false};
    ck_assert_ur_ok(urEventGetNativeHandle(ev, &native));
    ck_assert_ur_ok(urEventCreateWithNativeHandle(native, T.context, &props, &wrapped));
    ck_assert_ur_ok(urEventWait(1, &wrapped));
    ur_event_status_t status = UR_EVENT_STATUS_ERROR;
    ck_assert_ur_ok(
        urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    ck_assert_int_eq(status, UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventRelease(wrapped));
    ck_assert_ur_ok(urEventRelease(ev));
}
END_TEST

// ---- urEventSetCallback ----

// UR's CTS "Success" and "ValidateParameters": the event is released right after the wait,
// and the callback still runs, with that event and the registered status.
START_TEST(callback_complete_after_release) {
    seen_t *s = seen_new();
    ur_event_handle_t ev = spin(T.queue);
    ck_assert_ur_ok(urEventSetCallback(ev, UR_EXECUTION_INFO_COMPLETE, on_event, s));
    ck_assert_ur_ok(urEventWait(1, &ev));
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_int_eq(seen_wait(s, 1), 1);
    ck_assert_ptr_eq(s->event, ev);
    ck_assert_int_eq(s->by_status[UR_EXECUTION_INFO_COMPLETE], 1);
    ck_assert_int_eq(s->status_then, UR_EVENT_STATUS_COMPLETE);
}
END_TEST

// A COMPLETE callback does not run before the command is done.
START_TEST(callback_complete_waits_for_the_command) {
    seen_t *s = seen_new();
    ur_event_handle_t ev = spin(T.queue);
    ck_assert_ur_ok(urEventSetCallback(ev, UR_EXECUTION_INFO_COMPLETE, on_event, s));
    ur_event_status_t status = UR_EVENT_STATUS_ERROR;
    ck_assert_ur_ok(
        urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    pthread_mutex_lock(&s->lock);
    int early = s->calls;
    pthread_mutex_unlock(&s->lock);
    if (status != UR_EVENT_STATUS_COMPLETE) // the spin may already be over on a fast GPU
        ck_assert_int_eq(early, 0);
    ck_assert_int_eq(seen_wait(s, 1), 1);
    ck_assert_int_eq(s->status_then, UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventRelease(ev));
}
END_TEST

// UR's CTS "AllStates": one callback per status, each told its own status.
START_TEST(callback_every_status) {
    seen_t *s = seen_new();
    ur_event_handle_t ev = spin(T.queue);
    ck_assert_ur_ok(urEventSetCallback(ev, UR_EXECUTION_INFO_SUBMITTED, on_event, s));
    ck_assert_ur_ok(urEventSetCallback(ev, UR_EXECUTION_INFO_RUNNING, on_event, s));
    ck_assert_ur_ok(urEventSetCallback(ev, UR_EXECUTION_INFO_COMPLETE, on_event, s));
    ck_assert_ur_ok(urEventWait(1, &ev));
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_int_eq(seen_wait(s, 3), 3);
    ck_assert_int_eq(s->by_status[UR_EXECUTION_INFO_SUBMITTED], 1);
    ck_assert_int_eq(s->by_status[UR_EXECUTION_INFO_RUNNING], 1);
    ck_assert_int_eq(s->by_status[UR_EXECUTION_INFO_COMPLETE], 1);
}
END_TEST

START_TEST(callback_registers_another) {
    seen_t *s = seen_new();
    ur_event_handle_t ev = spin(T.queue);
    ck_assert_ur_ok(urEventSetCallback(ev, UR_EXECUTION_INFO_COMPLETE, register_again, s));
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_int_eq(seen_wait(s, 1), 1);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda event");
    TCase *tc = cudat_program_tcase("urEventGetInfo");
    tcase_add_test(tc, get_info_of_events_wait);
    tcase_add_test(tc, status_running_then_complete);
    suite_add_tcase(s, tc);
    tc = cudat_program_tcase("urEventRetain");
    tcase_add_test(tc, retain_counts);
    suite_add_tcase(s, tc);
    tc = cudat_program_tcase("urEventGetProfilingInfo");
    tcase_add_test(tc, profiling_times_are_ordered);
    tcase_add_test(tc, profiling_without_flag_not_available);
    suite_add_tcase(s, tc);
    tc = cudat_program_tcase("urEventWait");
    tcase_add_test(tc, wait_list_orders_across_queues);
    tcase_add_test(tc, barrier_orders_out_of_order_queue);
    suite_add_tcase(s, tc);
    tc = cudat_program_tcase("urEventSetCallback");
    tcase_add_test(tc, callback_complete_after_release);
    tcase_add_test(tc, callback_complete_waits_for_the_command);
    tcase_add_test(tc, callback_every_status);
    tcase_add_test(tc, callback_registers_another);
    event_callback_cases_add(tc);
    suite_add_tcase(s, tc);
    tc = cudat_program_tcase("urEventGetNativeHandle");
    tcase_add_test(tc, native_handle_round_trip);
    suite_add_tcase(s, tc);
    return cudat_main(s, true);
}
