// SPDX-License-Identifier: MIT
// Samplers over zeSamplerCreate, one per device of the context (a Level Zero sampler belongs to
// a device); the descriptor is read by common/image/image and answers info queries.
#include <stdlib.h>

#include "l0_internal.h"
#include "core/release.h"

static ze_sampler_address_mode_t ze_address(ur_sampler_addressing_mode_t m) {
    switch (m) {
    case UR_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE:
        return ZE_SAMPLER_ADDRESS_MODE_CLAMP;
    case UR_SAMPLER_ADDRESSING_MODE_CLAMP:
        return ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    case UR_SAMPLER_ADDRESSING_MODE_REPEAT:
        return ZE_SAMPLER_ADDRESS_MODE_REPEAT;
    case UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT:
        return ZE_SAMPLER_ADDRESS_MODE_MIRROR;
    default:
        return ZE_SAMPLER_ADDRESS_MODE_NONE;
    }
}

void l0_sampler_desc(const urc_sampler_t *desc, ze_sampler_desc_t *zd) {
    // Level Zero has one addressing mode for all dimensions: the first one's is used.
    *zd = (ze_sampler_desc_t){ZE_STRUCTURE_TYPE_SAMPLER_DESC, NULL, ze_address(desc->addressing[0]),
                              desc->filter == UR_SAMPLER_FILTER_MODE_LINEAR
                                  ? ZE_SAMPLER_FILTER_MODE_LINEAR
                                  : ZE_SAMPLER_FILTER_MODE_NEAREST,
                              desc->normalized};
}

// A wrapped native sampler (slot 0) is destroyed only when owned; urc's own always are.
static void sampler_destroy(l0_sampler_t *s) {
    for (uint32_t i = 0; s->ze != NULL && i < s->ctx->ndevices; ++i)
        if (s->ze[i] != NULL && (s->owns_native || i > 0))
            (void)zeSamplerDestroy(s->ze[i]);
    free(s->ze);
    l0_context_release_internal(s->ctx);
    URC_OBJECT_FREE(s);
}

static l0_sampler_t *sampler_new(l0_context_t *ctx, const urc_sampler_t *desc) {
    l0_sampler_t *s = URC_NEW(l0_sampler_t);
    if (s == NULL)
        return NULL;
    s->ze = urc_calloc(ctx->ndevices, sizeof *s->ze);
    if (s->ze == NULL) {
        free(s);
        return NULL;
    }
    urc_object_init(&s->obj, &l0_ddi, URC_KIND_SAMPLER);
    s->ctx = ctx;
    s->desc = *desc;
    l0_context_retain_internal(ctx);
    return s;
}

ur_result_t l0_sampler_create(ur_context_handle_t hContext, const ur_sampler_desc_t *pDesc,
                              ur_sampler_handle_t *phSampler) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    urc_sampler_t desc;
    ur_result_t res = urc_sampler_describe(&desc, pDesc);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (ctx->devices[0]->image.maxImageDims2D == 0)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0, "the device has no images");
    l0_sampler_t *s = sampler_new(ctx, &desc);
    if (s == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    s->owns_native = true;
    ze_sampler_desc_t zd;
    l0_sampler_desc(&desc, &zd);
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < ctx->ndevices; ++i)
        res =
            l0_ok(zeSamplerCreate(ctx->ze, ctx->devices[i]->ze, &zd, &s->ze[i]), "zeSamplerCreate");
    if (res != UR_RESULT_SUCCESS) {
        sampler_destroy(s);
        return res;
    }
    *phSampler = (ur_sampler_handle_t)s;
    return UR_RESULT_SUCCESS;
}

URC_RETAIN(l0_sampler, ur_sampler_handle_t, L0_SAMPLER)

ur_result_t l0_sampler_release(ur_sampler_handle_t hSampler) {
    ur_result_t released;
    if (!urc_release_destroys(urc_user_release(&L0_SAMPLER(hSampler)->obj),
                              UR_RESULT_ERROR_INVALID_SAMPLER, "urSamplerRelease", &released))
        return released;
    sampler_destroy(L0_SAMPLER(hSampler));
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_sampler_get_info(ur_sampler_handle_t hSampler, ur_sampler_info_t propName,
                                size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    const l0_sampler_t *s = L0_SAMPLER(hSampler);
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    return urc_sampler_info(&out, propName, &s->desc, (ur_context_handle_t)s->ctx,
                            urc_refcount(&s->obj));
}

/// The sampler of the first device (the one a native handle stands for).
ur_result_t l0_sampler_get_native_handle(ur_sampler_handle_t hSampler,
                                         ur_native_handle_t *phNativeSampler) {
    *phNativeSampler = (ur_native_handle_t)L0_SAMPLER(hSampler)->ze[0];
    return UR_RESULT_SUCCESS;
}

// Level Zero cannot tell a sampler's settings, so a wrapped one answers info queries with
// UR's defaults (normalised, CLAMP, NEAREST) and serves the context's first device only.
ur_result_t l0_sampler_create_with_native_handle(ur_native_handle_t hNativeSampler,
                                                 ur_context_handle_t hContext,
                                                 const ur_sampler_native_properties_t *pProps,
                                                 ur_sampler_handle_t *phSampler) {
    if (hNativeSampler == 0)
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    urc_sampler_t desc = {true,
                          {UR_SAMPLER_ADDRESSING_MODE_CLAMP, UR_SAMPLER_ADDRESSING_MODE_CLAMP,
                           UR_SAMPLER_ADDRESSING_MODE_CLAMP},
                          UR_SAMPLER_FILTER_MODE_NEAREST,
                          UR_SAMPLER_FILTER_MODE_NEAREST,
                          0.0f,
                          0.0f,
                          0.0f,
                          false};
    l0_sampler_t *s = sampler_new(L0_CONTEXT(hContext), &desc);
    if (s == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    s->ze[0] = (ze_sampler_handle_t)hNativeSampler;
    s->owns_native = pProps != NULL && pProps->isNativeHandleOwned;
    *phSampler = (ur_sampler_handle_t)s;
    return UR_RESULT_SUCCESS;
}

ze_sampler_handle_t l0_sampler_for(const l0_sampler_t *s, const l0_device_t *dev) {
    for (uint32_t i = 0; i < s->ctx->ndevices; ++i)
        if (s->ctx->devices[i] == dev)
            return s->ze[i];
    return NULL;
}
