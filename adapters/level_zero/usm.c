// SPDX-License-Identifier: MIT
// urUSM*: host, device and shared allocations straight from the driver (zeMemAlloc*), or from
// a USM pool (usm_pool.c) when one is given.
#include "l0_internal.h"
#include "memory/vm_map.h"
#include "pool/pool_handle.h"

static ur_result_t check_request(const ur_usm_desc_t *desc, uint32_t *align) {
    *align = desc != NULL ? desc->align : 0;
    if (*align & (*align - 1))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "USM alignment %u is not a power of two", *align);
    return UR_RESULT_SUCCESS;
}

static ur_result_t check_device(l0_context_t *ctx, ur_device_handle_t hDevice, size_t size) {
    if (!l0_is(hDevice, URC_KIND_DEVICE) || !l0_context_has_device(ctx, L0_DEVICE(hDevice)))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    uint64_t max = L0_DEVICE(hDevice)->props.maxMemAllocSize;
    if (max != 0 && size > max)
        return urc_error_set(UR_RESULT_ERROR_INVALID_USM_SIZE, 0,
                             "USM allocation of %zu bytes exceeds the device's limit of %llu", size,
                             (unsigned long long)max);
    return UR_RESULT_SUCCESS;
}

// Allocation failures that mean "this size or alignment cannot be had" keep that meaning.
static ur_result_t alloc_result(ze_result_t r, const char *call) {
    if (r == ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
        return urc_error_set(UR_RESULT_ERROR_INVALID_USM_SIZE, (int32_t)r, "%s: unsupported size",
                             call);
    if (r == ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, (int32_t)r,
                             "%s: unsupported alignment", call);
    return l0_ok(r, call);
}

ur_result_t l0_usm_host_alloc(ur_context_handle_t hContext, const ur_usm_desc_t *pUSMDesc,
                              ur_usm_pool_handle_t pool, size_t size, void **ppMem) {
    uint32_t align = 0;
    ur_result_t res = check_request(pUSMDesc, &align);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (pool != NULL)
        return urc_usm_pool_alloc_in(&l0_pool_adapter, hContext, NULL, UR_USM_TYPE_HOST, pool, size,
                                     align, ppMem);
    ze_host_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    return alloc_result(zeMemAllocHost(L0_CONTEXT(hContext)->ze, &desc, size, align, ppMem),
                        "zeMemAllocHost");
}

ur_result_t l0_usm_device_alloc(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                const ur_usm_desc_t *pUSMDesc, ur_usm_pool_handle_t pool,
                                size_t size, void **ppMem) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    uint32_t align = 0;
    ur_result_t res = check_request(pUSMDesc, &align);
    if (res == UR_RESULT_SUCCESS)
        res = check_device(ctx, hDevice, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (pool != NULL)
        return urc_usm_pool_alloc_in(&l0_pool_adapter, hContext, hDevice, UR_USM_TYPE_DEVICE, pool,
                                     size, align, ppMem);
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    return alloc_result(
        zeMemAllocDevice(ctx->ze, &desc, size, align, L0_DEVICE(hDevice)->ze, ppMem),
        "zeMemAllocDevice");
}

ur_result_t l0_usm_shared_alloc(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                const ur_usm_desc_t *pUSMDesc, ur_usm_pool_handle_t pool,
                                size_t size, void **ppMem) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    uint32_t align = 0;
    ur_result_t res = check_request(pUSMDesc, &align);
    // Shared memory may be made for no device in particular (NULL), as UR allows.
    if (res == UR_RESULT_SUCCESS && hDevice != NULL)
        res = check_device(ctx, hDevice, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (pool != NULL)
        return urc_usm_pool_alloc_in(&l0_pool_adapter, hContext, hDevice, UR_USM_TYPE_SHARED, pool,
                                     size, align, ppMem);
    ze_device_mem_alloc_desc_t ddesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    ze_host_mem_alloc_desc_t hdesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    ze_device_handle_t dev = hDevice != NULL ? L0_DEVICE(hDevice)->ze : NULL;
    return alloc_result(zeMemAllocShared(ctx->ze, &ddesc, &hdesc, size, align, dev, ppMem),
                        "zeMemAllocShared");
}

ur_result_t l0_usm_release(l0_context_t *ctx, void *ptr) {
    // The blocking policy waits for commands still using the memory, which zeMemFree leaves
    // to the application.
    if (ctx->devices[0]->platform->ext_free_policies) {
        ze_memory_free_ext_desc_t desc = {ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, NULL,
                                          ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE};
        return l0_ok(zeMemFreeExt(ctx->ze, &desc, ptr), "zeMemFreeExt");
    }
    return l0_ok(zeMemFree(ctx->ze, ptr), "zeMemFree");
}

ur_result_t l0_usm_free(ur_context_handle_t hContext, void *pMem) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    bool pooled = false;
    ur_result_t res = urc_usm_free_pooled(hContext, pMem, &pooled);
    if (pooled)
        return res;
    // Virtual and exportable memory have calls of their own.
    if ((res = urc_usm_free_not_virtual(pMem)) != UR_RESULT_SUCCESS)
        return res;
    ze_memory_allocation_properties_t props = {.stype =
                                                   ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ze_device_handle_t dev = NULL;
    res = l0_ok(zeMemGetAllocProperties(ctx->ze, pMem, &props, &dev), "zeMemGetAllocProperties");
    if (res != UR_RESULT_SUCCESS)
        return res;
    // Only the base of an allocation of this context can be freed.
    void *base = NULL;
    size_t size = 0;
    if (props.type == ZE_MEMORY_TYPE_UNKNOWN ||
        zeMemGetAddressRange(ctx->ze, pMem, &base, &size) != ZE_RESULT_SUCCESS || base != pMem)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "%p is not the start of a USM allocation of this context", pMem);
    return l0_usm_release(ctx, pMem);
}

ur_result_t l0_usm_get_mem_alloc_info(ur_context_handle_t hContext, const void *pMem,
                                      ur_usm_alloc_info_t propName, size_t propSize,
                                      void *pPropValue, size_t *pPropSizeRet) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    bool answered = false;
    ur_result_t res = urc_usm_alloc_info_pooled(hContext, pMem, propName, &out, &answered);
    if (answered)
        return res;
    ze_memory_allocation_properties_t props = {.stype =
                                                   ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ze_device_handle_t dev = NULL;
    res = l0_ok(zeMemGetAllocProperties(ctx->ze, pMem, &props, &dev), "zeMemGetAllocProperties");
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (propName == UR_USM_ALLOC_INFO_TYPE) {
        ur_usm_type_t type = UR_USM_TYPE_UNKNOWN;
        if (props.type == ZE_MEMORY_TYPE_HOST)
            type = UR_USM_TYPE_HOST;
        else if (props.type == ZE_MEMORY_TYPE_DEVICE)
            type = UR_USM_TYPE_DEVICE;
        else if (props.type == ZE_MEMORY_TYPE_SHARED)
            type = UR_USM_TYPE_SHARED;
        return urc_info_bytes(&out, &type, sizeof type);
    }
    if (props.type == ZE_MEMORY_TYPE_UNKNOWN)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%p is not a USM allocation of this context", pMem);
    switch (propName) {
    case UR_USM_ALLOC_INFO_BASE_PTR:
    case UR_USM_ALLOC_INFO_SIZE: {
        void *base = NULL;
        size_t size = 0;
        res = l0_ok(zeMemGetAddressRange(ctx->ze, pMem, &base, &size), "zeMemGetAddressRange");
        if (res != UR_RESULT_SUCCESS)
            return res;
        return propName == UR_USM_ALLOC_INFO_BASE_PTR ? urc_info_ptr(&out, base)
                                                      : urc_info_size(&out, size);
    }
    case UR_USM_ALLOC_INFO_DEVICE:
        // Host allocations belong to no device: NULL, as UR answers.
        return urc_info_ptr(&out, dev != NULL ? l0_device_by_native(dev) : NULL);
    case UR_USM_ALLOC_INFO_POOL:
        return urc_info_ptr(&out, NULL); // not from a pool
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}
