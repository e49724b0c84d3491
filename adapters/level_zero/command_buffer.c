// SPDX-License-Identifier: MIT
// Command buffers as regular command lists. A buffer's list starts with a barrier waiting for
// its `start` event, has a barrier after every command (so commands run in append order, which
// honours every sync point) and ends with a barrier signalling `done`; it is closed at
// finalisation and executed on the buffer's own command queue. A run puts two barriers on the
// caller's queue: one signalling `start` after the run's wait list and the queue's order, one
// waiting for `done` that carries the run's event. The state machine, sync points and UR's
// rules are common/command_buffer.c. Updates are not offered (no mutable command lists here):
// an updatable buffer is refused at creation, and the Update entry points stay unsupported.
#include <stdlib.h>
#include <string.h>

#include "l0_internal.h"

#define CB_CHECK(h)                                                                                \
    do {                                                                                           \
        if (!l0_is((h), URC_KIND_COMMAND_BUFFER))                                                  \
            return UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP;                                     \
    } while (0)

void l0_cb_caps(urc_cb_caps_t *caps) {
    memset(caps, 0, sizeof *caps);
    caps->supported = true;
}

static void cb_destroy(l0_cb_t *cb) {
    // The last run must be over before its list, queue and events go.
    if (cb->ran && cb->fence != NULL)
        (void)zeFenceHostSynchronize(cb->fence, UINT64_MAX);
    if (cb->fence != NULL)
        (void)zeFenceDestroy(cb->fence);
    if (cb->list != NULL)
        (void)zeCommandListDestroy(cb->list);
    if (cb->zq != NULL)
        (void)zeCommandQueueDestroy(cb->zq);
    for (uint32_t i = 0; i < cb->core.num_held; ++i)
        l0_kernel_release(cb->core.held[i]);
    if (cb->start != NULL)
        l0_context_give_event(cb->ctx, 0, cb->start);
    if (cb->done != NULL)
        l0_context_give_event(cb->ctx, 0, cb->done);
    pthread_mutex_destroy(&cb->run_lock);
    urc_cb_fini(&cb->core);
    l0_context_release_internal(cb->ctx);
    free(cb);
}

ur_result_t l0_command_buffer_create_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                         const ur_exp_command_buffer_desc_t *pCommandBufferDesc,
                                         ur_exp_command_buffer_handle_t *phCommandBuffer) {
    if (!l0_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    if (!l0_is(hDevice, URC_KIND_DEVICE))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    l0_context_t *ctx = L0_CONTEXT(hContext);
    l0_device_t *dev = L0_DEVICE(hDevice);
    if (!l0_context_has_device(ctx, dev))
        return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0, "the device is not in the context");
    urc_cb_caps_t caps;
    l0_cb_caps(&caps);
    ur_result_t res = urc_cb_check_create(pCommandBufferDesc, &caps);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_cb_t *cb = URC_NEW(l0_cb_t);
    if (cb == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    res = urc_cb_init(&cb->core, pCommandBufferDesc, &caps, hContext);
    if (res != UR_RESULT_SUCCESS) {
        free(cb);
        return res;
    }
    urc_object_init(&cb->obj, &l0_ddi, URC_KIND_COMMAND_BUFFER);
    cb->ctx = ctx;
    cb->dev = dev;
    pthread_mutex_init(&cb->run_lock, NULL);
    l0_context_retain_internal(ctx);
    ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, dev->compute_ordinal,
                                 0};
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                  NULL,
                                  dev->compute_ordinal,
                                  0,
                                  0,
                                  ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                  ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_fence_desc_t fd = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0};
    res = l0_ok(zeCommandListCreate(ctx->ze, dev->ze, &ld, &cb->list), "zeCommandListCreate");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandQueueCreate(ctx->ze, dev->ze, &qd, &cb->zq), "zeCommandQueueCreate");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeFenceCreate(cb->zq, &fd, &cb->fence), "zeFenceCreate");
    if (res == UR_RESULT_SUCCESS)
        res = l0_context_take_event(ctx, 0, &cb->start);
    if (res == UR_RESULT_SUCCESS)
        res = l0_context_take_event(ctx, 0, &cb->done);
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandListAppendBarrier(cb->list, NULL, 1, &cb->start),
                    "zeCommandListAppendBarrier");
    if (res != UR_RESULT_SUCCESS) {
        cb_destroy(cb);
        return res;
    }
    *phCommandBuffer = (ur_exp_command_buffer_handle_t)cb;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_command_buffer_retain_exp(ur_exp_command_buffer_handle_t hCommandBuffer) {
    CB_CHECK(hCommandBuffer);
    urc_user_retain(&((l0_cb_t *)hCommandBuffer)->obj);
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_command_buffer_release_exp(ur_exp_command_buffer_handle_t hCommandBuffer) {
    CB_CHECK(hCommandBuffer);
    l0_cb_t *cb = (l0_cb_t *)hCommandBuffer;
    switch (urc_user_release(&cb->obj)) {
    case URC_RELEASE_REFUSED:
        return urc_error_released(UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP,
                                  "urCommandBufferReleaseExp");
    case URC_RELEASE_DESTROY:
        cb_destroy(cb);
        return UR_RESULT_SUCCESS;
    default:
        return UR_RESULT_SUCCESS;
    }
}

ur_result_t l0_command_buffer_finalize_exp(ur_exp_command_buffer_handle_t hCommandBuffer) {
    CB_CHECK(hCommandBuffer);
    l0_cb_t *cb = (l0_cb_t *)hCommandBuffer;
    ur_result_t res = urc_cb_finalize_begin(&cb->core);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = l0_ok(zeCommandListAppendBarrier(cb->list, cb->done, 0, NULL),
                "zeCommandListAppendBarrier");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandListClose(cb->list), "zeCommandListClose");
    return urc_cb_finalize_end(&cb->core, res);
}

ur_result_t l0_command_buffer_get_info_exp(ur_exp_command_buffer_handle_t hCommandBuffer,
                                           ur_exp_command_buffer_info_t propName, size_t propSize,
                                           void *pPropValue, size_t *pPropSizeRet) {
    CB_CHECK(hCommandBuffer);
    l0_cb_t *cb = (l0_cb_t *)hCommandBuffer;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    return urc_cb_get_info(&cb->core, urc_refcount(&cb->obj), propName, &out);
}

ur_result_t l0_command_buffer_get_native_handle_exp(ur_exp_command_buffer_handle_t hCommandBuffer,
                                                    ur_native_handle_t *phNativeCommandBuffer) {
    CB_CHECK(hCommandBuffer);
    *phNativeCommandBuffer = (ur_native_handle_t)((l0_cb_t *)hCommandBuffer)->list;
    return UR_RESULT_SUCCESS;
}

// ---- appends ---------------------------------------------------------------------------------

/// Starts an append (the buffer's lock held until append_end). Sync points need no native
/// form: the list runs in append order.
static ur_result_t append_begin(l0_cb_t *cb, uint32_t n,
                                const ur_exp_command_buffer_sync_point_t *sync, bool want_command,
                                uint32_t num_events, ur_event_handle_t *phEvent,
                                ur_exp_command_buffer_command_handle_t *phCommand) {
    if (phEvent != NULL)
        *phEvent = NULL;
    ur_result_t res =
        urc_cb_append_begin(&cb->core, n, sync, want_command, num_events > 0 || phEvent != NULL);
    // No command handles: nothing can be updated on this adapter.
    if (res == UR_RESULT_SUCCESS && phCommand != NULL)
        *phCommand = NULL;
    return res;
}

/// Ends an append: a barrier after the command keeps the list in order.
static ur_result_t append_end(l0_cb_t *cb, ur_result_t res,
                              ur_exp_command_buffer_sync_point_t *pSyncPoint) {
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandListAppendBarrier(cb->list, NULL, 0, NULL),
                    "zeCommandListAppendBarrier");
    return urc_cb_append_end(&cb->core, res, cb->core.num_sync_points, NULL, pSyncPoint);
}

static ur_result_t append_kernel(ur_exp_command_buffer_handle_t h, ur_kernel_handle_t hKernel,
                                 uint32_t workDim, const size_t *offset, const size_t *global,
                                 const size_t *local, uint32_t numArgs,
                                 const ur_exp_kernel_arg_properties_t *pArgs, uint32_t numAlt,
                                 ur_kernel_handle_t *phAlt, uint32_t numSync,
                                 const ur_exp_command_buffer_sync_point_t *pSync,
                                 uint32_t numEvents, ur_exp_command_buffer_sync_point_t *pSyncPoint,
                                 ur_event_handle_t *phEvent,
                                 ur_exp_command_buffer_command_handle_t *phCommand) {
    CB_CHECK(h);
    if (!l0_is(hKernel, URC_KIND_KERNEL))
        return UR_RESULT_ERROR_INVALID_KERNEL;
    l0_cb_t *cb = (l0_cb_t *)h;
    const void *contexts[9];
    if (numAlt > 8)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "kernel alternatives are for updates, which Level Zero lacks here");
    for (uint32_t i = 0; i <= numAlt; ++i) {
        ur_kernel_handle_t k = i == 0 ? hKernel : phAlt[i - 1];
        if (k != NULL && !l0_is(k, URC_KIND_KERNEL))
            return UR_RESULT_ERROR_INVALID_KERNEL;
        contexts[i] = k != NULL ? (const void *)L0_KERNEL(k)->program->ctx : NULL;
    }
    urc_cb_command_t snap;
    ur_result_t res = urc_cb_kernel_record(&snap, &cb->core, hKernel, workDim, offset, global,
                                           local, numAlt, (const void *const *)phAlt, contexts);
    if (res != UR_RESULT_SUCCESS)
        return res;
    urc_cb_command_fini(&snap);
    res = append_begin(cb, numSync, pSync, phCommand != NULL, numEvents, phEvent, phCommand);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // The list runs the kernel's module code: the kernel (and so its program) stays alive as
    // long as the buffer.
    res = urc_cb_hold(&cb->core, hKernel);
    if (res == UR_RESULT_SUCCESS) {
        l0_kernel_retain(hKernel);
        res = l0_kernel_append_launch(hKernel, cb->ctx, cb->dev, workDim, offset, global, local,
                                      numArgs, pArgs, cb->list);
    }
    return append_end(cb, res, pSyncPoint);
}

ur_result_t l0_command_buffer_append_kernel_launch_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, ur_kernel_handle_t hKernel, uint32_t workDim,
    const size_t *pGlobalWorkOffset, const size_t *pGlobalWorkSize, const size_t *pLocalWorkSize,
    uint32_t numKernelAlternatives, ur_kernel_handle_t *phKernelAlternatives,
    uint32_t numSyncPointsInWaitList, const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList,
    uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,
    ur_exp_command_buffer_sync_point_t *pSyncPoint, ur_event_handle_t *phEvent,
    ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)phEventWaitList;
    return append_kernel(hCommandBuffer, hKernel, workDim, pGlobalWorkOffset, pGlobalWorkSize,
                         pLocalWorkSize, 0, NULL, numKernelAlternatives, phKernelAlternatives,
                         numSyncPointsInWaitList, pSyncPointWaitList, numEventsInWaitList,
                         pSyncPoint, phEvent, phCommand);
}

ur_result_t l0_command_buffer_append_kernel_launch_with_args_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, ur_kernel_handle_t hKernel, uint32_t workDim,
    const size_t *pGlobalWorkOffset, const size_t *pGlobalWorkSize, const size_t *pLocalWorkSize,
    uint32_t numArgs, const ur_exp_kernel_arg_properties_t *pArgs, uint32_t numKernelAlternatives,
    ur_kernel_handle_t *phKernelAlternatives, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_exp_command_buffer_sync_point_t *pSyncPoint,
    ur_event_handle_t *phEvent, ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)phEventWaitList;
    return append_kernel(hCommandBuffer, hKernel, workDim, pGlobalWorkOffset, pGlobalWorkSize,
                         pLocalWorkSize, numArgs, pArgs, numKernelAlternatives,
                         phKernelAlternatives, numSyncPointsInWaitList, pSyncPointWaitList,
                         numEventsInWaitList, pSyncPoint, phEvent, phCommand);
}

#define APPEND_BEGIN(cb)                                                                           \
    do {                                                                                           \
        ur_result_t begin_res_ =                                                                   \
            append_begin((cb), numSyncPointsInWaitList, pSyncPointWaitList, phCommand != NULL,     \
                         numEventsInWaitList, phEvent, phCommand);                                 \
        if (begin_res_ != UR_RESULT_SUCCESS)                                                       \
            return begin_res_;                                                                     \
    } while (0)

static ur_result_t append_copy(ur_exp_command_buffer_handle_t h, void *dst, const void *src,
                               size_t size, uint32_t numSyncPointsInWaitList,
                               const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList,
                               uint32_t numEventsInWaitList,
                               ur_exp_command_buffer_sync_point_t *pSyncPoint,
                               ur_event_handle_t *phEvent,
                               ur_exp_command_buffer_command_handle_t *phCommand) {
    l0_cb_t *cb = (l0_cb_t *)h;
    APPEND_BEGIN(cb);
    ur_result_t res = l0_ok(zeCommandListAppendMemoryCopy(cb->list, dst, src, size, NULL, 0, NULL),
                            "zeCommandListAppendMemoryCopy");
    return append_end(cb, res, pSyncPoint);
}

ur_result_t l0_command_buffer_append_usm_memcpy_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, void *pDst, const void *pSrc, size_t size,
    uint32_t numSyncPointsInWaitList, const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList,
    uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,
    ur_exp_command_buffer_sync_point_t *pSyncPoint, ur_event_handle_t *phEvent,
    ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)phEventWaitList;
    CB_CHECK(hCommandBuffer);
    return append_copy(hCommandBuffer, pDst, pSrc, size, numSyncPointsInWaitList,
                       pSyncPointWaitList, numEventsInWaitList, pSyncPoint, phEvent, phCommand);
}

static ur_result_t append_fill(ur_exp_command_buffer_handle_t h, void *ptr, const void *pattern,
                               size_t psize, size_t size, uint32_t numSyncPointsInWaitList,
                               const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList,
                               uint32_t numEventsInWaitList,
                               ur_exp_command_buffer_sync_point_t *pSyncPoint,
                               ur_event_handle_t *phEvent,
                               ur_exp_command_buffer_command_handle_t *phCommand) {
    l0_cb_t *cb = (l0_cb_t *)h;
    if (psize == 0 || (psize & (psize - 1)) || psize > cb->dev->max_fill_pattern)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "a fill pattern of %zu bytes (powers of two up to %zu)", psize,
                             cb->dev->max_fill_pattern);
    APPEND_BEGIN(cb);
    ur_result_t res =
        l0_ok(zeCommandListAppendMemoryFill(cb->list, ptr, pattern, psize, size, NULL, 0, NULL),
              "zeCommandListAppendMemoryFill");
    return append_end(cb, res, pSyncPoint);
}

ur_result_t l0_command_buffer_append_usm_fill_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, void *pMemory, const void *pPattern,
    size_t patternSize, size_t size, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_exp_command_buffer_sync_point_t *pSyncPoint,
    ur_event_handle_t *phEvent, ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)phEventWaitList;
    CB_CHECK(hCommandBuffer);
    return append_fill(hCommandBuffer, pMemory, pPattern, patternSize, size,
                       numSyncPointsInWaitList, pSyncPointWaitList, numEventsInWaitList, pSyncPoint,
                       phEvent, phCommand);
}

static ur_result_t check_mem(l0_cb_t *cb, ur_mem_handle_t m, size_t offset, size_t size) {
    if (!l0_is(m, URC_KIND_MEM))
        return UR_RESULT_ERROR_INVALID_MEM_OBJECT;
    if (L0_MEM(m)->ctx != cb->ctx)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "the buffer belongs to another context than the command buffer");
    if (!urc_range_fits(L0_MEM(m)->size, offset, size))
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0, "range outside the buffer");
    return UR_RESULT_SUCCESS;
}

static void *mem_at(ur_mem_handle_t m, size_t offset) {
    return (char *)L0_MEM(m)->ptr + offset;
}

ur_result_t l0_command_buffer_append_mem_buffer_copy_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, ur_mem_handle_t hSrcMem, ur_mem_handle_t hDstMem,
    size_t srcOffset, size_t dstOffset, size_t size, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_exp_command_buffer_sync_point_t *pSyncPoint,
    ur_event_handle_t *phEvent, ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)phEventWaitList;
    CB_CHECK(hCommandBuffer);
    l0_cb_t *cb = (l0_cb_t *)hCommandBuffer;
    ur_result_t res = check_mem(cb, hSrcMem, srcOffset, size);
    if (res == UR_RESULT_SUCCESS)
        res = check_mem(cb, hDstMem, dstOffset, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return append_copy(hCommandBuffer, mem_at(hDstMem, dstOffset), mem_at(hSrcMem, srcOffset), size,
                       numSyncPointsInWaitList, pSyncPointWaitList, numEventsInWaitList, pSyncPoint,
                       phEvent, phCommand);
}

ur_result_t l0_command_buffer_append_mem_buffer_write_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, ur_mem_handle_t hBuffer, size_t offset,
    size_t size, const void *pSrc, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_exp_command_buffer_sync_point_t *pSyncPoint,
    ur_event_handle_t *phEvent, ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)phEventWaitList;
    CB_CHECK(hCommandBuffer);
    ur_result_t res = check_mem((l0_cb_t *)hCommandBuffer, hBuffer, offset, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return append_copy(hCommandBuffer, mem_at(hBuffer, offset), pSrc, size, numSyncPointsInWaitList,
                       pSyncPointWaitList, numEventsInWaitList, pSyncPoint, phEvent, phCommand);
}

ur_result_t l0_command_buffer_append_mem_buffer_read_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, ur_mem_handle_t hBuffer, size_t offset,
    size_t size, void *pDst, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_exp_command_buffer_sync_point_t *pSyncPoint,
    ur_event_handle_t *phEvent, ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)phEventWaitList;
    CB_CHECK(hCommandBuffer);
    ur_result_t res = check_mem((l0_cb_t *)hCommandBuffer, hBuffer, offset, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return append_copy(hCommandBuffer, pDst, mem_at(hBuffer, offset), size, numSyncPointsInWaitList,
                       pSyncPointWaitList, numEventsInWaitList, pSyncPoint, phEvent, phCommand);
}

ur_result_t l0_command_buffer_append_mem_buffer_fill_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, ur_mem_handle_t hBuffer, const void *pPattern,
    size_t patternSize, size_t offset, size_t size, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_exp_command_buffer_sync_point_t *pSyncPoint,
    ur_event_handle_t *phEvent, ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)phEventWaitList;
    CB_CHECK(hCommandBuffer);
    ur_result_t res = check_mem((l0_cb_t *)hCommandBuffer, hBuffer, offset, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return append_fill(hCommandBuffer, mem_at(hBuffer, offset), pPattern, patternSize, size,
                       numSyncPointsInWaitList, pSyncPointWaitList, numEventsInWaitList, pSyncPoint,
                       phEvent, phCommand);
}

/// Prefetch and advice: hints that only need their place in the order.
static ur_result_t append_hint(ur_exp_command_buffer_handle_t h, uint32_t numSyncPointsInWaitList,
                               const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList,
                               uint32_t numEventsInWaitList,
                               ur_exp_command_buffer_sync_point_t *pSyncPoint,
                               ur_event_handle_t *phEvent,
                               ur_exp_command_buffer_command_handle_t *phCommand) {
    CB_CHECK(h);
    l0_cb_t *cb = (l0_cb_t *)h;
    APPEND_BEGIN(cb);
    return append_end(cb, UR_RESULT_SUCCESS, pSyncPoint);
}

ur_result_t l0_command_buffer_append_usm_prefetch_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, const void *pMemory, size_t size,
    ur_usm_migration_flags_t flags, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_exp_command_buffer_sync_point_t *pSyncPoint,
    ur_event_handle_t *phEvent, ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)pMemory, (void)size, (void)flags, (void)phEventWaitList;
    return append_hint(hCommandBuffer, numSyncPointsInWaitList, pSyncPointWaitList,
                       numEventsInWaitList, pSyncPoint, phEvent, phCommand);
}

ur_result_t l0_command_buffer_append_usm_advise_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, const void *pMemory, size_t size,
    ur_usm_advice_flags_t advice, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_exp_command_buffer_sync_point_t *pSyncPoint,
    ur_event_handle_t *phEvent, ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)pMemory, (void)size, (void)advice, (void)phEventWaitList;
    return append_hint(hCommandBuffer, numSyncPointsInWaitList, pSyncPointWaitList,
                       numEventsInWaitList, pSyncPoint, phEvent, phCommand);
}

// ---- runs ------------------------------------------------------------------------------------

ur_result_t l0_enqueue_command_buffer_exp(ur_queue_handle_t hQueue,
                                          ur_exp_command_buffer_handle_t hCommandBuffer,
                                          uint32_t numEventsInWaitList,
                                          const ur_event_handle_t *phEventWaitList,
                                          ur_event_handle_t *phEvent) {
    if (!l0_is(hQueue, URC_KIND_QUEUE))
        return UR_RESULT_ERROR_INVALID_QUEUE;
    CB_CHECK(hCommandBuffer);
    l0_queue_t *q = L0_QUEUE(hQueue);
    l0_cb_t *cb = (l0_cb_t *)hCommandBuffer;
    if (q->ctx != cb->ctx || q->dev != cb->dev)
        return urc_error_set(UR_RESULT_ERROR_INVALID_QUEUE, 0,
                             "the queue is not of the command buffer's context and device");
    ur_result_t res = urc_cb_check_enqueue(&cb->core);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // The list's start and done events are the buffer's own, so a run starts after the last
    // one ended (the last run's barriers are submitted, so the wait ends).
    pthread_mutex_lock(&cb->run_lock);
    if (cb->ran) {
        res = l0_ok(zeFenceHostSynchronize(cb->fence, UINT64_MAX), "zeFenceHostSynchronize");
        if (res == UR_RESULT_SUCCESS)
            res = l0_ok(zeFenceReset(cb->fence), "zeFenceReset");
        if (res == UR_RESULT_SUCCESS)
            res = l0_ok(zeEventHostReset(cb->start), "zeEventHostReset");
        if (res == UR_RESULT_SUCCESS)
            res = l0_ok(zeEventHostReset(cb->done), "zeEventHostReset");
    }
    l0_op_t op;
    if (res == UR_RESULT_SUCCESS)
        res = l0_op_begin(q, UR_COMMAND_ENQUEUE_COMMAND_BUFFER_EXP, numEventsInWaitList,
                          phEventWaitList, &op);
    if (res != UR_RESULT_SUCCESS) {
        pthread_mutex_unlock(&cb->run_lock);
        return res;
    }
    res = l0_ok(zeCommandListAppendBarrier(op.list, cb->start, op.nwaits, op.waits),
                "zeCommandListAppendBarrier");
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandListAppendBarrier(op.list, op.event->ze, 1, &cb->done),
                    "zeCommandListAppendBarrier");
    // The run's event is kept until the caller's batch holding the barriers has gone out: the
    // buffer's list waits for the first barrier, and the next run for this one's fence.
    ur_event_handle_t ev = NULL;
    res = l0_op_end(&op, res, false, &ev);
    if (res == UR_RESULT_SUCCESS)
        res = l0_event_submit(L0_EVENT(ev));
    bool barriers_out = res == UR_RESULT_SUCCESS;
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandQueueExecuteCommandLists(cb->zq, 1, &cb->list, cb->fence),
                    "zeCommandQueueExecuteCommandLists");
    if (res == UR_RESULT_SUCCESS)
        cb->ran = true;
    else if (barriers_out)
        (void)zeEventHostSignal(cb->done); // nothing will run: release the waiting barrier
    pthread_mutex_unlock(&cb->run_lock);
    if (res == UR_RESULT_SUCCESS && phEvent != NULL)
        *phEvent = ev;
    else if (ev != NULL)
        l0_event_release(ev);
    return res;
}
