// SPDX-License-Identifier: MIT
// IPC event handle data (ipc_event.h).
#include "ipc_event.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "ptrset.h"

static urc_ptrset_t outstanding;

ur_result_t urc_ipc_event_pack(urc_ipc_backend_t backend, const void *payload, size_t size,
                               void **data, size_t *data_size) {
    if (size > UINT32_MAX)
        return UR_RESULT_ERROR_INVALID_VALUE;
    urc_ipc_event_header_t h = {URC_IPC_EVENT_MAGIC, URC_IPC_EVENT_VERSION, (uint16_t)backend,
                                (uint32_t)getpid(), (uint32_t)size};
    unsigned char *buf = malloc(sizeof h + size);
    if (buf == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    memcpy(buf, &h, sizeof h);
    memcpy(buf + sizeof h, payload, size);
    if (!urc_ptrset_add(&outstanding, buf)) {
        free(buf);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    *data = buf;
    *data_size = sizeof h + size;
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_ipc_event_put(void *data) {
    if (!urc_ptrset_remove(&outstanding, data))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "urIPCPutEventHandleExp: %p is not IPC event handle data of this "
                             "process still outstanding (never handed out, or already put back)",
                             data);
    free(data);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_ipc_event_unpack(urc_ipc_backend_t backend, const void *data, size_t size,
                                 size_t payload_size, const void **payload, uint32_t *pid) {
    const size_t expected = sizeof(urc_ipc_event_header_t) + payload_size;
    if (size != expected)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "IPC event handle data of %zu bytes; this adapter's are %zu", size,
                             expected);
    urc_ipc_event_header_t h;
    memcpy(&h, data, sizeof h);
    if (h.magic != URC_IPC_EVENT_MAGIC)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "not IPC event handle data from urIPCGetEventHandleExp (bad magic)");
    if (h.version != URC_IPC_EVENT_VERSION || h.backend != (uint16_t)backend ||
        h.payload_size != payload_size)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "IPC event handle data of version %u for backend %u with %u payload "
                             "bytes; this adapter reads version %u, backend %u, %zu bytes",
                             (unsigned)h.version, (unsigned)h.backend, (unsigned)h.payload_size,
                             URC_IPC_EVENT_VERSION, (unsigned)backend, payload_size);
    *payload = (const unsigned char *)data + sizeof h;
    if (pid != NULL)
        *pid = h.pid;
    return UR_RESULT_SUCCESS;
}
