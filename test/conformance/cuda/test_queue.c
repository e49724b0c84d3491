// SPDX-License-Identifier: MIT
// urQueue* of the CUDA adapter, through the loader.
#include <dlfcn.h>
#include <pthread.h>

#include "cudat.h"

// The simulated driver's count of streams ever created; -1 on a real driver.
static long streams_created(void) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    size_t (*count)(void) =
        lib != NULL ? (size_t(*)(void))dlsym(lib, "urc_cuda_sim_streams_created") : NULL;
    long n = count != NULL ? (long)count() : -1;
    if (lib != NULL)
        dlclose(lib);
    return n;
}

// A command that needs the queue's stream and leaves a result to check.
static void use(ur_queue_handle_t q) {
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(q, 0, NULL, &e));
    ck_assert_ur_ok(urEventWait(1, &e));
    ck_assert_ur_ok(urEventRelease(e));
}

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

// Streams are made on first use: creating and releasing queues calls no stream function.
START_TEST(create_makes_no_stream) {
    long before = streams_created();
    for (int i = 0; i < 100; ++i) {
        ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                       i % 2 ? UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0};
        ur_queue_handle_t q = NULL;
        ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
        bool empty = false;
        ck_assert_ur_ok(urQueueGetInfo(q, UR_QUEUE_INFO_EMPTY, sizeof empty, &empty, NULL));
        ck_assert(empty);
        ck_assert_ur_ok(urQueueFinish(q));
        ck_assert_ur_ok(urQueueRelease(q));
    }
    ck_assert_int_eq(streams_created(), before);
}
END_TEST

// A released queue's stream goes to the device's pool and serves the next queue.
START_TEST(released_stream_serves_the_next_queue) {
    ur_queue_handle_t a = NULL, b = NULL;
    ur_native_handle_t sa = 0, sb = 0;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &a));
    use(a);
    ck_assert_ur_ok(urQueueGetNativeHandle(a, NULL, &sa));
    ck_assert_ur_ok(urQueueRelease(a));
    long before = streams_created();
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &b));
    use(b);
    ck_assert_ur_ok(urQueueGetNativeHandle(b, NULL, &sb));
    ck_assert_uint_eq(sa, sb);
    ck_assert_int_eq(streams_created(), before);
    ck_assert_ur_ok(urQueueRelease(b));
}
END_TEST

// Priority queues make their own streams (the pool holds default ones only).
START_TEST(priority_queue_does_not_take_a_pooled_stream) {
    ur_queue_handle_t a = NULL, b = NULL;
    ur_native_handle_t sa = 0, sb = 0;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &a));
    use(a);
    ck_assert_ur_ok(urQueueGetNativeHandle(a, NULL, &sa));
    ck_assert_ur_ok(urQueueRelease(a));
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_PRIORITY_HIGH};
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &b));
    use(b);
    ck_assert_ur_ok(urQueueGetNativeHandle(b, NULL, &sb));
    ck_assert_uint_ne(sa, sb);
    ck_assert_ur_ok(urQueueRelease(b));
}
END_TEST

// The native handle of a queue never used is a real stream the caller may use.
START_TEST(native_handle_makes_the_stream) {
    ur_queue_handle_t q = NULL;
    ur_native_handle_t s = 0;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &q));
    ck_assert_ur_ok(urQueueGetNativeHandle(q, NULL, &s));
    ck_assert_uint_ne(s, 0);
    use(q);
    ur_native_handle_t again = 0;
    ck_assert_ur_ok(urQueueGetNativeHandle(q, NULL, &again));
    ck_assert_uint_eq(s, again);
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

// A barrier first thing on an out-of-order queue: every stream takes part.
START_TEST(barrier_on_fresh_out_of_order_queue) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrier(q, 0, NULL, &e));
    ck_assert_ur_ok(urEventWait(1, &e));
    ck_assert_ur_ok(urEventRelease(e));
    for (int i = 0; i < 8; ++i)
        use(q);
    ck_assert_ur_ok(urQueueFinish(q));
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

#define RACERS 8
static ur_queue_handle_t race_queue;
static pthread_barrier_t race_start;

static void *race(void *arg) {
    ur_event_handle_t *e = arg;
    pthread_barrier_wait(&race_start);
    return (void *)(intptr_t)urEnqueueEventsWait(race_queue, 0, NULL, e);
}

// Threads racing to make an in-order queue's stream agree on one.
START_TEST(threads_race_for_the_first_stream) {
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &race_queue));
    long before = streams_created();
    pthread_t threads[RACERS];
    ur_event_handle_t events[RACERS];
    pthread_barrier_init(&race_start, NULL, RACERS);
    for (int i = 0; i < RACERS; ++i)
        ck_assert_int_eq(pthread_create(&threads[i], NULL, race, &events[i]), 0);
    for (int i = 0; i < RACERS; ++i) {
        void *r = NULL;
        pthread_join(threads[i], &r);
        ck_assert_int_eq((intptr_t)r, UR_RESULT_SUCCESS);
    }
    pthread_barrier_destroy(&race_start);
    ck_assert_ur_ok(urEventWait(RACERS, events));
    for (int i = 0; i < RACERS; ++i)
        ck_assert_ur_ok(urEventRelease(events[i]));
    if (before >= 0)
        ck_assert_int_eq(streams_created(), before + 1);
    ck_assert_ur_ok(urQueueRelease(race_queue));
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda queue");
    TCase *tc = cudat_tcase("urQueueCreate");
    tcase_add_test(tc, create_in_order_and_info);
    tcase_add_test(tc, create_out_of_order_profiling_priority);
    tcase_add_test(tc, create_both_priorities_is_invalid);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("streams made on first use");
    tcase_add_test(tc, create_makes_no_stream);
    tcase_add_test(tc, released_stream_serves_the_next_queue);
    tcase_add_test(tc, priority_queue_does_not_take_a_pooled_stream);
    tcase_add_test(tc, native_handle_makes_the_stream);
    tcase_add_test(tc, barrier_on_fresh_out_of_order_queue);
    tcase_add_test(tc, threads_race_for_the_first_stream);
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
