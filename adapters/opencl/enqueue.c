// SPDX-License-Identifier: MIT
// Enqueue operations on buffers, markers and barriers, and kernel launches. Every one
// translates the wait list, checks sizes without overflow, and returns an event only when
// the command was enqueued.
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ocl_internal.h"
#include "queue/launch.h"
#include "core/pnext.h"
#include "memory/usm_range.h"
#include "memory/buffer.h"
#include "memory/fill.h"
#include "queue/command_rules.h"

ur_result_t ocl_enqueue_events_wait(ur_queue_handle_t hQueue, uint32_t numEventsInWaitList,
                                    const ur_event_handle_t *phEventWaitList,
                                    ur_event_handle_t *phEvent) {
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList));
    cl_event ev = NULL;
    cl_int err =
        clEnqueueMarkerWithWaitList(hQueue->cl, wl.count, wl.events, phEvent != NULL ? &ev : NULL);
    return ocl_enqueue_done(err, "clEnqueueMarkerWithWaitList", &wl, hQueue, UR_COMMAND_EVENTS_WAIT,
                            ev, phEvent);
}

ur_result_t ocl_enqueue_events_wait_with_barrier(ur_queue_handle_t hQueue,
                                                 uint32_t numEventsInWaitList,
                                                 const ur_event_handle_t *phEventWaitList,
                                                 ur_event_handle_t *phEvent) {
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList));
    cl_event ev = NULL;
    cl_int err =
        clEnqueueBarrierWithWaitList(hQueue->cl, wl.count, wl.events, phEvent != NULL ? &ev : NULL);
    return ocl_enqueue_done(err, "clEnqueueBarrierWithWaitList", &wl, hQueue,
                            UR_COMMAND_EVENTS_WAIT_WITH_BARRIER, ev, phEvent);
}

ur_result_t ocl_enqueue_events_wait_with_barrier_ext(ur_queue_handle_t hQueue,
                                                     const ur_exp_enqueue_ext_properties_t *pProps,
                                                     uint32_t numEventsInWaitList,
                                                     const ur_event_handle_t *phEventWaitList,
                                                     ur_event_handle_t *phEvent) {
    (void)pProps; // low-power events are a hint
    // `*phEvent` is compared with the live reusable events, never read through otherwise: for
    // other callers it is an output and may hold anything.
    urc_object_t *reusable = phEvent != NULL ? urc_reusable_claim(*phEvent) : NULL;
    if (reusable == NULL)
        return ocl_enqueue_events_wait_with_barrier(hQueue, numEventsInWaitList, phEventWaitList,
                                                    phEvent);
    ur_event_handle_t e = (ur_event_handle_t)reusable;
    ur_result_t res = ocl_event_signal(e, hQueue, numEventsInWaitList, phEventWaitList);
    ocl_event_release_internal(e);
    return res;
}

// ---- buffers ---------------------------------------------------------------------------------

static ur_result_t check_buffer(ur_queue_handle_t q, ur_mem_handle_t m) {
    OCL_CHECK_HANDLE(q, URC_KIND_QUEUE, UR_RESULT_ERROR_INVALID_QUEUE);
    OCL_CHECK_HANDLE(m, URC_KIND_MEM, UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    if (m->is_image)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0, "an image is not a buffer");
    if (m->context != q->context)
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the buffer and the queue belong to different contexts");
    return UR_RESULT_SUCCESS;
}

static ur_result_t check_range(ur_mem_handle_t m, size_t offset, size_t size) {
    return urc_rule_buffer_range(m->size, offset, size);
}

// Only the rectangle's extent is checked here: OpenCL checks the pitches themselves.
static ur_result_t check_rect_in(size_t limit, ur_rect_offset_t o, ur_rect_region_t r, size_t row,
                                 size_t slice, const char *what) {
    size_t end = 0;
    if (!urc_rect_pitches(&r, &row, &slice) || !urc_rect_end(o, &r, row, slice, &end) ||
        end > limit)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0, "rectangle outside %s of %zu bytes",
                             what, limit);
    return UR_RESULT_SUCCESS;
}

static ur_result_t check_rect(ur_mem_handle_t m, ur_rect_offset_t o, ur_rect_region_t r, size_t row,
                              size_t slice) {
    return check_rect_in(m->size, o, r, row, slice, "a buffer");
}

// Reads and writes differ only in the OpenCL call and the command; `host` is written only by
// reads.
static ur_result_t transfer(bool write, ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                            bool blocking, size_t offset, size_t size, void *host, uint32_t n,
                            const ur_event_handle_t *waits, ur_event_handle_t *phEvent) {
    OCL_TRY_UR(check_buffer(hQueue, hBuffer));
    OCL_TRY_UR(check_range(hBuffer, offset, size));
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, n, waits));
    cl_event ev = NULL, *evp = phEvent != NULL ? &ev : NULL;
    cl_int err = write ? clEnqueueWriteBuffer(hQueue->cl, hBuffer->cl, blocking, offset, size, host,
                                              wl.count, wl.events, evp)
                       : clEnqueueReadBuffer(hQueue->cl, hBuffer->cl, blocking, offset, size, host,
                                             wl.count, wl.events, evp);
    ur_result_t res = ocl_enqueue_done(
        err, write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer", &wl, hQueue,
        write ? UR_COMMAND_MEM_BUFFER_WRITE : UR_COMMAND_MEM_BUFFER_READ, ev, phEvent);
    return ocl_assert_after_blocking(hQueue, blocking, res, phEvent);
}

ur_result_t ocl_enqueue_mem_buffer_read(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                                        bool blockingRead, size_t offset, size_t size, void *pDst,
                                        uint32_t numEventsInWaitList,
                                        const ur_event_handle_t *phEventWaitList,
                                        ur_event_handle_t *phEvent) {
    return transfer(false, hQueue, hBuffer, blockingRead, offset, size, pDst, numEventsInWaitList,
                    phEventWaitList, phEvent);
}

ur_result_t ocl_enqueue_mem_buffer_write(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                                         bool blockingWrite, size_t offset, size_t size,
                                         const void *pSrc, uint32_t numEventsInWaitList,
                                         const ur_event_handle_t *phEventWaitList,
                                         ur_event_handle_t *phEvent) {
    return transfer(true, hQueue, hBuffer, blockingWrite, offset, size, (void *)pSrc,
                    numEventsInWaitList, phEventWaitList, phEvent);
}

// The rectangular forms, alike: only the buffer side is checked here (OpenCL checks the rest).
static ur_result_t transfer_rect(bool write, ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                                 bool blocking, ur_rect_offset_t bufferOrigin,
                                 ur_rect_offset_t hostOrigin, ur_rect_region_t region,
                                 size_t bufferRowPitch, size_t bufferSlicePitch,
                                 size_t hostRowPitch, size_t hostSlicePitch, void *host, uint32_t n,
                                 const ur_event_handle_t *waits, ur_event_handle_t *phEvent) {
    OCL_TRY_UR(check_buffer(hQueue, hBuffer));
    OCL_TRY_UR(check_rect(hBuffer, bufferOrigin, region, bufferRowPitch, bufferSlicePitch));
    // The host side: inside its USM allocation when it is one, never past the address space.
    OCL_TRY_UR(check_rect_in(urc_usm_host_limit(ocl_usm_lookup, hQueue->context, host), hostOrigin,
                             region, hostRowPitch, hostSlicePitch, "host memory"));
    const size_t bo[3] = {bufferOrigin.x, bufferOrigin.y, bufferOrigin.z};
    const size_t ho[3] = {hostOrigin.x, hostOrigin.y, hostOrigin.z};
    const size_t rg[3] = {region.width, region.height, region.depth};
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, n, waits));
    cl_event ev = NULL, *evp = phEvent != NULL ? &ev : NULL;
    cl_int err = write ? clEnqueueWriteBufferRect(hQueue->cl, hBuffer->cl, blocking, bo, ho, rg,
                                                  bufferRowPitch, bufferSlicePitch, hostRowPitch,
                                                  hostSlicePitch, host, wl.count, wl.events, evp)
                       : clEnqueueReadBufferRect(hQueue->cl, hBuffer->cl, blocking, bo, ho, rg,
                                                 bufferRowPitch, bufferSlicePitch, hostRowPitch,
                                                 hostSlicePitch, host, wl.count, wl.events, evp);
    ur_result_t res = ocl_enqueue_done(
        err, write ? "clEnqueueWriteBufferRect" : "clEnqueueReadBufferRect", &wl, hQueue,
        write ? UR_COMMAND_MEM_BUFFER_WRITE_RECT : UR_COMMAND_MEM_BUFFER_READ_RECT, ev, phEvent);
    return ocl_assert_after_blocking(hQueue, blocking, res, phEvent);
}

URC_BUFFER_RECT_READ_WRITE(ocl, transfer_rect)

ur_result_t ocl_enqueue_mem_buffer_copy(ur_queue_handle_t hQueue, ur_mem_handle_t hBufferSrc,
                                        ur_mem_handle_t hBufferDst, size_t srcOffset,
                                        size_t dstOffset, size_t size, uint32_t numEventsInWaitList,
                                        const ur_event_handle_t *phEventWaitList,
                                        ur_event_handle_t *phEvent) {
    OCL_TRY_UR(check_buffer(hQueue, hBufferSrc));
    OCL_TRY_UR(check_buffer(hQueue, hBufferDst));
    OCL_TRY_UR(check_range(hBufferSrc, srcOffset, size));
    OCL_TRY_UR(check_range(hBufferDst, dstOffset, size));
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList));
    cl_event ev = NULL;
    cl_int err =
        clEnqueueCopyBuffer(hQueue->cl, hBufferSrc->cl, hBufferDst->cl, srcOffset, dstOffset, size,
                            wl.count, wl.events, phEvent != NULL ? &ev : NULL);
    return ocl_enqueue_done(err, "clEnqueueCopyBuffer", &wl, hQueue, UR_COMMAND_MEM_BUFFER_COPY, ev,
                            phEvent);
}

ur_result_t ocl_enqueue_mem_buffer_copy_rect(ur_queue_handle_t hQueue, ur_mem_handle_t hBufferSrc,
                                             ur_mem_handle_t hBufferDst, ur_rect_offset_t srcOrigin,
                                             ur_rect_offset_t dstOrigin, ur_rect_region_t region,
                                             size_t srcRowPitch, size_t srcSlicePitch,
                                             size_t dstRowPitch, size_t dstSlicePitch,
                                             uint32_t numEventsInWaitList,
                                             const ur_event_handle_t *phEventWaitList,
                                             ur_event_handle_t *phEvent) {
    OCL_TRY_UR(check_buffer(hQueue, hBufferSrc));
    OCL_TRY_UR(check_buffer(hQueue, hBufferDst));
    OCL_TRY_UR(check_rect(hBufferSrc, srcOrigin, region, srcRowPitch, srcSlicePitch));
    OCL_TRY_UR(check_rect(hBufferDst, dstOrigin, region, dstRowPitch, dstSlicePitch));
    const size_t so[3] = {srcOrigin.x, srcOrigin.y, srcOrigin.z};
    const size_t dor[3] = {dstOrigin.x, dstOrigin.y, dstOrigin.z};
    const size_t rg[3] = {region.width, region.height, region.depth};
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList));
    cl_event ev = NULL;
    cl_int err = clEnqueueCopyBufferRect(hQueue->cl, hBufferSrc->cl, hBufferDst->cl, so, dor, rg,
                                         srcRowPitch, srcSlicePitch, dstRowPitch, dstSlicePitch,
                                         wl.count, wl.events, phEvent != NULL ? &ev : NULL);
    return ocl_enqueue_done(err, "clEnqueueCopyBufferRect", &wl, hQueue,
                            UR_COMMAND_MEM_BUFFER_COPY_RECT, ev, phEvent);
}

void CL_CALLBACK ocl_free_host_image(cl_event ev, cl_int status, void *data) {
    (void)ev;
    (void)status;
    free(data);
}

cl_int ocl_free_image_after(cl_int err, cl_event ev, void *image, cl_event *out) {
    if (err != CL_SUCCESS) {
        free(image);
        return err;
    }
    if (clSetEventCallback(ev, CL_COMPLETE, ocl_free_host_image, image) != CL_SUCCESS) {
        clWaitForEvents(1, &ev);
        free(image);
    }
    if (out != NULL)
        *out = ev;
    else
        clReleaseEvent(ev);
    return CL_SUCCESS;
}

cl_int ocl_fill_buffer_cl(cl_command_queue q, cl_mem m, const void *pattern, size_t pattern_size,
                          size_t offset, size_t size, cl_uint n, const cl_event *waits,
                          cl_event *out) {
    if (pattern_size <= 128)
        return clEnqueueFillBuffer(q, m, pattern, pattern_size, offset, size, n, waits, out);
    // OpenCL fills with patterns of up to 128 bytes; larger ones are written from a host
    // image of the range.
    uint8_t *image = urc_fill2d_image(pattern, pattern_size, size, 1);
    if (image == NULL)
        return CL_OUT_OF_HOST_MEMORY;
    cl_event ev = NULL;
    cl_int err = clEnqueueWriteBuffer(q, m, CL_FALSE, offset, size, image, n, waits, &ev);
    return ocl_free_image_after(err, ev, image, out);
}

ur_result_t ocl_enqueue_mem_buffer_fill(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                                        const void *pPattern, size_t patternSize, size_t offset,
                                        size_t size, uint32_t numEventsInWaitList,
                                        const ur_event_handle_t *phEventWaitList,
                                        ur_event_handle_t *phEvent) {
    OCL_TRY_UR(check_buffer(hQueue, hBuffer));
    OCL_TRY_UR(urc_rule_buffer_fill(hBuffer->size, offset, patternSize, size));
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList));
    cl_event ev = NULL;
    cl_int err = ocl_fill_buffer_cl(hQueue->cl, hBuffer->cl, pPattern, patternSize, offset, size,
                                    wl.count, wl.events, phEvent != NULL ? &ev : NULL);
    return ocl_enqueue_done(err, "clEnqueueFillBuffer", &wl, hQueue, UR_COMMAND_MEM_BUFFER_FILL, ev,
                            phEvent);
}

ur_result_t ocl_enqueue_mem_buffer_map(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                                       bool blockingMap, ur_map_flags_t mapFlags, size_t offset,
                                       size_t size, uint32_t numEventsInWaitList,
                                       const ur_event_handle_t *phEventWaitList,
                                       ur_event_handle_t *phEvent, void **ppRetMap) {
    OCL_TRY_UR(check_buffer(hQueue, hBuffer));
    OCL_TRY_UR(check_range(hBuffer, offset, size));
    cl_map_flags flags = 0;
    if (mapFlags & UR_MAP_FLAG_READ)
        flags |= CL_MAP_READ;
    if (mapFlags & UR_MAP_FLAG_WRITE)
        flags |= CL_MAP_WRITE;
    if (mapFlags & UR_MAP_FLAG_WRITE_INVALIDATE_REGION)
        flags |= CL_MAP_WRITE_INVALIDATE_REGION;
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList));
    cl_event ev = NULL;
    cl_int err = CL_SUCCESS;
    void *p = clEnqueueMapBuffer(hQueue->cl, hBuffer->cl, blockingMap, flags, offset, size,
                                 wl.count, wl.events, phEvent != NULL ? &ev : NULL, &err);
    if (err == CL_SUCCESS)
        *ppRetMap = p;
    return ocl_assert_after_blocking(hQueue, blockingMap,
                                     ocl_enqueue_done(err, "clEnqueueMapBuffer", &wl, hQueue,
                                                      UR_COMMAND_MEM_BUFFER_MAP, ev, phEvent),
                                     phEvent);
}

ur_result_t ocl_enqueue_mem_unmap(ur_queue_handle_t hQueue, ur_mem_handle_t hMem, void *pMappedPtr,
                                  uint32_t numEventsInWaitList,
                                  const ur_event_handle_t *phEventWaitList,
                                  ur_event_handle_t *phEvent) {
    OCL_TRY_UR(check_buffer(hQueue, hMem));
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList));
    cl_event ev = NULL;
    cl_int err = clEnqueueUnmapMemObject(hQueue->cl, hMem->cl, pMappedPtr, wl.count, wl.events,
                                         phEvent != NULL ? &ev : NULL);
    return ocl_enqueue_done(err, "clEnqueueUnmapMemObject", &wl, hQueue, UR_COMMAND_MEM_UNMAP, ev,
                            phEvent);
}

// ---- kernel launch ---------------------------------------------------------------------------

ur_result_t ocl_kernel_set_args(ur_kernel_handle_t k, ur_device_handle_t device, uint32_t n,
                                const ur_exp_kernel_arg_properties_t *args) {
    ur_result_t res = urc_rule_arg_indices(n, args, k->num_args);
    if (res != UR_RESULT_SUCCESS)
        return res;
    for (uint32_t i = 0; i < n; ++i) {
        const ur_exp_kernel_arg_properties_t *a = &args[i];
        cl_int err = CL_SUCCESS;
        switch (a->type) {
        case UR_EXP_KERNEL_ARG_TYPE_VALUE:
            err = clSetKernelArg(k->cl, a->index, a->size, a->value.value);
            break;
        case UR_EXP_KERNEL_ARG_TYPE_LOCAL:
            err = clSetKernelArg(k->cl, a->index, a->size, NULL);
            break;
        case UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ: {
            ur_mem_handle_t m = a->value.memObjTuple.hMem;
            if (m != NULL && !ocl_is(m, URC_KIND_MEM))
                return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                                     "argument %u is not an OpenCL adapter buffer or image",
                                     a->index);
            cl_mem cl = m != NULL ? m->cl : NULL;
            err = clSetKernelArg(k->cl, a->index, sizeof cl, &cl);
            break;
        }
        case UR_EXP_KERNEL_ARG_TYPE_POINTER:
            if (!device->usm)
                return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                                     "pointer arguments need cl_intel_unified_shared_memory");
            err =
                device->platform->ext.set_kernel_arg_mem_pointer(k->cl, a->index, a->value.pointer);
            break;
        case UR_EXP_KERNEL_ARG_TYPE_SAMPLER: {
            ur_sampler_handle_t smp = a->value.sampler;
            if (!ocl_is(smp, URC_KIND_SAMPLER))
                return urc_error_set(UR_RESULT_ERROR_INVALID_SAMPLER, 0,
                                     "argument %u is not an OpenCL adapter sampler", a->index);
            err = clSetKernelArg(k->cl, a->index, sizeof smp->cl, &smp->cl);
            break;
        }
        default:
            return UR_RESULT_ERROR_INVALID_ENUMERATION;
        }
        if (err != CL_SUCCESS)
            return ocl_fail(err, "clSetKernelArg");
    }
    return UR_RESULT_SUCCESS;
}

/// Ends the launch of an assert-marked kernel: its completion is tracked on the queue, and an
/// event returned for it remembers the program, so waiting on it reads the record.
static ur_result_t launch_tracked(cl_int err, ocl_wait_list_t *wl, ur_queue_handle_t q,
                                  ur_program_handle_t program, cl_event ev,
                                  ur_event_handle_t *out) {
    ocl_wait_list_fini(wl);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clEnqueueNDRangeKernel");
    ur_result_t result = ocl_assert_track(q, program, ev);
    if (result != UR_RESULT_SUCCESS || out == NULL) {
        clReleaseEvent(ev);
        return result;
    }
    result = ocl_event_wrap(q, UR_COMMAND_KERNEL_LAUNCH, ev, out);
    if (result == UR_RESULT_SUCCESS) {
        urc_hold(&program->obj);
        (*out)->assert_program = program;
    }
    return result;
}

ur_result_t ocl_enqueue_kernel_launch_with_args_exp(
    ur_queue_handle_t hQueue, ur_kernel_handle_t hKernel, uint32_t workDim,
    const size_t *pGlobalWorkOffset, const size_t *pGlobalWorkSize, const size_t *pLocalWorkSize,
    uint32_t numArgs, const ur_exp_kernel_arg_properties_t *pArgs,
    const ur_kernel_launch_ext_properties_t *launchPropList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_event_handle_t *phEvent) {
    urc_rules_t rules;
    ocl_rules(hQueue->context, hQueue->device, &rules);
    OCL_TRY_UR(
        urc_rule_launch(&rules, workDim, pGlobalWorkOffset, pGlobalWorkSize, pLocalWorkSize));
    OCL_TRY_UR(urc_pnext_check(launchPropList));
    for (const ur_kernel_launch_ext_properties_t *p = launchPropList; p != NULL; p = p->pNext) {
        // Serialisation is a hint; cooperative launches are not something OpenCL can do
        // (UR_DEVICE_INFO_KERNEL_LAUNCH_CAPABILITIES reports none).
        if (p->flags &
            ~(ur_kernel_launch_flags_t)UR_KERNEL_LAUNCH_FLAG_OPPORTUNISTIC_QUEUE_SERIALIZE)
            return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                                 "launch flags 0x%x are not supported", (unsigned)p->flags);
    }
    if (hKernel->context != hQueue->context)
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the kernel and the queue belong to different contexts");
    // Without a local size, a size the kernel was compiled with
    // (reqd_work_group_size) is used, as OpenCL would otherwise pick its own.
    size_t compiled[3] = {0, 0, 0};
    if (pLocalWorkSize == NULL &&
        clGetKernelWorkGroupInfo(hKernel->cl, hQueue->device->cl, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                 sizeof compiled, compiled, NULL) == CL_SUCCESS &&
        compiled[0] != 0)
        pLocalWorkSize = compiled;
    // Kernels that may assert, on a device without native assert, are tracked until their
    // completion is observed (assert.c); for all others this is the only extra test.
    bool check = hKernel->may_assert && !hQueue->device->native_assert;
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList));
    cl_event ev = NULL;
    // Arguments live in the cl_kernel: setting them and enqueueing is one critical section
    // per kernel, so threads launching the same kernel cannot mix their arguments.
    pthread_mutex_lock(&hKernel->launch_lock);
    ur_result_t result = ocl_kernel_set_args(hKernel, hQueue->device, numArgs, pArgs);
    cl_int err = CL_SUCCESS;
    if (result == UR_RESULT_SUCCESS)
        err = clEnqueueNDRangeKernel(hQueue->cl, hKernel->cl, workDim, pGlobalWorkOffset,
                                     pGlobalWorkSize, pLocalWorkSize, wl.count, wl.events,
                                     phEvent != NULL || check ? &ev : NULL);
    pthread_mutex_unlock(&hKernel->launch_lock);
    if (result != UR_RESULT_SUCCESS) {
        ocl_wait_list_fini(&wl);
        return result;
    }
    if (check)
        return launch_tracked(err, &wl, hQueue, hKernel->program, ev, phEvent);
    return ocl_enqueue_done(err, "clEnqueueNDRangeKernel", &wl, hQueue, UR_COMMAND_KERNEL_LAUNCH,
                            ev, phEvent);
}
