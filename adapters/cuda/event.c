// SPDX-License-Identifier: MIT
// urEvent*, and the begin/end pair every enqueue goes through. An event is a CUevent recorded
// after its command on the command's stream (plus one before it when the queue profiles).
//
// CUevents are reused: a released event gives its CUevents back to a small pool of its device
// (one per kind, with timing and without), and the next command's event takes them from
// there, so a command with an event costs one cuEventRecord rather than a create, a record and
// a destroy. Recording an event again is what CUDA allows any time; a wait that captured the
// old record is unaffected.
#include "cuda_internal.h"
#include "queue/event_callbacks.h"
#include "core/release.h"

void cuda_event_pool_init(cuda_device_t *dev) {
    for (int t = 0; t < 2; ++t) {
        pthread_mutex_init(&dev->event_pool[t].lock, NULL);
        dev->event_pool[t].count = 0;
    }
}

void cuda_event_pool_drain(cuda_device_t *dev) {
    for (int t = 0; t < 2; ++t) {
        cuda_event_pool_t *pool = &dev->event_pool[t];
        pthread_mutex_lock(&pool->lock);
        while (pool->count > 0)
            cu.EventDestroy(pool->events[--pool->count]);
        pthread_mutex_unlock(&pool->lock);
        pthread_mutex_destroy(&pool->lock);
    }
}

// A CUevent of the device's primary context, from the pool when it has one.
static ur_result_t event_take(cuda_device_t *dev, bool timing, CUevent *out) {
    cuda_event_pool_t *pool = &dev->event_pool[timing];
    pthread_mutex_lock(&pool->lock);
    bool got = pool->count > 0;
    if (got)
        *out = pool->events[--pool->count];
    pthread_mutex_unlock(&pool->lock);
    if (got)
        return UR_RESULT_SUCCESS;
    // Made in the current context: make sure it is the device's, whatever the caller relied on.
    ur_result_t res = cuda_activate(dev);
    // Timing makes CUDA events dearer to record; only profiling queues pay for it.
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.EventCreate(out, timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING),
                      "cuEventCreate");
    return res;
}

static void event_give(cuda_device_t *dev, bool timing, CUevent ev) {
    cuda_event_pool_t *pool = &dev->event_pool[timing];
    pthread_mutex_lock(&pool->lock);
    bool kept = pool->count < CUDA_EVENT_POOL;
    if (kept)
        pool->events[pool->count++] = ev;
    pthread_mutex_unlock(&pool->lock);
    if (!kept)
        cu.EventDestroy(ev);
}

ur_result_t cuda_event_create(cuda_queue_t *q, CUstream stream, ur_command_t command,
                              cuda_event_t **out) {
    cuda_event_t *e = URC_NEW(cuda_event_t);
    if (e == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    e->profiling = q->profiling;
    ur_result_t res = event_take(q->dev, e->profiling, &e->end);
    if (res != UR_RESULT_SUCCESS)
        goto fail;
    if (e->profiling) {
        res = event_take(q->dev, true, &e->start);
        if (res != UR_RESULT_SUCCESS)
            goto fail_end;
        e->queued_ns = cuda_host_ns();
    }
    e->pooled = true;
    e->queue = q;
    e->ctx = q->ctx;
    e->dev = q->dev;
    e->stream = stream;
    e->command = command;
    e->owns_native = true;
    cuda_queue_retain_internal(q);
    cuda_context_retain_internal(q->ctx);
    urc_object_init(&e->obj, &cuda_ddi, URC_KIND_EVENT);
    *out = e;
    return UR_RESULT_SUCCESS;

fail_end:
    event_give(q->dev, e->profiling, e->end);
fail:
    free(e);
    return res;
}

ur_result_t cuda_event_create_unqueued(cuda_context_t *ctx, cuda_device_t *dev,
                                       ur_command_t command, cuda_event_t **out) {
    cuda_event_t *e = URC_NEW(cuda_event_t);
    if (e == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    // Not from the pool: a graph may still record into it after the last release.
    ur_result_t res = cuda_ok(cu.EventCreate(&e->end, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    if (res != UR_RESULT_SUCCESS) {
        free(e);
        return res;
    }
    e->ctx = ctx;
    e->dev = dev;
    e->command = command;
    e->owns_native = true;
    cuda_context_retain_internal(ctx);
    urc_object_init(&e->obj, &cuda_ddi, URC_KIND_EVENT);
    *out = e;
    return UR_RESULT_SUCCESS;
}

void cuda_event_retain_internal(cuda_event_t *e) {
    urc_hold(&e->obj);
}

static void event_destroy(cuda_event_t *e) {
    if (e->pooled) {
        event_give(e->dev, e->profiling, e->end);
        if (e->start != NULL)
            event_give(e->dev, true, e->start);
    } else if (e->owns_native) {
        cu.EventDestroy(e->end);
        if (e->start != NULL)
            cu.EventDestroy(e->start);
    }
    if (e->queue != NULL)
        cuda_queue_release_internal(e->queue);
    if (e->signalled_by != NULL)
        cuda_queue_release_internal(e->signalled_by);
    urc_reusable_delete(e->reusable);
    if (e->shares != NULL)
        cuda_event_release_internal(e->shares);
    cuda_context_release_internal(e->ctx);
    URC_OBJECT_FREE(e);
}

void cuda_event_release_internal(cuda_event_t *e) {
    if (urc_unhold(&e->obj))
        event_destroy(e);
}

void cuda_event_free(cuda_event_t *e) {
    if (e != NULL && urc_user_release(&e->obj) == URC_RELEASE_DESTROY)
        event_destroy(e);
}

ur_result_t cuda_wait_events(CUstream stream, uint32_t num_events,
                             const ur_event_handle_t *events) {
    for (uint32_t i = 0; i < num_events; ++i) {
        if (!cuda_is(events[i], URC_KIND_EVENT))
            return UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST;
        const cuda_event_t *e = CUDA_EVENT(events[i]);
        // A stream runs in order, so an event recorded earlier on it has already happened; an
        // event without a CUevent (from native handle 0) is complete. Events of another UR
        // context need nothing more: every context of a device runs in its primary context.
        if ((e->stream == stream && stream != NULL) || e->end == NULL)
            continue;
        ur_result_t res = cuda_ok(cu.StreamWaitEvent(stream, e->end, 0), "cuStreamWaitEvent");
        if (res != UR_RESULT_SUCCESS)
            return res;
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_op_begin(cuda_queue_t *q, ur_command_t command, uint32_t num_events,
                          const ur_event_handle_t *events, ur_event_handle_t *phEvent,
                          cuda_op_t *op) {
    op->queue = q;
    op->event = NULL;
    op->stream = NULL;
    ur_result_t res = cuda_activate(q->dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    op->stream_index = cuda_queue_pick(q, &op->ticket);
    res = cuda_queue_stream_at(q, op->stream_index, &op->stream);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_wait_events(op->stream, num_events, events);
    if (res != UR_RESULT_SUCCESS || phEvent == NULL)
        return res;
    res = cuda_event_create(q, op->stream, command, &op->event);
    if (res == UR_RESULT_SUCCESS) {
        op->event->stream_index = op->stream_index;
        op->event->ticket = op->ticket;
    }
    if (res == UR_RESULT_SUCCESS && op->event->profiling) {
        res = cuda_ok(cu.EventRecord(op->event->start, op->stream), "cuEventRecord");
        if (res != UR_RESULT_SUCCESS) {
            cuda_event_free(op->event);
            op->event = NULL;
        }
    }
    return res;
}

ur_result_t cuda_op_end(cuda_op_t *op, ur_result_t result, bool blocking,
                        ur_event_handle_t *phEvent) {
    if (result == UR_RESULT_SUCCESS && op->event != NULL)
        result = cuda_ok(cu.EventRecord(op->event->end, op->stream), "cuEventRecord");
    if (result == UR_RESULT_SUCCESS && blocking) {
        result = cuda_ok(cu.StreamSynchronize(op->stream), "cuStreamSynchronize");
        if (result == UR_RESULT_SUCCESS)
            cuda_queue_finished(op->queue, op->stream_index, op->ticket);
    }
    if (op->event != NULL) {
        if (result == UR_RESULT_SUCCESS)
            *phEvent = (ur_event_handle_t)op->event;
        else
            cuda_event_free(op->event);
        op->event = NULL;
    }
    return result;
}

static ur_result_t status(cuda_event_t *e, ur_event_status_t *out) {
    CUresult r = e->end != NULL ? cu.EventQuery(e->end) : CUDA_SUCCESS;
    if (r == CUDA_SUCCESS) {
        if (e->queue != NULL)
            cuda_queue_finished(e->queue, e->stream_index, e->ticket);
        *out = UR_EVENT_STATUS_COMPLETE;
        return UR_RESULT_SUCCESS;
    }
    if (r == CUDA_ERROR_NOT_READY) {
        *out = UR_EVENT_STATUS_RUNNING;
        return UR_RESULT_SUCCESS;
    }
    return cuda_error(r, "cuEventQuery");
}

ur_result_t cuda_event_get_info(ur_event_handle_t hEvent, ur_event_info_t propName, size_t propSize,
                                void *pPropValue, size_t *pPropSizeRet) {
    cuda_event_t *e = CUDA_EVENT(hEvent);
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_EVENT_INFO_COMMAND_QUEUE:
        if (e->reusable != NULL) {
            pthread_mutex_lock(&e->reusable->lock);
            cuda_queue_t *q = e->signalled_by; // NULL before the first signal
            pthread_mutex_unlock(&e->reusable->lock);
            return urc_info_ptr(&out, q);
        }
        return urc_info_ptr(&out, e->queue); // NULL for an event made from a native one
    case UR_EVENT_INFO_CONTEXT:
        return urc_info_ptr(&out, e->ctx);
    case UR_EVENT_INFO_COMMAND_TYPE:
        return urc_info_bytes(&out, &e->command, sizeof e->command);
    case UR_EVENT_INFO_REFERENCE_COUNT:
        return urc_info_u32(&out, urc_refcount(&e->obj));
    case UR_EVENT_INFO_COMMAND_EXECUTION_STATUS: {
        ur_event_status_t s;
        ur_result_t res = cuda_activate(e->dev);
        if (res == UR_RESULT_SUCCESS)
            res = status(e, &s);
        return res != UR_RESULT_SUCCESS ? res : urc_info_bytes(&out, &s, sizeof s);
    }
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

// A CUevent's time on the host's monotonic clock: the device's base event completed at
// base_host_ns, and CUDA measures the distance from it.
static ur_result_t device_time(const cuda_event_t *e, CUevent ev, uint64_t *ns) {
    ur_result_t res = cuda_ok(cu.EventSynchronize(ev), "cuEventSynchronize");
    float ms = 0.0f;
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.EventElapsedTime(&ms, e->dev->base_event, ev), "cuEventElapsedTime");
    if (res != UR_RESULT_SUCCESS)
        return res;
    double offset = (double)ms * 1e6;
    *ns = offset <= 0.0 ? e->dev->base_host_ns : e->dev->base_host_ns + (uint64_t)offset;
    return UR_RESULT_SUCCESS;
}

// When the command was enqueued; a reusable event's changes at each signal (under its lock).
static uint64_t queued_ns(cuda_event_t *e) {
    if (e->reusable == NULL)
        return e->queued_ns;
    pthread_mutex_lock(&e->reusable->lock);
    uint64_t ns = e->queued_ns;
    pthread_mutex_unlock(&e->reusable->lock);
    return ns;
}

ur_result_t cuda_event_get_profiling_info(ur_event_handle_t hEvent, ur_profiling_info_t propName,
                                          size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    cuda_event_t *e = CUDA_EVENT(hEvent);
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    // A reusable event has no queue; it times its latest signal once it has had one.
    const uint64_t queued = queued_ns(e);
    if (!e->profiling || (e->queue == NULL && e->reusable == NULL) || queued == 0)
        return UR_RESULT_ERROR_PROFILING_INFO_NOT_AVAILABLE;
    if (propName == UR_PROFILING_INFO_COMMAND_QUEUED ||
        propName == UR_PROFILING_INFO_COMMAND_SUBMIT)
        return urc_info_u64(&out, queued);
    if (propName != UR_PROFILING_INFO_COMMAND_START && propName != UR_PROFILING_INFO_COMMAND_END &&
        propName != UR_PROFILING_INFO_COMMAND_COMPLETE)
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    ur_result_t res = cuda_activate(e->dev);
    uint64_t start = 0, end = 0;
    if (res == UR_RESULT_SUCCESS)
        res = device_time(e, e->start, &start);
    // Both ends, even for START: clamping start needs the end.
    if (res == UR_RESULT_SUCCESS)
        res = device_time(e, e->end, &end);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // The two clocks can disagree by microseconds; keep queued <= start <= end <= now anyway
    // (the command has finished, so it did not end in the future).
    uint64_t now = cuda_host_ns();
    if (end < queued)
        end = queued;
    if (end > now)
        end = now;
    if (start < queued)
        start = queued;
    if (start > end)
        start = end;
    return urc_info_u64(&out, propName == UR_PROFILING_INFO_COMMAND_START ? start : end);
}

ur_result_t cuda_event_wait(uint32_t numEvents, const ur_event_handle_t *phEventWaitList) {
    for (uint32_t i = 0; i < numEvents; ++i) {
        if (!cuda_is(phEventWaitList[i], URC_KIND_EVENT))
            return UR_RESULT_ERROR_INVALID_EVENT;
        cuda_event_t *e = CUDA_EVENT(phEventWaitList[i]);
        if (e->end == NULL)
            continue; // complete from the start
        // Waiting creates nothing in the current context: this thread's record of having made
        // the device's context current is enough, and a wait that fails for the want of it is
        // made once more in the right one.
        ur_result_t res = cuda_activate_cached(e->dev);
        if (res != UR_RESULT_SUCCESS)
            return res;
        CUresult r = cu.EventSynchronize(e->end);
        if (r != CUDA_SUCCESS && cuda_activate_recheck(e->dev, r))
            r = cu.EventSynchronize(e->end);
        if (r != CUDA_SUCCESS)
            return cuda_error(r, "cuEventSynchronize");
        if (e->queue != NULL)
            cuda_queue_finished(e->queue, e->stream_index, e->ticket);
    }
    return UR_RESULT_SUCCESS;
}

URC_RETAIN_RELEASE_BY(cuda_event, ur_event_handle_t, CUDA_EVENT, URC_EVENT_USER_RELEASE,
                      UR_RESULT_ERROR_INVALID_EVENT, "urEventRelease", event_destroy)

ur_result_t cuda_event_get_native_handle(ur_event_handle_t hEvent,
                                         ur_native_handle_t *phNativeEvent) {
    *phNativeEvent = (ur_native_handle_t)CUDA_EVENT(hEvent)->end;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_event_create_with_native_handle(ur_native_handle_t hNativeEvent,
                                                 ur_context_handle_t hContext,
                                                 const ur_event_native_properties_t *pProperties,
                                                 ur_event_handle_t *phEvent) {
    cuda_event_t *e = URC_NEW(cuda_event_t);
    if (e == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    e->ctx = CUDA_CONTEXT(hContext);
    e->dev = e->ctx->devices[0];
    e->command = UR_COMMAND_EVENTS_WAIT;
    // Native handle 0 gives an event that is already complete, as in UR: SYCL and test
    // harnesses use it as a ready-made entry for wait lists. It has no CUevent (end NULL).
    e->end = (CUevent)hNativeEvent;
    e->owns_native = e->end != NULL && pProperties != NULL && pProperties->isNativeHandleOwned;
    cuda_context_retain_internal(e->ctx);
    urc_object_init(&e->obj, &cuda_ddi, URC_KIND_EVENT);
    *phEvent = (ur_event_handle_t)e;
    return UR_RESULT_SUCCESS;
}

// ---- urEventSetCallback ----
//
// CUDA has no event callbacks: cuLaunchHostFunc runs its function in the stream's order (so a
// callback registered late would wait for everything enqueued since) and forbids CUDA calls
// inside it, which rules out a user callback that releases the event. common/queue/event_callbacks
// polls the events with cuEventQuery from one adapter thread instead.

static urc_event_poll_t callback_poll(ur_event_handle_t hEvent) {
    cuda_event_t *e = CUDA_EVENT(hEvent);
    if (e->end == NULL)
        return URC_EVENT_COMPLETE;
    // The query needs no particular context, but a context-less thread may not call the driver
    // on some versions: make the event's device current first.
    if (cuda_activate(e->dev) != UR_RESULT_SUCCESS)
        return URC_EVENT_FAILED;
    CUresult r = cu.EventQuery(e->end);
    if (r == CUDA_ERROR_NOT_READY)
        return URC_EVENT_PENDING;
    return r == CUDA_SUCCESS ? URC_EVENT_COMPLETE : URC_EVENT_FAILED;
}

// A pending callback holds its event with an adapter reference, apart from the user's.
static void callback_retain(ur_event_handle_t hEvent) {
    urc_hold(&CUDA_EVENT(hEvent)->obj);
}

static void callback_release(ur_event_handle_t hEvent) {
    if (urc_unhold(&CUDA_EVENT(hEvent)->obj))
        event_destroy(CUDA_EVENT(hEvent));
}

// A command is on its stream once its enqueue has returned: nothing to arm.
static const urc_callback_ops_t callback_ops = {callback_poll, callback_retain, callback_release,
                                                NULL};
static urc_callback_engine_t callbacks = URC_CALLBACK_ENGINE_INIT(&callback_ops);

ur_result_t cuda_event_set_callback(ur_event_handle_t hEvent, ur_execution_info_t execStatus,
                                    ur_event_callback_t pfnNotify, void *pUserData) {
    return urc_callback_engine_add(&callbacks, hEvent, execStatus, pfnNotify, pUserData);
}

void cuda_callbacks_stop(bool drain) {
    urc_callback_engine_stop(&callbacks, drain);
}

// The loader may unload the adapter without its last urAdapterRelease (urLoaderTearDown): the
// thread must not outlive the code it runs. Callbacks still pending then are dropped.
__attribute__((destructor)) static void callbacks_fini(void) {
    urc_callback_engine_stop(&callbacks, false);
}
