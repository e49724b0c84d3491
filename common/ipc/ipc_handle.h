// SPDX-License-Identifier: MIT
// The bytes of every IPC handle urc hands out (urIPCGet{Mem,PhysMem,Event}HandleExp of the CUDA
// and Level Zero adapters): a header that says what the bytes are, then the adapter's payload
// (the driver's handle and what the opener needs beside it). What arrives from another process
// is checked before any driver sees it: the exact size first, then urc's magic word and layout
// version, the backend, the kind of handle, the payload's size and a checksum over everything.
// Data of another adapter or kind, of the wrong size, damaged or garbage are INVALID_VALUE. The
// data handed out are kept in a set of outstanding buffers (ptrset.h) until put, so a put of
// anything else, of another kind's data, or a second put is INVALID_VALUE instead of a free.
#ifndef URC_COMMON_IPC_IPC_HANDLE_H
#define URC_COMMON_IPC_IPC_HANDLE_H

#include <stddef.h>
#include <stdint.h>

#include <ur_api.h>

typedef enum urc_ipc_kind_t {
    URC_IPC_MEMORY = 1,          // urIPCGetMemHandleExp
    URC_IPC_PHYSICAL_MEMORY = 2, // urIPCGetPhysMemHandleExp
    URC_IPC_EVENT = 3,           // urIPCGetEventHandleExp
} urc_ipc_kind_t;

#define URC_IPC_MAGIC       0x43504955u // "UIPC" read as little-endian bytes
#define URC_IPC_VERSION     2u          // 1: memory handles only, with an offset field
#define URC_IPC_PAYLOAD_MAX 4096u       // far above any driver's handle; bounds what is trusted

/// What precedes the payload, in the exporting process's byte order (both processes run the
/// same adapter on one machine). 32 bytes, no padding.
typedef struct urc_ipc_header_t {
    uint32_t magic;
    uint16_t version;
    uint16_t kind;    // urc_ipc_kind_t
    uint32_t backend; // ur_backend_t of the adapter that made the data
    uint32_t pid;     // the exporting process
    uint32_t payload_size;
    uint32_t reserved; // zero
    uint64_t check;    // FNV-1a of the header (this field zero) and the payload
} urc_ipc_header_t;

/// New handle data of `kind` for `backend` holding a copy of `payload`, made by this process;
/// *data and *size are what the caller gets, remembered until urc_ipc_put. OUT_OF_HOST_MEMORY
/// when allocation fails.
ur_result_t urc_ipc_pack(ur_backend_t backend, urc_ipc_kind_t kind, const void *payload,
                         size_t payload_size, void **data, size_t *size);

/// Checks `size` bytes of handle data (from any process) and copies the payload, which must be
/// exactly `payload_size` bytes, to `payload`; `*pid` (when not NULL) is the exporting process.
/// The size is checked before a byte is read. INVALID_VALUE with a message saying what is
/// wrong otherwise.
ur_result_t urc_ipc_unpack(ur_backend_t backend, urc_ipc_kind_t kind, const void *data, size_t size,
                           void *payload, size_t payload_size, uint32_t *pid);

/// Gives back data that urc_ipc_pack handed out in this process for `backend` and `kind`,
/// copying the payload to `payload` first when that is not NULL (for what the adapter must
/// release with it, such as a descriptor). INVALID_VALUE, and nothing read or freed, for data
/// never handed out or put already; INVALID_VALUE, and the data kept, for another backend's or
/// kind's data.
ur_result_t urc_ipc_put(ur_backend_t backend, urc_ipc_kind_t kind, const void *data, void *payload,
                        size_t payload_size);

/// urIPCPutEventHandleExp of adapter `prefix` for `backend`, whose event handle data hold
/// nothing to give back to the driver: urc_ipc_put of the data.
#define URC_IPC_PUT_EVENT_HANDLE(prefix, backend)                                                  \
    ur_result_t prefix##_ipc_put_event_handle_exp(ur_context_handle_t hContext,                    \
                                                  void *pIPCEventHandleData) {                     \
        (void)hContext; /* the generated wrapper checked it */                                     \
        return urc_ipc_put(backend, URC_IPC_EVENT, pIPCEventHandleData, NULL, 0);                  \
    }

/// How many handle data this process holds (tests: every put found its data).
size_t urc_ipc_outstanding(void);

#endif // URC_COMMON_IPC_IPC_HANDLE_H
