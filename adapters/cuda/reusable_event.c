// SPDX-License-Identifier: MIT
// Reusable events (urEventCreateExp) on CUDA. A CUevent may be recorded again at any time,
// and a wait captures the record it was called on, so a reusable event is one CUevent (two
// with profiling) of its own, outside the device's pool, recorded at each signal after a
// barrier of the signalling queue. Never recorded, it is complete (cuEventQuery says so).
// IPC events are made with CU_EVENT_INTERPROCESS, which requires CU_EVENT_DISABLE_TIMING.
#include <stdlib.h>

#include "cuda_internal.h"

ur_result_t cuda_reusable_make(cuda_context_t *ctx, cuda_device_t *dev, ur_exp_event_flags_t flags,
                               CUevent end, CUevent start, bool imported, cuda_event_t **out) {
    cuda_event_t *e = URC_NEW(cuda_event_t);
    if (e == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    e->ctx = ctx;
    e->dev = dev;
    e->command = UR_COMMAND_EVENTS_WAIT_WITH_BARRIER;
    e->end = end;
    e->start = start;
    e->profiling = start != NULL;
    e->owns_native = true;
    urc_object_init(&e->obj, &cuda_ddi, URC_KIND_EVENT);
    e->reusable = urc_reusable_new(&e->obj, flags, ctx, dev, imported);
    if (e->reusable == NULL) {
        free(e);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    cuda_context_retain_internal(ctx);
    *out = e;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_event_create_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                  const ur_exp_event_desc_t *pEventDesc,
                                  ur_event_handle_t *phEvent) {
    if (!cuda_context_has_device(CUDA_CONTEXT(hContext), CUDA_DEVICE(hDevice)))
        return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                             "urEventCreateExp: the device is not in the context");
    // CUevents time themselves: per-event profiling is always there.
    ur_result_t res = urc_reusable_check_desc(pEventDesc, true);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_device_t *dev = CUDA_DEVICE(hDevice);
    if ((res = cuda_activate(dev)) != UR_RESULT_SUCCESS)
        return res;
    const bool profiling = pEventDesc->flags & UR_EXP_EVENT_FLAG_ENABLE_PROFILING;
    unsigned flags = profiling ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING;
    if (pEventDesc->flags & UR_EXP_EVENT_FLAG_IPC_EXP)
        flags |= CU_EVENT_INTERPROCESS;
    CUevent end = NULL, start = NULL;
    res = cuda_ok(cu.EventCreate(&end, flags), "cuEventCreate");
    if (res == UR_RESULT_SUCCESS && profiling)
        res = cuda_ok(cu.EventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
    cuda_event_t *e = NULL;
    if (res == UR_RESULT_SUCCESS)
        res = cuda_reusable_make(CUDA_CONTEXT(hContext), dev, pEventDesc->flags, end, start, false,
                                 &e);
    if (res != UR_RESULT_SUCCESS) {
        if (end != NULL)
            cu.EventDestroy(end);
        if (start != NULL)
            cu.EventDestroy(start);
        return res;
    }
    *phEvent = (ur_event_handle_t)e;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_event_signal(cuda_event_t *e, cuda_queue_t *q, uint32_t n,
                              const ur_event_handle_t *waits) {
    ur_result_t res = urc_reusable_check_signal(e->reusable, q->ctx, q->dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // An ordinary barrier event says on which stream the barrier ends; the reusable CUevent is
    // recorded there after it. A wait list naming `e` captured its previous record already.
    ur_event_handle_t barrier = NULL;
    if ((res = cuda_enqueue_barrier(q, UR_COMMAND_EVENTS_WAIT_WITH_BARRIER, n, waits, &barrier)) !=
        UR_RESULT_SUCCESS)
        return res;
    CUstream stream = CUDA_EVENT(barrier)->stream;
    res = cuda_activate(q->dev);
    pthread_mutex_lock(&e->reusable->lock);
    // A barrier takes no time: START and END of a signal are both the moment it completed.
    if (res == UR_RESULT_SUCCESS && e->start != NULL)
        res = cuda_ok(cu.EventRecord(e->start, stream), "cuEventRecord");
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.EventRecord(e->end, stream), "cuEventRecord");
    if (res == UR_RESULT_SUCCESS && e->start != NULL)
        e->queued_ns = cuda_host_ns();
    cuda_queue_t *old = NULL;
    if (res == UR_RESULT_SUCCESS) {
        cuda_queue_retain_internal(q);
        old = e->signalled_by;
        e->signalled_by = q;
    }
    pthread_mutex_unlock(&e->reusable->lock);
    if (old != NULL)
        cuda_queue_release_internal(old);
    cuda_event_free(CUDA_EVENT(barrier));
    return res;
}
