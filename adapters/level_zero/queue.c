// SPDX-License-Identifier: MIT
// urQueue*, and the begin/end pair every enqueue goes through.
//
// A queue appends to an immediate command list (the default; UR_L0_USE_IMMEDIATE_COMMANDLISTS=0
// or UR_QUEUE_FLAG_SUBMISSION_BATCHED choose regular lists) or records into a regular command
// list that is executed on a command queue as a batch: when it is full, on urQueueFlush and
// urQueueFinish, for a blocking command, and when anyone waits for one of its events. Level
// Zero orders nothing by itself, so an in-order queue makes each command wait for the previous
// one's event, and an out-of-order queue makes each command wait for the last barrier.
#include <stdlib.h>

#include "env/env.h"
#include "l0_internal.h"
#include "core/pnext.h"
#include "core/release.h"

static bool grow(void **array, uint32_t *cap, uint32_t need, size_t elem) {
    if (need <= *cap)
        return true;
    uint32_t n = *cap != 0 ? *cap * 2 : 16;
    while (n < need)
        n *= 2;
    void *p = realloc(*array, (size_t)n * elem);
    if (p == NULL)
        return false;
    *array = p;
    *cap = n;
    return true;
}

// ---- regular command lists ----

// Lists whose last execution finished are reset for reuse.
static void reap_flight_locked(l0_queue_t *q) {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < q->nflight; ++i) {
        l0_batch_t b = q->flight[i];
        bool idle = zeFenceQueryStatus(b.fence) == ZE_RESULT_SUCCESS &&
                    zeCommandListReset(b.list) == ZE_RESULT_SUCCESS &&
                    zeFenceReset(b.fence) == ZE_RESULT_SUCCESS;
        if (idle && grow((void **)&q->spare, &q->spare_cap, q->nspare + 1, sizeof *q->spare))
            q->spare[q->nspare++] = b;
        else
            q->flight[kept++] = b;
    }
    q->nflight = kept;
}

static ur_result_t open_batch_locked(l0_queue_t *q) {
    if (q->open.list != NULL)
        return UR_RESULT_SUCCESS;
    reap_flight_locked(q);
    if (q->nspare > 0) {
        q->open = q->spare[--q->nspare];
        return UR_RESULT_SUCCESS;
    }
    ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, q->dev->compute_ordinal,
                                 0};
    ze_fence_desc_t fd = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0};
    l0_batch_t b = {NULL, NULL};
    ur_result_t res =
        l0_ok(zeCommandListCreate(q->ctx->ze, q->dev->ze, &ld, &b.list), "zeCommandListCreate");
    if (res == UR_RESULT_SUCCESS) {
        res = l0_ok(zeFenceCreate(q->zq, &fd, &b.fence), "zeFenceCreate");
        if (res != UR_RESULT_SUCCESS)
            (void)zeCommandListDestroy(b.list);
    }
    if (res == UR_RESULT_SUCCESS)
        q->open = b;
    return res;
}

ur_result_t l0_queue_submit_locked(l0_queue_t *q) {
    if (q->immediate || q->open.list == NULL || q->open_count == 0)
        return UR_RESULT_SUCCESS;
    if (!grow((void **)&q->flight, &q->flight_cap, q->nflight + 1, sizeof *q->flight))
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    l0_batch_t b = q->open;
    ur_result_t res = l0_ok(zeCommandListClose(b.list), "zeCommandListClose");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandQueueExecuteCommandLists(q->zq, 1, &b.list, b.fence),
                    "zeCommandQueueExecuteCommandLists");
    if (res != UR_RESULT_SUCCESS) {
        // The batch will never run: signal its events from the host so that nothing waits for
        // them forever, and start a fresh list. The caller gets the error.
        for (uint32_t i = 0; i < q->npending; ++i)
            if (q->pending[i]->batch == q->batch)
                (void)zeEventHostSignal(q->pending[i]->ze);
        (void)zeCommandListReset(b.list);
        q->open = b;
        q->open_count = 0;
        return res;
    }
    q->flight[q->nflight++] = b;
    q->open.list = NULL;
    q->open.fence = NULL;
    q->open_count = 0;
    atomic_store(&q->sent, q->batch);
    ++q->batch;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_event_submit(l0_event_t *e) {
    l0_queue_t *q = e->queue;
    if (q == NULL || q->immediate || e->batch <= atomic_load(&q->sent))
        return UR_RESULT_SUCCESS;
    pthread_mutex_lock(&q->lock);
    ur_result_t res = UR_RESULT_SUCCESS;
    if (e->batch > atomic_load(&q->sent))
        res = l0_queue_submit_locked(q);
    pthread_mutex_unlock(&q->lock);
    return res;
}

// ---- pending commands ----

// Drops completed commands (all of them when `all`, for a queue being torn down). The dropped
// references may destroy events, which release this queue's object: the caller keeps its own.
static void reap_locked(l0_queue_t *q, bool all) {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < q->npending; ++i) {
        l0_event_t *e = q->pending[i];
        if (all || l0_event_done(e)) {
            l0_event_drop_deps(e);
            l0_event_release_internal(e);
        } else {
            q->pending[kept++] = e;
        }
    }
    q->npending = kept;
    if (q->barrier != NULL && (all || l0_event_done(q->barrier))) {
        l0_event_release_internal(q->barrier);
        q->barrier = NULL;
    }
    if (q->last != NULL && (all || l0_event_done(q->last))) {
        l0_event_release_internal(q->last);
        q->last = NULL;
    }
}

ur_result_t l0_queue_sync(l0_queue_t *q) {
    pthread_mutex_lock(&q->lock);
    ur_result_t res = l0_queue_submit_locked(q);
    uint32_t n = q->npending;
    l0_event_t **snap = n > 0 ? malloc(n * sizeof *snap) : NULL;
    if (n > 0 && snap == NULL)
        res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < n; ++i) {
        snap[i] = q->pending[i];
        l0_event_retain_internal(snap[i]);
    }
    pthread_mutex_unlock(&q->lock);
    if (res != UR_RESULT_SUCCESS) {
        free(snap);
        return res;
    }
    // Waited for without the lock, so other threads may keep enqueueing meanwhile.
    for (uint32_t i = 0; i < n; ++i) {
        ur_result_t r = l0_event_host_wait(snap[i]);
        if (res == UR_RESULT_SUCCESS)
            res = r;
        l0_event_release_internal(snap[i]);
    }
    free(snap);
    l0_queue_retain_internal(q);
    pthread_mutex_lock(&q->lock);
    reap_locked(q, false);
    reap_flight_locked(q);
    pthread_mutex_unlock(&q->lock);
    l0_queue_release_internal(q);
    return res;
}

// ---- one command ----

static ur_result_t add_wait(l0_op_t *op, l0_event_t *w) {
    if (w == op->event || l0_event_done(w))
        return UR_RESULT_SUCCESS;
    ur_result_t res = l0_event_add_dep(op->event, w);
    if (res == UR_RESULT_SUCCESS)
        op->waits[op->nwaits++] = w->ze;
    return res;
}

static void op_abandon(l0_op_t *op) {
    if (op->event != NULL) {
        l0_event_drop_deps(op->event);
        l0_event_release_created(op->event);
        op->event = NULL;
    }
}

static ur_result_t op_begin(l0_queue_t *q, ur_command_t command, uint32_t nwait,
                            const ur_event_handle_t *wait, l0_op_t *op) {
    memset(op, 0, sizeof *op);
    op->queue = q;
    op->waits = op->stack;
    for (uint32_t i = 0; i < nwait; ++i)
        if (!l0_is(wait[i], URC_KIND_EVENT))
            return UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST;
    // Other queues' batches holding awaited events run first (this queue's own batch may hold
    // them: a list can wait for an event signalled earlier in it). Done before taking this
    // queue's lock, so two queues waiting for each other cannot deadlock.
    for (uint32_t i = 0; i < nwait; ++i) {
        l0_event_t *w = L0_EVENT(wait[i]);
        if (w->queue != q) {
            ur_result_t res = l0_event_submit(w);
            if (res != UR_RESULT_SUCCESS)
                return res;
        }
    }
    if ((size_t)nwait + 2 > sizeof op->stack / sizeof op->stack[0]) {
        op->waits = urc_calloc((size_t)nwait + 2, sizeof *op->waits);
        if (op->waits == NULL)
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    pthread_mutex_lock(&q->lock);
    ur_result_t res = UR_RESULT_SUCCESS;
    // Room for the command in the pending list now, so ending it cannot fail for memory.
    if (!grow((void **)&q->pending, &q->pending_cap, q->npending + 1, sizeof *q->pending))
        res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (res == UR_RESULT_SUCCESS && !q->immediate)
        res = open_batch_locked(q);
    if (res == UR_RESULT_SUCCESS)
        res = l0_event_create(q, command, &op->event);
    if (res == UR_RESULT_SUCCESS && q->profiling)
        res = l0_device_ticks(q->dev, &op->event->queued_ticks);
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < nwait; ++i)
        res = add_wait(op, L0_EVENT(wait[i]));
    if (res == UR_RESULT_SUCCESS && q->in_order && q->last != NULL)
        res = add_wait(op, q->last);
    if (res == UR_RESULT_SUCCESS && !q->in_order && q->barrier != NULL)
        res = add_wait(op, q->barrier);
    if (res != UR_RESULT_SUCCESS) {
        op_abandon(op);
        pthread_mutex_unlock(&q->lock);
        if (op->waits != op->stack)
            free(op->waits);
        return res;
    }
    op->list = q->immediate ? q->imm : q->open.list;
    return UR_RESULT_SUCCESS;
}

// Reusable events in the wait list stand for their latest signals (reusable_event.c); the
// command keeps what it waits for, so the view's references end here.
ur_result_t l0_op_begin(l0_queue_t *q, ur_command_t command, uint32_t nwait,
                        const ur_event_handle_t *wait, l0_op_t *op) {
    l0_wait_view_t view;
    ur_result_t res =
        l0_wait_view_init(&view, nwait, wait, UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    if (res != UR_RESULT_SUCCESS) {
        memset(op, 0, sizeof *op);
        return res;
    }
    res = op_begin(q, command, view.count, view.events, op);
    l0_wait_view_fini(&view);
    return res;
}

static void set_slot(l0_event_t **slot, l0_event_t *e) {
    l0_event_retain_internal(e);
    l0_event_release_internal(*slot);
    *slot = e;
}

ur_result_t l0_op_end(l0_op_t *op, ur_result_t result, bool blocking, ur_event_handle_t *phEvent) {
    l0_queue_t *q = op->queue;
    l0_event_t *e = op->event;
    if (result != UR_RESULT_SUCCESS) {
        op_abandon(op);
        pthread_mutex_unlock(&q->lock);
        if (op->waits != op->stack)
            free(op->waits);
        return result;
    }
    // The pending list holds the event; the reference it was made with is the caller's.
    e->batch = q->immediate ? 0 : q->batch;
    l0_event_retain_internal(e);
    q->pending[q->npending++] = e;
    if (q->in_order)
        set_slot(&q->last, e);
    else if (e->command == UR_COMMAND_EVENTS_WAIT_WITH_BARRIER)
        set_slot(&q->barrier, e);
    if (!q->immediate && (++q->open_count >= L0_BATCH_LIMIT || blocking || op->submit))
        result = l0_queue_submit_locked(q);
    if (q->npending >= L0_REAP_THRESHOLD) {
        l0_queue_retain_internal(q);
        reap_locked(q, false);
        pthread_mutex_unlock(&q->lock);
        l0_queue_release_internal(q);
    } else {
        pthread_mutex_unlock(&q->lock);
    }
    if (op->waits != op->stack)
        free(op->waits);
    if (result == UR_RESULT_SUCCESS && blocking)
        result = l0_event_host_wait(e);
    if (result == UR_RESULT_SUCCESS && phEvent != NULL)
        *phEvent = (ur_event_handle_t)e;
    else
        l0_event_release_created(e);
    return result;
}

// ---- queue objects ----

void l0_queue_retain_internal(l0_queue_t *q) {
    urc_hold(&q->obj);
}

static void queue_destroy(l0_queue_t *q) {
    if (q->open.list != NULL) {
        (void)zeCommandListDestroy(q->open.list);
        (void)zeFenceDestroy(q->open.fence);
    }
    for (uint32_t i = 0; i < q->nflight; ++i) {
        // Finished by now (every event was waited for); the fence wait is a formality.
        (void)zeFenceHostSynchronize(q->flight[i].fence, UINT64_MAX);
        (void)zeCommandListDestroy(q->flight[i].list);
        (void)zeFenceDestroy(q->flight[i].fence);
    }
    for (uint32_t i = 0; i < q->nspare; ++i) {
        (void)zeCommandListDestroy(q->spare[i].list);
        (void)zeFenceDestroy(q->spare[i].fence);
    }
    if (q->owns_native) {
        if (q->imm != NULL)
            (void)l0_ok(zeCommandListDestroy(q->imm), "zeCommandListDestroy");
        if (q->zq != NULL)
            (void)l0_ok(zeCommandQueueDestroy(q->zq), "zeCommandQueueDestroy");
    }
    urc_queue_registry_remove(&q->dev->queues, &q->obj);
    free(q->flight);
    free(q->spare);
    free(q->pending);
    pthread_mutex_destroy(&q->lock);
    l0_context_release_internal(q->ctx);
    URC_OBJECT_FREE(q);
}

void l0_queue_release_internal(l0_queue_t *q) {
    if (q != NULL && urc_unhold(&q->obj))
        queue_destroy(q);
}

static l0_queue_t *queue_new(l0_context_t *ctx, l0_device_t *dev, ur_queue_flags_t flags) {
    l0_queue_t *q = URC_NEW(l0_queue_t);
    if (q == NULL)
        return NULL;
    q->ctx = ctx;
    q->dev = dev;
    q->flags = flags;
    q->in_order = (flags & UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0;
    q->profiling = (flags & UR_QUEUE_FLAG_PROFILING_ENABLE) != 0;
    q->batch = 1;
    atomic_init(&q->sent, 0);
    atomic_init(&q->native_list, NULL);
    pthread_mutex_init(&q->lock, NULL);
    urc_object_init(&q->obj, &l0_ddi, URC_KIND_QUEUE);
    l0_context_retain_internal(ctx);
    return q;
}

static ur_result_t check_queue_args(ur_context_handle_t hContext, ur_device_handle_t hDevice) {
    if (!l0_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    if (!l0_is(hDevice, URC_KIND_DEVICE) ||
        !l0_context_has_device(L0_CONTEXT(hContext), L0_DEVICE(hDevice)))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_queue_create(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                            const ur_queue_properties_t *pProperties, ur_queue_handle_t *phQueue) {
    ur_result_t res = check_queue_args(hContext, hDevice);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_context_t *ctx = L0_CONTEXT(hContext);
    l0_device_t *dev = L0_DEVICE(hDevice);
    ur_queue_flags_t flags = pProperties != NULL ? pProperties->flags : 0;
    if ((flags & UR_QUEUE_FLAG_PRIORITY_LOW) && (flags & UR_QUEUE_FLAG_PRIORITY_HIGH))
        return UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES;
    if ((flags & UR_QUEUE_FLAG_SUBMISSION_BATCHED) && (flags & UR_QUEUE_FLAG_SUBMISSION_IMMEDIATE))
        return UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES;
    if (flags & (UR_QUEUE_FLAG_ON_DEVICE | UR_QUEUE_FLAG_ON_DEVICE_DEFAULT))
        return urc_error_set(UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES, 0,
                             "Level Zero has no device-side queues");
    uint32_t index = 0;
    ur_result_t chain = urc_pnext_check(pProperties);
    if (chain != UR_RESULT_SUCCESS)
        return chain;
    for (const ur_base_properties_t *p = pProperties != NULL ? pProperties->pNext : NULL; p != NULL;
         p = p->pNext) {
        if (p->stype == UR_STRUCTURE_TYPE_QUEUE_INDEX_PROPERTIES)
            index = ((const ur_queue_index_properties_t *)p)->computeIndex;
    }
    if (index >= dev->compute_queues)
        return urc_error_set(UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES, 0,
                             "compute queue index %u; the device has %u", index,
                             dev->compute_queues);
    l0_queue_t *q = queue_new(ctx, dev, flags);
    if (q == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    // A flag chooses per queue; otherwise UR_L0_USE_IMMEDIATE_COMMANDLISTS, immediate by default.
    if (flags & UR_QUEUE_FLAG_SUBMISSION_IMMEDIATE)
        q->immediate = true;
    else if (flags & UR_QUEUE_FLAG_SUBMISSION_BATCHED)
        q->immediate = false;
    else
        q->immediate = urc_env_bool(URC_ENV_L0_IMMEDIATE_COMMANDLISTS, true);
    ze_command_queue_priority_t priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
    if (flags & UR_QUEUE_FLAG_PRIORITY_LOW)
        priority = ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_LOW;
    else if (flags & UR_QUEUE_FLAG_PRIORITY_HIGH)
        priority = ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH;
    ze_command_queue_desc_t desc = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL,    dev->compute_ordinal, index, 0,
        ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,   priority};
    if (q->immediate)
        res = l0_ok(zeCommandListCreateImmediate(ctx->ze, dev->ze, &desc, &q->imm),
                    "zeCommandListCreateImmediate");
    else
        res = l0_ok(zeCommandQueueCreate(ctx->ze, dev->ze, &desc, &q->zq), "zeCommandQueueCreate");
    if (res != UR_RESULT_SUCCESS) {
        queue_destroy(q);
        return res;
    }
    q->owns_native = true;
    res = urc_queue_registry_add(&dev->queues, &q->obj);
    if (res != UR_RESULT_SUCCESS) {
        queue_destroy(q);
        return res;
    }
    *phQueue = (ur_queue_handle_t)q;
    return UR_RESULT_SUCCESS;
}

URC_RETAIN(l0_queue, ur_queue_handle_t, L0_QUEUE)

// The user's last release finishes the queue's work and drops what the queue holds; the object
// itself goes when the last event made on it goes too.
ur_result_t l0_queue_release(ur_queue_handle_t hQueue) {
    l0_queue_t *q = L0_QUEUE(hQueue);
    urc_release_t dropped = urc_user_drop(&q->obj);
    if (dropped == URC_RELEASE_REFUSED)
        return urc_error_released(UR_RESULT_ERROR_INVALID_QUEUE, "urQueueRelease");
    if (dropped != URC_RELEASE_LAST_USER)
        return UR_RESULT_SUCCESS;
    ur_result_t res = l0_queue_sync(q);
    pthread_mutex_lock(&q->lock);
    reap_locked(q, true);
    pthread_mutex_unlock(&q->lock);
    l0_queue_release_internal(q);
    return res;
}

ur_result_t l0_queue_get_info(ur_queue_handle_t hQueue, ur_queue_info_t propName, size_t propSize,
                              void *pPropValue, size_t *pPropSizeRet) {
    l0_queue_t *q = L0_QUEUE(hQueue);
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_QUEUE_INFO_EMPTY: {
        // Empty when nothing is recorded and every command has completed.
        pthread_mutex_lock(&q->lock);
        bool empty = q->open_count == 0;
        for (uint32_t i = 0; empty && i < q->npending; ++i)
            empty = l0_event_done(q->pending[i]);
        pthread_mutex_unlock(&q->lock);
        return urc_info_bool(&out, empty);
    }
    default:
        // DEVICE_DEFAULT and SIZE describe device-side queues, which Level Zero has not.
        return urc_info_queue(&out, propName, (ur_context_handle_t)q->ctx,
                              (ur_device_handle_t)q->dev, q->flags, urc_refcount(&q->obj));
    }
}

// pDesc->pNativeData, when given, is an int32_t set to 1 for an immediate command list handle
// and 0 for a command queue handle (UR's convention). Inside a native command's callback the
// handle is the command list the command goes to, also on a batched queue (host_task.c).
ur_result_t l0_queue_get_native_handle(ur_queue_handle_t hQueue, ur_queue_native_desc_t *pDesc,
                                       ur_native_handle_t *phNativeQueue) {
    l0_queue_t *q = L0_QUEUE(hQueue);
    ze_command_list_handle_t native = atomic_load_explicit(&q->native_list, memory_order_acquire);
    if (native != NULL && pthread_equal(atomic_load(&q->native_thread), pthread_self())) {
        if (pDesc != NULL && pDesc->pNativeData != NULL)
            *(int32_t *)pDesc->pNativeData = 1;
        *phNativeQueue = (ur_native_handle_t)native;
        return UR_RESULT_SUCCESS;
    }
    if (pDesc != NULL && pDesc->pNativeData != NULL)
        *(int32_t *)pDesc->pNativeData = q->immediate ? 1 : 0;
    *phNativeQueue = q->immediate ? (ur_native_handle_t)q->imm : (ur_native_handle_t)q->zq;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_queue_create_with_native_handle(ur_native_handle_t hNativeQueue,
                                               ur_context_handle_t hContext,
                                               ur_device_handle_t hDevice,
                                               const ur_queue_native_properties_t *pProperties,
                                               ur_queue_handle_t *phQueue) {
    if (hNativeQueue == 0)
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (hDevice == NULL && l0_is(hContext, URC_KIND_CONTEXT))
        hDevice = (ur_device_handle_t)L0_CONTEXT(hContext)->devices[0];
    ur_result_t res = check_queue_args(hContext, hDevice);
    if (res != UR_RESULT_SUCCESS)
        return res;
    bool immediate = false;
    res = urc_pnext_check(pProperties);
    if (res != UR_RESULT_SUCCESS)
        return res;
    for (const ur_base_properties_t *p = pProperties != NULL ? pProperties->pNext : NULL; p != NULL;
         p = p->pNext) {
        const ur_queue_native_desc_t *d = (const ur_queue_native_desc_t *)p;
        if (p->stype == UR_STRUCTURE_TYPE_QUEUE_NATIVE_DESC && d->pNativeData != NULL)
            immediate = *(const int32_t *)d->pNativeData != 0;
    }
    l0_queue_t *q = queue_new(L0_CONTEXT(hContext), L0_DEVICE(hDevice), 0);
    if (q == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    q->immediate = immediate;
    if (immediate)
        q->imm = (ze_command_list_handle_t)hNativeQueue;
    else
        q->zq = (ze_command_queue_handle_t)hNativeQueue;
    q->owns_native = pProperties != NULL && pProperties->isNativeHandleOwned;
    res = urc_queue_registry_add(&q->dev->queues, &q->obj);
    if (res != UR_RESULT_SUCCESS) {
        q->owns_native = false; // the caller keeps its handle when creation fails
        queue_destroy(q);
        return res;
    }
    *phQueue = (ur_queue_handle_t)q;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_queue_finish(ur_queue_handle_t hQueue) {
    return l0_queue_sync(L0_QUEUE(hQueue));
}

ur_result_t l0_queue_flush(ur_queue_handle_t hQueue) {
    l0_queue_t *q = L0_QUEUE(hQueue);
    pthread_mutex_lock(&q->lock);
    ur_result_t res = l0_queue_submit_locked(q);
    pthread_mutex_unlock(&q->lock);
    return res;
}
