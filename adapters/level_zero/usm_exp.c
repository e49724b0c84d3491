// SPDX-License-Identifier: MIT
// The USM extensions beyond pools: pitched allocation (rows padded to 512 bytes) and
// context-level copies. Host registration (zexDriverImportExternalPointer), import and peer
// access are not built here and stay UNSUPPORTED_FEATURE.
#include "l0_internal.h"
#include "usm_pools.h"

#define L0_PITCH_ALIGN 512u

ur_result_t l0_usm_pitched_alloc_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                     const ur_usm_desc_t *pUSMDesc, ur_usm_pool_handle_t pool,
                                     size_t widthInBytes, size_t height, size_t elementSizeBytes,
                                     void **ppMem, size_t *pResultPitch) {
    size_t pitch = 0, bytes = 0;
    ur_result_t res =
        urc_usm_pitch(widthInBytes, height, elementSizeBytes, L0_PITCH_ALIGN, &pitch, &bytes);
    if (res == UR_RESULT_SUCCESS)
        res = l0_usm_device_alloc(hContext, hDevice, pUSMDesc, pool, bytes, ppMem);
    if (res == UR_RESULT_SUCCESS)
        *pResultPitch = pitch;
    return res;
}

ur_result_t l0_usm_context_memcpy_exp(ur_context_handle_t hContext, void *pDst, const void *pSrc,
                                      size_t size) {
    if (!l0_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    l0_context_t *ctx = L0_CONTEXT(hContext);
    return l0_copy_now(ctx, ctx->devices[0], pDst, pSrc, size);
}
