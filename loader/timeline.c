// SPDX-License-Identifier: MIT
#include "timeline.h"

#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "enum_names.h"
#include "env.h"
#include "loader.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *out;       // guarded by lock
static uint64_t origin; // the first call's start: timestamps are microseconds from it

bool urc_timeline_open(void) {
    const char *path = urc_env_get(URC_ENV_TRACE_FILE);
    if (path == NULL)
        return false;
    pthread_mutex_lock(&lock);
    if (out == NULL) {
        out = fopen(path, "w");
        if (out == NULL) {
            pthread_mutex_unlock(&lock);
            URC_LOG(urc_loader_log(), UR_LOGGER_LEVEL_WARN,
                    "URC_TRACE_FILE=\"%s\": cannot write it", path);
            return false;
        }
        fprintf(out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
        fprintf(out,
                "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":\"urc\"}}",
                (int)getpid());
        origin = 0;
    }
    pthread_mutex_unlock(&lock);
    return true;
}

void urc_timeline_call(const char *name, uint64_t start_ns, uint64_t end_ns, ur_result_t result) {
    long tid = syscall(SYS_gettid);
    pthread_mutex_lock(&lock);
    if (out != NULL) {
        if (origin == 0)
            origin = start_ns;
        uint64_t ts = start_ns - origin, dur = end_ns - start_ns;
        // Complete events ("X") in microseconds with nanosecond fractions.
        fprintf(out,
                ",\n{\"name\":\"%s\",\"cat\":\"call\",\"ph\":\"X\",\"pid\":%d,\"tid\":%ld,"
                "\"ts\":%llu.%03llu,\"dur\":%llu.%03llu,\"args\":{\"result\":\"%s\"}}",
                name, (int)getpid(), tid, (unsigned long long)(ts / 1000),
                (unsigned long long)(ts % 1000), (unsigned long long)(dur / 1000),
                (unsigned long long)(dur % 1000), urc_result_name(result));
    }
    pthread_mutex_unlock(&lock);
}

void urc_timeline_close(void) {
    pthread_mutex_lock(&lock);
    if (out != NULL) {
        fprintf(out, "\n]}\n");
        fclose(out);
        out = NULL;
    }
    pthread_mutex_unlock(&lock);
}
