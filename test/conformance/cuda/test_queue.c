// SPDX-License-Identifier: MIT
// urQueue* of the CUDA adapter, through the loader.
#include "cudat.h"

START_TEST(create_in_order_and_info) {
    ur_context_handle_t ctx = NULL;
    ur_device_handle_t dev = NULL;
    ur_queue_flags_t flags = 99;
    ck_assert_ur_ok(urQueueGetInfo(T.queue, UR_QUEUE_INFO_CONTEXT, sizeof ctx, &ctx, NULL));
    ck_assert_ur_ok(urQueueGetInfo(T.queue, UR_QUEUE_INFO_DEVICE, sizeof dev, &dev, NULL));
    ck_assert_ur_ok(urQueueGetInfo(T.queue, UR_QUEUE_INFO_FLAGS, sizeof flags, &flags, NULL));
    ck_assert_ptr_eq(ctx, T.context);
    ck_assert_ptr_eq(dev, T.device);
    ck_assert_uint_eq(flags, 0);
}
END_TEST

START_TEST(create_out_of_order_profiling_priority) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                       UR_QUEUE_FLAG_PROFILING_ENABLE |
                                       UR_QUEUE_FLAG_PRIORITY_HIGH};
    ur_queue_handle_t q = NULL;
    ur_queue_flags_t flags = 0;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    ck_assert_ur_ok(urQueueGetInfo(q, UR_QUEUE_INFO_FLAGS, sizeof flags, &flags, NULL));
    ck_assert_uint_eq(flags, props.flags);
    ck_assert_ur_ok(urQueueFinish(q));
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

START_TEST(create_both_priorities_is_invalid) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_PRIORITY_LOW | UR_QUEUE_FLAG_PRIORITY_HIGH};
    ur_queue_handle_t q = NULL;
    ck_assert_ur(urQueueCreate(T.context, T.device, &props, &q),
                 UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES);
}
END_TEST

START_TEST(retain_counts) {
    uint32_t refs = 0;
    ck_assert_ur_ok(urQueueRetain(T.queue));
    ck_assert_ur_ok(
        urQueueGetInfo(T.queue, UR_QUEUE_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_uint_eq(refs, 2);
    ck_assert_ur_ok(urQueueRelease(T.queue));
}
END_TEST

START_TEST(finish_and_flush_on_idle_queue) {
    ur_bool_t empty = 0;
    ck_assert_ur_ok(urQueueFlush(T.queue));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urQueueGetInfo(T.queue, UR_QUEUE_INFO_EMPTY, sizeof empty, &empty, NULL));
    ck_assert(empty);
}
END_TEST

START_TEST(native_handle_round_trip) {
    ur_native_handle_t stream = 0;
    ur_queue_handle_t q = NULL;
    ur_queue_native_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_NATIVE_PROPERTIES, NULL, false};
    ck_assert_ur_ok(urQueueGetNativeHandle(T.queue, NULL, &stream));
    ck_assert_uint_ne(stream, 0);
    ck_assert_ur_ok(urQueueCreateWithNativeHandle(stream, T.context, T.device, &props, &q));
    ck_assert_ur_ok(urQueueFinish(q));
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur_ok(urQueueFinish(T.queue)); // the stream is still the fixture's
}
END_TEST

START_TEST(get_info_size_is_unsupported) {
    uint32_t size = 0;
    ck_assert_ur(urQueueGetInfo(T.queue, UR_QUEUE_INFO_SIZE, sizeof size, &size, NULL),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda queue");
    TCase *tc = cudat_tcase("urQueueCreate");
    tcase_add_test(tc, create_in_order_and_info);
    tcase_add_test(tc, create_out_of_order_profiling_priority);
    tcase_add_test(tc, create_both_priorities_is_invalid);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urQueueRetain");
    tcase_add_test(tc, retain_counts);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urQueueFinish");
    tcase_add_test(tc, finish_and_flush_on_idle_queue);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urQueueGetNativeHandle");
    tcase_add_test(tc, native_handle_round_trip);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urQueueGetInfo");
    tcase_add_test(tc, get_info_size_is_unsupported);
    suite_add_tcase(s, tc);
    return cudat_main(s, false);
}
