// SPDX-License-Identifier: MIT
// The cases of the adapters' host-task suites (test_<adapter>_host_task) that are the same on
// every adapter: host tasks in queue order, after their wait lists, and their bad input; the
// device's support answers; the bad input of timestamps and device waits. What needs the
// native API (native commands, native user events, kernels of each adapter's own format)
// stays in each adapter's suite. The cases run on the handles of the adapter's fixture, bound
// by a checked fixture added after it (host_task_cases_bind).
#ifndef URC_TEST_CONFORMANCE_COMMON_HOST_TASK_CASES_H
#define URC_TEST_CONFORMANCE_COMMON_HOST_TASK_CASES_H

#include <stdatomic.h>

#include "urc_test.h"

/// The order in which tasks ran, and what they saw.
typedef struct host_task_log_t {
    atomic_int next;
    int order[64];
    int *data;    // memory the commands write, or NULL
    int seen[64]; // data[0] when each task ran
} host_task_log_t;

/// One task's argument: it records its `id` in `log`.
typedef struct host_task_t {
    host_task_log_t *log;
    int id;
} host_task_t;

/// A host task (`p` a host_task_t): appends its id to the log's order and notes data[0].
void host_task_record(void *p);

/// A host task that sets the atomic_int `p` to 1.
void host_task_set_flag(void *p);

/// The handles the cases use, from the adapter's fixture: call it from a checked fixture
/// added after the adapter's own.
void host_task_cases_bind(ur_context_handle_t context, ur_device_handle_t device,
                          ur_queue_handle_t queue);

/// host_tasks_run_in_order, host_task_bad_input.
void host_task_cases_add(TCase *tc);

/// host_task_waits_for_its_wait_list (a plain event in the wait list of an out-of-order queue).
void host_task_cases_add_wait_list(TCase *tc);

/// device_info_reports_support: host tasks, native commands, timestamps and device waits.
void host_task_cases_add_support(TCase *tc);

/// timestamp_bad_input.
void host_task_cases_add_timestamp_errors(TCase *tc);

/// device_wait_bad_input.
void host_task_cases_add_device_wait_errors(TCase *tc);

#endif // URC_TEST_CONFORMANCE_COMMON_HOST_TASK_CASES_H
