// SPDX-License-Identifier: MIT
// External memory and semaphores for bindless images on CUDA: memory another API exported as a
// file descriptor (opaque or dma-buf) is imported with cuImportExternalMemory and mapped as
// linear device memory (cuExternalMemoryGetMappedBuffer) or as image memory
// (cuExternalMemoryGetMappedMipmappedArray; one level is handed out as its CUDA array, as UR's
// CUDA adapter does); semaphores (binary or timeline, by file descriptor) are imported with
// cuImportExternalSemaphore and waited on or signalled in queue order. On success the driver
// owns the file descriptor (CUDA's rule); on failure the caller still does. Windows handles
// cannot exist on Linux and are UNSUPPORTED_FEATURE.
#include <stdlib.h>
#include <string.h>

#include "bindless.h"

typedef struct cuda_external_mem_t {
    urc_object_t obj;
    cuda_context_t *ctx;
    CUexternalMemory ext;
    uint64_t size;
} cuda_external_mem_t;

typedef struct cuda_external_semaphore_t {
    urc_object_t obj;
    cuda_context_t *ctx;
    CUexternalSemaphore ext;
    bool timeline;
} cuda_external_semaphore_t;

bool cuda_external_memory_available(void) {
    return cu.ImportExternalMemory != NULL && cu.ExternalMemoryGetMappedBuffer != NULL &&
           cu.ExternalMemoryGetMappedMipmappedArray != NULL && cu.DestroyExternalMemory != NULL;
}

bool cuda_external_semaphores_available(void) {
    return cu.ImportExternalSemaphore != NULL && cu.DestroyExternalSemaphore != NULL &&
           cu.SignalExternalSemaphoresAsync != NULL && cu.WaitExternalSemaphoresAsync != NULL;
}

// ---- mapped linear memory -----------------------------------------------------------------------
// Pointers cuExternalMemoryGetMappedBuffer handed out, so FreeMappedLinearMemoryExp frees those
// and nothing else with cuMemFree.

typedef struct mapped_t {
    struct mapped_t *next;
    CUdeviceptr ptr;
    const cuda_context_t *ctx;
} mapped_t;

static pthread_mutex_t mapped_lock = PTHREAD_MUTEX_INITIALIZER;
static mapped_t *mapped;

static bool mapped_add(CUdeviceptr ptr, const cuda_context_t *ctx) {
    mapped_t *m = URC_NEW(mapped_t);
    if (m == NULL)
        return false;
    m->ptr = ptr;
    m->ctx = ctx;
    pthread_mutex_lock(&mapped_lock);
    m->next = mapped;
    mapped = m;
    pthread_mutex_unlock(&mapped_lock);
    return true;
}

static bool mapped_take(CUdeviceptr ptr, const cuda_context_t *ctx) {
    bool found = false;
    pthread_mutex_lock(&mapped_lock);
    for (mapped_t **p = &mapped; *p != NULL; p = &(*p)->next)
        if ((*p)->ptr == ptr && (*p)->ctx == ctx) {
            mapped_t *dead = *p;
            *p = dead->next;
            free(dead);
            found = true;
            break;
        }
    pthread_mutex_unlock(&mapped_lock);
    return found;
}

// ---- import -------------------------------------------------------------------------------------

// The file descriptor on an import descriptor's chain (at most 64 structs are walked).
static ur_result_t chained_fd(const void *pNext, int *fd) {
    const ur_base_desc_t *p = pNext;
    for (int n = 0; p != NULL; p = p->pNext, ++n) {
        if (n == 64)
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "external import: more than 64 structs on the pNext chain");
        if (p->stype == UR_STRUCTURE_TYPE_EXP_FILE_DESCRIPTOR) {
            *fd = ((const ur_exp_file_descriptor_t *)(const void *)p)->fd;
            if (*fd < 0)
                return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                     "external import: file descriptor %d", *fd);
            return UR_RESULT_SUCCESS;
        }
    }
    return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                         "external import: no ur_exp_file_descriptor_t on the descriptor's chain "
                         "(Linux imports by file descriptor)");
}

static ur_result_t no_windows(void) {
    return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                         "external import: Windows handles do not exist on Linux");
}

ur_result_t cuda_bindless_images_import_external_memory_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, size_t size,
    ur_exp_external_mem_type_t memHandleType, ur_exp_external_mem_desc_t *pExternalMemDesc,
    ur_exp_external_mem_handle_t *phExternalMem) {
    cuda_context_t *ctx;
    cuda_device_t *dev;
    ur_result_t r = cuda_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    if (!cuda_external_memory_available())
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the CUDA driver cannot import external memory");
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;
    memset(&d, 0, sizeof d);
    switch (memHandleType) {
    case UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD:
        d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
        break;
    case UR_EXP_EXTERNAL_MEM_TYPE_DMA_BUF:
        d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD;
        break;
    default:
        return no_windows();
    }
    if (pExternalMemDesc->stype != UR_STRUCTURE_TYPE_EXP_EXTERNAL_MEM_DESC)
        return urc_error_set(
            UR_RESULT_ERROR_INVALID_VALUE, 0,
            "external import: the descriptor's stype is not EXP_EXTERNAL_MEM_DESC");
    if (size == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0, "external import: size 0");
    if ((r = chained_fd(pExternalMemDesc->pNext, &d.handle.fd)) != UR_RESULT_SUCCESS ||
        (r = urc_bindless_check_external_fd(d.handle.fd, size, dev->total_mem)) !=
            UR_RESULT_SUCCESS)
        return r;
    d.size = size;
    cuda_external_mem_t *m = URC_NEW(cuda_external_mem_t);
    if (m == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if ((r = cuda_ok(cu.ImportExternalMemory(&m->ext, &d), "cuImportExternalMemory")) !=
        UR_RESULT_SUCCESS) {
        free(m);
        return r;
    }
    urc_object_init(&m->obj, &cuda_ddi, URC_KIND_EXTERNAL_MEM);
    m->ctx = ctx;
    m->size = size;
    *phExternalMem = (ur_exp_external_mem_handle_t)m;
    return UR_RESULT_SUCCESS;
}

static ur_result_t external_mem_of(ur_exp_external_mem_handle_t h, const cuda_context_t *ctx,
                                   cuda_external_mem_t **m) {
    // Not a handle of this kind (or one released): INVALID_NULL_HANDLE, the answer of every kind
    // without an error of its own (docs/released-handles.md).
    if (!cuda_is(h, URC_KIND_EXTERNAL_MEM))
        return urc_error_set(UR_RESULT_ERROR_INVALID_NULL_HANDLE, 0,
                             "%p is not external memory (released already?)", (void *)h);
    if (((cuda_external_mem_t *)h)->ctx != ctx)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "not external memory imported in this context");
    *m = (cuda_external_mem_t *)h;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_bindless_images_map_external_linear_memory_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, uint64_t offset, uint64_t size,
    ur_exp_external_mem_handle_t hExternalMem, void **ppRetMem) {
    cuda_context_t *ctx;
    cuda_device_t *dev;
    cuda_external_mem_t *m = NULL;
    ur_result_t r = cuda_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r == UR_RESULT_SUCCESS)
        r = external_mem_of(hExternalMem, ctx, &m);
    if (r != UR_RESULT_SUCCESS)
        return r;
    if ((r = urc_bindless_check_external_range(offset, size, m->size)) != UR_RESULT_SUCCESS)
        return r;
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC d;
    memset(&d, 0, sizeof d);
    d.offset = offset;
    d.size = size;
    CUdeviceptr ptr = 0;
    if ((r = cuda_ok(cu.ExternalMemoryGetMappedBuffer(&ptr, m->ext, &d),
                     "cuExternalMemoryGetMappedBuffer")) != UR_RESULT_SUCCESS)
        return r;
    if (!mapped_add(ptr, ctx)) {
        (void)cu.MemFree(ptr);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    *ppRetMem = (void *)ptr;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_bindless_images_free_mapped_linear_memory_exp(ur_context_handle_t hContext,
                                                               ur_device_handle_t hDevice,
                                                               void *pMem) {
    cuda_context_t *ctx;
    cuda_device_t *dev;
    ur_result_t r = cuda_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    if (!mapped_take((CUdeviceptr)pMem, ctx))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%p is not memory urBindlessImagesMapExternalLinearMemoryExp mapped",
                             pMem);
    return cuda_ok(cu.MemFree((CUdeviceptr)pMem), "cuMemFree");
}

ur_result_t cuda_bindless_images_map_external_array_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, const ur_image_format_t *pImageFormat,
    const ur_image_desc_t *pImageDesc, ur_exp_external_mem_handle_t hExternalMem,
    ur_exp_image_mem_native_handle_t *phImageMem) {
    cuda_context_t *ctx;
    cuda_device_t *dev;
    cuda_external_mem_t *m = NULL;
    ur_result_t r = cuda_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r == UR_RESULT_SUCCESS)
        r = external_mem_of(hExternalMem, ctx, &m);
    CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC d;
    memset(&d, 0, sizeof d);
    cuda_bl_mem_t rec = {.ctx = ctx, .dev = dev};
    if (r == UR_RESULT_SUCCESS)
        r = cuda_bl_describe_array(dev, pImageFormat, pImageDesc, &rec.desc, &d.arrayDesc);
    if (r == UR_RESULT_SUCCESS)
        r = urc_bindless_check_external_fit(&rec.desc, m->size);
    if (r != UR_RESULT_SUCCESS)
        return r;
    d.numLevels = rec.desc.levels;
    CUmipmappedArray mip = NULL;
    if ((r = cuda_ok(cu.ExternalMemoryGetMappedMipmappedArray(&mip, m->ext, &d),
                     "cuExternalMemoryGetMappedMipmappedArray")) != UR_RESULT_SUCCESS)
        return r;
    if (rec.desc.levels > 1) {
        rec.kind = CUDA_BL_MIPMAP;
        rec.handle = (uintptr_t)mip;
    } else {
        // One level: its array is the image memory, freed (with the mipmap) by ImageFreeExp.
        CUarray array = NULL;
        r = cuda_ok(cu.MipmappedArrayGetLevel(&array, mip, 0), "cuMipmappedArrayGetLevel");
        if (r != UR_RESULT_SUCCESS) {
            (void)cu.MipmappedArrayDestroy(mip);
            return r;
        }
        rec.kind = CUDA_BL_EXTERNAL_ARRAY;
        rec.handle = (uintptr_t)array;
        rec.owner = (uintptr_t)mip;
    }
    if (!cuda_bl_mem_add(&rec)) {
        (void)cu.MipmappedArrayDestroy(mip);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    *phImageMem = rec.handle;
    return UR_RESULT_SUCCESS;
}

ur_result_t
cuda_bindless_images_release_external_memory_exp(ur_context_handle_t hContext,
                                                 ur_device_handle_t hDevice,
                                                 ur_exp_external_mem_handle_t hExternalMem) {
    cuda_context_t *ctx;
    cuda_device_t *dev;
    cuda_external_mem_t *m = NULL;
    ur_result_t r = cuda_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r == UR_RESULT_SUCCESS)
        r = external_mem_of(hExternalMem, ctx, &m);
    if (r != UR_RESULT_SUCCESS)
        return r;
    // What was mapped from it stays the caller's to free, as in CUDA.
    r = cuda_ok(cu.DestroyExternalMemory(m->ext), "cuDestroyExternalMemory");
    URC_OBJECT_FREE(m); // a second release is refused, not passed on
    return r;
}

ur_result_t
cuda_bindless_images_supports_importing_handle_type_exp(ur_device_handle_t hDevice,
                                                        ur_exp_external_mem_type_t memHandleType,
                                                        ur_bool_t *pSupportedRet) {
    (void)hDevice; // checked by the generated wrapper
    if ((uint32_t)memHandleType > UR_EXP_EXTERNAL_MEM_TYPE_WIN32_NT_DX11_RESOURCE)
        return urc_error_set(UR_RESULT_ERROR_INVALID_ENUMERATION, 0,
                             "unknown external memory type %u", (unsigned)memHandleType);
    *pSupportedRet = cuda_bindless_available() && cuda_external_memory_available() &&
                     (memHandleType == UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD ||
                      memHandleType == UR_EXP_EXTERNAL_MEM_TYPE_DMA_BUF);
    return UR_RESULT_SUCCESS;
}

// ---- semaphores ---------------------------------------------------------------------------------

ur_result_t cuda_bindless_images_import_external_semaphore_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice,
    ur_exp_external_semaphore_type_t semHandleType,
    ur_exp_external_semaphore_desc_t *pExternalSemaphoreDesc,
    ur_exp_external_semaphore_handle_t *phExternalSemaphore) {
    cuda_context_t *ctx;
    cuda_device_t *dev;
    ur_result_t r = cuda_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    if (!cuda_external_semaphores_available())
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the CUDA driver cannot import external semaphores");
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;
    memset(&d, 0, sizeof d);
    switch (semHandleType) {
    case UR_EXP_EXTERNAL_SEMAPHORE_TYPE_OPAQUE_FD:
        d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
        break;
    case UR_EXP_EXTERNAL_SEMAPHORE_TYPE_TIMELINE_FD:
        d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
        break;
    default:
        return no_windows();
    }
    if (pExternalSemaphoreDesc->stype != UR_STRUCTURE_TYPE_EXP_EXTERNAL_SEMAPHORE_DESC)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "external import: the descriptor's stype is not "
                             "EXP_EXTERNAL_SEMAPHORE_DESC");
    if ((r = chained_fd(pExternalSemaphoreDesc->pNext, &d.handle.fd)) != UR_RESULT_SUCCESS ||
        (r = urc_bindless_check_external_fd(d.handle.fd, 0, 0)) != UR_RESULT_SUCCESS)
        return r;
    cuda_external_semaphore_t *s = URC_NEW(cuda_external_semaphore_t);
    if (s == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if ((r = cuda_ok(cu.ImportExternalSemaphore(&s->ext, &d), "cuImportExternalSemaphore")) !=
        UR_RESULT_SUCCESS) {
        free(s);
        return r;
    }
    urc_object_init(&s->obj, &cuda_ddi, URC_KIND_EXTERNAL_SEMAPHORE);
    s->ctx = ctx;
    s->timeline = semHandleType == UR_EXP_EXTERNAL_SEMAPHORE_TYPE_TIMELINE_FD;
    *phExternalSemaphore = (ur_exp_external_semaphore_handle_t)s;
    return UR_RESULT_SUCCESS;
}

static ur_result_t semaphore_of(ur_exp_external_semaphore_handle_t h, const cuda_context_t *ctx,
                                cuda_external_semaphore_t **s) {
    if (!cuda_is(h, URC_KIND_EXTERNAL_SEMAPHORE))
        return urc_error_set(UR_RESULT_ERROR_INVALID_NULL_HANDLE, 0,
                             "%p is not an external semaphore (released already?)", (void *)h);
    if (((cuda_external_semaphore_t *)h)->ctx != ctx)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "not an external semaphore imported in this context");
    *s = (cuda_external_semaphore_t *)h;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_bindless_images_release_external_semaphore_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice,
    ur_exp_external_semaphore_handle_t hExternalSemaphore) {
    cuda_context_t *ctx;
    cuda_device_t *dev;
    cuda_external_semaphore_t *s = NULL;
    ur_result_t r = cuda_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r == UR_RESULT_SUCCESS)
        r = semaphore_of(hExternalSemaphore, ctx, &s);
    if (r != UR_RESULT_SUCCESS)
        return r;
    r = cuda_ok(cu.DestroyExternalSemaphore(s->ext), "cuDestroyExternalSemaphore");
    URC_OBJECT_FREE(s);
    return r;
}

// A wait or signal in queue order; `value` only for timeline semaphores.
static ur_result_t semaphore_op(ur_queue_handle_t hQueue, ur_exp_external_semaphore_handle_t h,
                                bool signal, bool has_value, uint64_t value, uint32_t n,
                                const ur_event_handle_t *waits, ur_event_handle_t *phEvent) {
    if (!cuda_is(hQueue, URC_KIND_QUEUE))
        return UR_RESULT_ERROR_INVALID_QUEUE;
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    cuda_external_semaphore_t *s = NULL;
    ur_result_t r = semaphore_of(h, q->ctx, &s);
    if (r != UR_RESULT_SUCCESS)
        return r;
    if (has_value && !s->timeline)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "a binary semaphore has no value to wait for or signal");
    cuda_op_t op;
    r = cuda_op_begin(q,
                      signal ? UR_COMMAND_EXTERNAL_SEMAPHORE_SIGNAL_EXP
                             : UR_COMMAND_EXTERNAL_SEMAPHORE_WAIT_EXP,
                      n, waits, phEvent, &op);
    if (r != UR_RESULT_SUCCESS)
        return r;
    CUresult c;
    if (signal) {
        CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS p;
        memset(&p, 0, sizeof p);
        p.params.fence.value = has_value ? value : 0;
        c = cu.SignalExternalSemaphoresAsync(&s->ext, &p, 1, op.stream);
    } else {
        CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS p;
        memset(&p, 0, sizeof p);
        p.params.fence.value = has_value ? value : 0;
        c = cu.WaitExternalSemaphoresAsync(&s->ext, &p, 1, op.stream);
    }
    return cuda_op_end(
        &op,
        cuda_ok(c, signal ? "cuSignalExternalSemaphoresAsync" : "cuWaitExternalSemaphoresAsync"),
        false, phEvent);
}

ur_result_t cuda_bindless_images_wait_external_semaphore_exp(
    ur_queue_handle_t hQueue, ur_exp_external_semaphore_handle_t hSemaphore, bool hasWaitValue,
    uint64_t waitValue, uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,
    ur_event_handle_t *phEvent) {
    return semaphore_op(hQueue, hSemaphore, false, hasWaitValue, waitValue, numEventsInWaitList,
                        phEventWaitList, phEvent);
}

ur_result_t cuda_bindless_images_signal_external_semaphore_exp(
    ur_queue_handle_t hQueue, ur_exp_external_semaphore_handle_t hSemaphore, bool hasSignalValue,
    uint64_t signalValue, uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,
    ur_event_handle_t *phEvent) {
    return semaphore_op(hQueue, hSemaphore, true, hasSignalValue, signalValue, numEventsInWaitList,
                        phEventWaitList, phEvent);
}
