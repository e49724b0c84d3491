// SPDX-License-Identifier: MIT
// urQueue* of the OpenCL adapter, through the loader.
#include "oclt.h"

static ur_queue_handle_t make(ur_queue_flags_t flags) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL, flags};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    return q;
}

static ur_queue_flags_t flags_of(ur_queue_handle_t q) {
    ur_queue_flags_t f = 0;
    ck_assert_ur_ok(urQueueGetInfo(q, UR_QUEUE_INFO_FLAGS, sizeof f, &f, NULL));
    return f;
}

START_TEST(create_in_order) {
    ur_queue_handle_t q = make(0);
    ck_assert_uint_eq(flags_of(q) & UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0);
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

START_TEST(create_out_of_order) {
    ur_queue_handle_t q = make(UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    ck_assert_uint_ne(flags_of(q) & UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0);
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

START_TEST(create_profiling) {
    ur_queue_handle_t q = make(UR_QUEUE_FLAG_PROFILING_ENABLE);
    ck_assert_uint_ne(flags_of(q) & UR_QUEUE_FLAG_PROFILING_ENABLE, 0);
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

START_TEST(create_ignores_hints) {
    ur_queue_handle_t q = make(UR_QUEUE_FLAG_DISCARD_EVENTS | UR_QUEUE_FLAG_PRIORITY_HIGH |
                               UR_QUEUE_FLAG_SUBMISSION_BATCHED);
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

START_TEST(create_with_unknown_flag_is_invalid_enumeration) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL, 1u << 20};
    ur_queue_handle_t q = NULL;
    ck_assert_ur(urQueueCreate(T.context, T.device, &props, &q),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
}
END_TEST

START_TEST(create_with_context_as_device_is_invalid_device) {
    ur_queue_handle_t q = NULL;
    ck_assert_ur(urQueueCreate(T.context, (ur_device_handle_t)T.context, NULL, &q),
                 UR_RESULT_ERROR_INVALID_DEVICE);
}
END_TEST

START_TEST(retain_and_release_count) {
    uint32_t n = 0;
    ck_assert_ur_ok(urQueueRetain(T.queue));
    ck_assert_ur_ok(urQueueGetInfo(T.queue, UR_QUEUE_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 2);
    ck_assert_ur_ok(urQueueRelease(T.queue));
    ck_assert_ur_ok(urQueueGetInfo(T.queue, UR_QUEUE_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 1);
}
END_TEST

START_TEST(get_info_context_and_device) {
    ur_context_handle_t c = NULL;
    ur_device_handle_t d = NULL;
    ck_assert_ur_ok(urQueueGetInfo(T.queue, UR_QUEUE_INFO_CONTEXT, sizeof c, &c, NULL));
    ck_assert_ur_ok(urQueueGetInfo(T.queue, UR_QUEUE_INFO_DEVICE, sizeof d, &d, NULL));
    ck_assert_ptr_eq(c, T.context);
    ck_assert_ptr_eq(d, T.device);
}
END_TEST

START_TEST(get_info_empty_after_finish) {
    ur_bool_t empty = false;
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urQueueGetInfo(T.queue, UR_QUEUE_INFO_EMPTY, sizeof empty, &empty, NULL));
    ck_assert(empty);
}
END_TEST

START_TEST(get_info_size_of_host_queue_is_unsupported) {
    uint32_t size = 0;
    ck_assert_ur(urQueueGetInfo(T.queue, UR_QUEUE_INFO_SIZE, sizeof size, &size, NULL),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
}
END_TEST

START_TEST(finish_succeeds) {
    ck_assert_ur_ok(urQueueFinish(T.queue));
}
END_TEST

START_TEST(flush_succeeds) {
    ck_assert_ur_ok(urQueueFlush(T.queue));
}
END_TEST

START_TEST(native_handle_round_trip) {
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urQueueGetNativeHandle(T.queue, NULL, &native));
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreateWithNativeHandle(native, T.context, T.device, NULL, &q));
    ur_device_handle_t d = NULL;
    ck_assert_ur_ok(urQueueGetInfo(q, UR_QUEUE_INFO_DEVICE, sizeof d, &d, NULL));
    ck_assert_ptr_eq(d, T.device);
    ck_assert_ur_ok(urQueueRelease(q)); // not owned: the fixture's queue stays valid
    ck_assert_ur_ok(urQueueFinish(T.queue));
}
END_TEST

START_TEST(create_with_native_handle_of_other_context_is_invalid_context) {
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urQueueGetNativeHandle(T.queue, NULL, &native));
    ur_context_handle_t other = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    ur_queue_handle_t q = NULL;
    ck_assert_ur(urQueueCreateWithNativeHandle(native, other, NULL, NULL, &q),
                 UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur_ok(urContextRelease(other));
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl queue");
    TCase *tc = oclt_tcase("urQueueCreate");
    tcase_add_test(tc, create_in_order);
    tcase_add_test(tc, create_out_of_order);
    tcase_add_test(tc, create_profiling);
    tcase_add_test(tc, create_ignores_hints);
    tcase_add_test(tc, create_with_unknown_flag_is_invalid_enumeration);
    tcase_add_test(tc, create_with_context_as_device_is_invalid_device);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urQueueRetain");
    tcase_add_test(tc, retain_and_release_count);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urQueueGetInfo");
    tcase_add_test(tc, get_info_context_and_device);
    tcase_add_test(tc, get_info_empty_after_finish);
    tcase_add_test(tc, get_info_size_of_host_queue_is_unsupported);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urQueueFinish");
    tcase_add_test(tc, finish_succeeds);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urQueueFlush");
    tcase_add_test(tc, flush_succeeds);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urQueueGetNativeHandle");
    tcase_add_test(tc, native_handle_round_trip);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urQueueCreateWithNativeHandle");
    tcase_add_test(tc, create_with_native_handle_of_other_context_is_invalid_context);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
