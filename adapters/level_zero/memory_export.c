// SPDX-License-Identifier: MIT
// urMemoryExport*Exp: zeMemAllocDevice with ze_external_memory_export_desc_t asks for memory
// that can leave the driver as an opaque file descriptor or a DMA buffer; the export is
// zeMemGetAllocProperties with ze_external_memory_export_fd_t, the descriptor the caller's to
// close. Which pointers are exportable allocations is common/ipc/mem_export's record.
#include "l0_internal.h"
#include "ipc/mem_export.h"

static const uint32_t exportable = URC_MEM_EXPORT_TYPE_BIT(UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD) |
                                   URC_MEM_EXPORT_TYPE_BIT(UR_EXP_EXTERNAL_MEM_TYPE_DMA_BUF);

static ze_external_memory_type_flags_t ze_type(ur_exp_external_mem_type_t type) {
    return type == UR_EXP_EXTERNAL_MEM_TYPE_DMA_BUF ? ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF
                                                    : ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD;
}

static ur_result_t check(ur_context_handle_t hContext, ur_device_handle_t hDevice) {
    if (!l0_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    if (!l0_is(hDevice, URC_KIND_DEVICE) ||
        !l0_context_has_device(L0_CONTEXT(hContext), L0_DEVICE(hDevice)))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_memory_export_alloc_exportable_memory_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, size_t alignment, size_t size,
    ur_exp_external_mem_type_t handleTypeToExport, void **ppMem) {
    ur_result_t res = check(hContext, hDevice);
    if (res == UR_RESULT_SUCCESS)
        res = urc_mem_export_check_type(handleTypeToExport, exportable, "Level Zero");
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_device_t *dev = L0_DEVICE(hDevice);
    if (size > dev->props.maxMemAllocSize)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_SIZE, 0,
                             "%zu bytes exceed the device's largest allocation, %llu", size,
                             (unsigned long long)dev->props.maxMemAllocSize);
    ze_external_memory_export_desc_t export = {ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC, NULL,
                                               ze_type(handleTypeToExport)};
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, &export, 0, 0};
    void *p = NULL;
    res = l0_ok(zeMemAllocDevice(L0_CONTEXT(hContext)->ze, &desc, size, alignment, dev->ze, &p),
                "zeMemAllocDevice");
    if (res != UR_RESULT_SUCCESS)
        return res;
    urc_mem_export_t record = {p, size, hContext, hDevice, handleTypeToExport, 0, 0};
    if ((res = urc_mem_export_add(&record)) != UR_RESULT_SUCCESS) {
        (void)zeMemFree(L0_CONTEXT(hContext)->ze, p);
        return res;
    }
    *ppMem = p;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_memory_export_free_exportable_memory_exp(ur_context_handle_t hContext,
                                                        ur_device_handle_t hDevice, void *pMem) {
    ur_result_t res = check(hContext, hDevice);
    urc_mem_export_t r;
    if (res == UR_RESULT_SUCCESS)
        res = urc_mem_export_find(hContext, hDevice, pMem, true, &r);
    return res != UR_RESULT_SUCCESS ? res : l0_usm_release(L0_CONTEXT(hContext), pMem);
}

ur_result_t l0_memory_export_export_memory_handle_exp(ur_context_handle_t hContext,
                                                      ur_device_handle_t hDevice,
                                                      ur_exp_external_mem_type_t handleTypeToExport,
                                                      void *pMem, void *pMemHandleRet) {
    ur_result_t res = check(hContext, hDevice);
    urc_mem_export_t r;
    if (res == UR_RESULT_SUCCESS)
        res = urc_mem_export_find_for_export(hContext, hDevice, pMem, handleTypeToExport,
                                             exportable, "Level Zero", &r);
    if (res != UR_RESULT_SUCCESS)
        return res;
    ze_external_memory_export_fd_t fd = {ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD, NULL,
                                         ze_type(handleTypeToExport), -1};
    ze_memory_allocation_properties_t props = {0};
    props.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES;
    props.pNext = &fd;
    res = l0_ok(zeMemGetAllocProperties(L0_CONTEXT(hContext)->ze, pMem, &props, NULL),
                "zeMemGetAllocProperties");
    if (res == UR_RESULT_SUCCESS)
        *(int *)pMemHandleRet = fd.fd;
    return res;
}
