// SPDX-License-Identifier: MIT
// IPC event handles (urIPCGetEventHandleExp / PutEventHandleExp / OpenEventHandleExp) through
// the loader, the same suite for every adapter. Where the device reports no IPC events
// (OpenCL) the calls answer UNSUPPORTED_FEATURE after their argument checks. Where it does
// (CUDA, Level Zero): which events may be exported, handle data that is the wrong size,
// garbage or already put back, and opens in this process (as UR's conformance suite does) and in
// another one (fork and a pipe for the handle data; a real GPU only, since the simulated
// drivers' events live in one process).
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "urc_child.h"
#include "urc_fixture.h"

static urc_test_handles_t T;
static struct {
    bool ipc; // UR_DEVICE_INFO_IPC_EVENT_SUPPORT_EXP
} has;

static void setup(void) {
    urc_test_handles_open(&T);
    has.ipc = urc_test_device_says(T.device, UR_DEVICE_INFO_IPC_EVENT_SUPPORT_EXP);
}

static void teardown(void) {
    urc_test_handles_close(&T);
}

static const ur_exp_enqueue_ext_properties_t props = {UR_STRUCTURE_TYPE_EXP_ENQUEUE_EXT_PROPERTIES,
                                                      NULL, 0};

static ur_event_handle_t make_event(ur_context_handle_t ctx, ur_device_handle_t dev,
                                    ur_exp_event_flags_t flags) {
    ur_exp_event_desc_t desc = {UR_STRUCTURE_TYPE_EXP_EVENT_DESC, NULL, flags};
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEventCreateExp(ctx, dev, &desc, &e));
    return e;
}

START_TEST(unsupported_answers_after_checks) {
    if (has.ipc)
        return;
    ur_event_handle_t e = make_event(T.context, T.device, UR_EXP_EVENT_FLAG_IPC_EXP);
    void *data = NULL;
    size_t size = 0;
    ck_assert_ur(urIPCGetEventHandleExp(e, NULL, &size), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urIPCGetEventHandleExp(e, &data, &size), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    unsigned char bytes[64] = {0};
    ur_event_handle_t opened = NULL;
    ck_assert_ur(urIPCOpenEventHandleExp(T.context, NULL, sizeof bytes, &opened),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urIPCOpenEventHandleExp(T.context, bytes, sizeof bytes, &opened),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur(urIPCPutEventHandleExp(T.context, NULL), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(only_ipc_events_export) {
    if (!has.ipc)
        return;
    void *data = NULL;
    size_t size = 0;
    ur_event_handle_t plain = make_event(T.context, T.device, 0);
    ck_assert_ur(urIPCGetEventHandleExp(plain, &data, &size), UR_RESULT_ERROR_INVALID_EVENT);
    ur_event_handle_t ordinary = NULL;
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrier(T.queue, 0, NULL, &ordinary));
    ck_assert_ur(urIPCGetEventHandleExp(ordinary, &data, &size), UR_RESULT_ERROR_INVALID_EVENT);
    ck_assert_ur(urIPCGetEventHandleExp(NULL, &data, &size), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur_ok(urEventWait(1, &ordinary));
    ck_assert_ur_ok(urEventRelease(ordinary));
    ck_assert_ur_ok(urEventRelease(plain));
}
END_TEST

START_TEST(bad_handle_data_is_refused) {
    if (!has.ipc)
        return;
    ur_event_handle_t e = make_event(T.context, T.device, UR_EXP_EVENT_FLAG_IPC_EXP), h = e;
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 0, NULL, &h));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    void *data = NULL;
    size_t size = 0;
    ck_assert_ur_ok(urIPCGetEventHandleExp(e, &data, &size));
    ck_assert_ptr_nonnull(data);
    ck_assert_uint_gt(size, 0);
    ur_event_handle_t opened = NULL;
    ck_assert_ur(urIPCOpenEventHandleExp(T.context, data, size - 1, &opened),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urIPCOpenEventHandleExp(T.context, data, size + 1, &opened),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urIPCOpenEventHandleExp(T.context, data, 0, &opened),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Garbage of the right size: every byte pattern, none opens.
    unsigned char garbage[512];
    ck_assert_uint_le(size, sizeof garbage);
    for (int fill = 0; fill < 256; fill += 51) {
        memset(garbage, fill, size);
        ck_assert_ur(urIPCOpenEventHandleExp(T.context, garbage, size, &opened),
                     UR_RESULT_ERROR_INVALID_VALUE);
    }
    // The right header around a payload that names no event (bytes 8..15 of CUDA's 64).
    memcpy(garbage, data, size);
    ck_assert_uint_ge(size, 56);
    memset(garbage + size - 56, 0x77, 8);
    ur_result_t r = urIPCOpenEventHandleExp(T.context, garbage, size, &opened);
    if (r == UR_RESULT_SUCCESS)
        ck_assert_ur_ok(urEventRelease(opened)); // the driver's handle had spare bytes there
    else
        ck_assert_ur(r, UR_RESULT_ERROR_INVALID_VALUE);
    // Put takes back only what Get handed out, once.
    ck_assert_ur(urIPCPutEventHandleExp(T.context, garbage), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urIPCPutEventHandleExp(T.context, data));
    ck_assert_ur(urIPCPutEventHandleExp(T.context, data), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urEventWait(1, &e)); // the event itself is untouched
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

// In one process, as UR's conformance suite opens them (urIPCEventExp): CUDA's driver refuses
// such opens, so the adapter answers them with a new event over the exporter's CUevent; the
// CUDA simulator refuses them as the driver does.
START_TEST(open_in_this_process_shares_the_event) {
    if (!has.ipc)
        return;
    ur_event_handle_t e = make_event(T.context, T.device, UR_EXP_EVENT_FLAG_IPC_EXP), h = e;
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 0, NULL, &h));
    void *data = NULL;
    size_t size = 0;
    ck_assert_ur_ok(urIPCGetEventHandleExp(e, &data, &size));
    ur_event_handle_t a = NULL, b = NULL;
    ck_assert_ur_ok(urIPCOpenEventHandleExp(T.context, data, size, &a));
    ck_assert_ur_ok(urIPCOpenEventHandleExp(T.context, data, size, &b));
    ck_assert_ptr_ne(a, b);
    ck_assert_ur_ok(urEventWait(1, &a));
    ck_assert_ur_ok(urEventWait(1, &b));
    // An opened event is not exported again, and is an ordinary event otherwise.
    void *again = NULL;
    size_t again_size = 0;
    ck_assert_ur(urIPCGetEventHandleExp(a, &again, &again_size), UR_RESULT_ERROR_INVALID_EVENT);
    ck_assert_ur_ok(urEventRetain(a));
    ck_assert_ur_ok(urEventRelease(a));
    // Either side can signal; waits on the other see it.
    ur_event_handle_t ha = a;
    for (int i = 0; i < 10; ++i) {
        ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 0, NULL, &ha));
        ck_assert_ptr_eq(ha, a);
        ck_assert_ur_ok(urEventWait(1, &e));
        ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 1, &a, &h));
        ck_assert_ur_ok(urEventWait(1, &b));
    }
    ck_assert_ur_ok(urEventRelease(a));
    ck_assert_ur_ok(urEventRelease(b));
    ck_assert_ur_ok(urIPCPutEventHandleExp(T.context, data));
    // The producer lives on after its handle data is put back.
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 0, NULL, &h));
    ck_assert_ur_ok(urEventWait(1, &e));
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

// The child: reads handle data from `in`, opens it, waits for the event, signals it through a
// barrier of its own queue, and answers 1 (all worked), 0 (a step failed) or 2 (no IPC here).
static int child(int in, int out) {
    unsigned char data[512];
    ssize_t n = read(in, data, sizeof data);
    unsigned char answer = 2;
    if (n > 0) {
        urc_test_handles_t h;
        urc_test_handles_open(&h);
        ur_event_handle_t e = NULL;
        answer = 0;
        if (urIPCOpenEventHandleExp(h.context, data, (size_t)n, &e) == UR_RESULT_SUCCESS) {
            ur_event_handle_t signal = e;
            if (urEventWait(1, &e) == UR_RESULT_SUCCESS &&
                urEnqueueEventsWaitWithBarrierExt(h.queue, &props, 0, NULL, &signal) ==
                    UR_RESULT_SUCCESS &&
                signal == e && urQueueFinish(h.queue) == UR_RESULT_SUCCESS)
                answer = 1;
            urEventRelease(e);
        }
        urc_test_handles_close(&h);
    }
    return write(out, &answer, 1) == 1 ? 0 : 1;
}

START_TEST(two_processes_share_an_event) {
    urc_test_child_t c = urc_test_child_start(child); // before any driver starts here
    setup();
    unsigned char answer = 9;
    if (!has.ipc || urc_test_device_simulated(T.device)) {
        urc_test_child_close_input(&c); // the child reads nothing and answers 2
        ck_assert_int_eq(read(c.from_child, &answer, 1), 1);
        ck_assert_int_eq(answer, 2);
        urc_test_child_wait(&c);
        teardown();
        return;
    }
    ur_event_handle_t e = make_event(T.context, T.device, UR_EXP_EVENT_FLAG_IPC_EXP), h = e;
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 0, NULL, &h));
    void *data = NULL;
    size_t size = 0;
    ck_assert_ur_ok(urIPCGetEventHandleExp(e, &data, &size));
    ck_assert_int_eq(write(c.to_child, data, size), (ssize_t)size);
    urc_test_child_close_input(&c);
    ck_assert_int_eq(read(c.from_child, &answer, 1), 1);
    urc_test_child_wait(&c);
    ck_assert_int_eq(answer, 1);
    // The child's signal has completed; waiting here sees it.
    ck_assert_ur_ok(urEventWait(1, &e));
    ck_assert_ur_ok(urIPCPutEventHandleExp(T.context, data));
    ck_assert_ur_ok(urEventRelease(e));
    teardown();
}
END_TEST

int main(void) {
    Suite *s = suite_create("ipc_event");
    TCase *tc = urc_test_tcase("urIPCEventHandleExp", setup, teardown);
    tcase_add_test(tc, unsupported_answers_after_checks);
    tcase_add_test(tc, only_ipc_events_export);
    tcase_add_test(tc, bad_handle_data_is_refused);
    tcase_add_test(tc, open_in_this_process_shares_the_event);
    suite_add_tcase(s, tc);
    // No fixture: the test forks before it opens anything.
    tc = tcase_create("urIPCEventHandleExp_two_processes");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, two_processes_share_an_event);
    suite_add_tcase(s, tc);
    return urc_test_main_with_platform(s, "no platform for this adapter");
}
