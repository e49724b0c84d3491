// SPDX-License-Identifier: MIT
// Device globals (seed 004) through cl_intel_global_variable_access: the adapter finds the
// variable's size (program metadata first, then the driver, cached per program and device),
// checks the range itself without overflow, and only then enqueues the transfer. Intel's
// CPU runtime checks ranges with an overflowing sum (offset SIZE_MAX-1, count 4 passes), so
// its check cannot be relied on.
#include <string.h>

#include "ocl_internal.h"

/// The thread's last resolved variable. Repeated transfers of one variable (the common case)
/// then skip the shared cache's lock and hash; the program's generation changes with every
/// build and is never reused, so a stale entry cannot match.
typedef struct last_lookup_t {
    uint64_t generation;
    ur_device_handle_t device;
    uint64_t address;
    size_t size;
    char name[64];
} last_lookup_t;

static _Thread_local last_lookup_t last;

static void remember(ur_program_handle_t p, ur_device_handle_t d, const char *name,
                     uint64_t address, size_t size) {
    size_t n = strlen(name);
    if (n >= sizeof last.name)
        return;
    last.generation = atomic_load_explicit(&p->generation, memory_order_relaxed);
    last.device = d;
    last.address = address;
    last.size = size;
    memcpy(last.name, name, n + 1);
}

/// Asks the driver for a variable's address and size, through the per-device cache.
static ur_result_t resolve(ur_program_handle_t p, ur_device_handle_t d, const char *name,
                           const char *symbol, uint64_t *address, size_t *size) {
    if (last.generation == atomic_load_explicit(&p->generation, memory_order_relaxed) &&
        last.device == d && strcmp(last.name, name) == 0) {
        *address = last.address;
        *size = last.size;
        return UR_RESULT_SUCCESS;
    }
    int index = ocl_program_device_index(p, d);
    if (index < 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                             "the queue's device is not a device of the program");
    urc_dg_cache_t *cache = ocl_program_globals(p, index);
    if (cache != NULL && urc_dg_cache_get(cache, name, address, size)) {
        remember(p, d, name, *address, *size);
        return UR_RESULT_SUCCESS;
    }
    void *ptr = NULL;
    size_t bytes = 0;
    cl_int err =
        p->context->platform->ext.get_global_variable_pointer(d->cl, p->cl, symbol, &bytes, &ptr);
    if (err == CL_INVALID_ARG_VALUE)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, err,
                             "no device global '%s' in the program", name);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clGetDeviceGlobalVariablePointerINTEL");
    *address = (uint64_t)(uintptr_t)ptr;
    *size = bytes;
    if (cache != NULL)
        urc_dg_cache_put(cache, name, *address, bytes); // a failed insert only costs a lookup
    remember(p, d, name, *address, bytes);
    return UR_RESULT_SUCCESS;
}

/// Everything checked before a transfer: handles, support, name and range.
static ur_result_t prepare(ur_queue_handle_t q, ur_program_handle_t p, const char *name,
                           size_t count, size_t offset, const char **symbol) {
    OCL_CHECK_HANDLE(q, URC_KIND_QUEUE, UR_RESULT_ERROR_INVALID_QUEUE);
    OCL_CHECK_HANDLE(p, URC_KIND_PROGRAM, UR_RESULT_ERROR_INVALID_PROGRAM);
    OCL_TRY_UR(ocl_program_has_native(p));
    if (!q->device->global_variables)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the device has no cl_intel_global_variable_access");
    if (p->context != q->context)
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the program and the queue belong to different contexts");
    *symbol = urc_dg_symbol(p->props, name);
    size_t size = 0;
    urc_dg_desc_t desc;
    ur_result_t known = urc_dg_describe(p->props, name, &desc);
    if (known == UR_RESULT_SUCCESS) {
        // The transfers go by name, so the driver is not asked: urc_dg_bound with no driver
        // size is the metadata's storage (a variable without device_image_scope holds only its
        // USM buffer's address).
        size = urc_dg_bound(&desc, 0);
    } else if (known == UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION) {
        // No "SYCL/device globals" metadata: the driver knows the size.
        uint64_t address = 0;
        OCL_TRY_UR(resolve(p, q->device, name, *symbol, &address, &size));
    } else {
        return known; // listed metadata without this name, or a malformed entry
    }
    return urc_dg_check_range(name, size, offset, count);
}

/// Maps a failed transfer: an unknown name is INVALID_VALUE, as for the lookup.
static ur_result_t transfer_failed(cl_int err, const char *what, const char *name) {
    if (err == CL_INVALID_ARG_VALUE)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, err,
                             "no device global '%s' in the program", name);
    return ocl_fail(err, what);
}

/// urEnqueueDeviceGlobalVariableWrite (`write`: from `host`) and ReadVariable.
static ur_result_t global_transfer(bool write, ur_queue_handle_t hQueue,
                                   ur_program_handle_t hProgram, const char *name, bool blocking,
                                   size_t count, size_t offset, void *host,
                                   uint32_t numEventsInWaitList,
                                   const ur_event_handle_t *phEventWaitList,
                                   ur_event_handle_t *phEvent) {
    const char *symbol = name;
    OCL_TRY_UR(prepare(hQueue, hProgram, name, count, offset, &symbol));
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList));
    const ocl_ext_t *ext = &hQueue->context->platform->ext;
    cl_event ev = NULL, *evp = phEvent != NULL ? &ev : NULL;
    cl_int err =
        write ? ext->enqueue_write_global_variable(hQueue->cl, hProgram->cl, symbol, blocking,
                                                   count, offset, host, wl.count, wl.events, evp)
              : ext->enqueue_read_global_variable(hQueue->cl, hProgram->cl, symbol, blocking, count,
                                                  offset, host, wl.count, wl.events, evp);
    ocl_wait_list_fini(&wl);
    if (err != CL_SUCCESS)
        return transfer_failed(
            err, write ? "clEnqueueWriteGlobalVariableINTEL" : "clEnqueueReadGlobalVariableINTEL",
            name);
    return ocl_assert_after_blocking(hQueue, blocking,
                                     ocl_event_wrap(hQueue,
                                                    write ? UR_COMMAND_DEVICE_GLOBAL_VARIABLE_WRITE
                                                          : UR_COMMAND_DEVICE_GLOBAL_VARIABLE_READ,
                                                    ev, phEvent),
                                     phEvent);
}

URC_DEVICE_GLOBAL_READ_WRITE(ocl, global_transfer)

ur_result_t ocl_program_get_global_variable_pointer(ur_device_handle_t hDevice,
                                                    ur_program_handle_t hProgram,
                                                    const char *pGlobalVariableName,
                                                    size_t *pGlobalVariableSizeRet,
                                                    void **ppGlobalVariablePointerRet) {
    *ppGlobalVariablePointerRet = NULL;
    OCL_TRY_UR(ocl_program_has_native(hProgram));
    if (!hDevice->global_variables)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the device has no clGetDeviceGlobalVariablePointerINTEL");
    const char *symbol = urc_dg_symbol(hProgram->props, pGlobalVariableName);
    uint64_t address = 0;
    size_t size = 0;
    OCL_TRY_UR(resolve(hProgram, hDevice, pGlobalVariableName, symbol, &address, &size));
    *ppGlobalVariablePointerRet = (void *)(uintptr_t)address;
    if (pGlobalVariableSizeRet != NULL)
        *pGlobalVariableSizeRet = size;
    return UR_RESULT_SUCCESS;
}
