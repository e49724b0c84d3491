// SPDX-License-Identifier: MIT
// The event-callback log and cases the adapters share (event_callback_cases.h).
#include "event_callback_cases.h"

#include <string.h>
#include <time.h>

static seen_t seen;

seen_t *seen_new(void) {
    seen_t *s = &seen;
    memset(s, 0, sizeof *s);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    s->status_then = UR_EVENT_STATUS_ERROR;
    return s;
}

void on_event(ur_event_handle_t ev, ur_execution_info_t status, void *data) {
    seen_t *s = data;
    ur_event_status_t now = UR_EVENT_STATUS_ERROR;
    if (status == UR_EXECUTION_INFO_COMPLETE)
        (void)urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof now, &now, NULL);
    pthread_mutex_lock(&s->lock);
    s->event = ev;
    if (status == UR_EXECUTION_INFO_COMPLETE)
        s->status_then = now;
    if ((unsigned)status < 4)
        s->by_status[status]++;
    s->calls++;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

// A callback may call UR, including registering another callback on the same event.
void register_again(ur_event_handle_t ev, ur_execution_info_t status, void *data) {
    (void)status;
    ck_assert_ur_ok(urEventSetCallback(ev, UR_EXECUTION_INFO_COMPLETE, on_event, data));
}

int seen_calls(seen_t *s) {
    pthread_mutex_lock(&s->lock);
    int n = s->calls;
    pthread_mutex_unlock(&s->lock);
    return n;
}

int seen_wait(seen_t *s, int calls) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&s->lock);
    while (s->calls < calls && pthread_cond_timedwait(&s->cond, &s->lock, &until) == 0) {
    }
    int n = s->calls;
    pthread_mutex_unlock(&s->lock);
    return n;
}

// UR's CTS "EventAlreadyCompleted".
START_TEST(callback_on_completed_event) {
    seen_t *s = seen_new();
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(urc_test_opened.queue, 0, NULL, &ev));
    ck_assert_ur_ok(urEventWait(1, &ev));
    ck_assert_ur_ok(urEventSetCallback(ev, UR_EXECUTION_INFO_COMPLETE, on_event, s));
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_int_eq(seen_wait(s, 1), 1);
}
END_TEST

START_TEST(callback_queued_is_unsupported) {
    seen_t *s = seen_new();
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(urc_test_opened.queue, 0, NULL, &ev));
    ck_assert_ur(urEventSetCallback(ev, UR_EXECUTION_INFO_QUEUED, on_event, s),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
    ck_assert_ur_ok(urEventRelease(ev));
    nanosleep(&(struct timespec){0, 10 * 1000000L}, NULL);
    ck_assert_int_eq(seen_calls(s), 0);
}
END_TEST

void event_callback_cases_add(TCase *tc) {
    tcase_add_test(tc, callback_on_completed_event);
    tcase_add_test(tc, callback_queued_is_unsupported);
}
