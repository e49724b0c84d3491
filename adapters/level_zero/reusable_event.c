// SPDX-License-Identifier: MIT
// Reusable events (urEventCreateExp) on Level Zero. A queue's events come from the context's
// cache and are reset for reuse once the queue has seen them complete, so a reusable event
// does not sign one Level Zero event itself: it stands for the event of its latest signal's
// barrier, an ordinary command event that keeps all the queue's machinery (batches, in-order
// chaining, dependencies kept until completion). A signal replaces it; waits, queries and
// callbacks take the current one. Profiling follows the signalling queue (UR's rule for events
// made without ENABLE_PROFILING); ENABLE_PROFILING itself is UNSUPPORTED_FEATURE here.
#include <stdlib.h>

#include "l0_internal.h"

l0_event_t *l0_reusable_current(l0_event_t *e) {
    pthread_mutex_lock(&e->reusable->lock);
    l0_event_t *inner = e->inner;
    if (inner != NULL)
        l0_event_retain_internal(inner);
    pthread_mutex_unlock(&e->reusable->lock);
    return inner;
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

ur_result_t l0_event_create_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                const ur_exp_event_desc_t *pEventDesc, ur_event_handle_t *phEvent) {
    if (!l0_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
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
    l0_event_t *e = URC_NEW(l0_event_t);
    urc_reusable_t *r = URC_NEW(urc_reusable_t);
    if (e == NULL || r == NULL) {
        free(e);
        free(r);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    e->ctx = ctx;
    e->command = UR_COMMAND_EVENTS_WAIT_WITH_BARRIER;
    e->cache = -1;
    atomic_init(&e->done, false);
    pthread_mutex_init(&e->lock, NULL);
    urc_object_init(&e->obj, &l0_ddi, URC_KIND_EVENT);
    res = urc_reusable_start(r, &e->obj, pEventDesc->flags, ctx, hDevice);
    if (res != UR_RESULT_SUCCESS) {
        pthread_mutex_destroy(&e->lock);
        free(e);
        free(r);
        return res;
    }
    e->reusable = r;
    l0_context_retain_internal(ctx);
    *phEvent = (ur_event_handle_t)e;
    return UR_RESULT_SUCCESS;
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
    // The reference the barrier's event was made with becomes the reusable event's.
    pthread_mutex_lock(&e->reusable->lock);
    l0_event_t *old = e->inner;
    e->inner = L0_EVENT(signal);
    pthread_mutex_unlock(&e->reusable->lock);
    if (old != NULL)
        l0_event_release_created(old);
    return UR_RESULT_SUCCESS;
}
