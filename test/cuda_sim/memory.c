// SPDX-License-Identifier: MIT
// Memory: every allocation is host memory recorded in a registry (so pointer queries work),
// and copies and fills are stream commands. Like the real driver, a copy from pageable host
// memory takes its data when called, and one to pageable memory returns when it is done.
#include <stdlib.h>
#include <string.h>

#include "cuda_sim_internal.h"

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static sim_alloc_t *registry;
static size_t device_bytes;

static CUresult add_alloc(void *p, size_t size, sim_mem_kind_t kind) {
    sim_alloc_t *a = malloc(sizeof *a);
    if (a == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    a->base = (uintptr_t)p;
    a->size = size;
    a->kind = kind;
    pthread_mutex_lock(&registry_lock);
    a->next = registry;
    registry = a;
    if (kind == SIM_MEM_DEVICE || kind == SIM_MEM_MANAGED)
        device_bytes += size;
    pthread_mutex_unlock(&registry_lock);
    return CUDA_SUCCESS;
}

// Removes the allocation starting at `p` of one of the kinds in `mask` (1 << kind).
static bool remove_alloc(uintptr_t p, unsigned mask) {
    bool found = false;
    pthread_mutex_lock(&registry_lock);
    for (sim_alloc_t **at = &registry; *at != NULL; at = &(*at)->next) {
        sim_alloc_t *a = *at;
        if (a->base == p && (mask & (1u << a->kind))) {
            *at = a->next;
            if (a->kind == SIM_MEM_DEVICE || a->kind == SIM_MEM_MANAGED)
                device_bytes -= a->size;
            free(a);
            found = true;
            break;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    return found;
}

bool sim_find_alloc(uintptr_t p, sim_alloc_t *out) {
    bool found = false;
    pthread_mutex_lock(&registry_lock);
    for (sim_alloc_t *a = registry; a != NULL; a = a->next) {
        if (p >= a->base && p - a->base < (a->size ? a->size : 1)) {
            *out = *a;
            found = true;
            break;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    return found;
}

bool sim_is_pageable(const void *p) {
    sim_alloc_t a;
    return !sim_find_alloc((uintptr_t)p, &a);
}

void sim_track_global(void *p, size_t size) {
    (void)add_alloc(p, size, SIM_MEM_DEVICE);
}

void sim_untrack_global(void *p) {
    (void)remove_alloc((uintptr_t)p, 1u << SIM_MEM_DEVICE);
}

size_t sim_device_bytes_in_use(void) {
    pthread_mutex_lock(&registry_lock);
    size_t n = device_bytes;
    pthread_mutex_unlock(&registry_lock);
    return n;
}

// 256-byte alignment, as cuMemAlloc gives.
static void *aligned(size_t size) {
    size_t rounded = (size + 255) & ~(size_t)255;
    return aligned_alloc(256, rounded ? rounded : 256);
}

SIM_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t size) {
    sim_count_call();
    SIM_STICKY();
    if (size == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (size > SIM_TOTAL_MEMORY - SIM_RESERVED_MEMORY - sim_device_bytes_in_use())
        return CUDA_ERROR_OUT_OF_MEMORY;
    void *p = aligned(size);
    if (p == NULL || add_alloc(p, size, SIM_MEM_DEVICE) != CUDA_SUCCESS) {
        free(p);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    memset(p, 0xcd, size); // device memory starts out as garbage
    *dptr = (CUdeviceptr)p;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t size, unsigned int flags) {
    sim_count_call();
    SIM_STICKY();
    (void)flags;
    if (size == 0)
        return CUDA_ERROR_INVALID_VALUE;
    void *p = aligned(size);
    if (p == NULL || add_alloc(p, size, SIM_MEM_MANAGED) != CUDA_SUCCESS) {
        free(p);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *dptr = (CUdeviceptr)p;
    return CUDA_SUCCESS;
}

CUresult sim_mem_free_now(CUdeviceptr dptr) {
    // Mapped virtual memory is device memory to copies, but only cuMemUnmap gives it back: the
    // real driver's cuMemFree fails on it.
    if (sim_vmm_reserved(dptr))
        return CUDA_ERROR_INVALID_VALUE;
    if (!remove_alloc(dptr, (1u << SIM_MEM_DEVICE) | (1u << SIM_MEM_MANAGED)))
        return CUDA_ERROR_INVALID_VALUE;
    free((void *)dptr);
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr) {
    sim_count_call();
    SIM_STICKY();
    sim_streams_drain_all();      // like the real driver's free: pending work is done first
    if (sim_external_unmap(dptr)) // a buffer mapped out of external memory (external.c)
        return CUDA_SUCCESS;
    return sim_mem_free_now(dptr);
}

SIM_EXPORT CUresult cuMemHostAlloc(void **pp, size_t size, unsigned int flags) {
    sim_count_call();
    SIM_STICKY();
    (void)flags;
    if (size > SIZE_MAX - 4095) // the rounded size would wrap to a tiny allocation
        return CUDA_ERROR_OUT_OF_MEMORY;
    void *p = aligned_alloc(4096, (size + 4095) & ~(size_t)4095);
    if (p == NULL || add_alloc(p, size, SIM_MEM_HOST) != CUDA_SUCCESS) {
        free(p);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *pp = p;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemAllocHost_v2(void **pp, size_t size) {
    sim_count_call();
    return cuMemHostAlloc(pp, size, 0);
}

SIM_EXPORT CUresult cuMemFreeHost(void *p) {
    sim_count_call();
    SIM_STICKY();
    sim_streams_drain_all();
    if (!remove_alloc((uintptr_t)p, 1u << SIM_MEM_HOST))
        return CUDA_ERROR_INVALID_VALUE;
    free(p);
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemHostRegister_v2(void *p, size_t size, unsigned int flags) {
    sim_count_call();
    SIM_STICKY();
    (void)flags;
    sim_alloc_t a;
    if (sim_find_alloc((uintptr_t)p, &a))
        return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    return add_alloc(p, size, SIM_MEM_REGISTERED);
}

SIM_EXPORT CUresult cuMemHostUnregister(void *p) {
    sim_count_call();
    SIM_STICKY();
    return remove_alloc((uintptr_t)p, 1u << SIM_MEM_REGISTERED)
               ? CUDA_SUCCESS
               : CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
}

// Mapped host memory has the same address on the device (unified addressing).
SIM_EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *dptr, void *p, unsigned int flags) {
    sim_count_call();
    SIM_STICKY();
    sim_alloc_t a;
    if (flags != 0 || !sim_find_alloc((uintptr_t)p, &a))
        return CUDA_ERROR_INVALID_VALUE;
    *dptr = (CUdeviceptr)p;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr p) {
    sim_count_call();
    SIM_STICKY();
    sim_alloc_t a;
    if (!sim_find_alloc(p, &a))
        return CUDA_ERROR_NOT_FOUND;
    if (base != NULL)
        *base = a.base;
    if (size != NULL)
        *size = a.size;
    return CUDA_SUCCESS;
}

static void fill_attribute(CUpointer_attribute name, void *value, const sim_alloc_t *a,
                           bool known) {
    switch (name) {
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned *)value = !known ? 0
                             : a->kind == SIM_MEM_DEVICE || a->kind == SIM_MEM_MANAGED
                                 ? CU_MEMORYTYPE_DEVICE
                                 : CU_MEMORYTYPE_HOST;
        break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        *(unsigned *)value = known && a->kind == SIM_MEM_MANAGED;
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        *(int *)value = known ? 0 : -2;
        break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
        *(CUdeviceptr *)value = known ? a->base : 0;
        break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
        *(size_t *)value = known ? a->size : 0;
        break;
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
        *(CUmemoryPool *)value = known ? sim_mempool_of(a->base) : NULL;
        break;
    default:
        break;
    }
}

SIM_EXPORT CUresult cuPointerGetAttributes(unsigned int n, CUpointer_attribute *names,
                                           void **values, CUdeviceptr p) {
    sim_count_call();
    SIM_STICKY();
    sim_alloc_t a;
    bool known = sim_find_alloc(p, &a);
    for (unsigned i = 0; i < n; ++i)
        fill_attribute(names[i], values[i], &a, known);
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuPointerGetAttribute(void *value, CUpointer_attribute name, CUdeviceptr p) {
    sim_count_call();
    SIM_STICKY();
    sim_alloc_t a;
    if (!sim_find_alloc(p, &a))
        return CUDA_ERROR_INVALID_VALUE;
    fill_attribute(name, value, &a, true);
    return CUDA_SUCCESS;
}

// ---- copies and fills ----

typedef struct copy_t {
    void *dst;
    const void *src;
    size_t size;
    void *owned; // a snapshot of pageable source memory
} copy_t;

static void run_copy(sim_op_t *op) {
    copy_t *c = op->data;
    if (atomic_load(&sim_sticky) == 0)
        memmove(c->dst, c->src, c->size);
    free(c->owned);
}

// A checked device range: [p, p + size) inside one allocation of the driver.
// Device memory from p to p + size: one allocation, or, in a virtual memory reservation, maps
// that follow each other without a gap (the real driver copies across them: it is one range of
// valid virtual memory).
static bool device_range(uintptr_t p, size_t size) {
    sim_alloc_t a;
    if (!sim_find_alloc(p, &a))
        return false;
    while (size > a.size - (p - a.base)) {
        uintptr_t next = a.base + a.size;
        size -= next - p;
        p = next;
        if (!sim_vmm_reserved(p) || !sim_find_alloc(p, &a) || a.base != p)
            return false;
    }
    return true;
}

static CUresult copy(void *dst, const void *src, size_t size, CUstream s) {
    SIM_STICKY();
    if (size == 0)
        return CUDA_SUCCESS;
    if ((!sim_is_pageable(dst) && !device_range((uintptr_t)dst, size)) ||
        (!sim_is_pageable(src) && !device_range((uintptr_t)src, size)))
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_MEMCPY3D node = {.srcMemoryType = CU_MEMORYTYPE_HOST,
                          .srcHost = src,
                          .dstMemoryType = CU_MEMORYTYPE_HOST,
                          .dstHost = dst,
                          .srcPitch = size,
                          .dstPitch = size,
                          .WidthInBytes = size,
                          .Height = 1,
                          .Depth = 1};
    CUresult captured = CUDA_SUCCESS;
    if (sim_capture_copy(s, &node, &captured))
        return captured;
    copy_t *c = calloc(1, sizeof *c);
    if (c == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    c->dst = dst;
    c->src = src;
    c->size = size;
    if (sim_is_pageable(src)) {
        c->owned = malloc(size);
        if (c->owned == NULL) {
            free(c);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        memcpy(c->owned, src, size);
        c->src = c->owned;
    }
    CUresult r = sim_enqueue(s, run_copy, c);
    if (r == CUDA_SUCCESS && sim_is_pageable(dst))
        sim_stream_drain(s);
    return r;
}

SIM_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t size) {
    sim_count_call();
    CUresult r = copy((void *)dst, src, size, NULL);
    sim_stream_drain(NULL);
    return r;
}

SIM_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t size,
                                         CUstream s) {
    sim_count_call();
    return copy((void *)dst, src, size, s);
}

SIM_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t size, CUstream s) {
    sim_count_call();
    return copy(dst, (const void *)src, size, s);
}

SIM_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t size,
                                         CUstream s) {
    sim_count_call();
    // Like the real driver: a thread with no current context cannot enqueue.
    if (!sim_has_context())
        return CUDA_ERROR_INVALID_CONTEXT;
    return copy((void *)dst, (const void *)src, size, s);
}

SIM_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t size, CUstream s) {
    sim_count_call();
    return copy((void *)dst, (const void *)src, size, s);
}

typedef struct copy3d_t {
    CUDA_MEMCPY3D p;
} copy3d_t;

static const uint8_t *base_of(CUmemorytype type, const void *host, CUdeviceptr dev, CUarray array) {
    if (type == CU_MEMORYTYPE_ARRAY)
        return sim_array(array)->bytes;
    return type == CU_MEMORYTYPE_HOST ? host : (const uint8_t *)dev;
}

// An array side ignores the pitch fields, as the driver does: its own layout counts.
static void side_layout(CUmemorytype type, CUarray array, size_t pitch, size_t height, size_t *row,
                        size_t *slice) {
    if (type == CU_MEMORYTYPE_ARRAY) {
        const sim_array_t *a = sim_array(array);
        *row = a->pitch;
        *slice = a->pitch * a->rows;
    } else {
        *row = pitch;
        *slice = pitch * height;
    }
}

static void run_copy3d(sim_op_t *op) {
    const CUDA_MEMCPY3D *p = &((copy3d_t *)op->data)->p;
    if (atomic_load(&sim_sticky) != 0)
        return;
    const uint8_t *src = base_of(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray);
    uint8_t *dst = (uint8_t *)base_of(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray);
    size_t src_pitch, src_slice, dst_pitch, dst_slice;
    side_layout(p->srcMemoryType, p->srcArray, p->srcPitch, p->srcHeight, &src_pitch, &src_slice);
    side_layout(p->dstMemoryType, p->dstArray, p->dstPitch, p->dstHeight, &dst_pitch, &dst_slice);
    for (size_t z = 0; z < p->Depth; ++z)
        for (size_t y = 0; y < p->Height; ++y)
            memmove(dst + (p->dstZ + z) * dst_slice + (p->dstY + y) * dst_pitch + p->dstXInBytes,
                    src + (p->srcZ + z) * src_slice + (p->srcY + y) * src_pitch + p->srcXInBytes,
                    p->WidthInBytes);
}

// An array side must hold the box: the driver refuses copies past an array's edges.
static bool array_holds(CUmemorytype type, CUarray array, size_t x, size_t y, size_t z,
                        const CUDA_MEMCPY3D *p) {
    if (type != CU_MEMORYTYPE_ARRAY)
        return true;
    const sim_array_t *a = sim_array(array);
    size_t slices = a == NULL ? 0 : a->desc.Depth ? a->desc.Depth : 1;
    return a != NULL && x + p->WidthInBytes <= a->pitch && y + p->Height <= a->rows &&
           z + p->Depth <= slices;
}

// A linear side in the driver's memory must hold every byte the box touches. The real driver
// does not check this (a graph node past an allocation's end overflows it when the graph runs);
// the simulator refuses it, so that tests see what a GPU would silently corrupt.
static bool linear_holds(CUmemorytype type, const void *host, CUdeviceptr dev, size_t pitch,
                         size_t height, size_t x, size_t y, size_t z, const CUDA_MEMCPY3D *p) {
    if (type == CU_MEMORYTYPE_ARRAY || p->WidthInBytes == 0 || p->Height == 0 || p->Depth == 0)
        return true;
    uintptr_t base = type == CU_MEMORYTYPE_HOST ? (uintptr_t)host : (uintptr_t)dev;
    if (sim_is_pageable((const void *)base))
        return true; // user memory: only the caller knows its end
    size_t slice, first, last, span;
    if (__builtin_mul_overflow(pitch, height, &slice) || __builtin_mul_overflow(z, slice, &first) ||
        __builtin_mul_overflow(y, pitch, &span) || __builtin_add_overflow(first, span, &first) ||
        __builtin_add_overflow(first, x, &first) ||
        __builtin_mul_overflow(p->Depth - 1, slice, &last) ||
        __builtin_mul_overflow(p->Height - 1, pitch, &span) ||
        __builtin_add_overflow(last, span, &last) ||
        __builtin_add_overflow(last, p->WidthInBytes, &last))
        return false;
    return device_range(base + first, last);
}

static CUresult copy3d(const CUDA_MEMCPY3D *p, CUstream s) {
    SIM_STICKY();
    if ((p->srcMemoryType != CU_MEMORYTYPE_ARRAY && p->srcPitch < p->WidthInBytes) ||
        (p->dstMemoryType != CU_MEMORYTYPE_ARRAY && p->dstPitch < p->WidthInBytes))
        return CUDA_ERROR_INVALID_VALUE;
    if (!linear_holds(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcPitch, p->srcHeight,
                      p->srcXInBytes, p->srcY, p->srcZ, p) ||
        !linear_holds(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstPitch, p->dstHeight,
                      p->dstXInBytes, p->dstY, p->dstZ, p))
        return CUDA_ERROR_INVALID_VALUE;
    if (!array_holds(p->srcMemoryType, p->srcArray, p->srcXInBytes, p->srcY, p->srcZ, p) ||
        !array_holds(p->dstMemoryType, p->dstArray, p->dstXInBytes, p->dstY, p->dstZ, p))
        return CUDA_ERROR_INVALID_VALUE;
    CUresult captured = CUDA_SUCCESS;
    if (sim_capture_copy(s, p, &captured))
        return captured;
    copy3d_t *c = malloc(sizeof *c);
    if (c == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    c->p = *p;
    CUresult r = sim_enqueue(s, run_copy3d, c);
    // Host destinations are written before the call returns, as for pageable memory; a
    // pageable host source is read before it returns (the real driver stages it), here by
    // running the copy at once.
    if (r == CUDA_SUCCESS &&
        (p->dstMemoryType == CU_MEMORYTYPE_HOST ||
         (p->srcMemoryType == CU_MEMORYTYPE_HOST && sim_is_pageable(p->srcHost))))
        sim_stream_drain(s);
    return r;
}

SIM_EXPORT CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *p, CUstream s) {
    sim_count_call();
    return copy3d(p, s);
}

SIM_EXPORT CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *p, CUstream s) {
    sim_count_call();
    CUDA_MEMCPY3D q;
    memset(&q, 0, sizeof q);
    q.srcXInBytes = p->srcXInBytes;
    q.srcY = p->srcY;
    q.srcMemoryType = p->srcMemoryType;
    q.srcHost = p->srcHost;
    q.srcDevice = p->srcDevice;
    q.srcArray = p->srcArray;
    q.srcPitch = p->srcPitch;
    q.srcHeight = p->srcY + p->Height;
    q.dstXInBytes = p->dstXInBytes;
    q.dstY = p->dstY;
    q.dstMemoryType = p->dstMemoryType;
    q.dstHost = p->dstHost;
    q.dstDevice = p->dstDevice;
    q.dstArray = p->dstArray;
    q.dstPitch = p->dstPitch;
    q.dstHeight = p->dstY + p->Height;
    q.WidthInBytes = p->WidthInBytes;
    q.Height = p->Height;
    q.Depth = 1;
    return copy3d(&q, s);
}

typedef struct fill_t {
    uint8_t *dst;
    size_t pitch, width, height; // width in elements
    unsigned element;
    uint32_t value;
} fill_t;

static void run_fill(sim_op_t *op) {
    fill_t *f = op->data;
    if (atomic_load(&sim_sticky) != 0)
        return;
    for (size_t y = 0; y < f->height; ++y)
        for (size_t x = 0; x < f->width; ++x)
            memcpy(f->dst + y * f->pitch + x * f->element, &f->value, f->element);
}

static CUresult fill(CUdeviceptr dst, size_t pitch, uint32_t value, unsigned element, size_t width,
                     size_t height, CUstream s) {
    SIM_STICKY();
    if (dst % element != 0 || pitch % element != 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (height > 0 && width > 0 && !device_range(dst, (height - 1) * pitch + width * element))
        return CUDA_ERROR_INVALID_VALUE;
    CUresult captured = CUDA_SUCCESS;
    if (sim_capture_fill(s, dst, pitch, value, element, width, height, &captured))
        return captured;
    fill_t *f = malloc(sizeof *f);
    if (f == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *f = (fill_t){(uint8_t *)dst, pitch, width, height, element, value};
    return sim_enqueue(s, run_fill, f);
}

SIM_EXPORT CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s) {
    sim_count_call();
    return fill(d, n, v, 1, n, 1, s);
}

SIM_EXPORT CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, CUstream s) {
    sim_count_call();
    return fill(d, n * 2, v, 2, n, 1, s);
}

SIM_EXPORT CUresult cuMemsetD32Async(CUdeviceptr d, unsigned int v, size_t n, CUstream s) {
    sim_count_call();
    return fill(d, n * 4, v, 4, n, 1, s);
}

SIM_EXPORT CUresult cuMemsetD2D8Async(CUdeviceptr d, size_t pitch, unsigned char v, size_t w,
                                      size_t h, CUstream s) {
    sim_count_call();
    return fill(d, pitch, v, 1, w, h, s);
}

SIM_EXPORT CUresult cuMemsetD2D16Async(CUdeviceptr d, size_t pitch, unsigned short v, size_t w,
                                       size_t h, CUstream s) {
    sim_count_call();
    return fill(d, pitch, v, 2, w, h, s);
}

SIM_EXPORT CUresult cuMemsetD2D32Async(CUdeviceptr d, size_t pitch, unsigned int v, size_t w,
                                       size_t h, CUstream s) {
    sim_count_call();
    return fill(d, pitch, v, 4, w, h, s);
}

// Hints only: the simulated managed memory never moves.
SIM_EXPORT CUresult cuMemPrefetchAsync_v2(CUdeviceptr p, size_t size, CUmemLocation loc,
                                          unsigned int flags, CUstream s) {
    sim_count_call();
    (void)loc;
    (void)flags;
    (void)s;
    SIM_STICKY();
    return device_range(p, size) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

SIM_EXPORT CUresult cuMemAdvise_v2(CUdeviceptr p, size_t size, CUmem_advise advice,
                                   CUmemLocation loc) {
    sim_count_call();
    (void)advice;
    (void)loc;
    SIM_STICKY();
    return device_range(p, size) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
