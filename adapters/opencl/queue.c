// SPDX-License-Identifier: MIT
// Queues: a cl_command_queue plus the context and device it was made for (both retained).
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "core/alloc.h"
#include "ocl_internal.h"
#include "core/release.h"
#include "core/flags.h"

static ur_result_t queue_make(cl_command_queue cl, ur_context_handle_t context,
                              ur_device_handle_t device, bool owns, ur_queue_handle_t *out) {
    ur_queue_handle_t q = URC_NEW(struct ur_queue_handle_t_);
    if (q == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    urc_object_init(&q->obj, &ocl_ddi, URC_KIND_QUEUE);
    q->cl = cl;
    q->context = context;
    q->device = device;
    q->owns_native = owns;
    atomic_init(&q->assert_pending, 0);
    pthread_mutex_init(&q->assert_lock, NULL);
    clGetCommandQueueInfo(cl, CL_QUEUE_PROPERTIES, sizeof q->properties, &q->properties, NULL);
    atomic_init(&q->timestamps, NULL);
    if (urc_queue_registry_add(&device->queues, &q->obj) != UR_RESULT_SUCCESS) {
        pthread_mutex_destroy(&q->assert_lock);
        free(q);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    ocl_context_retain_internal(context);
    ocl_device_retain_internal(device);
    *out = q;
    return UR_RESULT_SUCCESS;
}

static void queue_destroy(ur_queue_handle_t q);

void ocl_queue_release_internal(ur_queue_handle_t q) {
    if (!urc_unhold(&q->obj))
        return;
    queue_destroy(q);
}

static void queue_destroy(ur_queue_handle_t q) {
    urc_queue_registry_remove(&q->device->queues, &q->obj);
    ocl_assert_queue_fini(q);
    cl_command_queue timestamps = atomic_load(&q->timestamps);
    if (timestamps != NULL)
        clReleaseCommandQueue(timestamps);
    if (q->owns_native)
        clReleaseCommandQueue(q->cl);
    ocl_device_release_internal(q->device);
    ocl_context_release_internal(q->context);
    URC_OBJECT_FREE(q);
}

static bool context_has(ur_context_handle_t c, ur_device_handle_t d) {
    for (uint32_t i = 0; i < c->num_devices; ++i)
        if (c->devices[i] == d)
            return true;
    return false;
}

ur_result_t ocl_queue_create(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                             const ur_queue_properties_t *pProperties, ur_queue_handle_t *phQueue) {
    if (!context_has(hContext, hDevice))
        return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                             "urQueueCreate: the device is not in the context");
    ur_queue_flags_t flags = pProperties != NULL ? pProperties->flags : 0;
    if (flags & UR_QUEUE_FLAGS_MASK)
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    // Priorities, batching, discard-events and stream flags are hints OpenCL has no use for.
    cl_command_queue_properties props = 0;
    if (flags & UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        props |= CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    if (flags & UR_QUEUE_FLAG_PROFILING_ENABLE)
        props |= CL_QUEUE_PROFILING_ENABLE;
    if (flags & UR_QUEUE_FLAG_ON_DEVICE)
        props |= CL_QUEUE_ON_DEVICE;
    if (flags & UR_QUEUE_FLAG_ON_DEVICE_DEFAULT)
        props |= CL_QUEUE_ON_DEVICE_DEFAULT;
    cl_int err = CL_SUCCESS;
    cl_command_queue cl;
    if (hContext->platform->version >= 20) {
        cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, props, 0};
        cl = clCreateCommandQueueWithProperties(hContext->cl, hDevice->cl, list, &err);
    } else {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        cl = clCreateCommandQueue(hContext->cl, hDevice->cl, props, &err);
#pragma GCC diagnostic pop
    }
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clCreateCommandQueue");
    ur_result_t result = queue_make(cl, hContext, hDevice, true, phQueue);
    if (result != UR_RESULT_SUCCESS)
        clReleaseCommandQueue(cl);
    return result;
}

URC_RETAIN_RELEASE(ocl_queue, ur_queue_handle_t, , UR_RESULT_ERROR_INVALID_QUEUE, "urQueueRelease",
                   queue_destroy)

static const urc_flag_pair_t queue_flags_pairs[] = {
    {CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE},
    {CL_QUEUE_PROFILING_ENABLE, UR_QUEUE_FLAG_PROFILING_ENABLE},
    {CL_QUEUE_ON_DEVICE, UR_QUEUE_FLAG_ON_DEVICE},
    {CL_QUEUE_ON_DEVICE_DEFAULT, UR_QUEUE_FLAG_ON_DEVICE_DEFAULT},
};

static ur_queue_flags_t queue_flags(cl_command_queue_properties p) {
    return (ur_queue_flags_t)URC_FLAGS_MAP(p, queue_flags_pairs);
}

ur_result_t ocl_queue_get_info(ur_queue_handle_t hQueue, ur_queue_info_t propName, size_t propSize,
                               void *pPropValue, size_t *pPropSizeRet) {
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_QUEUE_INFO_DEVICE_DEFAULT:
    case UR_QUEUE_INFO_SIZE: {
        // Both describe device-side queues, which only a queue made ON_DEVICE is.
        if (!(hQueue->properties & CL_QUEUE_ON_DEVICE))
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        if (propName == UR_QUEUE_INFO_SIZE) {
            cl_uint size = 0;
            OCL_TRY("clGetCommandQueueInfo",
                    clGetCommandQueueInfo(hQueue->cl, CL_QUEUE_SIZE, sizeof size, &size, NULL));
            return urc_info_u32(&out, size);
        }
        cl_command_queue def = NULL;
        OCL_TRY("clGetCommandQueueInfo",
                clGetCommandQueueInfo(hQueue->cl, CL_QUEUE_DEVICE_DEFAULT, sizeof def, &def, NULL));
        if (def != hQueue->cl)
            return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
        return urc_info_ptr(&out, hQueue);
    }
    case UR_QUEUE_INFO_EMPTY: {
        // A marker without a wait list completes once everything before it has. Runtimes
        // retire even a marker on an empty queue asynchronously, so it is flushed and given
        // up to a millisecond; "not empty" is the answer when it has not completed by then.
        cl_event marker = NULL;
        OCL_TRY("clEnqueueMarkerWithWaitList",
                clEnqueueMarkerWithWaitList(hQueue->cl, 0, NULL, &marker));
        cl_int err = clFlush(hQueue->cl);
        cl_int status = CL_QUEUED;
        struct timespec start, now;
        clock_gettime(CLOCK_MONOTONIC, &start);
        while (err == CL_SUCCESS) {
            err = clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                                 NULL);
            clock_gettime(CLOCK_MONOTONIC, &now);
            long elapsed_ns =
                (now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec);
            if (status <= CL_COMPLETE || elapsed_ns > 1000000L)
                break;
            sched_yield();
        }
        clReleaseEvent(marker);
        if (err != CL_SUCCESS)
            return ocl_fail(err, "clGetEventInfo");
        return urc_info_bool(&out, status == CL_COMPLETE);
    }
    default:
        return urc_info_queue(&out, propName, hQueue->context, hQueue->device,
                              queue_flags(hQueue->properties), urc_refcount(&hQueue->obj));
    }
}

ur_result_t ocl_queue_get_native_handle(ur_queue_handle_t hQueue, ur_queue_native_desc_t *pDesc,
                                        ur_native_handle_t *phNativeQueue) {
    (void)pDesc;
    *phNativeQueue = (ur_native_handle_t)hQueue->cl;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_queue_create_with_native_handle(ur_native_handle_t hNativeQueue,
                                                ur_context_handle_t hContext,
                                                ur_device_handle_t hDevice,
                                                const ur_queue_native_properties_t *pProps,
                                                ur_queue_handle_t *phQueue) {
    cl_command_queue cl = (cl_command_queue)hNativeQueue;
    cl_context cl_ctx = NULL;
    cl_device_id cl_dev = NULL;
    OCL_TRY("clGetCommandQueueInfo",
            clGetCommandQueueInfo(cl, CL_QUEUE_CONTEXT, sizeof cl_ctx, &cl_ctx, NULL));
    OCL_TRY("clGetCommandQueueInfo",
            clGetCommandQueueInfo(cl, CL_QUEUE_DEVICE, sizeof cl_dev, &cl_dev, NULL));
    OCL_TRY_UR(ocl_native_in_context(cl_ctx, hContext, "queue"));
    ur_device_handle_t device = NULL;
    for (uint32_t i = 0; i < hContext->num_devices; ++i)
        if (hContext->devices[i]->cl == cl_dev)
            device = hContext->devices[i];
    if (device == NULL || (hDevice != NULL && hDevice != device))
        return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                             "the native queue's device is not the one given");
    bool owns = pProps != NULL && pProps->isNativeHandleOwned;
    return queue_make(cl, hContext, device, owns, phQueue);
}

ur_result_t ocl_queue_finish(ur_queue_handle_t hQueue) {
    OCL_TRY("clFinish", clFinish(hQueue->cl));
    return ocl_assert_observe(hQueue, true);
}

ur_result_t ocl_queue_flush(ur_queue_handle_t hQueue) {
    OCL_TRY("clFlush", clFlush(hQueue->cl));
    return UR_RESULT_SUCCESS;
}

/// A queue handle for the native queue an event came from, holding its own reference.
ur_result_t ocl_queue_wrap_native(ur_context_handle_t context, cl_command_queue cl,
                                  ur_queue_handle_t *out) {
    ur_queue_native_properties_t owned = {.stype = UR_STRUCTURE_TYPE_QUEUE_NATIVE_PROPERTIES,
                                          .isNativeHandleOwned = true};
    OCL_TRY("clRetainCommandQueue", clRetainCommandQueue(cl));
    ur_result_t result =
        ocl_queue_create_with_native_handle((ur_native_handle_t)cl, context, NULL, &owned, out);
    if (result != UR_RESULT_SUCCESS)
        clReleaseCommandQueue(cl);
    return result;
}
