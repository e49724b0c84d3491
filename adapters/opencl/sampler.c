// SPDX-License-Identifier: MIT
// Samplers over clCreateSamplerWithProperties; the descriptor is read by common/image/image, and
// info answers come from what it read.
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "ocl_internal.h"
#include "core/release.h"

static cl_addressing_mode cl_addressing(ur_sampler_addressing_mode_t mode) {
    switch (mode) {
    case UR_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE:
        return CL_ADDRESS_CLAMP_TO_EDGE;
    case UR_SAMPLER_ADDRESSING_MODE_CLAMP:
        return CL_ADDRESS_CLAMP;
    case UR_SAMPLER_ADDRESSING_MODE_REPEAT:
        return CL_ADDRESS_REPEAT;
    case UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT:
        return CL_ADDRESS_MIRRORED_REPEAT;
    default:
        return CL_ADDRESS_NONE;
    }
}

static ur_sampler_addressing_mode_t ur_addressing(cl_addressing_mode mode) {
    switch (mode) {
    case CL_ADDRESS_CLAMP_TO_EDGE:
        return UR_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE;
    case CL_ADDRESS_CLAMP:
        return UR_SAMPLER_ADDRESSING_MODE_CLAMP;
    case CL_ADDRESS_REPEAT:
        return UR_SAMPLER_ADDRESSING_MODE_REPEAT;
    case CL_ADDRESS_MIRRORED_REPEAT:
        return UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT;
    default:
        return UR_SAMPLER_ADDRESSING_MODE_NONE;
    }
}

static ur_result_t sampler_make(cl_sampler cl, ur_context_handle_t ctx, const urc_sampler_t *desc,
                                bool owns, ur_sampler_handle_t *out) {
    ur_sampler_handle_t s = URC_NEW(struct ur_sampler_handle_t_);
    if (s == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    urc_object_init(&s->obj, &ocl_ddi, URC_KIND_SAMPLER);
    s->cl = cl;
    s->context = ctx;
    s->desc = *desc;
    s->owns_native = owns;
    ocl_context_retain_internal(ctx);
    *out = s;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_sampler_create(ur_context_handle_t hContext, const ur_sampler_desc_t *pDesc,
                               ur_sampler_handle_t *phSampler) {
    urc_sampler_t desc;
    OCL_TRY_UR(urc_sampler_describe(&desc, pDesc));
    // OpenCL has one addressing mode for every dimension and no mip or anisotropy settings
    // on classic samplers: the first dimension's mode is used.
    const cl_sampler_properties props[] = {
        CL_SAMPLER_NORMALIZED_COORDS,
        desc.normalized ? CL_TRUE : CL_FALSE,
        CL_SAMPLER_ADDRESSING_MODE,
        cl_addressing(desc.addressing[0]),
        CL_SAMPLER_FILTER_MODE,
        desc.filter == UR_SAMPLER_FILTER_MODE_LINEAR ? CL_FILTER_LINEAR : CL_FILTER_NEAREST,
        0};
    cl_int err = CL_SUCCESS;
    cl_sampler cl = clCreateSamplerWithProperties(hContext->cl, props, &err);
    // Repeat modes with unnormalised coordinates read undefined values in OpenCL, and some
    // runtimes (PoCL) refuse to make such a sampler, which UR allows: it is made clamping to
    // the edge instead, while urSamplerGetInfo still answers the mode asked for.
    bool repeats = desc.addressing[0] == UR_SAMPLER_ADDRESSING_MODE_REPEAT ||
                   desc.addressing[0] == UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT;
    if (err == CL_INVALID_VALUE && !desc.normalized && repeats) {
        cl_sampler_properties edge[7];
        memcpy(edge, props, sizeof edge);
        edge[3] = CL_ADDRESS_CLAMP_TO_EDGE;
        cl = clCreateSamplerWithProperties(hContext->cl, edge, &err);
    }
    if (err == CL_INVALID_OPERATION)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "no device of the context supports images");
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clCreateSamplerWithProperties");
    ur_result_t result = sampler_make(cl, hContext, &desc, true, phSampler);
    if (result != UR_RESULT_SUCCESS)
        clReleaseSampler(cl);
    return result;
}

URC_RETAIN(ocl_sampler, ur_sampler_handle_t, )

ur_result_t ocl_sampler_release(ur_sampler_handle_t hSampler) {
    ur_result_t released;
    if (!urc_release_destroys(urc_user_release(&hSampler->obj), UR_RESULT_ERROR_INVALID_SAMPLER,
                              "urSamplerRelease", &released))
        return released;
    if (hSampler->owns_native)
        clReleaseSampler(hSampler->cl);
    ocl_context_release_internal(hSampler->context);
    URC_OBJECT_FREE(hSampler);
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_sampler_get_info(ur_sampler_handle_t hSampler, ur_sampler_info_t propName,
                                 size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    return urc_sampler_info(&out, propName, &hSampler->desc, hSampler->context,
                            urc_refcount(&hSampler->obj));
}

ur_result_t ocl_sampler_get_native_handle(ur_sampler_handle_t hSampler,
                                          ur_native_handle_t *phNativeSampler) {
    *phNativeSampler = (ur_native_handle_t)hSampler->cl;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_sampler_create_with_native_handle(ur_native_handle_t hNativeSampler,
                                                  ur_context_handle_t hContext,
                                                  const ur_sampler_native_properties_t *pProps,
                                                  ur_sampler_handle_t *phSampler) {
    cl_sampler cl = (cl_sampler)hNativeSampler;
    cl_context cl_ctx = NULL;
    cl_bool normalized = CL_FALSE;
    cl_addressing_mode addressing = CL_ADDRESS_NONE;
    cl_filter_mode filter = CL_FILTER_NEAREST;
    OCL_TRY("clGetSamplerInfo",
            clGetSamplerInfo(cl, CL_SAMPLER_CONTEXT, sizeof cl_ctx, &cl_ctx, NULL));
    OCL_TRY_UR(ocl_native_in_context(cl_ctx, hContext, "sampler"));
    OCL_TRY("clGetSamplerInfo", clGetSamplerInfo(cl, CL_SAMPLER_NORMALIZED_COORDS,
                                                 sizeof normalized, &normalized, NULL));
    OCL_TRY("clGetSamplerInfo",
            clGetSamplerInfo(cl, CL_SAMPLER_ADDRESSING_MODE, sizeof addressing, &addressing, NULL));
    OCL_TRY("clGetSamplerInfo",
            clGetSamplerInfo(cl, CL_SAMPLER_FILTER_MODE, sizeof filter, &filter, NULL));
    // The sampler's settings come from OpenCL, so info answers match the native object.
    urc_sampler_t desc = {0};
    desc.normalized = normalized;
    desc.addressing[0] = desc.addressing[1] = desc.addressing[2] = ur_addressing(addressing);
    desc.filter =
        filter == CL_FILTER_LINEAR ? UR_SAMPLER_FILTER_MODE_LINEAR : UR_SAMPLER_FILTER_MODE_NEAREST;
    desc.mip_filter = UR_SAMPLER_FILTER_MODE_NEAREST;
    bool owns = pProps != NULL && pProps->isNativeHandleOwned;
    return sampler_make(cl, hContext, &desc, owns, phSampler);
}
