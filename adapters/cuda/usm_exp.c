// SPDX-License-Identifier: MIT
// The USM extensions beyond pools: pitched allocation (cuMemAllocPitch), registered and
// imported host memory (cuMemHostRegister), context-level copies, and peer access between
// devices (cuCtxEnablePeerAccess; copies between peers go through urEnqueueUSMMemcpy, whose
// cuMemcpyAsync reaches peer memory under unified addressing).
#include "cuda_internal.h"
#include "memory/usm_import_peer.h"
#include "pool/pool_handle.h"

// Rows of pooled pitched memory, and of any where the driver lacks cuMemAllocPitch.
#define CUDA_PITCH_ALIGN 512u

ur_result_t cuda_usm_pitched_alloc_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                       const ur_usm_desc_t *pUSMDesc, ur_usm_pool_handle_t pool,
                                       size_t widthInBytes, size_t height, size_t elementSizeBytes,
                                       void **ppMem, size_t *pResultPitch) {
    if (!cuda_context_has_device(CUDA_CONTEXT(hContext), CUDA_DEVICE(hDevice)))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    size_t pitch = 0, bytes = 0;
    ur_result_t res =
        urc_usm_pitch(widthInBytes, height, elementSizeBytes, CUDA_PITCH_ALIGN, &pitch, &bytes);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (pool != NULL || cu.MemAllocPitch == NULL) {
        res = cuda_usm_device_alloc(hContext, hDevice, pUSMDesc, pool, bytes, ppMem);
        if (res == UR_RESULT_SUCCESS)
            *pResultPitch = pitch;
        return res;
    }
    if ((res = cuda_activate(CUDA_DEVICE(hDevice))) != UR_RESULT_SUCCESS)
        return res;
    // The driver takes element sizes of 4, 8 and 16; narrower elements pad like 4-byte ones.
    CUdeviceptr p = 0;
    res = cuda_ok(cu.MemAllocPitch(&p, &pitch, widthInBytes, height,
                                   elementSizeBytes < 4 ? 4 : (unsigned)elementSizeBytes),
                  "cuMemAllocPitch");
    if (res == UR_RESULT_SUCCESS) {
        *ppMem = (void *)(uintptr_t)p;
        *pResultPitch = pitch;
    }
    return res;
}

static ur_result_t host_register(ur_context_handle_t hContext, void *p, size_t size,
                                 unsigned flags) {
    ur_result_t res = cuda_activate(CUDA_CONTEXT(hContext)->devices[0]);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // Portable: every device of the context, each in its own primary context, may use it.
    CUresult r = cu.MemHostRegister(p, size, flags | CU_MEMHOSTREGISTER_PORTABLE);
    if (r == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
        return urc_usm_host_registered_already(p, (int32_t)r);
    return cuda_ok(r, "cuMemHostRegister");
}

static ur_result_t host_unregister(ur_context_handle_t hContext, void *p) {
    if (!cuda_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    ur_result_t res = cuda_activate(CUDA_CONTEXT(hContext)->devices[0]);
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUresult r = cu.MemHostUnregister(p);
    if (r == CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED)
        return urc_usm_host_not_registered(p, (int32_t)r);
    return cuda_ok(r, "cuMemHostUnregister");
}

ur_result_t
cuda_usm_host_alloc_register_exp(ur_context_handle_t hContext, void *pHostMem, size_t size,
                                 const ur_exp_usm_host_alloc_register_properties_t *pProperties) {
    bool read_only = false;
    ur_result_t res = urc_usm_host_register_check(pHostMem, size, pProperties, &read_only);
    if (res != UR_RESULT_SUCCESS)
        return res;
    unsigned cu_flags = CU_MEMHOSTREGISTER_DEVICEMAP;
    if (read_only)
        cu_flags |= CU_MEMHOSTREGISTER_READ_ONLY;
    return host_register(hContext, pHostMem, size, cu_flags);
}

ur_result_t cuda_usm_host_alloc_unregister_exp(ur_context_handle_t hContext, void *pHostMem) {
    return host_unregister(hContext, pHostMem);
}

// Importing pins host memory for faster copies, which is what registration does.
ur_result_t cuda_usm_import_exp(ur_context_handle_t hContext, void *pMem, size_t size) {
    ur_result_t res = urc_usm_import_check(pMem, size);
    return res != UR_RESULT_SUCCESS ? res : host_register(hContext, pMem, size, 0);
}

ur_result_t cuda_usm_release_exp(ur_context_handle_t hContext, void *pMem) {
    return host_unregister(hContext, pMem);
}

ur_result_t cuda_usm_context_memcpy_exp(ur_context_handle_t hContext, void *pDst, const void *pSrc,
                                        size_t size) {
    cuda_device_t *dev = CUDA_CONTEXT(hContext)->devices[0];
    ur_result_t res = cuda_activate(dev);
    // The rule of urEnqueueUSMMemcpy, before the driver copies past an allocation's end.
    urc_rules_t rules;
    cuda_rules(dev, &rules);
    if (res == UR_RESULT_SUCCESS)
        res = urc_rule_usm_memcpy(&rules, pDst, pSrc, size);
    // Unified addressing tells the driver where each side lives; the legacy stream, waited
    // for at once, makes the copy synchronous.
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(
            cu.MemcpyAsync((CUdeviceptr)(uintptr_t)pDst, (CUdeviceptr)(uintptr_t)pSrc, size, NULL),
            "cuMemcpyAsync");
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.StreamSynchronize(NULL), "cuStreamSynchronize");
    return res;
}

// ---- peer access ----

static ur_result_t peer_pair(ur_device_handle_t command, ur_device_handle_t peer) {
    if (!cuda_is(command, URC_KIND_DEVICE) || !cuda_is(peer, URC_KIND_DEVICE))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    if (cu.DeviceCanAccessPeer == NULL || cu.CtxEnablePeerAccess == NULL ||
        cu.CtxDisablePeerAccess == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the CUDA driver has no peer access calls");
    return cuda_activate(CUDA_DEVICE(command));
}

static ur_result_t can_access(ur_device_handle_t command, ur_device_handle_t peer, int *can) {
    return cuda_ok(cu.DeviceCanAccessPeer(can, CUDA_DEVICE(command)->cu, CUDA_DEVICE(peer)->cu),
                   "cuDeviceCanAccessPeer");
}

ur_result_t cuda_usm_p_2p_enable_peer_access_exp(ur_device_handle_t commandDevice,
                                                 ur_device_handle_t peerDevice) {
    ur_result_t res = peer_pair(commandDevice, peerDevice);
    int can = 0;
    if (res == UR_RESULT_SUCCESS)
        res = can_access(commandDevice, peerDevice, &can);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (!can)
        return urc_peer_unreachable(CUDA_DEVICE(commandDevice)->index,
                                    CUDA_DEVICE(peerDevice)->index, 0);
    CUresult r = cu.CtxEnablePeerAccess(CUDA_DEVICE(peerDevice)->ctx, 0);
    if (r == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
        return urc_peer_state_wrong(true, (int32_t)r);
    return cuda_ok(r, "cuCtxEnablePeerAccess");
}

ur_result_t cuda_usm_p_2p_disable_peer_access_exp(ur_device_handle_t commandDevice,
                                                  ur_device_handle_t peerDevice) {
    ur_result_t res = peer_pair(commandDevice, peerDevice);
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUresult r = cu.CtxDisablePeerAccess(CUDA_DEVICE(peerDevice)->ctx);
    if (r == CUDA_ERROR_PEER_ACCESS_NOT_ENABLED)
        return urc_peer_state_wrong(false, (int32_t)r);
    return cuda_ok(r, "cuCtxDisablePeerAccess");
}

ur_result_t cuda_usm_p_2p_peer_access_get_info_exp(ur_device_handle_t commandDevice,
                                                   ur_device_handle_t peerDevice,
                                                   ur_exp_peer_info_t propName, size_t propSize,
                                                   void *pPropValue, size_t *pPropSizeRet) {
    ur_result_t res = peer_pair(commandDevice, peerDevice);
    if (res != UR_RESULT_SUCCESS)
        return res;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    int value = 0;
    switch (propName) {
    case UR_EXP_PEER_INFO_UR_PEER_ACCESS_SUPPORT:
        res = can_access(commandDevice, peerDevice, &value);
        break;
    case UR_EXP_PEER_INFO_UR_PEER_ATOMICS_SUPPORT:
        // The driver refuses a device paired with itself: no peer atomics there.
        if (commandDevice != peerDevice && cu.DeviceGetP2PAttribute != NULL &&
            cu.DeviceGetP2PAttribute(&value, CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED,
                                     CUDA_DEVICE(commandDevice)->cu,
                                     CUDA_DEVICE(peerDevice)->cu) != CUDA_SUCCESS)
            value = 0;
        break;
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
    return res != UR_RESULT_SUCCESS ? res : urc_info_i32(&out, value);
}
