// SPDX-License-Identifier: MIT
// urEvent* of the OpenCL adapter, through the loader.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <unistd.h>

#include "oclt.h"

static ur_event_handle_t marker(ur_queue_handle_t q) {
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(q, 0, NULL, &e));
    ck_assert_ptr_nonnull(e);
    return e;
}

START_TEST(get_info_command_type) {
    ur_event_handle_t e = marker(T.queue);
    ur_command_t type = UR_COMMAND_FORCE_UINT32;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_TYPE, sizeof type, &type, NULL));
    ck_assert_int_eq(type, UR_COMMAND_EVENTS_WAIT);
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(get_info_queue_and_context) {
    ur_event_handle_t e = marker(T.queue);
    ur_queue_handle_t q = NULL;
    ur_context_handle_t c = NULL;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_QUEUE, sizeof q, &q, NULL));
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_CONTEXT, sizeof c, &c, NULL));
    ck_assert_ptr_eq(q, T.queue);
    ck_assert_ptr_eq(c, T.context);
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(get_info_status_complete_after_wait) {
    ur_event_handle_t e = marker(T.queue);
    ck_assert_ur_ok(urEventWait(1, &e));
    ur_event_status_t status = UR_EVENT_STATUS_QUEUED;
    ck_assert_ur_ok(
        urEventGetInfo(e, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    ck_assert_int_eq(status, UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(get_info_larger_buffer_accepted) {
    ur_event_handle_t e = marker(T.queue);
    uint64_t big = 0;
    size_t size = 0;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_TYPE, sizeof big, &big, &size));
    ck_assert_uint_eq(size, sizeof(ur_command_t));
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(profiling_info_on_profiling_queue) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_PROFILING_ENABLE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    ur_event_handle_t e = marker(q);
    ck_assert_ur_ok(urEventWait(1, &e));
    uint64_t start = 0, end = 0;
    ck_assert_ur_ok(
        urEventGetProfilingInfo(e, UR_PROFILING_INFO_COMMAND_START, sizeof start, &start, NULL));
    ck_assert_ur_ok(
        urEventGetProfilingInfo(e, UR_PROFILING_INFO_COMMAND_END, sizeof end, &end, NULL));
    ck_assert_uint_le(start, end);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

START_TEST(profiling_info_without_profiling_is_not_available) {
    ur_event_handle_t e = marker(T.queue);
    ck_assert_ur_ok(urEventWait(1, &e));
    uint64_t start = 0;
    ck_assert_ur(
        urEventGetProfilingInfo(e, UR_PROFILING_INFO_COMMAND_START, sizeof start, &start, NULL),
        UR_RESULT_ERROR_PROFILING_INFO_NOT_AVAILABLE);
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(wait_on_several_events) {
    ur_event_handle_t e[3] = {marker(T.queue), marker(T.queue), marker(T.queue)};
    ck_assert_ur_ok(urEventWait(3, e));
    for (int i = 0; i < 3; ++i)
        ck_assert_ur_ok(urEventRelease(e[i]));
}
END_TEST

START_TEST(wait_on_events_of_two_contexts) {
    ur_context_handle_t c2 = NULL;
    ur_queue_handle_t q2 = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &c2));
    ck_assert_ur_ok(urQueueCreate(c2, T.device, NULL, &q2));
    ur_event_handle_t e[3] = {marker(T.queue), marker(q2), marker(T.queue)};
    ck_assert_ur_ok(urEventWait(3, e));
    for (int i = 0; i < 3; ++i)
        ck_assert_ur_ok(urEventRelease(e[i]));
    ck_assert_ur_ok(urQueueRelease(q2));
    ck_assert_ur_ok(urContextRelease(c2));
}
END_TEST

START_TEST(wait_on_queue_is_invalid_event) {
    ur_event_handle_t wrong = (ur_event_handle_t)T.queue;
    ck_assert_ur(urEventWait(1, &wrong), UR_RESULT_ERROR_INVALID_EVENT);
}
END_TEST

START_TEST(retain_and_release_count) {
    ur_event_handle_t e = marker(T.queue);
    ck_assert_ur_ok(urEventRetain(e));
    uint32_t n = 0;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 2);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 1);
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(event_keeps_queue_alive) {
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &q));
    ur_event_handle_t e = marker(q);
    ck_assert_ur_ok(urQueueRelease(q));
    ur_queue_handle_t back = NULL;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_QUEUE, sizeof back, &back, NULL));
    ck_assert_ptr_eq(back, q);
    ck_assert_ur_ok(urQueueFinish(back));
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(native_handle_round_trip) {
    ur_event_handle_t e = marker(T.queue);
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urEventGetNativeHandle(e, &native));
    ur_event_handle_t again = NULL;
    ck_assert_ur_ok(urEventCreateWithNativeHandle(native, T.context, NULL, &again));
    ur_command_t type = UR_COMMAND_FORCE_UINT32;
    ck_assert_ur_ok(urEventGetInfo(again, UR_EVENT_INFO_COMMAND_TYPE, sizeof type, &type, NULL));
    ck_assert_int_eq(type, UR_COMMAND_EVENTS_WAIT);
    ck_assert_ur_ok(urEventRelease(again));
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(native_event_finds_its_queue) {
    ur_event_handle_t e = marker(T.queue);
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urEventGetNativeHandle(e, &native));
    ur_event_handle_t again = NULL;
    ck_assert_ur_ok(urEventCreateWithNativeHandle(native, T.context, NULL, &again));
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urEventGetInfo(again, UR_EVENT_INFO_COMMAND_QUEUE, sizeof q, &q, NULL));
    ur_native_handle_t qn = 0, mine = 0;
    ck_assert_ur_ok(urQueueGetNativeHandle(q, NULL, &qn));
    ck_assert_ur_ok(urQueueGetNativeHandle(T.queue, NULL, &mine));
    ck_assert(qn == mine);
    ck_assert_ur_ok(urEventRelease(again));
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(create_with_native_user_event) {
    ur_native_handle_t ctx = 0;
    ck_assert_ur_ok(urContextGetNativeHandle(T.context, &ctx));
    cl_int err = CL_SUCCESS;
    cl_event user = clCreateUserEvent((cl_context)ctx, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    ur_event_native_properties_t owned = {UR_STRUCTURE_TYPE_EVENT_NATIVE_PROPERTIES, NULL, true};
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEventCreateWithNativeHandle((ur_native_handle_t)user, T.context, &owned, &e));
    // A user event has no queue.
    ur_queue_handle_t q = T.queue;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_QUEUE, sizeof q, &q, NULL));
    ck_assert_ptr_null(q);
    clSetUserEventStatus(user, CL_COMPLETE);
    ck_assert_ur_ok(urEventWait(1, &e));
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

static void on_complete(ur_event_handle_t e, ur_execution_info_t status, void *user) {
    (void)e;
    if (status == UR_EXECUTION_INFO_COMPLETE)
        __atomic_store_n((int *)user, 1, __ATOMIC_SEQ_CST);
}

START_TEST(callback_runs_on_completion) {
    static int done;
    done = 0;
    ur_event_handle_t e = marker(T.queue);
    ck_assert_ur_ok(urEventSetCallback(e, UR_EXECUTION_INFO_COMPLETE, on_complete, &done));
    ck_assert_ur_ok(urEventWait(1, &e));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    for (int i = 0; i < 10000 && !__atomic_load_n(&done, __ATOMIC_SEQ_CST); ++i)
        usleep(100);
    ck_assert_int_eq(done, 1);
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(callback_on_queued_is_unsupported) {
    ur_event_handle_t e = marker(T.queue);
    int done = 0;
    ck_assert_ur(urEventSetCallback(e, UR_EXECUTION_INFO_QUEUED, on_complete, &done),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl event");
    TCase *tc = oclt_tcase("urEventGetInfo");
    tcase_add_test(tc, get_info_command_type);
    tcase_add_test(tc, get_info_queue_and_context);
    tcase_add_test(tc, get_info_status_complete_after_wait);
    tcase_add_test(tc, get_info_larger_buffer_accepted);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEventGetProfilingInfo");
    tcase_add_test(tc, profiling_info_on_profiling_queue);
    tcase_add_test(tc, profiling_info_without_profiling_is_not_available);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEventWait");
    tcase_add_test(tc, wait_on_several_events);
    tcase_add_test(tc, wait_on_events_of_two_contexts);
    tcase_add_test(tc, wait_on_queue_is_invalid_event);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEventRetain");
    tcase_add_test(tc, retain_and_release_count);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEventRelease");
    tcase_add_test(tc, event_keeps_queue_alive);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEventGetNativeHandle");
    tcase_add_test(tc, native_handle_round_trip);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEventCreateWithNativeHandle");
    tcase_add_test(tc, native_event_finds_its_queue);
    tcase_add_test(tc, create_with_native_user_event);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEventSetCallback");
    tcase_add_test(tc, callback_runs_on_completion);
    tcase_add_test(tc, callback_on_queued_is_unsupported);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
