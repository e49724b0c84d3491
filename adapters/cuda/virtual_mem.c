// SPDX-License-Identifier: MIT
// urVirtualMem* and urPhysicalMem*: CUDA's virtual memory management. Reservations are
// cuMemAddressReserve ranges, physical memory is cuMemCreate's pinned device memory, a map is
// cuMemMap followed by cuMemSetAccess for every device of the context. Sizes and offsets must
// be multiples of the granularity (INVALID_SIZE / INVALID_VALUE before the driver sees them).
#include "physical_mem.h"
#include "memory/virtual_mem.h"
#include "core/release.h"
#include "memory/vm_map.h"

static bool have_vmm(void) {
    return cu.MemAddressReserve != NULL && cu.MemCreate != NULL && cu.MemMap != NULL &&
           cu.MemUnmap != NULL && cu.MemSetAccess != NULL && cu.MemRelease != NULL &&
           cu.MemAddressFree != NULL && cu.MemGetAllocationGranularity != NULL;
}

static ur_result_t check_context(ur_context_handle_t h) {
    if (!cuda_is(h, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    if (!have_vmm())
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the CUDA driver has no virtual memory management");
    return cuda_activate(CUDA_CONTEXT(h)->devices[0]);
}

CUmemAllocationProp cuda_physical_prop(const cuda_device_t *dev, bool ipc) {
    CUmemAllocationProp p = {0};
    p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = dev->cu;
    if (ipc)
        p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    return p;
}

static ur_result_t granularity(const cuda_device_t *dev, bool recommended, size_t *out) {
    CUmemAllocationProp p = cuda_physical_prop(dev, false);
    return cuda_ok(cu.MemGetAllocationGranularity(out, &p,
                                                  recommended ? CU_MEM_ALLOC_GRANULARITY_RECOMMENDED
                                                              : CU_MEM_ALLOC_GRANULARITY_MINIMUM),
                   "cuMemGetAllocationGranularity");
}

// Every reservation and map is checked against the context's first device's granularity.
static ur_result_t check_granular(cuda_context_t *ctx, const void *start, size_t size,
                                  ur_result_t bad_size) {
    size_t g = 0;
    ur_result_t res = granularity(ctx->devices[0], false, &g);
    return res != UR_RESULT_SUCCESS ? res : urc_vm_check_range(start, size, g, bad_size);
}

ur_result_t cuda_virtual_mem_granularity_get_info(ur_context_handle_t hContext,
                                                  ur_device_handle_t hDevice, size_t allocationSize,
                                                  ur_virtual_mem_granularity_info_t propName,
                                                  size_t propSize, void *pPropValue,
                                                  size_t *pPropSizeRet) {
    (void)allocationSize; // CUDA's granularity does not depend on it
    ur_result_t res = check_context(hContext);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    const cuda_device_t *dev = ctx->devices[0];
    if (hDevice != NULL) {
        if (!cuda_is(hDevice, URC_KIND_DEVICE) ||
            !cuda_context_has_device(ctx, CUDA_DEVICE(hDevice)))
            return UR_RESULT_ERROR_INVALID_DEVICE;
        dev = CUDA_DEVICE(hDevice);
    }
    size_t g = 0;
    switch (propName) {
    case UR_VIRTUAL_MEM_GRANULARITY_INFO_MINIMUM:
    case UR_VIRTUAL_MEM_GRANULARITY_INFO_RECOMMENDED:
        res = granularity(dev, propName == UR_VIRTUAL_MEM_GRANULARITY_INFO_RECOMMENDED, &g);
        if (res != UR_RESULT_SUCCESS)
            return res;
        return urc_info_size(&(urc_info_t){propSize, pPropValue, pPropSizeRet}, g);
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

ur_result_t cuda_virtual_mem_reserve(ur_context_handle_t hContext, const void *pStart, size_t size,
                                     void **ppStart) {
    ur_result_t res = check_context(hContext);
    if (res == UR_RESULT_SUCCESS)
        res = check_granular(CUDA_CONTEXT(hContext), NULL, size, UR_RESULT_ERROR_INVALID_SIZE);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // pStart is a hint: the driver may place the range elsewhere.
    CUdeviceptr p = 0;
    res = cuda_ok(cu.MemAddressReserve(&p, size, 0, (CUdeviceptr)(uintptr_t)pStart, 0),
                  "cuMemAddressReserve");
    if (res == UR_RESULT_SUCCESS &&
        (res = urc_vm_reserve_note((void *)(uintptr_t)p, size)) != UR_RESULT_SUCCESS)
        (void)cu.MemAddressFree(p, size);
    if (res == UR_RESULT_SUCCESS)
        *ppStart = (void *)(uintptr_t)p;
    return res;
}

ur_result_t cuda_virtual_mem_free(ur_context_handle_t hContext, const void *pStart, size_t size) {
    ur_result_t res = check_context(hContext);
    // The driver frees a range with memory mapped in it (and leaves the memory behind):
    // urc's record refuses it first.
    bool known = false;
    if (res != UR_RESULT_SUCCESS ||
        (res = urc_vm_check_user_range(pStart, size, false)) != UR_RESULT_SUCCESS ||
        (res = urc_vm_free_claim(pStart, size, &known)) != UR_RESULT_SUCCESS)
        return res;
    res = cuda_ok(cu.MemAddressFree((CUdeviceptr)(uintptr_t)pStart, size), "cuMemAddressFree");
    if (res != UR_RESULT_SUCCESS && known)
        (void)urc_vm_reserve_note(pStart, size);
    return res;
}

static CUmemAccess_flags access_of(ur_virtual_mem_access_flags_t flags) {
    if (flags & UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE)
        return CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if (flags & UR_VIRTUAL_MEM_ACCESS_FLAG_READ_ONLY)
        return CU_MEM_ACCESS_FLAGS_PROT_READ;
    return CU_MEM_ACCESS_FLAGS_PROT_NONE;
}

// The same rights for every device of the context.
static ur_result_t set_access(cuda_context_t *ctx, const void *start, size_t size,
                              ur_virtual_mem_access_flags_t flags) {
    CUmemAccessDesc desc[16];
    uint32_t n = ctx->ndevices < 16 ? ctx->ndevices : 16;
    for (uint32_t i = 0; i < n; ++i) {
        desc[i].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        desc[i].location.id = ctx->devices[i]->cu;
        desc[i].flags = access_of(flags);
    }
    return cuda_ok(cu.MemSetAccess((CUdeviceptr)(uintptr_t)start, size, desc, n), "cuMemSetAccess");
}

ur_result_t cuda_virtual_mem_map(ur_context_handle_t hContext, const void *pStart, size_t size,
                                 ur_physical_mem_handle_t hPhysicalMem, size_t offset,
                                 ur_virtual_mem_access_flags_t flags) {
    ur_result_t res = check_context(hContext);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    cuda_physical_mem_t *m = CUDA_PHYSICAL(hPhysicalMem);
    res = check_granular(ctx, pStart, size, UR_RESULT_ERROR_INVALID_SIZE);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if ((res = urc_vm_check_offset(offset, size, m->size)) != UR_RESULT_SUCCESS ||
        (res = urc_vm_check_user_range(pStart, size, false)) != UR_RESULT_SUCCESS)
        return res;
    bool known = false;
    if ((res = urc_vm_map_claim(pStart, size, &known)) != UR_RESULT_SUCCESS)
        return res;
    res =
        cuda_ok(cu.MemMap((CUdeviceptr)(uintptr_t)pStart, size, offset, m->handle, 0), "cuMemMap");
    if (res == UR_RESULT_SUCCESS &&
        (res = set_access(ctx, pStart, size, flags)) != UR_RESULT_SUCCESS)
        (void)cu.MemUnmap((CUdeviceptr)(uintptr_t)pStart, size);
    if (res != UR_RESULT_SUCCESS && known)
        urc_vm_unmap_note(pStart, size);
    return res;
}

ur_result_t cuda_virtual_mem_unmap(ur_context_handle_t hContext, const void *pStart, size_t size) {
    ur_result_t res = check_context(hContext);
    // CUDA's driver accepts a second unmap of a range: urc's record refuses it.
    bool known = false;
    if (res != UR_RESULT_SUCCESS ||
        (res = urc_vm_check_user_range(pStart, size, true)) != UR_RESULT_SUCCESS ||
        (res = urc_vm_unmap_claim(pStart, size, &known)) != UR_RESULT_SUCCESS)
        return res;
    res = cuda_ok(cu.MemUnmap((CUdeviceptr)(uintptr_t)pStart, size), "cuMemUnmap");
    if (res != UR_RESULT_SUCCESS && known)
        (void)urc_vm_map_claim(pStart, size, &known);
    return res;
}

ur_result_t cuda_virtual_mem_set_access(ur_context_handle_t hContext, const void *pStart,
                                        size_t size, ur_virtual_mem_access_flags_t flags) {
    ur_result_t res = check_context(hContext);
    if (res != UR_RESULT_SUCCESS ||
        (res = urc_vm_check_user_range(pStart, size, true)) != UR_RESULT_SUCCESS)
        return res;
    return set_access(CUDA_CONTEXT(hContext), pStart, size, flags);
}

ur_result_t cuda_virtual_mem_get_info(ur_context_handle_t hContext, const void *pStart, size_t size,
                                      ur_virtual_mem_info_t propName, size_t propSize,
                                      void *pPropValue, size_t *pPropSizeRet) {
    ur_result_t res = check_context(hContext);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (propName != UR_VIRTUAL_MEM_INFO_ACCESS_MODE)
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    if ((res = urc_vm_check_info_range(pStart, size)) != UR_RESULT_SUCCESS)
        return res;
    if (cu.MemGetAccess == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0, "no cuMemGetAccess");
    CUmemLocation loc = {CU_MEM_LOCATION_TYPE_DEVICE, CUDA_CONTEXT(hContext)->devices[0]->cu};
    unsigned long long f = 0;
    res = cuda_ok(cu.MemGetAccess(&f, &loc, (CUdeviceptr)(uintptr_t)pStart), "cuMemGetAccess");
    if (res != UR_RESULT_SUCCESS)
        return res;
    ur_virtual_mem_access_flags_t flags =
        f == CU_MEM_ACCESS_FLAGS_PROT_READWRITE ? UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE
        : f == CU_MEM_ACCESS_FLAGS_PROT_READ    ? UR_VIRTUAL_MEM_ACCESS_FLAG_READ_ONLY
                                                : UR_VIRTUAL_MEM_ACCESS_FLAG_NONE;
    return urc_info_bytes(&(urc_info_t){propSize, pPropValue, pPropSizeRet}, &flags, sizeof flags);
}

// ---- physical memory ----

ur_result_t cuda_physical_mem_create(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                     size_t size, const ur_physical_mem_properties_t *pProperties,
                                     ur_physical_mem_handle_t *phPhysicalMem) {
    ur_result_t res = check_context(hContext);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    if (!cuda_context_has_device(ctx, CUDA_DEVICE(hDevice)))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    ur_physical_mem_flags_t flags = pProperties != NULL ? pProperties->flags : 0;
    if (flags & UR_PHYSICAL_MEM_FLAGS_MASK)
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    cuda_device_t *dev = CUDA_DEVICE(hDevice);
    size_t g = 0;
    res = granularity(dev, false, &g);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if ((res = urc_vm_check_range(NULL, size, g, UR_RESULT_ERROR_INVALID_SIZE)) !=
        UR_RESULT_SUCCESS)
        return res;
    CUmemAllocationProp prop = cuda_physical_prop(dev, flags & UR_PHYSICAL_MEM_FLAG_ENABLE_IPC);
    CUmemGenericAllocationHandle handle = 0;
    res = cuda_activate(dev);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.MemCreate(&handle, size, &prop, 0), "cuMemCreate");
    cuda_physical_mem_t *m = NULL;
    if (res == UR_RESULT_SUCCESS)
        res = cuda_physical_mem_wrap(ctx, dev, size, flags, handle, &m);
    if (res == UR_RESULT_SUCCESS)
        *phPhysicalMem = (ur_physical_mem_handle_t)m;
    return res;
}

ur_result_t cuda_physical_mem_wrap(cuda_context_t *ctx, cuda_device_t *dev, size_t size,
                                   ur_physical_mem_flags_t flags,
                                   CUmemGenericAllocationHandle handle, cuda_physical_mem_t **out) {
    cuda_physical_mem_t *m = URC_NEW(cuda_physical_mem_t);
    if (m == NULL) {
        (void)cu.MemRelease(handle);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    urc_object_init(&m->obj, &cuda_ddi, URC_KIND_PHYSICAL_MEM);
    m->ctx = ctx;
    m->dev = dev;
    m->size = size;
    m->handle = handle;
    m->props =
        (ur_physical_mem_properties_t){UR_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES, NULL, flags};
    cuda_context_retain_internal(ctx);
    *out = m;
    return UR_RESULT_SUCCESS;
}

static ur_result_t physical_destroy(cuda_physical_mem_t *m) {
    // Mappings still in place keep the memory until they are unmapped, as CUDA documents.
    ur_result_t res = cuda_activate(m->dev);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.MemRelease(m->handle), "cuMemRelease");
    cuda_context_release_internal(m->ctx);
    URC_OBJECT_FREE(m);
    return res;
}

URC_RETAIN_RELEASE_RESULT(cuda_physical_mem, ur_physical_mem_handle_t, CUDA_PHYSICAL,
                          UR_RESULT_ERROR_INVALID_NULL_HANDLE, "urPhysicalMemRelease",
                          physical_destroy)

URC_PHYSICAL_MEM_GET_INFO(cuda, CUDA_PHYSICAL)
