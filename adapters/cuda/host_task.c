// SPDX-License-Identifier: MIT
// Host tasks (cuLaunchHostFunc: the driver runs the function in stream order) and native
// commands (the caller's own CUDA work on the queue's stream, between the wait list and the
// command's event).
#include "cuda_internal.h"

ur_result_t cuda_enqueue_host_task_exp(ur_queue_handle_t hQueue,
                                       ur_exp_host_task_function_t pfnHostTask, void *data,
                                       const ur_exp_host_task_properties_t *pProperties,
                                       uint32_t numEventsInWaitList,
                                       const ur_event_handle_t *phEventWaitList,
                                       ur_event_handle_t *phEvent) {
    if (pProperties != NULL && pProperties->flags != 0)
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    if (cu.LaunchHostFunc == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the driver has no cuLaunchHostFunc");
    cuda_op_t op;
    ur_result_t res = cuda_op_begin(CUDA_QUEUE(hQueue), UR_COMMAND_HOST_TASK_EXP,
                                    numEventsInWaitList, phEventWaitList, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // UR's host function and CUDA's take the same single pointer.
    res = cuda_ok(cu.LaunchHostFunc(op.stream, (CUhostFn)pfnHostTask, data), "cuLaunchHostFunc");
    return cuda_op_end(&op, res, false, phEvent);
}

ur_result_t cuda_enqueue_native_command_exp(
    ur_queue_handle_t hQueue, ur_exp_enqueue_native_command_function_t pfnNativeEnqueue, void *data,
    uint32_t numMemsInMemList, const ur_mem_handle_t *phMemList,
    const ur_exp_enqueue_native_command_properties_t *pProperties, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_event_handle_t *phEvent) {
    if (pProperties != NULL && pProperties->flags != 0)
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    // Buffers live in device memory already: their native handles are usable as they are.
    for (uint32_t i = 0; i < numMemsInMemList; ++i)
        if (!cuda_is(phMemList[i], URC_KIND_MEM))
            return UR_RESULT_ERROR_INVALID_MEM_OBJECT;
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    if (q->nstreams != 1)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "native commands need an in-order queue (one stream)");
    cuda_op_t op;
    ur_result_t res = cuda_op_begin(q, UR_COMMAND_ENQUEUE_NATIVE_EXP, numEventsInWaitList,
                                    phEventWaitList, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // The caller enqueues to urQueueGetNativeHandle's stream, the one op_begin chose.
    pfnNativeEnqueue(hQueue, data);
    return cuda_op_end(&op, UR_RESULT_SUCCESS, false, phEvent);
}

ur_result_t cuda_enqueue_timestamp_recording_exp(ur_queue_handle_t hQueue, bool blocking,
                                                 uint32_t numEventsInWaitList,
                                                 const ur_event_handle_t *phEventWaitList,
                                                 ur_event_handle_t *phEvent) {
    cuda_op_t op;
    ur_result_t res = cuda_op_begin(CUDA_QUEUE(hQueue), UR_COMMAND_TIMESTAMP_RECORDING_EXP,
                                    numEventsInWaitList, phEventWaitList, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_event_t *e = op.event;
    // The event records timing even on a queue without profiling: its start and end records,
    // back to back on the stream, are the timestamp.
    if (!e->profiling) {
        CUevent end = NULL, start = NULL;
        res = cuda_ok(cu.EventCreate(&end, CU_EVENT_DEFAULT), "cuEventCreate");
        if (res == UR_RESULT_SUCCESS)
            res = cuda_ok(cu.EventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
        if (res == UR_RESULT_SUCCESS) {
            cu.EventDestroy(e->end);
            e->end = end;
            e->start = start;
            e->profiling = true;
            e->queued_ns = cuda_host_ns();
            res = cuda_ok(cu.EventRecord(e->start, op.stream), "cuEventRecord");
        } else if (end != NULL) {
            cu.EventDestroy(end);
        }
    }
    return cuda_op_end(&op, res, blocking, phEvent);
}

ur_result_t cuda_device_wait_exp(ur_device_handle_t hDevice) {
    // Every queue of the device has its streams in the device's primary context.
    ur_result_t res = cuda_activate(CUDA_DEVICE(hDevice));
    return res != UR_RESULT_SUCCESS ? res : cuda_ok(cu.CtxSynchronize(), "cuCtxSynchronize");
}
