// SPDX-License-Identifier: MIT
// urEvent*: a UR event is one Level Zero event from the context's cache, signalled by its
// command. Profiling events come from pools with kernel timestamps; their times are put on one
// nanosecond timeline with the device timer read at enqueue.
#include <stdlib.h>

#include "queue/event_callbacks.h"
#include "l0_internal.h"
#include "core/release.h"

ur_result_t l0_event_create(l0_queue_t *q, ur_command_t command, l0_event_t **out) {
    l0_event_t *e = URC_NEW(l0_event_t);
    if (e == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    e->cache = q->profiling ? 1 : 0;
    ur_result_t res = l0_context_take_event(q->ctx, e->cache, &e->ze);
    if (res != UR_RESULT_SUCCESS) {
        free(e);
        return res;
    }
    e->ctx = q->ctx;
    e->queue = q;
    e->command = command;
    e->profiling = q->profiling;
    atomic_init(&e->done, false);
    pthread_mutex_init(&e->lock, NULL);
    l0_context_retain_internal(q->ctx);
    l0_queue_retain_internal(q);
    urc_object_init(&e->obj, &l0_ddi, URC_KIND_EVENT);
    *out = e;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_event_add_dep(l0_event_t *e, l0_event_t *dep) {
    pthread_mutex_lock(&e->lock);
    l0_event_t **deps = realloc(e->deps, (e->ndeps + 1) * sizeof *deps);
    if (deps != NULL) {
        deps[e->ndeps++] = dep;
        e->deps = deps;
        l0_event_retain_internal(dep);
    }
    pthread_mutex_unlock(&e->lock);
    return deps != NULL ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
}

void l0_event_drop_deps(l0_event_t *e) {
    pthread_mutex_lock(&e->lock);
    l0_event_t **deps = e->deps;
    uint32_t n = e->ndeps;
    e->deps = NULL;
    e->ndeps = 0;
    pthread_mutex_unlock(&e->lock);
    // Released outside the lock: a dependency's destruction may drop its own dependencies.
    for (uint32_t i = 0; i < n; ++i)
        l0_event_release_internal(deps[i]);
    free(deps);
}

bool l0_event_done(l0_event_t *e) {
    if (atomic_load_explicit(&e->done, memory_order_acquire))
        return true;
    if (zeEventQueryStatus(e->ze) != ZE_RESULT_SUCCESS)
        return false;
    atomic_store_explicit(&e->done, true, memory_order_release);
    return true;
}

ur_result_t l0_event_host_wait(l0_event_t *e) {
    if (l0_event_done(e))
        return UR_RESULT_SUCCESS;
    ur_result_t res = l0_event_submit(e);
    if (res != UR_RESULT_SUCCESS)
        return res;
    for (;;) {
        // UINT64_MAX waits forever; a driver that caps it (the simulator's hang guard) answers
        // NOT_READY, and the wait goes on.
        ze_result_t r = zeEventHostSynchronize(e->ze, UINT64_MAX);
        if (r == ZE_RESULT_SUCCESS)
            break;
        if (r != ZE_RESULT_NOT_READY)
            return l0_error(r, "zeEventHostSynchronize");
    }
    atomic_store_explicit(&e->done, true, memory_order_release);
    return UR_RESULT_SUCCESS;
}

void l0_event_keep_kernel(l0_event_t *e, l0_kernel_t *k) {
    urc_hold(&k->obj);
    e->kernel = k;
}

void l0_event_keep_program(l0_event_t *e, l0_program_t *p) {
    l0_program_retain_internal(p);
    e->program = p;
}

static void event_destroy(l0_event_t *e) {
    if (e->reusable != NULL)
        l0_reusable_fini(e);
    l0_event_drop_deps(e);
    free(e->free_when_done);
    if (e->kernel != NULL)
        l0_kernel_release_internal(e->kernel);
    if (e->program != NULL)
        l0_program_release_internal(e->program);
    // The queue kept the event until the device signalled it, so nothing can still use the
    // Level Zero event: it is reset and reused.
    if (e->cache >= 0)
        l0_context_give_event(e->ctx, e->cache, e->ze);
    else if (e->owns_native)
        (void)l0_ok(zeEventDestroy(e->ze), "zeEventDestroy");
    if (e->queue != NULL)
        l0_queue_release_internal(e->queue);
    l0_context_release_internal(e->ctx);
    pthread_mutex_destroy(&e->lock);
    URC_OBJECT_FREE(e);
}

void l0_event_retain_internal(l0_event_t *e) {
    urc_hold(&e->obj);
}

void l0_event_release_internal(l0_event_t *e) {
    if (e != NULL && urc_unhold(&e->obj))
        event_destroy(e);
}

void l0_event_release_created(l0_event_t *e) {
    // A reusable event leaves the registry with its last user reference (reusable_event.h).
    urc_release_t r =
        e->reusable != NULL ? urc_reusable_user_release(e->reusable) : urc_user_release(&e->obj);
    if (r == URC_RELEASE_DESTROY)
        event_destroy(e);
}

static ur_event_status_t status(l0_event_t *e) {
    if (l0_event_done(e))
        return UR_EVENT_STATUS_COMPLETE;
    if (e->queue != NULL && e->batch > atomic_load(&e->queue->sent))
        return UR_EVENT_STATUS_QUEUED; // recorded in a batch not yet executed
    return UR_EVENT_STATUS_SUBMITTED;
}

ur_result_t l0_event_get_info(ur_event_handle_t hEvent, ur_event_info_t propName, size_t propSize,
                              void *pPropValue, size_t *pPropSizeRet) {
    l0_event_t *e = L0_EVENT(hEvent);
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    if (e->reusable != NULL && (propName == UR_EVENT_INFO_COMMAND_QUEUE ||
                                propName == UR_EVENT_INFO_COMMAND_EXECUTION_STATUS)) {
        // Its latest signal's queue and status; before the first, none and complete.
        l0_event_t *inner = l0_reusable_current(e);
        ur_result_t res;
        if (propName == UR_EVENT_INFO_COMMAND_QUEUE) {
            res = urc_info_ptr(&out, inner != NULL ? inner->queue : NULL);
        } else {
            ur_event_status_t st = inner != NULL ? status(inner) : UR_EVENT_STATUS_COMPLETE;
            res = urc_info_bytes(&out, &st, sizeof st);
        }
        if (inner != NULL)
            l0_event_release_internal(inner);
        return res;
    }
    switch (propName) {
    case UR_EVENT_INFO_COMMAND_QUEUE:
        return urc_info_ptr(&out, e->queue); // NULL for an event made from a native one
    case UR_EVENT_INFO_CONTEXT:
        return urc_info_ptr(&out, e->ctx);
    case UR_EVENT_INFO_COMMAND_TYPE:
        return urc_info_bytes(&out, &e->command, sizeof e->command);
    case UR_EVENT_INFO_REFERENCE_COUNT:
        return urc_info_u32(&out, urc_refcount(&e->obj));
    case UR_EVENT_INFO_COMMAND_EXECUTION_STATUS: {
        ur_event_status_t s = status(e);
        return urc_info_bytes(&out, &s, sizeof s);
    }
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

// Kernel timestamps keep only the low kernel_ts_mask bits. The full value is the one closest
// to `near` (a full timer value known to be close: the enqueue time, or the start).
static uint64_t unwrap(uint64_t value, uint64_t near, uint64_t mask) {
    if (mask == UINT64_MAX)
        return value;
    uint64_t span = mask + 1, half = span / 2;
    uint64_t v = (near & ~mask) | (value & mask);
    if (v + half < near)
        v += span;
    else if (v > near + half && v >= span)
        v -= span;
    return v;
}

ur_result_t l0_event_get_profiling_info(ur_event_handle_t hEvent, ur_profiling_info_t propName,
                                        size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    l0_event_t *e = L0_EVENT(hEvent);
    if (e->reusable != NULL) {
        // Its latest signal's times, when the signalling queue profiles.
        l0_event_t *inner = l0_reusable_current(e);
        if (inner == NULL)
            return UR_RESULT_ERROR_PROFILING_INFO_NOT_AVAILABLE;
        ur_result_t res = l0_event_get_profiling_info((ur_event_handle_t)inner, propName, propSize,
                                                      pPropValue, pPropSizeRet);
        l0_event_release_internal(inner);
        return res;
    }
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    if (!e->profiling || e->queue == NULL)
        return UR_RESULT_ERROR_PROFILING_INFO_NOT_AVAILABLE;
    const l0_device_t *dev = e->queue->dev;
    // UR's adapter answers 0 for these; urc keeps the device timer at enqueue.
    if (propName == UR_PROFILING_INFO_COMMAND_QUEUED ||
        propName == UR_PROFILING_INFO_COMMAND_SUBMIT)
        return urc_info_u64(&out, (uint64_t)((double)e->queued_ticks * dev->ns_per_tick));
    if (propName != UR_PROFILING_INFO_COMMAND_START && propName != UR_PROFILING_INFO_COMMAND_END &&
        propName != UR_PROFILING_INFO_COMMAND_COMPLETE)
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    if (!l0_event_done(e))
        return urc_error_set(UR_RESULT_ERROR_PROFILING_INFO_NOT_AVAILABLE, 0,
                             "the command has not completed");
    ze_kernel_timestamp_result_t ts;
    ur_result_t res = l0_ok(zeEventQueryKernelTimestamp(e->ze, &ts), "zeEventQueryKernelTimestamp");
    if (res != UR_RESULT_SUCCESS)
        return res;
    uint64_t start = unwrap(ts.global.kernelStart, e->queued_ticks, dev->kernel_ts_mask);
    uint64_t end = unwrap(ts.global.kernelEnd, start, dev->kernel_ts_mask);
    // Keep queued <= start <= end on the one timeline.
    if (start < e->queued_ticks)
        start = e->queued_ticks;
    if (end < start)
        end = start;
    uint64_t ticks = propName == UR_PROFILING_INFO_COMMAND_START ? start : end;
    return urc_info_u64(&out, (uint64_t)((double)ticks * dev->ns_per_tick));
}

ur_result_t l0_event_wait(uint32_t numEvents, const ur_event_handle_t *phEventWaitList) {
    // Reusable events wait for their latest signals (reusable_event.c).
    l0_wait_view_t view;
    ur_result_t res =
        l0_wait_view_init(&view, numEvents, phEventWaitList, UR_RESULT_ERROR_INVALID_EVENT);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // Every batch first, so that no wait below blocks on a command still being recorded.
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < view.count; ++i)
        res = l0_event_submit(L0_EVENT(view.events[i]));
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < view.count; ++i)
        res = l0_event_host_wait(L0_EVENT(view.events[i]));
    l0_wait_view_fini(&view);
    return res;
}

URC_RETAIN_RELEASE_BY(l0_event, ur_event_handle_t, L0_EVENT, URC_EVENT_USER_RELEASE,
                      UR_RESULT_ERROR_INVALID_EVENT, "urEventRelease", event_destroy)

ur_result_t l0_event_get_native_handle(ur_event_handle_t hEvent,
                                       ur_native_handle_t *phNativeEvent) {
    l0_event_t *e = L0_EVENT(hEvent);
    if (e->reusable != NULL) {
        // Its latest signal's, valid until the next signal; none before the first.
        l0_event_t *inner = l0_reusable_current(e);
        *phNativeEvent = (ur_native_handle_t)(inner != NULL ? inner->ze : NULL);
        if (inner != NULL)
            l0_event_release_internal(inner);
        return UR_RESULT_SUCCESS;
    }
    *phNativeEvent = (ur_native_handle_t)e->ze;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_event_create_with_native_handle(ur_native_handle_t hNativeEvent,
                                               ur_context_handle_t hContext,
                                               const ur_event_native_properties_t *pProperties,
                                               ur_event_handle_t *phEvent) {
    l0_event_t *e = URC_NEW(l0_event_t);
    if (e == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    e->ctx = L0_CONTEXT(hContext);
    e->command = UR_COMMAND_EVENTS_WAIT;
    e->ze = (ze_event_handle_t)hNativeEvent;
    e->cache = -1;
    // Native handle 0 gives an event that is already complete, as in UR: SYCL and test
    // harnesses use it as a ready-made entry for wait lists. It has no Level Zero event.
    bool complete = hNativeEvent == 0;
    e->owns_native = !complete && pProperties != NULL && pProperties->isNativeHandleOwned;
    atomic_init(&e->done, complete);
    pthread_mutex_init(&e->lock, NULL);
    l0_context_retain_internal(e->ctx);
    urc_object_init(&e->obj, &l0_ddi, URC_KIND_EVENT);
    *phEvent = (ur_event_handle_t)e;
    return UR_RESULT_SUCCESS;
}

// ---- urEventSetCallback ----
//
// Level Zero has no event callbacks (UR's adapters answer UNSUPPORTED_FEATURE): the events with
// pending callbacks are polled with zeEventQueryStatus from one adapter thread
// (common/queue/event_callbacks).

static urc_event_poll_t poll_one(l0_event_t *e);

// A reusable event calls back at its latest signal's status.
static urc_event_poll_t callback_poll(ur_event_handle_t hEvent) {
    l0_event_t *e = L0_EVENT(hEvent);
    if (e->reusable == NULL)
        return poll_one(e);
    l0_event_t *inner = l0_reusable_current(e);
    if (inner == NULL)
        return URC_EVENT_COMPLETE;
    urc_event_poll_t p = poll_one(inner);
    l0_event_release_internal(inner);
    return p;
}

static urc_event_poll_t poll_one(l0_event_t *e) {
    if (atomic_load_explicit(&e->done, memory_order_acquire))
        return URC_EVENT_COMPLETE;
    ze_result_t r = zeEventQueryStatus(e->ze);
    if (r == ZE_RESULT_NOT_READY)
        return URC_EVENT_PENDING;
    if (r != ZE_RESULT_SUCCESS)
        return URC_EVENT_FAILED; // a lost device: the command will not progress any further
    atomic_store_explicit(&e->done, true, memory_order_release);
    return URC_EVENT_COMPLETE;
}

static void callback_retain(ur_event_handle_t hEvent) {
    l0_event_retain_internal(L0_EVENT(hEvent));
}

static void callback_release(ur_event_handle_t hEvent) {
    l0_event_release_internal(L0_EVENT(hEvent));
}

// A command recorded in a batch not yet executed would never signal its event: a callback
// counts as a wait, and sends the batch (so SUBMITTED is true from then on).
static ur_result_t callback_arm(ur_event_handle_t hEvent) {
    l0_event_t *e = L0_EVENT(hEvent);
    if (e->reusable == NULL)
        return l0_event_submit(e);
    l0_event_t *inner = l0_reusable_current(e);
    ur_result_t res = inner != NULL ? l0_event_submit(inner) : UR_RESULT_SUCCESS;
    if (inner != NULL)
        l0_event_release_internal(inner);
    return res;
}

static const urc_callback_ops_t callback_ops = {callback_poll, callback_retain, callback_release,
                                                callback_arm};
static urc_callback_engine_t callbacks = URC_CALLBACK_ENGINE_INIT(&callback_ops);

ur_result_t l0_event_set_callback(ur_event_handle_t hEvent, ur_execution_info_t execStatus,
                                  ur_event_callback_t pfnNotify, void *pUserData) {
    return urc_callback_engine_add(&callbacks, hEvent, execStatus, pfnNotify, pUserData);
}

void l0_callbacks_stop(bool drain) {
    urc_callback_engine_stop(&callbacks, drain);
}

// The loader may unload the adapter without its last urAdapterRelease (urLoaderTearDown): the
// thread must not outlive the code it runs. Callbacks still pending then are dropped.
__attribute__((destructor)) static void callbacks_fini(void) {
    urc_callback_engine_stop(&callbacks, false);
}
