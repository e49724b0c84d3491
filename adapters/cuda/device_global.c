// SPDX-License-Identifier: MIT
// Device globals: urEnqueueDeviceGlobalVariableRead/Write and the lookup behind
// urProgramGetGlobalVariablePointer.
//
// A SYCL runtime names a device global by its unique id; UR's "<id>@global_id_mapping"
// metadata gives the PTX symbol (without it the name is used as the symbol). The symbol's
// address and size are looked up once per program and cached, so a repeated copy costs one
// cache hit, then the same cuMemcpy{HtoD,DtoH}Async a hand-written CUDA program would issue.
#include <stdio.h>

#include "cuda_internal.h"

ur_result_t cuda_program_global(cuda_program_t *p, const char *name, CUdeviceptr *address,
                                size_t *size) {
    uint64_t cached_address = 0;
    size_t cached_size = 0;
    if (urc_dg_cache_get(p->dg_cache, name, &cached_address, &cached_size)) {
        *address = (CUdeviceptr)cached_address;
        *size = cached_size;
        return UR_RESULT_SUCCESS;
    }
    CUmodule module;
    if (!cuda_program_module(p, &module))
        return urc_error_set(UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE, 0,
                             "device global \"%s\": the program is not built", name);
    // A program with "SYCL/device globals" metadata lists every variable it has.
    urc_dg_desc_t desc = {0, false};
    ur_result_t described = urc_dg_describe(p->props, name, &desc);
    if (described != UR_RESULT_SUCCESS && described != UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION)
        return described;
    char buf[1024];
    const char *symbol = urc_props_global_symbol(p->props, name, buf, sizeof buf);
    if (symbol == NULL)
        symbol = name;

    // The module belongs to the device's primary context: make it current for the lookup.
    ur_result_t res = cuda_activate(p->dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUdeviceptr dptr = 0;
    size_t bytes = 0;
    CUresult r = cu.ModuleGetGlobal(&dptr, &bytes, module, symbol);
    if (r == CUDA_ERROR_NOT_FOUND)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, (int32_t)r,
                             "device global \"%s\" (symbol \"%s\") is not in the program", name,
                             symbol);
    if (r != CUDA_SUCCESS)
        return cuda_error(r, "cuModuleGetGlobal");
    // The rule every urc adapter follows: a described variable's storage is
    // urc_dg_storage_size (sizeof(T) for device_image_scope, else the pointer to its USM
    // buffer, which is what DPC++ writes); the symbol's size caps it, so no copy passes the
    // module's storage. Without metadata the symbol's size is the bound.
    size_t bound = bytes;
    if (described == UR_RESULT_SUCCESS && urc_dg_storage_size(&desc) < bytes)
        bound = urc_dg_storage_size(&desc);
    // A full cache only costs a later lookup; the answer is still right.
    (void)urc_dg_cache_put(p->dg_cache, name, (uint64_t)dptr, bound);
    *address = dptr;
    *size = bound;
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

ur_result_t cuda_enqueue_device_global_variable_write(
    ur_queue_handle_t hQueue, ur_program_handle_t hProgram, const char *name, bool blockingWrite,
    size_t count, size_t offset, const void *pSrc, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_event_handle_t *phEvent) {
    CUdeviceptr target = 0;
    ur_result_t res = prepare(hQueue, hProgram, name, count, offset, &target);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_op_t op;
    res = cuda_op_begin(CUDA_QUEUE(hQueue), UR_COMMAND_DEVICE_GLOBAL_VARIABLE_WRITE,
                        numEventsInWaitList, phEventWaitList, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (count > 0)
        res = cuda_ok(cu.MemcpyHtoDAsync(target, pSrc, count, op.stream), "cuMemcpyHtoDAsync");
    return cuda_op_end(&op, res, blockingWrite, phEvent);
}

ur_result_t cuda_enqueue_device_global_variable_read(ur_queue_handle_t hQueue,
                                                     ur_program_handle_t hProgram, const char *name,
                                                     bool blockingRead, size_t count, size_t offset,
                                                     void *pDst, uint32_t numEventsInWaitList,
                                                     const ur_event_handle_t *phEventWaitList,
                                                     ur_event_handle_t *phEvent) {
    CUdeviceptr source = 0;
    ur_result_t res = prepare(hQueue, hProgram, name, count, offset, &source);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_op_t op;
    res = cuda_op_begin(CUDA_QUEUE(hQueue), UR_COMMAND_DEVICE_GLOBAL_VARIABLE_READ,
                        numEventsInWaitList, phEventWaitList, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (count > 0)
        res = cuda_ok(cu.MemcpyDtoHAsync(pDst, source, count, op.stream), "cuMemcpyDtoHAsync");
    return cuda_op_end(&op, res, blockingRead, phEvent);
}
