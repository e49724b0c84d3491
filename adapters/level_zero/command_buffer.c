// SPDX-License-Identifier: MIT
// Command buffers as regular command lists. A buffer's list starts with a barrier waiting for
// its `start` event, has a barrier after every command (so commands run in append order, which
// honours every sync point) and ends with a barrier signalling `done`; it is closed at
// finalisation and executed on the buffer's own command queue. A run puts two barriers on the
// caller's queue: one signalling `start` after the run's wait list and the queue's order, one
// waiting for `done` that carries the run's event. The state machine, sync points and UR's
// rules are common/queue/command_buffer.c. Updatable buffers record into a mutable command list,
// whose kernel commands take command ids for the updates of command_buffer_update.c. Commands
// signal and wait for UR events in the list.
#include <stdlib.h>
#include <string.h>

#include "l0_internal.h"
#include "core/release.h"
#include "queue/command_append.h"

static void release_kernel(void *kernel) {
    (void)l0_kernel_release(kernel);
}

// The list's events are held in `signals` and `waits`, not in the core's events.
static const urc_cb_release_t records = {sizeof(l0_cb_cmd_t), release_kernel, release_kernel, NULL,
                                         NULL};

static void cb_destroy(l0_cb_t *cb) {
    // The last run must be over before its list, queue and events go.
    if (cb->ran && cb->fence != NULL)
        (void)zeFenceHostSynchronize(cb->fence, UINT64_MAX);
    if (cb->fence != NULL)
        (void)zeFenceDestroy(cb->fence);
    if (cb->list != NULL)
        (void)zeCommandListDestroy(cb->list);
    if (cb->zq != NULL)
        (void)zeCommandQueueDestroy(cb->zq);
    urc_cb_release_records(&cb->core, &records);
    for (uint32_t i = 0; i < cb->nsignals; ++i)
        l0_event_release_internal(cb->signals[i]);
    for (uint32_t i = 0; i < cb->nwaits; ++i)
        l0_event_release_internal(cb->waits[i]);
    free(cb->signals);
    free(cb->waits);
    if (cb->start != NULL)
        l0_context_give_event(cb->ctx, 0, cb->start);
    if (cb->done != NULL)
        l0_context_give_event(cb->ctx, 0, cb->done);
    pthread_mutex_destroy(&cb->run_lock);
    l0_context_release_internal(cb->ctx);
    URC_OBJECT_FREE(cb);
}

ur_result_t l0_command_buffer_create_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                         const ur_exp_command_buffer_desc_t *pCommandBufferDesc,
                                         ur_exp_command_buffer_handle_t *phCommandBuffer) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    l0_device_t *dev = L0_DEVICE(hDevice);
    urc_cb_caps_t caps;
    l0_cb_caps(dev, &caps);
    l0_cb_t *cb = NULL;
    ur_result_t res = URC_CB_CREATE(l0_cb_t, l0_context_has_device(ctx, dev), pCommandBufferDesc,
                                    &caps, hContext, &l0_ddi, &cb);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cb->ctx = ctx;
    cb->dev = dev;
    l0_rules(ctx, dev, &cb->core.rules);
    pthread_mutex_init(&cb->run_lock, NULL);
    l0_context_retain_internal(ctx);
    // An updatable buffer's list is mutable: its kernel commands get command ids.
    ze_mutable_command_list_exp_desc_t md = {ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC, NULL,
                                             0};
    ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
                                 cb->core.updatable ? &md : NULL, dev->compute_ordinal, 0};
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  NULL,
                                  dev->compute_ordinal,
                                  0,
                                  0,
                                  ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_fence_desc_t fd = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0};
    res = l0_ok(zeCommandListCreate(ctx->ze, dev->ze, &ld, &cb->list), "zeCommandListCreate");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandQueueCreate(ctx->ze, dev->ze, &qd, &cb->zq), "zeCommandQueueCreate");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeFenceCreate(cb->zq, &fd, &cb->fence), "zeFenceCreate");
    if (res == UR_RESULT_SUCCESS)
        res = l0_context_take_event(ctx, 0, &cb->start);
    if (res == UR_RESULT_SUCCESS)
        res = l0_context_take_event(ctx, 0, &cb->done);
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandListAppendBarrier(cb->list, NULL, 1, &cb->start),
                    "zeCommandListAppendBarrier");
    if (res != UR_RESULT_SUCCESS) {
        cb_destroy(cb);
        return res;
    }
    *phCommandBuffer = (ur_exp_command_buffer_handle_t)cb;
    return UR_RESULT_SUCCESS;
}

#define L0_CB(h) ((l0_cb_t *)(h))
URC_COMMAND_BUFFER_RETAIN_RELEASE(l0, L0_CB, cb_destroy)

/// Finalisation ends the list with the barrier that signals `done`, and closes it.
static ur_result_t cb_close(l0_cb_t *cb) {
    ur_result_t res = l0_ok(zeCommandListAppendBarrier(cb->list, cb->done, 0, NULL),
                            "zeCommandListAppendBarrier");
    return res != UR_RESULT_SUCCESS ? res
                                    : l0_ok(zeCommandListClose(cb->list), "zeCommandListClose");
}

URC_COMMAND_BUFFER_FINALIZE_INFO(l0, L0_CB, cb_close)

ur_result_t l0_command_buffer_get_native_handle_exp(ur_exp_command_buffer_handle_t hCommandBuffer,
                                                    ur_native_handle_t *phNativeCommandBuffer) {
    *phNativeCommandBuffer = (ur_native_handle_t)((l0_cb_t *)hCommandBuffer)->list;
    return UR_RESULT_SUCCESS;
}

// ---- appends ---------------------------------------------------------------------------------

// Grows a held-event array to room for `more`.
static bool events_room(l0_event_t ***arr, uint32_t n, uint32_t *cap, uint32_t more) {
    if (n + more <= *cap)
        return true;
    uint32_t c = (n + more) * 2;
    l0_event_t **grown = realloc(*arr, c * sizeof *grown);
    if (grown == NULL)
        return false;
    *arr = grown;
    *cap = c;
    return true;
}

ur_result_t l0_cb_event_new(l0_cb_t *cb, l0_event_t **out) {
    l0_event_t *e = URC_NEW(l0_event_t);
    if (e == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ur_result_t res = l0_context_take_event(cb->ctx, 0, &e->ze);
    if (res != UR_RESULT_SUCCESS) {
        free(e);
        return res;
    }
    e->ctx = cb->ctx;
    e->command = UR_COMMAND_ENQUEUE_COMMAND_BUFFER_EXP;
    atomic_init(&e->done, false);
    pthread_mutex_init(&e->lock, NULL);
    l0_context_retain_internal(cb->ctx);
    urc_object_init(&e->obj, &l0_ddi, URC_KIND_EVENT);
    *out = e;
    return UR_RESULT_SUCCESS;
}

/// An event's context for urc_cb_check_wait_list.
static const void *event_context(const void *h) {
    return l0_is(h, URC_KIND_EVENT) ? (const void *)L0_EVENT(h)->ctx : NULL;
}

ur_result_t l0_cb_wait_list(l0_cb_t *cb, uint32_t n, const ur_event_handle_t *events,
                            ze_event_handle_t **out) {
    *out = NULL;
    if (n == 0)
        return UR_RESULT_SUCCESS;
    ur_result_t res = urc_cb_check_wait_list(&cb->core, n, events, event_context);
    if (res != UR_RESULT_SUCCESS)
        return res;
    ze_event_handle_t *ze = urc_calloc(n, sizeof *ze);
    if (ze == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < n; ++i)
        ze[i] = L0_EVENT(events[i])->ze;
    *out = ze;
    return UR_RESULT_SUCCESS;
}

/// Starts an append (the buffer's lock held until append_end). Sync points need no native
/// form: the list runs in append order. Events: the command's own (phEvent) is made now; the
/// wait list becomes a barrier before the command unless `on_command` (a launch, which takes
/// its events itself, so that mutable command lists can update them).
static ur_result_t append_begin_events(l0_cb_t *cb, uint32_t n,
                                       const ur_exp_command_buffer_sync_point_t *sync,
                                       bool want_command, uint32_t num_events,
                                       const ur_event_handle_t *waits, ur_event_handle_t *phEvent,
                                       ur_exp_command_buffer_command_handle_t *phCommand,
                                       bool on_command) {
    if (phEvent != NULL)
        *phEvent = NULL;
    ze_event_handle_t *ze_waits = NULL;
    ur_result_t res = l0_cb_wait_list(cb, num_events, waits, &ze_waits);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = urc_cb_append_begin(&cb->core, n, sync, want_command, num_events > 0 || phEvent != NULL);
    if (res != UR_RESULT_SUCCESS) {
        free(ze_waits);
        return res;
    }
    // Only kernel commands get handles; others cannot be updated.
    if (phCommand != NULL)
        *phCommand = NULL;
    cb->pending_signal = NULL;
    cb->pending_out = phEvent;
    cb->pending_waits = waits;
    cb->pending_ze_waits = ze_waits;
    cb->pending_nwaits = num_events;
    cb->events_on_command = on_command;
    // Room first, so that nothing can fail once the command is in the list.
    if (!events_room(&cb->signals, cb->nsignals, &cb->signals_cap, 1) ||
        !events_room(&cb->waits, cb->nwaits, &cb->waits_cap, num_events))
        res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (res == UR_RESULT_SUCCESS && phEvent != NULL)
        res = l0_cb_event_new(cb, &cb->pending_signal);
    if (res == UR_RESULT_SUCCESS && num_events > 0 && !on_command)
        res = l0_ok(zeCommandListAppendBarrier(cb->list, NULL, num_events, ze_waits),
                    "zeCommandListAppendBarrier");
    if (res != UR_RESULT_SUCCESS) {
        if (cb->pending_signal != NULL)
            l0_event_release_created(cb->pending_signal);
        cb->pending_signal = NULL;
        free(ze_waits);
        cb->pending_ze_waits = NULL;
        return urc_cb_append_end(&cb->core, res, 0, NULL, NULL);
    }
    return UR_RESULT_SUCCESS;
}

static ur_result_t append_begin(l0_cb_t *cb, uint32_t n,
                                const ur_exp_command_buffer_sync_point_t *sync, bool want_command,
                                uint32_t num_events, const ur_event_handle_t *waits,
                                ur_event_handle_t *phEvent,
                                ur_exp_command_buffer_command_handle_t *phCommand) {
    return append_begin_events(cb, n, sync, want_command, num_events, waits, phEvent, phCommand,
                               false);
}

/// Ends an append: a barrier after the command keeps the list in order (and signals the
/// command's event unless the command does). `command` is the command's handle (NULL for
/// none), remembered for destruction with the buffer.
static ur_result_t append_end_command(l0_cb_t *cb, ur_result_t res, void *command,
                                      ur_exp_command_buffer_sync_point_t *pSyncPoint) {
    l0_event_t *signal = cb->pending_signal;
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(
            zeCommandListAppendBarrier(
                cb->list, signal != NULL && !cb->events_on_command ? signal->ze : NULL, 0, NULL),
            "zeCommandListAppendBarrier");
    if (res == UR_RESULT_SUCCESS) {
        // The buffer holds what its list signals and waits for as long as it lives.
        if (signal != NULL) {
            l0_event_retain_internal(signal);
            cb->signals[cb->nsignals++] = signal;
            *cb->pending_out = (ur_event_handle_t)signal;
        }
        for (uint32_t i = 0; i < cb->pending_nwaits; ++i) {
            l0_event_t *w = L0_EVENT(cb->pending_waits[i]);
            l0_event_retain_internal(w);
            cb->waits[cb->nwaits++] = w;
        }
    } else if (signal != NULL) {
        l0_event_release_created(signal);
    }
    cb->pending_signal = NULL;
    free(cb->pending_ze_waits);
    cb->pending_ze_waits = NULL;
    return urc_cb_append_end(&cb->core, res, cb->core.num_sync_points, command, pSyncPoint);
}

static ur_result_t append_end(l0_cb_t *cb, ur_result_t res,
                              ur_exp_command_buffer_sync_point_t *pSyncPoint) {
    return append_end_command(cb, res, NULL, pSyncPoint);
}

/// A kernel counts as of the buffer's context only where it is built for the buffer's device.
static bool kernel_context(ur_exp_command_buffer_handle_t h, ur_kernel_handle_t k,
                           const void **context) {
    if (!l0_is(k, URC_KIND_KERNEL))
        return false;
    if (l0_kernel_native(k, L0_CB(h)->dev) != NULL)
        *context = L0_KERNEL(k)->program->ctx;
    return true;
}

static ur_result_t append_kernel(ur_exp_command_buffer_handle_t h, const urc_append_kernel_t *k,
                                 const urc_append_sync_t *s) {
    l0_cb_t *cb = L0_CB(h);
    urc_cb_command_t snap;
    ur_result_t res = urc_append_kernel_record(&snap, &cb->core, h, k, kernel_context);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_cb_cmd_t *cmd = NULL;
    res = urc_append_command_new(&snap, &cb->core, k, s, sizeof *cmd, (void **)&cmd);
    if (res == UR_RESULT_SUCCESS)
        res = append_begin_events(cb, s->num_sync, s->sync, s->out_command != NULL, s->num_events,
                                  s->events, s->out_event, s->out_command, true);
    if (res != UR_RESULT_SUCCESS)
        return urc_append_command_discard(cmd, &snap, res);
    // The list runs the kernel's module code: the kernel (and so its program) stays alive as
    // long as the buffer.
    res = urc_cb_hold(&cb->core, k->kernel);
    if (res == UR_RESULT_SUCCESS)
        l0_kernel_retain(k->kernel);
    uint64_t id = 0;
    if (res == UR_RESULT_SUCCESS && cmd != NULL)
        res = l0_cb_next_command_id(cb, k->kernel, k->num_alternatives, k->alternatives, &id);
    if (res == UR_RESULT_SUCCESS)
        res = l0_kernel_append_launch(k->kernel, cb->ctx, cb->dev, k->work_dim, k->offset,
                                      k->global, k->local, k->num_args, k->args, cb->list,
                                      cb->pending_signal != NULL ? cb->pending_signal->ze : NULL,
                                      s->num_events, cb->pending_ze_waits);
    if (res != UR_RESULT_SUCCESS || cmd == NULL)
        return append_end(cb, urc_append_command_discard(cmd, &snap, res), s->out_sync);
    urc_object_init(&cmd->obj, &l0_ddi, URC_KIND_COMMAND_BUFFER_COMMAND);
    cmd->core = snap;
    cmd->buffer = cb;
    cmd->id = id;
    cmd->core.has_event = s->out_event != NULL;
    cmd->core.num_wait_events = s->num_events;
    cmd->signal = cb->pending_signal;
    for (uint32_t i = 0; i < snap.k.num_alternatives; ++i)
        l0_kernel_retain((ur_kernel_handle_t)snap.k.alternatives[i]);
    *s->out_command = (ur_exp_command_buffer_command_handle_t)cmd;
    return append_end_command(cb, UR_RESULT_SUCCESS, cmd, s->out_sync);
}

/// append_begin with the ordering parameters of a memory append (common/queue/command_append.h).
static ur_result_t append_begin_sync(l0_cb_t *cb, const urc_append_sync_t *s) {
    return append_begin(cb, s->num_sync, s->sync, s->out_command != NULL, s->num_events, s->events,
                        s->out_event, s->out_command);
}

static ur_result_t op_copy(ur_exp_command_buffer_handle_t h, void *dst, const void *src,
                           size_t size, const urc_append_sync_t *s) {
    l0_cb_t *cb = (l0_cb_t *)h;
    ur_result_t res = append_begin_sync(cb, s);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = l0_ok(zeCommandListAppendMemoryCopy(cb->list, dst, src, size, NULL, 0, NULL),
                "zeCommandListAppendMemoryCopy");
    return append_end(cb, res, s->out_sync);
}

static ur_result_t op_fill(ur_exp_command_buffer_handle_t h, void *dst, const void *pattern,
                           size_t psize, size_t size, const urc_append_sync_t *s) {
    l0_cb_t *cb = (l0_cb_t *)h;
    // The eager fill writes other patterns out on the host; a recorded fill has only the
    // engine, which takes powers of two up to its limit.
    if ((psize & (psize - 1)) != 0 || psize > cb->dev->max_fill_pattern)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "a fill pattern of %zu bytes (the engine fills powers of two up to "
                             "%zu)",
                             psize, cb->dev->max_fill_pattern);
    ur_result_t res = append_begin_sync(cb, s);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = l0_ok(zeCommandListAppendMemoryFill(cb->list, dst, pattern, psize, size, NULL, 0, NULL),
                "zeCommandListAppendMemoryFill");
    return append_end(cb, res, s->out_sync);
}

/// Level Zero takes 32-bit pitches and extents (checked after the rule table's checks).
static bool rect_fits(const urc_rect_side_t *side, const ur_rect_region_t *r) {
    return side->row <= UINT32_MAX && side->slice <= UINT32_MAX && r->width <= UINT32_MAX &&
           r->height <= UINT32_MAX && r->depth <= UINT32_MAX;
}

// The origins are folded into the pointers, so Level Zero sees regions at (0,0,0).
static ur_result_t op_rect(ur_exp_command_buffer_handle_t h, const urc_append_rect_t *dst,
                           const urc_append_rect_t *src, const ur_rect_region_t *r,
                           const urc_append_sync_t *s) {
    l0_cb_t *cb = (l0_cb_t *)h;
    if (!rect_fits(&dst->side, r) || !rect_fits(&src->side, r))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "rectangular copy: Level Zero takes 32-bit pitches and extents");
    ur_result_t res = append_begin_sync(cb, s);
    if (res != UR_RESULT_SUCCESS)
        return res;
    ze_copy_region_t region = {
        0, 0, 0, (uint32_t)r->width, (uint32_t)r->height, (uint32_t)r->depth};
    res =
        l0_ok(zeCommandListAppendMemoryCopyRegion(
                  cb->list, (char *)dst->base + dst->side.offset, &region, (uint32_t)dst->side.row,
                  (uint32_t)dst->side.slice, (const char *)src->base + src->side.offset, &region,
                  (uint32_t)src->side.row, (uint32_t)src->side.slice, NULL, 0, NULL),
              "zeCommandListAppendMemoryCopyRegion");
    return append_end(cb, res, s->out_sync);
}

/// Prefetch and advice: hints that only need their place in the order.
static ur_result_t op_hint(ur_exp_command_buffer_handle_t h, const urc_append_sync_t *s) {
    l0_cb_t *cb = (l0_cb_t *)h;
    ur_result_t res = append_begin_sync(cb, s);
    return res != UR_RESULT_SUCCESS ? res : append_end(cb, UR_RESULT_SUCCESS, s->out_sync);
}

static urc_cb_t *op_buffer(ur_exp_command_buffer_handle_t h) {
    return l0_is(h, URC_KIND_COMMAND_BUFFER) ? &((l0_cb_t *)h)->core : NULL;
}

static bool op_mem(ur_mem_handle_t m, void **base, size_t *size, const void **context) {
    if (!l0_is(m, URC_KIND_MEM))
        return false;
    *base = L0_MEM(m)->ptr;
    *size = L0_MEM(m)->size;
    *context = L0_MEM(m)->ctx;
    return true;
}

#define APPEND_KERNEL append_kernel
#define PREFIX        l0
#include "queue/command_append_entry_points.inc"
#include "queue/command_append_kernel.inc"

/// The callback records into the buffer's command list (what urCommandBufferGetNativeHandleExp
/// gives, as in UR's adapter) between two barriers; the list runs in order anyway, so the
/// barriers only keep the user's commands from being reordered by a driver. A child buffer is
/// not used (UR's Level Zero adapter ignores it too).
ur_result_t l0_command_buffer_append_native_command_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer,
    ur_exp_command_buffer_native_command_function_t pfnNativeCommand, void *pData,
    ur_exp_command_buffer_handle_t hChildCommandBuffer, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList,
    ur_exp_command_buffer_sync_point_t *pSyncPoint) {
    (void)hChildCommandBuffer; // unused; the generated checks saw that it is a command buffer
    l0_cb_t *cb = (l0_cb_t *)hCommandBuffer;
    ur_result_t res =
        append_begin(cb, numSyncPointsInWaitList, pSyncPointWaitList, false, 0, NULL, NULL, NULL);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = l0_ok(zeCommandListAppendBarrier(cb->list, NULL, 0, NULL), "zeCommandListAppendBarrier");
    if (res == UR_RESULT_SUCCESS)
        pfnNativeCommand(pData);
    return append_end(cb, res, pSyncPoint);
}

// ---- runs ------------------------------------------------------------------------------------

ur_result_t l0_enqueue_command_buffer_exp(ur_queue_handle_t hQueue,
                                          ur_exp_command_buffer_handle_t hCommandBuffer,
                                          uint32_t numEventsInWaitList,
                                          const ur_event_handle_t *phEventWaitList,
                                          ur_event_handle_t *phEvent) {
    l0_queue_t *q = L0_QUEUE(hQueue);
    l0_cb_t *cb = (l0_cb_t *)hCommandBuffer;
    ur_result_t res = urc_cb_check_enqueue(&cb->core, q->ctx == cb->ctx && q->dev == cb->dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // The list's start and done events are the buffer's own, so a run starts after the last
    // one ended (the last run's barriers are submitted, so the wait ends).
    pthread_mutex_lock(&cb->run_lock);
    if (cb->ran) {
        res = l0_ok(zeFenceHostSynchronize(cb->fence, UINT64_MAX), "zeFenceHostSynchronize");
        if (res == UR_RESULT_SUCCESS)
            res = l0_ok(zeFenceReset(cb->fence), "zeFenceReset");
        if (res == UR_RESULT_SUCCESS)
            res = l0_ok(zeEventHostReset(cb->start), "zeEventHostReset");
        if (res == UR_RESULT_SUCCESS)
            res = l0_ok(zeEventHostReset(cb->done), "zeEventHostReset");
    }
    // The commands' events are signalled anew by this run.
    for (uint32_t i = 0; cb->ran && res == UR_RESULT_SUCCESS && i < cb->nsignals; ++i) {
        res = l0_ok(zeEventHostReset(cb->signals[i]->ze), "zeEventHostReset");
        atomic_store_explicit(&cb->signals[i]->done, false, memory_order_release);
    }
    // Events the list waits for must be on their way to the device (regular queues batch).
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < cb->nwaits; ++i)
        res = l0_event_submit(cb->waits[i]);
    l0_op_t op;
    if (res == UR_RESULT_SUCCESS)
        res = l0_op_begin(q, UR_COMMAND_ENQUEUE_COMMAND_BUFFER_EXP, numEventsInWaitList,
                          phEventWaitList, &op);
    if (res != UR_RESULT_SUCCESS) {
        pthread_mutex_unlock(&cb->run_lock);
        return res;
    }
    res = l0_ok(zeCommandListAppendBarrier(op.list, cb->start, op.nwaits, op.waits),
                "zeCommandListAppendBarrier");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandListAppendBarrier(op.list, op.event->ze, 1, &cb->done),
                    "zeCommandListAppendBarrier");
    // The run's event is kept until the caller's batch holding the barriers has gone out: the
    // buffer's list waits for the first barrier, and the next run for this one's fence.
    ur_event_handle_t ev = NULL;
    res = l0_op_end(&op, res, false, &ev);
    if (res == UR_RESULT_SUCCESS)
        res = l0_event_submit(L0_EVENT(ev));
    bool barriers_out = res == UR_RESULT_SUCCESS;
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandQueueExecuteCommandLists(cb->zq, 1, &cb->list, cb->fence),
                    "zeCommandQueueExecuteCommandLists");
    if (res == UR_RESULT_SUCCESS)
        cb->ran = true;
    else if (barriers_out)
        (void)zeEventHostSignal(cb->done); // nothing will run: release the waiting barrier
    pthread_mutex_unlock(&cb->run_lock);
    if (res == UR_RESULT_SUCCESS && phEvent != NULL)
        *phEvent = ev;
    else if (ev != NULL)
        l0_event_release(ev);
    return res;
}
