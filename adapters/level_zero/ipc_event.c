// SPDX-License-Identifier: MIT
// IPC event handles on Level Zero: zeEventPoolGetIpcHandle of the IPC pool an IPC_EXP reusable
// event owns (reusable_event.c), wrapped in urc's checked handle data (common/ipc/ipc_handle.h);
// urIPCOpenEventHandleExp opens the pool (zeEventPoolOpenIpcHandle) and its event 0, and gives
// a reusable event that waits for it until this process signals the event itself. The
// simulated driver opens pools in the process that made them only.
#include "ipc/ipc_handle.h"
#include "l0_internal.h"

ur_result_t l0_ipc_get_event_handle_exp(ur_event_handle_t hEvent, void **ppIPCEventHandleData,
                                        size_t *pIPCEventHandleDataSizeRet) {
    l0_event_t *e = L0_EVENT(hEvent);
    ur_result_t res = urc_reusable_check_export(e->reusable);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (e->ipc_pool == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the Level Zero driver passes no event pools between processes");
    ze_ipc_event_pool_handle_t handle;
    res = l0_ok(zeEventPoolGetIpcHandle(e->ipc_pool, &handle), "zeEventPoolGetIpcHandle");
    if (res != UR_RESULT_SUCCESS)
        return res;
    return urc_ipc_pack(UR_BACKEND_LEVEL_ZERO, URC_IPC_EVENT, &handle, sizeof handle,
                        ppIPCEventHandleData, pIPCEventHandleDataSizeRet);
}

// The driver of this header has no zeEventPoolPutIpcHandle: the handle holds nothing to give back.
URC_IPC_PUT_EVENT_HANDLE(l0, UR_BACKEND_LEVEL_ZERO)

ur_result_t l0_ipc_open_event_handle_exp(ur_context_handle_t hContext,
                                         const void *pIPCEventHandleData,
                                         size_t ipcEventHandleDataSize,
                                         ur_event_handle_t *phEvent) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    ze_ipc_event_pool_handle_t handle;
    ur_result_t res = urc_ipc_unpack(UR_BACKEND_LEVEL_ZERO, URC_IPC_EVENT, pIPCEventHandleData,
                                     ipcEventHandleDataSize, &handle, sizeof handle, NULL);
    if (res != UR_RESULT_SUCCESS)
        return res;
    for (uint32_t i = 0; i < ctx->ndevices; ++i)
        if (!l0_ipc_events_available(ctx->devices[i]))
            return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                                 "the Level Zero driver passes no event pools between processes");
    ze_event_pool_handle_t pool = NULL;
    ze_result_t r = zeEventPoolOpenIpcHandle(ctx->ze, handle, &pool);
    // The handle is the only input: unless the driver ran out of memory, a refusal means its
    // process or pool is gone, or it never was one, which is the caller's bad value.
    if (r != ZE_RESULT_SUCCESS && r != ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY &&
        r != ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY && r != ZE_RESULT_ERROR_DEVICE_LOST)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, (int32_t)r,
                             "zeEventPoolOpenIpcHandle refused the handle (ze_result_t 0x%x; its "
                             "process or pool may be gone)",
                             (unsigned)r);
    if ((res = l0_ok(r, "zeEventPoolOpenIpcHandle")) != UR_RESULT_SUCCESS)
        return res;
    l0_event_t *e = NULL;
    res = l0_reusable_make(ctx, ctx->devices[0], UR_EXP_EVENT_FLAG_IPC_EXP, true, &e);
    if (res != UR_RESULT_SUCCESS) {
        (void)zeEventPoolCloseIpcHandle(pool);
        return res;
    }
    e->ipc_pool = pool; // closed with the event from here on
    ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                          ZE_EVENT_SCOPE_FLAG_HOST};
    res = l0_ok(zeEventCreate(pool, &ed, &e->ipc_ze), "zeEventCreate");
    if (res != UR_RESULT_SUCCESS) {
        l0_event_release_created(e);
        return res;
    }
    *phEvent = (ur_event_handle_t)e;
    return UR_RESULT_SUCCESS;
}
