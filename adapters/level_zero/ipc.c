// SPDX-License-Identifier: MIT
// IPC memory handles: zeMemGetIpcHandle of the pointer's allocation and the pointer's offset
// in it, inside urc's checked handle data (common/ipc/ipc_handle); another process opens it with
// zeMemOpenIpcHandle and the offset finds the same byte; zeMemCloseIpcHandle ends the mapping.
// The Level Zero API this adapter is built against (1.4) has no zeMemPutIpcHandle: the
// driver's handle lives as long as its allocation, so a put only frees the data. Pooled
// pointers share their slab and are refused; physical-memory handles have no Level Zero 1.4
// counterpart (UNSUPPORTED_FEATURE).
#include "ipc/ipc_handle.h"
#include "l0_internal.h"
#include "pool/pool_handle.h"

/// The payload of Level Zero's IPC memory handle data.
typedef struct l0_ipc_mem_payload_t {
    ze_ipc_mem_handle_t handle;
    uint64_t offset; // of the pointer in its allocation
} l0_ipc_mem_payload_t;

static ur_result_t ipc_context(ur_context_handle_t hContext) {
    return l0_is(hContext, URC_KIND_CONTEXT) ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_INVALID_CONTEXT;
}

bool l0_ipc_memory_supported(const l0_device_t *dev) {
    ze_driver_ipc_properties_t props = {ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES, NULL, 0};
    return zeDriverGetIpcProperties(dev->platform->ze, &props) == ZE_RESULT_SUCCESS &&
           (props.flags & ZE_IPC_PROPERTY_FLAG_MEMORY);
}

ur_result_t l0_ipc_get_mem_handle_exp(ur_context_handle_t hContext, void *pMem,
                                      void **ppIPCMemHandleData, size_t *pIPCMemHandleDataSizeRet) {
    ur_result_t res = ipc_context(hContext);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (urc_usm_pool_of(pMem, NULL, NULL, NULL) != NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%p is a pooled allocation: it cannot be shared alone", pMem);
    l0_context_t *ctx = L0_CONTEXT(hContext);
    ze_memory_allocation_properties_t props = {ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL,
                                               ZE_MEMORY_TYPE_UNKNOWN, 0, 0};
    ze_device_handle_t owner = NULL;
    void *base = NULL;
    if (zeMemGetAllocProperties(ctx->ze, pMem, &props, &owner) != ZE_RESULT_SUCCESS ||
        props.type != ZE_MEMORY_TYPE_DEVICE ||
        zeMemGetAddressRange(ctx->ze, pMem, &base, NULL) != ZE_RESULT_SUCCESS)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%p is not device USM memory of this context", pMem);
    l0_ipc_mem_payload_t payload = {.offset = (uint64_t)((uintptr_t)pMem - (uintptr_t)base)};
    ze_result_t r = zeMemGetIpcHandle(ctx->ze, base, &payload.handle);
    if (r == ZE_RESULT_ERROR_INVALID_ARGUMENT)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, (int32_t)r,
                             "the driver cannot share %p", pMem);
    if ((res = l0_ok(r, "zeMemGetIpcHandle")) != UR_RESULT_SUCCESS)
        return res;
    return urc_ipc_pack(UR_BACKEND_LEVEL_ZERO, URC_IPC_MEMORY, &payload, sizeof payload,
                        ppIPCMemHandleData, pIPCMemHandleDataSizeRet);
}

ur_result_t l0_ipc_put_mem_handle_exp(ur_context_handle_t hContext, void *pIPCMemHandleData) {
    ur_result_t res = ipc_context(hContext);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return urc_ipc_put(UR_BACKEND_LEVEL_ZERO, URC_IPC_MEMORY, pIPCMemHandleData, NULL, 0);
}

ur_result_t l0_ipc_open_mem_handle_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                       void *pIPCMemHandleData, size_t ipcMemHandleDataSize,
                                       void **ppMem) {
    ur_result_t res = ipc_context(hContext);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_context_t *ctx = L0_CONTEXT(hContext);
    if (!l0_context_has_device(ctx, L0_DEVICE(hDevice)))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    l0_ipc_mem_payload_t payload;
    res = urc_ipc_unpack(UR_BACKEND_LEVEL_ZERO, URC_IPC_MEMORY, pIPCMemHandleData,
                         ipcMemHandleDataSize, &payload, sizeof payload, NULL);
    if (res != UR_RESULT_SUCCESS)
        return res;
    void *base = NULL;
    ze_result_t r = zeMemOpenIpcHandle(ctx->ze, L0_DEVICE(hDevice)->ze, payload.handle, 0, &base);
    // A handle whose process or allocation is gone, or that never was one, is a bad value.
    if (r == ZE_RESULT_ERROR_INVALID_ARGUMENT)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, (int32_t)r,
                             "zeMemOpenIpcHandle refused the handle (its process may be gone)");
    if ((res = l0_ok(r, "zeMemOpenIpcHandle")) != UR_RESULT_SUCCESS)
        return res;
    size_t size = 0;
    if (zeMemGetAddressRange(ctx->ze, base, NULL, &size) != ZE_RESULT_SUCCESS ||
        payload.offset >= size) {
        zeMemCloseIpcHandle(ctx->ze, base);
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "the IPC handle's offset %llu lies outside its allocation",
                             (unsigned long long)payload.offset);
    }
    *ppMem = (char *)base + payload.offset;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_ipc_close_mem_handle_exp(ur_context_handle_t hContext, void *pMem) {
    ur_result_t res = ipc_context(hContext);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_context_t *ctx = L0_CONTEXT(hContext);
    void *base = NULL;
    ze_result_t r = zeMemGetAddressRange(ctx->ze, pMem, &base, NULL);
    if (r == ZE_RESULT_SUCCESS)
        r = zeMemCloseIpcHandle(ctx->ze, base);
    if (r == ZE_RESULT_ERROR_INVALID_ARGUMENT)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, (int32_t)r,
                             "%p is not an opened IPC handle", pMem);
    return l0_ok(r, "zeMemCloseIpcHandle");
}
