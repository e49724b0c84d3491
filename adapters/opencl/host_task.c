// SPDX-License-Identifier: MIT
// Host tasks, native commands, timestamps and device-wide waits. OpenCL has no host-function
// command, so a host task is a marker (its wait list, or the queue's order) whose completion
// callback runs the function and then completes a user event, behind which a second marker
// holds the rest of the queue. A native command is the caller's own OpenCL work, enqueued
// between a barrier and a marker. A timestamp is a marker whose profiling times are read.
#include <stdlib.h>

#include "core/alloc.h"
#include "ocl_internal.h"

typedef struct host_task_t {
    ur_exp_host_task_function_t fn;
    void *data;
    cl_event done; // user event: the task has run
} host_task_t;

// Runs on the OpenCL runtime's callback thread once what the task waits for has completed;
// a failed predecessor fails the task without running it, as it fails later commands.
static void CL_CALLBACK run_host_task(cl_event ev, cl_int status, void *p) {
    (void)ev;
    host_task_t *t = p;
    if (status == CL_COMPLETE)
        t->fn(t->data);
    clSetUserEventStatus(t->done, status == CL_COMPLETE ? CL_COMPLETE : status);
    clReleaseEvent(t->done);
    free(t);
}

static ur_result_t check_flags(const void *props) {
    // Both property structs are {stype, pNext, flags}; no flag is defined yet.
    const ur_exp_host_task_properties_t *p = props;
    if (p != NULL && p->flags != 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_ENUMERATION, 0, "flags 0x%x are not defined",
                             (unsigned)p->flags);
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_enqueue_host_task_exp(ur_queue_handle_t hQueue,
                                      ur_exp_host_task_function_t pfnHostTask, void *data,
                                      const ur_exp_host_task_properties_t *pProperties,
                                      uint32_t numEventsInWaitList,
                                      const ur_event_handle_t *phEventWaitList,
                                      ur_event_handle_t *phEvent) {
    OCL_TRY_UR(check_flags(pProperties));
    host_task_t *t = URC_NEW(host_task_t);
    if (t == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    t->fn = pfnHostTask;
    t->data = data;
    cl_int err = CL_SUCCESS;
    t->done = clCreateUserEvent(hQueue->context->cl, &err);
    if (err != CL_SUCCESS) {
        free(t);
        return ocl_fail(err, "clCreateUserEvent");
    }
    ocl_wait_list_t wl;
    ur_result_t res = ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList);
    cl_event before = NULL, after = NULL;
    if (res == UR_RESULT_SUCCESS) {
        err = clEnqueueMarkerWithWaitList(hQueue->cl, wl.count, wl.events, &before);
        // Later commands of an in-order queue wait for this marker, and so for the task.
        if (err == CL_SUCCESS)
            err = clEnqueueMarkerWithWaitList(hQueue->cl, 1, &t->done, &after);
        // The callback owns the task and the user event from here on.
        if (err == CL_SUCCESS)
            err = clSetEventCallback(before, CL_COMPLETE, run_host_task, t);
        if (err != CL_SUCCESS) {
            // Nothing will run the task: what waits for it fails instead.
            clSetUserEventStatus(t->done, CL_INVALID_OPERATION);
            clReleaseEvent(t->done);
            free(t);
        }
        if (before != NULL)
            clReleaseEvent(before);
        // The marker may sit unflushed in the queue; the task must not wait for a later flush.
        if (err == CL_SUCCESS)
            err = clFlush(hQueue->cl);
        res = ocl_enqueue_done(err, "clEnqueueMarkerWithWaitList", &wl, hQueue,
                               UR_COMMAND_HOST_TASK_EXP, after, phEvent);
        if (after != NULL && (phEvent == NULL || err != CL_SUCCESS))
            clReleaseEvent(after);
    } else {
        clReleaseEvent(t->done);
        free(t);
    }
    return res;
}

ur_result_t ocl_enqueue_native_command_exp(
    ur_queue_handle_t hQueue, ur_exp_enqueue_native_command_function_t pfnNativeEnqueue, void *data,
    uint32_t numMemsInMemList, const ur_mem_handle_t *phMemList,
    const ur_exp_enqueue_native_command_properties_t *pProperties, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_event_handle_t *phEvent) {
    OCL_TRY_UR(check_flags(pProperties));
    // OpenCL buffers need no migration before native use: their cl_mem is the native handle.
    for (uint32_t i = 0; i < numMemsInMemList; ++i)
        OCL_CHECK_HANDLE(phMemList[i], URC_KIND_MEM, UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList));
    cl_int err = CL_SUCCESS;
    // The caller's commands must follow the wait list, also on an out-of-order queue.
    if (wl.count > 0)
        err = clEnqueueBarrierWithWaitList(hQueue->cl, wl.count, wl.events, NULL);
    ocl_wait_list_fini(&wl);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clEnqueueBarrierWithWaitList");
    pfnNativeEnqueue(hQueue, data);
    // A marker without a wait list completes after everything enqueued before it.
    cl_event ev = NULL;
    err = clEnqueueMarkerWithWaitList(hQueue->cl, 0, NULL, phEvent != NULL ? &ev : NULL);
    return ocl_enqueue_done(err, "clEnqueueMarkerWithWaitList", &wl, hQueue,
                            UR_COMMAND_ENQUEUE_NATIVE_EXP, ev, phEvent);
}

// ---- timestamps ----

// The queue's profiling twin: same context and device, in order, with profiling. Made once;
// threads racing here each make one and the loser's is dropped.
static cl_int timestamp_queue(ur_queue_handle_t q, cl_command_queue *out) {
    cl_command_queue tq = atomic_load(&q->timestamps);
    if (tq != NULL) {
        *out = tq;
        return CL_SUCCESS;
    }
    cl_int err = CL_SUCCESS;
    if (q->context->platform->version >= 20) {
        cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
        tq = clCreateCommandQueueWithProperties(q->context->cl, q->device->cl, list, &err);
    } else {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        tq = clCreateCommandQueue(q->context->cl, q->device->cl, CL_QUEUE_PROFILING_ENABLE, &err);
#pragma GCC diagnostic pop
    }
    if (err != CL_SUCCESS)
        return err;
    cl_command_queue expected = NULL;
    if (!atomic_compare_exchange_strong(&q->timestamps, &expected, tq)) {
        clReleaseCommandQueue(tq);
        tq = expected;
    }
    *out = tq;
    return CL_SUCCESS;
}

// On a queue without profiling the stamp is a marker on the profiling twin, fenced into the
// caller's queue: a marker there (the wait list, or everything before it) that the stamp waits
// for, and a marker after it that waits for the stamp, so later commands of an in-order queue
// follow it. The event is the stamp's, so its START and END are the device's time when it ran.
static cl_int stamp_on_twin(ur_queue_handle_t q, const ocl_wait_list_t *wl, cl_event *stamp) {
    cl_command_queue tq = NULL;
    cl_event before = NULL;
    cl_int err = timestamp_queue(q, &tq);
    if (err == CL_SUCCESS)
        err = clEnqueueMarkerWithWaitList(q->cl, wl->count, wl->events, &before);
    if (err == CL_SUCCESS)
        err = clEnqueueMarkerWithWaitList(tq, 1, &before, stamp);
    if (err == CL_SUCCESS)
        err = clEnqueueMarkerWithWaitList(q->cl, 1, stamp, NULL);
    // Each queue waits for the other's event: both are sent to the device now.
    if (err == CL_SUCCESS)
        err = clFlush(q->cl);
    if (err == CL_SUCCESS)
        err = clFlush(tq);
    if (before != NULL)
        clReleaseEvent(before);
    if (err != CL_SUCCESS && *stamp != NULL) {
        clReleaseEvent(*stamp);
        *stamp = NULL;
    }
    return err;
}

ur_result_t ocl_enqueue_timestamp_recording_exp(ur_queue_handle_t hQueue, bool blocking,
                                                uint32_t numEventsInWaitList,
                                                const ur_event_handle_t *phEventWaitList,
                                                ur_event_handle_t *phEvent) {
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList));
    // UR reports the time of this call as the event's QUEUED and SUBMIT. The device timer is
    // the profiling clock (OpenCL 2.1); without it the marker's own times stand in.
    cl_ulong call_ns = 0, host_ns = 0;
    if (hQueue->device->version >= 21 && hQueue->context->platform->version >= 21 &&
        clGetDeviceAndHostTimer(hQueue->device->cl, &call_ns, &host_ns) != CL_SUCCESS)
        call_ns = 0;
    cl_event stamp = NULL;
    cl_int err;
    if (hQueue->properties & CL_QUEUE_PROFILING_ENABLE)
        err = clEnqueueMarkerWithWaitList(hQueue->cl, wl.count, wl.events, &stamp);
    else
        err = stamp_on_twin(hQueue, &wl, &stamp);
    if (err == CL_SUCCESS && blocking) {
        err = clWaitForEvents(1, &stamp);
        if (err != CL_SUCCESS) {
            clReleaseEvent(stamp);
            stamp = NULL;
        }
    }
    ur_result_t res = ocl_enqueue_done(err, "clEnqueueMarkerWithWaitList", &wl, hQueue,
                                       UR_COMMAND_TIMESTAMP_RECORDING_EXP, stamp, phEvent);
    if (res == UR_RESULT_SUCCESS && phEvent != NULL)
        (*phEvent)->stamp_call_ns = call_ns;
    return res;
}

// ---- urDeviceWaitExp ----

static ur_result_t finish_queue(urc_object_t *queue) {
    ur_queue_handle_t q = (ur_queue_handle_t)queue;
    OCL_TRY("clFinish", clFinish(q->cl));
    return ocl_assert_observe(q, true);
}

static void release_queue(urc_object_t *queue) {
    ocl_queue_release_internal((ur_queue_handle_t)queue);
}

static const urc_queue_wait_ops_t wait_ops = {finish_queue, release_queue};

// OpenCL cannot wait for a device: every queue urc made or wrapped on it is finished
// (common/queue/queue_registry). Queues the application made with OpenCL alone are not known.
ur_result_t ocl_device_wait_exp(ur_device_handle_t hDevice) {
    return urc_queue_registry_wait(&hDevice->queues, &wait_ops);
}
