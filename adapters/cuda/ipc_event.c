// SPDX-License-Identifier: MIT
// IPC event handles on CUDA: cuIpcGetEventHandle of a reusable event made with
// UR_EXP_EVENT_FLAG_IPC_EXP (its CUevent has CU_EVENT_INTERPROCESS), wrapped in urc's
// self-describing handle data (common/ipc/ipc_handle.h); another process opens it with
// cuIpcOpenEventHandle and gets a reusable event sharing the CUevent's state: a signal through
// either is seen by waits on both. CUDA refuses to open a handle in the process that made it;
// there the data name the exporting event itself, and the open gives a new event over its
// CUevent that holds the exporter.
#include <unistd.h>

#include "cuda_internal.h"
#include "ipc/ipc_handle.h"
#include "queue/reusable_event.h"

/// The payload of CUDA's IPC event handle data.
typedef struct cuda_ipc_event_payload_t {
    CUipcEventHandle handle;
    uint64_t exporter; // the exporting cuda_event_t, meaningful in its own process only
} cuda_ipc_event_payload_t;

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
    cuda_ipc_event_payload_t payload = {.exporter = (uint64_t)(uintptr_t)e};
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.IpcGetEventHandle(&payload.handle, e->end), "cuIpcGetEventHandle");
    if (res != UR_RESULT_SUCCESS)
        return res;
    return urc_ipc_pack(UR_BACKEND_CUDA, URC_IPC_EVENT, &payload, sizeof payload,
                        ppIPCEventHandleData, pIPCEventHandleDataSizeRet);
}

URC_IPC_PUT_EVENT_HANDLE(cuda, UR_BACKEND_CUDA)

// An open in the exporting process: the exporter must still be a live IPC event of this adapter
// (the pointer is compared with the registry of live reusable events, never read before); the
// new event shares its CUevent and holds it until destroyed.
static ur_result_t open_own(cuda_context_t *ctx, uint64_t exporter, ur_event_handle_t *phEvent) {
    urc_object_t *held = urc_reusable_claim((const void *)(uintptr_t)exporter);
    if (held == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "the IPC handle data name an event of this process that is gone");
    cuda_event_t *src = (cuda_event_t *)held;
    ur_result_t res = urc_reusable_check_export(src->reusable);
    if (res != UR_RESULT_SUCCESS) {
        cuda_event_release_internal(src);
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "the IPC handle data name an event that was not exported");
    }
    cuda_device_t *dev = cuda_context_has_device(ctx, src->dev) ? src->dev : ctx->devices[0];
    cuda_event_t *e = NULL;
    res = cuda_reusable_make(ctx, dev, UR_EXP_EVENT_FLAG_IPC_EXP, src->end, NULL, true, &e);
    if (res != UR_RESULT_SUCCESS) {
        cuda_event_release_internal(src);
        return res;
    }
    e->owns_native = false;
    e->shares = src;
    *phEvent = (ur_event_handle_t)e;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_ipc_open_event_handle_exp(ur_context_handle_t hContext,
                                           const void *pIPCEventHandleData,
                                           size_t ipcEventHandleDataSize,
                                           ur_event_handle_t *phEvent) {
    cuda_ipc_event_payload_t payload;
    uint32_t pid = 0;
    ur_result_t res = urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_EVENT, pIPCEventHandleData,
                                     ipcEventHandleDataSize, &payload, sizeof payload, &pid);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (!cuda_ipc_events_available())
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the CUDA driver has no IPC event calls");
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    if ((res = cuda_activate(ctx->devices[0])) != UR_RESULT_SUCCESS)
        return res;
    if (pid == (uint32_t)getpid())
        return open_own(ctx, payload.exporter, phEvent);
    CUevent ev = NULL;
    CUresult r = cu.IpcOpenEventHandle(&ev, payload.handle);
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
