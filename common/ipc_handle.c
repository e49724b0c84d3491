// SPDX-License-Identifier: MIT
// IPC handle data: header, checksum and the list of data handed out (see ipc_handle.h).
#include "ipc_handle.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "hashmap.h"

#define URC_IPC_MAGIC       0x43504955u // "UIPC" read as little-endian bytes
#define URC_IPC_VERSION     1u
#define URC_IPC_PAYLOAD_MAX 4096u // far above any driver's handle; bounds what is trusted

/// What crosses the process boundary, followed by the payload.
typedef struct urc_ipc_header_t {
    uint32_t magic;
    uint16_t version;
    uint16_t kind;
    uint32_t backend;
    uint32_t payload_size;
    uint64_t offset;
    uint64_t check; // FNV-1a of the header (this field zero) and the payload
} urc_ipc_header_t;

/// Data handed out: list links in front of the bytes the caller sees.
typedef struct urc_ipc_block_t {
    struct urc_ipc_block_t *prev, *next;
    urc_ipc_header_t header; // the caller's pointer; the payload follows
} urc_ipc_block_t;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static urc_ipc_block_t *g_live;

static uint64_t checksum(const urc_ipc_header_t *h, const void *payload) {
    urc_ipc_header_t copy = *h;
    copy.check = 0;
    return urc_hash_bytes(urc_hash_bytes(URC_HASH_INIT, &copy, sizeof copy), payload,
                          h->payload_size);
}

ur_result_t urc_ipc_pack(ur_backend_t backend, urc_ipc_kind_t kind, const void *payload,
                         size_t payload_size, uint64_t offset, void **data, size_t *size) {
    if (payload_size > URC_IPC_PAYLOAD_MAX)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0, "IPC payload of %zu bytes",
                             payload_size);
    urc_ipc_block_t *b = calloc(1, sizeof *b + payload_size);
    if (b == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    b->header = (urc_ipc_header_t){URC_IPC_MAGIC,
                                   URC_IPC_VERSION,
                                   (uint16_t)kind,
                                   (uint32_t)backend,
                                   (uint32_t)payload_size,
                                   offset,
                                   0};
    memcpy(&b->header + 1, payload, payload_size);
    b->header.check = checksum(&b->header, &b->header + 1);
    pthread_mutex_lock(&g_lock);
    b->next = g_live;
    if (g_live != NULL)
        g_live->prev = b;
    g_live = b;
    pthread_mutex_unlock(&g_lock);
    *data = &b->header;
    *size = sizeof b->header + payload_size;
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_ipc_unpack(ur_backend_t backend, urc_ipc_kind_t kind, const void *data, size_t size,
                           void *payload, size_t payload_size, uint64_t *offset) {
    urc_ipc_header_t h;
    if (size != sizeof h + payload_size)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "IPC handle data of %zu bytes; this adapter's are %zu", size,
                             sizeof h + payload_size);
    memcpy(&h, data, sizeof h);
    if (h.magic != URC_IPC_MAGIC || h.version != URC_IPC_VERSION)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "the IPC handle data are not urc's (or of another urc version)");
    if (h.backend != (uint32_t)backend || h.kind != (uint16_t)kind ||
        h.payload_size != payload_size)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "the IPC handle data are of another adapter or handle kind");
    if (checksum(&h, (const urc_ipc_header_t *)data + 1) != h.check)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "the IPC handle data are damaged (checksum)");
    memcpy(payload, (const urc_ipc_header_t *)data + 1, payload_size);
    if (offset != NULL)
        *offset = h.offset;
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_ipc_put(ur_backend_t backend, urc_ipc_kind_t kind, void *data, void *payload,
                        size_t payload_size) {
    urc_ipc_block_t *b = NULL;
    pthread_mutex_lock(&g_lock);
    for (urc_ipc_block_t *at = g_live; at != NULL; at = at->next)
        if (&at->header == data) {
            b = at;
            break;
        }
    // Only this kind's data are taken out: a put of an event's handle as memory changes nothing.
    if (b != NULL && (b->header.backend != (uint32_t)backend || b->header.kind != (uint16_t)kind))
        b = NULL;
    if (b != NULL) {
        if (b->prev != NULL)
            b->prev->next = b->next;
        else
            g_live = b->next;
        if (b->next != NULL)
            b->next->prev = b->prev;
    }
    pthread_mutex_unlock(&g_lock);
    if (b == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%p is not IPC handle data of this kind that this process holds "
                             "(put already?)",
                             data);
    if (payload != NULL && payload_size <= b->header.payload_size)
        memcpy(payload, &b->header + 1, payload_size);
    free(b);
    return UR_RESULT_SUCCESS;
}
