// SPDX-License-Identifier: MIT
// urQueue*: an in-order queue is one CUDA stream, so its commands are ordered for free. An
// out-of-order queue spreads commands over CUDA_OOO_STREAMS streams; only wait lists and
// barriers order them.
//
// Streams are made when a command first needs one, not by urQueueCreate: programs (SYCL's
// among them) make many queues and use few, and cuStreamCreate costs microseconds. A released
// queue's default-kind streams go, synchronised, to a pool of its device, so the next queue
// made and used pays neither creation nor destruction.
#include "cuda_internal.h"
#include "core/release.h"

// Only the kind of stream urQueueCreate makes by default is pooled.
static bool poolable(const cuda_queue_t *q) {
    return q->stream_flags == CU_STREAM_NON_BLOCKING &&
           (q->flags & (UR_QUEUE_FLAG_PRIORITY_LOW | UR_QUEUE_FLAG_PRIORITY_HIGH)) == 0;
}

void cuda_queue_finished(cuda_queue_t *q, uint32_t i, uint64_t ticket) {
    if (ticket == 0)
        return; // in order, or not counted (a barrier's event)
    uint64_t seen = atomic_load_explicit(&q->finished[i], memory_order_relaxed);
    while (seen < ticket &&
           !atomic_compare_exchange_weak_explicit(&q->finished[i], &seen, ticket,
                                                  memory_order_relaxed, memory_order_relaxed))
        ;
}

static bool pool_take(cuda_device_t *dev, CUstream *s) {
    pthread_mutex_lock(&dev->stream_pool_lock);
    bool got = dev->stream_pool_count > 0;
    if (got)
        *s = dev->stream_pool[--dev->stream_pool_count];
    pthread_mutex_unlock(&dev->stream_pool_lock);
    return got;
}

static bool pool_give(cuda_device_t *dev, CUstream s) {
    pthread_mutex_lock(&dev->stream_pool_lock);
    bool kept = dev->stream_pool_count < CUDA_STREAM_POOL;
    if (kept)
        dev->stream_pool[dev->stream_pool_count++] = s;
    pthread_mutex_unlock(&dev->stream_pool_lock);
    return kept;
}

void cuda_queue_pool_drain(cuda_device_t *dev) {
    CUstream s;
    while (pool_take(dev, &s))
        cu.StreamDestroy(s);
}

ur_result_t cuda_queue_make_stream(cuda_queue_t *q, uint32_t i, CUstream *out) {
    ur_result_t res = UR_RESULT_SUCCESS;
    pthread_mutex_lock(&q->stream_lock);
    CUstream s = atomic_load_explicit(&q->streams[i], memory_order_acquire);
    if (s == NULL && !(poolable(q) && pool_take(q->dev, &s))) {
        // Made in the device's primary context, whatever the caller's thread has current.
        res = cuda_activate(q->dev);
        int priority = 0, least = 0, greatest = 0;
        if (res == UR_RESULT_SUCCESS &&
            (q->flags & (UR_QUEUE_FLAG_PRIORITY_LOW | UR_QUEUE_FLAG_PRIORITY_HIGH))) {
            res = cuda_ok(cu.CtxGetStreamPriorityRange(&least, &greatest),
                          "cuCtxGetStreamPriorityRange");
            priority = (q->flags & UR_QUEUE_FLAG_PRIORITY_HIGH) ? greatest : least;
        }
        if (res == UR_RESULT_SUCCESS)
            res = cuda_ok(cu.StreamCreateWithPriority(&s, q->stream_flags, priority),
                          "cuStreamCreateWithPriority");
    }
    if (res == UR_RESULT_SUCCESS)
        atomic_store_explicit(&q->streams[i], s, memory_order_release);
    pthread_mutex_unlock(&q->stream_lock);
    *out = s;
    return res;
}

ur_result_t cuda_queue_make_all_streams(cuda_queue_t *q) {
    ur_result_t res = UR_RESULT_SUCCESS;
    CUstream s;
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < q->nstreams; ++i)
        if (atomic_load_explicit(&q->streams[i], memory_order_acquire) == NULL)
            res = cuda_queue_make_stream(q, i, &s);
    return res;
}

static void destroy(cuda_queue_t *q) {
    bool any = false;
    for (uint32_t i = 0; i < q->nstreams; ++i)
        any = any || q->streams[i] != NULL;
    // Work still in flight finishes first; a stream failing here has nowhere to report to.
    if (q->owns_streams && any && cuda_activate(q->dev) == UR_RESULT_SUCCESS) {
        for (uint32_t i = 0; i < q->nstreams; ++i) {
            CUstream s = q->streams[i];
            if (s == NULL)
                continue;
            bool idle =
                cuda_ok(cu.StreamSynchronize(s), "cuStreamSynchronize") == UR_RESULT_SUCCESS;
            if (!(idle && poolable(q) && pool_give(q->dev, s)))
                cu.StreamDestroy(s);
        }
    }
    if (q->barrier_tmp != NULL)
        cu.EventDestroy(q->barrier_tmp);
    if (q->barrier_event != NULL)
        cu.EventDestroy(q->barrier_event);
    pthread_mutex_destroy(&q->barrier_lock);
    pthread_mutex_destroy(&q->stream_lock);
    cuda_context_release_internal(q->ctx);
    URC_OBJECT_FREE(q);
}

static cuda_queue_t *alloc_queue(cuda_context_t *ctx, cuda_device_t *dev, ur_queue_flags_t flags) {
    cuda_queue_t *q = URC_NEW(cuda_queue_t);
    if (q == NULL)
        return NULL;
    q->ctx = ctx;
    q->dev = dev;
    q->flags = flags;
    q->in_order = (flags & UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0;
    q->profiling = (flags & UR_QUEUE_FLAG_PROFILING_ENABLE) != 0;
    q->nstreams = q->in_order ? 1 : CUDA_OOO_STREAMS;
    pthread_mutex_init(&q->barrier_lock, NULL);
    pthread_mutex_init(&q->stream_lock, NULL);
    urc_object_init(&q->obj, &cuda_ddi, URC_KIND_QUEUE);
    return q;
}

ur_result_t cuda_queue_create(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                              const ur_queue_properties_t *pProperties,
                              ur_queue_handle_t *phQueue) {
    if (!cuda_context_has_device(CUDA_CONTEXT(hContext), CUDA_DEVICE(hDevice)))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    ur_queue_flags_t flags = pProperties != NULL ? pProperties->flags : 0;
    if ((flags & UR_QUEUE_FLAG_PRIORITY_LOW) && (flags & UR_QUEUE_FLAG_PRIORITY_HIGH))
        return UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES;
    cuda_queue_t *q = alloc_queue(CUDA_CONTEXT(hContext), CUDA_DEVICE(hDevice), flags);
    if (q == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    // Streams normally run independently of the legacy default stream; the two flags ask for
    // UR's "behave like the default stream" variants, which are the blocking stream kind.
    q->stream_flags = CU_STREAM_NON_BLOCKING;
    if (flags & (UR_QUEUE_FLAG_USE_DEFAULT_STREAM | UR_QUEUE_FLAG_SYNC_WITH_DEFAULT_STREAM))
        q->stream_flags = CU_STREAM_DEFAULT;
    q->owns_streams = true;
    cuda_context_retain_internal(q->ctx);
    *phQueue = (ur_queue_handle_t)q;
    return UR_RESULT_SUCCESS;
}

void cuda_queue_retain_internal(cuda_queue_t *q) {
    urc_hold(&q->obj);
}

void cuda_queue_release_internal(cuda_queue_t *q) {
    if (urc_unhold(&q->obj))
        destroy(q);
}

URC_RETAIN_RELEASE(cuda_queue, ur_queue_handle_t, CUDA_QUEUE, UR_RESULT_ERROR_INVALID_QUEUE,
                   "urQueueRelease", destroy)

ur_result_t cuda_queue_finish(ur_queue_handle_t hQueue) {
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    ur_result_t res = UR_RESULT_SUCCESS;
    bool activated = false;
    // A stream not made yet has had no work.
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < q->nstreams; ++i) {
        CUstream s = q->streams[i];
        if (s == NULL)
            continue;
        if (!activated) {
            res = cuda_activate(q->dev);
            activated = true;
        }
        // What was sent before the synchronisation has finished after it.
        uint64_t sent = atomic_load_explicit(&q->sent[i], memory_order_relaxed);
        if (res == UR_RESULT_SUCCESS)
            res = cuda_ok(cu.StreamSynchronize(s), "cuStreamSynchronize");
        if (res == UR_RESULT_SUCCESS)
            cuda_queue_finished(q, i, sent);
    }
    return res;
}

// Commands reach the GPU when they are enqueued; there is nothing to flush.
ur_result_t cuda_queue_flush(ur_queue_handle_t hQueue) {
    return cuda_is(hQueue, URC_KIND_QUEUE) ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_INVALID_QUEUE;
}

static ur_result_t queue_empty(cuda_queue_t *q, bool *empty) {
    *empty = true;
    for (uint32_t i = 0; i < q->nstreams; ++i) {
        CUstream s = q->streams[i];
        if (s == NULL)
            continue; // not made yet: it has had no work
        CUresult r = cu.StreamQuery(s);
        if (r == CUDA_ERROR_NOT_READY) {
            *empty = false;
            return UR_RESULT_SUCCESS;
        }
        if (r != CUDA_SUCCESS)
            return cuda_error(r, "cuStreamQuery");
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_queue_get_info(ur_queue_handle_t hQueue, ur_queue_info_t propName, size_t propSize,
                                void *pPropValue, size_t *pPropSizeRet) {
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_QUEUE_INFO_EMPTY: {
        bool empty = true;
        ur_result_t res = cuda_activate(q->dev);
        if (res == UR_RESULT_SUCCESS)
            res = queue_empty(q, &empty);
        return res != UR_RESULT_SUCCESS ? res : urc_info_bool(&out, empty);
    }
    default:
        // DEVICE_DEFAULT and SIZE describe on-device queues, which do not exist in CUDA.
        return urc_info_queue(&out, propName, (ur_context_handle_t)q->ctx,
                              (ur_device_handle_t)q->dev, q->flags, urc_refcount(&q->obj));
    }
}

ur_result_t cuda_queue_get_native_handle(ur_queue_handle_t hQueue, ur_queue_native_desc_t *pDesc,
                                         ur_native_handle_t *phNativeQueue) {
    (void)pDesc;
    // The caller may enqueue on the stream itself: it must exist from now on.
    CUstream s = NULL;
    ur_result_t res = cuda_queue_make_stream(CUDA_QUEUE(hQueue), 0, &s);
    if (res == UR_RESULT_SUCCESS)
        *phNativeQueue = (ur_native_handle_t)s;
    return res;
}

ur_result_t cuda_queue_create_with_native_handle(ur_native_handle_t hNativeQueue,
                                                 ur_context_handle_t hContext,
                                                 ur_device_handle_t hDevice,
                                                 const ur_queue_native_properties_t *pProperties,
                                                 ur_queue_handle_t *phQueue) {
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    cuda_device_t *dev = hDevice != NULL ? CUDA_DEVICE(hDevice) : ctx->devices[0];
    if (!cuda_is(dev, URC_KIND_DEVICE) || !cuda_context_has_device(ctx, dev))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    CUstream stream = (CUstream)hNativeQueue;
    unsigned cu_flags = 0;
    ur_result_t res = cuda_activate(dev);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.StreamGetFlags(stream, &cu_flags), "cuStreamGetFlags");
    if (res != UR_RESULT_SUCCESS)
        return res;
    ur_queue_flags_t flags = cu_flags == CU_STREAM_NON_BLOCKING
                                 ? UR_QUEUE_FLAG_SYNC_WITH_DEFAULT_STREAM
                                 : UR_QUEUE_FLAG_USE_DEFAULT_STREAM;
    cuda_queue_t *q = alloc_queue(ctx, dev, flags);
    if (q == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    q->stream_flags = cu_flags;
    q->streams[0] = stream;
    q->owns_streams = pProperties != NULL && pProperties->isNativeHandleOwned;
    cuda_context_retain_internal(ctx);
    *phQueue = (ur_queue_handle_t)q;
    return UR_RESULT_SUCCESS;
}
