// SPDX-License-Identifier: MIT
// Events: a cl_event, the command type it was made for, its context and queue (retained).
// Also the helpers every enqueue uses to translate wait lists and wrap returned events.
#include <stdlib.h>

#include "core/alloc.h"
#include "ocl_internal.h"
#include "core/release.h"

// cl_intel_global_variable_access command types (not in our CL headers).
#define OCL_COMMAND_READ_GLOBAL_VARIABLE_INTEL  0x418E
#define OCL_COMMAND_WRITE_GLOBAL_VARIABLE_INTEL 0x418F

// Room for what the list may hold: a reusable event's signal and a bridge per entry.
static bool hold_room(ocl_wait_list_t *wl) {
    if (wl->bridges == NULL)
        wl->bridges = urc_calloc((size_t)wl->count * 2, sizeof *wl->bridges);
    return wl->bridges != NULL;
}

ur_result_t ocl_wait_list_init(ocl_wait_list_t *wl, uint32_t count,
                               const ur_event_handle_t *events) {
    wl->count = count;
    wl->events = NULL;
    wl->bridges = NULL;
    wl->nbridges = 0;
    if (count == 0)
        return UR_RESULT_SUCCESS;
    wl->events = count <= 8 ? wl->inline_events : urc_calloc(count, sizeof(cl_event));
    if (wl->events == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < count; ++i) {
        if (!ocl_is(events[i], URC_KIND_EVENT)) {
            ocl_wait_list_fini(wl);
            return urc_error_set(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST, 0,
                                 "wait-list entry %u is not an OpenCL adapter event", i);
        }
        if (events[i]->reusable == NULL) {
            wl->events[i] = events[i]->cl;
            continue;
        }
        // Its latest signal, kept by the list: a signal meanwhile may release it.
        if (!hold_room(wl)) {
            ocl_wait_list_fini(wl);
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        wl->events[i] = wl->bridges[wl->nbridges++] = ocl_event_native(events[i]);
    }
    return UR_RESULT_SUCCESS;
}

// Completes a bridge (with the foreign event's error, if it failed) and drops its reference.
static void CL_CALLBACK complete_bridge(cl_event foreign, cl_int status, void *data) {
    (void)foreign;
    cl_event user = data;
    clSetUserEventStatus(user, status < 0 ? status : CL_COMPLETE);
    clReleaseEvent(user);
}

// A user event of `ctx` that completes when `foreign` (of another context) does.
static cl_int bridge(cl_context ctx, cl_event foreign, cl_event *out) {
    cl_int err = CL_SUCCESS;
    cl_event user = clCreateUserEvent(ctx, &err);
    if (err != CL_SUCCESS)
        return err;
    clRetainEvent(user); // the callback's reference
    err = clSetEventCallback(foreign, CL_COMPLETE, complete_bridge, user);
    if (err != CL_SUCCESS) {
        clReleaseEvent(user);
        clReleaseEvent(user);
        return err;
    }
    *out = user;
    return CL_SUCCESS;
}

ur_result_t ocl_wait_list_for_queue(ocl_wait_list_t *wl, ur_queue_handle_t queue, uint32_t count,
                                    const ur_event_handle_t *events) {
    OCL_CHECK_HANDLE(queue, URC_KIND_QUEUE, UR_RESULT_ERROR_INVALID_QUEUE);
    OCL_TRY_UR(ocl_wait_list_init(wl, count, events));
    for (uint32_t i = 0; i < count; ++i) {
        if (events[i]->context->cl == queue->context->cl)
            continue;
        if (!hold_room(wl)) {
            ocl_wait_list_fini(wl);
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        cl_int err = bridge(queue->context->cl, wl->events[i], &wl->bridges[wl->nbridges]);
        if (err != CL_SUCCESS) {
            ocl_wait_list_fini(wl);
            return ocl_fail(err, "clCreateUserEvent");
        }
        wl->events[i] = wl->bridges[wl->nbridges++];
    }
    return UR_RESULT_SUCCESS;
}

void ocl_wait_list_fini(ocl_wait_list_t *wl) {
    // The enqueued command holds its own references to the bridges it waits for.
    for (cl_uint i = 0; i < wl->nbridges; ++i)
        clReleaseEvent(wl->bridges[i]);
    free(wl->bridges);
    wl->bridges = NULL;
    wl->nbridges = 0;
    if (wl->events != NULL && wl->events != wl->inline_events)
        free(wl->events);
    wl->events = NULL;
    wl->count = 0;
}

ur_result_t ocl_event_make(ur_context_handle_t context, ur_queue_handle_t queue, cl_event cl,
                           ur_command_t command, bool owns, ur_event_handle_t *out) {
    ur_event_handle_t e = URC_NEW(struct ur_event_handle_t_);
    if (e == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    urc_object_init(&e->obj, &ocl_ddi, URC_KIND_EVENT);
    e->cl = cl;
    e->context = context;
    e->command = command;
    e->owns_native = owns;
    ocl_context_retain_internal(context);
    if (queue != NULL)
        urc_hold(&queue->obj);
    atomic_init(&e->queue, queue);
    *out = e;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_event_wrap(ur_queue_handle_t queue, ur_command_t command, cl_event cl,
                           ur_event_handle_t *out) {
    if (out == NULL)
        return UR_RESULT_SUCCESS;
    ur_result_t result = ocl_event_make(queue->context, queue, cl, command, true, out);
    if (result != UR_RESULT_SUCCESS) {
        // The command was enqueued; only its handle cannot be returned.
        clReleaseEvent(cl);
        *out = NULL;
    }
    return result;
}

ur_result_t ocl_enqueue_done(cl_int err, const char *what, ocl_wait_list_t *wl,
                             ur_queue_handle_t queue, ur_command_t command, cl_event cl,
                             ur_event_handle_t *out) {
    ocl_wait_list_fini(wl);
    // On failure no event exists and none is returned (UR wrapped an uninitialised one).
    if (err != CL_SUCCESS)
        return ocl_fail(err, what);
    return ocl_event_wrap(queue, command, cl, out);
}

static void event_destroy(ur_event_handle_t e) {
    if (e->owns_native)
        clReleaseEvent(e->cl);
    urc_reusable_delete(e->reusable);
    if (e->assert_program != NULL)
        ocl_program_release_internal(e->assert_program);
    ur_queue_handle_t q = atomic_load(&e->queue);
    if (q != NULL)
        ocl_queue_release_internal(q);
    ocl_context_release_internal(e->context);
    URC_OBJECT_FREE(e);
}

void ocl_event_release_internal(ur_event_handle_t e) {
    if (urc_unhold(&e->obj))
        event_destroy(e);
}

URC_RETAIN_RELEASE_BY(ocl_event, ur_event_handle_t, , URC_EVENT_USER_RELEASE,
                      UR_RESULT_ERROR_INVALID_EVENT, "urEventRelease", event_destroy)

/// The command behind `e` is known to have completed: its fallback assert record, and those of
/// other completed assert-marked launches on its queue, are read (assert.c).
static ur_result_t event_completed(ur_event_handle_t e) {
    if (e->reusable != NULL) {
        // Its queue changes at each signal: held while it is looked at.
        pthread_mutex_lock(&e->reusable->lock);
        ur_queue_handle_t q = atomic_load(&e->queue);
        if (q != NULL)
            urc_hold(&q->obj);
        pthread_mutex_unlock(&e->reusable->lock);
        if (q == NULL)
            return UR_RESULT_SUCCESS;
        ur_result_t swept = ocl_assert_observe(q, false);
        ocl_queue_release_internal(q);
        return swept;
    }
    ur_queue_handle_t q = atomic_load(&e->queue);
    if (q == NULL)
        return UR_RESULT_SUCCESS;
    ur_result_t result = UR_RESULT_SUCCESS;
    if (e->assert_program != NULL)
        result = ocl_assert_check_program(q, e->assert_program);
    ur_result_t swept = ocl_assert_observe(q, false);
    return result != UR_RESULT_SUCCESS ? result : swept;
}

ur_result_t ocl_event_wait(uint32_t numEvents, const ur_event_handle_t *phEventWaitList) {
    for (uint32_t i = 0; i < numEvents; ++i)
        OCL_CHECK_HANDLE(phEventWaitList[i], URC_KIND_EVENT, UR_RESULT_ERROR_INVALID_EVENT);
    // clWaitForEvents takes events of one context: wait for each run of same-context events.
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_init(&wl, numEvents, phEventWaitList));
    cl_int err = CL_SUCCESS;
    for (uint32_t start = 0, i = 1; err == CL_SUCCESS && start < numEvents; ++i) {
        if (i == numEvents || phEventWaitList[i]->context != phEventWaitList[start]->context) {
            err = clWaitForEvents(i - start, wl.events + start);
            start = i;
        }
    }
    ocl_wait_list_fini(&wl);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clWaitForEvents");
    ur_result_t result = UR_RESULT_SUCCESS;
    for (uint32_t i = 0; i < numEvents && result == UR_RESULT_SUCCESS; ++i)
        result = event_completed(phEventWaitList[i]);
    return result;
}

/// The UR command type of an OpenCL command type, for events made from native handles.
static ur_command_t command_of(cl_command_type t) {
    switch (t) {
    case CL_COMMAND_NDRANGE_KERNEL:
    case CL_COMMAND_TASK:
        return UR_COMMAND_KERNEL_LAUNCH;
    case CL_COMMAND_MARKER:
        return UR_COMMAND_EVENTS_WAIT;
    case CL_COMMAND_BARRIER:
        return UR_COMMAND_EVENTS_WAIT_WITH_BARRIER;
    case CL_COMMAND_READ_BUFFER:
        return UR_COMMAND_MEM_BUFFER_READ;
    case CL_COMMAND_WRITE_BUFFER:
        return UR_COMMAND_MEM_BUFFER_WRITE;
    case CL_COMMAND_READ_BUFFER_RECT:
        return UR_COMMAND_MEM_BUFFER_READ_RECT;
    case CL_COMMAND_WRITE_BUFFER_RECT:
        return UR_COMMAND_MEM_BUFFER_WRITE_RECT;
    case CL_COMMAND_COPY_BUFFER:
        return UR_COMMAND_MEM_BUFFER_COPY;
    case CL_COMMAND_COPY_BUFFER_RECT:
        return UR_COMMAND_MEM_BUFFER_COPY_RECT;
    case CL_COMMAND_FILL_BUFFER:
        return UR_COMMAND_MEM_BUFFER_FILL;
    case CL_COMMAND_READ_IMAGE:
        return UR_COMMAND_MEM_IMAGE_READ;
    case CL_COMMAND_WRITE_IMAGE:
        return UR_COMMAND_MEM_IMAGE_WRITE;
    case CL_COMMAND_COPY_IMAGE:
        return UR_COMMAND_MEM_IMAGE_COPY;
    case CL_COMMAND_MAP_BUFFER:
        return UR_COMMAND_MEM_BUFFER_MAP;
    case CL_COMMAND_UNMAP_MEM_OBJECT:
        return UR_COMMAND_MEM_UNMAP;
    case CL_COMMAND_MEMFILL_INTEL:
        return UR_COMMAND_USM_FILL;
    case CL_COMMAND_MEMCPY_INTEL:
        return UR_COMMAND_USM_MEMCPY;
    case CL_COMMAND_MIGRATEMEM_INTEL:
        return UR_COMMAND_USM_PREFETCH;
    case CL_COMMAND_MEMADVISE_INTEL:
        return UR_COMMAND_USM_ADVISE;
    case OCL_COMMAND_READ_GLOBAL_VARIABLE_INTEL:
        return UR_COMMAND_DEVICE_GLOBAL_VARIABLE_READ;
    case OCL_COMMAND_WRITE_GLOBAL_VARIABLE_INTEL:
        return UR_COMMAND_DEVICE_GLOBAL_VARIABLE_WRITE;
    default:
        return UR_COMMAND_FORCE_UINT32;
    }
}

/// The event's queue; for an event made from a native handle, a handle for its native
/// queue is made on first use (NULL for user events, which have none).
static ur_result_t event_queue(ur_event_handle_t e, ur_queue_handle_t *out) {
    *out = atomic_load(&e->queue);
    if (*out != NULL)
        return UR_RESULT_SUCCESS;
    if (e->reusable != NULL)
        return UR_RESULT_SUCCESS; // not signalled yet
    cl_command_queue cl = NULL;
    OCL_TRY("clGetEventInfo", clGetEventInfo(e->cl, CL_EVENT_COMMAND_QUEUE, sizeof cl, &cl, NULL));
    if (cl == NULL)
        return UR_RESULT_SUCCESS;
    ur_queue_handle_t made = NULL;
    OCL_TRY_UR(ocl_queue_wrap_native(e->context, cl, &made));
    urc_user_to_hold(&made->obj); // the event's, not the user's
    ur_queue_handle_t expected = NULL;
    // Two threads may race here; the loser drops its handle and uses the winner's.
    if (!atomic_compare_exchange_strong(&e->queue, &expected, made)) {
        ocl_queue_release_internal(made);
        made = expected;
    }
    *out = made;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_event_get_info(ur_event_handle_t hEvent, ur_event_info_t propName, size_t propSize,
                               void *pPropValue, size_t *pPropSizeRet) {
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_EVENT_INFO_COMMAND_QUEUE: {
        ur_queue_handle_t q = NULL;
        OCL_TRY_UR(event_queue(hEvent, &q));
        return urc_info_ptr(&out, q);
    }
    case UR_EVENT_INFO_CONTEXT:
        return urc_info_ptr(&out, hEvent->context);
    case UR_EVENT_INFO_COMMAND_TYPE: {
        ur_command_t command = hEvent->command;
        if (command == UR_COMMAND_FORCE_UINT32) {
            cl_command_type t = 0;
            OCL_TRY("clGetEventInfo",
                    clGetEventInfo(hEvent->cl, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
            command = command_of(t);
        }
        return urc_info_bytes(&out, &command, sizeof command);
    }
    case UR_EVENT_INFO_COMMAND_EXECUTION_STATUS: {
        // CL_COMPLETE..CL_QUEUED are 0..3 like UR's statuses; negative values are errors.
        cl_int s = 0;
        cl_event cl = ocl_event_native(hEvent);
        cl_int err = clGetEventInfo(cl, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL);
        clReleaseEvent(cl);
        OCL_TRY("clGetEventInfo", err);
        ur_event_status_t status = s < 0 ? UR_EVENT_STATUS_ERROR : (ur_event_status_t)s;
        if (status == UR_EVENT_STATUS_COMPLETE)
            OCL_TRY_UR(event_completed(hEvent));
        return urc_info_bytes(&out, &status, sizeof status);
    }
    case UR_EVENT_INFO_REFERENCE_COUNT:
        return urc_info_u32(&out, urc_refcount(&hEvent->obj));
    default:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
}

static cl_int profiling_ns(ur_event_handle_t e, cl_profiling_info param, cl_ulong *ns) {
    cl_event cl = ocl_event_native(e);
    cl_int err = clGetEventProfilingInfo(cl, param, sizeof *ns, ns, NULL);
    clReleaseEvent(cl);
    return err;
}

// A timestamp recording has two times in UR: QUEUED and SUBMIT are the call's, START, END and
// COMPLETE the one instant the device ran the marker (its START; never before the call).
static ur_result_t timestamp_profiling(ur_event_handle_t e, ur_profiling_info_t propName,
                                       const urc_info_t *out) {
    cl_ulong call = e->stamp_call_ns, ran = 0;
    // Without the device timer: the marker's QUEUED, else its SUBMIT, else when it ran.
    if (call == 0 && profiling_ns(e, CL_PROFILING_COMMAND_QUEUED, &call) == CL_SUCCESS && call == 0)
        OCL_TRY("clGetEventProfilingInfo", profiling_ns(e, CL_PROFILING_COMMAND_SUBMIT, &call));
    if (call != 0 && (propName == UR_PROFILING_INFO_COMMAND_QUEUED ||
                      propName == UR_PROFILING_INFO_COMMAND_SUBMIT))
        return urc_info_u64(out, call);
    OCL_TRY("clGetEventProfilingInfo", profiling_ns(e, CL_PROFILING_COMMAND_START, &ran));
    if (call == 0)
        call = ran;
    if (propName == UR_PROFILING_INFO_COMMAND_QUEUED ||
        propName == UR_PROFILING_INFO_COMMAND_SUBMIT)
        return urc_info_u64(out, call);
    return urc_info_u64(out, ran > call ? ran : call);
}

ur_result_t ocl_event_get_profiling_info(ur_event_handle_t hEvent, ur_profiling_info_t propName,
                                         size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    cl_profiling_info param;
    switch (propName) {
    case UR_PROFILING_INFO_COMMAND_QUEUED:
        param = CL_PROFILING_COMMAND_QUEUED;
        break;
    case UR_PROFILING_INFO_COMMAND_SUBMIT:
        param = CL_PROFILING_COMMAND_SUBMIT;
        break;
    case UR_PROFILING_INFO_COMMAND_START:
        param = CL_PROFILING_COMMAND_START;
        break;
    case UR_PROFILING_INFO_COMMAND_END:
        param = CL_PROFILING_COMMAND_END;
        break;
    case UR_PROFILING_INFO_COMMAND_COMPLETE:
        param = CL_PROFILING_COMMAND_COMPLETE;
        break;
    default:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    if (hEvent->command == UR_COMMAND_TIMESTAMP_RECORDING_EXP)
        return timestamp_profiling(hEvent, propName, &out);
    cl_ulong ns = 0;
    OCL_TRY("clGetEventProfilingInfo", profiling_ns(hEvent, param, &ns));
    return urc_info_u64(&out, ns);
}

ur_result_t ocl_event_get_native_handle(ur_event_handle_t hEvent,
                                        ur_native_handle_t *phNativeEvent) {
    // A reusable event's is its latest signal's, valid until the next one.
    cl_event cl = ocl_event_native(hEvent);
    clReleaseEvent(cl);
    *phNativeEvent = (ur_native_handle_t)cl;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_event_create_with_native_handle(ur_native_handle_t hNativeEvent,
                                                ur_context_handle_t hContext,
                                                const ur_event_native_properties_t *pProps,
                                                ur_event_handle_t *phEvent) {
    cl_event cl = (cl_event)hNativeEvent;
    if (cl == NULL) {
        // Native handle 0 gives an event that is already complete, as in UR: SYCL and test
        // harnesses use it as a ready-made entry for wait lists. A completed user event of the
        // context stands in for it, so OpenCL wait lists accept it.
        cl_int err = CL_SUCCESS;
        cl = clCreateUserEvent(hContext->cl, &err);
        if (err != CL_SUCCESS)
            return ocl_fail(err, "clCreateUserEvent");
        err = clSetUserEventStatus(cl, CL_COMPLETE);
        ur_result_t res = err == CL_SUCCESS ? ocl_event_make(hContext, NULL, cl,
                                                             UR_COMMAND_EVENTS_WAIT, true, phEvent)
                                            : ocl_fail(err, "clSetUserEventStatus");
        if (res != UR_RESULT_SUCCESS)
            clReleaseEvent(cl);
        return res;
    }
    cl_context cl_ctx = NULL;
    OCL_TRY("clGetEventInfo", clGetEventInfo(cl, CL_EVENT_CONTEXT, sizeof cl_ctx, &cl_ctx, NULL));
    OCL_TRY_UR(ocl_native_in_context(cl_ctx, hContext, "event"));
    bool owns = pProps != NULL && pProps->isNativeHandleOwned;
    return ocl_event_make(hContext, NULL, cl, UR_COMMAND_FORCE_UINT32, owns, phEvent);
}

typedef struct callback_t {
    ur_event_handle_t event;
    ur_execution_info_t status;
    ur_event_callback_t fn;
    void *user_data;
} callback_t;

static void CL_CALLBACK run_callback(cl_event ev, cl_int status, void *data) {
    (void)ev;
    (void)status;
    callback_t *cb = data;
    cb->fn(cb->event, cb->status, cb->user_data);
    // The user may have released the event meanwhile; this reference kept it alive until now.
    if (urc_unhold(&cb->event->obj))
        event_destroy(cb->event);
    free(cb);
}

ur_result_t ocl_event_set_callback(ur_event_handle_t hEvent, ur_execution_info_t execStatus,
                                   ur_event_callback_t pfnNotify, void *pUserData) {
    cl_int when;
    switch (execStatus) {
    case UR_EXECUTION_INFO_COMPLETE:
        when = CL_COMPLETE;
        break;
    case UR_EXECUTION_INFO_RUNNING:
        when = CL_RUNNING;
        break;
    case UR_EXECUTION_INFO_SUBMITTED:
        when = CL_SUBMITTED;
        break;
    default:
        // OpenCL calls back only at submission, start and completion.
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION, 0,
                             "urEventSetCallback: OpenCL cannot call back at status %d",
                             (int)execStatus);
    }
    callback_t *cb = URC_NEW(callback_t);
    if (cb == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    *cb = (callback_t){hEvent, execStatus, pfnNotify, pUserData};
    urc_hold(&hEvent->obj); // until the callback has run
    // A reusable event calls back at its latest signal's status.
    cl_event cl = ocl_event_native(hEvent);
    cl_int err = clSetEventCallback(cl, when, run_callback, cb);
    clReleaseEvent(cl);
    if (err != CL_SUCCESS) {
        urc_unhold(&hEvent->obj); // the caller's reference is still there
        free(cb);
        return ocl_fail(err, "clSetEventCallback");
    }
    return UR_RESULT_SUCCESS;
}
