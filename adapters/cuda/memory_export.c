// SPDX-License-Identifier: MIT
// urMemoryExport*Exp: exportable device memory is CUDA virtual memory made to be shared:
// cuMemCreate with the POSIX file descriptor handle type, a cuMemAddressReserve range (at the
// requested alignment), cuMemMap and read-write access for the device. The export is
// cuMemExportToShareableHandle's descriptor, the caller's to close. Which pointers are
// exportable allocations is common/ipc/mem_export's record.
#include "ipc/mem_export.h"
#include "memory/vm_map.h"
#include "physical_mem.h"

static ur_result_t check(ur_context_handle_t hContext, ur_device_handle_t hDevice) {
    if (!cuda_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    if (!cuda_is(hDevice, URC_KIND_DEVICE) ||
        !cuda_context_has_device(CUDA_CONTEXT(hContext), CUDA_DEVICE(hDevice)))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    if (!cuda_device_exports_fd(CUDA_DEVICE(hDevice)))
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the device cannot export memory as a file descriptor");
    return cuda_activate(CUDA_DEVICE(hDevice));
}

static const uint32_t exportable = URC_MEM_EXPORT_TYPE_BIT(UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD);

ur_result_t cuda_memory_export_alloc_exportable_memory_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, size_t alignment, size_t size,
    ur_exp_external_mem_type_t handleTypeToExport, void **ppMem) {
    ur_result_t res = check(hContext, hDevice);
    if (res == UR_RESULT_SUCCESS)
        res = urc_mem_export_check_type(handleTypeToExport, exportable, "CUDA");
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_device_t *dev = CUDA_DEVICE(hDevice);
    if (size > dev->total_mem)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_SIZE, 0,
                             "%zu bytes exceed the device's %zu", size, dev->total_mem);
    CUmemAllocationProp prop = cuda_physical_prop(dev, true);
    size_t g = 0;
    res = cuda_ok(cu.MemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
                  "cuMemGetAllocationGranularity");
    if (res != UR_RESULT_SUCCESS)
        return res;
    size_t reserved = (size + g - 1) / g * g; // no overflow: size is at most the device's memory
    CUmemGenericAllocationHandle handle = 0;
    res = cuda_ok(cu.MemCreate(&handle, reserved, &prop, 0), "cuMemCreate");
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUdeviceptr p = 0;
    res = cuda_ok(cu.MemAddressReserve(&p, reserved, alignment > g ? alignment : 0, 0, 0),
                  "cuMemAddressReserve");
    if (res != UR_RESULT_SUCCESS)
        goto fail_reserve;
    res = cuda_ok(cu.MemMap(p, reserved, 0, handle, 0), "cuMemMap");
    if (res != UR_RESULT_SUCCESS)
        goto fail_map;
    CUmemAccessDesc access = {{CU_MEM_LOCATION_TYPE_DEVICE, dev->cu},
                              CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    res = cuda_ok(cu.MemSetAccess(p, reserved, &access, 1), "cuMemSetAccess");
    // In the record of virtual memory too: urUSMFree refuses it and copies see its range.
    bool known = false;
    if (res == UR_RESULT_SUCCESS &&
        (res = urc_vm_reserve_note((void *)(uintptr_t)p, reserved)) == UR_RESULT_SUCCESS &&
        (res = urc_vm_map_claim((void *)(uintptr_t)p, reserved, &known)) != UR_RESULT_SUCCESS)
        (void)urc_vm_free_claim((void *)(uintptr_t)p, reserved, &known);
    if (res == UR_RESULT_SUCCESS) {
        urc_mem_export_t record = {(void *)(uintptr_t)p, reserved, hContext,   hDevice,
                                   handleTypeToExport,   handle,   (uint64_t)0};
        res = urc_mem_export_add(&record);
        if (res != UR_RESULT_SUCCESS) {
            urc_vm_unmap_note((void *)(uintptr_t)p, reserved);
            (void)urc_vm_free_claim((void *)(uintptr_t)p, reserved, &known);
        }
    }
    if (res != UR_RESULT_SUCCESS)
        goto fail_record;
    *ppMem = (void *)(uintptr_t)p;
    return UR_RESULT_SUCCESS;

fail_record:
    (void)cu.MemUnmap(p, reserved);
fail_map:
    (void)cu.MemAddressFree(p, reserved);
fail_reserve:
    (void)cu.MemRelease(handle);
    return res;
}

ur_result_t cuda_memory_export_free_exportable_memory_exp(ur_context_handle_t hContext,
                                                          ur_device_handle_t hDevice, void *pMem) {
    ur_result_t res = check(hContext, hDevice);
    urc_mem_export_t r;
    if (res == UR_RESULT_SUCCESS)
        res = urc_mem_export_find(hContext, hDevice, pMem, true, &r);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // Work still using the memory must finish first, as with urUSMFree.
    res = cuda_ok(cu.CtxSynchronize(), "cuCtxSynchronize");
    CUdeviceptr p = (CUdeviceptr)(uintptr_t)r.ptr;
    bool known = false;
    urc_vm_unmap_note(r.ptr, r.size);
    (void)urc_vm_free_claim(r.ptr, r.size, &known);
    ur_result_t unmap = cuda_ok(cu.MemUnmap(p, r.size), "cuMemUnmap");
    ur_result_t release =
        cuda_ok(cu.MemRelease((CUmemGenericAllocationHandle)r.native), "cuMemRelease");
    ur_result_t unreserve = cuda_ok(cu.MemAddressFree(p, r.size), "cuMemAddressFree");
    return res != UR_RESULT_SUCCESS       ? res
           : unmap != UR_RESULT_SUCCESS   ? unmap
           : release != UR_RESULT_SUCCESS ? release
                                          : unreserve;
}

ur_result_t cuda_memory_export_export_memory_handle_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice,
    ur_exp_external_mem_type_t handleTypeToExport, void *pMem, void *pMemHandleRet) {
    ur_result_t res = check(hContext, hDevice);
    urc_mem_export_t r;
    if (res == UR_RESULT_SUCCESS)
        res = urc_mem_export_find_for_export(hContext, hDevice, pMem, handleTypeToExport,
                                             exportable, "CUDA", &r);
    if (res != UR_RESULT_SUCCESS)
        return res;
    int fd = -1;
    res = cuda_ok(cu.MemExportToShareableHandle(&fd, (CUmemGenericAllocationHandle)r.native,
                                                CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
                  "cuMemExportToShareableHandle");
    if (res == UR_RESULT_SUCCESS)
        *(int *)pMemHandleRet = fd;
    return res;
}
