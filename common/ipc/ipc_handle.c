// SPDX-License-Identifier: MIT
// IPC handle data: header, checksum and the set of data handed out (see ipc_handle.h).
#include "ipc/ipc_handle.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/hashmap.h"
#include "core/ptrset.h"

_Static_assert(sizeof(urc_ipc_header_t) == 32, "the header crosses processes: no padding");

static urc_ptrset_t outstanding;

static const char *kind_name(uint32_t kind) {
    switch (kind) {
    case URC_IPC_MEMORY:
        return "memory";
    case URC_IPC_PHYSICAL_MEMORY:
        return "physical memory";
    case URC_IPC_EVENT:
        return "event";
    default:
        return "unknown";
    }
}

static const char *backend_name(uint32_t backend) {
    switch (backend) {
    case UR_BACKEND_CUDA:
        return "CUDA";
    case UR_BACKEND_LEVEL_ZERO:
        return "Level Zero";
    case UR_BACKEND_OPENCL:
        return "OpenCL";
    default:
        return "another";
    }
}

static uint64_t checksum(const urc_ipc_header_t *h, const void *payload) {
    urc_ipc_header_t copy = *h;
    copy.check = 0;
    return urc_hash_bytes(urc_hash_bytes(URC_HASH_INIT, &copy, sizeof copy), payload,
                          h->payload_size);
}

ur_result_t urc_ipc_pack(ur_backend_t backend, urc_ipc_kind_t kind, const void *payload,
                         size_t payload_size, void **data, size_t *size) {
    if (payload_size > URC_IPC_PAYLOAD_MAX)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0, "IPC payload of %zu bytes",
                             payload_size);
    urc_ipc_header_t *h = malloc(sizeof *h + payload_size);
    if (h == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    *h = (urc_ipc_header_t){.magic = URC_IPC_MAGIC,
                            .version = URC_IPC_VERSION,
                            .kind = (uint16_t)kind,
                            .backend = (uint32_t)backend,
                            .pid = (uint32_t)getpid(),
                            .payload_size = (uint32_t)payload_size};
    memcpy(h + 1, payload, payload_size);
    h->check = checksum(h, h + 1);
    if (!urc_ptrset_add(&outstanding, h)) {
        free(h);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    *data = h;
    *size = sizeof *h + payload_size;
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_ipc_unpack(ur_backend_t backend, urc_ipc_kind_t kind, const void *data, size_t size,
                           void *payload, size_t payload_size, uint32_t *pid) {
    urc_ipc_header_t h;
    if (data == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0, "no IPC handle data");
    if (size != sizeof h + payload_size)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "IPC %s handle data of %zu bytes; the %s adapter's are %zu",
                             kind_name(kind), size, backend_name(backend), sizeof h + payload_size);
    memcpy(&h, data, sizeof h); // the caller's bytes may be unaligned
    const unsigned char *bytes = (const unsigned char *)data + sizeof h;
    if (h.magic != URC_IPC_MAGIC || h.version != URC_IPC_VERSION)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "not IPC handle data of this urc (magic 0x%08x, version %u)",
                             (unsigned)h.magic, (unsigned)h.version);
    if (h.kind != (uint16_t)kind || h.backend != (uint32_t)backend)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "IPC %s handle data of the %s adapter where %s handle data of the "
                             "%s adapter belong",
                             kind_name(h.kind), backend_name(h.backend), kind_name(kind),
                             backend_name(backend));
    if (h.payload_size != payload_size || h.reserved != 0 || checksum(&h, bytes) != h.check)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "the IPC %s handle data are damaged (checksum)", kind_name(kind));
    memcpy(payload, bytes, payload_size);
    if (pid != NULL)
        *pid = h.pid;
    return UR_RESULT_SUCCESS;
}

/// What a put asks about the member it found (read under the set's lock: the data are ours).
typedef struct put_query_t {
    uint32_t backend, kind;
    urc_ipc_header_t found;
} put_query_t;

static bool same_kind(const void *p, void *arg) {
    put_query_t *q = arg;
    memcpy(&q->found, p, sizeof q->found);
    return q->found.backend == q->backend && q->found.kind == q->kind;
}

ur_result_t urc_ipc_put(ur_backend_t backend, urc_ipc_kind_t kind, const void *data, void *payload,
                        size_t payload_size) {
    put_query_t q = {.backend = (uint32_t)backend, .kind = (uint32_t)kind};
    if (!urc_ptrset_remove_if(&outstanding, data, same_kind, &q)) {
        if (q.found.magic == URC_IPC_MAGIC) // a member of another kind: it stays
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "%p is IPC %s handle data of the %s adapter, not %s handle data "
                                 "of the %s adapter",
                                 data, kind_name(q.found.kind), backend_name(q.found.backend),
                                 kind_name(kind), backend_name(backend));
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%p is not IPC %s handle data this process holds (never handed "
                             "out, or put already)",
                             data, kind_name(kind));
    }
    const urc_ipc_header_t *h = data;
    if (payload != NULL && payload_size <= h->payload_size)
        memcpy(payload, h + 1, payload_size);
    free((void *)h);
    return UR_RESULT_SUCCESS;
}

size_t urc_ipc_outstanding(void) {
    return urc_ptrset_size(&outstanding);
}
