// SPDX-License-Identifier: MIT
// Host tasks, native commands, timestamps and device-wide waits.
//
// Level Zero has no host-function command. A host task is two Level Zero events: a barrier over
// the task's wait list (and the queue's order) signals a `gate`; a thread of the adapter sees the
// gate signalled, runs the function and then signals the command's own event from the host. That
// event is the command's event like any other, so later commands of the queue, and anyone
// waiting, wait for the task. The thread is common/queue/event_callbacks' engine (the one behind
// urEventSetCallback), here with tasks in place of events: it polls the gates.
#include <stdlib.h>

#include "queue/event_callbacks.h"
#include "l0_internal.h"

typedef struct l0_host_task_t {
    ur_exp_host_task_function_t fn;
    void *data;
    l0_context_t *ctx;
    ze_event_handle_t gate; // from the context's plain cache
    l0_event_t *task;       // held; signalled from the host once fn has run
    atomic_bool cancelled;  // the enqueue failed after the task was registered
} l0_host_task_t;

#define TASK(h) ((l0_host_task_t *)(void *)(h))

// The task is ready when its gate is signalled. Its event may also have been signalled without
// it, by a batch that failed to execute (queue.c), and then the gate never will be.
static urc_event_poll_t task_poll(ur_event_handle_t h) {
    l0_host_task_t *t = TASK(h);
    if (atomic_load(&t->cancelled) || l0_event_done(t->task))
        return URC_EVENT_COMPLETE;
    ze_result_t r = zeEventQueryStatus(t->gate);
    if (r == ZE_RESULT_NOT_READY)
        return URC_EVENT_PENDING;
    return r == ZE_RESULT_SUCCESS ? URC_EVENT_COMPLETE : URC_EVENT_FAILED;
}

static void task_retain(ur_event_handle_t h) {
    (void)h; // registered once: the engine's reference is the task itself
}

// The engine's last touch. The task's event is signalled last: whoever waits for it may then
// release everything (the test fixtures count the driver's live objects right after), so
// nothing of the adapter may be held past the signal. Until the signal the queue keeps the
// event pending, so dropping the task's reference first cannot destroy it.
static void task_release(ur_event_handle_t h) {
    l0_host_task_t *t = TASK(h);
    bool signal = !atomic_load(&t->cancelled) && !l0_event_done(t->task);
    ze_event_handle_t ze = t->task->ze;
    l0_context_give_event(t->ctx, 0, t->gate);
    l0_event_release_internal(t->task);
    free(t);
    if (signal)
        (void)l0_ok(zeEventHostSignal(ze), "zeEventHostSignal");
}

// Runs the function unless the enqueue failed, the event completed without the task, or the
// gate could not be polled (a lost device): then the task completes without running.
static void run_host_task(ur_event_handle_t h, ur_execution_info_t status, void *data) {
    (void)status;
    (void)data;
    l0_host_task_t *t = TASK(h);
    if (!atomic_load(&t->cancelled) && zeEventQueryStatus(t->gate) == ZE_RESULT_SUCCESS &&
        !l0_event_done(t->task))
        t->fn(t->data);
}

static const urc_callback_ops_t task_ops = {task_poll, task_retain, task_release, NULL};
static urc_callback_engine_t tasks = URC_CALLBACK_ENGINE_INIT(&task_ops);

void l0_host_tasks_stop(bool drain) {
    urc_callback_engine_stop(&tasks, drain);
}

// Unloading the adapter without its last urAdapterRelease: the thread must not outlive its code.
__attribute__((destructor)) static void host_tasks_fini(void) {
    urc_callback_engine_stop(&tasks, false);
}

// Both property structs are {stype, pNext, flags}; no flag is defined yet.
static ur_result_t check_flags(const ur_exp_host_task_properties_t *p) {
    if (p != NULL && p->flags != 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_ENUMERATION, 0, "flags 0x%x are not defined",
                             (unsigned)p->flags);
    return UR_RESULT_SUCCESS;
}

// The gate's barrier inside the task's command, and the task's registration. Takes `t`: the
// engine frees it, or this function when it was not registered.
static ur_result_t append_host_task(l0_op_t *op, l0_host_task_t *t) {
    t->ctx = op->queue->ctx;
    ur_result_t res = l0_context_take_event(t->ctx, 0, &t->gate);
    if (res != UR_RESULT_SUCCESS) {
        free(t);
        return res;
    }
    t->task = op->event;
    l0_event_retain_internal(t->task);
    // Registered before the barrier exists, so a failed registration leaves nothing to undo on
    // the device.
    res = urc_callback_engine_add(&tasks, (ur_event_handle_t)(void *)t, UR_EXECUTION_INFO_COMPLETE,
                                  run_host_task, NULL);
    if (res != UR_RESULT_SUCCESS) {
        l0_context_give_event(t->ctx, 0, t->gate);
        l0_event_release_internal(t->task);
        free(t);
        return res;
    }
    res = l0_ok(zeCommandListAppendBarrier(op->list, t->gate, op->nwaits, op->waits),
                "zeCommandListAppendBarrier");
    if (res != UR_RESULT_SUCCESS)
        atomic_store(&t->cancelled, true); // the engine drops it at its next pass
    return res;
}

ur_result_t l0_enqueue_host_task_exp(ur_queue_handle_t hQueue,
                                     ur_exp_host_task_function_t pfnHostTask, void *data,
                                     const ur_exp_host_task_properties_t *pProperties,
                                     uint32_t numEventsInWaitList,
                                     const ur_event_handle_t *phEventWaitList,
                                     ur_event_handle_t *phEvent) {
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

// Level Zero cannot wait for a device: every queue made on it (common/queue/queue_registry) is
// finished, as urQueueFinish would.
ur_result_t l0_device_wait_exp(ur_device_handle_t hDevice) {
    return urc_queue_registry_wait(&L0_DEVICE(hDevice)->queues, &wait_ops);
}
