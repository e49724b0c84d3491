// SPDX-License-Identifier: MIT
// urMem* for buffers. A buffer is one allocation on the context's first device; with unified
// addressing the other devices of the context reach it through the same pointer (peer access
// permitting). Images are in image.c.
#include "cuda_internal.h"
#include "core/release.h"

cuda_mem_t *cuda_mem_new(cuda_context_t *ctx, ur_mem_flags_t flags, size_t size,
                         cuda_mem_kind_t kind) {
    cuda_mem_t *m = URC_NEW(cuda_mem_t);
    if (m == NULL)
        return NULL;
    m->ctx = ctx;
    m->flags = flags;
    m->size = size;
    m->kind = kind;
    urc_mappings_init(&m->maps);
    urc_object_init(&m->obj, &cuda_ddi, URC_KIND_MEM);
    return m;
}

// Gets the memory behind a new buffer, per its kind; on failure nothing is left allocated.
static ur_result_t back(cuda_mem_t *m, void *user_host, bool copy_in) {
    const char *call = "cuMemAlloc";
    CUresult r = CUDA_SUCCESS;
    switch (m->kind) {
    case CUDA_MEM_DEVICE:
        r = cu.MemAlloc(&m->ptr, m->size);
        if (r == CUDA_SUCCESS && copy_in) {
            call = "cuMemcpyHtoD";
            r = cu.MemcpyHtoD(m->ptr, user_host, m->size);
            if (r != CUDA_SUCCESS)
                cu.MemFree(m->ptr);
        }
        break;
    case CUDA_MEM_USE_HOST:
        // Kernels then read and write the caller's memory directly (zero copy).
        call = "cuMemHostRegister";
        r = cu.MemHostRegister(user_host, m->size, CU_MEMHOSTREGISTER_DEVICEMAP);
        m->registered = r == CUDA_SUCCESS;
        if (r == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
            r = CUDA_SUCCESS;
        m->host = user_host;
        if (r == CUDA_SUCCESS) {
            call = "cuMemHostGetDevicePointer";
            r = cu.MemHostGetDevicePointer(&m->ptr, user_host, 0);
            if (r != CUDA_SUCCESS && m->registered)
                cu.MemHostUnregister(user_host);
        }
        break;
    case CUDA_MEM_ALLOC_HOST:
        call = "cuMemAllocHost";
        r = cu.MemAllocHost(&m->host, m->size);
        if (r == CUDA_SUCCESS) {
            if (copy_in)
                memcpy(m->host, user_host, m->size);
            call = "cuMemHostGetDevicePointer";
            r = cu.MemHostGetDevicePointer(&m->ptr, m->host, 0);
            if (r != CUDA_SUCCESS)
                cu.MemFreeHost(m->host);
        }
        break;
    case CUDA_MEM_NATIVE:
        break;
    }
    return cuda_ok(r, call);
}

ur_result_t cuda_mem_buffer_create(ur_context_handle_t hContext, ur_mem_flags_t flags, size_t size,
                                   const ur_buffer_properties_t *pProperties,
                                   ur_mem_handle_t *phBuffer) {
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    void *host = pProperties != NULL ? pProperties->pHost : NULL;
    ur_result_t res = urc_buffer_check_create(flags, host);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (size > ctx->devices[0]->total_mem)
        return urc_error_set(UR_RESULT_ERROR_INVALID_BUFFER_SIZE, 0,
                             "buffer of %zu bytes exceeds the device's %zu bytes", size,
                             ctx->devices[0]->total_mem);

    cuda_mem_kind_t kind = CUDA_MEM_DEVICE;
    if (flags & UR_MEM_FLAG_USE_HOST_POINTER)
        kind = CUDA_MEM_USE_HOST;
    else if (flags & UR_MEM_FLAG_ALLOC_HOST_POINTER)
        kind = CUDA_MEM_ALLOC_HOST;
    res = cuda_activate(ctx->devices[0]);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_mem_t *m = cuda_mem_new(ctx, flags, size, kind);
    if (m == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    res = back(m, host, (flags & UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER) != 0);
    if (res != UR_RESULT_SUCCESS) {
        urc_mappings_destroy(&m->maps);
        free(m);
        return res;
    }
    cuda_context_retain_internal(ctx);
    *phBuffer = (ur_mem_handle_t)m;
    return UR_RESULT_SUCCESS;
}

static void mem_destroy(cuda_mem_t *m);

void cuda_mem_retain_internal(cuda_mem_t *m) {
    urc_hold(&m->obj);
}

void cuda_mem_release_internal(cuda_mem_t *m) {
    if (urc_unhold(&m->obj))
        mem_destroy(m);
}

static void mem_destroy(cuda_mem_t *m) {
    // Frees need the owning device's context; a failure here has no caller left to tell.
    if (m->is_image) {
        if (cuda_activate(m->ctx->devices[0]) == UR_RESULT_SUCCESS)
            cuda_image_free(m);
    } else if (m->parent == NULL && cuda_activate(m->ctx->devices[0]) == UR_RESULT_SUCCESS) {
        switch (m->kind) {
        case CUDA_MEM_DEVICE:
            (void)cuda_ok(cu.MemFree(m->ptr), "cuMemFree");
            break;
        case CUDA_MEM_USE_HOST:
            if (m->registered)
                (void)cuda_ok(cu.MemHostUnregister(m->host), "cuMemHostUnregister");
            break;
        case CUDA_MEM_ALLOC_HOST:
            (void)cuda_ok(cu.MemFreeHost(m->host), "cuMemFreeHost");
            break;
        case CUDA_MEM_NATIVE:
            if (m->owns_native)
                (void)cuda_ok(cu.MemFree(m->ptr), "cuMemFree");
            break;
        }
    }
    if (m->parent != NULL)
        cuda_mem_release_internal(m->parent);
    cuda_context_release_internal(m->ctx);
    urc_mappings_destroy(&m->maps);
    URC_OBJECT_FREE(m);
}

URC_RETAIN_RELEASE(cuda_mem, ur_mem_handle_t, CUDA_MEM, UR_RESULT_ERROR_INVALID_MEM_OBJECT,
                   "urMemRelease", mem_destroy)

/// A sub-buffer is a window on its parent's memory, which it holds.
static ur_result_t sub_buffer(cuda_mem_t *parent, ur_mem_flags_t flags,
                              const ur_buffer_region_t *region, ur_mem_handle_t *phMem) {
    cuda_mem_t *m = cuda_mem_new(parent->ctx, flags, region->size, parent->kind);
    if (m == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    m->parent = parent;
    m->origin = region->origin;
    m->ptr = parent->ptr + region->origin;
    m->host = parent->host != NULL ? (char *)parent->host + region->origin : NULL;
    cuda_mem_retain_internal(parent);
    cuda_context_retain_internal(m->ctx);
    *phMem = (ur_mem_handle_t)m;
    return UR_RESULT_SUCCESS;
}

URC_BUFFER_PARTITION(cuda, CUDA_MEM, sub_buffer)

ur_result_t cuda_mem_get_native_handle(ur_mem_handle_t hMem, ur_device_handle_t hDevice,
                                       ur_native_handle_t *phNativeMem) {
    cuda_mem_t *m = CUDA_MEM(hMem);
    if (hDevice != NULL && (!cuda_is(hDevice, URC_KIND_DEVICE) ||
                            !cuda_context_has_device(m->ctx, CUDA_DEVICE(hDevice))))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    *phNativeMem = m->is_image ? (ur_native_handle_t)m->array : (ur_native_handle_t)m->ptr;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_mem_buffer_create_with_native_handle(ur_native_handle_t hNativeMem,
                                                      ur_context_handle_t hContext,
                                                      const ur_mem_native_properties_t *pProperties,
                                                      ur_mem_handle_t *phMem) {
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    CUdeviceptr ptr = (CUdeviceptr)hNativeMem, base = 0;
    size_t range = 0;
    ur_result_t res = cuda_activate(ctx->devices[0]);
    // The buffer runs from the pointer to the end of the allocation holding it.
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.MemGetAddressRange(&base, &range, ptr), "cuMemGetAddressRange");
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_mem_t *m =
        cuda_mem_new(ctx, UR_MEM_FLAG_READ_WRITE, (size_t)(base + range - ptr), CUDA_MEM_NATIVE);
    if (m == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    m->ptr = ptr;
    m->owns_native = pProperties != NULL && pProperties->isNativeHandleOwned;
    cuda_context_retain_internal(ctx);
    *phMem = (ur_mem_handle_t)m;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_mem_get_info(ur_mem_handle_t hMemory, ur_mem_info_t propName, size_t propSize,
                              void *pPropValue, size_t *pPropSizeRet) {
    const cuda_mem_t *m = CUDA_MEM(hMemory);
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    return urc_info_mem(&out, propName, m->size, (ur_context_handle_t)m->ctx,
                        urc_refcount(&m->obj));
}
