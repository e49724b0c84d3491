// SPDX-License-Identifier: MIT
#include "timeline.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/enum_names.h"
#include "env/env.h"
#include "loader.h"
#include "ur_ddi.h"

// A queue's track and how its device clock maps onto CLOCK_MONOTONIC.
typedef struct track_t {
    ur_queue_handle_t queue;
    int tid;           // the track's id in the file
    bool mapped;       // offset_ns is known
    int64_t offset_ns; // host = device + offset
    uint64_t uncertainty_ns;
} track_t;

// A command whose times are not known yet.
typedef struct command_t {
    const char *name;
    ur_queue_handle_t queue;
    ur_event_handle_t event; // the timeline's reference
    uint64_t flow;
    uint64_t submit_ns, submitted_ns; // the enqueue call's start, and when it had the event
} command_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *out;       // guarded by lock, as is everything below
static uint64_t origin; // timestamps are microseconds from the first call's start
static track_t *tracks;
static size_t track_count;
static command_t *pending;
static size_t pending_count, pending_cap;
static uint64_t next_flow;

static const ur_dditable_t *ddi_of(const void *handle) {
    return *(const ur_dditable_t *const *)handle;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

// Microseconds from the origin with nanosecond decimals; times before it clamp to 0.
static void put_us(const char *key, uint64_t ns) {
    uint64_t t = ns > origin ? ns - origin : 0;
    fprintf(out, "\"%s\":%llu.%03llu", key, (unsigned long long)(t / 1000),
            (unsigned long long)(t % 1000));
}

bool urc_timeline_open(void) {
    const char *path = urc_env_get(URC_ENV_TRACE_FILE);
    if (path == NULL)
        return false;
    pthread_mutex_lock(&lock);
    if (out == NULL) {
        // A program that initialises the loader again after a full teardown gets one file per
        // session: <path>, then <path minus .json>.2.json, ...
        static unsigned sessions;
        char numbered[4096];
        const char *name = path;
        if (++sessions > 1) {
            size_t len = strlen(path);
            size_t stem = len > 5 && strcmp(path + len - 5, ".json") == 0 ? len - 5 : len;
            snprintf(numbered, sizeof numbered, "%.*s.%u.json", (int)stem, path, sessions);
            name = numbered;
        }
        out = fopen(name, "w");
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
        origin = now_ns();
    }
    pthread_mutex_unlock(&lock);
    return true;
}

void urc_timeline_call(const char *name, uint64_t start_ns, uint64_t end_ns, ur_result_t result) {
    long tid = syscall(SYS_gettid);
    pthread_mutex_lock(&lock);
    if (out != NULL) {
        fprintf(out, ",\n{\"name\":\"%s\",\"cat\":\"call\",\"ph\":\"X\",\"pid\":%d,\"tid\":%ld,",
                name, (int)getpid(), tid);
        put_us("ts", start_ns);
        fprintf(out, ",\"dur\":%llu.%03llu,\"args\":{\"result\":\"%s\"}}",
                (unsigned long long)((end_ns - start_ns) / 1000),
                (unsigned long long)((end_ns - start_ns) % 1000), urc_result_name(result));
    }
    pthread_mutex_unlock(&lock);
}

const ur_queue_properties_t *urc_timeline_queue_properties(const ur_queue_properties_t *given,
                                                           ur_queue_properties_t *room) {
    if (given != NULL)
        *room = *given;
    else
        *room = (ur_queue_properties_t){UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL, 0};
    room->flags |= UR_QUEUE_FLAG_PROFILING_ENABLE;
    return room;
}

// The queue's track, made (and named) on first use. Called with the lock held.
static track_t *track_of(ur_queue_handle_t queue) {
    for (size_t i = 0; i < track_count; ++i)
        if (tracks[i].queue == queue)
            return &tracks[i];
    track_t *grown = realloc(tracks, (track_count + 1) * sizeof *tracks);
    if (grown == NULL)
        return NULL;
    tracks = grown;
    track_t *t = &tracks[track_count];
    *t = (track_t){.queue = queue, .tid = 1000000 + (int)track_count};
    ++track_count;
    fprintf(out,
            ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
            "\"args\":{\"name\":\"queue %p\"}}",
            (int)getpid(), t->tid, (void *)queue);
    return t;
}

// Reads the device clock against the host's once per queue: the midpoint of the host times
// around urDeviceGetGlobalTimestamps, give or take half their distance. Devices without
// global timestamps (PoCL) are mapped by their first command instead (see finish).
static bool map_clock(ur_queue_handle_t queue, int64_t *offset, uint64_t *uncertainty) {
    ur_device_handle_t device = NULL;
    const ur_dditable_t *q = ddi_of(queue);
    if (q->Queue.pfnGetInfo == NULL ||
        q->Queue.pfnGetInfo(queue, UR_QUEUE_INFO_DEVICE, sizeof device, &device, NULL) !=
            UR_RESULT_SUCCESS ||
        device == NULL)
        return false;
    const ur_dditable_t *d = ddi_of(device);
    if (d->Device.pfnGetGlobalTimestamps == NULL)
        return false;
    uint64_t device_ns = 0;
    uint64_t before = now_ns();
    if (d->Device.pfnGetGlobalTimestamps(device, &device_ns, NULL) != UR_RESULT_SUCCESS)
        return false;
    uint64_t after = now_ns();
    *offset = (int64_t)(before + (after - before) / 2) - (int64_t)device_ns;
    *uncertainty = (after - before) / 2 + 1;
    return true;
}

// Room for one more pending command. Called with the lock held.
static bool room_for_one(void) {
    if (pending_count < pending_cap)
        return true;
    size_t cap = pending_cap ? pending_cap * 2 : 64;
    command_t *grown = realloc(pending, cap * sizeof *grown);
    if (grown == NULL)
        return false;
    pending = grown;
    pending_cap = cap;
    return true;
}

void urc_timeline_command(const char *name, ur_queue_handle_t queue, ur_event_handle_t event,
                          bool owned, uint64_t submit_ns) {
    const ur_dditable_t *e = ddi_of(event);
    if (!owned && (e->Event.pfnRetain == NULL || e->Event.pfnRetain(event) != UR_RESULT_SUCCESS))
        return;
    // The clock is read outside the lock: it calls into the adapter.
    pthread_mutex_lock(&lock);
    track_t *t = out != NULL ? track_of(queue) : NULL;
    bool need_map = t != NULL && !t->mapped;
    pthread_mutex_unlock(&lock);
    int64_t offset = 0;
    uint64_t uncertainty = 0;
    bool mapped = need_map && map_clock(queue, &offset, &uncertainty);
    long tid = syscall(SYS_gettid);
    pthread_mutex_lock(&lock);
    t = out != NULL ? track_of(queue) : NULL;
    if (t != NULL && mapped && !t->mapped) {
        t->mapped = true;
        t->offset_ns = offset;
        t->uncertainty_ns = uncertainty;
    }
    if (t == NULL || !room_for_one()) {
        pthread_mutex_unlock(&lock);
        e->Event.pfnRelease(event);
        return;
    }
    uint64_t flow = ++next_flow;
    pending[pending_count++] = (command_t){name, queue, event, flow, submit_ns, now_ns()};
    // The flow starts inside the enqueue call's slice.
    fprintf(
        out,
        ",\n{\"name\":\"%s\",\"cat\":\"command\",\"ph\":\"s\",\"id\":%llu,\"pid\":%d,\"tid\":%ld,",
        name, (unsigned long long)flow, (int)getpid(), tid);
    put_us("ts", submit_ns);
    fputc('}', out);
    pthread_mutex_unlock(&lock);
}

// Writes the command's slice when its times are known; releases the timeline's reference.
static void finish(const command_t *c, bool ask) {
    const ur_dditable_t *e = ddi_of(c->event);
    uint64_t start = 0, end = 0;
    bool timed = ask && e->Event.pfnGetProfilingInfo != NULL &&
                 e->Event.pfnGetProfilingInfo(c->event, UR_PROFILING_INFO_COMMAND_START,
                                              sizeof start, &start, NULL) == UR_RESULT_SUCCESS &&
                 e->Event.pfnGetProfilingInfo(c->event, UR_PROFILING_INFO_COMMAND_END, sizeof end,
                                              &end, NULL) == UR_RESULT_SUCCESS &&
                 end >= start;
    // Without a clock mapping yet: the command was queued (device clock) during its enqueue
    // call (host clock), which pins the offset to within that call's duration.
    uint64_t queued = 0;
    bool anchored =
        timed && e->Event.pfnGetProfilingInfo(c->event, UR_PROFILING_INFO_COMMAND_QUEUED,
                                              sizeof queued, &queued, NULL) == UR_RESULT_SUCCESS;
    if (ask)
        e->Event.pfnRelease(c->event);
    if (!timed)
        return;
    pthread_mutex_lock(&lock);
    track_t *t = out != NULL ? track_of(c->queue) : NULL;
    if (t != NULL && !t->mapped && anchored && queued <= start) {
        t->mapped = true;
        t->offset_ns = (int64_t)c->submit_ns - (int64_t)queued;
        t->uncertainty_ns = c->submitted_ns - c->submit_ns + 1;
    }
    if (t != NULL && t->mapped) {
        uint64_t host_start = (uint64_t)((int64_t)start + t->offset_ns);
        fprintf(out, ",\n{\"name\":\"%s\",\"cat\":\"device\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,",
                c->name, (int)getpid(), t->tid);
        put_us("ts", host_start);
        fprintf(out, ",\"dur\":%llu.%03llu,\"args\":{\"clock_uncertainty_us\":%llu.%03llu}}",
                (unsigned long long)((end - start) / 1000),
                (unsigned long long)((end - start) % 1000),
                (unsigned long long)(t->uncertainty_ns / 1000),
                (unsigned long long)(t->uncertainty_ns % 1000));
        fprintf(out,
                ",\n{\"name\":\"%s\",\"cat\":\"command\",\"ph\":\"f\",\"bp\":\"e\",\"id\":%llu,"
                "\"pid\":%d,\"tid\":%d,",
                c->name, (unsigned long long)c->flow, (int)getpid(), t->tid);
        put_us("ts", host_start);
        fputc('}', out);
    }
    pthread_mutex_unlock(&lock);
}

// Takes the pending commands of `queue` (all of them for NULL) out of the list.
static command_t *take(ur_queue_handle_t queue, size_t *count) {
    pthread_mutex_lock(&lock);
    command_t *taken = malloc((pending_count ? pending_count : 1) * sizeof *taken);
    size_t n = 0, kept = 0;
    for (size_t i = 0; taken != NULL && i < pending_count; ++i) {
        if (queue == NULL || pending[i].queue == queue)
            taken[n++] = pending[i];
        else
            pending[kept++] = pending[i];
    }
    if (taken != NULL)
        pending_count = kept;
    pthread_mutex_unlock(&lock);
    *count = n;
    return taken;
}

void urc_timeline_queue_done(ur_queue_handle_t queue) {
    size_t n = 0;
    command_t *done = take(queue, &n);
    for (size_t i = 0; i < n; ++i)
        finish(&done[i], true);
    free(done);
}

void urc_timeline_close(bool adapters_alive) {
    size_t n = 0;
    command_t *left = take(NULL, &n);
    // Commands still running cannot be timed (their profiling info is not ready): no slice.
    for (size_t i = 0; i < n; ++i)
        finish(&left[i], adapters_alive);
    free(left);
    pthread_mutex_lock(&lock);
    if (out != NULL) {
        fprintf(out, "\n]}\n");
        fclose(out);
        out = NULL;
    }
    free(tracks);
    tracks = NULL;
    track_count = 0;
    free(pending);
    pending = NULL;
    pending_count = pending_cap = 0;
    pthread_mutex_unlock(&lock);
}
