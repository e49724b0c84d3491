// SPDX-License-Identifier: MIT
// urMemoryExport*Exp once for every adapter: which handle types an adapter can export, and the
// record of each exportable allocation (what the adapter needs to export and free it), so a
// free or an export of memory that did not come from urMemoryExportAllocExportableMemoryExp,
// or of another context or device, is refused before the driver sees it.
#ifndef URC_COMMON_IPC_MEM_EXPORT_H
#define URC_COMMON_IPC_MEM_EXPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "ur_api.h"

/// One exportable allocation. `native` and `extra` are the adapter's (a driver handle, the
/// reserved size, ...).
typedef struct urc_mem_export_t {
    void *ptr;
    size_t size;
    const void *context, *device;
    ur_exp_external_mem_type_t type;
    uint64_t native, extra;
} urc_mem_export_t;

/// The bit of `type` in a mask of supported handle types.
#define URC_MEM_EXPORT_TYPE_BIT(type) (1u << (unsigned)(type))

/// UNSUPPORTED_ENUMERATION (with a message naming the adapter) for a handle type outside
/// `supported`; the generated checks already refused values that are no enumerator.
ur_result_t urc_mem_export_check_type(ur_exp_external_mem_type_t type, uint32_t supported,
                                      const char *adapter);

/// Records an allocation (OUT_OF_HOST_MEMORY).
ur_result_t urc_mem_export_add(const urc_mem_export_t *record);

/// The allocation starting at `ptr`, checked against the caller's context and device:
/// INVALID_VALUE when `ptr` starts no exportable allocation, INVALID_CONTEXT / INVALID_DEVICE
/// when it is another's. With `remove`, the record is taken out (the caller frees the memory).
ur_result_t urc_mem_export_find(const void *context, const void *device, const void *ptr,
                                bool remove, urc_mem_export_t *out);

/// True when `ptr` lies inside an exportable allocation (any context or device).
bool urc_mem_export_holds(const void *ptr);

/// urMemoryExportExportMemoryHandleExp's checks after the adapter's handle checks: `type`
/// supported (urc_mem_export_check_type), `ptr` an allocation of `context` and `device`
/// (urc_mem_export_find) made to be exported as `type` (INVALID_VALUE otherwise). Its record
/// is left in `*out`.
ur_result_t urc_mem_export_find_for_export(const void *context, const void *device, const void *ptr,
                                           ur_exp_external_mem_type_t type, uint32_t supported,
                                           const char *adapter, urc_mem_export_t *out);

#endif // URC_COMMON_IPC_MEM_EXPORT_H
