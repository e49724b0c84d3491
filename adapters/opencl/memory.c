// SPDX-License-Identifier: MIT
// Buffers and sub-buffers; what images share with them (flags, the handle, release).
#include <stdlib.h>

#include "core/alloc.h"
#include "ocl_internal.h"
#include "core/pnext.h"
#include "core/release.h"
#include "core/flags.h"

static const urc_flag_pair_t ocl_mem_flags_pairs[] = {
    {UR_MEM_FLAG_READ_WRITE, CL_MEM_READ_WRITE},
    {UR_MEM_FLAG_WRITE_ONLY, CL_MEM_WRITE_ONLY},
    {UR_MEM_FLAG_READ_ONLY, CL_MEM_READ_ONLY},
    {UR_MEM_FLAG_USE_HOST_POINTER, CL_MEM_USE_HOST_PTR},
    {UR_MEM_FLAG_ALLOC_HOST_POINTER, CL_MEM_ALLOC_HOST_PTR},
    {UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER, CL_MEM_COPY_HOST_PTR},
};

cl_mem_flags ocl_mem_flags(ur_mem_flags_t f) {
    return (cl_mem_flags)URC_FLAGS_MAP(f, ocl_mem_flags_pairs);
}

ur_result_t ocl_mem_make(cl_mem cl, ur_context_handle_t context, ur_mem_handle_t parent, bool owns,
                         ur_mem_handle_t *out) {
    size_t size = 0;
    OCL_TRY("clGetMemObjectInfo", clGetMemObjectInfo(cl, CL_MEM_SIZE, sizeof size, &size, NULL));
    ur_mem_handle_t m = URC_NEW(struct ur_mem_handle_t_);
    if (m == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    urc_object_init(&m->obj, &ocl_ddi, URC_KIND_MEM);
    m->cl = cl;
    m->context = context;
    m->parent = parent;
    m->size = size;
    m->owns_native = owns;
    ocl_context_retain_internal(context);
    if (parent != NULL)
        urc_hold(&parent->obj);
    *out = m;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_mem_buffer_create(ur_context_handle_t hContext, ur_mem_flags_t flags, size_t size,
                                  const ur_buffer_properties_t *pProperties,
                                  ur_mem_handle_t *phBuffer) {
    void *host = pProperties != NULL ? pProperties->pHost : NULL;
    OCL_TRY_UR(urc_buffer_check_create(flags, host));
    // Channel and location properties need cl_intel_create_buffer_with_properties; where
    // it is missing they are hints and dropped.
    OCL_TRY_UR(urc_pnext_check(pProperties));
    cl_mem_properties_intel props[5];
    size_t n = 0;
    for (const ur_base_properties_t *p = pProperties != NULL ? pProperties->pNext : NULL;
         p != NULL && n < 4; p = p->pNext) {
        if (p->stype == UR_STRUCTURE_TYPE_BUFFER_CHANNEL_PROPERTIES) {
            props[n++] = CL_MEM_CHANNEL_INTEL;
            props[n++] = ((const ur_buffer_channel_properties_t *)p)->channel;
        } else if (p->stype == UR_STRUCTURE_TYPE_BUFFER_ALLOC_LOCATION_PROPERTIES) {
            props[n++] = CL_MEM_ALLOC_BUFFER_LOCATION_INTEL;
            props[n++] = ((const ur_buffer_alloc_location_properties_t *)p)->location;
        }
    }
    props[n] = 0;
    cl_int err = CL_SUCCESS;
    cl_mem cl;
    clCreateBufferWithPropertiesINTEL_fn with_props =
        hContext->platform->ext.create_buffer_with_properties;
    if (n > 0 && with_props != NULL)
        cl = with_props(hContext->cl, props, ocl_mem_flags(flags), size, host, &err);
    else
        cl = clCreateBuffer(hContext->cl, ocl_mem_flags(flags), size, host, &err);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clCreateBuffer");
    ur_result_t result = ocl_mem_make(cl, hContext, NULL, true, phBuffer);
    if (result != UR_RESULT_SUCCESS)
        clReleaseMemObject(cl);
    return result;
}

URC_RETAIN(ocl_mem, ur_mem_handle_t, )

ur_result_t ocl_mem_release(ur_mem_handle_t hMem) {
    ur_result_t released;
    if (!urc_release_destroys(urc_user_release(&hMem->obj), UR_RESULT_ERROR_INVALID_MEM_OBJECT,
                              "urMemRelease", &released))
        return released;
    // A sub-buffer holds one adapter reference to the buffer it was cut from.
    for (bool last = true; last; last = hMem != NULL && urc_unhold(&hMem->obj)) {
        ur_mem_handle_t parent = hMem->parent;
        if (hMem->owns_native)
            clReleaseMemObject(hMem->cl);
        ocl_context_release_internal(hMem->context);
        URC_OBJECT_FREE(hMem);
        hMem = parent;
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_mem_buffer_partition(ur_mem_handle_t hBuffer, ur_mem_flags_t flags,
                                     ur_buffer_create_type_t bufferCreateType,
                                     const ur_buffer_region_t *pRegion, ur_mem_handle_t *phMem) {
    if (hBuffer->is_image)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0, "an image has no sub-buffers");
    if (bufferCreateType != UR_BUFFER_CREATE_TYPE_REGION)
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    // OpenCL checks that the flags narrow the buffer's access (CL_INVALID_VALUE), and flags 0
    // inherit the buffer's.
    OCL_TRY_UR(
        urc_buffer_check_partition(hBuffer->parent != NULL, hBuffer->size, 0, flags, pRegion));
    cl_buffer_region region = {pRegion->origin, pRegion->size};
    cl_int err = CL_SUCCESS;
    cl_mem cl = clCreateSubBuffer(hBuffer->cl, ocl_mem_flags(flags), CL_BUFFER_CREATE_TYPE_REGION,
                                  &region, &err);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clCreateSubBuffer");
    ur_result_t result = ocl_mem_make(cl, hBuffer->context, hBuffer, true, phMem);
    if (result != UR_RESULT_SUCCESS)
        clReleaseMemObject(cl);
    return result;
}

ur_result_t ocl_mem_get_native_handle(ur_mem_handle_t hMem, ur_device_handle_t hDevice,
                                      ur_native_handle_t *phNativeMem) {
    (void)hDevice; // one cl_mem serves every device of the context
    *phNativeMem = (ur_native_handle_t)hMem->cl;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_mem_buffer_create_with_native_handle(ur_native_handle_t hNativeMem,
                                                     ur_context_handle_t hContext,
                                                     const ur_mem_native_properties_t *pProps,
                                                     ur_mem_handle_t *phMem) {
    cl_mem cl = (cl_mem)hNativeMem;
    cl_context cl_ctx = NULL;
    cl_mem_object_type type = 0;
    OCL_TRY("clGetMemObjectInfo",
            clGetMemObjectInfo(cl, CL_MEM_CONTEXT, sizeof cl_ctx, &cl_ctx, NULL));
    OCL_TRY("clGetMemObjectInfo", clGetMemObjectInfo(cl, CL_MEM_TYPE, sizeof type, &type, NULL));
    OCL_TRY_UR(ocl_native_in_context(cl_ctx, hContext, "buffer"));
    if (type != CL_MEM_OBJECT_BUFFER)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "the native memory object is not a buffer");
    bool owns = pProps != NULL && pProps->isNativeHandleOwned;
    return ocl_mem_make(cl, hContext, NULL, owns, phMem);
}

ur_result_t ocl_mem_get_info(ur_mem_handle_t hMemory, ur_mem_info_t propName, size_t propSize,
                             void *pPropValue, size_t *pPropSizeRet) {
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    return urc_info_mem(&out, propName, hMemory->size, hMemory->context,
                        urc_refcount(&hMemory->obj));
}
