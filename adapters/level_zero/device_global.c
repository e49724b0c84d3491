// SPDX-License-Identifier: MIT
// Device globals (seed 004): urEnqueueDeviceGlobalVariableRead/Write and
// urProgramGetGlobalVariablePointer.
//
// The variable's address comes from zeModuleGetGlobalPointer on the module built for the
// queue's (or caller's) device, which matches SYCL's unique id against the HostAccessINTEL
// name; the copy is a zeCommandListAppendMemoryCopy on the queue's command list, with the
// queue's events. Name -> (address, bound) comes from common/program/devglobal's urc_dg_resolve and
// is cached per program and device. An unknown name is always INVALID_VALUE, whatever the driver
// says (INVALID_GLOBAL_NAME, UNSUPPORTED_FEATURE or INVALID_ARGUMENT, depending on its version
// and build flags), and a range is checked without overflow before anything is enqueued, so a
// failed copy leaves no event.
#include "l0_internal.h"

// The driver's half of urc_dg_resolve; `arg` is the module built for the device.
static ur_result_t lookup_symbol(void *arg, const char *name, const char *symbol, uint64_t *address,
                                 size_t *driver_size) {
    void *ptr = NULL;
    size_t bytes = 0;
    ze_result_t r = zeModuleGetGlobalPointer((ze_module_handle_t)arg, symbol, &bytes, &ptr);
    if (r == ZE_RESULT_ERROR_INVALID_GLOBAL_NAME || r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE ||
        r == ZE_RESULT_ERROR_INVALID_ARGUMENT)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, (int32_t)r,
                             "device global \"%s\" is not in the program (%s)", name,
                             l0_result_name(r));
    if (r != ZE_RESULT_SUCCESS)
        return l0_error(r, "zeModuleGetGlobalPointer");
    *address = (uint64_t)(uintptr_t)ptr;
    *driver_size = bytes; // 0 when the driver does not say: urc_dg_bound takes the metadata's
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_program_global(l0_program_t *p, const l0_device_t *dev, const char *name,
                              void **address, size_t *size) {
    ze_module_handle_t module;
    urc_dg_cache_t *dg = NULL;
    // The cache is per device, found with the module: "not built" comes first.
    if (!l0_program_module(p, dev, &module, &dg))
        return urc_error_set(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE, 0,
                             "device global \"%s\": the program is not built for the device", name);
    uint64_t found = 0;
    if (!urc_dg_cache_get(dg, name, &found, size)) {
        ur_result_t res =
            urc_dg_resolve(dg, p->props, name, lookup_symbol, (void *)module, &found, size);
        if (res != UR_RESULT_SUCCESS)
            return res;
    }
    *address = (void *)(uintptr_t)found;
    return UR_RESULT_SUCCESS;
}

// Everything a copy needs before anything is enqueued, so a failure creates no event.
static ur_result_t prepare(ur_queue_handle_t hQueue, ur_program_handle_t hProgram, const char *name,
                           size_t count, size_t offset, l0_queue_t **q, char **target) {
    if (!l0_is(hQueue, URC_KIND_QUEUE))
        return UR_RESULT_ERROR_INVALID_QUEUE;
    if (!l0_is(hProgram, URC_KIND_PROGRAM))
        return UR_RESULT_ERROR_INVALID_PROGRAM;
    *q = L0_QUEUE(hQueue);
    l0_program_t *p = L0_PROGRAM(hProgram);
    if (p->ctx != (*q)->ctx)
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "device global \"%s\": the program belongs to another context", name);
    void *address = NULL;
    size_t size = 0;
    ur_result_t res = l0_program_global(p, (*q)->dev, name, &address, &size);
    if (res == UR_RESULT_SUCCESS)
        res = urc_dg_check_range(name, size, offset, count);
    if (res == UR_RESULT_SUCCESS)
        *target = (char *)address + offset;
    return res;
}

static ur_result_t transfer(l0_queue_t *q, l0_program_t *p, ur_command_t command, void *dst,
                            const void *src, size_t count, bool blocking, uint32_t nwait,
                            const ur_event_handle_t *wait, ur_event_handle_t *phEvent) {
    l0_op_t op;
    ur_result_t res = l0_op_begin(q, command, nwait, wait, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (count > 0)
        res = l0_ok(zeCommandListAppendMemoryCopy(op.list, dst, src, count, op.event->ze, op.nwaits,
                                                  op.waits),
                    "zeCommandListAppendMemoryCopy");
    else // nothing to copy: the command still waits and signals, in order
        res = l0_ok(zeCommandListAppendBarrier(op.list, op.event->ze, op.nwaits, op.waits),
                    "zeCommandListAppendBarrier");
    // The variable lives in the program's module: it stays until the copy is done.
    if (res == UR_RESULT_SUCCESS)
        l0_event_keep_program(op.event, p);
    return l0_op_end(&op, res, blocking, phEvent);
}

/// urEnqueueDeviceGlobalVariableWrite (`write`: from `host`) and ReadVariable.
static ur_result_t global_transfer(bool write, ur_queue_handle_t hQueue,
                                   ur_program_handle_t hProgram, const char *name, bool blocking,
                                   size_t count, size_t offset, void *host,
                                   uint32_t numEventsInWaitList,
                                   const ur_event_handle_t *phEventWaitList,
                                   ur_event_handle_t *phEvent) {
    l0_queue_t *q = NULL;
    char *global = NULL;
    ur_result_t res = prepare(hQueue, hProgram, name, count, offset, &q, &global);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return transfer(q, L0_PROGRAM(hProgram),
                    write ? UR_COMMAND_DEVICE_GLOBAL_VARIABLE_WRITE
                          : UR_COMMAND_DEVICE_GLOBAL_VARIABLE_READ,
                    write ? (void *)global : host, write ? host : (const void *)global, count,
                    blocking, numEventsInWaitList, phEventWaitList, phEvent);
}

URC_DEVICE_GLOBAL_READ_WRITE(l0, global_transfer)

ur_result_t l0_program_get_global_variable_pointer(ur_device_handle_t hDevice,
                                                   ur_program_handle_t hProgram,
                                                   const char *pGlobalVariableName,
                                                   size_t *pGlobalVariableSizeRet,
                                                   void **ppGlobalVariablePointerRet) {
    l0_program_t *p = L0_PROGRAM(hProgram);
    if (l0_program_dev(p, L0_DEVICE(hDevice)) == NULL)
        return UR_RESULT_ERROR_INVALID_DEVICE;
    void *address = NULL;
    size_t size = 0;
    ur_result_t res =
        l0_program_global(p, L0_DEVICE(hDevice), pGlobalVariableName, &address, &size);
    *ppGlobalVariablePointerRet = res == UR_RESULT_SUCCESS ? address : NULL;
    if (res == UR_RESULT_SUCCESS && pGlobalVariableSizeRet != NULL)
        *pGlobalVariableSizeRet = size;
    return res;
}
