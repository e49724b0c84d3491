// SPDX-License-Identifier: MIT
// Streams and events. Each stream has a worker thread that runs its commands in order, so
// commands really are asynchronous to the host and ordering between streams only comes from
// cuStreamWaitEvent, as on a GPU.
#include <stdlib.h>
#include <string.h>

#include "cuda_sim_internal.h"

struct CUstream_st {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    sim_op_t *head, *tail;
    uint64_t queued, done;
    bool stop;
    pthread_t thread;
    unsigned flags;
    int priority;
    sim_capture_t capture;
};

// An event points at its latest record; each cuEventRecord makes a new record, which the
// queued record command completes. A wait holds the record it was called on, so later
// records of the same event (on other streams, completing in any order) do not release it,
// as on the GPU. Records are counted references, so an event may be destroyed with commands
// still pending.
typedef struct sim_record_t {
    atomic_int refs;
    bool done;
    double time_ms;
} sim_record_t;

struct CUevent_st {
    unsigned flags;
    sim_record_t *last; // NULL: never recorded
    atomic_int refs;    // its creator's, plus one per IPC open in this process (ipc_event.c)
};

static pthread_mutex_t event_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t event_cond = PTHREAD_COND_INITIALIZER;
static struct CUstream_st legacy;
static pthread_mutex_t streams_lock = PTHREAD_MUTEX_INITIALIZER;
static CUstream streams[256];
static size_t nstreams;

static void record_put(sim_record_t *r) {
    if (r != NULL && atomic_fetch_sub(&r->refs, 1) == 1)
        free(r);
}

static void *worker(void *arg) {
    CUstream s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (s->head == NULL && !s->stop)
            pthread_cond_wait(&s->cond, &s->lock);
        if (s->head == NULL)
            break;
        sim_op_t *op = s->head;
        s->head = op->next;
        if (s->head == NULL)
            s->tail = NULL;
        pthread_mutex_unlock(&s->lock);
        op->run(op);
        free(op->data);
        free(op);
        pthread_mutex_lock(&s->lock);
        s->done++;
        pthread_cond_broadcast(&s->cond);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static int stream_start(CUstream s, unsigned flags, int priority) {
    memset(s, 0, sizeof *s);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    s->flags = flags;
    s->priority = priority;
    return pthread_create(&s->thread, NULL, worker, s);
}

void sim_streams_init(void) {
    stream_start(&legacy, CU_STREAM_DEFAULT, 0);
}

static CUstream resolve(CUstream s) {
    return s != NULL ? s : &legacy;
}

sim_capture_t *sim_stream_capture(CUstream stream) {
    return &resolve(stream)->capture;
}

CUresult sim_enqueue(CUstream stream, sim_op_fn_t run, void *data) {
    CUstream s = resolve(stream);
    sim_op_t *op = calloc(1, sizeof *op);
    if (op == NULL) {
        free(data);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    op->run = run;
    op->data = data;
    pthread_mutex_lock(&s->lock);
    if (s->tail != NULL)
        s->tail->next = op;
    else
        s->head = op;
    s->tail = op;
    s->queued++;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    return CUDA_SUCCESS;
}

void sim_stream_drain(CUstream stream) {
    CUstream s = resolve(stream);
    pthread_mutex_lock(&s->lock);
    uint64_t target = s->queued;
    while (s->done < target)
        pthread_cond_wait(&s->cond, &s->lock);
    pthread_mutex_unlock(&s->lock);
}

static atomic_size_t streams_created;

// For tests (not a CUDA function): how many streams were ever created.
SIM_EXPORT size_t urc_cuda_sim_streams_created(void) {
    return atomic_load(&streams_created);
}

SIM_EXPORT CUresult cuStreamCreateWithPriority(CUstream *ps, unsigned int flags, int priority) {
    sim_count_call();
    SIM_STICKY();
    CUstream s = malloc(sizeof *s);
    if (s == NULL || stream_start(s, flags, priority) != 0) {
        free(s);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    atomic_fetch_add(&streams_created, 1);
    pthread_mutex_lock(&streams_lock);
    if (nstreams < sizeof streams / sizeof streams[0])
        streams[nstreams++] = s;
    pthread_mutex_unlock(&streams_lock);
    *ps = s;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuStreamCreate(CUstream *ps, unsigned int flags) {
    sim_count_call();
    return cuStreamCreateWithPriority(ps, flags, 0);
}

SIM_EXPORT CUresult cuStreamDestroy_v2(CUstream s) {
    sim_count_call();
    if (s == NULL)
        return CUDA_ERROR_INVALID_HANDLE;
    pthread_mutex_lock(&streams_lock);
    for (size_t i = 0; i < nstreams; ++i) {
        if (streams[i] == s) {
            streams[i] = streams[--nstreams];
            break;
        }
    }
    pthread_mutex_unlock(&streams_lock);
    // Work already queued still runs, then the worker ends.
    pthread_mutex_lock(&s->lock);
    s->stop = true;
    pthread_cond_broadcast(&s->cond);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->cond);
    free(s);
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuStreamSynchronize(CUstream s) {
    sim_count_call();
    if (sim_stream_capture(s)->graph != NULL)
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    sim_stream_drain(s);
    SIM_STICKY();
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuStreamQuery(CUstream stream) {
    sim_count_call();
    SIM_STICKY();
    CUstream s = resolve(stream);
    pthread_mutex_lock(&s->lock);
    bool idle = s->done == s->queued;
    pthread_mutex_unlock(&s->lock);
    return idle ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

SIM_EXPORT CUresult cuStreamGetFlags(CUstream s, unsigned int *flags) {
    sim_count_call();
    *flags = resolve(s)->flags;
    return CUDA_SUCCESS;
}

void sim_streams_drain_all(void) {
    // Under the registry's lock, so that no stream is destroyed while it is being drained
    // (no command a worker runs takes this lock).
    pthread_mutex_lock(&streams_lock);
    for (size_t i = 0; i < nstreams; ++i)
        sim_stream_drain(streams[i]);
    pthread_mutex_unlock(&streams_lock);
    sim_stream_drain(NULL);
}

SIM_EXPORT CUresult cuCtxSynchronize(void) {
    sim_count_call();
    sim_streams_drain_all();
    SIM_STICKY();
    return CUDA_SUCCESS;
}

// ---- events ----

static void run_record(sim_op_t *op) {
    sim_record_t *r = *(sim_record_t **)op->data;
    pthread_mutex_lock(&event_lock);
    r->time_ms = sim_now_ms();
    r->done = true;
    pthread_cond_broadcast(&event_cond);
    pthread_mutex_unlock(&event_lock);
    record_put(r);
}

static void run_wait(sim_op_t *op) {
    sim_record_t *r = *(sim_record_t **)op->data;
    pthread_mutex_lock(&event_lock);
    while (!r->done)
        pthread_cond_wait(&event_cond, &event_lock);
    pthread_mutex_unlock(&event_lock);
    record_put(r);
}

SIM_EXPORT CUresult cuEventCreate(CUevent *pe, unsigned int flags) {
    sim_count_call();
    SIM_STICKY();
    CUevent e = calloc(1, sizeof *e);
    if (e == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    e->flags = flags;
    atomic_init(&e->refs, 1);
    *pe = e;
    return CUDA_SUCCESS;
}

unsigned sim_event_flags(CUevent e) {
    return e->flags;
}

void sim_event_ref(CUevent e) {
    atomic_fetch_add(&e->refs, 1);
}

SIM_EXPORT CUresult cuEventDestroy_v2(CUevent e) {
    sim_count_call();
    if (e == NULL)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!sim_ipc_event_unref(e, &e->refs))
        return CUDA_SUCCESS; // an IPC-opened copy: the event lives on
    pthread_mutex_lock(&event_lock);
    sim_record_t *last = e->last;
    pthread_mutex_unlock(&event_lock);
    record_put(last);
    free(e);
    return CUDA_SUCCESS;
}

// The event's latest record with a reference taken, or NULL.
static sim_record_t *latest(CUevent e) {
    pthread_mutex_lock(&event_lock);
    sim_record_t *r = e->last;
    if (r != NULL)
        atomic_fetch_add(&r->refs, 1);
    pthread_mutex_unlock(&event_lock);
    return r;
}

static CUresult queue_record_op(CUstream s, sim_op_fn_t run, sim_record_t *r) {
    sim_record_t **d = malloc(sizeof *d);
    if (d == NULL) {
        record_put(r);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *d = r;
    return sim_enqueue(s, run, d);
}

SIM_EXPORT CUresult cuEventRecord(CUevent e, CUstream s) {
    sim_count_call();
    SIM_STICKY();
    if (e == NULL)
        return CUDA_ERROR_INVALID_HANDLE;
    if (sim_stream_capture(s)->graph != NULL)
        return CUDA_SUCCESS; // captured streams run in node order: the record adds nothing
    sim_record_t *r = calloc(1, sizeof *r);
    if (r == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    atomic_init(&r->refs, 2); // the event's, and the queued command's
    pthread_mutex_lock(&event_lock);
    sim_record_t *old = e->last;
    e->last = r;
    pthread_mutex_unlock(&event_lock);
    record_put(old);
    return queue_record_op(s, run_record, r);
}

// Waiting for an event never recorded is a no-op, as in CUDA.
SIM_EXPORT CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned int flags) {
    sim_count_call();
    SIM_STICKY();
    if (e == NULL || flags != 0)
        return CUDA_ERROR_INVALID_HANDLE;
    if (sim_stream_capture(s)->graph != NULL)
        return CUDA_SUCCESS; // a graph launch follows earlier work on its stream anyway
    sim_record_t *r = latest(e);
    return r == NULL ? CUDA_SUCCESS : queue_record_op(s, run_wait, r);
}

SIM_EXPORT CUresult cuEventQuery(CUevent e) {
    sim_count_call();
    SIM_STICKY();
    pthread_mutex_lock(&event_lock);
    bool done = e->last == NULL || e->last->done;
    pthread_mutex_unlock(&event_lock);
    return done ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

SIM_EXPORT CUresult cuEventSynchronize(CUevent e) {
    sim_count_call();
    sim_record_t *r = latest(e);
    if (r != NULL) {
        pthread_mutex_lock(&event_lock);
        while (!r->done)
            pthread_cond_wait(&event_cond, &event_lock);
        pthread_mutex_unlock(&event_lock);
        record_put(r);
    }
    SIM_STICKY();
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end) {
    sim_count_call();
    SIM_STICKY();
    if ((start->flags | end->flags) & CU_EVENT_DISABLE_TIMING)
        return CUDA_ERROR_INVALID_HANDLE;
    pthread_mutex_lock(&event_lock);
    bool ready = start->last != NULL && end->last != NULL && start->last->done && end->last->done;
    double d = ready ? end->last->time_ms - start->last->time_ms : 0.0;
    pthread_mutex_unlock(&event_lock);
    if (!ready)
        return CUDA_ERROR_NOT_READY;
    *ms = (float)d;
    return CUDA_SUCCESS;
}
