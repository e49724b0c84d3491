// SPDX-License-Identifier: MIT
// Host tasks, native commands, timestamps and device-wide waits.
//
// Level Zero has no host-function command. A host task is two events: a barrier over the
// task's wait list (and the queue's order) signals a `gate`; the adapter's callback thread
// (common/event_callbacks, the engine behind urEventSetCallback) sees the gate complete, runs
// the function and then signals the task's own event from the host. That event is the command's
// event like any other, so later commands of the queue, and anyone waiting, wait for the task.
#include <stdlib.h>

#include "l0_internal.h"

typedef struct l0_host_task_t {
    ur_exp_host_task_function_t fn;
    void *data;
    l0_event_t *task;      // held: signalled from the host once fn has run
    atomic_bool cancelled; // the enqueue failed after the callback was registered
} l0_host_task_t;

// Runs on the callback thread. A gate that could not be polled (a lost device) completes the
// task without running it, so that nothing behind it waits forever.
static void run_host_task(ur_event_handle_t gate, ur_execution_info_t status, void *p) {
    (void)status;
    l0_host_task_t *t = p;
    if (!atomic_load(&t->cancelled)) {
        if (l0_event_done(L0_EVENT(gate)))
            t->fn(t->data);
        (void)l0_ok(zeEventHostSignal(t->task->ze), "zeEventHostSignal");
    }
    l0_event_release_internal(t->task);
    free(t);
}

// Both property structs are {stype, pNext, flags}; no flag is defined yet.
static ur_result_t check_flags(const ur_exp_host_task_properties_t *p) {
    if (p != NULL && p->flags != 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_ENUMERATION, 0, "flags 0x%x are not defined",
                             (unsigned)p->flags);
    return UR_RESULT_SUCCESS;
}

// The gate's barrier and the registration of the task's callback, inside the task's command.
// Takes `t`: the callback frees it, or this function when no callback was registered.
static ur_result_t append_host_task(l0_op_t *op, l0_host_task_t *t) {
    l0_event_t *gate = NULL;
    ur_result_t res = l0_event_create(op->queue, UR_COMMAND_HOST_TASK_EXP, &gate);
    if (res != UR_RESULT_SUCCESS) {
        free(t);
        return res;
    }
    t->task = op->event;
    l0_event_retain_internal(t->task);
    // Registered before the barrier exists, so a failed registration leaves nothing to undo
    // on the device.
    res = l0_event_on_complete(gate, run_host_task, t);
    if (res != UR_RESULT_SUCCESS) {
        l0_event_release_internal(t->task);
        free(t);
    } else {
        res = l0_ok(zeCommandListAppendBarrier(op->list, gate->ze, op->nwaits, op->waits),
                    "zeCommandListAppendBarrier");
        if (res != UR_RESULT_SUCCESS) {
            // The callback still runs once: it must find the gate signalled and do nothing.
            atomic_store(&t->cancelled, true);
            (void)zeEventHostSignal(gate->ze);
        }
    }
    l0_event_release_created(gate); // the callback holds the gate until it has run
    return res;
}

ur_result_t l0_enqueue_host_task_exp(ur_queue_handle_t hQueue,
                                     ur_exp_host_task_function_t pfnHostTask, void *data,
                                     const ur_exp_host_task_properties_t *pProperties,
                                     uint32_t numEventsInWaitList,
                                     const ur_event_handle_t *phEventWaitList,
                                     ur_event_handle_t *phEvent) {
    if (!l0_is(hQueue, URC_KIND_QUEUE))
        return UR_RESULT_ERROR_INVALID_QUEUE;
    ur_result_t res = check_flags(pProperties);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_host_task_t *t = URC_NEW(l0_host_task_t);
    if (t == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    t->fn = pfnHostTask;
    t->data = data;
    atomic_init(&t->cancelled, false);
    l0_op_t op;
    res = l0_op_begin(L0_QUEUE(hQueue), UR_COMMAND_HOST_TASK_EXP, numEventsInWaitList,
                      phEventWaitList, &op);
    if (res != UR_RESULT_SUCCESS) {
        free(t);
        return res;
    }
    // A batch nobody flushes would hold the task back for ever: what it waits for is sent now.
    op.submit = true;
    return l0_op_end(&op, append_host_task(&op, t), false, phEvent);
}

// ---- native commands ----

// The caller's callback appends to the command list the command goes to: after the wait list
// (and the queue's order), before a barrier that signals the command's event. While it runs,
// urQueueGetNativeHandle called from it answers that list (queue.c). The queue's lock is held
// meanwhile, so the callback may ask for native handles but not enqueue through UR.
ur_result_t l0_enqueue_native_command_exp(
    ur_queue_handle_t hQueue, ur_exp_enqueue_native_command_function_t pfnNativeEnqueue, void *data,
    uint32_t numMemsInMemList, const ur_mem_handle_t *phMemList,
    const ur_exp_enqueue_native_command_properties_t *pProperties, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_event_handle_t *phEvent) {
    if (!l0_is(hQueue, URC_KIND_QUEUE))
        return UR_RESULT_ERROR_INVALID_QUEUE;
    ur_result_t res = check_flags((const ur_exp_host_task_properties_t *)pProperties);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_queue_t *q = L0_QUEUE(hQueue);
    // Buffers are USM allocations: their native handles are usable as they are.
    for (uint32_t i = 0; i < numMemsInMemList; ++i) {
        if (!l0_is(phMemList[i], URC_KIND_MEM))
            return UR_RESULT_ERROR_INVALID_MEM_OBJECT;
        if (L0_MEM(phMemList[i])->ctx != q->ctx)
            return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                                 "memory object %u belongs to another context than the queue", i);
    }
    l0_op_t op;
    res = l0_op_begin(q, UR_COMMAND_ENQUEUE_NATIVE_EXP, numEventsInWaitList, phEventWaitList, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (op.nwaits > 0)
        res = l0_ok(zeCommandListAppendWaitOnEvents(op.list, op.nwaits, op.waits),
                    "zeCommandListAppendWaitOnEvents");
    if (res == UR_RESULT_SUCCESS) {
        atomic_store(&q->native_thread, pthread_self());
        atomic_store_explicit(&q->native_list, op.list, memory_order_release);
        pfnNativeEnqueue(hQueue, data);
        atomic_store_explicit(&q->native_list, NULL, memory_order_release);
        // A barrier with no wait list waits for everything before it in the list, the
        // caller's commands included.
        res = l0_ok(zeCommandListAppendBarrier(op.list, op.event->ze, 0, NULL),
                    "zeCommandListAppendBarrier");
    }
    return l0_op_end(&op, res, false, phEvent);
}

// ---- timestamps ----

// A barrier after the wait list whose event carries kernel timestamps, also on a queue without
// profiling: the event's START and END are the device's time when the barrier ran, QUEUED and
// SUBMIT the device timer at this call (as on a profiling queue).
ur_result_t l0_enqueue_timestamp_recording_exp(ur_queue_handle_t hQueue, bool blocking,
                                               uint32_t numEventsInWaitList,
                                               const ur_event_handle_t *phEventWaitList,
                                               ur_event_handle_t *phEvent) {
    if (!l0_is(hQueue, URC_KIND_QUEUE))
        return UR_RESULT_ERROR_INVALID_QUEUE;
    l0_queue_t *q = L0_QUEUE(hQueue);
    l0_op_t op;
    ur_result_t res = l0_op_begin(q, UR_COMMAND_TIMESTAMP_RECORDING_EXP, numEventsInWaitList,
                                  phEventWaitList, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_event_t *e = op.event;
    if (!e->profiling) {
        // Nothing refers to the command's plain event yet: it is swapped for a timestamped one.
        ze_event_handle_t timed = NULL;
        res = l0_context_take_event(q->ctx, 1, &timed);
        if (res == UR_RESULT_SUCCESS) {
            l0_context_give_event(q->ctx, e->cache, e->ze);
            e->ze = timed;
            e->cache = 1;
            e->profiling = true;
            res = l0_device_ticks(q->dev, &e->queued_ticks);
        }
    }
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandListAppendBarrier(op.list, e->ze, op.nwaits, op.waits),
                    "zeCommandListAppendBarrier");
    return l0_op_end(&op, res, blocking, phEvent);
}

// ---- urDeviceWaitExp ----

static ur_result_t finish_queue(urc_object_t *queue) {
    return l0_queue_sync((l0_queue_t *)queue);
}

static void release_queue(urc_object_t *queue) {
    l0_queue_release_internal((l0_queue_t *)queue);
}

static const urc_queue_wait_ops_t wait_ops = {finish_queue, release_queue};

// Level Zero cannot wait for a device: every queue made on it (common/queue_registry) is
// finished, as urQueueFinish would.
ur_result_t l0_device_wait_exp(ur_device_handle_t hDevice) {
    if (!l0_is(hDevice, URC_KIND_DEVICE))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    return urc_queue_registry_wait(&L0_DEVICE(hDevice)->queues, &wait_ops);
}
