// SPDX-License-Identifier: MIT
// Contexts: one cl_context over devices of one platform; the devices are retained.
#include <stdlib.h>

#include "core/alloc.h"
#include "ocl_internal.h"
#include "pool/pool_handle.h"
#include "core/release.h"

/// Makes the UR context around `cl` (owning one reference to it when `owns` is set).
static ur_result_t context_make(cl_context cl, uint32_t n, const ur_device_handle_t *devices,
                                bool owns, ur_context_handle_t *out) {
    ur_context_handle_t c = URC_NEW(struct ur_context_handle_t_);
    ur_device_handle_t *list = urc_calloc(n, sizeof *list);
    if (c == NULL || list == NULL) {
        free(c);
        free(list);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    urc_object_init(&c->obj, &ocl_ddi, URC_KIND_CONTEXT);
    c->cl = cl;
    c->platform = devices[0]->platform;
    c->num_devices = n;
    c->devices = list;
    c->owns_native = owns;
    pthread_mutex_init(&c->lock, NULL);
    for (uint32_t i = 0; i < n; ++i) {
        list[i] = devices[i];
        ocl_device_retain_internal(devices[i]);
    }
    *out = c;
    return UR_RESULT_SUCCESS;
}

static void context_destroy(ur_context_handle_t c) {
    urc_usm_pool_context_destroyed(c); // its default pool, while the context still works
    ocl_usm_context_destroyed(c);      // urc's record of its USM allocations
    if (c->owns_native)
        clReleaseContext(c->cl);
    // Extended deleters run once the native context is gone, newest first.
    urc_deleters_run(&c->deleters);
    for (uint32_t i = 0; i < c->num_devices; ++i)
        ocl_device_release_internal(c->devices[i]);
    free(c->devices);
    pthread_mutex_destroy(&c->lock);
    URC_OBJECT_FREE(c);
}

void ocl_context_retain_internal(ur_context_handle_t context) {
    urc_hold(&context->obj);
}

void ocl_context_release_internal(ur_context_handle_t context) {
    if (urc_unhold(&context->obj))
        context_destroy(context);
}

ur_result_t ocl_context_create(uint32_t DeviceCount, const ur_device_handle_t *phDevices,
                               const ur_context_properties_t *pProperties,
                               ur_context_handle_t *phContext) {
    (void)pProperties; // UR defines no context property OpenCL could use
    cl_device_id small[8];
    cl_device_id *ids = DeviceCount <= 8 ? small : urc_calloc(DeviceCount, sizeof *ids);
    if (ids == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ur_result_t result = UR_RESULT_SUCCESS;
    for (uint32_t i = 0; i < DeviceCount && result == UR_RESULT_SUCCESS; ++i) {
        if (!ocl_is(phDevices[i], URC_KIND_DEVICE))
            result = urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                                   "urContextCreate: entry %u is not an OpenCL device", i);
        else if (phDevices[i]->platform != phDevices[0]->platform)
            result = urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                                   "urContextCreate: devices of different platforms");
        else
            ids[i] = phDevices[i]->cl;
    }
    if (result == UR_RESULT_SUCCESS) {
        cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                         (cl_context_properties)phDevices[0]->platform->cl, 0};
        cl_int err = CL_SUCCESS;
        cl_context cl = clCreateContext(props, DeviceCount, ids, NULL, NULL, &err);
        if (err != CL_SUCCESS) {
            result = ocl_fail(err, "clCreateContext");
        } else {
            result = context_make(cl, DeviceCount, phDevices, true, phContext);
            if (result != UR_RESULT_SUCCESS)
                clReleaseContext(cl);
        }
    }
    if (ids != small)
        free(ids);
    return result;
}

URC_RETAIN_RELEASE(ocl_context, ur_context_handle_t, , UR_RESULT_ERROR_INVALID_CONTEXT,
                   "urContextRelease", context_destroy)

ur_result_t ocl_context_get_info(ur_context_handle_t hContext, ur_context_info_t propName,
                                 size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    // The 2D USM operations are rows of cl_intel_unified_shared_memory copies and fills.
    bool usm = true;
    for (uint32_t i = 0; i < hContext->num_devices; ++i)
        usm = usm && hContext->devices[i]->usm;
    return urc_info_context(&out, propName, hContext->num_devices, hContext->devices,
                            urc_refcount(&hContext->obj), usm);
}

ur_result_t ocl_context_get_native_handle(ur_context_handle_t hContext,
                                          ur_native_handle_t *phNativeContext) {
    *phNativeContext = (ur_native_handle_t)hContext->cl;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_context_create_with_native_handle(ur_native_handle_t hNativeContext,
                                                  ur_adapter_handle_t hAdapter, uint32_t numDevices,
                                                  const ur_device_handle_t *phDevices,
                                                  const ur_context_native_properties_t *pProps,
                                                  ur_context_handle_t *phContext) {
    cl_context cl = (cl_context)hNativeContext;
    cl_uint count = 0;
    OCL_TRY("clGetContextInfo",
            clGetContextInfo(cl, CL_CONTEXT_NUM_DEVICES, sizeof count, &count, NULL));
    if (count == 0 || (numDevices != 0 && numDevices != count))
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "native context has %u devices, %u given", count, numDevices);
    cl_device_id *ids = urc_calloc(count, sizeof *ids);
    ur_device_handle_t *devices = urc_calloc(count, sizeof *devices);
    ur_result_t result = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    uint32_t made = 0; // handles made here for native sub-devices, released below
    if (ids == NULL || devices == NULL)
        goto done;
    cl_int err = clGetContextInfo(cl, CL_CONTEXT_DEVICES, count * sizeof *ids, ids, NULL);
    if (err != CL_SUCCESS) {
        result = ocl_fail(err, "clGetContextInfo");
        goto done;
    }
    result = UR_RESULT_SUCCESS;
    for (uint32_t i = 0; i < count && result == UR_RESULT_SUCCESS; ++i) {
        if (numDevices != 0) {
            // The given devices must be the native context's, in its order.
            if (!ocl_is(phDevices[i], URC_KIND_DEVICE) || phDevices[i]->cl != ids[i])
                result = urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                                       "device %u does not match the native context", i);
            else
                devices[i] = phDevices[i];
        } else {
            result = ocl_device_create_with_native_handle((ur_native_handle_t)ids[i], hAdapter,
                                                          NULL, &devices[i]);
            if (result == UR_RESULT_SUCCESS)
                made = i + 1;
        }
    }
    if (result == UR_RESULT_SUCCESS) {
        bool owns = pProps != NULL && pProps->isNativeHandleOwned;
        result = context_make(cl, count, devices, owns, phContext);
    }
done:
    for (uint32_t i = 0; i < made; ++i)
        ocl_device_release(devices[i]);
    free(ids);
    free(devices);
    return result;
}

ur_result_t ocl_context_set_extended_deleter(ur_context_handle_t hContext,
                                             ur_context_extended_deleter_t pfnDeleter,
                                             void *pUserData) {
    // Kept by the handle rather than clSetContextDestructorCallback (OpenCL 3.0), so it
    // works on every platform; it runs when the last reference to the handle goes.
    return urc_deleter_add(&hContext->deleters, &hContext->lock, pfnDeleter, pUserData);
}
