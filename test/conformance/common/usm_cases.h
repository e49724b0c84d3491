// SPDX-License-Identifier: MIT
// The USM cases every adapter's suite shares (test_cuda_usm, test_l0_memory, test_opencl_usm):
// allocation info of each kind, a pointer no allocation holds, and USM commands past their
// allocation. They run on the handles of the adapter's fixture (urc_test_opened); on a device
// without USM they do nothing.
#ifndef URC_TEST_CONFORMANCE_COMMON_USM_CASES_H
#define URC_TEST_CONFORMANCE_COMMON_USM_CASES_H

#include <stdbool.h>

#include "urc_fixture.h"

/// usm_alloc_info_of_each_kind, usm_unknown_pointer_is_unknown.
void usm_cases_add_info(TCase *tc);

/// usm_ranges_past_their_allocation_refused.
void usm_cases_add_ranges(TCase *tc);

#endif // URC_TEST_CONFORMANCE_COMMON_USM_CASES_H
