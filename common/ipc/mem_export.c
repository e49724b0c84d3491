// SPDX-License-Identifier: MIT
// The exportable allocations of an adapter (mem_export.h): a short list under one lock,
// touched only by the allocation, free and export calls.
#include "ipc/mem_export.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "core/error.h"

typedef struct entry_t {
    urc_mem_export_t record;
    struct entry_t *next;
} entry_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry_t *entries;
static _Atomic size_t nentries; // read without the lock: urUSMFree asks only while there are any

static const char *type_name(ur_exp_external_mem_type_t type) {
    switch (type) {
    case UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD:
        return "an opaque file descriptor";
    case UR_EXP_EXTERNAL_MEM_TYPE_WIN32_NT:
        return "a Win32 NT handle";
    case UR_EXP_EXTERNAL_MEM_TYPE_WIN32_NT_DX12_RESOURCE:
        return "a DirectX 12 resource";
    case UR_EXP_EXTERNAL_MEM_TYPE_DMA_BUF:
        return "a DMA buffer";
    default:
        return "a DirectX 11 resource";
    }
}

ur_result_t urc_mem_export_check_type(ur_exp_external_mem_type_t type, uint32_t supported,
                                      const char *adapter) {
    if ((unsigned)type < 32 && (supported & URC_MEM_EXPORT_TYPE_BIT(type)) != 0)
        return UR_RESULT_SUCCESS;
    return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION, 0,
                         "the %s adapter cannot export memory as %s", adapter, type_name(type));
}

ur_result_t urc_mem_export_add(const urc_mem_export_t *record) {
    entry_t *e = URC_NEW(entry_t);
    if (e == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    e->record = *record;
    pthread_mutex_lock(&lock);
    e->next = entries;
    entries = e;
    atomic_fetch_add(&nentries, 1);
    pthread_mutex_unlock(&lock);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_mem_export_find(const void *context, const void *device, const void *ptr,
                                bool remove, urc_mem_export_t *out) {
    ur_result_t res = UR_RESULT_SUCCESS;
    entry_t *found = NULL;
    pthread_mutex_lock(&lock);
    entry_t **at = &entries;
    while (*at != NULL && (*at)->record.ptr != ptr)
        at = &(*at)->next;
    if (*at == NULL)
        res = urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                            "%p is not the start of memory from "
                            "urMemoryExportAllocExportableMemoryExp (or was freed)",
                            ptr);
    else if ((*at)->record.context != context)
        res = urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                            "the exportable memory %p belongs to another context", ptr);
    else if ((*at)->record.device != device)
        res = urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                            "the exportable memory %p lives on another device", ptr);
    if (res == UR_RESULT_SUCCESS) {
        found = *at;
        *out = found->record;
        if (remove) {
            *at = found->next;
            atomic_fetch_sub(&nentries, 1);
        }
    }
    pthread_mutex_unlock(&lock);
    if (remove)
        free(found);
    return res;
}

bool urc_mem_export_holds(const void *ptr) {
    if (atomic_load_explicit(&nentries, memory_order_relaxed) == 0)
        return false;
    uintptr_t p = (uintptr_t)ptr;
    bool found = false;
    pthread_mutex_lock(&lock);
    for (entry_t *e = entries; e != NULL && !found; e = e->next)
        found = p >= (uintptr_t)e->record.ptr && p - (uintptr_t)e->record.ptr < e->record.size;
    pthread_mutex_unlock(&lock);
    return found;
}

ur_result_t urc_mem_export_find_for_export(const void *context, const void *device, const void *ptr,
                                           ur_exp_external_mem_type_t type, uint32_t supported,
                                           const char *adapter, urc_mem_export_t *out) {
    ur_result_t res = urc_mem_export_check_type(type, supported, adapter);
    if (res == UR_RESULT_SUCCESS)
        res = urc_mem_export_find(context, device, ptr, false, out);
    if (res == UR_RESULT_SUCCESS && out->type != type)
        res = urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                            "the memory was allocated to be exported as another handle type");
    return res;
}
