// SPDX-License-Identifier: MIT
// Reusable events (urEventCreateExp) on Level Zero. A queue's events come from the context's
// cache and are reset for reuse once the queue has seen them complete, so a reusable event
// does not sign one Level Zero event itself: it stands for the event of its latest signal's
// barrier, an ordinary command event that keeps all the queue's machinery (batches, in-order
// chaining, dependencies kept until completion). A signal replaces it; waits, queries and
// callbacks take the current one. Profiling follows the signalling queue (UR's rule for events
// made without ENABLE_PROFILING); ENABLE_PROFILING itself is UNSUPPORTED_FEATURE here.
//
// IPC events (IPC_EXP) also own a Level Zero event of an IPC event pool, the one another
// process opens (ipc_event.c): each signal resets it and signals it again after the barrier,
// in the queue's order, and a process that has not signalled the event itself waits for it.
#include <stdlib.h>

#include "l0_internal.h"

// An event handle for the shared IPC event, holding `e` (which owns the Level Zero event)
// until it goes, so a command waiting for it keeps it alive.
static l0_event_t *wrap_shared(l0_event_t *e) {
    l0_event_t *w = URC_NEW(l0_event_t);
    if (w == NULL)
        return NULL;
    w->ctx = e->ctx;
    w->command = UR_COMMAND_EVENTS_WAIT_WITH_BARRIER;
    w->ze = e->ipc_ze;
    w->cache = -1;
    atomic_init(&w->done, false);
    pthread_mutex_init(&w->lock, NULL);
    urc_object_init(&w->obj, &l0_ddi, URC_KIND_EVENT);
    urc_user_to_hold(&w->obj); // the caller's hold, no user reference
    l0_context_retain_internal(e->ctx);
    if (l0_event_add_dep(w, e) != UR_RESULT_SUCCESS) {
        l0_event_release_internal(w);
        return NULL;
    }
    return w;
}

l0_event_t *l0_reusable_current(l0_event_t *e) {
    pthread_mutex_lock(&e->reusable->lock);
    l0_event_t *inner = e->inner;
    if (inner != NULL)
        l0_event_retain_internal(inner);
    pthread_mutex_unlock(&e->reusable->lock);
    // Not signalled here: an IPC event's state is the shared event's (another process may
    // signal it); any other is complete.
    if (inner == NULL && e->ipc_ze != NULL)
        inner = wrap_shared(e);
    return inner;
}

bool l0_ipc_events_available(const l0_device_t *dev) {
    ze_driver_ipc_properties_t p = {ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES, NULL, 0};
    return zeDriverGetIpcProperties(dev->platform->ze, &p) == ZE_RESULT_SUCCESS &&
           (p.flags & ZE_IPC_PROPERTY_FLAG_EVENT_POOL);
}

// The exported side's IPC pool and event, signalled: complete until the first signal.
static ur_result_t make_shared(l0_event_t *e, l0_device_t *dev) {
    ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                               ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC, 1};
    ze_device_handle_t zdev = dev->ze;
    ur_result_t res =
        l0_ok(zeEventPoolCreate(e->ctx->ze, &pd, 1, &zdev, &e->ipc_pool), "zeEventPoolCreate");
    ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                          ZE_EVENT_SCOPE_FLAG_HOST};
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeEventCreate(e->ipc_pool, &ed, &e->ipc_ze), "zeEventCreate");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeEventHostSignal(e->ipc_ze), "zeEventHostSignal");
    return res;
}

void l0_reusable_fini(l0_event_t *e) {
    if (e->inner != NULL)
        l0_event_release_created(e->inner);
    if (e->ipc_ze != NULL)
        (void)l0_ok(zeEventDestroy(e->ipc_ze), "zeEventDestroy");
    if (e->ipc_pool != NULL)
        (void)(e->reusable->imported
                   ? l0_ok(zeEventPoolCloseIpcHandle(e->ipc_pool), "zeEventPoolCloseIpcHandle")
                   : l0_ok(zeEventPoolDestroy(e->ipc_pool), "zeEventPoolDestroy"));
    urc_reusable_delete(e->reusable);
}

ur_result_t l0_wait_view_init(l0_wait_view_t *v, uint32_t n, const ur_event_handle_t *events,
                              ur_result_t bad) {
    v->count = n;
    v->events = events;
    v->own = NULL;
    bool any = false;
    for (uint32_t i = 0; i < n; ++i) {
        if (!l0_is(events[i], URC_KIND_EVENT))
            return bad;
        any = any || L0_EVENT(events[i])->reusable != NULL;
    }
    if (!any)
        return UR_RESULT_SUCCESS;
    v->own = n <= 16 ? v->stack : urc_calloc(n, sizeof *v->own);
    if (v->own == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; ++i) {
        l0_event_t *e = L0_EVENT(events[i]);
        if (e->reusable != NULL)
            e = l0_reusable_current(e); // NULL: never signalled, nothing to wait for
        else
            l0_event_retain_internal(e);
        if (e != NULL)
            v->own[kept++] = (ur_event_handle_t)e;
    }
    v->count = kept;
    v->events = v->own;
    return UR_RESULT_SUCCESS;
}

void l0_wait_view_fini(l0_wait_view_t *v) {
    if (v->own == NULL)
        return;
    for (uint32_t i = 0; i < v->count; ++i)
        l0_event_release_internal(L0_EVENT(v->own[i]));
    if (v->own != v->stack)
        free(v->own);
    v->own = NULL;
}

ur_result_t l0_reusable_make(l0_context_t *ctx, l0_device_t *dev, ur_exp_event_flags_t flags,
                             bool imported, l0_event_t **out) {
    l0_event_t *e = URC_NEW(l0_event_t);
    if (e == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    e->ctx = ctx;
    e->command = UR_COMMAND_EVENTS_WAIT_WITH_BARRIER;
    e->cache = -1;
    atomic_init(&e->done, false);
    urc_object_init(&e->obj, &l0_ddi, URC_KIND_EVENT);
    e->reusable = urc_reusable_new(&e->obj, flags, ctx, dev, imported);
    if (e->reusable == NULL) {
        free(e);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    pthread_mutex_init(&e->lock, NULL);
    l0_context_retain_internal(ctx);
    *out = e;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_event_create_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                const ur_exp_event_desc_t *pEventDesc, ur_event_handle_t *phEvent) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    bool member = false;
    for (uint32_t i = 0; i < ctx->ndevices && l0_is(hDevice, URC_KIND_DEVICE); ++i)
        member = member || ctx->devices[i] == L0_DEVICE(hDevice);
    if (!member)
        return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                             "urEventCreateExp: the device is not in the context");
    ur_result_t res = urc_reusable_check_desc(pEventDesc, false);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_device_t *dev = L0_DEVICE(hDevice);
    l0_event_t *e = NULL;
    if ((res = l0_reusable_make(ctx, dev, pEventDesc->flags, false, &e)) != UR_RESULT_SUCCESS)
        return res;
    // Without IPC event pools the flag changes nothing; urIPCGetEventHandleExp says so.
    if ((pEventDesc->flags & UR_EXP_EVENT_FLAG_IPC_EXP) && l0_ipc_events_available(dev) &&
        (res = make_shared(e, dev)) != UR_RESULT_SUCCESS) {
        l0_event_release_created(e);
        return res;
    }
    *phEvent = (ur_event_handle_t)e;
    return UR_RESULT_SUCCESS;
}

// The shared IPC event follows the signal: reset, then signalled, both after the barrier's
// event, in the queue's order; its batch is sent at once, as another process may be waiting.
static ur_result_t mirror(l0_event_t *e, l0_queue_t *q, ur_event_handle_t signal) {
    l0_op_t op;
    ur_result_t res = l0_op_begin(q, UR_COMMAND_EVENTS_WAIT, 1, &signal, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = l0_ok(zeCommandListAppendBarrier(op.list, NULL, op.nwaits, op.waits),
                "zeCommandListAppendBarrier");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandListAppendEventReset(op.list, e->ipc_ze),
                    "zeCommandListAppendEventReset");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandListAppendBarrier(op.list, e->ipc_ze, 0, NULL),
                    "zeCommandListAppendBarrier");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandListAppendBarrier(op.list, op.event->ze, 0, NULL),
                    "zeCommandListAppendBarrier");
    ur_event_handle_t done = NULL;
    res = l0_op_end(&op, res, false, &done);
    if (res == UR_RESULT_SUCCESS) {
        res = l0_event_submit(L0_EVENT(done));
        l0_event_release_created(L0_EVENT(done));
    }
    return res;
}

ur_result_t l0_event_signal(l0_event_t *e, l0_queue_t *q, uint32_t n,
                            const ur_event_handle_t *waits) {
    ur_result_t res = urc_reusable_check_signal(e->reusable, q->ctx, q->dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // A wait list naming `e` itself waits for its previous signal (resolved in l0_op_begin).
    ur_event_handle_t signal = NULL;
    res = l0_enqueue_wait_command(q, UR_COMMAND_EVENTS_WAIT_WITH_BARRIER, n, waits, &signal);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // The reference the barrier's event was made with becomes the reusable event's; the mirror
    // below keeps one of its own, as a signal from another thread may replace it meanwhile.
    if (e->ipc_ze != NULL)
        l0_event_retain_internal(L0_EVENT(signal));
    pthread_mutex_lock(&e->reusable->lock);
    l0_event_t *old = e->inner;
    e->inner = L0_EVENT(signal);
    pthread_mutex_unlock(&e->reusable->lock);
    if (old != NULL)
        l0_event_release_created(old);
    if (e->ipc_ze == NULL)
        return UR_RESULT_SUCCESS;
    res = mirror(e, q, signal);
    l0_event_release_internal(L0_EVENT(signal));
    return res;
}
