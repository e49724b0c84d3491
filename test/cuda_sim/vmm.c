// SPDX-License-Identifier: MIT
// Virtual memory management (cuMemAddressReserve, cuMemCreate, cuMemMap, ...), pitched
// allocation and peer access. Physical memory is a memfd; mapping it is mmap over a reserved
// PROT_NONE range, so two mappings of one allocation really alias, and access rights are
// mprotect. Mapped ranges join the memory registry as device memory, so copies see them.
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cuda_sim_internal.h"

typedef struct sim_reservation_t {
    uintptr_t base;
    size_t size;
    struct sim_reservation_t *next;
} sim_reservation_t;

static pthread_mutex_t vmm_lock = PTHREAD_MUTEX_INITIALIZER;
static sim_reservation_t *reservations;

// True when [p, p + size) lies inside one reservation.
static bool reserved(uintptr_t p, size_t size) {
    bool ok = false;
    pthread_mutex_lock(&vmm_lock);
    for (sim_reservation_t *r = reservations; r != NULL && !ok; r = r->next)
        ok = p >= r->base && size <= r->size && p - r->base <= r->size - size;
    pthread_mutex_unlock(&vmm_lock);
    return ok;
}

bool sim_vmm_reserved(uintptr_t p) {
    return reserved(p, 1);
}

static bool granular(size_t v) {
    return v != 0 && v % SIM_GRANULARITY == 0;
}

SIM_EXPORT CUresult cuMemGetAllocationGranularity(size_t *granularity,
                                                  const CUmemAllocationProp *prop,
                                                  CUmemAllocationGranularity_flags option) {
    (void)option;
    if (granularity == NULL || prop == NULL || prop->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
        prop->location.id != 0)
        return CUDA_ERROR_INVALID_VALUE;
    *granularity = SIM_GRANULARITY;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment,
                                        CUdeviceptr addr, unsigned long long flags) {
    SIM_STICKY();
    if (ptr == NULL || !granular(size) || flags != 0 || (alignment & (alignment - 1)))
        return CUDA_ERROR_INVALID_VALUE;
    sim_reservation_t *r = malloc(sizeof *r);
    if (r == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    // The address asked for is a hint, as with the real driver. Reservations start on the
    // granularity: over-reserve, then trim both ends.
    (void)addr;
    size_t align = alignment > SIM_GRANULARITY ? alignment : SIM_GRANULARITY;
    char *raw =
        mmap(NULL, size + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) {
        free(r);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    char *p = (char *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    munmap(p + size, (size_t)(raw + size + align - (p + size)));
    r->base = (uintptr_t)p;
    r->size = size;
    pthread_mutex_lock(&vmm_lock);
    r->next = reservations;
    reservations = r;
    pthread_mutex_unlock(&vmm_lock);
    *ptr = (CUdeviceptr)p;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size) {
    SIM_STICKY();
    sim_reservation_t *found = NULL;
    pthread_mutex_lock(&vmm_lock);
    for (sim_reservation_t **at = &reservations; *at != NULL; at = &(*at)->next)
        if ((*at)->base == ptr && (*at)->size == size) {
            found = *at;
            *at = found->next;
            break;
        }
    pthread_mutex_unlock(&vmm_lock);
    if (found == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    munmap((void *)ptr, size);
    free(found);
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
                                const CUmemAllocationProp *prop, unsigned long long flags) {
    SIM_STICKY();
    if (handle == NULL || prop == NULL || flags != 0 || !granular(size) ||
        prop->type != CU_MEM_ALLOCATION_TYPE_PINNED ||
        prop->location.type != CU_MEM_LOCATION_TYPE_DEVICE || prop->location.id != 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (size > SIM_TOTAL_MEMORY - SIM_RESERVED_MEMORY - sim_device_bytes_in_use())
        return CUDA_ERROR_OUT_OF_MEMORY;
    sim_physical_t *m = malloc(sizeof *m);
    if (m == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    m->fd = memfd_create("cuda_sim_physical", MFD_CLOEXEC);
    if (m->fd < 0 || ftruncate(m->fd, (off_t)size) != 0) {
        if (m->fd >= 0)
            close(m->fd);
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    m->size = size;
    m->handle_types = (unsigned)prop->requestedHandleTypes;
    *handle = (CUmemGenericAllocationHandle)(uintptr_t)m;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemRelease(CUmemGenericAllocationHandle handle) {
    SIM_STICKY();
    sim_physical_t *m = (sim_physical_t *)(uintptr_t)handle;
    if (m == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    close(m->fd); // live mappings keep the memory
    free(m);
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
                             CUmemGenericAllocationHandle handle, unsigned long long flags) {
    SIM_STICKY();
    sim_physical_t *m = (sim_physical_t *)(uintptr_t)handle;
    if (m == NULL || flags != 0 || !granular(size) || offset % SIM_GRANULARITY != 0 ||
        offset > m->size || size > m->size - offset || !reserved(ptr, size))
        return CUDA_ERROR_INVALID_VALUE;
    sim_alloc_t a;
    if (sim_find_alloc(ptr, &a) || sim_find_alloc(ptr + size - 1, &a))
        return CUDA_ERROR_INVALID_VALUE; // already mapped
    // Mapped but not accessible until cuMemSetAccess, as on the device.
    if (mmap((void *)ptr, size, PROT_NONE, MAP_SHARED | MAP_FIXED, m->fd, (off_t)offset) ==
        MAP_FAILED)
        return CUDA_ERROR_OUT_OF_MEMORY;
    sim_track_global((void *)ptr, size);
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemUnmap(CUdeviceptr ptr, size_t size) {
    SIM_STICKY();
    sim_alloc_t a;
    if (!granular(size) || !reserved(ptr, size) || !sim_find_alloc(ptr, &a) || a.base != ptr ||
        a.size != size)
        return CUDA_ERROR_INVALID_VALUE;
    sim_untrack_global((void *)ptr);
    mmap((void *)ptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1,
         0);
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc,
                                   size_t count) {
    SIM_STICKY();
    if (desc == NULL || count == 0 || !reserved(ptr, size))
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < count; ++i)
        if (desc[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE || desc[i].location.id != 0)
            return CUDA_ERROR_INVALID_DEVICE;
    // Every page of the range must be mapped.
    for (size_t at = 0; at < size; at += SIM_GRANULARITY) {
        sim_alloc_t a;
        if (!sim_find_alloc(ptr + at, &a))
            return CUDA_ERROR_INVALID_VALUE;
    }
    CUmemAccess_flags f = desc[count - 1].flags;
    int prot = f == CU_MEM_ACCESS_FLAGS_PROT_READWRITE ? PROT_READ | PROT_WRITE
               : f == CU_MEM_ACCESS_FLAGS_PROT_READ    ? PROT_READ
                                                       : PROT_NONE;
    return mprotect((void *)ptr, size, prot) == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

// A reserved but unmapped page has no access; a mapped one has the protection cuMemSetAccess
// gave it, read back from /proc/self/maps.
SIM_EXPORT CUresult cuMemGetAccess(unsigned long long *flags, const CUmemLocation *location,
                                   CUdeviceptr ptr) {
    if (flags == NULL || location == NULL || location->type != CU_MEM_LOCATION_TYPE_DEVICE ||
        location->id != 0)
        return CUDA_ERROR_INVALID_VALUE;
    sim_alloc_t a;
    if (!reserved(ptr, 1)) {
        // Driver 580 on an H200 answers for cuMemAlloc memory too: read-write.
        if (!sim_find_alloc(ptr, &a))
            return CUDA_ERROR_INVALID_VALUE;
        *flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        return CUDA_SUCCESS;
    }
    if (!sim_find_alloc(ptr, &a)) {
        *flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
        return CUDA_SUCCESS;
    }
    FILE *maps = fopen("/proc/self/maps", "r");
    if (maps == NULL)
        return CUDA_ERROR_UNKNOWN;
    char line[512];
    *flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
    while (fgets(line, sizeof line, maps) != NULL) {
        unsigned long lo = 0, hi = 0;
        char perms[5] = "";
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && ptr >= lo && ptr < hi) {
            *flags = perms[1] == 'w'   ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE
                     : perms[0] == 'r' ? CU_MEM_ACCESS_FLAGS_PROT_READ
                                       : CU_MEM_ACCESS_FLAGS_PROT_NONE;
            break;
        }
    }
    fclose(maps);
    return CUDA_SUCCESS;
}

// ---- pitched allocation ----

SIM_EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pitch, size_t width,
                                       size_t height, unsigned int element) {
    if (dptr == NULL || pitch == NULL || width == 0 || height == 0 ||
        (element != 4 && element != 8 && element != 16))
        return CUDA_ERROR_INVALID_VALUE;
    size_t p = (width + 511) & ~(size_t)511; // rows on 512-byte boundaries
    if (p < width || height > SIZE_MAX / p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult r = cuMemAlloc_v2(dptr, p * height);
    if (r == CUDA_SUCCESS)
        *pitch = p;
    return r;
}

// ---- peer access: one device, so no peer ----

SIM_EXPORT CUresult cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer) {
    if (can == NULL || dev != 0 || peer != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *can = 0; // a device is not its own peer
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice src,
                                            CUdevice dst) {
    (void)attrib;
    if (value == NULL || src != 0 || dst != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return CUDA_ERROR_INVALID_DEVICE; // the driver refuses a device paired with itself
}

SIM_EXPORT CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned int flags) {
    (void)peer;
    return flags != 0 ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_INVALID_DEVICE;
}

SIM_EXPORT CUresult cuCtxDisablePeerAccess(CUcontext peer) {
    (void)peer;
    return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
}

// One device: a "peer" copy is an ordinary stream copy.
SIM_EXPORT CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src,
                                      CUcontext src_ctx, size_t size, CUstream s) {
    (void)dst_ctx;
    (void)src_ctx;
    return cuMemcpyAsync(dst, src, size, s);
}
