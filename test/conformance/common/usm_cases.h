// SPDX-License-Identifier: MIT
// The USM cases every adapter's suite shares (test_cuda_usm, test_l0_memory, test_opencl_usm):
// allocation info of each kind, a pointer no allocation holds, and USM commands past their
// allocation. They run on the handles of the adapter's fixture, bound by a checked fixture
// added after it (usm_cases_bind); on a device without USM they do nothing.
#ifndef URC_TEST_CONFORMANCE_COMMON_USM_CASES_H
#define URC_TEST_CONFORMANCE_COMMON_USM_CASES_H

#include <stdbool.h>

#include "urc_test.h"

void usm_cases_bind(ur_context_handle_t context, ur_device_handle_t device, ur_queue_handle_t queue,
                    bool usm);

/// usm_alloc_info_of_each_kind, usm_unknown_pointer_is_unknown.
void usm_cases_add_info(TCase *tc);

/// usm_ranges_past_their_allocation_refused.
void usm_cases_add_ranges(TCase *tc);

#endif // URC_TEST_CONFORMANCE_COMMON_USM_CASES_H
