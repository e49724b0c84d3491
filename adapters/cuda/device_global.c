// SPDX-License-Identifier: MIT
// Device globals: urEnqueueDeviceGlobalVariableRead/Write and the lookup behind
// urProgramGetGlobalVariablePointer.
//
// A SYCL runtime names a device global by its unique id; UR's "<id>@global_id_mapping"
// metadata gives the PTX symbol (without it the name is used as the symbol). The symbol's
// address and bound are found once per program by common/program/devglobal's urc_dg_resolve (the
// rule every urc adapter follows) and cached, so a repeated copy costs one cache hit, then the same
// cuMemcpy{HtoD,DtoH}Async a hand-written CUDA program would issue.
#include "cuda_internal.h"

typedef struct lookup_t {
    cuda_device_t *dev;
    CUmodule module;
} lookup_t;

// The driver's half of urc_dg_resolve: the symbol's address and size in the program's module.
static ur_result_t lookup_symbol(void *arg, const char *name, const char *symbol, uint64_t *address,
                                 size_t *driver_size) {
    const lookup_t *l = arg;
    // The module belongs to the device's primary context: make it current for the lookup.
    ur_result_t res = cuda_activate(l->dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUdeviceptr dptr = 0;
    size_t bytes = 0;
    CUresult r = cu.ModuleGetGlobal(&dptr, &bytes, l->module, symbol);
    if (r == CUDA_ERROR_NOT_FOUND)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, (int32_t)r,
                             "device global \"%s\" (symbol \"%s\") is not in the program", name,
                             symbol);
    if (r != CUDA_SUCCESS)
        return cuda_error(r, "cuModuleGetGlobal");
    *address = (uint64_t)dptr;
    *driver_size = bytes;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_program_global(cuda_program_t *p, const char *name, CUdeviceptr *address,
                                size_t *size) {
    uint64_t found = 0;
    // A hit needs no module: a program is built once and never rebuilt, so the common path takes
    // no program lock.
    if (!urc_dg_cache_get(p->dg_cache, name, &found, size)) {
        lookup_t l = {p->dev, NULL};
        if (!cuda_program_module(p, &l.module))
            return urc_error_set(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE, 0,
                                 "device global \"%s\": the program is not built", name);
        ur_result_t res =
            urc_dg_resolve(p->dg_cache, p->props, name, lookup_symbol, &l, &found, size);
        if (res != UR_RESULT_SUCCESS)
            return res;
    }
    *address = (CUdeviceptr)found;
    return UR_RESULT_SUCCESS;
}

// Everything a copy needs before anything is enqueued, so a failure creates no event.
static ur_result_t prepare(ur_queue_handle_t hQueue, ur_program_handle_t hProgram, const char *name,
                           size_t count, size_t offset, CUdeviceptr *target) {
    if (!cuda_is(hQueue, URC_KIND_QUEUE))
        return UR_RESULT_ERROR_INVALID_QUEUE;
    if (!cuda_is(hProgram, URC_KIND_PROGRAM))
        return UR_RESULT_ERROR_INVALID_PROGRAM;
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    cuda_program_t *p = CUDA_PROGRAM(hProgram);
    if (p->dev != q->dev)
        return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                             "device global \"%s\": the program is for another device", name);
    CUdeviceptr address = 0;
    size_t size = 0;
    ur_result_t res = cuda_program_global(p, name, &address, &size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = urc_dg_check_range(name, size, offset, count);
    if (res != UR_RESULT_SUCCESS)
        return res;
    *target = address + offset;
    return UR_RESULT_SUCCESS;
}

/// urEnqueueDeviceGlobalVariableWrite (`write`: from `host`) and ReadVariable.
static ur_result_t global_transfer(bool write, ur_queue_handle_t hQueue,
                                   ur_program_handle_t hProgram, const char *name, bool blocking,
                                   size_t count, size_t offset, void *host,
                                   uint32_t numEventsInWaitList,
                                   const ur_event_handle_t *phEventWaitList,
                                   ur_event_handle_t *phEvent) {
    CUdeviceptr global = 0;
    ur_result_t res = prepare(hQueue, hProgram, name, count, offset, &global);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_op_t op;
    res = cuda_op_begin(CUDA_QUEUE(hQueue),
                        write ? UR_COMMAND_DEVICE_GLOBAL_VARIABLE_WRITE
                              : UR_COMMAND_DEVICE_GLOBAL_VARIABLE_READ,
                        numEventsInWaitList, phEventWaitList, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (count > 0 && write)
        res = cuda_ok(cu.MemcpyHtoDAsync(global, host, count, op.stream), "cuMemcpyHtoDAsync");
    else if (count > 0)
        res = cuda_ok(cu.MemcpyDtoHAsync(host, global, count, op.stream), "cuMemcpyDtoHAsync");
    return cuda_op_end(&op, res, blocking, phEvent);
}

URC_DEVICE_GLOBAL_READ_WRITE(cuda, global_transfer)
