// SPDX-License-Identifier: MIT
// The cases of the adapters' lifetime suites (test_<adapter>_lifetimes) that are the same on
// every adapter (docs/shared-code.md, "Object lifetimes"): the adapter's references kept apart
// from the user's (an event's queue, a queue's context, a sub-buffer's buffer), the user's
// count, over-release, retain/release storms, and handles of the wrong kind. What needs the
// native API (held-back commands, callbacks racing releases, foreign handles) stays in each
// suite. The cases run on the handles of the adapter's fixture (urc_test_opened).
#ifndef URC_TEST_CONFORMANCE_COMMON_LIFETIME_CASES_H
#define URC_TEST_CONFORMANCE_COMMON_LIFETIME_CASES_H

#include "urc_fixture.h"

/// event_holds_its_queue_apart_from_the_user, queue_holds_its_context_apart_from_the_user,
/// sub_buffer_holds_its_buffer_apart_from_the_user, event_reference_count_is_the_users.
void lifetime_cases_add_counts(TCase *tc);

/// retain_release_storm_on_one_event.
void lifetime_cases_add_threads(TCase *tc);

/// wrong_kind_handles_get_the_kinds_result.
void lifetime_cases_add_handles(TCase *tc);

#endif // URC_TEST_CONFORMANCE_COMMON_LIFETIME_CASES_H
