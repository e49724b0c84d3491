// SPDX-License-Identifier: MIT
// Samplers. CUDA has no sampler object: SYCL's CUDA device code receives a sampler as one
// 32-bit word of its settings (UR's CUDA encoding: bit 0 normalised coordinates, bit 1 linear
// filtering, then three bits of addressing mode per dimension from bit 2, bit 11 linear mip
// filtering) and samples images itself. The descriptor is read by common/image/image.
#include <stdlib.h>

#include "cuda_internal.h"
#include "core/release.h"

static uint32_t encode(const urc_sampler_t *s) {
    uint32_t props = s->normalized ? 1u : 0u;
    props |= (s->filter == UR_SAMPLER_FILTER_MODE_LINEAR ? 1u : 0u) << 1;
    for (int i = 0; i < 3; ++i)
        props |= ((uint32_t)s->addressing[i] & 7u) << (2 + 3 * i);
    props |= (s->mip_filter == UR_SAMPLER_FILTER_MODE_LINEAR ? 1u : 0u) << 11;
    return props;
}

ur_result_t cuda_sampler_create(ur_context_handle_t hContext, const ur_sampler_desc_t *pDesc,
                                ur_sampler_handle_t *phSampler) {
    urc_sampler_t desc;
    ur_result_t res = urc_sampler_describe(&desc, pDesc);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (!cuda_images_available())
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the CUDA driver lacks what images need");
    cuda_sampler_t *s = URC_NEW(cuda_sampler_t);
    if (s == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    urc_object_init(&s->obj, &cuda_ddi, URC_KIND_SAMPLER);
    s->ctx = CUDA_CONTEXT(hContext);
    s->desc = desc;
    s->props = encode(&desc);
    cuda_context_retain_internal(s->ctx);
    *phSampler = (ur_sampler_handle_t)s;
    return UR_RESULT_SUCCESS;
}

URC_RETAIN(cuda_sampler, ur_sampler_handle_t, CUDA_SAMPLER)

ur_result_t cuda_sampler_release(ur_sampler_handle_t hSampler) {
    cuda_sampler_t *s = CUDA_SAMPLER(hSampler);
    ur_result_t released;
    if (!urc_release_destroys(urc_user_release(&s->obj), UR_RESULT_ERROR_INVALID_SAMPLER,
                              "urSamplerRelease", &released))
        return released;
    cuda_context_release_internal(s->ctx);
    URC_OBJECT_FREE(s);
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_sampler_get_info(ur_sampler_handle_t hSampler, ur_sampler_info_t propName,
                                  size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    const cuda_sampler_t *s = CUDA_SAMPLER(hSampler);
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    return urc_sampler_info(&out, propName, &s->desc, (ur_context_handle_t)s->ctx,
                            urc_refcount(&s->obj));
}
