// SPDX-License-Identifier: MIT
// IPC event handle data (urIPCGetEventHandleExp / PutEventHandleExp / OpenEventHandleExp):
// what crosses the process boundary is self-describing and checked before the driver sees
// it. A fixed header (a magic word, the layout's version, the backend, the exporting process,
// the payload's size) precedes the backend's own handle; the whole is exactly the size
// urIPCGetEventHandleExp reported. Handle data given back to urIPCPutEventHandleExp must be
// data this library handed out and not yet put back (a set of outstanding buffers, ptrset.h):
// anything else is refused without being read.
#ifndef URC_COMMON_IPC_EVENT_H
#define URC_COMMON_IPC_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "ur_api.h"

/// The backends whose handles the data may carry.
typedef enum urc_ipc_backend_t {
    URC_IPC_BACKEND_CUDA = 1,
    URC_IPC_BACKEND_LEVEL_ZERO = 2,
} urc_ipc_backend_t;

#define URC_IPC_EVENT_MAGIC   0x45435255u /* "URCE" little-endian */
#define URC_IPC_EVENT_VERSION 1u

typedef struct urc_ipc_event_header_t {
    uint32_t magic;
    uint16_t version;
    uint16_t backend;      // urc_ipc_backend_t
    uint32_t pid;          // the exporting process
    uint32_t payload_size; // bytes after this header
} urc_ipc_event_header_t;

/// New handle data holding `payload` (`size` bytes) for `backend`: the buffer and its whole
/// size for the caller, remembered until urc_ipc_event_put.
ur_result_t urc_ipc_event_pack(urc_ipc_backend_t backend, const void *payload, size_t size,
                               void **data, size_t *data_size);

/// urIPCPutEventHandleExp: frees data urc_ipc_event_pack made; UR_RESULT_ERROR_INVALID_VALUE
/// (and nothing read or freed) for any other pointer, including data already put back.
ur_result_t urc_ipc_event_put(void *data);

/// urIPCOpenEventHandleExp's checks: `size` bytes of `data` are handle data for `backend`
/// with a payload of exactly `payload_size` bytes. UR_RESULT_ERROR_INVALID_VALUE with a message
/// for a wrong size (checked before anything is read), magic word, version, backend or payload
/// size. On success `*payload` points into `data`, `*pid` is the exporter's process.
ur_result_t urc_ipc_event_unpack(urc_ipc_backend_t backend, const void *data, size_t size,
                                 size_t payload_size, const void **payload, uint32_t *pid);

#endif // URC_COMMON_IPC_EVENT_H
