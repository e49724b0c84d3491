// SPDX-License-Identifier: MIT
// The lifetime cases every adapter shares (lifetime_cases.h).
#include "lifetime_cases.h"

#include <pthread.h>
#include <string.h>

static uint32_t queue_refs(ur_queue_handle_t q) {
    uint32_t n = 99;
    ck_assert_ur_ok(urQueueGetInfo(q, UR_QUEUE_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    return n;
}

static uint32_t event_refs(ur_event_handle_t e) {
    uint32_t n = 99;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    return n;
}

START_TEST(event_holds_its_queue_apart_from_the_user) {
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(urc_test_opened.context, urc_test_opened.device, NULL, &q));
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(q, 0, NULL, &e));
    ck_assert_uint_eq(queue_refs(q), 1); // the event's reference is not the user's
    ck_assert_ur_ok(urQueueRelease(q));
    // The user's count is 0, the event still holds the queue: a second release is refused
    // instead of freeing what the event uses.
    ck_assert_ur(urQueueRelease(q), UR_RESULT_ERROR_INVALID_QUEUE);
    ur_queue_handle_t got = NULL;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_QUEUE, sizeof got, &got, NULL));
    ck_assert_ptr_eq(got, q);
    ck_assert_uint_eq(queue_refs(q), 0);
    // Handed out again by the query: retaining it gives the user a reference once more.
    ck_assert_ur_ok(urQueueRetain(q));
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur_ok(urEventWait(1, &e));
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(queue_holds_its_context_apart_from_the_user) {
    ur_context_handle_t c = NULL;
    ck_assert_ur_ok(urContextCreate(1, &urc_test_opened.device, NULL, &c));
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(c, urc_test_opened.device, NULL, &q));
    uint32_t n = 99;
    ck_assert_ur_ok(urContextGetInfo(c, UR_CONTEXT_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 1);
    ck_assert_ur_ok(urContextRelease(c));
    ck_assert_ur(urContextRelease(c), UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur_ok(urQueueFinish(q));
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

START_TEST(sub_buffer_holds_its_buffer_apart_from_the_user) {
    ur_mem_handle_t b = NULL, sub = NULL;
    ck_assert_ur_ok(
        urMemBufferCreate(urc_test_opened.context, UR_MEM_FLAG_READ_WRITE, 256, NULL, &b));
    ur_buffer_region_t region = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, 0, 64};
    ck_assert_ur_ok(urMemBufferPartition(b, UR_MEM_FLAG_READ_WRITE, UR_BUFFER_CREATE_TYPE_REGION,
                                         &region, &sub));
    ck_assert_ur_ok(urMemRelease(b));
    ck_assert_ur(urMemRelease(b), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    uint8_t data[64];
    memset(data, 7, sizeof data);
    ck_assert_ur_ok(urEnqueueMemBufferWrite(urc_test_opened.queue, sub, true, 0, sizeof data, data,
                                            0, NULL, NULL));
    ck_assert_ur_ok(urMemRelease(sub));
}
END_TEST

// The queue may keep its last or pending events; those are the adapter's references, not the
// user's.
START_TEST(event_reference_count_is_the_users) {
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(urc_test_opened.queue, 0, NULL, &e));
    ck_assert_uint_eq(event_refs(e), 1);
    ck_assert_ur_ok(urEventRetain(e));
    ck_assert_uint_eq(event_refs(e), 2);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_uint_eq(event_refs(e), 1);
    ck_assert_ur_ok(urQueueFinish(urc_test_opened.queue));
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

enum { STORM_THREADS = 8, STORM_ROUNDS = 5000 };

static void *retain_release_storm(void *arg) {
    ur_event_handle_t e = arg;
    for (int i = 0; i < STORM_ROUNDS; ++i) {
        if (urEventRetain(e) != UR_RESULT_SUCCESS || urEventRelease(e) != UR_RESULT_SUCCESS)
            return (void *)1;
    }
    return NULL;
}

START_TEST(retain_release_storm_on_one_event) {
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(urc_test_opened.queue, 0, NULL, &e));
    pthread_t t[STORM_THREADS];
    for (int i = 0; i < STORM_THREADS; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, retain_release_storm, e), 0);
    for (int i = 0; i < STORM_THREADS; ++i) {
        void *failed = NULL;
        pthread_join(t[i], &failed);
        ck_assert_ptr_null(failed);
    }
    ck_assert_uint_eq(event_refs(e), 1);
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

// The generated checks answer each kind's result before adapter code runs.
START_TEST(wrong_kind_handles_get_the_kinds_result) {
    ur_device_handle_t not_device = (ur_device_handle_t)urc_test_opened.context;
    ur_queue_handle_t q = NULL;
    void *p = NULL;
    ck_assert_ur(urQueueCreate(urc_test_opened.context, not_device, NULL, &q),
                 UR_RESULT_ERROR_INVALID_DEVICE);
    ck_assert_ur(urUSMDeviceAlloc(urc_test_opened.context, not_device, NULL, NULL, 64, &p),
                 UR_RESULT_ERROR_INVALID_DEVICE);
    ck_assert_ur(urUSMSharedAlloc(urc_test_opened.context, not_device, NULL, NULL, 64, &p),
                 UR_RESULT_ERROR_INVALID_DEVICE);
    ck_assert_ur(urQueueFlush((ur_queue_handle_t)urc_test_opened.context),
                 UR_RESULT_ERROR_INVALID_QUEUE);
    ck_assert_ur(urQueueFinish((ur_queue_handle_t)urc_test_opened.context),
                 UR_RESULT_ERROR_INVALID_QUEUE);
    ck_assert_ur(urEventRetain((ur_event_handle_t)urc_test_opened.queue),
                 UR_RESULT_ERROR_INVALID_EVENT);
    ck_assert_ur(urEventRelease((ur_event_handle_t)urc_test_opened.queue),
                 UR_RESULT_ERROR_INVALID_EVENT);
    ck_assert_ur(urKernelRetain((ur_kernel_handle_t)urc_test_opened.queue),
                 UR_RESULT_ERROR_INVALID_KERNEL);
    ck_assert_ur(urProgramRetain((ur_program_handle_t)urc_test_opened.queue),
                 UR_RESULT_ERROR_INVALID_PROGRAM);
    ck_assert_ur(urMemRelease((ur_mem_handle_t)urc_test_opened.queue),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ur_event_handle_t bad = (ur_event_handle_t)urc_test_opened.context;
    ck_assert_ur(urEnqueueEventsWait(urc_test_opened.queue, 1, &bad, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur(urSamplerRetain((ur_sampler_handle_t)urc_test_opened.queue),
                 UR_RESULT_ERROR_INVALID_SAMPLER);
    ck_assert_ur(urSamplerRelease((ur_sampler_handle_t)urc_test_opened.queue),
                 UR_RESULT_ERROR_INVALID_SAMPLER);
}
END_TEST

void lifetime_cases_add_counts(TCase *tc) {
    tcase_add_test(tc, event_holds_its_queue_apart_from_the_user);
    tcase_add_test(tc, queue_holds_its_context_apart_from_the_user);
    tcase_add_test(tc, sub_buffer_holds_its_buffer_apart_from_the_user);
    tcase_add_test(tc, event_reference_count_is_the_users);
}

void lifetime_cases_add_threads(TCase *tc) {
    tcase_add_test(tc, retain_release_storm_on_one_event);
}

void lifetime_cases_add_handles(TCase *tc) {
    tcase_add_test(tc, wrong_kind_handles_get_the_kinds_result);
}
