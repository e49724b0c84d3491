// SPDX-License-Identifier: MIT
// Event pools, events and fences. Their state lives under the engine lock (engine.c) because
// signalling one may let commands of any stream run.
#include "ze_sim_internal.h"
#include "ze_sim_entry.h"

#include <stdlib.h>

void sim_event_retain(sim_event_t *ev) {
    ev->refs++;
}

// The last reference frees the memory; the handle died earlier, at zeEventDestroy.
void sim_event_release(sim_event_t *ev) {
    if (--ev->refs == 0)
        free(ev);
}

void sim_fence_retain(sim_fence_t *fence) {
    fence->refs++;
}

void sim_fence_release(sim_fence_t *fence) {
    if (--fence->refs == 0)
        free(fence);
}

void sim_event_timestamps(const sim_event_t *ev, ze_kernel_timestamp_result_t *out) {
    // Kernel timestamps are as wide as kernelTimestampValidBits says, so they wrap like the
    // hardware's do; global and context clocks are the same clock here.
    const uint64_t mask = (1ull << SIM_KERNEL_TS_BITS) - 1;
    out->global.kernelStart = ev->ts_start & mask;
    out->global.kernelEnd = ev->ts_end & mask;
    out->context = out->global;
}

// ---------------------------------------------------------------------------------------------
// Event pools.

ze_result_t sim_event_pool_create(ze_context_handle_t hContext, const ze_event_pool_desc_t *desc,
                                  uint32_t numDevices, ze_device_handle_t *phDevices,
                                  ze_event_pool_handle_t *phEventPool) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r))
        return r;
    if (!desc || !phEventPool)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->flags & ~(ze_event_pool_flags_t)0x7)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    // An empty device list means every device of the context, which is the one device.
    if (desc->count == 0 || (numDevices && !phDevices))
        return ZE_RESULT_ERROR_INVALID_SIZE;
    for (uint32_t i = 0; i < numDevices; ++i)
        if (!sim_obj(phDevices[i], SIM_KIND_DEVICE, &r))
            return r;
    r = sim_inject_take(ZE_SIM_FAIL_EVENT_POOL_CREATE);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    sim_event_pool_t *pool = calloc(1, sizeof(*pool));
    if (!pool)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    sim_obj_init(&pool->hdr, SIM_KIND_EVENT_POOL);
    pool->flags = desc->flags;
    pool->count = desc->count;
    *phEventPool = (ze_event_pool_handle_t)pool;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_event_pool_destroy(ze_event_pool_handle_t hEventPool) {
    ze_result_t r;
    sim_event_pool_t *pool = sim_obj(hEventPool, SIM_KIND_EVENT_POOL, &r);
    if (!pool)
        return r;
    // Events copy what they need from the pool, so they outlive it harmlessly.
    sim_engine_lock();
    sim_ipc_pool_forget(pool);
    sim_engine_unlock();
    sim_obj_fini(&pool->hdr);
    free(pool);
    return ZE_RESULT_SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Events.

ze_result_t sim_event_create(ze_event_pool_handle_t hEventPool, const ze_event_desc_t *desc,
                             ze_event_handle_t *phEvent) {
    ze_result_t r;
    sim_event_pool_t *pool = sim_obj(hEventPool, SIM_KIND_EVENT_POOL, &r);
    if (!pool)
        return r;
    if (!desc || !phEvent)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // Indices are not tracked: two live events on one index go unnoticed.
    if (desc->index >= pool->count)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    int ipc = pool->origin != NULL || (pool->flags & ZE_EVENT_POOL_FLAG_IPC);
    if (ipc) {
        // Pools shared between processes: one event per index (ipc_event.c).
        sim_engine_lock();
        sim_event_t *shared = sim_ipc_event_share(pool, desc->index);
        sim_engine_unlock();
        if (shared != NULL) {
            *phEvent = (ze_event_handle_t)shared;
            return ZE_RESULT_SUCCESS;
        }
    }
    sim_event_t *ev = calloc(1, sizeof(*ev));
    if (!ev)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    sim_obj_init(&ev->hdr, SIM_KIND_EVENT);
    ev->pool_flags = pool->flags;
    ev->index = desc->index;
    ev->refs = 1; // the application's
    if (ipc) {
        sim_engine_lock();
        sim_ipc_event_shared(pool, ev);
        sim_engine_unlock();
    }
    *phEvent = (ze_event_handle_t)ev;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_event_destroy(ze_event_handle_t hEvent) {
    ze_result_t r;
    sim_event_t *ev = sim_obj(hEvent, SIM_KIND_EVENT, &r);
    if (!ev)
        return r;
    sim_engine_lock();
    if (sim_ipc_event_unshare(ev)) {
        sim_engine_unlock(); // another handle of an IPC pool still names it
        return ZE_RESULT_SUCCESS;
    }
    // Commands that still wait on or signal it keep the memory alive until they are freed.
    sim_obj_fini(&ev->hdr);
    ev->destroyed = 1;
    sim_event_release(ev);
    sim_engine_unlock();
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_event_host_signal(ze_event_handle_t hEvent) {
    ze_result_t r;
    sim_event_t *ev = sim_obj(hEvent, SIM_KIND_EVENT, &r);
    if (!ev)
        return r;
    sim_engine_lock();
    // A host signal has no duration; its timestamps mark the moment.
    uint64_t now = sim_now_ns();
    ev->ts_start = now;
    ev->ts_end = now;
    ev->signalled = 1;
    // Commands gated on this event run here, in the signalling thread.
    sim_engine_progress();
    sim_engine_broadcast();
    sim_engine_unlock();
    return ZE_RESULT_SUCCESS;
}

static int event_done(void *arg) {
    return ((sim_event_t *)arg)->signalled;
}

ze_result_t sim_event_host_synchronize(ze_event_handle_t hEvent, uint64_t timeout) {
    ze_result_t r;
    sim_event_t *ev = sim_obj(hEvent, SIM_KIND_EVENT, &r);
    if (!ev)
        return r;
    // Held across the wait so a concurrent zeEventDestroy cannot free it under us.
    sim_engine_lock();
    sim_event_retain(ev);
    sim_engine_unlock();
    r = sim_engine_wait(event_done, ev, timeout);
    sim_engine_lock();
    sim_event_release(ev);
    sim_engine_unlock();
    return r;
}

// A query is a wait with a zero timeout: progress first, then look.
ze_result_t sim_event_query_status(ze_event_handle_t hEvent) {
    return sim_event_host_synchronize(hEvent, 0);
}

ze_result_t sim_event_host_reset(ze_event_handle_t hEvent) {
    ze_result_t r;
    sim_event_t *ev = sim_obj(hEvent, SIM_KIND_EVENT, &r);
    if (!ev)
        return r;
    sim_engine_lock();
    ev->signalled = 0;
    ev->ts_start = ev->ts_end = 0;
    sim_engine_unlock();
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_event_query_kernel_timestamp(ze_event_handle_t hEvent,
                                             ze_kernel_timestamp_result_t *dstptr) {
    ze_result_t r;
    sim_event_t *ev = sim_obj(hEvent, SIM_KIND_EVENT, &r);
    if (!ev)
        return r;
    if (!dstptr)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // The specification leaves this undefined; an error catches the adapter bug instead.
    if (!(ev->pool_flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    sim_engine_lock();
    sim_engine_progress();
    if (ev->signalled) {
        sim_event_timestamps(ev, dstptr);
        r = ZE_RESULT_SUCCESS;
    } else {
        r = ZE_RESULT_NOT_READY;
    }
    sim_engine_unlock();
    return r;
}

// ---------------------------------------------------------------------------------------------
// Fences.

ze_result_t sim_fence_create(ze_command_queue_handle_t hCommandQueue, const ze_fence_desc_t *desc,
                             ze_fence_handle_t *phFence) {
    ze_result_t r;
    sim_queue_t *q = sim_obj(hCommandQueue, SIM_KIND_QUEUE, &r);
    if (!q)
        return r;
    if (!desc || !phFence)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->flags & ~(ze_fence_flags_t)ZE_FENCE_FLAG_SIGNALED)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    sim_fence_t *f = calloc(1, sizeof(*f));
    if (!f)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    sim_obj_init(&f->hdr, SIM_KIND_FENCE);
    // Only zeCommandQueueExecuteCommandLists on this queue may signal it.
    f->queue = q;
    f->signalled = (desc->flags & ZE_FENCE_FLAG_SIGNALED) != 0;
    f->refs = 1;
    *phFence = (ze_fence_handle_t)f;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_fence_destroy(ze_fence_handle_t hFence) {
    ze_result_t r;
    sim_fence_t *f = sim_obj(hFence, SIM_KIND_FENCE, &r);
    if (!f)
        return r;
    sim_engine_lock();
    sim_obj_fini(&f->hdr);
    f->destroyed = 1;
    sim_fence_release(f);
    sim_engine_unlock();
    return ZE_RESULT_SUCCESS;
}

static int fence_done(void *arg) {
    return ((sim_fence_t *)arg)->signalled;
}

ze_result_t sim_fence_host_synchronize(ze_fence_handle_t hFence, uint64_t timeout) {
    ze_result_t r;
    sim_fence_t *f = sim_obj(hFence, SIM_KIND_FENCE, &r);
    if (!f)
        return r;
    sim_engine_lock();
    sim_fence_retain(f);
    sim_engine_unlock();
    r = sim_engine_wait(fence_done, f, timeout);
    sim_engine_lock();
    sim_fence_release(f);
    sim_engine_unlock();
    return r;
}

ze_result_t sim_fence_query_status(ze_fence_handle_t hFence) {
    return sim_fence_host_synchronize(hFence, 0);
}

// Executing lists does not reset a fence; applications reset it, as with real fences.
ze_result_t sim_fence_reset(ze_fence_handle_t hFence) {
    ze_result_t r;
    sim_fence_t *f = sim_obj(hFence, SIM_KIND_FENCE, &r);
    if (!f)
        return r;
    sim_engine_lock();
    f->signalled = 0;
    sim_engine_unlock();
    return ZE_RESULT_SUCCESS;
}
