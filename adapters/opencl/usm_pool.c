// SPDX-License-Identifier: MIT
// USM pools (common/pool/pool_handle) over cl_intel_unified_shared_memory's allocation calls.
#include <string.h>

#include "ocl_internal.h"
#include "memory/usm_async.h"
#include "pool/pool_handle.h"

// Device memory may not be host-visible: zeroing it takes a command on a short-lived queue
// (slabs are rare, and the pool has no queue of its own).
static ur_result_t zero_device(ur_context_handle_t ctx, ur_device_handle_t dev, void *ptr,
                               size_t size) {
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx->cl, dev->cl, NULL, &err);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clCreateCommandQueueWithProperties");
    const cl_uchar zero = 0;
    err = ctx->platform->ext.enqueue_mem_fill(q, ptr, &zero, 1, size, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(q);
    clReleaseCommandQueue(q);
    return err == CL_SUCCESS ? UR_RESULT_SUCCESS : ocl_fail(err, "clEnqueueMemFillINTEL");
}

static ur_result_t native_alloc(void *native, size_t size, size_t align, bool zero, void **out) {
    const urc_usm_target_t *t = native;
    ur_context_handle_t ctx = t->context;
    ur_device_handle_t dev = t->device;
    const ocl_ext_t *e = &ctx->platform->ext;
    cl_int err = CL_SUCCESS;
    void *p = t->type == UR_USM_TYPE_HOST
                  ? e->host_mem_alloc(ctx->cl, NULL, size, (cl_uint)align, &err)
              : t->type == UR_USM_TYPE_DEVICE
                  ? e->device_mem_alloc(ctx->cl, dev->cl, NULL, size, (cl_uint)align, &err)
                  : e->shared_mem_alloc(ctx->cl, dev->cl, NULL, size, (cl_uint)align, &err);
    if (err != CL_SUCCESS || p == NULL)
        return ocl_fail(err != CL_SUCCESS ? err : CL_OUT_OF_RESOURCES, "USM pool slab");
    ur_result_t res = UR_RESULT_SUCCESS;
    if (zero && t->type != UR_USM_TYPE_DEVICE)
        memset(p, 0, size);
    else if (zero)
        res = zero_device(ctx, dev, p, size);
    if (res != UR_RESULT_SUCCESS) {
        e->mem_blocking_free(ctx->cl, p);
        return res;
    }
    *out = p;
    return UR_RESULT_SUCCESS;
}

static ur_result_t native_free(void *native, void *ptr) {
    const urc_usm_target_t *t = native;
    ur_context_handle_t ctx = t->context;
    OCL_TRY("clMemBlockingFreeINTEL", ctx->platform->ext.mem_blocking_free(ctx->cl, ptr));
    return UR_RESULT_SUCCESS;
}

static ur_result_t context_devices(ur_context_handle_t ctx, uint32_t *n, void *const **devices) {
    OCL_CHECK_HANDLE(ctx, URC_KIND_CONTEXT, UR_RESULT_ERROR_INVALID_CONTEXT);
    for (uint32_t i = 0; i < ctx->num_devices; ++i)
        if (!ctx->devices[i]->usm)
            return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                                 "USM pools: a device has no cl_intel_unified_shared_memory");
    *n = ctx->num_devices;
    *devices = (void *const *)ctx->devices;
    return UR_RESULT_SUCCESS;
}

// The extension takes any power-of-two alignment; a page is plenty for a slab.
const urc_usm_pool_adapter_t ocl_pool_adapter = {
    .ddi = &ocl_ddi,
    .ops = {native_alloc, native_free},
    .caps = {.host_align = 4096, .device_align = 4096, .host = true, .shared = true},
    .context_devices = context_devices,
    .retain_context = ocl_context_retain_internal,
    .release_context = ocl_context_release_internal,
};

// ---- stream-ordered allocation: the pool plus the queue's order ----

static ur_result_t queue_of(ur_queue_handle_t q, ur_context_handle_t *ctx,
                            ur_device_handle_t *dev) {
    OCL_CHECK_HANDLE(q, URC_KIND_QUEUE, UR_RESULT_ERROR_INVALID_QUEUE);
    if (!q->device->usm)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "enqueued USM allocation: the device has no USM");
    *ctx = q->context;
    *dev = q->device;
    return UR_RESULT_SUCCESS;
}

static ur_result_t barrier(ur_queue_handle_t q, ur_command_t command, uint32_t n,
                           const ur_event_handle_t *wait, ur_event_handle_t *phEvent) {
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, q, n, wait));
    cl_event ev = NULL;
    cl_int err =
        clEnqueueBarrierWithWaitList(q->cl, wl.count, wl.events, phEvent != NULL ? &ev : NULL);
    return ocl_enqueue_done(err, "clEnqueueBarrierWithWaitList", &wl, q, command, ev, phEvent);
}

static const urc_usm_async_adapter_t ocl_async_adapter = {&ocl_pool_adapter, queue_of,
                                                          barrier,           ocl_event_set_callback,
                                                          ocl_event_wait,    ocl_event_release};

#define ASYNC  (&ocl_async_adapter)
#define A      (&ocl_pool_adapter)
#define PREFIX ocl
#include "pool/pool_entry_points.inc"
