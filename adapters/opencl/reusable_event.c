// SPDX-License-Identifier: MIT
// Reusable events (urEventCreateExp) on OpenCL. A cl_event completes once and for all, so the
// UR event wraps a replaceable one: a completed user event at creation, then the barrier of
// each signal. Readers take a reference to the current cl_event under the event's lock, so a
// signal that replaces it never frees one still in use. OpenCL times commands per queue only:
// profiling is per signal, when the signalling queue profiles (UR's rule for events made
// without ENABLE_PROFILING), and ENABLE_PROFILING itself is UNSUPPORTED_FEATURE.
#include <stdlib.h>

#include "core/alloc.h"
#include "ocl_internal.h"

cl_event ocl_event_native(ur_event_handle_t e) {
    if (e->reusable == NULL) {
        clRetainEvent(e->cl);
        return e->cl;
    }
    pthread_mutex_lock(&e->reusable->lock);
    cl_event cl = e->cl;
    clRetainEvent(cl);
    pthread_mutex_unlock(&e->reusable->lock);
    return cl;
}

static bool context_has(ur_context_handle_t c, ur_device_handle_t d) {
    for (uint32_t i = 0; i < c->num_devices; ++i)
        if (c->devices[i] == d)
            return true;
    return false;
}

ur_result_t ocl_event_create_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                 const ur_exp_event_desc_t *pEventDesc,
                                 ur_event_handle_t *phEvent) {
    if (!context_has(hContext, hDevice))
        return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                             "urEventCreateExp: the device is not in the context");
    OCL_TRY_UR(urc_reusable_check_desc(pEventDesc, false));
    // Complete until its first signal.
    cl_int err = CL_SUCCESS;
    cl_event cl = clCreateUserEvent(hContext->cl, &err);
    if (err == CL_SUCCESS) {
        err = clSetUserEventStatus(cl, CL_COMPLETE);
        if (err != CL_SUCCESS)
            clReleaseEvent(cl);
    }
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clCreateUserEvent");
    ur_event_handle_t e = NULL;
    ur_result_t res =
        ocl_event_make(hContext, NULL, cl, UR_COMMAND_EVENTS_WAIT_WITH_BARRIER, true, &e);
    if (res != UR_RESULT_SUCCESS) {
        clReleaseEvent(cl);
        return res;
    }
    e->reusable = urc_reusable_new(&e->obj, pEventDesc->flags, hContext, hDevice, false);
    if (e->reusable == NULL) {
        ocl_event_release_internal(e);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    *phEvent = e;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_event_signal(ur_event_handle_t e, ur_queue_handle_t queue, uint32_t n,
                             const ur_event_handle_t *waits) {
    OCL_TRY_UR(urc_reusable_check_signal(e->reusable, queue->context, queue->device));
    // The wait list may name `e` itself: it then waits for the previous signal.
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, queue, n, waits));
    cl_event signal = NULL;
    cl_int err = clEnqueueBarrierWithWaitList(queue->cl, wl.count, wl.events, &signal);
    ocl_wait_list_fini(&wl);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clEnqueueBarrierWithWaitList");
    urc_hold(&queue->obj);
    pthread_mutex_lock(&e->reusable->lock);
    cl_event old = e->cl;
    e->cl = signal;
    ur_queue_handle_t old_queue = atomic_exchange(&e->queue, queue);
    pthread_mutex_unlock(&e->reusable->lock);
    clReleaseEvent(old);
    if (old_queue != NULL)
        ocl_queue_release_internal(old_queue);
    return UR_RESULT_SUCCESS;
}
