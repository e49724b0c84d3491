// SPDX-License-Identifier: MIT
// urEventSetCallback of the Level Zero adapter over the simulated driver: the cases of the CUDA
// suite (UR's CTS among them), with commands held back by a user event the test signals with
// zeEventHostSignal, so "not yet" is certain. Runs with immediate and with regular command lists.
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "../common/event_callback_cases.h"
#include "l0t.h"

// ---- helpers ----

static void sleep_ms(long ms) {
    nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL);
}

// The adapter's last release waits for every pending callback (and the references they hold);
// the fixture's adapter reference is taken again afterwards.
static void drain_callbacks(void) {
    ck_assert_ur_ok(urAdapterRelease(T.adapter));
    ck_assert_ur_ok(urAdapterGet(1, &T.adapter, NULL));
}

// Callbacks hold events, which hold Level Zero objects the fixture's leak check counts.
static void teardown(void) {
    drain_callbacks();
    l0t_teardown();
}

static TCase *tcase(const char *name) {
    return urc_test_tcase(name, l0t_setup, teardown);
}

static int *host_alloc(size_t n) {
    int *p = NULL;
    ck_assert_ur_ok(urUSMHostAlloc(T.context, NULL, NULL, n * sizeof(int), (void **)&p));
    memset(p, 0, n * sizeof(int));
    return p;
}

// A command held back until the test signals the gate: a copy of buf[0] to buf[1] on q that
// waits for a user event.
typedef struct gated_t {
    ze_event_handle_t gate_ze;
    ur_event_handle_t gate;
    ur_event_handle_t event; // the copy's
    int *buf;
} gated_t;

static gated_t gated_copy(ur_queue_handle_t q) {
    gated_t g;
    g.gate = l0t_user_event(&g.gate_ze);
    g.buf = host_alloc(2);
    g.buf[0] = 17;
    ck_assert_ur_ok(
        urEnqueueUSMMemcpy(q, false, &g.buf[1], &g.buf[0], sizeof(int), 1, &g.gate, &g.event));
    return g;
}

static void open_gate(gated_t *g) {
    ck_assert_int_eq(zeEventHostSignal(g->gate_ze), ZE_RESULT_SUCCESS);
}

// Frees what gated_copy made except the copy's event, whose owner the test decides.
static void gated_free(gated_t *g) {
    ck_assert_ur_ok(urEventRelease(g->gate));
    ck_assert_ur_ok(urUSMFree(T.context, g->buf));
}

// ---- urEventSetCallback ----

// UR's CTS "Success" and "ValidateParameters": the event is released right after the
// registration, and the callback still runs, with that event and the registered status.
START_TEST(callback_complete_after_release) {
    seen_t *s = seen_new();
    gated_t g = gated_copy(T.queue);
    ck_assert_ur_ok(urEventSetCallback(g.event, UR_EXECUTION_INFO_COMPLETE, on_event, s));
    ck_assert_ur_ok(urEventRelease(g.event));
    open_gate(&g);
    ck_assert_int_eq(seen_wait(s, 1), 1);
    ck_assert_ptr_eq(s->event, g.event);
    ck_assert_int_eq(s->by_status[UR_EXECUTION_INFO_COMPLETE], 1);
    ck_assert_int_eq(s->status_then, UR_EVENT_STATUS_COMPLETE);
    ck_assert_int_eq(g.buf[1], 17);
    gated_free(&g);
}
END_TEST

// A COMPLETE callback does not run before the command is done.
START_TEST(callback_complete_waits_for_the_command) {
    seen_t *s = seen_new();
    gated_t g = gated_copy(T.queue);
    ck_assert_ur_ok(urEventSetCallback(g.event, UR_EXECUTION_INFO_COMPLETE, on_event, s));
    sleep_ms(30);
    ck_assert_int_eq(seen_calls(s), 0);
    ck_assert_int_ne(l0t_status(g.event), UR_EVENT_STATUS_COMPLETE);
    open_gate(&g);
    ck_assert_int_eq(seen_wait(s, 1), 1);
    ck_assert_int_eq(s->status_then, UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventRelease(g.event));
    gated_free(&g);
}
END_TEST

// UR's CTS "AllStates": one callback per status, each told its own status. SUBMITTED runs
// while the command is still held back; RUNNING and COMPLETE once it has completed.
START_TEST(callback_every_status) {
    seen_t *s = seen_new();
    gated_t g = gated_copy(T.queue);
    ck_assert_ur_ok(urEventSetCallback(g.event, UR_EXECUTION_INFO_SUBMITTED, on_event, s));
    ck_assert_ur_ok(urEventSetCallback(g.event, UR_EXECUTION_INFO_RUNNING, on_event, s));
    ck_assert_ur_ok(urEventSetCallback(g.event, UR_EXECUTION_INFO_COMPLETE, on_event, s));
    ck_assert_int_eq(seen_wait(s, 1), 1);
    sleep_ms(20);
    ck_assert_int_eq(seen_calls(s), 1);
    ck_assert_int_eq(s->by_status[UR_EXECUTION_INFO_SUBMITTED], 1);
    open_gate(&g);
    ck_assert_ur_ok(urEventWait(1, &g.event));
    ck_assert_ur_ok(urEventRelease(g.event));
    ck_assert_int_eq(seen_wait(s, 3), 3);
    ck_assert_int_eq(s->by_status[UR_EXECUTION_INFO_RUNNING], 1);
    ck_assert_int_eq(s->by_status[UR_EXECUTION_INFO_COMPLETE], 1);
    gated_free(&g);
}
END_TEST

START_TEST(callback_registers_another) {
    seen_t *s = seen_new();
    gated_t g = gated_copy(T.queue);
    ck_assert_ur_ok(urEventSetCallback(g.event, UR_EXECUTION_INFO_COMPLETE, register_again, s));
    ck_assert_ur_ok(urEventRelease(g.event));
    open_gate(&g);
    ck_assert_int_eq(seen_wait(s, 1), 1);
    gated_free(&g);
}
END_TEST

// A callback may release the event's last user reference; the event goes once the callback
// has returned (the fixture's leak check sees it gone).
static void release_event(ur_event_handle_t ev, ur_execution_info_t status, void *data) {
    ck_assert_ur_ok(urEventRelease(ev));
    on_event(ev, status, data);
}

START_TEST(callback_releases_the_event) {
    seen_t *s = seen_new();
    gated_t g = gated_copy(T.queue);
    ck_assert_ur_ok(urEventSetCallback(g.event, UR_EXECUTION_INFO_COMPLETE, release_event, s));
    open_gate(&g);
    ck_assert_int_eq(seen_wait(s, 1), 1);
    ck_assert_int_eq(s->status_then, UR_EVENT_STATUS_COMPLETE);
    gated_free(&g);
}
END_TEST

START_TEST(callback_needs_an_event) {
    seen_t *s = seen_new();
    ck_assert_ur(
        urEventSetCallback((ur_event_handle_t)T.queue, UR_EXECUTION_INFO_COMPLETE, on_event, s),
        UR_RESULT_ERROR_INVALID_EVENT);
}
END_TEST

// An event made from a native one completes when the application signals it.
START_TEST(callback_on_a_native_event) {
    seen_t *s = seen_new();
    ze_event_handle_t ze = NULL;
    ur_event_handle_t ev = l0t_user_event(&ze);
    ck_assert_ur_ok(urEventSetCallback(ev, UR_EXECUTION_INFO_COMPLETE, on_event, s));
    ck_assert_ur_ok(urEventRelease(ev));
    sleep_ms(20);
    ck_assert_int_eq(seen_calls(s), 0);
    ck_assert_int_eq(zeEventHostSignal(ze), ZE_RESULT_SUCCESS);
    ck_assert_int_eq(seen_wait(s, 1), 1);
    ck_assert_ptr_eq(s->event, ev);
    ck_assert_int_eq(s->status_then, UR_EVENT_STATUS_COMPLETE);
}
END_TEST

// A command recorded in a batch that nobody flushes still completes: registering a callback
// executes the batch, as waiting for the event would.
START_TEST(callback_executes_a_pending_batch) {
    seen_t *s = seen_new();
    ur_queue_handle_t q = l0t_queue(UR_QUEUE_FLAG_SUBMISSION_BATCHED);
    int *buf = host_alloc(2);
    buf[0] = 5;
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, false, &buf[1], &buf[0], sizeof(int), 0, NULL, &ev));
    ck_assert_int_eq(l0t_status(ev), UR_EVENT_STATUS_QUEUED);
    ck_assert_ur_ok(urEventSetCallback(ev, UR_EXECUTION_INFO_COMPLETE, on_event, s));
    ck_assert_int_ne(l0t_status(ev), UR_EVENT_STATUS_QUEUED);
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_int_eq(seen_wait(s, 1), 1);
    ck_assert_int_eq(s->status_then, UR_EVENT_STATUS_COMPLETE);
    ck_assert_int_eq(buf[1], 5);
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur_ok(urUSMFree(T.context, buf));
}
END_TEST

// ---- the adapter's last release ----

static void *open_gate_later(void *arg) {
    sleep_ms(50);
    open_gate(arg);
    return NULL;
}

START_TEST(last_adapter_release_waits_for_callbacks) {
    seen_t *s = seen_new();
    gated_t g = gated_copy(T.queue);
    ck_assert_ur_ok(urEventSetCallback(g.event, UR_EXECUTION_INFO_COMPLETE, on_event, s));
    ck_assert_ur_ok(urEventRelease(g.event));
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, open_gate_later, &g), 0);
    drain_callbacks();
    ck_assert_int_eq(seen_calls(s), 1); // ran before the release returned
    pthread_join(t, NULL);
    gated_free(&g);
}
END_TEST

// ---- threads ----

#define THREADS    4
#define PER_THREAD 32

static void *enqueue_and_register(void *arg) {
    seen_t *s = arg;
    int *buf = host_alloc(2);
    for (int i = 0; i < PER_THREAD; ++i) {
        ur_event_handle_t ev = NULL;
        if (urEnqueueUSMMemcpy(T.queue, false, &buf[1], &buf[0], sizeof(int), 0, NULL, &ev) !=
                UR_RESULT_SUCCESS ||
            urEventSetCallback(ev, UR_EXECUTION_INFO_COMPLETE, on_event, s) != UR_RESULT_SUCCESS ||
            urEventRelease(ev) != UR_RESULT_SUCCESS)
            return (void *)1;
    }
    // The copies read and write buf until they complete.
    if (urQueueFinish(T.queue) != UR_RESULT_SUCCESS)
        return (void *)1;
    return buf;
}

START_TEST(callbacks_from_many_threads) {
    seen_t *s = seen_new();
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, enqueue_and_register, s), 0);
    for (int i = 0; i < THREADS; ++i) {
        void *buf = NULL;
        pthread_join(t[i], &buf);
        ck_assert_ptr_ne(buf, (void *)1);
        ck_assert_ur_ok(urUSMFree(T.context, buf));
    }
    ck_assert_int_eq(seen_wait(s, THREADS * PER_THREAD), THREADS * PER_THREAD);
    ck_assert_int_eq(s->by_status[UR_EXECUTION_INFO_COMPLETE], THREADS * PER_THREAD);
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("level_zero_event");
    const urc_test_case_t cases[] = {
        {"urEventSetCallback",
         {callback_complete_after_release, callback_complete_waits_for_the_command,
          callback_every_status, callback_registers_another, callback_releases_the_event}},
        {"urEventSetCallback",
         {callback_needs_an_event, callback_on_a_native_event, callback_executes_a_pending_batch,
          callbacks_from_many_threads}},
        {"urAdapterRelease", {last_adapter_release_waits_for_callbacks}},
    };
    urc_test_add_cases(s, tcase, cases, sizeof cases / sizeof cases[0]);
    TCase *shared = tcase("urEventSetCallback");
    event_callback_cases_add(shared);
    suite_add_tcase(s, shared);
    return s;
}

int main(void) {
    return l0t_main(suite());
}
