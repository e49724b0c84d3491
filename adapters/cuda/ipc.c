// SPDX-License-Identifier: MIT
// Inter-process USM: urIPCGetMemHandleExp wraps cuIpcGetMemHandle's handle and the pointer's
// offset in its allocation in urc's checked handle data (common/ipc/ipc_handle); another process
// opens it with cuIpcOpenMemHandle and gets the same byte. Pooled pointers share their whole slab,
// so they are refused. Physical-memory handles are ipc_physical.c, event handles ipc_event.c.

#include "cuda_internal.h"
#include "ipc/ipc_handle.h"
#include "memory/vm_map.h"
#include "pool/pool_handle.h"

/// The payload of CUDA's IPC memory handle data.
typedef struct cuda_ipc_mem_payload_t {
    CUipcMemHandle handle;
    uint64_t offset; // of the pointer in its allocation
} cuda_ipc_mem_payload_t;

static ur_result_t ipc_ready(ur_context_handle_t hContext) {
    if (!cuda_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    if (cu.IpcGetMemHandle == NULL || cu.IpcOpenMemHandle == NULL || cu.IpcCloseMemHandle == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the CUDA driver has no IPC calls");
    return cuda_activate(CUDA_CONTEXT(hContext)->devices[0]);
}

ur_result_t cuda_ipc_get_mem_handle_exp(ur_context_handle_t hContext, void *pMem,
                                        void **ppIPCMemHandleData,
                                        size_t *pIPCMemHandleDataSizeRet) {
    ur_result_t res = ipc_ready(hContext);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (urc_usm_pool_of(pMem, NULL, NULL, NULL) != NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%p is a pooled allocation: it cannot be shared alone", pMem);
    // cuIpcGetMemHandle takes only cuMemAlloc's memory (the simulated driver would take more).
    if ((res = urc_vm_refuse_for(pMem, "urIPCGetMemHandleExp")) != UR_RESULT_SUCCESS)
        return res;
    cuda_pointer_t info;
    if ((res = cuda_pointer_query(pMem, &info)) != UR_RESULT_SUCCESS)
        return res;
    if (info.memory_type != CU_MEMORYTYPE_DEVICE || info.managed)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%p is not device USM memory of the CUDA adapter", pMem);
    cuda_ipc_mem_payload_t payload = {.offset = (uint64_t)((uintptr_t)pMem - (uintptr_t)info.base)};
    res = cuda_ok(cu.IpcGetMemHandle(&payload.handle, (CUdeviceptr)info.base), "cuIpcGetMemHandle");
    if (res != UR_RESULT_SUCCESS)
        return res;
    return urc_ipc_pack(UR_BACKEND_CUDA, URC_IPC_MEMORY, &payload, sizeof payload,
                        ppIPCMemHandleData, pIPCMemHandleDataSizeRet);
}

ur_result_t cuda_ipc_put_mem_handle_exp(ur_context_handle_t hContext, void *pIPCMemHandleData) {
    (void)hContext; // checked by the generated wrapper
    // Nothing of the driver's to give back.
    return urc_ipc_put(UR_BACKEND_CUDA, URC_IPC_MEMORY, pIPCMemHandleData, NULL, 0);
}

ur_result_t cuda_ipc_open_mem_handle_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                         void *pIPCMemHandleData, size_t ipcMemHandleDataSize,
                                         void **ppMem) {
    ur_result_t res = ipc_ready(hContext);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (!cuda_context_has_device(CUDA_CONTEXT(hContext), CUDA_DEVICE(hDevice)))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    cuda_ipc_mem_payload_t payload;
    res = urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_MEMORY, pIPCMemHandleData, ipcMemHandleDataSize,
                         &payload, sizeof payload, NULL);
    if (res != UR_RESULT_SUCCESS ||
        (res = cuda_activate(CUDA_DEVICE(hDevice))) != UR_RESULT_SUCCESS)
        return res;
    CUdeviceptr base = 0;
    CUresult r = cu.IpcOpenMemHandle(&base, payload.handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    // A handle whose process is gone, or that never was one, is the caller's bad value.
    if (r == CUDA_ERROR_INVALID_VALUE || r == CUDA_ERROR_INVALID_HANDLE ||
        r == CUDA_ERROR_MAP_FAILED)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, (int32_t)r,
                             "cuIpcOpenMemHandle refused the handle (its process may be gone)");
    if ((res = cuda_ok(r, "cuIpcOpenMemHandle")) != UR_RESULT_SUCCESS)
        return res;
    // The offset comes from the data, which the caller may have forged: it must point inside
    // the allocation the driver opened.
    cuda_pointer_t info;
    res = cuda_pointer_query((void *)(uintptr_t)base, &info);
    if (res == UR_RESULT_SUCCESS && payload.offset >= info.range)
        res = urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                            "the handle data's offset %llu lies outside the %zu-byte allocation "
                            "it names",
                            (unsigned long long)payload.offset, (size_t)info.range);
    if (res != UR_RESULT_SUCCESS) {
        (void)cu.IpcCloseMemHandle(base);
        return res;
    }
    *ppMem = (void *)(uintptr_t)(base + payload.offset);
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_ipc_close_mem_handle_exp(ur_context_handle_t hContext, void *pMem) {
    ur_result_t res = ipc_ready(hContext);
    cuda_pointer_t info;
    if (res == UR_RESULT_SUCCESS)
        res = cuda_pointer_query(pMem, &info);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (info.memory_type != CU_MEMORYTYPE_DEVICE || info.managed)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0, "%p is not an opened IPC handle",
                             pMem);
    CUresult r = cu.IpcCloseMemHandle((CUdeviceptr)info.base);
    if (r == CUDA_ERROR_INVALID_VALUE)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, (int32_t)r,
                             "%p is not an opened IPC handle", pMem);
    return cuda_ok(r, "cuIpcCloseMemHandle");
}
