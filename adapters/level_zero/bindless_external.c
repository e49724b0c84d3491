// SPDX-License-Identifier: MIT
// External memory for bindless images on Level Zero: memory another API exported as a file
// descriptor (opaque or DMA buffer) is recorded by urBindlessImagesImportExternalMemoryExp and
// mapped at each use, as UR's adapter does: as linear device memory (zeMemAllocDevice with
// ze_external_memory_import_fd_t) or as bindless image memory (zeImageCreate with the same
// descriptor chained behind ze_image_bindless_exp_desc_t; freed by ImageFreeExp). The file
// descriptor stays the caller's: Level Zero maps it and does not take it. Windows handles
// cannot exist on Linux (UNSUPPORTED_FEATURE); external semaphores are not offered.
#include <stdlib.h>

#include "bindless.h"
#include "core/ptrset.h"

// A handle like any other (the loader routes by its first word), found through `ext_mems`
// before it is read.
typedef struct l0_ext_mem_t {
    urc_object_t obj;
    l0_context_t *ctx;
    l0_device_t *dev;
    ze_external_memory_import_fd_t import; // its pNext is set at each use
    uint64_t size;
} l0_ext_mem_t;

// A mapping handed out by MapExternalLinearMemoryExp: the pointer given and the allocation.
// Mappings are few and made rarely: one list under one lock.
typedef struct l0_ext_map_t {
    struct l0_ext_map_t *next;
    void *ptr, *base;
    l0_context_t *ctx;
} l0_ext_map_t;

static urc_ptrset_t ext_mems; // imported handles, asked about without reading through them
static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static l0_ext_map_t *maps;

ze_external_memory_type_flags_t l0_bl_import_types(const l0_device_t *dev) {
    ze_device_external_memory_properties_t p = {
        ZE_STRUCTURE_TYPE_DEVICE_EXTERNAL_MEMORY_PROPERTIES, NULL, 0, 0, 0, 0};
    if (zeDeviceGetExternalMemoryProperties(dev->ze, &p) != ZE_RESULT_SUCCESS)
        return 0;
    return p.memoryAllocationImportTypes & p.imageImportTypes;
}

static ur_result_t ze_type(ur_exp_external_mem_type_t type, ze_external_memory_type_flags_t *out) {
    switch (type) {
    case UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD:
        *out = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD;
        return UR_RESULT_SUCCESS;
    case UR_EXP_EXTERNAL_MEM_TYPE_DMA_BUF:
        *out = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;
        return UR_RESULT_SUCCESS;
    default:
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "external memory: Windows handle types cannot exist on Linux");
    }
}

// The record of an imported handle of `ctx` (never read through before it is known): a value
// that is no imported handle (or one released) is INVALID_NULL_HANDLE, the answer of every kind
// without an error of its own (docs/released-handles.md); one of another context INVALID_VALUE.
static ur_result_t ext_of(const l0_context_t *ctx, ur_exp_external_mem_handle_t h,
                          l0_ext_mem_t **out) {
    if (h == NULL || !urc_ptrset_claim(&ext_mems, h, NULL))
        return urc_error_set(UR_RESULT_ERROR_INVALID_NULL_HANDLE, 0,
                             "external memory: %p is not imported memory (released already?)",
                             (const void *)h);
    l0_ext_mem_t *e = (l0_ext_mem_t *)h;
    if (e->ctx != ctx)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "external memory: %p is imported memory of another context",
                             (const void *)h);
    *out = e;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_bindless_images_import_external_memory_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, size_t size,
    ur_exp_external_mem_type_t memHandleType, ur_exp_external_mem_desc_t *pExternalMemDesc,
    ur_exp_external_mem_handle_t *phExternalMem) {
    l0_context_t *ctx;
    l0_device_t *dev;
    ur_result_t r = l0_bl_enter(hContext, hDevice, &ctx, &dev);
    ze_external_memory_type_flags_t flag = 0;
    if (r == UR_RESULT_SUCCESS)
        r = ze_type(memHandleType, &flag);
    if (r != UR_RESULT_SUCCESS)
        return r;
    if ((l0_bl_import_types(dev) & flag) == 0)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "external memory: the driver imports no memory of this type");
    // The file descriptor rides in the descriptor's chain (at most 64 links are walked).
    const ur_exp_file_descriptor_t *fd = NULL;
    const ur_base_desc_t *d = pExternalMemDesc->pNext;
    for (int n = 0; d != NULL && n < 64; d = d->pNext, ++n)
        if (d->stype == UR_STRUCTURE_TYPE_EXP_FILE_DESCRIPTOR)
            fd = (const ur_exp_file_descriptor_t *)d;
    if (fd == NULL || fd->fd < 0 || size == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "external memory: no file descriptor in the chain, or a size of 0");
    // Level Zero maps the descriptor only at each use: what can be checked now is.
    if ((r = urc_bindless_check_external_fd(fd->fd, size, dev->global_mem)) != UR_RESULT_SUCCESS)
        return r;
    l0_ext_mem_t *e = URC_NEW(l0_ext_mem_t);
    if (e == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    *e = (l0_ext_mem_t){.ctx = ctx,
                        .dev = dev,
                        .import = {ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD, NULL, flag, fd->fd},
                        .size = size};
    urc_object_init(&e->obj, &l0_ddi, URC_KIND_EXTERNAL_MEM);
    if (!urc_ptrset_add(&ext_mems, e)) {
        free(e);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    *phExternalMem = (ur_exp_external_mem_handle_t)e;
    return UR_RESULT_SUCCESS;
}

ur_result_t
l0_bindless_images_release_external_memory_exp(ur_context_handle_t hContext,
                                               ur_device_handle_t hDevice,
                                               ur_exp_external_mem_handle_t hExternalMem) {
    l0_context_t *ctx;
    l0_device_t *dev;
    ur_result_t r = l0_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    l0_ext_mem_t *e = NULL;
    if ((r = ext_of(ctx, hExternalMem, &e)) != UR_RESULT_SUCCESS)
        return r;
    // Mappings made from it are allocations and images of their own and stay valid.
    if (!urc_ptrset_remove(&ext_mems, e))
        return urc_error_set(UR_RESULT_ERROR_INVALID_NULL_HANDLE, 0,
                             "external memory: %p was released by another thread", (void *)e);
    URC_OBJECT_FREE(e); // a later call through it is answered, not a use after free
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_bindless_images_map_external_linear_memory_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, uint64_t offset, uint64_t size,
    ur_exp_external_mem_handle_t hExternalMem, void **ppRetMem) {
    l0_context_t *ctx;
    l0_device_t *dev;
    ur_result_t r = l0_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    l0_ext_mem_t *e = NULL;
    if ((r = ext_of(ctx, hExternalMem, &e)) != UR_RESULT_SUCCESS)
        return r;
    if ((r = urc_bindless_check_external_range(offset, size, e->size)) != UR_RESULT_SUCCESS)
        return r;
    l0_ext_map_t *m = URC_NEW(l0_ext_map_t);
    if (m == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ze_external_memory_import_fd_t import = e->import;
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, &import, 0, 0};
    r = l0_ok(zeMemAllocDevice(ctx->ze, &dd, (size_t)e->size, 0, dev->ze, &m->base),
              "zeMemAllocDevice");
    if (r == UR_RESULT_SUCCESS) {
        m->ptr = (char *)m->base + offset;
        m->ctx = ctx;
        pthread_mutex_lock(&maps_lock);
        m->next = maps;
        maps = m;
        pthread_mutex_unlock(&maps_lock);
    }
    if (r != UR_RESULT_SUCCESS) {
        free(m);
        return r;
    }
    *ppRetMem = m->ptr;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_bindless_images_free_mapped_linear_memory_exp(ur_context_handle_t hContext,
                                                             ur_device_handle_t hDevice,
                                                             void *pMem) {
    l0_context_t *ctx;
    l0_device_t *dev;
    ur_result_t r = l0_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    l0_ext_map_t *found = NULL;
    pthread_mutex_lock(&maps_lock);
    for (l0_ext_map_t **p = &maps; *p != NULL; p = &(*p)->next)
        if ((*p)->ptr == pMem && (*p)->ctx == ctx) {
            found = *p;
            *p = found->next;
            break;
        }
    pthread_mutex_unlock(&maps_lock);
    if (found == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "external memory: %p is not mapped linear memory of this context",
                             pMem);
    r = l0_ok(zeMemFree(ctx->ze, found->base), "zeMemFree");
    free(found);
    return r;
}

ur_result_t l0_bindless_images_map_external_array_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, const ur_image_format_t *pImageFormat,
    const ur_image_desc_t *pImageDesc, ur_exp_external_mem_handle_t hExternalMem,
    ur_exp_image_mem_native_handle_t *phImageMem) {
    l0_context_t *ctx;
    l0_device_t *dev;
    ur_result_t r = l0_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    l0_ext_mem_t *e = NULL;
    if ((r = ext_of(ctx, hExternalMem, &e)) != UR_RESULT_SUCCESS)
        return r;
    urc_bindless_t b;
    ze_image_desc_t zd;
    if ((r = l0_bl_describe(dev, pImageFormat, pImageDesc, false, &b, &zd)) != UR_RESULT_SUCCESS)
        return r;
    if ((r = urc_bindless_check_external_fit(&b, e->size)) != UR_RESULT_SUCCESS)
        return r;
    ze_external_memory_import_fd_t import = e->import;
    ze_image_bindless_exp_desc_t bd = {ZE_STRUCTURE_TYPE_BINDLESS_IMAGE_EXP_DESC, &import,
                                       ZE_IMAGE_BINDLESS_EXP_FLAG_BINDLESS};
    zd.pNext = &bd;
    ze_image_handle_t ze = NULL;
    if ((r = l0_ok(zeImageCreate(ctx->ze, dev->ze, &zd, &ze), "zeImageCreate")) !=
        UR_RESULT_SUCCESS)
        return r;
    return l0_bl_mem_adopt(ctx, dev, ze, &b, phImageMem);
}

ur_result_t
l0_bindless_images_supports_importing_handle_type_exp(ur_device_handle_t hDevice,
                                                      ur_exp_external_mem_type_t memHandleType,
                                                      ur_bool_t *pSupportedRet) {
    if ((uint32_t)memHandleType > UR_EXP_EXTERNAL_MEM_TYPE_WIN32_NT_DX11_RESOURCE)
        return urc_error_set(UR_RESULT_ERROR_INVALID_ENUMERATION, 0,
                             "unknown external memory type %u", (unsigned)memHandleType);
    const l0_device_t *dev = L0_DEVICE(hDevice);
    ze_external_memory_type_flags_t flag = 0;
    *pSupportedRet = dev->platform->image_device_offset != NULL &&
                     ze_type(memHandleType, &flag) == UR_RESULT_SUCCESS &&
                     (l0_bl_import_types(dev) & flag) != 0;
    return UR_RESULT_SUCCESS;
}
