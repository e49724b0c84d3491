// SPDX-License-Identifier: MIT
// The USM extensions beyond pools that OpenCL's USM extension can carry: pitched allocation
// (rows padded to 512 bytes) and context-level copies. Host registration, import and peer
// access have no OpenCL call and stay UNSUPPORTED_FEATURE.
#include "ocl_internal.h"
#include "pool/pool_handle.h"

#define OCL_PITCH_ALIGN 512u

ur_result_t ocl_usm_pitched_alloc_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                      const ur_usm_desc_t *pUSMDesc, ur_usm_pool_handle_t pool,
                                      size_t widthInBytes, size_t height, size_t elementSizeBytes,
                                      void **ppMem, size_t *pResultPitch) {
    size_t pitch = 0, bytes = 0;
    OCL_TRY_UR(
        urc_usm_pitch(widthInBytes, height, elementSizeBytes, OCL_PITCH_ALIGN, &pitch, &bytes));
    OCL_TRY_UR(ocl_usm_device_alloc(hContext, hDevice, pUSMDesc, pool, bytes, ppMem));
    *pResultPitch = pitch;
    return UR_RESULT_SUCCESS;
}

// A copy needs a queue: a short-lived one on the context's first device.
ur_result_t ocl_usm_context_memcpy_exp(ur_context_handle_t hContext, void *pDst, const void *pSrc,
                                       size_t size) {
    ur_device_handle_t dev = hContext->devices[0];
    if (!dev->usm)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "urUSMContextMemcpyExp: the device has no USM");
    // The rule of urEnqueueUSMMemcpy: the runtime would copy past an allocation's end.
    urc_rules_t rules;
    ocl_rules(hContext, dev, &rules);
    OCL_TRY_UR(urc_rule_usm_memcpy(&rules, pDst, pSrc, size));
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(hContext->cl, dev->cl, NULL, &err);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clCreateCommandQueueWithProperties");
    err = hContext->platform->ext.enqueue_memcpy(q, CL_TRUE, pDst, pSrc, size, 0, NULL, NULL);
    clReleaseCommandQueue(q);
    return err == CL_SUCCESS ? UR_RESULT_SUCCESS : ocl_fail(err, "clEnqueueMemcpyINTEL");
}
