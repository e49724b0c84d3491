// SPDX-License-Identifier: MIT
// Command queues: each is one in-order stream; executing regular lists copies their commands
// onto it.
#include "ze_sim_internal.h"
#include "ze_sim_entry.h"

#include <stdlib.h>

ze_result_t sim_command_queue_create(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                     const ze_command_queue_desc_t *desc,
                                     ze_command_queue_handle_t *phCommandQueue) {
    ze_result_t r;
    sim_context_t *ctx = sim_obj(hContext, SIM_KIND_CONTEXT, &r);
    if (!ctx || !sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    if (!desc || !phCommandQueue)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->mode > ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS ||
        desc->priority > ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    // One queue group (ordinal 0) with SIM_NUM_QUEUES queues, as device.c reports.
    if (desc->ordinal != 0 || desc->index >= SIM_NUM_QUEUES)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    sim_queue_t *q = calloc(1, sizeof(*q));
    if (!q)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    sim_obj_init(&q->hdr, SIM_KIND_QUEUE);
    q->context = ctx;
    q->mode = desc->mode;
    sim_engine_lock();
    sim_engine_attach(&q->stream);
    sim_engine_unlock();
    *phCommandQueue = (ze_command_queue_handle_t)q;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_command_queue_destroy(ze_command_queue_handle_t hCommandQueue) {
    ze_result_t r;
    sim_queue_t *q = sim_obj(hCommandQueue, SIM_KIND_QUEUE, &r);
    if (!q)
        return r;
    // Work still waiting on events is dropped with the queue.
    sim_engine_lock();
    sim_engine_detach(&q->stream);
    sim_engine_unlock();
    sim_obj_fini(&q->hdr);
    free(q);
    return ZE_RESULT_SUCCESS;
}

// Frees a chain of commands that never reached a stream.
static void free_chain(sim_cmd_t *c) {
    sim_engine_lock();
    while (c) {
        sim_cmd_t *next = c->next;
        sim_cmd_free_locked(c);
        c = next;
    }
    sim_engine_unlock();
}

ze_result_t sim_command_queue_execute_command_lists(ze_command_queue_handle_t hCommandQueue,
                                                    uint32_t numCommandLists,
                                                    ze_command_list_handle_t *phCommandLists,
                                                    ze_fence_handle_t hFence) {
    ze_result_t r;
    sim_queue_t *q = sim_obj(hCommandQueue, SIM_KIND_QUEUE, &r);
    if (!q)
        return r;
    if (!phCommandLists)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (numCommandLists == 0)
        return ZE_RESULT_ERROR_INVALID_SIZE;
    sim_fence_t *fence = NULL;
    if (hFence && !(fence = sim_obj(hFence, SIM_KIND_FENCE, &r)))
        return r;
    // A fence belongs to the queue it was created on.
    if (fence && fence->queue != q)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < numCommandLists; ++i) {
        sim_cmdlist_t *l = sim_obj(phCommandLists[i], SIM_KIND_CMDLIST, &r);
        if (!l)
            return r;
        // Immediate lists have no recorded commands to execute.
        if (l->immediate)
            return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    r = sim_inject_take(ZE_SIM_FAIL_EXECUTE);
    if (r != ZE_RESULT_SUCCESS)
        return r;

    // Copy everything first so that a failure leaves the queue untouched.
    sim_cmd_t *first = NULL, *last = NULL;
    for (uint32_t i = 0; i < numCommandLists; ++i) {
        sim_cmd_t *f = NULL, *l = NULL;
        r = sim_cmdlist_clone_commands((sim_cmdlist_t *)phCommandLists[i], &f, &l);
        if (r != ZE_RESULT_SUCCESS) {
            free_chain(first);
            return r;
        }
        if (!f)
            continue;
        if (last)
            last->next = f;
        else
            first = f;
        last = l;
    }
    // The fence is the last command of the batch, so it signals when all lists have run.
    if (fence) {
        sim_cmd_t *c = sim_cmd_new(SIM_CMD_FENCE, NULL, 0, NULL, &r);
        if (!c) {
            free_chain(first);
            return r;
        }
        c->u.fence.fence = fence;
        sim_engine_lock();
        sim_fence_retain(fence);
        sim_engine_unlock();
        if (last)
            last->next = c;
        else
            first = c;
        last = c;
    }
    sim_engine_submit(&q->stream, first, last);
    // A synchronous queue returns when the batch ran, or NOT_READY from the hang guard.
    if (q->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS)
        return sim_engine_wait(sim_stream_idle, &q->stream, UINT64_MAX);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_command_queue_synchronize(ze_command_queue_handle_t hCommandQueue,
                                          uint64_t timeout) {
    ze_result_t r;
    sim_queue_t *q = sim_obj(hCommandQueue, SIM_KIND_QUEUE, &r);
    if (!q)
        return r;
    return sim_engine_wait(sim_stream_idle, &q->stream, timeout);
}
