// SPDX-License-Identifier: MIT
// What the adapters' urEventSetCallback cases share (test_cuda_event, test_l0_event): a log
// the callbacks write, and the cases that need no command held back (a completed event, the
// QUEUED status). How a suite keeps a command from completing is its own (a spinning kernel
// on CUDA, a user event in the wait list on Level Zero). The cases run on the queue of the
// adapter's fixture, recorded by urc_test_open (urc_test_opened).
#ifndef URC_TEST_CONFORMANCE_COMMON_EVENT_CALLBACK_CASES_H
#define URC_TEST_CONFORMANCE_COMMON_EVENT_CALLBACK_CASES_H

#include <pthread.h>

#include "urc_fixture.h"

/// What the callbacks saw; a callback bumps `calls` and signals.
typedef struct seen_t {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int calls;
    int by_status[4]; // indexed by ur_execution_info_t
    ur_event_handle_t event;
    ur_event_status_t status_then; // the event's status when a COMPLETE callback ran
} seen_t;

/// The log, emptied. One per test (each runs in its own process): callbacks may touch it
/// until the fixture's teardown has released the adapter, which waits for them.
seen_t *seen_new(void);

/// A callback (`data` a seen_t) that records the event, its status and, for COMPLETE, the
/// event's execution status at that moment.
void on_event(ur_event_handle_t ev, ur_execution_info_t status, void *data);

/// A callback that registers on_event for COMPLETE on the same event (`data` a seen_t).
void register_again(ur_event_handle_t ev, ur_execution_info_t status, void *data);

/// The callbacks run so far.
int seen_calls(seen_t *s);

/// Waits up to 10 s for `calls` callbacks; returns how many ran.
int seen_wait(seen_t *s, int calls);

/// callback_on_completed_event, callback_queued_is_unsupported.
void event_callback_cases_add(TCase *tc);

#endif // URC_TEST_CONFORMANCE_COMMON_EVENT_CALLBACK_CASES_H
