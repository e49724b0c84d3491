// SPDX-License-Identifier: MIT
// A device assert on CUDA: the kernel's assert makes CUDA print its message and the next
// synchronising call return CUDA_ERROR_ASSERT. By default the process then aborts (seed 000);
// with URC_ASSERT_MODE=report the call returns UR_RESULT_ERROR_ADAPTER_SPECIFIC with native code
// URC_ERROR_DEVICE_ASSERT, as every urc adapter does, and a message naming CUDA's 710. These
// tests set things up themselves: the aborting run needs a fresh child process.
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cudat.h"
#include "urc_assert.h"

static ur_program_handle_t program;
static ur_kernel_handle_t kernel;

// Launches assert_zero(value) and waits for the queue; returns what urQueueFinish returned.
static ur_result_t run_assert(int value) {
    cudat_setup();
    program = cudat_built_program("assert.ptx", NULL);
    ck_assert_ur_ok(urKernelCreate(program, "assert_zero", &kernel));
    ur_exp_kernel_arg_properties_t arg = cudat_arg_value(0, &value, sizeof value);
    size_t one = 1;
    ck_assert_ur_ok(cudat_launch(T.queue, kernel, 1, &one, 1, &arg, 0, NULL, NULL));
    return urQueueFinish(T.queue);
}

// Releases everything, also after an assert killed the context (the handles go either way).
static void finish(void) {
    ck_assert_ur_ok(urKernelRelease(kernel));
    ck_assert_ur_ok(urProgramRelease(program));
    cudat_teardown();
}

static char *slurp(const char *path) {
    static char buf[65536];
    FILE *f = fopen(path, "rb");
    size_t n = f != NULL ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f != NULL)
        fclose(f);
    buf[n] = '\0';
    return buf;
}

START_TEST(abort_mode_aborts_after_message) {
    char dir[1024], out_path[1100], err_path[1100];
    urc_test_temp_dir(dir, sizeof dir);
    snprintf(out_path, sizeof out_path, "%s/stdout", dir);
    snprintf(err_path, sizeof err_path, "%s/stderr", dir);
    int out_fd = open(out_path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    int err_fd = open(err_path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    ck_assert(out_fd >= 0 && err_fd >= 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out_fd, STDOUT_FILENO);
        dup2(err_fd, STDERR_FILENO);
        // abort() discards stdio buffers: whatever CUDA prints must reach the files at once.
        setvbuf(stdout, NULL, _IONBF, 0);
        setvbuf(stderr, NULL, _IONBF, 0);
        unsetenv("URC_ASSERT_MODE");
        run_assert(1);
        _exit(3); // reached only when the process was not aborted
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    close(out_fd);
    close(err_fd);
    char *err = strdup(slurp(err_path)), *out = strdup(slurp(out_path));
    unlink(out_path);
    unlink(err_path);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
                  "the child was not aborted (status 0x%x); stderr: %s", status, err);
    // CUDA's own message names the failed expression; urc adds its line on stderr.
    bool cuda_in_err = strstr(err, "value == 0") != NULL;
    bool cuda_in_out = strstr(out, "value == 0") != NULL;
    fprintf(stderr, "CUDA's assert message appeared on %s\n",
            cuda_in_err   ? "stderr"
            : cuda_in_out ? "stdout"
                          : "neither stream");
    ck_assert_msg(cuda_in_err || cuda_in_out, "no assert message; stderr: %s stdout: %s", err, out);
    ck_assert_ptr_nonnull(strstr(err, "device assert fired"));
    free(err);
    free(out);
}
END_TEST

START_TEST(report_mode_returns_documented_error) {
    setenv("URC_ASSERT_MODE", "report", 1);
    ck_assert_ur(run_assert(1), UR_RESULT_ERROR_ADAPTER_SPECIFIC);
    const char *message = NULL;
    int32_t code = 0;
    ck_assert_ur_ok(urAdapterGetLastError(T.adapter, &message, &code));
    ck_assert_int_eq(code, URC_ERROR_DEVICE_ASSERT);
    ck_assert_ptr_nonnull(strstr(message, "device assert"));
    ck_assert_ptr_nonnull(strstr(message, "CUDA_ERROR_ASSERT (710)"));
    ck_assert_ptr_nonnull(strstr(message, "unusable"));
    // urc's loader got the report too (CUDA gives no fields, only the message).
    urc_assert_report_t report;
    ck_assert_ur_ok(urcAssertGetLastReport(&report));
    ck_assert_str_eq(report.message, message);
    // The context stays broken: the next synchronising call fails the same way.
    ck_assert_ur(urQueueFinish(T.queue), UR_RESULT_ERROR_ADAPTER_SPECIFIC);
    ck_assert_ur_ok(urAdapterGetLastError(T.adapter, &message, &code));
    ck_assert_int_eq(code, URC_ERROR_DEVICE_ASSERT);
    ck_assert_ptr_nonnull(strstr(message, "CUDA_ERROR_ASSERT (710)"));
    finish();
}
END_TEST

START_TEST(passing_assert_is_silent) {
    ck_assert_ur_ok(run_assert(0));
    finish();
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda device assert");
    TCase *tc = tcase_create("device assert");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, passing_assert_is_silent);
    tcase_add_test(tc, abort_mode_aborts_after_message);
    tcase_add_test(tc, report_mode_returns_documented_error);
    suite_add_tcase(s, tc);
    return cudat_main(s, true);
}
