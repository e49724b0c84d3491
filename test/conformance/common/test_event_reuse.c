// SPDX-License-Identifier: MIT
// Reusable events (urEventCreateExp, signalled by urEnqueueEventsWaitWithBarrierExt) through
// the loader, the same suite for every adapter (common/queue/reusable_event): creation and its
// errors, signals that keep the caller's handle, many signal / wait / re-signal rounds that
// order real work between two queues, a wait list naming the event it signals, an output
// `*phEvent` holding garbage or a stale handle, and signals from a queue of another context.
// Also urEventWait on a chain of commands across contexts (UR's CTS
// urEventWaitTest.WithCrossContextDependencies).
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "urc_fixture.h"

static urc_test_handles_t T;

static void setup(void) {
    urc_test_handles_open(&T);
}

static void teardown(void) {
    urc_test_handles_close(&T);
}

static const ur_exp_enqueue_ext_properties_t props = {UR_STRUCTURE_TYPE_EXP_ENQUEUE_EXT_PROPERTIES,
                                                      NULL, 0};

static ur_event_handle_t make_reusable(ur_exp_event_flags_t flags) {
    ur_exp_event_desc_t desc = {UR_STRUCTURE_TYPE_EXP_EVENT_DESC, NULL, flags};
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEventCreateExp(T.context, T.device, &desc, &e));
    ck_assert_ptr_nonnull(e);
    return e;
}

static ur_event_status_t status_of(ur_event_handle_t e) {
    ur_event_status_t s = UR_EVENT_STATUS_ERROR;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL));
    return s;
}

START_TEST(device_reports_reusable_events) {
    ur_bool_t b = false;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_REUSABLE_EVENTS_SUPPORT_EXP, sizeof b, &b, NULL));
    ck_assert(b);
    // IPC events: a definite answer on every adapter (true only where they are built).
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_IPC_EVENT_SUPPORT_EXP, sizeof b, &b, NULL));
}
END_TEST

START_TEST(created_event_is_complete_until_signalled) {
    ur_event_handle_t e = make_reusable(0);
    ck_assert_int_eq(status_of(e), UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventWait(1, &e)); // returns at once
    ur_context_handle_t ctx = NULL;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_CONTEXT, sizeof ctx, &ctx, NULL));
    ck_assert_ptr_eq(ctx, T.context);
    ur_command_t type = UR_COMMAND_FORCE_UINT32;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_TYPE, sizeof type, &type, NULL));
    ck_assert_int_eq(type, UR_COMMAND_EVENTS_WAIT_WITH_BARRIER);
    ur_queue_handle_t q = T.queue;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_QUEUE, sizeof q, &q, NULL));
    ck_assert_ptr_null(q); // no signal yet
    // A marker waiting for it runs.
    ur_event_handle_t after = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 1, &e, &after));
    ck_assert_ur_ok(urEventWait(1, &after));
    ck_assert_ur_ok(urEventRelease(after));
    // Ordinary reference counting.
    ck_assert_ur_ok(urEventRetain(e));
    uint32_t refs = 0;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_uint_eq(refs, 2);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(create_refuses_bad_input) {
    ur_exp_event_desc_t desc = {UR_STRUCTURE_TYPE_EXP_EVENT_DESC, NULL, 0};
    ur_event_handle_t e = NULL;
    ck_assert_ur(urEventCreateExp(NULL, T.device, &desc, &e), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urEventCreateExp(T.context, NULL, &desc, &e), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urEventCreateExp(T.context, T.device, NULL, &e),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urEventCreateExp(T.context, T.device, &desc, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    desc.flags = UR_EXP_EVENT_FLAG_IPC_EXP | 0x80000000u;
    ck_assert_ur(urEventCreateExp(T.context, T.device, &desc, &e),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    desc.flags = 0x4;
    ck_assert_ur(urEventCreateExp(T.context, T.device, &desc, &e),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    // IPC and profiling exclude each other.
    desc.flags = UR_EXP_EVENT_FLAG_IPC_EXP | UR_EXP_EVENT_FLAG_ENABLE_PROFILING;
    ck_assert_ur(urEventCreateExp(T.context, T.device, &desc, &e), UR_RESULT_ERROR_INVALID_VALUE);
    // A pNext chain that loops.
    ur_base_desc_t loop = {UR_STRUCTURE_TYPE_EXP_EVENT_DESC, NULL};
    loop.pNext = &loop;
    desc.flags = 0;
    desc.pNext = &loop;
    ck_assert_ur(urEventCreateExp(T.context, T.device, &desc, &e), UR_RESULT_ERROR_INVALID_VALUE);
    desc.pNext = NULL;
    // A queue is not a context, a context is not a device.
    ck_assert_ur(urEventCreateExp((ur_context_handle_t)T.queue, T.device, &desc, &e),
                 UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur(urEventCreateExp(T.context, (ur_device_handle_t)T.context, &desc, &e),
                 UR_RESULT_ERROR_INVALID_DEVICE);
}
END_TEST

// ENABLE_PROFILING: an event that times its signals where the device can time one event,
// UNSUPPORTED_FEATURE where only a profiling queue times commands.
START_TEST(profiling_flag_works_or_is_unsupported) {
    ur_exp_event_desc_t desc = {UR_STRUCTURE_TYPE_EXP_EVENT_DESC, NULL,
                                UR_EXP_EVENT_FLAG_ENABLE_PROFILING};
    ur_event_handle_t e = NULL;
    ur_result_t r = urEventCreateExp(T.context, T.device, &desc, &e);
    if (r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE) {
        ck_assert_ptr_null(e);
        return;
    }
    ck_assert_ur_ok(r);
    uint64_t t = 0;
    ck_assert_ur(urEventGetProfilingInfo(e, UR_PROFILING_INFO_COMMAND_END, sizeof t, &t, NULL),
                 UR_RESULT_ERROR_PROFILING_INFO_NOT_AVAILABLE);
    ur_event_handle_t h = e;
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 0, NULL, &h));
    ck_assert_ptr_eq(h, e);
    ck_assert_ur_ok(urEventWait(1, &e));
    uint64_t start = 0, end = 0;
    ck_assert_ur_ok(
        urEventGetProfilingInfo(e, UR_PROFILING_INFO_COMMAND_START, sizeof start, &start, NULL));
    ck_assert_ur_ok(
        urEventGetProfilingInfo(e, UR_PROFILING_INFO_COMMAND_END, sizeof end, &end, NULL));
    ck_assert_uint_gt(end, 0);
    ck_assert_uint_le(start, end);
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(barrier_signals_the_callers_event) {
    ur_event_handle_t e = make_reusable(0);
    ur_event_handle_t h = e;
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 0, NULL, &h));
    ck_assert_ptr_eq(h, e); // signalled, not replaced
    ck_assert_ur_ok(urEventWait(1, &h));
    ck_assert_int_eq(status_of(e), UR_EVENT_STATUS_COMPLETE);
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_QUEUE, sizeof q, &q, NULL));
    ck_assert_ptr_eq(q, T.queue);
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, NULL, 0, NULL, &h));
    ck_assert_ptr_eq(h, e);
    ck_assert_ur_ok(urQueueFinish(T.queue));
    uint32_t refs = 0;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_uint_eq(refs, 1); // a signal hands out no reference
    // The native handle is the latest signal's.
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urEventGetNativeHandle(e, &native));
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

// Many rounds: queue A fills a buffer with the round's number and signals the event; queue B
// reads the buffer after waiting for it. Each read sees its own round's value.
START_TEST(signal_wait_resignal_orders_two_queues) {
    ur_queue_handle_t b = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &b));
    enum { N = 4096 };
    ur_mem_handle_t buf = NULL;
    ck_assert_ur_ok(
        urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, N * sizeof(uint32_t), NULL, &buf));
    ur_event_handle_t e = make_reusable(0);
    static uint32_t got[N];
    for (uint32_t round = 1; round <= 100; ++round) {
        ur_event_handle_t h = e;
        ck_assert_ur_ok(urEnqueueMemBufferFill(T.queue, buf, &round, sizeof round, 0, sizeof got, 0,
                                               NULL, NULL));
        ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 0, NULL, &h));
        ck_assert_ptr_eq(h, e);
        ck_assert_ur_ok(urEnqueueMemBufferRead(b, buf, true, 0, sizeof got, got, 1, &e, NULL));
        ck_assert_uint_eq(got[0], round);
        ck_assert_uint_eq(got[N - 1], round);
    }
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urMemRelease(buf));
    ck_assert_ur_ok(urQueueRelease(b));
}
END_TEST

// A signal whose wait list names the event it signals waits for the previous signal.
START_TEST(wait_list_may_name_the_signalled_event) {
    ur_event_handle_t e = make_reusable(0);
    ur_event_handle_t h = e;
    for (int i = 0; i < 20; ++i) {
        ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 1, &e, &h));
        ck_assert_ptr_eq(h, e);
    }
    ck_assert_ur_ok(urEventWait(1, &e));
    // Two reusable events signalling each other's next round.
    ur_event_handle_t f = make_reusable(0), hf = f;
    for (int i = 0; i < 20; ++i) {
        ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 1, &f, &h));
        ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 1, &e, &hf));
    }
    ur_event_handle_t both[2] = {e, f};
    ck_assert_ur_ok(urEventWait(2, both));
    ck_assert_ur_ok(urEventRelease(f));
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

// `*phEvent` is an output for everyone else: garbage, a stale handle or an ordinary event
// there gets a new event written over it, and nothing is read through it.
START_TEST(output_word_is_never_read_through) {
    ur_event_handle_t out = (ur_event_handle_t)(uintptr_t)0xdeadbeefcafe0000ull;
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 0, NULL, &out));
    ck_assert_ptr_nonnull(out);
    ck_assert_ptr_ne(out, (void *)(uintptr_t)0xdeadbeefcafe0000ull);
    ur_event_handle_t ordinary = out;
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 0, NULL, &out));
    ck_assert_ptr_ne(out, ordinary); // an ordinary event is not reusable: a new one
    ck_assert_ur_ok(urEventWait(1, &ordinary));
    ck_assert_ur_ok(urEventRelease(ordinary));
    ck_assert_ur_ok(urEventRelease(out));
    // A reusable event released by its user is a plain output again.
    ur_event_handle_t gone = make_reusable(0);
    ck_assert_ur_ok(urEventRelease(gone));
    out = gone;
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 0, NULL, &out));
    ck_assert_ptr_nonnull(out);
    ur_command_t type = UR_COMMAND_FORCE_UINT32;
    ck_assert_ur_ok(urEventGetInfo(out, UR_EVENT_INFO_COMMAND_TYPE, sizeof type, &type, NULL));
    ck_assert_int_eq(type, UR_COMMAND_EVENTS_WAIT_WITH_BARRIER);
    ck_assert_ur_ok(urEventWait(1, &out));
    uint32_t refs = 0;
    ck_assert_ur_ok(urEventGetInfo(out, UR_EVENT_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_uint_eq(refs, 1);
    ck_assert_ur_ok(urEventRelease(out));
}
END_TEST

// The event belongs to one context: a queue of another cannot signal it.
START_TEST(signal_from_another_context_is_refused) {
    ur_context_handle_t other = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(other, T.device, NULL, &q));
    ur_event_handle_t e = make_reusable(0), h = e;
    ck_assert_ur(urEnqueueEventsWaitWithBarrierExt(q, &props, 0, NULL, &h),
                 UR_RESULT_ERROR_INVALID_EVENT);
    ck_assert_ptr_eq(h, e);
    ck_assert_int_eq(status_of(e), UR_EVENT_STATUS_COMPLETE);
    // Waiting for it from the other context is fine.
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 0, NULL, &h));
    ur_event_handle_t done = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(q, 1, &e, &done));
    ck_assert_ur_ok(urEventWait(1, &done));
    ck_assert_ur_ok(urEventRelease(done));
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur_ok(urContextRelease(other));
}
END_TEST

// Threads signal and wait for one event while others create and release their own.
static ur_event_handle_t shared_event;

static void *signal_and_wait(void *arg) {
    (void)arg;
    for (int i = 0; i < 50; ++i) {
        ur_event_handle_t h = shared_event;
        if (urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 0, NULL, &h) != UR_RESULT_SUCCESS ||
            h != shared_event || urEventWait(1, &h) != UR_RESULT_SUCCESS)
            return (void *)1;
        ur_exp_event_desc_t desc = {UR_STRUCTURE_TYPE_EXP_EVENT_DESC, NULL, 0};
        ur_event_handle_t mine = NULL;
        if (urEventCreateExp(T.context, T.device, &desc, &mine) != UR_RESULT_SUCCESS ||
            urEventRelease(mine) != UR_RESULT_SUCCESS)
            return (void *)1;
    }
    return NULL;
}

START_TEST(threads_signal_and_wait) {
    shared_event = make_reusable(0);
    pthread_t t[4];
    for (int i = 0; i < 4; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, signal_and_wait, NULL), 0);
    for (int i = 0; i < 4; ++i) {
        void *failed = NULL;
        pthread_join(t[i], &failed);
        ck_assert_ptr_null(failed);
    }
    ck_assert_ur_ok(urEventWait(1, &shared_event));
    ck_assert_ur_ok(urEventRelease(shared_event));
}
END_TEST

// Five contexts of one device, a queue and two buffers in each: each queue copies its source
// buffer into the next context's, waiting for the previous copy (an event of another context);
// the last copies on and reads back; urEventWait takes the events of every context at once. The
// first buffer's words arrive at the end. OpenCL cannot copy between two cl_contexts (UR's CTS
// lists the case as a known failure there): its chain crosses contexts through wait lists only.
START_TEST(wait_with_cross_context_dependencies) {
    enum { N = 5, WORDS = 1024 };
    const size_t size = WORDS * sizeof(uint32_t);
    ur_backend_t backend = UR_BACKEND_UNKNOWN;
    ck_assert_ur_ok(
        urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_BACKEND, sizeof backend, &backend, NULL));
    const bool across = backend != UR_BACKEND_OPENCL;
    ur_context_handle_t ctx[N];
    ur_queue_handle_t q[N];
    ur_mem_handle_t src[N], dst[N];
    static uint32_t input[N][WORDS], output[WORDS];
    for (int i = 0; i < N; ++i) {
        ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &ctx[i]));
        ck_assert_ur_ok(urQueueCreate(ctx[i], T.device, NULL, &q[i]));
        ck_assert_ur_ok(urMemBufferCreate(ctx[i], UR_MEM_FLAG_READ_WRITE, size, NULL, &src[i]));
        ck_assert_ur_ok(urMemBufferCreate(ctx[i], UR_MEM_FLAG_READ_WRITE, size, NULL, &dst[i]));
        for (int w = 0; w < WORDS; ++w)
            input[i][w] = 99u + (uint32_t)i;
        ck_assert_ur_ok(
            urEnqueueMemBufferWrite(q[i], src[i], true, 0, size, input[i], 0, NULL, NULL));
    }
    if (!across)
        ck_assert_ur(urEnqueueMemBufferCopy(q[0], src[0], src[1], 0, 0, size, 0, NULL, NULL),
                     UR_RESULT_ERROR_INVALID_CONTEXT);
    ur_event_handle_t events[N + 1];
    uint32_t n = 0;
    for (int i = 0; i < N - 1; ++i) {
        ck_assert_ur_ok(urEnqueueMemBufferCopy(q[i], src[i], across ? src[i + 1] : dst[i], 0, 0,
                                               size, n ? 1 : 0, n ? &events[n - 1] : NULL,
                                               &events[n]));
        ++n;
    }
    ck_assert_ur_ok(urEnqueueMemBufferCopy(q[N - 1], src[N - 1], dst[N - 1], 0, 0, size, 1,
                                           &events[n - 1], &events[n]));
    ++n;
    memset(output, 0, sizeof output);
    ck_assert_ur_ok(
        urEnqueueMemBufferRead(q[N - 1], dst[N - 1], false, 0, size, output, 0, NULL, &events[n]));
    ++n;
    ck_assert_ur_ok(urEventWait(n, events));
    ck_assert_mem_eq(output, across ? input[0] : input[N - 1], size);
    for (uint32_t i = 0; i < n; ++i)
        ck_assert_ur_ok(urEventRelease(events[i]));
    for (int i = 0; i < N; ++i) {
        ck_assert_ur_ok(urMemRelease(src[i]));
        ck_assert_ur_ok(urMemRelease(dst[i]));
        ck_assert_ur_ok(urQueueRelease(q[i]));
        ck_assert_ur_ok(urContextRelease(ctx[i]));
    }
}
END_TEST

int main(void) {
    Suite *s = suite_create("event_reuse");
    TCase *tc = urc_test_tcase("urEventCreateExp", setup, teardown);
    tcase_add_test(tc, device_reports_reusable_events);
    tcase_add_test(tc, created_event_is_complete_until_signalled);
    tcase_add_test(tc, create_refuses_bad_input);
    tcase_add_test(tc, profiling_flag_works_or_is_unsupported);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("urEnqueueEventsWaitWithBarrierExt_reusable", setup, teardown);
    tcase_add_test(tc, barrier_signals_the_callers_event);
    tcase_add_test(tc, signal_wait_resignal_orders_two_queues);
    tcase_add_test(tc, wait_list_may_name_the_signalled_event);
    tcase_add_test(tc, output_word_is_never_read_through);
    tcase_add_test(tc, signal_from_another_context_is_refused);
    tcase_add_test(tc, threads_signal_and_wait);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("urEventWait", setup, teardown);
    tcase_add_test(tc, wait_with_cross_context_dependencies);
    suite_add_tcase(s, tc);
    return urc_test_main_with_platform(s, "no platform for this adapter");
}
