// SPDX-License-Identifier: MIT
// Shared helpers for urc's Check suites.
#ifndef URC_TEST_SUPPORT_URC_TEST_H
#define URC_TEST_SUPPORT_URC_TEST_H

#include <check.h>
#include <stdlib.h>

#include "ur_api.h"

/// Exit code that tells CTest "no such device here" (SKIP_RETURN_CODE).
#define URC_TEST_SKIP 77

/// Asserts a ur_result_t and prints both results by name when they differ.
#define ck_assert_ur(expr, expected)                                                               \
    do {                                                                                           \
        ur_result_t urc_got_ = (expr);                                                             \
        ur_result_t urc_want_ = (expected);                                                        \
        ck_assert_msg(urc_got_ == urc_want_, "%s returned %s, expected %s", #expr,                 \
                      urc_test_result_name(urc_got_), urc_test_result_name(urc_want_));            \
    } while (0)

#define ck_assert_ur_ok(expr) ck_assert_ur((expr), UR_RESULT_SUCCESS)

const char *urc_test_result_name(ur_result_t result);

/// Runs one suite (TAP when CK_TAP_LOG_FILE_NAME is set) and returns the process exit code.
int urc_test_run(Suite *suite);

#endif // URC_TEST_SUPPORT_URC_TEST_H
