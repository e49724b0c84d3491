// SPDX-License-Identifier: MIT
// IPC event handles on CUDA: cuIpcGetEventHandle of a reusable event made with
// UR_EXP_EVENT_FLAG_IPC_EXP (its CUevent has CU_EVENT_INTERPROCESS), wrapped in urc's
// self-describing handle data (common/ipc/ipc_handle.h); another process opens it with
// cuIpcOpenEventHandle and gets a reusable event sharing the CUevent's state: a signal through
// either is seen by waits on both.
#include "cuda_internal.h"
#include "ipc/ipc_handle.h"

bool cuda_ipc_events_available(void) {
    return cu.IpcGetEventHandle != NULL && cu.IpcOpenEventHandle != NULL;
}

ur_result_t cuda_ipc_get_event_handle_exp(ur_event_handle_t hEvent, void **ppIPCEventHandleData,
                                          size_t *pIPCEventHandleDataSizeRet) {
    cuda_event_t *e = CUDA_EVENT(hEvent);
    ur_result_t res = urc_reusable_check_export(e->reusable);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (!cuda_ipc_events_available())
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the CUDA driver has no IPC event calls");
    res = cuda_activate(e->dev);
    CUipcEventHandle handle;
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.IpcGetEventHandle(&handle, e->end), "cuIpcGetEventHandle");
    if (res != UR_RESULT_SUCCESS)
        return res;
    return urc_ipc_pack(UR_BACKEND_CUDA, URC_IPC_EVENT, &handle, sizeof handle,
                        ppIPCEventHandleData, pIPCEventHandleDataSizeRet);
}

URC_IPC_PUT_EVENT_HANDLE(cuda, UR_BACKEND_CUDA)

ur_result_t cuda_ipc_open_event_handle_exp(ur_context_handle_t hContext,
                                           const void *pIPCEventHandleData,
                                           size_t ipcEventHandleDataSize,
                                           ur_event_handle_t *phEvent) {
    CUipcEventHandle handle;
    ur_result_t res = urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_EVENT, pIPCEventHandleData,
                                     ipcEventHandleDataSize, &handle, sizeof handle, NULL);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (!cuda_ipc_events_available())
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the CUDA driver has no IPC event calls");
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    if ((res = cuda_activate(ctx->devices[0])) != UR_RESULT_SUCCESS)
        return res;
    CUevent ev = NULL;
    CUresult r = cu.IpcOpenEventHandle(&ev, handle);
    // The handle is the only input: unless the driver ran out of something, a refusal means
    // its process or event is gone, or it never was one, which is the caller's bad value.
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_OUT_OF_MEMORY && r != CUDA_ERROR_DEINITIALIZED &&
        r != CUDA_ERROR_ASSERT)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, (int32_t)r,
                             "cuIpcOpenEventHandle refused the handle (CUresult %d; its process "
                             "or event may be gone)",
                             (int)r);
    if ((res = cuda_ok(r, "cuIpcOpenEventHandle")) != UR_RESULT_SUCCESS)
        return res;
    cuda_event_t *e = NULL;
    res = cuda_reusable_make(ctx, ctx->devices[0], UR_EXP_EVENT_FLAG_IPC_EXP, ev, NULL, true, &e);
    if (res != UR_RESULT_SUCCESS) {
        cu.EventDestroy(ev);
        return res;
    }
    *phEvent = (ur_event_handle_t)e;
    return UR_RESULT_SUCCESS;
}
