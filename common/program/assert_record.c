// SPDX-License-Identifier: MIT
#include "program/assert_record.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "env/env.h"
#include "core/error.h"
#include "urc_assert.h"

// Offsets of the fields in the 704-byte record (anchor §2.3, natural alignment on SPIR64).
enum {
    OFF_FLAG = 0,
    OFF_EXPR = 4,
    OFF_FILE = 261,
    OFF_FUNC = 518,
    OFF_LINE = 648,
    OFF_GID = 656,
    OFF_LID = 680,
    MAX_EXPR = 256,
    MAX_FILE = 256,
    MAX_FUNC = 128,
};

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p) {
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

// Copies at most `max` characters and always terminates: a device that wrote no NUL (or a
// corrupted record) must not make the host read past the field.
static void copy_bounded(char *dst, const uint8_t *src, size_t max) {
    size_t n = 0;
    while (n < max && src[n] != '\0')
        ++n;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

bool urc_assert_decode(const void *raw, size_t size, urc_assert_record_t *out) {
    if (out == NULL)
        return false;
    memset(out, 0, sizeof *out);
    if (raw == NULL || size < URC_ASSERT_RECORD_SIZE)
        return false;
    const uint8_t *p = raw;
    out->flag = (int32_t)le32(p + OFF_FLAG);
    copy_bounded(out->expr, p + OFF_EXPR, MAX_EXPR);
    copy_bounded(out->file, p + OFF_FILE, MAX_FILE);
    copy_bounded(out->func, p + OFF_FUNC, MAX_FUNC);
    out->line = (int32_t)le32(p + OFF_LINE);
    for (int i = 0; i < 3; ++i) {
        out->global_id[i] = le64(p + OFF_GID + 8 * i);
        out->local_id[i] = le64(p + OFF_LID + 8 * i);
    }
    // Flag 1 means "being written": the device finished the kernel mid-record, which the
    // protocol rules out, so only a complete record counts as an assert.
    return out->flag == 2;
}

static const char *or_unknown(const char *s, const char *unknown) {
    return s[0] != '\0' ? s : unknown;
}

void urc_assert_format(const urc_assert_record_t *rec, char *buf, size_t size) {
    if (buf == NULL || size == 0)
        return;
    if (rec == NULL) {
        buf[0] = '\0';
        return;
    }
    snprintf(buf, size,
             "%s:%" PRId32 ": %s: global id: [%" PRIu64 ",%" PRIu64 ",%" PRIu64 "], "
             "local id: [%" PRIu64 ",%" PRIu64 ",%" PRIu64 "] Assertion `%s` failed.",
             or_unknown(rec->file, "<unknown file>"), rec->line,
             or_unknown(rec->func, "<unknown func>"), rec->global_id[0], rec->global_id[1],
             rec->global_id[2], rec->local_id[0], rec->local_id[1], rec->local_id[2],
             or_unknown(rec->expr, "<unknown expr>"));
}

bool urc_assert_report_mode(void) {
    static atomic_flag warned = ATOMIC_FLAG_INIT;
    const char *mode = urc_env_get(URC_ENV_ASSERT_MODE);
    if (mode == NULL || strcasecmp(mode, "abort") == 0)
        return false;
    if (strcasecmp(mode, "report") == 0)
        return true;
    // A typo must not silently turn a fatal assert into something the program ignores.
    if (!atomic_flag_test_and_set(&warned))
        fprintf(stderr, "urc: URC_ASSERT_MODE=\"%s\" is neither abort nor report; using abort\n",
                mode);
    return false;
}

int urc_assert_tracer_pid(void) {
    FILE *f = fopen("/proc/self/status", "re");
    if (f == NULL)
        return 0;
    char line[256];
    int pid = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "TracerPid:", 10) == 0) {
            pid = atoi(line + 10);
            break;
        }
    }
    fclose(f);
    return pid > 0 ? pid : 0;
}

// urc's loader defines urcAssertPublish. Each adapter carries its own copy of this file, so the
// report must cross into the loader: through the weak reference when the loader is in the
// global scope, else by asking the dynamic linker for an already-loaded libur_loader.so.0
// (RTLD_NOLOAD never loads it). Under UR's loader neither finds the symbol.
extern __typeof__(urcAssertPublish) urcAssertPublish __attribute__((weak));

typedef void(UR_APICALL *publish_fn_t)(const urc_assert_report_t *);

static void publish(const urc_assert_report_t *report) {
    publish_fn_t fn = urcAssertPublish;
    void *loader = NULL;
    if (fn == NULL) {
        loader = dlopen("libur_loader.so.0", RTLD_NOW | RTLD_NOLOAD);
        if (loader != NULL)
            fn = (publish_fn_t)dlsym(loader, "urcAssertPublish");
    }
    if (fn != NULL)
        fn(report);
    if (loader != NULL)
        dlclose(loader);
}

// Both delivery paths end here: print, then abort (trapping first under a debugger) or hand
// the report over and return the documented result.
static ur_result_t deliver(urc_assert_report_t *report) {
    fprintf(stderr, "%s\n", report->message);
    fflush(stderr);
    if (!urc_assert_report_mode()) {
        // Under a debugger, stop at the assert with the kernel's state still around; without
        // one SIGTRAP would only kill the process with a misleading signal.
        if (urc_assert_tracer_pid() != 0)
            raise(SIGTRAP);
        // Runtimes install SIGABRT handlers that print crash banners (Intel's CPU OpenCL asks
        // for a bug report); the seed's message must be the last word, so restore the default.
        signal(SIGABRT, SIG_DFL);
        abort();
    }
    publish(report);
    return urc_error_set(UR_RESULT_ERROR_ADAPTER_SPECIFIC, URC_ERROR_DEVICE_ASSERT, "%s",
                         report->message);
}

ur_result_t urc_assert_deliver(const urc_assert_record_t *rec) {
    if (rec == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    urc_assert_report_t report;
    memset(&report, 0, sizeof report);
    urc_assert_format(rec, report.message, sizeof report.message);
    // The record's strings are terminated within their arrays when it came from decode; the
    // last byte is forced anyway for records built by hand.
    memcpy(report.expr, rec->expr, sizeof report.expr - 1);
    memcpy(report.file, rec->file, sizeof report.file - 1);
    memcpy(report.func, rec->func, sizeof report.func - 1);
    report.line = rec->line;
    memcpy(report.globalId, rec->global_id, sizeof report.globalId);
    memcpy(report.localId, rec->local_id, sizeof report.localId);
    return deliver(&report);
}

ur_result_t urc_assert_deliver_native(const char *message) {
    if (message == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    urc_assert_report_t report;
    memset(&report, 0, sizeof report);
    snprintf(report.message, sizeof report.message, "%s", message);
    return deliver(&report);
}
