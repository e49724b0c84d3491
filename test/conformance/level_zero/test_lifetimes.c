// SPDX-License-Identifier: MIT
// Object lifetimes (docs/shared-code.md, "Object lifetimes") and handle checks of the Level Zero
// adapter over the simulated driver: the cases every adapter shares
// (../common/lifetime_cases.c), and over-release of pending events, a kernel's program,
// cross-context handles and callbacks racing releases. Runs with immediate and with regular
// command lists.
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "../common/lifetime_cases.h"
#include "l0t.h"

// Released by the user while its command is held back: the queue still holds the event, so a
// second release is refused instead of freeing it under the queue.
START_TEST(over_release_of_a_pending_event_is_refused) {
    ze_event_handle_t gate_ze = NULL;
    ur_event_handle_t gate = l0t_user_event(&gate_ze);
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 1, &gate, &e));
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur(urEventRelease(e), UR_RESULT_ERROR_INVALID_EVENT);
    ck_assert_int_eq(zeEventHostSignal(gate_ze), ZE_RESULT_SUCCESS);
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urEventRelease(gate));
}
END_TEST

START_TEST(kernel_holds_its_program_apart_from_the_user) {
    ur_program_handle_t p = l0t_built("add_one.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_one", &k));
    ck_assert_ur_ok(urProgramRelease(p));
    ck_assert_ur(urProgramRelease(p), UR_RESULT_ERROR_INVALID_PROGRAM);
    uint32_t n = 99;
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 0);
    ck_assert_ur_ok(urKernelRelease(k));
}
END_TEST

START_TEST(objects_of_another_context_are_refused) {
    ur_context_handle_t other = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    ur_program_handle_t p = l0t_program("add_one.spv", NULL);
    ck_assert_ur(urProgramBuild(other, p, NULL), UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur(urProgramCompile(other, p, NULL), UR_RESULT_ERROR_INVALID_CONTEXT);
    ur_program_handle_t linked = NULL;
    ck_assert_ur(urProgramLink(other, 1, &p, NULL, &linked), UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ptr_null(linked);
    ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_one", &k));
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(other, T.device, NULL, &q));
    size_t one = 1;
    ck_assert_ur(
        urEnqueueKernelLaunchWithArgsExp(q, k, 1, NULL, &one, &one, 0, NULL, NULL, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
    ck_assert_ur_ok(urContextRelease(other));
}
END_TEST

// ---- many threads on one handle ----

// Callbacks pending on gated events while other threads release those events: every callback
// runs once, with a live event.
typedef struct race_t {
    atomic_int calls;
    atomic_int bad;
} race_t;

static void on_complete(ur_event_handle_t e, ur_execution_info_t info, void *user) {
    (void)info;
    race_t *r = user;
    ur_event_status_t status = UR_EVENT_STATUS_ERROR;
    if (urEventGetInfo(e, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) !=
            UR_RESULT_SUCCESS ||
        status != UR_EVENT_STATUS_COMPLETE)
        atomic_fetch_add(&r->bad, 1);
    atomic_fetch_add(&r->calls, 1);
}

enum { RACERS = 32 };

typedef struct releaser_t {
    ur_event_handle_t *events;
    int first, count;
} releaser_t;

static void *release_some(void *arg) {
    releaser_t *r = arg;
    for (int i = r->first; i < r->first + r->count; ++i)
        if (urEventRelease(r->events[i]) != UR_RESULT_SUCCESS)
            return (void *)1;
    return NULL;
}

START_TEST(releases_race_callbacks) {
    ze_event_handle_t gate_ze = NULL;
    ur_event_handle_t gate = l0t_user_event(&gate_ze);
    static race_t race;
    atomic_init(&race.calls, 0);
    atomic_init(&race.bad, 0);
    ur_event_handle_t e[RACERS];
    for (int i = 0; i < RACERS; ++i) {
        ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 1, &gate, &e[i]));
        ck_assert_ur_ok(urEventSetCallback(e[i], UR_EXECUTION_INFO_COMPLETE, on_complete, &race));
    }
    releaser_t halves[2] = {{e, 0, RACERS / 2}, {e, RACERS / 2, RACERS / 2}};
    pthread_t t[2];
    ck_assert_int_eq(pthread_create(&t[0], NULL, release_some, &halves[0]), 0);
    ck_assert_int_eq(zeEventHostSignal(gate_ze), ZE_RESULT_SUCCESS);
    ck_assert_int_eq(pthread_create(&t[1], NULL, release_some, &halves[1]), 0);
    for (int i = 0; i < 2; ++i) {
        void *failed = NULL;
        pthread_join(t[i], &failed);
        ck_assert_ptr_null(failed);
    }
    ck_assert_ur_ok(urQueueFinish(T.queue));
    // The last adapter release waits for pending callbacks; take the fixture's back after.
    ck_assert_ur_ok(urAdapterRelease(T.adapter));
    ck_assert_ur_ok(urAdapterGet(1, &T.adapter, NULL));
    ck_assert_int_eq(atomic_load(&race.calls), RACERS);
    ck_assert_int_eq(atomic_load(&race.bad), 0);
    ck_assert_ur_ok(urEventRelease(gate));
}
END_TEST

int main(void) {
    Suite *s = suite_create("level zero lifetimes");
    TCase *tc = l0t_tcase("reference counts");
    lifetime_cases_add_counts(tc);
    tcase_add_test(tc, over_release_of_a_pending_event_is_refused);
    tcase_add_test(tc, kernel_holds_its_program_apart_from_the_user);
    suite_add_tcase(s, tc);
    tc = l0t_tcase("threads");
    lifetime_cases_add_threads(tc);
    tcase_add_test(tc, releases_race_callbacks);
    suite_add_tcase(s, tc);
    tc = l0t_tcase("handles");
    lifetime_cases_add_handles(tc);
    tcase_add_test(tc, objects_of_another_context_are_refused);
    suite_add_tcase(s, tc);
    return l0t_main(s);
}
