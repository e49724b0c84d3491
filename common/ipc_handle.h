// SPDX-License-Identifier: MIT
// The bytes of an IPC handle (urIPCGetMemHandleExp and its physical-memory and event
// siblings): a header around the driver's own handle that says what the bytes are, so that
// what arrives from another process is checked before any driver sees it. The header names
// urc, the adapter's backend, the kind of handle and the payload's size, carries an offset
// (a pointer's place in its allocation) and ends in a checksum over everything; data of
// another adapter or kind, of the wrong size, or garbage are INVALID_VALUE. The data handed
// out are tracked until put, so a second put, or a put of anything else, is INVALID_VALUE
// instead of a double free.
#ifndef URC_COMMON_IPC_HANDLE_H
#define URC_COMMON_IPC_HANDLE_H

#include <stddef.h>
#include <stdint.h>

#include <ur_api.h>

typedef enum urc_ipc_kind_t {
    URC_IPC_MEMORY = 1,
    URC_IPC_PHYSICAL_MEMORY = 2,
    URC_IPC_EVENT = 3,
} urc_ipc_kind_t;

/// New handle data of `kind` for `backend` holding a copy of `payload` and `offset`;
/// *data and *size are what the caller gets. OUT_OF_HOST_MEMORY when allocation fails.
ur_result_t urc_ipc_pack(ur_backend_t backend, urc_ipc_kind_t kind, const void *payload,
                         size_t payload_size, uint64_t offset, void **data, size_t *size);

/// Checks `size` bytes of handle data (from any process) and copies the payload, which must
/// be exactly `payload_size` bytes, and the offset out. INVALID_VALUE with a message saying
/// what is wrong otherwise.
ur_result_t urc_ipc_unpack(ur_backend_t backend, urc_ipc_kind_t kind, const void *data, size_t size,
                           void *payload, size_t payload_size, uint64_t *offset);

/// Gives back data that urc_ipc_pack handed out in this process, copying its payload to
/// `payload` first when that is not NULL (for a driver call that puts the native handle).
/// INVALID_VALUE for data never handed out, put already, or of another backend or kind.
ur_result_t urc_ipc_put(ur_backend_t backend, urc_ipc_kind_t kind, void *data, void *payload,
                        size_t payload_size);

#endif // URC_COMMON_IPC_HANDLE_H
