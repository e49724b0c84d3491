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
};

// Events are counted references: a queued record or wait keeps its event alive past
// cuEventDestroy, as the real driver defers the destruction.
struct CUevent_st {
    atomic_int refs;
    unsigned flags;
    uint64_t recorded; // generation of the last cuEventRecord
    uint64_t done;     // generation the stream has reached
    double time_ms;
};

static pthread_mutex_t event_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t event_cond = PTHREAD_COND_INITIALIZER;
static struct CUstream_st legacy;
static pthread_mutex_t streams_lock = PTHREAD_MUTEX_INITIALIZER;
static CUstream streams[256];
static size_t nstreams;

static void event_put(CUevent e) {
    if (atomic_fetch_sub(&e->refs, 1) == 1)
        free(e);
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

SIM_EXPORT CUresult cuStreamCreateWithPriority(CUstream *ps, unsigned int flags, int priority) {
    SIM_STICKY();
    CUstream s = malloc(sizeof *s);
    if (s == NULL || stream_start(s, flags, priority) != 0) {
        free(s);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_lock(&streams_lock);
    if (nstreams < sizeof streams / sizeof streams[0])
        streams[nstreams++] = s;
    pthread_mutex_unlock(&streams_lock);
    *ps = s;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuStreamDestroy_v2(CUstream s) {
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
    sim_stream_drain(s);
    SIM_STICKY();
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuStreamQuery(CUstream stream) {
    SIM_STICKY();
    CUstream s = resolve(stream);
    pthread_mutex_lock(&s->lock);
    bool idle = s->done == s->queued;
    pthread_mutex_unlock(&s->lock);
    return idle ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

SIM_EXPORT CUresult cuStreamGetFlags(CUstream s, unsigned int *flags) {
    *flags = resolve(s)->flags;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuCtxSynchronize(void) {
    pthread_mutex_lock(&streams_lock);
    CUstream copy[256];
    size_t n = nstreams;
    memcpy(copy, streams, n * sizeof copy[0]);
    pthread_mutex_unlock(&streams_lock);
    for (size_t i = 0; i < n; ++i)
        sim_stream_drain(copy[i]);
    sim_stream_drain(NULL);
    SIM_STICKY();
    return CUDA_SUCCESS;
}

// ---- events ----

typedef struct event_op_t {
    CUevent event;
    uint64_t generation;
} event_op_t;

static void run_record(sim_op_t *op) {
    event_op_t *d = op->data;
    pthread_mutex_lock(&event_lock);
    d->event->time_ms = sim_now_ms();
    if (d->event->done < d->generation)
        d->event->done = d->generation;
    pthread_cond_broadcast(&event_cond);
    pthread_mutex_unlock(&event_lock);
    event_put(d->event);
}

static void run_wait(sim_op_t *op) {
    event_op_t *d = op->data;
    pthread_mutex_lock(&event_lock);
    while (d->event->done < d->generation)
        pthread_cond_wait(&event_cond, &event_lock);
    pthread_mutex_unlock(&event_lock);
    event_put(d->event);
}

SIM_EXPORT CUresult cuEventCreate(CUevent *pe, unsigned int flags) {
    SIM_STICKY();
    CUevent e = calloc(1, sizeof *e);
    if (e == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    atomic_init(&e->refs, 1);
    e->flags = flags;
    *pe = e;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuEventDestroy_v2(CUevent e) {
    if (e == NULL)
        return CUDA_ERROR_INVALID_HANDLE;
    event_put(e);
    return CUDA_SUCCESS;
}

static CUresult queue_event_op(CUevent e, CUstream s, sim_op_fn_t run, bool record) {
    event_op_t *d = malloc(sizeof *d);
    if (d == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    pthread_mutex_lock(&event_lock);
    if (record)
        e->recorded++;
    d->generation = e->recorded;
    pthread_mutex_unlock(&event_lock);
    d->event = e;
    atomic_fetch_add(&e->refs, 1);
    return sim_enqueue(s, run, d);
}

SIM_EXPORT CUresult cuEventRecord(CUevent e, CUstream s) {
    SIM_STICKY();
    if (e == NULL)
        return CUDA_ERROR_INVALID_HANDLE;
    return queue_event_op(e, s, run_record, true);
}

SIM_EXPORT CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned int flags) {
    SIM_STICKY();
    if (e == NULL || flags != 0)
        return CUDA_ERROR_INVALID_HANDLE;
    return queue_event_op(e, s, run_wait, false);
}

SIM_EXPORT CUresult cuEventQuery(CUevent e) {
    SIM_STICKY();
    pthread_mutex_lock(&event_lock);
    bool done = e->done >= e->recorded;
    pthread_mutex_unlock(&event_lock);
    return done ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

SIM_EXPORT CUresult cuEventSynchronize(CUevent e) {
    pthread_mutex_lock(&event_lock);
    uint64_t target = e->recorded;
    while (e->done < target)
        pthread_cond_wait(&event_cond, &event_lock);
    pthread_mutex_unlock(&event_lock);
    SIM_STICKY();
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end) {
    SIM_STICKY();
    if ((start->flags | end->flags) & CU_EVENT_DISABLE_TIMING)
        return CUDA_ERROR_INVALID_HANDLE;
    pthread_mutex_lock(&event_lock);
    bool ready = start->recorded > 0 && end->recorded > 0 && start->done >= start->recorded &&
                 end->done >= end->recorded;
    double d = end->time_ms - start->time_ms;
    pthread_mutex_unlock(&event_lock);
    if (!ready)
        return CUDA_ERROR_NOT_READY;
    *ms = (float)d;
    return CUDA_SUCCESS;
}
