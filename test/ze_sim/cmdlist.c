// SPDX-License-Identifier: MIT
// Command lists. An immediate list is a stream of its own: each append goes straight to the
// engine and runs as soon as its wait events allow. A regular list records commands; they
// run when a queue executes the closed list (engine.c, queue.c).
#include "ze_sim_internal.h"
#include "ze_sim_entry.h"

#include <stdlib.h>
#include <string.h>

static sim_cmdlist_t *list_new(sim_context_t *ctx, int immediate, ze_command_queue_mode_t mode) {
    sim_cmdlist_t *l = calloc(1, sizeof(*l));
    if (!l)
        return NULL;
    if (pthread_mutex_init(&l->lock, NULL)) {
        free(l);
        return NULL;
    }
    sim_obj_init(&l->hdr, SIM_KIND_CMDLIST);
    l->context = ctx;
    l->immediate = immediate;
    l->mode = mode;
    return l;
}

ze_result_t sim_command_list_create(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                    const ze_command_list_desc_t *desc,
                                    ze_command_list_handle_t *phCommandList) {
    ze_result_t r;
    sim_context_t *ctx = sim_obj(hContext, SIM_KIND_CONTEXT, &r);
    if (!ctx || !sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    if (!desc || !phCommandList)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->flags & ~(ze_command_list_flags_t)0x7)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    // The device has one queue group (ordinal 0); other ordinals name nothing.
    if (desc->commandQueueGroupOrdinal != 0)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    sim_cmdlist_t *l = list_new(ctx, 0, ZE_COMMAND_QUEUE_MODE_DEFAULT);
    if (!l)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if ((r = sim_mutable_list_init(l, desc->pNext)) != ZE_RESULT_SUCCESS) {
        sim_command_list_destroy((ze_command_list_handle_t)l);
        return r;
    }
    *phCommandList = (ze_command_list_handle_t)l;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_command_list_create_immediate(ze_context_handle_t hContext,
                                              ze_device_handle_t hDevice,
                                              const ze_command_queue_desc_t *altdesc,
                                              ze_command_list_handle_t *phCommandList) {
    ze_result_t r;
    sim_context_t *ctx = sim_obj(hContext, SIM_KIND_CONTEXT, &r);
    if (!ctx || !sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    if (!altdesc || !phCommandList)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (altdesc->mode > ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS ||
        altdesc->priority > ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (altdesc->ordinal != 0 || altdesc->index >= SIM_NUM_QUEUES)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    sim_cmdlist_t *l = list_new(ctx, 1, altdesc->mode);
    if (!l)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    sim_engine_lock();
    // From now on the engine may run this list's commands from any thread.
    sim_engine_attach(&l->stream);
    sim_engine_unlock();
    *phCommandList = (ze_command_list_handle_t)l;
    return ZE_RESULT_SUCCESS;
}

// Detaches the recorded commands of a regular list; the caller frees them unlocked.
static sim_cmd_t *take_commands(sim_cmdlist_t *l) {
    pthread_mutex_lock(&l->lock);
    sim_cmd_t *c = l->head;
    l->head = l->tail = NULL;
    l->closed = 0;
    pthread_mutex_unlock(&l->lock);
    return c;
}

// Releasing event references needs the engine lock, never the list lock.
static void free_commands(sim_cmd_t *c) {
    sim_engine_lock();
    while (c) {
        sim_cmd_t *next = c->next;
        sim_cmd_free_locked(c);
        c = next;
    }
    sim_engine_unlock();
}

ze_result_t sim_command_list_destroy(ze_command_list_handle_t hCommandList) {
    ze_result_t r;
    sim_cmdlist_t *l = sim_obj(hCommandList, SIM_KIND_CMDLIST, &r);
    if (!l)
        return r;
    // Destroying a list with commands still waiting drops them (README: what is not simulated).
    if (l->immediate) {
        sim_engine_lock();
        sim_engine_detach(&l->stream);
        sim_engine_unlock();
    } else {
        free_commands(take_commands(l));
    }
    sim_mutable_forget(l, 1);
    sim_obj_fini(&l->hdr);
    pthread_mutex_destroy(&l->lock);
    free(l);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_command_list_close(ze_command_list_handle_t hCommandList) {
    ze_result_t r;
    sim_cmdlist_t *l = sim_obj(hCommandList, SIM_KIND_CMDLIST, &r);
    if (!l)
        return r;
    pthread_mutex_lock(&l->lock);
    // Closing an immediate list is allowed and means nothing: it never records.
    l->closed = !l->immediate;
    pthread_mutex_unlock(&l->lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_command_list_reset(ze_command_list_handle_t hCommandList) {
    ze_result_t r;
    sim_cmdlist_t *l = sim_obj(hCommandList, SIM_KIND_CMDLIST, &r);
    if (!l)
        return r;
    // Commands of an immediate list already belong to the device; a reset leaves them be.
    if (!l->immediate)
        free_commands(take_commands(l));
    pthread_mutex_lock(&l->lock);
    sim_mutable_forget(l, 0);
    pthread_mutex_unlock(&l->lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_cmdlist_clone_commands(sim_cmdlist_t *l, sim_cmd_t **first, sim_cmd_t **last) {
    ze_result_t r = ZE_RESULT_SUCCESS;
    *first = *last = NULL;
    pthread_mutex_lock(&l->lock);
    // Executing an open list is an application error; refusing it catches adapter bugs.
    if (!l->closed) {
        pthread_mutex_unlock(&l->lock);
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    for (const sim_cmd_t *c = l->head; c; c = c->next) {
        // Copies, not references: the list may be reset or executed again while these wait.
        sim_cmd_t *copy = sim_cmd_clone(c, &r);
        if (!copy)
            break;
        if (*last)
            (*last)->next = copy;
        else
            *first = copy;
        *last = copy;
    }
    pthread_mutex_unlock(&l->lock);
    if (r != ZE_RESULT_SUCCESS) {
        free_commands(*first);
        *first = *last = NULL;
    }
    return r;
}

// Every append ends here. The command is consumed whatever the result.
static ze_result_t list_append(sim_cmdlist_t *l, sim_cmd_t *c) {
    if (l->immediate) {
        sim_engine_submit(&l->stream, c, c);
        // Synchronous mode returns only when the command ran (or the hang guard gave up).
        if (l->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS)
            return sim_engine_wait(sim_stream_idle, &l->stream, UINT64_MAX);
        return ZE_RESULT_SUCCESS;
    }
    pthread_mutex_lock(&l->lock);
    // Appending to a closed list is refused for the same reason as executing an open one.
    if (l->closed) {
        pthread_mutex_unlock(&l->lock);
        sim_cmd_free(c);
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    c->next = NULL;
    if (l->tail)
        l->tail->next = c;
    else
        l->head = c;
    l->tail = c;
    sim_mutable_on_append(l, c);
    pthread_mutex_unlock(&l->lock);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_cmdlist_append(sim_cmdlist_t *l, sim_cmd_t *c) {
    return list_append(l, c);
}

// The common prologue: a valid list, then a command carrying the signal and wait events.
static sim_cmd_t *begin(ze_command_list_handle_t hCommandList, sim_cmdlist_t **list,
                        sim_cmd_kind_t kind, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                        ze_event_handle_t *phWaitEvents, ze_result_t *res) {
    if (!(*list = sim_obj(hCommandList, SIM_KIND_CMDLIST, res)))
        return NULL;
    return sim_cmd_new(kind, hSignalEvent, numWaitEvents, phWaitEvents, res);
}

ze_result_t sim_command_list_append_barrier(ze_command_list_handle_t hCommandList,
                                            ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                            ze_event_handle_t *phWaitEvents) {
    // Streams are in order, so a barrier is only a synchronisation point.
    sim_cmdlist_t *l;
    ze_result_t r;
    sim_cmd_t *c =
        begin(hCommandList, &l, SIM_CMD_NOP, hSignalEvent, numWaitEvents, phWaitEvents, &r);
    return c ? list_append(l, c) : r;
}

ze_result_t sim_command_list_append_memory_ranges_barrier(
    ze_command_list_handle_t hCommandList, uint32_t numRanges, const size_t *pRangeSizes,
    const void **pRanges, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    if (numRanges && (!pRangeSizes || !pRanges))
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    return sim_command_list_append_barrier(hCommandList, hSignalEvent, numWaitEvents, phWaitEvents);
}

// The value is written when the command runs, from the device clock (sim_device_ts).
ze_result_t sim_command_list_append_write_global_timestamp(ze_command_list_handle_t hCommandList,
                                                           uint64_t *dstptr,
                                                           ze_event_handle_t hSignalEvent,
                                                           uint32_t numWaitEvents,
                                                           ze_event_handle_t *phWaitEvents) {
    if (!dstptr)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // Eight bytes must fit when the pointer is inside a USM allocation.
    ze_result_t r = sim_mem_check_range(dstptr, sizeof(*dstptr));
    if (r != ZE_RESULT_SUCCESS)
        return r;
    sim_cmdlist_t *l;
    sim_cmd_t *c =
        begin(hCommandList, &l, SIM_CMD_TIMESTAMP, hSignalEvent, numWaitEvents, phWaitEvents, &r);
    if (!c)
        return r;
    c->u.timestamp.dst = dstptr;
    return list_append(l, c);
}

// Shared by the plain copy and the copy from another context: one memory space here.
static ze_result_t append_copy(ze_command_list_handle_t hCommandList, void *dstptr,
                               const void *srcptr, size_t size, ze_event_handle_t hSignalEvent,
                               uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ze_result_t r;
    sim_cmdlist_t *l;
    if (!sim_obj(hCommandList, SIM_KIND_CMDLIST, &r))
        return r;
    if (!dstptr || !srcptr)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // Checked at append: a copy past the end of a USM allocation is an adapter bug.
    if ((r = sim_mem_check_range(dstptr, size)) != ZE_RESULT_SUCCESS ||
        (r = sim_mem_check_range(srcptr, size)) != ZE_RESULT_SUCCESS)
        return r;
    // An injected failure fires after validation, as a real out-of-resources error would.
    r = sim_inject_take(ZE_SIM_FAIL_MEMORY_COPY);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    sim_cmd_t *c =
        begin(hCommandList, &l, SIM_CMD_COPY, hSignalEvent, numWaitEvents, phWaitEvents, &r);
    if (!c)
        return r;
    c->u.copy.dst = dstptr;
    c->u.copy.src = srcptr;
    c->u.copy.size = size;
    return list_append(l, c);
}

ze_result_t sim_command_list_append_memory_copy(ze_command_list_handle_t hCommandList, void *dstptr,
                                                const void *srcptr, size_t size,
                                                ze_event_handle_t hSignalEvent,
                                                uint32_t numWaitEvents,
                                                ze_event_handle_t *phWaitEvents) {
    return append_copy(hCommandList, dstptr, srcptr, size, hSignalEvent, numWaitEvents,
                       phWaitEvents);
}

ze_result_t sim_command_list_append_memory_copy_from_context(
    ze_command_list_handle_t hCommandList, void *dstptr, ze_context_handle_t hContextSrc,
    const void *srcptr, size_t size, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ze_result_t r;
    if (!sim_obj(hContextSrc, SIM_KIND_CONTEXT, &r))
        return r;
    return append_copy(hCommandList, dstptr, srcptr, size, hSignalEvent, numWaitEvents,
                       phWaitEvents);
}

ze_result_t sim_command_list_append_memory_fill(ze_command_list_handle_t hCommandList, void *ptr,
                                                const void *pattern, size_t pattern_size,
                                                size_t size, ze_event_handle_t hSignalEvent,
                                                uint32_t numWaitEvents,
                                                ze_event_handle_t *phWaitEvents) {
    ze_result_t r;
    sim_cmdlist_t *l;
    if (!sim_obj(hCommandList, SIM_KIND_CMDLIST, &r))
        return r;
    if (!ptr || !pattern)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // maxMemoryFillPatternSize is 128 and patterns are powers of two, as on Intel GPUs.
    if (pattern_size == 0 || pattern_size > SIM_MAX_FILL_PATTERN ||
        (pattern_size & (pattern_size - 1)))
        return ZE_RESULT_ERROR_INVALID_SIZE;
    if ((r = sim_mem_check_range(ptr, size)) != ZE_RESULT_SUCCESS)
        return r;
    r = sim_inject_take(ZE_SIM_FAIL_MEMORY_FILL);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    sim_cmd_t *c =
        begin(hCommandList, &l, SIM_CMD_FILL, hSignalEvent, numWaitEvents, phWaitEvents, &r);
    if (!c)
        return r;
    c->u.fill.dst = ptr;
    c->u.fill.size = size;
    // The pattern is copied now: the caller's buffer may be gone when the fill runs.
    c->u.fill.pattern_size = pattern_size;
    memcpy(c->u.fill.pattern, pattern, pattern_size);
    return list_append(l, c);
}

// Bytes from the base pointer to one past the last byte a region touches; 0 on overflow.
static int region_extent(const ze_copy_region_t *g, uint32_t pitch, uint32_t slice_pitch,
                         size_t *extent) {
    size_t z, y, end;
    if (g->width == 0 || g->height == 0 || g->depth == 0) {
        *extent = 0;
        return 1;
    }
    if (__builtin_mul_overflow((size_t)g->originZ + g->depth - 1, (size_t)slice_pitch, &z) ||
        __builtin_mul_overflow((size_t)g->originY + g->height - 1, (size_t)pitch, &y) ||
        __builtin_add_overflow(z, y, &end) ||
        __builtin_add_overflow(end, (size_t)g->originX + g->width, &end))
        return 0;
    *extent = end;
    return 1;
}

ze_result_t sim_command_list_append_memory_copy_region(
    ze_command_list_handle_t hCommandList, void *dstptr, const ze_copy_region_t *dstRegion,
    uint32_t dstPitch, uint32_t dstSlicePitch, const void *srcptr,
    const ze_copy_region_t *srcRegion, uint32_t srcPitch, uint32_t srcSlicePitch,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ze_result_t r;
    sim_cmdlist_t *l;
    if (!sim_obj(hCommandList, SIM_KIND_CMDLIST, &r))
        return r;
    if (!dstptr || !dstRegion || !srcptr || !srcRegion)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // Both regions describe the same box; only their origins and pitches differ.
    if (dstRegion->width != srcRegion->width || dstRegion->height != srcRegion->height ||
        dstRegion->depth != srcRegion->depth)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    // A row must fit in its pitch, and a slice in its slice pitch, or rows would overlap.
    if ((srcRegion->height > 1 && srcPitch < srcRegion->originX + (size_t)srcRegion->width) ||
        (dstRegion->height > 1 && dstPitch < dstRegion->originX + (size_t)dstRegion->width) ||
        (srcRegion->depth > 1 && srcSlicePitch < (size_t)srcPitch * srcRegion->height) ||
        (dstRegion->depth > 1 && dstSlicePitch < (size_t)dstPitch * dstRegion->height))
        return ZE_RESULT_ERROR_INVALID_SIZE;
    // The byte extent of each region decides whether it stays inside its allocation.
    size_t dext, sext;
    if (!region_extent(dstRegion, dstPitch, dstSlicePitch, &dext) ||
        !region_extent(srcRegion, srcPitch, srcSlicePitch, &sext))
        return ZE_RESULT_ERROR_INVALID_SIZE;
    if ((r = sim_mem_check_range(dstptr, dext)) != ZE_RESULT_SUCCESS ||
        (r = sim_mem_check_range(srcptr, sext)) != ZE_RESULT_SUCCESS)
        return r;
    r = sim_inject_take(ZE_SIM_FAIL_MEMORY_COPY);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    sim_cmd_t *c =
        begin(hCommandList, &l, SIM_CMD_COPY_REGION, hSignalEvent, numWaitEvents, phWaitEvents, &r);
    if (!c)
        return r;
    c->u.region.dst = dstptr;
    c->u.region.src = srcptr;
    c->u.region.dst_region = *dstRegion;
    c->u.region.src_region = *srcRegion;
    c->u.region.dst_pitch = dstPitch;
    c->u.region.dst_slice_pitch = dstSlicePitch;
    c->u.region.src_pitch = srcPitch;
    c->u.region.src_slice_pitch = srcSlicePitch;
    return list_append(l, c);
}

ze_result_t sim_command_list_append_memory_prefetch(ze_command_list_handle_t hCommandList,
                                                    const void *ptr, size_t size) {
    (void)size;
    ze_result_t r;
    if (!sim_obj(hCommandList, SIM_KIND_CMDLIST, &r))
        return r;
    if (!ptr)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // All memory is host memory, so prefetching moves nothing; keep the ordering point.
    return sim_command_list_append_barrier(hCommandList, NULL, 0, NULL);
}

ze_result_t sim_command_list_append_mem_advise(ze_command_list_handle_t hCommandList,
                                               ze_device_handle_t hDevice, const void *ptr,
                                               size_t size, ze_memory_advice_t advice) {
    (void)size;
    ze_result_t r;
    if (!sim_obj(hCommandList, SIM_KIND_CMDLIST, &r) || !sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    if (!ptr)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if ((uint32_t)advice > ZE_MEMORY_ADVICE_BIAS_UNCACHED)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    return sim_command_list_append_barrier(hCommandList, NULL, 0, NULL);
}

// Signal, wait and prefetch are barriers with different event arguments.
ze_result_t sim_command_list_append_signal_event(ze_command_list_handle_t hCommandList,
                                                 ze_event_handle_t hEvent) {
    if (!hEvent)
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    return sim_command_list_append_barrier(hCommandList, hEvent, 0, NULL);
}

ze_result_t sim_command_list_append_wait_on_events(ze_command_list_handle_t hCommandList,
                                                   uint32_t numEvents,
                                                   ze_event_handle_t *phEvents) {
    if (!phEvents)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    return sim_command_list_append_barrier(hCommandList, NULL, numEvents, phEvents);
}

ze_result_t sim_command_list_append_event_reset(ze_command_list_handle_t hCommandList,
                                                ze_event_handle_t hEvent) {
    ze_result_t r;
    sim_cmdlist_t *l;
    sim_event_t *ev = sim_obj(hEvent, SIM_KIND_EVENT, &r);
    if (!ev)
        return r;
    sim_cmd_t *c = begin(hCommandList, &l, SIM_CMD_EVENT_RESET, NULL, 0, NULL, &r);
    if (!c)
        return r;
    // The reset target is retained like wait events, so destroying it early is harmless.
    c->u.reset.event = ev;
    sim_engine_lock();
    sim_event_retain(ev);
    sim_engine_unlock();
    return list_append(l, c);
}

ze_result_t sim_command_list_append_query_kernel_timestamps(
    ze_command_list_handle_t hCommandList, uint32_t numEvents, ze_event_handle_t *phEvents,
    void *dstptr, const size_t *pOffsets, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ze_result_t r;
    sim_cmdlist_t *l;
    if (!sim_obj(hCommandList, SIM_KIND_CMDLIST, &r))
        return r;
    if (!phEvents || !dstptr)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    for (uint32_t i = 0; i < numEvents; ++i)
        if (!sim_obj(phEvents[i], SIM_KIND_EVENT, &r))
            return r;
    sim_cmd_t *c = begin(hCommandList, &l, SIM_CMD_QUERY_TIMESTAMPS, hSignalEvent, numWaitEvents,
                         phWaitEvents, &r);
    if (!c)
        return r;
    // Results are written when the command runs, so wait events decide what they see.
    c->u.query.dst = dstptr;
    c->u.query.events = numEvents ? malloc(numEvents * sizeof(sim_event_t *)) : NULL;
    c->u.query.offsets = pOffsets && numEvents ? malloc(numEvents * sizeof(size_t)) : NULL;
    if ((numEvents && !c->u.query.events) || (pOffsets && numEvents && !c->u.query.offsets)) {
        sim_cmd_free(c); // count is still 0: only the two arrays are freed
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    if (c->u.query.offsets)
        memcpy(c->u.query.offsets, pOffsets, numEvents * sizeof(size_t));
    sim_engine_lock();
    for (uint32_t i = 0; i < numEvents; ++i) {
        c->u.query.events[i] = (sim_event_t *)phEvents[i];
        sim_event_retain(c->u.query.events[i]);
    }
    // Counted last: sim_cmd_free_locked releases exactly the events retained so far.
    c->u.query.count = numEvents;
    sim_engine_unlock();
    return list_append(l, c);
}

// Builds a launch command for n kernels; group counts are filled in by the caller.
static ze_result_t launch_begin(ze_command_list_handle_t hCommandList, ze_sim_launch_kind_t kind,
                                uint32_t n, ze_kernel_handle_t *kernels,
                                ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                ze_event_handle_t *phWaitEvents, sim_cmdlist_t **list,
                                sim_cmd_t **out) {
    ze_result_t r;
    if (!sim_obj(hCommandList, SIM_KIND_CMDLIST, &r))
        return r;
    for (uint32_t i = 0; i < n; ++i)
        if (!sim_obj(kernels[i], SIM_KIND_KERNEL, &r))
            return r;
    // Fails before any snapshot is taken, so nothing needs undoing.
    r = sim_inject_take(ZE_SIM_FAIL_LAUNCH);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    sim_cmd_t *c =
        begin(hCommandList, list, SIM_CMD_LAUNCH, hSignalEvent, numWaitEvents, phWaitEvents, &r);
    if (!c)
        return r;
    c->u.launch.kind = kind;
    if (n && !(c->u.launch.kernels = calloc(n, sizeof(sim_launch_t)))) {
        sim_cmd_free(c);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    // num_kernels grows with each snapshot so that a failure frees exactly what was taken.
    for (uint32_t i = 0; i < n; ++i) {
        r = sim_kernel_snapshot(kernels[i], &c->u.launch.kernels[i]);
        if (r != ZE_RESULT_SUCCESS) {
            sim_cmd_free(c);
            return r;
        }
        c->u.launch.num_kernels = i + 1;
    }
    *out = c;
    return ZE_RESULT_SUCCESS;
}

// Direct launches copy their group counts now; indirect ones keep the pointer.
static ze_result_t append_launch(ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
                                 const ze_group_count_t *counts, ze_sim_launch_kind_t kind,
                                 ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                 ze_event_handle_t *phWaitEvents) {
    if (!counts)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    sim_cmdlist_t *l;
    sim_cmd_t *c;
    ze_result_t r = launch_begin(hCommandList, kind, 1, &hKernel, hSignalEvent, numWaitEvents,
                                 phWaitEvents, &l, &c);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    if (kind == ZE_SIM_LAUNCH_INDIRECT)
        c->u.launch.indirect_counts = counts;
    else
        c->u.launch.counts = *counts;
    return list_append(l, c);
}

ze_result_t sim_command_list_append_launch_kernel(ze_command_list_handle_t hCommandList,
                                                  ze_kernel_handle_t hKernel,
                                                  const ze_group_count_t *pLaunchFuncArgs,
                                                  ze_event_handle_t hSignalEvent,
                                                  uint32_t numWaitEvents,
                                                  ze_event_handle_t *phWaitEvents) {
    return append_launch(hCommandList, hKernel, pLaunchFuncArgs, ZE_SIM_LAUNCH_KERNEL, hSignalEvent,
                         numWaitEvents, phWaitEvents);
}

ze_result_t sim_command_list_append_launch_cooperative_kernel(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    return append_launch(hCommandList, hKernel, pLaunchFuncArgs, ZE_SIM_LAUNCH_COOPERATIVE,
                         hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t sim_command_list_append_launch_kernel_indirect(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchArgumentsBuffer, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return append_launch(hCommandList, hKernel, pLaunchArgumentsBuffer, ZE_SIM_LAUNCH_INDIRECT,
                         hSignalEvent, numWaitEvents, phWaitEvents);
}

// The count and the per-kernel group counts are read when the command runs (engine.c).
ze_result_t sim_command_list_append_launch_multiple_kernels_indirect(
    ze_command_list_handle_t hCommandList, uint32_t numKernels, ze_kernel_handle_t *phKernels,
    const uint32_t *pCountBuffer, const ze_group_count_t *pLaunchArgumentsBuffer,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    if (!phKernels || !pCountBuffer || !pLaunchArgumentsBuffer)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    sim_cmdlist_t *l;
    sim_cmd_t *c;
    ze_result_t r = launch_begin(hCommandList, ZE_SIM_LAUNCH_MULTIPLE_INDIRECT, numKernels,
                                 phKernels, hSignalEvent, numWaitEvents, phWaitEvents, &l, &c);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    c->u.launch.indirect_num = pCountBuffer;
    c->u.launch.indirect_counts = pLaunchArgumentsBuffer;
    return list_append(l, c);
}
