// SPDX-License-Identifier: MIT
// common/queue/event_callbacks: the polling engine behind urEventSetCallback, over fake events
// whose completion the test decides.
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "queue/event_callbacks.h"
#include "urc_test.h"

// ---- fake events ----

typedef struct fake_event_t {
    atomic_int refs;
    atomic_int state; // urc_event_poll_t
    atomic_int polls;
    atomic_bool destroyed; // refs reached 0
    ur_result_t arm_result;
} fake_event_t;

#define EV(e) ((ur_event_handle_t)(e))

static urc_event_poll_t fake_poll(ur_event_handle_t h) {
    fake_event_t *e = (fake_event_t *)h;
    atomic_fetch_add(&e->polls, 1);
    return (urc_event_poll_t)atomic_load(&e->state);
}

static void fake_retain(ur_event_handle_t h) {
    atomic_fetch_add(&((fake_event_t *)h)->refs, 1);
}

static void fake_release(ur_event_handle_t h) {
    fake_event_t *e = (fake_event_t *)h;
    int before = atomic_fetch_sub(&e->refs, 1);
    ck_assert_int_gt(before, 0);
    if (before == 1)
        atomic_store(&e->destroyed, true);
}

static ur_result_t fake_arm(ur_event_handle_t h) {
    return ((fake_event_t *)h)->arm_result;
}

static const urc_callback_ops_t ops = {fake_poll, fake_retain, fake_release, fake_arm};

static void fake_init(fake_event_t *e, urc_event_poll_t state) {
    memset(e, 0, sizeof *e);
    atomic_init(&e->refs, 1); // the test's own reference
    atomic_init(&e->state, state);
}

static void complete(fake_event_t *e) {
    atomic_store(&e->state, URC_EVENT_COMPLETE);
}

// ---- what the callbacks saw ----

#define MAX_SEEN 4096

typedef struct record_t {
    ur_event_handle_t event;
    ur_execution_info_t status;
    int tag;
} record_t;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int calls;
    record_t log[MAX_SEEN];
} seen = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, {{0}}};

static urc_callback_engine_t engine;

static void note(ur_event_handle_t ev, ur_execution_info_t status, int tag) {
    pthread_mutex_lock(&seen.lock);
    if (seen.calls < MAX_SEEN)
        seen.log[seen.calls] = (record_t){ev, status, tag};
    seen.calls++;
    pthread_cond_broadcast(&seen.cond);
    pthread_mutex_unlock(&seen.lock);
}

// pUserData carries a tag, so the order of callbacks can be told apart.
static void on_event(ur_event_handle_t ev, ur_execution_info_t status, void *data) {
    note(ev, status, (int)(intptr_t)data);
}

static int calls(void) {
    pthread_mutex_lock(&seen.lock);
    int n = seen.calls;
    pthread_mutex_unlock(&seen.lock);
    return n;
}

// Waits up to 10 s for `n` callbacks; returns how many ran.
static int wait_calls(int n) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&seen.lock);
    while (seen.calls < n && pthread_cond_timedwait(&seen.cond, &seen.lock, &until) == 0) {
    }
    int got = seen.calls;
    pthread_mutex_unlock(&seen.lock);
    return got;
}

// Waits up to 10 s until no callback is pending (every reference dropped).
static bool wait_idle(void) {
    for (int i = 0; i < 10000; ++i) {
        if (urc_callback_engine_pending(&engine) == 0)
            return true;
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    return false;
}

static void sleep_ms(long ms) {
    nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL);
}

static void setup(void) {
    seen.calls = 0;
    urc_callback_engine_init(&engine, &ops);
}

// The events are static: the engine's thread may drop its reference after the test has seen
// the callback and returned.
static void teardown(void) {
    ck_assert(wait_idle());
    urc_callback_engine_fini(&engine);
}

static ur_result_t add(fake_event_t *e, ur_execution_info_t status, int tag) {
    return urc_callback_engine_add(&engine, EV(e), status, on_event, (void *)(intptr_t)tag);
}

// ---- statuses ----

START_TEST(submitted_runs_before_completion) {
    static fake_event_t e;
    fake_init(&e, URC_EVENT_PENDING);
    ck_assert_ur_ok(add(&e, UR_EXECUTION_INFO_SUBMITTED, 1));
    ck_assert_int_eq(wait_calls(1), 1);
    ck_assert_int_eq(seen.log[0].status, UR_EXECUTION_INFO_SUBMITTED);
    ck_assert_ptr_eq(seen.log[0].event, EV(&e));
    ck_assert_int_eq(atomic_load(&e.polls), 0); // reached without asking the backend
    ck_assert(wait_idle());
    ck_assert_int_eq(atomic_load(&e.refs), 1);
}
END_TEST

START_TEST(complete_waits_for_completion) {
    static fake_event_t e;
    fake_init(&e, URC_EVENT_PENDING);
    ck_assert_ur_ok(add(&e, UR_EXECUTION_INFO_COMPLETE, 1));
    sleep_ms(30);
    ck_assert_int_eq(calls(), 0);
    ck_assert_int_gt(atomic_load(&e.polls), 0);
    complete(&e);
    ck_assert_int_eq(wait_calls(1), 1);
    ck_assert_int_eq(seen.log[0].status, UR_EXECUTION_INFO_COMPLETE);
}
END_TEST

START_TEST(running_runs_at_completion) {
    static fake_event_t e;
    fake_init(&e, URC_EVENT_PENDING);
    ck_assert_ur_ok(add(&e, UR_EXECUTION_INFO_RUNNING, 1));
    sleep_ms(20);
    ck_assert_int_eq(calls(), 0);
    complete(&e);
    ck_assert_int_eq(wait_calls(1), 1);
    ck_assert_int_eq(seen.log[0].status, UR_EXECUTION_INFO_RUNNING); // the registered status
}
END_TEST

START_TEST(failed_poll_counts_as_completion) {
    static fake_event_t e;
    fake_init(&e, URC_EVENT_PENDING);
    ck_assert_ur_ok(add(&e, UR_EXECUTION_INFO_COMPLETE, 1));
    atomic_store(&e.state, URC_EVENT_FAILED);
    ck_assert_int_eq(wait_calls(1), 1);
    ck_assert_int_eq(seen.log[0].status, UR_EXECUTION_INFO_COMPLETE);
}
END_TEST

START_TEST(queued_and_unknown_statuses_are_refused) {
    static fake_event_t e;
    fake_init(&e, URC_EVENT_COMPLETE);
    ck_assert_ur(add(&e, UR_EXECUTION_INFO_QUEUED, 1), UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
    ck_assert_ur(add(&e, (ur_execution_info_t)7, 1), UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
    ck_assert_int_eq(atomic_load(&e.refs), 1);
    ck_assert_uint_eq(urc_callback_engine_pending(&engine), 0);
}
END_TEST

START_TEST(arm_failure_registers_nothing) {
    static fake_event_t e;
    fake_init(&e, URC_EVENT_COMPLETE);
    e.arm_result = UR_RESULT_ERROR_OUT_OF_RESOURCES;
    ck_assert_ur(add(&e, UR_EXECUTION_INFO_COMPLETE, 1), UR_RESULT_ERROR_OUT_OF_RESOURCES);
    ck_assert_int_eq(atomic_load(&e.refs), 1);
    ck_assert_uint_eq(urc_callback_engine_pending(&engine), 0);
    sleep_ms(10);
    ck_assert_int_eq(calls(), 0);
}
END_TEST

// ---- ordering ----

// Holds the engine's thread inside a callback until the test opens the gate, so that the
// registrations made meanwhile are all seen by the same next pass.
static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool entered, open;
} gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, false};

static void hold(ur_event_handle_t ev, ur_execution_info_t status, void *data) {
    (void)data;
    pthread_mutex_lock(&gate.lock);
    gate.entered = true;
    pthread_cond_broadcast(&gate.cond);
    while (!gate.open)
        pthread_cond_wait(&gate.cond, &gate.lock);
    pthread_mutex_unlock(&gate.lock);
    note(ev, status, -1);
}

static void hold_engine(fake_event_t *e) {
    gate.entered = gate.open = false;
    ck_assert_ur_ok(
        urc_callback_engine_add(&engine, EV(e), UR_EXECUTION_INFO_SUBMITTED, hold, NULL));
    pthread_mutex_lock(&gate.lock);
    while (!gate.entered)
        pthread_cond_wait(&gate.cond, &gate.lock);
    pthread_mutex_unlock(&gate.lock);
}

static void release_engine(void) {
    pthread_mutex_lock(&gate.lock);
    gate.open = true;
    pthread_cond_broadcast(&gate.cond);
    pthread_mutex_unlock(&gate.lock);
}

START_TEST(ready_callbacks_run_in_registration_order) {
    static fake_event_t holder, ev[5];
    fake_init(&holder, URC_EVENT_COMPLETE);
    for (int i = 0; i < 5; ++i)
        fake_init(&ev[i], URC_EVENT_PENDING);
    hold_engine(&holder);
    // Registered in one order, completed in the reverse one, all before the next pass.
    for (int i = 0; i < 5; ++i)
        ck_assert_ur_ok(add(&ev[i], UR_EXECUTION_INFO_COMPLETE, i));
    for (int i = 4; i >= 0; --i)
        complete(&ev[i]);
    release_engine();
    ck_assert_int_eq(wait_calls(6), 6);
    ck_assert_int_eq(seen.log[0].tag, -1);
    for (int i = 0; i < 5; ++i)
        ck_assert_int_eq(seen.log[i + 1].tag, i);
}
END_TEST

// SUBMITTED runs first; the others, kept while the event is pending, run in registration
// order with one registered later, once the event completes between two passes. (Within one
// pass a callback polled after the completion may run before one polled earlier: the engine
// promises order only among callbacks found ready together.)
START_TEST(one_event_every_status_in_order) {
    static fake_event_t e, holder;
    fake_init(&e, URC_EVENT_PENDING);
    fake_init(&holder, URC_EVENT_COMPLETE);
    ck_assert_ur_ok(add(&e, UR_EXECUTION_INFO_COMPLETE, 0));
    ck_assert_ur_ok(add(&e, UR_EXECUTION_INFO_RUNNING, 1));
    ck_assert_ur_ok(add(&e, UR_EXECUTION_INFO_SUBMITTED, 2));
    ck_assert_int_eq(wait_calls(1), 1);
    ck_assert_int_eq(seen.log[0].tag, 2);
    hold_engine(&holder);
    ck_assert_ur_ok(add(&e, UR_EXECUTION_INFO_COMPLETE, 3));
    complete(&e);
    release_engine();
    ck_assert_int_eq(wait_calls(5), 5);
    ck_assert_int_eq(seen.log[1].tag, -1);
    ck_assert_int_eq(seen.log[2].tag, 0);
    ck_assert_int_eq(seen.log[3].tag, 1);
    ck_assert_int_eq(seen.log[4].tag, 3);
    ck_assert(wait_idle());
    ck_assert_int_eq(atomic_load(&e.refs), 1);
}
END_TEST

// ---- references ----

START_TEST(pending_callback_holds_its_event) {
    static fake_event_t e;
    fake_init(&e, URC_EVENT_PENDING);
    ck_assert_ur_ok(add(&e, UR_EXECUTION_INFO_COMPLETE, 1));
    ck_assert_int_eq(atomic_load(&e.refs), 2);
    fake_release(EV(&e)); // the caller lets go at once, as UR's CTS does
    ck_assert(!atomic_load(&e.destroyed));
    complete(&e);
    ck_assert_int_eq(wait_calls(1), 1);
    ck_assert(wait_idle());
    ck_assert(atomic_load(&e.destroyed));
}
END_TEST

static void release_in_callback(ur_event_handle_t ev, ur_execution_info_t status, void *data) {
    fake_event_t *e = (fake_event_t *)ev;
    (void)data;
    fake_release(ev);                       // the user's last reference
    ck_assert(!atomic_load(&e->destroyed)); // the engine's is still held
    note(ev, status, 0);
}

START_TEST(callback_may_release_the_event) {
    static fake_event_t e;
    fake_init(&e, URC_EVENT_COMPLETE);
    ck_assert_ur_ok(urc_callback_engine_add(&engine, EV(&e), UR_EXECUTION_INFO_COMPLETE,
                                            release_in_callback, NULL));
    ck_assert_int_eq(wait_calls(1), 1);
    ck_assert(wait_idle());
    ck_assert(atomic_load(&e.destroyed));
    ck_assert_int_eq(atomic_load(&e.refs), 0);
}
END_TEST

static void register_again(ur_event_handle_t ev, ur_execution_info_t status, void *data) {
    (void)status;
    ck_assert_ur_ok(
        urc_callback_engine_add(&engine, ev, UR_EXECUTION_INFO_COMPLETE, on_event, data));
}

START_TEST(callback_may_register_another) {
    static fake_event_t e;
    fake_init(&e, URC_EVENT_COMPLETE);
    ck_assert_ur_ok(urc_callback_engine_add(&engine, EV(&e), UR_EXECUTION_INFO_COMPLETE,
                                            register_again, (void *)(intptr_t)7));
    ck_assert_int_eq(wait_calls(1), 1);
    ck_assert_int_eq(seen.log[0].tag, 7);
    ck_assert(wait_idle());
    ck_assert_int_eq(atomic_load(&e.refs), 1);
}
END_TEST

// ---- threads ----

#define THREADS    8
#define PER_THREAD 250

static fake_event_t shared[4];

static void *register_many(void *arg) {
    int base = (int)(intptr_t)arg * PER_THREAD;
    static const ur_execution_info_t statuses[] = {
        UR_EXECUTION_INFO_COMPLETE, UR_EXECUTION_INFO_RUNNING, UR_EXECUTION_INFO_SUBMITTED};
    for (int i = 0; i < PER_THREAD; ++i) {
        fake_event_t *e = &shared[i % 4];
        if (add(e, statuses[i % 3], base + i) != UR_RESULT_SUCCESS)
            return (void *)1;
    }
    return NULL;
}

START_TEST(many_threads_register) {
    for (int i = 0; i < 4; ++i)
        fake_init(&shared[i], i % 2 == 0 ? URC_EVENT_COMPLETE : URC_EVENT_PENDING);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, register_many, (void *)(intptr_t)i), 0);
    sleep_ms(5);
    complete(&shared[1]);
    for (int i = 0; i < THREADS; ++i) {
        void *failed = NULL;
        pthread_join(t[i], &failed);
        ck_assert_ptr_null(failed);
    }
    complete(&shared[3]);
    ck_assert_int_eq(wait_calls(THREADS * PER_THREAD), THREADS * PER_THREAD);
    ck_assert(wait_idle());
    // Every callback ran exactly once, and every reference it took was dropped.
    static bool once[THREADS * PER_THREAD];
    for (int i = 0; i < THREADS * PER_THREAD; ++i) {
        int tag = seen.log[i].tag;
        ck_assert(tag >= 0 && tag < THREADS * PER_THREAD && !once[tag]);
        once[tag] = true;
    }
    for (int i = 0; i < 4; ++i)
        ck_assert_int_eq(atomic_load(&shared[i].refs), 1);
}
END_TEST

// ---- shutdown ----

static void *complete_later(void *arg) {
    sleep_ms(50);
    complete(arg);
    return NULL;
}

START_TEST(stop_with_drain_waits_for_pending_callbacks) {
    static fake_event_t e;
    fake_init(&e, URC_EVENT_PENDING);
    ck_assert_ur_ok(add(&e, UR_EXECUTION_INFO_COMPLETE, 1));
    fake_release(EV(&e));
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, complete_later, &e), 0);
    urc_callback_engine_stop(&engine, true);
    // By now the callback has run and dropped its reference.
    ck_assert_int_eq(calls(), 1);
    ck_assert(atomic_load(&e.destroyed));
    pthread_join(t, NULL);
}
END_TEST

START_TEST(stop_without_drain_keeps_callbacks_for_a_restart) {
    static fake_event_t e, other;
    fake_init(&e, URC_EVENT_PENDING);
    fake_init(&other, URC_EVENT_COMPLETE);
    ck_assert_ur_ok(add(&e, UR_EXECUTION_INFO_COMPLETE, 1));
    urc_callback_engine_stop(&engine, false);
    complete(&e);
    sleep_ms(10);
    ck_assert_int_eq(calls(), 0);
    ck_assert_uint_eq(urc_callback_engine_pending(&engine), 1);
    // A later registration starts the thread again; the kept callback runs first.
    ck_assert_ur_ok(add(&other, UR_EXECUTION_INFO_COMPLETE, 2));
    ck_assert_int_eq(wait_calls(2), 2);
    ck_assert_int_eq(seen.log[0].tag, 1);
    ck_assert_int_eq(seen.log[1].tag, 2);
}
END_TEST

START_TEST(fini_drops_pending_callbacks) {
    static fake_event_t e;
    fake_init(&e, URC_EVENT_PENDING);
    ck_assert_ur_ok(add(&e, UR_EXECUTION_INFO_COMPLETE, 1));
    ck_assert_ur_ok(add(&e, UR_EXECUTION_INFO_RUNNING, 2));
    ck_assert_int_eq(atomic_load(&e.refs), 3);
    urc_callback_engine_fini(&engine);
    ck_assert_int_eq(calls(), 0);
    ck_assert_int_eq(atomic_load(&e.refs), 1);
    urc_callback_engine_init(&engine, &ops); // for the teardown
}
END_TEST

static void stop_in_callback(ur_event_handle_t ev, ur_execution_info_t status, void *data) {
    (void)data;
    urc_callback_engine_stop(&engine, true); // cannot wait for itself: must not deadlock
    note(ev, status, 0);
}

START_TEST(stop_from_a_callback_returns) {
    static fake_event_t e, later;
    fake_init(&e, URC_EVENT_COMPLETE);
    fake_init(&later, URC_EVENT_COMPLETE);
    ck_assert_ur_ok(urc_callback_engine_add(&engine, EV(&e), UR_EXECUTION_INFO_COMPLETE,
                                            stop_in_callback, NULL));
    ck_assert_int_eq(wait_calls(1), 1);
    ck_assert(wait_idle());
    // The engine starts again for the next registration.
    ck_assert_ur_ok(add(&later, UR_EXECUTION_INFO_COMPLETE, 5));
    ck_assert_int_eq(wait_calls(2), 2);
    ck_assert_int_eq(seen.log[1].tag, 5);
}
END_TEST

START_TEST(polling_backs_off) {
    static fake_event_t e;
    fake_init(&e, URC_EVENT_PENDING);
    ck_assert_ur_ok(add(&e, UR_EXECUTION_INFO_COMPLETE, 1));
    sleep_ms(100);
    // At a steady 20 µs there would be about 5000 polls; backing off to 1 ms, about 100.
    int polls = atomic_load(&e.polls);
    ck_assert_int_gt(polls, 5);
    ck_assert_int_lt(polls, 400);
    complete(&e);
    ck_assert_int_eq(wait_calls(1), 1);
}
END_TEST

int main(void) {
    Suite *s = suite_create("event_callbacks");
    TCase *tc = tcase_create("urc_callback_engine_add");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, submitted_runs_before_completion);
    tcase_add_test(tc, complete_waits_for_completion);
    tcase_add_test(tc, running_runs_at_completion);
    tcase_add_test(tc, failed_poll_counts_as_completion);
    tcase_add_test(tc, queued_and_unknown_statuses_are_refused);
    tcase_add_test(tc, arm_failure_registers_nothing);
    tcase_add_test(tc, ready_callbacks_run_in_registration_order);
    tcase_add_test(tc, one_event_every_status_in_order);
    tcase_add_test(tc, pending_callback_holds_its_event);
    tcase_add_test(tc, callback_may_release_the_event);
    tcase_add_test(tc, callback_may_register_another);
    tcase_add_test(tc, many_threads_register);
    tcase_add_test(tc, polling_backs_off);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_callback_engine_stop");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, stop_with_drain_waits_for_pending_callbacks);
    tcase_add_test(tc, stop_without_drain_keeps_callbacks_for_a_restart);
    tcase_add_test(tc, fini_drops_pending_callbacks);
    tcase_add_test(tc, stop_from_a_callback_returns);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
