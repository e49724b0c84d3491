// SPDX-License-Identifier: MIT
// common/program/assert_record: decoding the device's record, the message, abort and report
// delivery. The loader's half (urcAssertPublish/urcAssertGetLastReport) is linked in, as in the
// loader.
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "program/assert_record.h"
#include "env/env.h"
#include "core/error.h"
#include "urc_assert.h"
#include "urc_test.h"

static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; ++i)
        p[i] = (uint8_t)(v >> (8 * i));
}

// A record as __devicelib_assert_fail leaves it (offsets of anchor §2.3).
static void make_raw(uint8_t raw[URC_ASSERT_RECORD_SIZE], int32_t flag, const char *expr,
                     const char *file, const char *func, int32_t line) {
    memset(raw, 0, URC_ASSERT_RECORD_SIZE);
    put32(raw + 0, (uint32_t)flag);
    memcpy(raw + 4, expr, strlen(expr));
    memcpy(raw + 261, file, strlen(file));
    memcpy(raw + 518, func, strlen(func));
    put32(raw + 648, (uint32_t)line);
    for (int i = 0; i < 3; ++i) {
        put64(raw + 656 + 8 * i, 100 + (uint64_t)i);
        put64(raw + 680 + 8 * i, 10 + (uint64_t)i);
    }
}

static urc_assert_record_t sample_record(void) {
    uint8_t raw[URC_ASSERT_RECORD_SIZE];
    make_raw(raw, 2, "X && \"Nil\"", "impl.cpp", "int calculus(int)", 42);
    urc_assert_record_t rec;
    ck_assert(urc_assert_decode(raw, sizeof raw, &rec));
    return rec;
}

#define SAMPLE_MESSAGE                                                                             \
    "impl.cpp:42: int calculus(int): global id: [100,101,102], local id: [10,11,12] "              \
    "Assertion `X && \"Nil\"` failed."

// ---------------------------------------------------------------------------------------------
// urc_assert_decode

START_TEST(decode_fields) {
    uint8_t raw[URC_ASSERT_RECORD_SIZE];
    make_raw(raw, 2, "x > 0", "a.cpp", "kern", -7);
    put64(raw + 696, UINT64_MAX);
    urc_assert_record_t rec;
    ck_assert(urc_assert_decode(raw, sizeof raw, &rec));
    ck_assert_int_eq(rec.flag, 2);
    ck_assert_str_eq(rec.expr, "x > 0");
    ck_assert_str_eq(rec.file, "a.cpp");
    ck_assert_str_eq(rec.func, "kern");
    ck_assert_int_eq(rec.line, -7);
    ck_assert_uint_eq(rec.global_id[0], 100);
    ck_assert_uint_eq(rec.global_id[2], 102);
    ck_assert_uint_eq(rec.local_id[1], 11);
    ck_assert_uint_eq(rec.local_id[2], UINT64_MAX);
}
END_TEST

START_TEST(decode_flag_values) {
    uint8_t raw[URC_ASSERT_RECORD_SIZE];
    urc_assert_record_t rec;
    make_raw(raw, 0, "", "", "", 0);
    ck_assert(!urc_assert_decode(raw, sizeof raw, &rec));
    // 1 = still being written: never a complete assert, but the fields are decoded anyway.
    make_raw(raw, 1, "e", "f", "g", 3);
    ck_assert(!urc_assert_decode(raw, sizeof raw, &rec));
    ck_assert_int_eq(rec.flag, 1);
    ck_assert_str_eq(rec.file, "f");
}
END_TEST

START_TEST(decode_unterminated_strings) {
    // A device that wrote every byte of each field: no NUL anywhere in the strings.
    uint8_t raw[URC_ASSERT_RECORD_SIZE];
    make_raw(raw, 2, "", "", "", 1);
    memset(raw + 4, 'E', 257);
    memset(raw + 261, 'F', 257);
    memset(raw + 518, 'G', 129);
    urc_assert_record_t rec;
    ck_assert(urc_assert_decode(raw, sizeof raw, &rec));
    ck_assert_uint_eq(strlen(rec.expr), 256);
    ck_assert_uint_eq(strlen(rec.file), 256);
    ck_assert_uint_eq(strlen(rec.func), 128);
    ck_assert_int_eq(rec.expr[255], 'E');
    ck_assert_int_eq(rec.file[255], 'F');
    ck_assert_int_eq(rec.func[127], 'G');
    ck_assert_int_eq(rec.line, 1);
}
END_TEST

START_TEST(decode_short_or_null) {
    uint8_t raw[URC_ASSERT_RECORD_SIZE];
    make_raw(raw, 2, "e", "f", "g", 3);
    urc_assert_record_t rec;
    memset(&rec, 0xff, sizeof rec);
    ck_assert(!urc_assert_decode(raw, URC_ASSERT_RECORD_SIZE - 1, &rec));
    ck_assert_int_eq(rec.flag, 0);
    ck_assert_str_eq(rec.file, "");
    ck_assert(!urc_assert_decode(NULL, URC_ASSERT_RECORD_SIZE, &rec));
    ck_assert(!urc_assert_decode(raw, sizeof raw, NULL));
}
END_TEST

// ---------------------------------------------------------------------------------------------
// urc_assert_format

START_TEST(format_exact) {
    urc_assert_record_t rec = sample_record();
    char buf[URC_ASSERT_MESSAGE_SIZE];
    urc_assert_format(&rec, buf, sizeof buf);
    ck_assert_str_eq(buf, SAMPLE_MESSAGE);
}
END_TEST

START_TEST(format_unknown_strings) {
    urc_assert_record_t rec;
    memset(&rec, 0, sizeof rec);
    rec.line = 5;
    rec.global_id[0] = UINT64_MAX;
    char buf[URC_ASSERT_MESSAGE_SIZE];
    urc_assert_format(&rec, buf, sizeof buf);
    ck_assert_str_eq(buf, "<unknown file>:5: <unknown func>: global id: "
                          "[18446744073709551615,0,0], local id: [0,0,0] "
                          "Assertion `<unknown expr>` failed.");
}
END_TEST

START_TEST(format_longest_fits) {
    urc_assert_record_t rec;
    memset(&rec, 'x', sizeof rec);
    rec.expr[256] = rec.file[256] = rec.func[128] = '\0';
    rec.line = INT32_MIN;
    for (int i = 0; i < 3; ++i)
        rec.global_id[i] = rec.local_id[i] = UINT64_MAX;
    char buf[URC_ASSERT_MESSAGE_SIZE];
    urc_assert_format(&rec, buf, sizeof buf);
    size_t n = strlen(buf);
    ck_assert_uint_lt(n, sizeof buf - 1);
    ck_assert_str_eq(buf + n - 9, "` failed.");
}
END_TEST

START_TEST(format_small_buffer) {
    urc_assert_record_t rec = sample_record();
    char buf[9];
    memset(buf, '#', sizeof buf);
    urc_assert_format(&rec, buf, sizeof buf);
    ck_assert_str_eq(buf, "impl.cpp");
    urc_assert_format(&rec, buf, 0); // writes nothing
    urc_assert_format(NULL, buf, sizeof buf);
    ck_assert_str_eq(buf, "");
}
END_TEST

// ---------------------------------------------------------------------------------------------
// urc_assert_deliver, abort mode

typedef struct child_t {
    int status;     // from waitpid
    char err[4096]; // what the child wrote to stderr
} child_t;

static void read_all(int fd, char *buf, size_t size) {
    size_t n = 0;
    while (n + 1 < size) {
        ssize_t got = read(fd, buf + n, size - 1 - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    buf[n] = '\0';
}

// Runs urc_assert_deliver in a child with stderr on a pipe; no core file is written.
static child_t deliver_in_child(const char *mode, const char *native) {
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        if (mode != NULL)
            setenv("URC_ASSERT_MODE", mode, 1);
        else
            unsetenv("URC_ASSERT_MODE");
        urc_env_reload();
        urc_assert_record_t rec = sample_record();
        if (native != NULL)
            urc_assert_deliver_native(native);
        else
            urc_assert_deliver(&rec);
        _exit(3); // only reached when delivery returned
    }
    close(fds[1]);
    child_t c;
    read_all(fds[0], c.err, sizeof c.err);
    close(fds[0]);
    ck_assert_int_eq(waitpid(pid, &c.status, 0), pid);
    return c;
}

START_TEST(abort_prints_and_aborts) {
    child_t c = deliver_in_child(NULL, NULL);
    ck_assert_msg(WIFSIGNALED(c.status) && WTERMSIG(c.status) == SIGABRT,
                  "child status %#x, expected death by SIGABRT (no SIGTRAP untraced)", c.status);
    ck_assert_str_eq(c.err, SAMPLE_MESSAGE "\n");
}
END_TEST

START_TEST(abort_explicit_mode) {
    child_t c = deliver_in_child("ABORT", NULL);
    ck_assert(WIFSIGNALED(c.status) && WTERMSIG(c.status) == SIGABRT);
    ck_assert_str_eq(c.err, SAMPLE_MESSAGE "\n");
}
END_TEST

START_TEST(abort_unknown_mode_warns) {
    child_t c = deliver_in_child("ignore", NULL);
    ck_assert(WIFSIGNALED(c.status) && WTERMSIG(c.status) == SIGABRT);
    ck_assert_str_eq(c.err,
                     SAMPLE_MESSAGE "\n"
                                    "urc: URC_ASSERT_MODE=\"ignore\" is neither abort nor report; "
                                    "using abort\n");
}
END_TEST

START_TEST(abort_native) {
    child_t c = deliver_in_child(NULL, "device assert (CUDA_ERROR_ASSERT)");
    ck_assert(WIFSIGNALED(c.status) && WTERMSIG(c.status) == SIGABRT);
    ck_assert_str_eq(c.err, "device assert (CUDA_ERROR_ASSERT)\n");
}
END_TEST

// The same through Check's own signal expectation, as a plain test of the default.
START_TEST(abort_raises_sigabrt) {
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, STDERR_FILENO);
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
    unsetenv("URC_ASSERT_MODE");
    urc_env_reload();
    urc_assert_record_t rec = sample_record();
    urc_assert_deliver(&rec);
}
END_TEST

START_TEST(tracer_pid_untraced) {
    ck_assert_int_eq(urc_assert_tracer_pid(), 0);
}
END_TEST

// Under a tracer the child stops with SIGTRAP after printing, then still aborts when the
// tracer lets it go on. A child that may not be traced here (seccomp) exits 77.
START_TEST(abort_traps_under_tracer) {
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none);
        if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
            _exit(77);
        raise(SIGSTOP); // let the parent see us traced before going on
        if (urc_assert_tracer_pid() != getppid())
            _exit(4);
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, STDERR_FILENO);
        unsetenv("URC_ASSERT_MODE");
        urc_env_reload();
        urc_assert_record_t rec = sample_record();
        urc_assert_deliver(&rec);
        _exit(3);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
        fprintf(stderr, "abort_traps_under_tracer: ptrace not permitted here; not checked\n");
        return;
    }
    ck_assert_msg(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP, "status %#x", status);
    ck_assert_int_eq(ptrace(PTRACE_CONT, pid, NULL, NULL), 0);

    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP,
                  "status %#x, expected a SIGTRAP stop", status);
    ck_assert_int_eq(ptrace(PTRACE_CONT, pid, NULL, NULL), 0); // the debugger swallows it

    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFSTOPPED(status) && WSTOPSIG(status) == SIGABRT, "status %#x", status);
    ck_assert_int_eq(ptrace(PTRACE_CONT, pid, NULL, (void *)(intptr_t)SIGABRT), 0);

    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "status %#x", status);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// urc_assert_deliver, report mode

static void report_mode(const char *value) {
    setenv("URC_ASSERT_MODE", value, 1);
    urc_env_reload();
}

// Delivers with stderr sent to a file, and returns what was printed.
static ur_result_t deliver_captured(const urc_assert_record_t *rec, char *printed, size_t size) {
    FILE *tmp = tmpfile();
    ck_assert_ptr_nonnull(tmp);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fileno(tmp), STDERR_FILENO);
    ur_result_t r = urc_assert_deliver(rec);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    rewind(tmp);
    size_t n = fread(printed, 1, size - 1, tmp);
    printed[n] = '\0';
    fclose(tmp);
    return r;
}

START_TEST(report_returns_adapter_specific) {
    report_mode("report");
    ck_assert(urc_assert_report_mode());
    urc_assert_record_t rec = sample_record();
    char printed[2048];
    ck_assert_ur(deliver_captured(&rec, printed, sizeof printed), UR_RESULT_ERROR_ADAPTER_SPECIFIC);
    ck_assert_str_eq(printed, SAMPLE_MESSAGE "\n");
    const char *msg;
    int32_t native;
    urc_error_get(&msg, &native);
    ck_assert_str_eq(msg, SAMPLE_MESSAGE);
    ck_assert_int_eq(native, URC_ERROR_DEVICE_ASSERT);
}
END_TEST

START_TEST(report_mode_any_case) {
    report_mode("Report");
    ck_assert(urc_assert_report_mode());
    report_mode("abort");
    ck_assert(!urc_assert_report_mode());
}
END_TEST

START_TEST(report_fields_reach_loader) {
    report_mode("report");
    urc_assert_report_t got;
    ck_assert_ur(urcAssertGetLastReport(&got), UR_RESULT_ERROR_INVALID_OPERATION);
    urc_assert_record_t rec = sample_record();
    char printed[2048];
    deliver_captured(&rec, printed, sizeof printed);
    ck_assert_ur_ok(urcAssertGetLastReport(&got));
    ck_assert_str_eq(got.message, SAMPLE_MESSAGE);
    ck_assert_str_eq(got.expr, "X && \"Nil\"");
    ck_assert_str_eq(got.file, "impl.cpp");
    ck_assert_str_eq(got.func, "int calculus(int)");
    ck_assert_int_eq(got.line, 42);
    ck_assert_uint_eq(got.globalId[0], 100);
    ck_assert_uint_eq(got.globalId[2], 102);
    ck_assert_uint_eq(got.localId[0], 10);
    ck_assert_uint_eq(got.localId[2], 12);
}
END_TEST

START_TEST(report_empty_strings_stay_empty) {
    // The message says "<unknown file>"; the fields keep what the device wrote.
    report_mode("report");
    urc_assert_record_t rec;
    memset(&rec, 0, sizeof rec);
    rec.flag = 2;
    char printed[2048];
    deliver_captured(&rec, printed, sizeof printed);
    urc_assert_report_t got;
    ck_assert_ur_ok(urcAssertGetLastReport(&got));
    ck_assert_str_eq(got.file, "");
    ck_assert_ptr_nonnull(strstr(got.message, "<unknown file>:0: <unknown func>:"));
}
END_TEST

static void *other_thread_report(void *arg) {
    urc_assert_report_t got;
    *(ur_result_t *)arg = urcAssertGetLastReport(&got);
    return NULL;
}

START_TEST(report_is_per_thread) {
    report_mode("report");
    urc_assert_record_t rec = sample_record();
    char printed[2048];
    deliver_captured(&rec, printed, sizeof printed);
    ur_result_t other = UR_RESULT_SUCCESS;
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, other_thread_report, &other), 0);
    pthread_join(t, NULL);
    ck_assert_ur(other, UR_RESULT_ERROR_INVALID_OPERATION);
    urc_assert_report_t got;
    ck_assert_ur_ok(urcAssertGetLastReport(&got));
}
END_TEST

START_TEST(report_null_arguments) {
    report_mode("report");
    ck_assert_ur(urc_assert_deliver(NULL), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urcAssertGetLastReport(NULL), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    urcAssertPublish(NULL); // ignored
    urc_assert_report_t got;
    ck_assert_ur(urcAssertGetLastReport(&got), UR_RESULT_ERROR_INVALID_OPERATION);
}
END_TEST

START_TEST(report_native) {
    report_mode("report");
    char printed[2048];
    FILE *tmp = tmpfile();
    int saved = dup(STDERR_FILENO);
    dup2(fileno(tmp), STDERR_FILENO);
    ur_result_t r = urc_assert_deliver_native("device assert (CUDA_ERROR_ASSERT)");
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    rewind(tmp);
    printed[fread(printed, 1, sizeof printed - 1, tmp)] = '\0';
    fclose(tmp);
    ck_assert_ur(r, UR_RESULT_ERROR_ADAPTER_SPECIFIC);
    ck_assert_str_eq(printed, "device assert (CUDA_ERROR_ASSERT)\n");
    urc_assert_report_t got;
    ck_assert_ur_ok(urcAssertGetLastReport(&got));
    ck_assert_str_eq(got.message, "device assert (CUDA_ERROR_ASSERT)");
    ck_assert_str_eq(got.file, "");
    ck_assert_int_eq(got.line, 0);
    int32_t native;
    urc_error_get(NULL, &native);
    ck_assert_int_eq(native, URC_ERROR_DEVICE_ASSERT);
    ck_assert_ur(urc_assert_deliver_native(NULL), UR_RESULT_ERROR_INVALID_NULL_POINTER);
}
END_TEST

START_TEST(publish_terminates_strings) {
    urc_assert_report_t in;
    memset(&in, 'z', sizeof in);
    urcAssertPublish(&in);
    urc_assert_report_t got;
    ck_assert_ur_ok(urcAssertGetLastReport(&got));
    ck_assert_uint_eq(strlen(got.expr), sizeof got.expr - 1);
    ck_assert_uint_eq(strlen(got.message), sizeof got.message - 1);
}
END_TEST

static Suite *assert_record_suite(void) {
    Suite *s = suite_create("assert_record");
    TCase *tc = tcase_create("urc_assert_decode");
    tcase_add_test(tc, decode_fields);
    tcase_add_test(tc, decode_flag_values);
    tcase_add_test(tc, decode_unterminated_strings);
    tcase_add_test(tc, decode_short_or_null);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_assert_format");
    tcase_add_test(tc, format_exact);
    tcase_add_test(tc, format_unknown_strings);
    tcase_add_test(tc, format_longest_fits);
    tcase_add_test(tc, format_small_buffer);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_assert_deliver_abort");
    tcase_add_test(tc, abort_prints_and_aborts);
    tcase_add_test(tc, abort_explicit_mode);
    tcase_add_test(tc, abort_unknown_mode_warns);
    tcase_add_test(tc, abort_native);
    tcase_add_test_raise_signal(tc, abort_raises_sigabrt, SIGABRT);
    tcase_add_test(tc, tracer_pid_untraced);
    tcase_add_test(tc, abort_traps_under_tracer);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_assert_deliver_report");
    tcase_add_test(tc, report_returns_adapter_specific);
    tcase_add_test(tc, report_mode_any_case);
    tcase_add_test(tc, report_fields_reach_loader);
    tcase_add_test(tc, report_empty_strings_stay_empty);
    tcase_add_test(tc, report_is_per_thread);
    tcase_add_test(tc, report_null_arguments);
    tcase_add_test(tc, report_native);
    tcase_add_test(tc, publish_terminates_strings);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return urc_test_run(assert_record_suite());
}
