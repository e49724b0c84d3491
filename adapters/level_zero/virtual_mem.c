// SPDX-License-Identifier: MIT
// urVirtualMem* and urPhysicalMem* over zeVirtualMem* and zePhysicalMem*. The granularity is
// zeVirtualMemQueryPageSize's page size on the context's first device (or the one named).
#include "l0_internal.h"
#include "memory/virtual_mem.h"
#include "core/release.h"
#include "memory/vm_map.h"

typedef struct l0_physical_mem_t {
    urc_object_t obj;
    l0_context_t *ctx; // retained
    l0_device_t *dev;
    size_t size;
    ur_physical_mem_properties_t props;
    ze_physical_mem_handle_t ze;
} l0_physical_mem_t;

#define L0_PHYSICAL(h) ((l0_physical_mem_t *)(h))

static ur_result_t page_size(l0_context_t *ctx, l0_device_t *dev, size_t size, size_t *out) {
    return l0_ok(zeVirtualMemQueryPageSize(ctx->ze, dev->ze, size ? size : 1, out),
                 "zeVirtualMemQueryPageSize");
}

static ur_result_t check_range(l0_context_t *ctx, const void *start, size_t size,
                               ur_result_t bad_size) {
    size_t g = 0;
    ur_result_t res = page_size(ctx, ctx->devices[0], size, &g);
    return res != UR_RESULT_SUCCESS ? res : urc_vm_check_range(start, size, g, bad_size);
}

static ze_memory_access_attribute_t access_of(ur_virtual_mem_access_flags_t flags) {
    if (flags & UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE)
        return ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE;
    if (flags & UR_VIRTUAL_MEM_ACCESS_FLAG_READ_ONLY)
        return ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY;
    return ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
}

ur_result_t l0_virtual_mem_granularity_get_info(ur_context_handle_t hContext,
                                                ur_device_handle_t hDevice, size_t allocationSize,
                                                ur_virtual_mem_granularity_info_t propName,
                                                size_t propSize, void *pPropValue,
                                                size_t *pPropSizeRet) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    l0_device_t *dev = ctx->devices[0];
    if (hDevice != NULL) {
        if (!l0_is(hDevice, URC_KIND_DEVICE) || !l0_context_has_device(ctx, L0_DEVICE(hDevice)))
            return UR_RESULT_ERROR_INVALID_DEVICE;
        dev = L0_DEVICE(hDevice);
    }
    if (propName != UR_VIRTUAL_MEM_GRANULARITY_INFO_MINIMUM &&
        propName != UR_VIRTUAL_MEM_GRANULARITY_INFO_RECOMMENDED)
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    // Level Zero has one page size per allocation size: minimum and recommended alike.
    size_t g = 0;
    ur_result_t res = page_size(ctx, dev, allocationSize, &g);
    return res != UR_RESULT_SUCCESS
               ? res
               : urc_info_size(&(urc_info_t){propSize, pPropValue, pPropSizeRet}, g);
}

ur_result_t l0_virtual_mem_reserve(ur_context_handle_t hContext, const void *pStart, size_t size,
                                   void **ppStart) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    ur_result_t res = check_range(ctx, NULL, size, UR_RESULT_ERROR_INVALID_SIZE);
    if (res != UR_RESULT_SUCCESS)
        return res;
    void *p = NULL;
    res = l0_ok(zeVirtualMemReserve(ctx->ze, pStart, size, &p), "zeVirtualMemReserve");
    if (res == UR_RESULT_SUCCESS && (res = urc_vm_reserve_note(p, size)) != UR_RESULT_SUCCESS)
        (void)zeVirtualMemFree(ctx->ze, p, size);
    if (res == UR_RESULT_SUCCESS)
        *ppStart = p;
    return res;
}

ur_result_t l0_virtual_mem_free(ur_context_handle_t hContext, const void *pStart, size_t size) {
    // A range with memory mapped in it is refused before the driver, which frees it.
    bool known = false;
    ur_result_t res = urc_vm_check_user_range(pStart, size, false);
    if (res != UR_RESULT_SUCCESS ||
        (res = urc_vm_free_claim(pStart, size, &known)) != UR_RESULT_SUCCESS)
        return res;
    res = l0_ok(zeVirtualMemFree(L0_CONTEXT(hContext)->ze, pStart, size), "zeVirtualMemFree");
    if (res != UR_RESULT_SUCCESS && known)
        (void)urc_vm_reserve_note(pStart, size);
    return res;
}

ur_result_t l0_virtual_mem_map(ur_context_handle_t hContext, const void *pStart, size_t size,
                               ur_physical_mem_handle_t hPhysicalMem, size_t offset,
                               ur_virtual_mem_access_flags_t flags) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    l0_physical_mem_t *m = L0_PHYSICAL(hPhysicalMem);
    ur_result_t res = check_range(ctx, pStart, size, UR_RESULT_ERROR_INVALID_SIZE);
    if (res == UR_RESULT_SUCCESS)
        res = urc_vm_check_offset(offset, size, m->size);
    if (res == UR_RESULT_SUCCESS)
        res = urc_vm_check_user_range(pStart, size, false);
    bool known = false;
    if (res != UR_RESULT_SUCCESS ||
        (res = urc_vm_map_claim(pStart, size, &known)) != UR_RESULT_SUCCESS)
        return res;
    res = l0_ok(zeVirtualMemMap(ctx->ze, pStart, size, m->ze, offset, access_of(flags)),
                "zeVirtualMemMap");
    if (res != UR_RESULT_SUCCESS && known)
        urc_vm_unmap_note(pStart, size);
    return res;
}

ur_result_t l0_virtual_mem_unmap(ur_context_handle_t hContext, const void *pStart, size_t size) {
    // A second unmap of a range is refused before the driver, which may accept it.
    bool known = false;
    ur_result_t res = urc_vm_check_user_range(pStart, size, true);
    if (res != UR_RESULT_SUCCESS ||
        (res = urc_vm_unmap_claim(pStart, size, &known)) != UR_RESULT_SUCCESS)
        return res;
    res = l0_ok(zeVirtualMemUnmap(L0_CONTEXT(hContext)->ze, pStart, size), "zeVirtualMemUnmap");
    if (res != UR_RESULT_SUCCESS && known)
        (void)urc_vm_map_claim(pStart, size, &known);
    return res;
}

ur_result_t l0_virtual_mem_set_access(ur_context_handle_t hContext, const void *pStart, size_t size,
                                      ur_virtual_mem_access_flags_t flags) {
    ur_result_t res = urc_vm_check_user_range(pStart, size, true);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return l0_ok(
        zeVirtualMemSetAccessAttribute(L0_CONTEXT(hContext)->ze, pStart, size, access_of(flags)),
        "zeVirtualMemSetAccessAttribute");
}

ur_result_t l0_virtual_mem_get_info(ur_context_handle_t hContext, const void *pStart, size_t size,
                                    ur_virtual_mem_info_t propName, size_t propSize,
                                    void *pPropValue, size_t *pPropSizeRet) {
    if (propName != UR_VIRTUAL_MEM_INFO_ACCESS_MODE)
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    ur_result_t res = urc_vm_check_info_range(pStart, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    ze_memory_access_attribute_t a = ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
    size_t out_size = 0;
    res =
        l0_ok(zeVirtualMemGetAccessAttribute(L0_CONTEXT(hContext)->ze, pStart, size, &a, &out_size),
              "zeVirtualMemGetAccessAttribute");
    if (res != UR_RESULT_SUCCESS)
        return res;
    ur_virtual_mem_access_flags_t flags =
        a == ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE  ? UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE
        : a == ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY ? UR_VIRTUAL_MEM_ACCESS_FLAG_READ_ONLY
                                                   : UR_VIRTUAL_MEM_ACCESS_FLAG_NONE;
    return urc_info_bytes(&(urc_info_t){propSize, pPropValue, pPropSizeRet}, &flags, sizeof flags);
}

// ---- physical memory ----

ur_result_t l0_physical_mem_create(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                   size_t size, const ur_physical_mem_properties_t *pProperties,
                                   ur_physical_mem_handle_t *phPhysicalMem) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    if (!l0_context_has_device(ctx, L0_DEVICE(hDevice)))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    ur_physical_mem_flags_t flags = pProperties != NULL ? pProperties->flags : 0;
    if (flags & UR_PHYSICAL_MEM_FLAGS_MASK)
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    // Level Zero 1.4 has no way to hand physical memory to another process.
    if (flags & UR_PHYSICAL_MEM_FLAG_ENABLE_IPC)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "Level Zero cannot share physical memory between processes");
    l0_device_t *dev = L0_DEVICE(hDevice);
    size_t g = 0;
    ur_result_t res = page_size(ctx, dev, size, &g);
    if (res == UR_RESULT_SUCCESS)
        res = urc_vm_check_range(NULL, size, g, UR_RESULT_ERROR_INVALID_SIZE);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_physical_mem_t *m = URC_NEW(l0_physical_mem_t);
    if (m == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ze_physical_mem_desc_t desc = {ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, NULL, 0, size};
    res = l0_ok(zePhysicalMemCreate(ctx->ze, dev->ze, &desc, &m->ze), "zePhysicalMemCreate");
    if (res != UR_RESULT_SUCCESS) {
        free(m);
        return res;
    }
    urc_object_init(&m->obj, &l0_ddi, URC_KIND_PHYSICAL_MEM);
    m->ctx = ctx;
    m->dev = dev;
    m->size = size;
    m->props =
        (ur_physical_mem_properties_t){UR_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES, NULL, flags};
    l0_context_retain_internal(ctx);
    *phPhysicalMem = (ur_physical_mem_handle_t)m;
    return UR_RESULT_SUCCESS;
}

static ur_result_t physical_destroy(l0_physical_mem_t *m) {
    ur_result_t res = l0_ok(zePhysicalMemDestroy(m->ctx->ze, m->ze), "zePhysicalMemDestroy");
    l0_context_release_internal(m->ctx);
    URC_OBJECT_FREE(m);
    return res;
}

URC_RETAIN_RELEASE_RESULT(l0_physical_mem, ur_physical_mem_handle_t, L0_PHYSICAL,
                          UR_RESULT_ERROR_INVALID_NULL_HANDLE, "urPhysicalMemRelease",
                          physical_destroy)

URC_PHYSICAL_MEM_GET_INFO(l0, L0_PHYSICAL)
