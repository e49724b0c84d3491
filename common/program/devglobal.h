// SPDX-License-Identifier: MIT
// Device globals as adapters see them (seed 004): sizes from "SYCL/device globals" metadata,
// overflow-safe bounds, and a per-program cache of resolved symbols.
#ifndef URC_COMMON_PROGRAM_DEVGLOBAL_H
#define URC_COMMON_PROGRAM_DEVGLOBAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "program/props.h"
#include "ur_api.h"

/// What the metadata says of one variable: value = {uint32 size; uint32 device_image_scope}.
typedef struct urc_dg_desc_t {
    uint32_t size;
    bool image_scope;
} urc_dg_desc_t;

/// Looks `name` up in the program's "SYCL/device globals". Returns UR_RESULT_SUCCESS and fills
/// `desc` when listed; UR_RESULT_ERROR_INVALID_VALUE (with a message) when the program carries
/// the set but not the name, or the entry is malformed; UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION
/// when the program carries no such set (the caller then asks the driver).
ur_result_t urc_dg_describe(const urc_props_t *props, const char *name, urc_dg_desc_t *desc);

/// Bytes of device storage behind a described variable: sizeof(T) for device_image_scope
/// variables; for the others the variable holds only a pointer to its USM buffer (seed 004),
/// which is what a runtime writes into it. Adapters bound their copies by this.
static inline size_t urc_dg_storage_size(const urc_dg_desc_t *desc) {
    return desc->image_scope ? desc->size : sizeof(void *);
}

/// The symbol the backend knows the variable by: UR's "<name>@global_id_mapping" when the
/// program carries it, else `name` itself. The answer points into `props` (valid while they
/// are) or is `name`; `props` may be NULL.
const char *urc_dg_symbol(const urc_props_t *props, const char *name);

/// The bound of every copy to or from a variable, the rule all urc adapters follow: a described
/// variable (`desc` non-NULL) holds urc_dg_storage_size bytes, capped by the driver's size of the
/// symbol so that no copy passes the module's storage; an undescribed one holds what the driver
/// says. A driver size of 0 means the driver gave none (Level Zero may; OpenCL's transfers go
/// by name and its driver is not asked when the metadata answers): the metadata decides alone.
size_t urc_dg_bound(const urc_dg_desc_t *desc, size_t driver_size);

/// `offset <= size && count <= size - offset`, or UR_RESULT_ERROR_INVALID_VALUE with a message
/// naming the variable, offset, count and size. Never overflows.
ur_result_t urc_dg_check_range(const char *name, size_t size, size_t offset, size_t count);

/// name -> (device address, size) for one program on one device; thread-safe, read-mostly.
typedef struct urc_dg_cache_t urc_dg_cache_t;

urc_dg_cache_t *urc_dg_cache_create(void);
void urc_dg_cache_destroy(urc_dg_cache_t *cache);
bool urc_dg_cache_get(urc_dg_cache_t *cache, const char *name, uint64_t *address, size_t *size);
ur_result_t urc_dg_cache_put(urc_dg_cache_t *cache, const char *name, uint64_t address,
                             size_t size);

/// An adapter's driver lookup for urc_dg_resolve: the address and size of `symbol` (the
/// variable `name`). An unknown symbol is UR_RESULT_ERROR_INVALID_VALUE with a message,
/// whatever the driver said; other failures are the adapter's mapped errors.
typedef ur_result_t (*urc_dg_lookup_t)(void *ctx, const char *name, const char *symbol,
                                       uint64_t *address, size_t *driver_size);

/// What an adapter that addresses device globals itself (CUDA, Level Zero) does after
/// urc_dg_cache_get missed: urc_dg_describe (an error other than "no metadata" is returned
/// before the driver is asked), urc_dg_symbol, `lookup`, urc_dg_bound, and the answer put in
/// `cache` (NULL: not cached; a failed insert only costs a later lookup).
ur_result_t urc_dg_resolve(urc_dg_cache_t *cache, const urc_props_t *props, const char *name,
                           urc_dg_lookup_t lookup, void *ctx, uint64_t *address, size_t *size);

/// urEnqueueDeviceGlobalVariableWrite and ReadVariable of adapter `prefix`, both forwarded to its
/// `transfer(bool write, hQueue, hProgram, name, blocking, count, offset, void *host, <the wait
/// list and event>)`; `host` is only read by a write.
#define URC_DEVICE_GLOBAL_READ_WRITE(prefix, transfer)                                             \
    ur_result_t prefix##_enqueue_device_global_variable_write(                                     \
        ur_queue_handle_t hQueue, ur_program_handle_t hProgram, const char *name,                  \
        bool blockingWrite, size_t count, size_t offset, const void *pSrc,                         \
        uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,                    \
        ur_event_handle_t *phEvent) {                                                              \
        return transfer(true, hQueue, hProgram, name, blockingWrite, count, offset, (void *)pSrc,  \
                        numEventsInWaitList, phEventWaitList, phEvent);                            \
    }                                                                                              \
    ur_result_t prefix##_enqueue_device_global_variable_read(                                      \
        ur_queue_handle_t hQueue, ur_program_handle_t hProgram, const char *name,                  \
        bool blockingRead, size_t count, size_t offset, void *pDst, uint32_t numEventsInWaitList,  \
        const ur_event_handle_t *phEventWaitList, ur_event_handle_t *phEvent) {                    \
        return transfer(false, hQueue, hProgram, name, blockingRead, count, offset, pDst,          \
                        numEventsInWaitList, phEventWaitList, phEvent);                            \
    }

#endif // URC_COMMON_PROGRAM_DEVGLOBAL_H
