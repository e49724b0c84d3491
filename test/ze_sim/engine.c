// SPDX-License-Identifier: MIT
// The execution engine: every immediate list and every queue is an in-order stream of
// commands. A command runs, on the host and in the thread that made it runnable, as soon as
// it is at the head of its stream and all its wait events are signalled. One lock guards
// all streams, events and fences, so "runnable" never races with "signalled".
#include "ze_sim_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SIM_DEFAULT_HANG_MS 10000u

static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond; // broadcast whenever an event, fence or stream changes state
    pthread_once_t once;
    sim_stream_t *streams;
    uint64_t hang_ns;         // 0 = the default below
    uint64_t default_hang_ns; // ZE_SIM_HANG_TIMEOUT_MS or 10 s
    atomic_ullong trips;
} g_eng = {.lock = PTHREAD_MUTEX_INITIALIZER, .once = PTHREAD_ONCE_INIT};

static void engine_init(void) {
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    // Deadlines are computed on CLOCK_MONOTONIC so a wall-clock jump cannot stretch a wait.
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&g_eng.cond, &attr);
    pthread_condattr_destroy(&attr);
    g_eng.default_hang_ns = sim_env_u64("ZE_SIM_HANG_TIMEOUT_MS", SIM_DEFAULT_HANG_MS) * 1000000ull;
}

void sim_engine_lock(void) {
    pthread_once(&g_eng.once, engine_init);
    pthread_mutex_lock(&g_eng.lock);
}

void sim_engine_unlock(void) {
    pthread_mutex_unlock(&g_eng.lock);
}

void sim_engine_set_hang_timeout(uint64_t ns) {
    sim_engine_lock();
    g_eng.hang_ns = ns;
    sim_engine_unlock();
}

void sim_engine_reset_trips(void) {
    atomic_store(&g_eng.trips, 0);
}

void sim_engine_broadcast(void) {
    pthread_cond_broadcast(&g_eng.cond);
}

uint64_t sim_engine_hang_trips(void) {
    return atomic_load(&g_eng.trips);
}

// New streams go first; the sweep order does not matter since streams are independent.
void sim_engine_attach(sim_stream_t *stream) {
    stream->prev = NULL;
    stream->next = g_eng.streams;
    if (g_eng.streams)
        g_eng.streams->prev = stream;
    g_eng.streams = stream;
}

void sim_engine_detach(sim_stream_t *stream) {
    if (stream->prev)
        stream->prev->next = stream->next;
    else if (g_eng.streams == stream)
        g_eng.streams = stream->next;
    if (stream->next)
        stream->next->prev = stream->prev;
    stream->prev = stream->next = NULL;
    // Commands still waiting are dropped with the stream; their events stay unsignalled.
    while (stream->head) {
        sim_cmd_t *c = stream->head;
        stream->head = c->next;
        sim_cmd_free_locked(c);
    }
    stream->tail = NULL;
    pthread_cond_broadcast(&g_eng.cond);
}

// ---------------------------------------------------------------------------------------------
// Commands.

void sim_launch_fini(sim_launch_t *launch) {
    free(launch->kernel_name);
    for (uint32_t i = 0; launch->args && i < launch->num_args; ++i)
        free(launch->args[i].value);
    free(launch->args);
    memset(launch, 0, sizeof(*launch));
}

// Deep copy for a regular list executed again: every execution owns its argument bytes.
static int launch_copy(sim_launch_t *dst, const sim_launch_t *src) {
    *dst = *src;
    dst->kernel_name = NULL;
    dst->args = NULL;
    if (!(dst->kernel_name = sim_strdup(src->kernel_name)))
        goto fail;
    if (src->num_args && !(dst->args = calloc(src->num_args, sizeof(sim_arg_t))))
        goto fail;
    for (uint32_t i = 0; i < src->num_args; ++i) {
        dst->args[i] = src->args[i];
        dst->args[i].value = NULL;
        if (src->args[i].value) {
            if (!(dst->args[i].value = malloc(src->args[i].size ? src->args[i].size : 1)))
                goto fail;
            memcpy(dst->args[i].value, src->args[i].value, src->args[i].size);
        }
    }
    return 0;
fail:
    sim_launch_fini(dst);
    return -1;
}

sim_cmd_t *sim_cmd_new(sim_cmd_kind_t kind, ze_event_handle_t signal, uint32_t num_waits,
                       const ze_event_handle_t *waits, ze_result_t *res) {
    sim_event_t *sig = NULL;
    // Every handle is checked before anything is allocated or retained.
    if (num_waits && !waits) {
        *res = ZE_RESULT_ERROR_INVALID_SIZE;
        return NULL;
    }
    if (signal && !(sig = sim_obj(signal, SIM_KIND_EVENT, res)))
        return NULL;
    for (uint32_t i = 0; i < num_waits; ++i)
        if (!sim_obj(waits[i], SIM_KIND_EVENT, res))
            return NULL;
    sim_cmd_t *c = calloc(1, sizeof(*c));
    if (!c || (num_waits && !(c->waits = calloc(num_waits, sizeof(*c->waits))))) {
        free(c);
        *res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    c->kind = kind;
    c->signal = sig;
    c->num_waits = num_waits;
    // References are taken under the engine lock, which guards every event's count.
    sim_engine_lock();
    if (sig)
        sim_event_retain(sig);
    for (uint32_t i = 0; i < num_waits; ++i) {
        c->waits[i] = (sim_event_t *)waits[i];
        sim_event_retain(c->waits[i]);
    }
    sim_engine_unlock();
    *res = ZE_RESULT_SUCCESS;
    return c;
}

void sim_cmd_free_locked(sim_cmd_t *c) {
    if (!c)
        return;
    if (c->signal)
        sim_event_release(c->signal);
    for (uint32_t i = 0; i < c->num_waits; ++i)
        sim_event_release(c->waits[i]);
    free(c->waits);
    switch (c->kind) {
    case SIM_CMD_EVENT_RESET:
        sim_event_release(c->u.reset.event);
        break;
    case SIM_CMD_QUERY_TIMESTAMPS:
        for (uint32_t i = 0; i < c->u.query.count; ++i)
            sim_event_release(c->u.query.events[i]);
        free(c->u.query.events);
        free(c->u.query.offsets);
        break;
    case SIM_CMD_LAUNCH:
        for (uint32_t i = 0; i < c->u.launch.num_kernels; ++i)
            sim_launch_fini(&c->u.launch.kernels[i]);
        free(c->u.launch.kernels);
        break;
    case SIM_CMD_FENCE:
        sim_fence_release(c->u.fence.fence);
        break;
    default:
        break;
    }
    free(c);
}

void sim_cmd_free(sim_cmd_t *c) {
    sim_engine_lock();
    sim_cmd_free_locked(c);
    sim_engine_unlock();
}

sim_cmd_t *sim_cmd_clone(const sim_cmd_t *src, ze_result_t *res) {
    sim_cmd_t *c = calloc(1, sizeof(*c));
    if (!c)
        goto oom;
    *c = *src;
    c->next = NULL;
    c->waits = NULL;
    c->num_waits = 0;
    c->signal = NULL;
    // Deep copies first; references are taken last, under one lock, so a failure frees plainly.
    if (src->num_waits && !(c->waits = malloc(src->num_waits * sizeof(*c->waits))))
        goto fail;
    if (src->kind == SIM_CMD_QUERY_TIMESTAMPS) {
        uint32_t n = src->u.query.count;
        c->u.query.events = malloc(n * sizeof(*c->u.query.events));
        c->u.query.offsets = src->u.query.offsets ? malloc(n * sizeof(size_t)) : NULL;
        if (!c->u.query.events || (src->u.query.offsets && !c->u.query.offsets))
            goto fail_query;
        memcpy(c->u.query.events, src->u.query.events, n * sizeof(*c->u.query.events));
        if (src->u.query.offsets)
            memcpy(c->u.query.offsets, src->u.query.offsets, n * sizeof(size_t));
    } else if (src->kind == SIM_CMD_LAUNCH) {
        uint32_t n = src->u.launch.num_kernels;
        c->u.launch.kernels = calloc(n, sizeof(sim_launch_t));
        if (!c->u.launch.kernels)
            goto fail;
        for (uint32_t i = 0; i < n; ++i) {
            if (launch_copy(&c->u.launch.kernels[i], &src->u.launch.kernels[i])) {
                for (uint32_t j = 0; j < i; ++j)
                    sim_launch_fini(&c->u.launch.kernels[j]);
                free(c->u.launch.kernels);
                goto fail;
            }
        }
    }
    if (src->num_waits)
        memcpy(c->waits, src->waits, src->num_waits * sizeof(*c->waits));
    c->num_waits = src->num_waits;
    c->signal = src->signal;
    sim_engine_lock();
    if (c->signal)
        sim_event_retain(c->signal);
    for (uint32_t i = 0; i < c->num_waits; ++i)
        sim_event_retain(c->waits[i]);
    if (c->kind == SIM_CMD_EVENT_RESET)
        sim_event_retain(c->u.reset.event);
    if (c->kind == SIM_CMD_QUERY_TIMESTAMPS)
        for (uint32_t i = 0; i < c->u.query.count; ++i)
            sim_event_retain(c->u.query.events[i]);
    if (c->kind == SIM_CMD_FENCE)
        sim_fence_retain(c->u.fence.fence);
    sim_engine_unlock();
    *res = ZE_RESULT_SUCCESS;
    return c;

fail_query:
    free(c->u.query.events);
    free(c->u.query.offsets);
fail:
    free(c->waits);
    free(c);
oom:
    *res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    return NULL;
}

// ---------------------------------------------------------------------------------------------
// Running commands.

// A command may run once every wait event is signalled; in-order streams do the rest.
static int cmd_ready(const sim_cmd_t *c) {
    for (uint32_t i = 0; i < c->num_waits; ++i)
        if (!c->waits[i]->signalled)
            return 0;
    return 1;
}

static void run_fill(const sim_cmd_t *c) {
    unsigned char *dst = c->u.fill.dst;
    size_t n = c->u.fill.size, p = c->u.fill.pattern_size;
    if (p == 1) {
        memset(dst, c->u.fill.pattern[0], n);
        return;
    }
    // The pattern repeats from the start; a size that is not a multiple truncates the last.
    for (size_t off = 0; off < n; off += p)
        memcpy(dst + off, c->u.fill.pattern, n - off < p ? n - off : p);
}

// Row by row; the region was checked against both allocations at append time.
static void run_copy_region(const sim_cmd_t *c) {
    const ze_copy_region_t *d = &c->u.region.dst_region, *s = &c->u.region.src_region;
    for (uint32_t z = 0; z < s->depth; ++z) {
        for (uint32_t y = 0; y < s->height; ++y) {
            size_t doff = (size_t)(d->originZ + z) * c->u.region.dst_slice_pitch +
                          (size_t)(d->originY + y) * c->u.region.dst_pitch + d->originX;
            size_t soff = (size_t)(s->originZ + z) * c->u.region.src_slice_pitch +
                          (size_t)(s->originY + y) * c->u.region.src_pitch + s->originX;
            memmove(c->u.region.dst + doff, c->u.region.src + soff, s->width);
        }
    }
}

static void run_query(const sim_cmd_t *c) {
    for (uint32_t i = 0; i < c->u.query.count; ++i) {
        ze_kernel_timestamp_result_t res;
        sim_event_timestamps(c->u.query.events[i], &res);
        size_t off = c->u.query.offsets ? c->u.query.offsets[i] : i * sizeof(res);
        memcpy(c->u.query.dst + off, &res, sizeof(res));
    }
}

static void run_launch(const sim_cmd_t *c) {
    switch (c->u.launch.kind) {
    case ZE_SIM_LAUNCH_KERNEL:
    case ZE_SIM_LAUNCH_COOPERATIVE:
        sim_inspect_record_launch(c->u.launch.kind, &c->u.launch.kernels[0], &c->u.launch.counts);
        break;
    case ZE_SIM_LAUNCH_INDIRECT: {
        // Indirect arguments live in USM, which is host memory here: read them now.
        ze_group_count_t counts = *c->u.launch.indirect_counts;
        sim_inspect_record_launch(c->u.launch.kind, &c->u.launch.kernels[0], &counts);
        break;
    }
    case ZE_SIM_LAUNCH_MULTIPLE_INDIRECT: {
        uint32_t n = *c->u.launch.indirect_num;
        if (n > c->u.launch.num_kernels)
            n = c->u.launch.num_kernels;
        for (uint32_t i = 0; i < n; ++i)
            sim_inspect_record_launch(c->u.launch.kind, &c->u.launch.kernels[i],
                                      &c->u.launch.indirect_counts[i]);
        break;
    }
    }
}

// Runs one command; engine lock held. The signal event's timestamps bracket the work.
static void cmd_run(const sim_cmd_t *c) {
    uint64_t start = sim_now_ns();
    switch (c->kind) {
    case SIM_CMD_NOP:
        break;
    case SIM_CMD_COPY:
        memmove(c->u.copy.dst, c->u.copy.src, c->u.copy.size);
        break;
    case SIM_CMD_FILL:
        run_fill(c);
        break;
    case SIM_CMD_COPY_REGION:
        run_copy_region(c);
        break;
    case SIM_CMD_EVENT_RESET:
        c->u.reset.event->signalled = 0;
        break;
    case SIM_CMD_TIMESTAMP:
        *c->u.timestamp.dst = sim_device_ts();
        break;
    case SIM_CMD_QUERY_TIMESTAMPS:
        run_query(c);
        break;
    case SIM_CMD_LAUNCH:
        run_launch(c);
        break;
    case SIM_CMD_FENCE:
        c->u.fence.fence->signalled = 1;
        break;
    }
    // End is kept strictly after start so that a duration is never zero.
    if (c->signal) {
        uint64_t end = sim_now_ns();
        c->signal->ts_start = start;
        c->signal->ts_end = end > start ? end : start + 1;
        c->signal->signalled = 1;
    }
}

void sim_engine_progress(void) {
    int any = 0, changed;
    // A command may signal an event another stream waits on, so sweep until nothing moves.
    do {
        changed = 0;
        for (sim_stream_t *s = g_eng.streams; s; s = s->next) {
            while (s->head && cmd_ready(s->head)) {
                sim_cmd_t *c = s->head;
                s->head = c->next;
                if (!s->head)
                    s->tail = NULL;
                cmd_run(c);
                sim_cmd_free_locked(c);
                changed = 1;
            }
        }
        any |= changed;
    } while (changed);
    if (any)
        pthread_cond_broadcast(&g_eng.cond);
}

// Appending and running happen under one lock hold, so order across threads is append order.
void sim_engine_submit_locked(sim_stream_t *stream, sim_cmd_t *first, sim_cmd_t *last) {
    if (!first)
        return;
    last->next = NULL;
    if (stream->tail)
        stream->tail->next = first;
    else
        stream->head = first;
    stream->tail = last;
    sim_engine_progress();
}

void sim_engine_submit(sim_stream_t *stream, sim_cmd_t *first, sim_cmd_t *last) {
    sim_engine_lock();
    sim_engine_submit_locked(stream, first, last);
    sim_engine_unlock();
}

// Queue and list synchronisation wait for this: nothing left in the stream.
int sim_stream_idle(void *stream) {
    return ((sim_stream_t *)stream)->head == NULL;
}

// Absolute CLOCK_MONOTONIC deadline `ns` from now, saturating far in the future.
static struct timespec deadline_after(uint64_t ns) {
    const uint64_t max_ns = 100ull * 365 * 24 * 3600 * 1000000000ull;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    if (ns > max_ns)
        ns = max_ns;
    ts.tv_sec += (time_t)(ns / 1000000000ull);
    ts.tv_nsec += (long)(ns % 1000000000ull);
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec += 1;
        ts.tv_nsec -= 1000000000L;
    }
    return ts;
}

ze_result_t sim_engine_wait(int (*done)(void *arg), void *arg, uint64_t timeout_ns) {
    sim_engine_lock();
    sim_engine_progress();
    if (done(arg)) {
        sim_engine_unlock();
        return ZE_RESULT_SUCCESS;
    }
    if (timeout_ns == 0) {
        sim_engine_unlock();
        return ZE_RESULT_NOT_READY;
    }
    // An infinite wait on something nobody will signal would hang a test run; cap it.
    // Finite timeouts are honoured exactly, as Level Zero specifies.
    const int capped = timeout_ns == UINT64_MAX;
    if (capped)
        timeout_ns = g_eng.hang_ns ? g_eng.hang_ns : g_eng.default_hang_ns;
    struct timespec deadline = deadline_after(timeout_ns);
    ze_result_t r = ZE_RESULT_SUCCESS;
    // Spurious wake-ups and unrelated broadcasts just go round again.
    while (!done(arg)) {
        int rc = pthread_cond_timedwait(&g_eng.cond, &g_eng.lock, &deadline);
        if (rc == ETIMEDOUT && !done(arg)) {
            if (capped)
                atomic_fetch_add(&g_eng.trips, 1);
            r = ZE_RESULT_NOT_READY;
            break;
        }
    }
    sim_engine_unlock();
    return r;
}
