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
/// Afterwards it removes every folder urc_test_temp_dir made during the run, also those of
/// tests that failed or crashed.
int urc_test_run(Suite *suite);

/// Makes a new, empty folder for the calling test's temporary files and writes its path into
/// `out` (failing the test when it cannot). The folder lies in the build tree under test-tmp/
/// (docs/testing.md), never in /tmp, and is removed with everything in it when the process
/// that made it exits normally, and by urc_test_run when the suite ends.
void urc_test_temp_dir(char *out, size_t size);

/// A test case running `setup` and `teardown` around each test (in the forked child), with a
/// 120-second timeout: what every adapter fixture's tcase function makes.
TCase *urc_test_tcase(const char *name, void (*setup)(void), void (*teardown)(void));

/// Skips a suite: prints "<why>: skipped", frees the suite and returns URC_TEST_SKIP.
int urc_test_skip(Suite *suite, const char *why);

/// The whole of `dir`/`file` in a malloc'd buffer (free with free()); NULL when it cannot be
/// read.
void *urc_test_read_file(const char *dir, const char *file, size_t *size);

/// One test case of a suite built from a table: its name (the entry point) and its tests,
/// NULL after the last. The table is a local variable: Check's test handles are not constants.
typedef struct urc_test_case_t {
    const char *name;
    const TTest *tests[8];
} urc_test_case_t;

/// Adds each case to the suite as a test case made by `make` (a fixture's tcase function).
void urc_test_add_cases(Suite *suite, TCase *(*make)(const char *name),
                        const urc_test_case_t *cases, size_t n);

/// Kernel arguments for urEnqueueKernelLaunchWithArgsExp and the command-buffer appends.
ur_exp_kernel_arg_properties_t urc_test_arg_pointer(uint32_t index, const void *ptr);
ur_exp_kernel_arg_properties_t urc_test_arg_value(uint32_t index, const void *value, size_t size);
ur_exp_kernel_arg_properties_t urc_test_arg_local(uint32_t index, size_t size);

/// An update of command-buffer kernel command `cmd` that changes nothing yet (work dimension 1,
/// no argument lists, no sizes); a test sets what it updates.
ur_exp_command_buffer_update_kernel_launch_desc_t
urc_test_update_of(ur_exp_command_buffer_command_handle_t cmd);

/// A new value for kernel argument `index` in a command-buffer update.
ur_exp_command_buffer_update_value_arg_desc_t urc_test_update_value(uint32_t index, size_t size,
                                                                    const void *value);

/// A bindless-image copy region: source and destination offsets and the extent.
ur_exp_image_copy_region_t urc_test_copy_region(size_t sx, size_t sy, size_t sz, size_t dx,
                                                size_t dy, size_t dz, size_t w, size_t h, size_t d);

#endif // URC_TEST_SUPPORT_URC_TEST_H
