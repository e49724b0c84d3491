// SPDX-License-Identifier: MIT
// The cases of the rule table (common/queue/command_rules.h) every adapter shares: each
// command-buffer append, each kernel-launch update and the context copy answer the input that
// their urEnqueue* twin refuses with the same result, checked side by side on the adapter's
// handles; UR's conformance rules for 2D USM commands; argument indices past the kernel's.
// Cases about command buffers return early on a device without them (or without updates).
#ifndef URC_TEST_CONFORMANCE_COMMON_COMMAND_RULES_CASES_H
#define URC_TEST_CONFORMANCE_COMMON_COMMAND_RULES_CASES_H

#include "urc_test.h"

/// The handles the cases use, and a kernel `add_value(global int *data, int v)` of the adapter
/// (data[i] += v over its global size). Call it from a checked fixture added after the
/// adapter's own; the kernel stays the caller's.
void command_rules_cases_bind(ur_context_handle_t context, ur_device_handle_t device,
                              ur_queue_handle_t queue, ur_kernel_handle_t add_value);

/// usm_appends_answer_as_enqueue, launch_appends_answer_as_enqueue, updates_follow_the_launch_rule,
/// argument_index_past_the_kernel, context_copy_answers_as_enqueue, usm_2d_rows_must_fit.
void command_rules_cases_add(TCase *tc);

#endif // URC_TEST_CONFORMANCE_COMMON_COMMAND_RULES_CASES_H
