// SPDX-License-Identifier: MIT
// urUSM*: host memory from cuMemHostAlloc, device memory from cuMemAlloc, shared memory from
// cuMemAllocManaged, each through a USM pool (usm_pool.c) when one is given.
#include <unistd.h>

#include "cuda_internal.h"
#include "memory/vm_map.h"
#include "pool/pool_handle.h"

// What the driver's allocators guarantee; larger alignments would need over-allocation and
// a table to find the real base at free time, which this adapter does not keep.
#define CUDA_DEVICE_ALIGN 256u

ur_result_t cuda_pointer_query(const void *ptr, cuda_pointer_t *info) {
    CUpointer_attribute names[] = {
        CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
        CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
        CU_POINTER_ATTRIBUTE_RANGE_SIZE};
    memset(info, 0, sizeof *info);
    void *values[] = {&info->memory_type, &info->managed, &info->ordinal, &info->base,
                      &info->range};
    // Unlike cuPointerGetAttribute, this leaves zeros (not an error) for unknown pointers.
    return cuda_ok(cu.PointerGetAttributes(5, names, values, (CUdeviceptr)(uintptr_t)ptr),
                   "cuPointerGetAttributes");
}

static ur_result_t check_request(const ur_usm_desc_t *desc, size_t guaranteed) {
    uint32_t align = desc != NULL ? desc->align : 0;
    if (align & (align - 1))
        return UR_RESULT_ERROR_INVALID_VALUE;
    if (align > guaranteed)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, 0,
                             "alignment %u exceeds the %zu bytes the CUDA allocator guarantees",
                             align, guaranteed);
    return UR_RESULT_SUCCESS;
}

static ur_result_t check_device(cuda_context_t *ctx, ur_device_handle_t hDevice, size_t size) {
    if (!cuda_is(hDevice, URC_KIND_DEVICE) || !cuda_context_has_device(ctx, CUDA_DEVICE(hDevice)))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    if (size > CUDA_DEVICE(hDevice)->total_mem)
        return UR_RESULT_ERROR_INVALID_USM_SIZE;
    return cuda_activate(CUDA_DEVICE(hDevice));
}

ur_result_t cuda_usm_host_alloc(ur_context_handle_t hContext, const ur_usm_desc_t *pUSMDesc,
                                ur_usm_pool_handle_t pool, size_t size, void **ppMem) {
    ur_result_t res = check_request(pUSMDesc, (size_t)sysconf(_SC_PAGESIZE));
    // UR's rule: larger than a device of the context can allocate (here its memory; pinned
    // host memory is mapped into every device) is INVALID_USM_SIZE, not a driver's attempt.
    const cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < ctx->ndevices; ++i)
        if (size > ctx->devices[i]->total_mem)
            res = urc_error_set(UR_RESULT_ERROR_INVALID_USM_SIZE, 0,
                                "%zu bytes of host memory exceed a device's %zu", size,
                                ctx->devices[i]->total_mem);
    if (res == UR_RESULT_SUCCESS && pool != NULL)
        return urc_usm_pool_alloc_in(&cuda_pool_adapter, hContext, NULL, UR_USM_TYPE_HOST, pool,
                                     size, pUSMDesc != NULL ? pUSMDesc->align : 0, ppMem);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_activate(ctx->devices[0]);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // Portable: every device of the context, each in its own primary context, may use it.
    CUresult r = cu.MemHostAlloc(ppMem, size, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP);
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
        return urc_error_set(UR_RESULT_ERROR_OUT_OF_HOST_MEMORY, (int32_t)r,
                             "cuMemHostAlloc could not pin %zu bytes", size);
    return cuda_ok(r, "cuMemHostAlloc");
}

ur_result_t cuda_usm_device_alloc(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                  const ur_usm_desc_t *pUSMDesc, ur_usm_pool_handle_t pool,
                                  size_t size, void **ppMem) {
    ur_result_t res = check_request(pUSMDesc, CUDA_DEVICE_ALIGN);
    if (res == UR_RESULT_SUCCESS)
        res = check_device(CUDA_CONTEXT(hContext), hDevice, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (pool != NULL)
        return urc_usm_pool_alloc_in(&cuda_pool_adapter, hContext, hDevice, UR_USM_TYPE_DEVICE,
                                     pool, size, pUSMDesc != NULL ? pUSMDesc->align : 0, ppMem);
    CUdeviceptr p = 0;
    res = cuda_ok(cu.MemAlloc(&p, size), "cuMemAlloc");
    if (res == UR_RESULT_SUCCESS)
        *ppMem = (void *)(uintptr_t)p;
    return res;
}

ur_result_t cuda_usm_shared_alloc(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                  const ur_usm_desc_t *pUSMDesc, ur_usm_pool_handle_t pool,
                                  size_t size, void **ppMem) {
    ur_result_t res = check_request(pUSMDesc, CUDA_DEVICE_ALIGN);
    if (res == UR_RESULT_SUCCESS)
        res = check_device(CUDA_CONTEXT(hContext), hDevice, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (!CUDA_DEVICE(hDevice)->managed)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the device cannot allocate managed memory");
    if (pool != NULL)
        return urc_usm_pool_alloc_in(&cuda_pool_adapter, hContext, hDevice, UR_USM_TYPE_SHARED,
                                     pool, size, pUSMDesc != NULL ? pUSMDesc->align : 0, ppMem);
    // Managed memory can be overcommitted and then fail (or thrash) at first touch. Refuse up
    // front anything the card cannot hold now.
    size_t free_bytes = 0, total = 0;
    res = cuda_ok(cu.MemGetInfo(&free_bytes, &total), "cuMemGetInfo");
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (size > free_bytes)
        return urc_error_set(UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, 0,
                             "shared allocation of %zu bytes exceeds the %zu bytes free on the "
                             "device; managed memory is never overcommitted",
                             size, free_bytes);
    CUdeviceptr p = 0;
    res = cuda_ok(cu.MemAllocManaged(&p, size, CU_MEM_ATTACH_GLOBAL), "cuMemAllocManaged");
    if (res == UR_RESULT_SUCCESS)
        *ppMem = (void *)(uintptr_t)p;
    return res;
}

ur_result_t cuda_usm_free(ur_context_handle_t hContext, void *pMem) {
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    bool pooled = false;
    ur_result_t res = urc_usm_free_pooled(hContext, pMem, &pooled);
    if (pooled)
        return res;
    // Virtual and exportable memory have calls of their own; the driver's free of such an
    // address corrupts its bookkeeping instead of failing.
    if ((res = urc_usm_free_not_virtual(pMem)) != UR_RESULT_SUCCESS)
        return res;
    res = cuda_activate(ctx->devices[0]);
    cuda_pointer_t info;
    if (res == UR_RESULT_SUCCESS)
        res = cuda_pointer_query(pMem, &info);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (info.memory_type == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%p is not a USM allocation of the CUDA adapter", pMem);
    if (info.memory_type == CU_MEMORYTYPE_HOST && !info.managed)
        return cuda_ok(cu.MemFreeHost(pMem), "cuMemFreeHost");
    // Device and managed memory are freed in the context of the device that owns them.
    cuda_device_t *owner = cuda_device_by_native((CUdevice)info.ordinal);
    if (owner != NULL && (res = cuda_activate(owner)) != UR_RESULT_SUCCESS)
        return res;
    return cuda_ok(cu.MemFree((CUdeviceptr)(uintptr_t)pMem), "cuMemFree");
}

ur_result_t cuda_usm_get_mem_alloc_info(ur_context_handle_t hContext, const void *pMem,
                                        ur_usm_alloc_info_t propName, size_t propSize,
                                        void *pPropValue, size_t *pPropSizeRet) {
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    bool answered = false;
    ur_result_t res = urc_usm_alloc_info_pooled(hContext, pMem, propName, &out, &answered);
    if (answered)
        return res;
    cuda_pointer_t info;
    res = cuda_activate(CUDA_CONTEXT(hContext)->devices[0]);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_pointer_query(pMem, &info);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (propName == UR_USM_ALLOC_INFO_TYPE) {
        ur_usm_type_t type = UR_USM_TYPE_UNKNOWN;
        if (info.managed)
            type = UR_USM_TYPE_SHARED;
        else if (info.memory_type == CU_MEMORYTYPE_DEVICE)
            type = UR_USM_TYPE_DEVICE;
        else if (info.memory_type == CU_MEMORYTYPE_HOST)
            type = UR_USM_TYPE_HOST;
        return urc_info_bytes(&out, &type, sizeof type);
    }
    if (info.memory_type == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%p is not a USM allocation of the CUDA adapter", pMem);
    switch (propName) {
    case UR_USM_ALLOC_INFO_BASE_PTR:
        return urc_info_ptr(&out, (void *)(uintptr_t)info.base);
    case UR_USM_ALLOC_INFO_SIZE:
        return urc_info_size(&out, info.range);
    case UR_USM_ALLOC_INFO_DEVICE:
        return urc_info_ptr(&out, cuda_device_by_native((CUdevice)info.ordinal));
    case UR_USM_ALLOC_INFO_POOL:
        return urc_info_ptr(&out, NULL); // not from a pool
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}
