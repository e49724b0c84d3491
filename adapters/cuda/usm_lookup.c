// SPDX-License-Identifier: MIT
// Which allocation holds a pointer, for the range check of every USM command: asked of the
// driver (cuPointerGetAttributes) once, then remembered per thread (common/memory/usm_range.h)
// until the adapter next changes the driver's map of allocations. Every table entry that changes
// that map is wrapped here, so no allocating or freeing path can forget to say so.
#include "cuda_internal.h"
#include "memory/usm_range.h"
#include "memory/vm_map.h"

static bool driver_lookup(void *backend, const void *ptr, const void **base, size_t *size) {
    (void)backend;
    // The driver answers for one map of virtual memory; pieces mapped side by side in a
    // reservation are one run of valid memory.
    if (urc_vm_mapped_run(ptr, base, size))
        return true;
    cuda_pointer_t info;
    if (cuda_pointer_query(ptr, &info) != UR_RESULT_SUCCESS || info.memory_type == 0 ||
        info.base == 0)
        return false;
    *base = (const void *)(uintptr_t)info.base;
    *size = info.range;
    return true;
}

urc_usm_lookup_cache_t cuda_usm_lookups = {.lookup = driver_lookup};

// The driver's entry, kept, and a wrapper that calls it and then forgets: after, not before,
// so that no lookup made between the two can be remembered as current.
#define CUDA_FORGETTING(field, params, args)                                                       \
    static __typeof__(cu.field) real_##field;                                                      \
    static CUresult CUDAAPI forget_after_##field params {                                          \
        CUresult r = real_##field args;                                                            \
        urc_usm_lookup_cache_forget(&cuda_usm_lookups);                                            \
        return r;                                                                                  \
    }

CUDA_FORGETTING(MemAlloc, (CUdeviceptr * p, size_t n), (p, n))
CUDA_FORGETTING(MemFree, (CUdeviceptr p), (p))
CUDA_FORGETTING(MemAllocHost, (void **p, size_t n), (p, n))
CUDA_FORGETTING(MemFreeHost, (void *p), (p))
CUDA_FORGETTING(MemHostAlloc, (void **p, size_t n, unsigned int f), (p, n, f))
CUDA_FORGETTING(MemAllocManaged, (CUdeviceptr * p, size_t n, unsigned int f), (p, n, f))
CUDA_FORGETTING(MemHostRegister, (void *p, size_t n, unsigned int f), (p, n, f))
CUDA_FORGETTING(MemHostUnregister, (void *p), (p))
CUDA_FORGETTING(MemAllocPitch, (CUdeviceptr * p, size_t *pitch, size_t w, size_t h, unsigned e),
                (p, pitch, w, h, e))
CUDA_FORGETTING(MemAddressFree, (CUdeviceptr p, size_t n), (p, n))
CUDA_FORGETTING(MemMap,
                (CUdeviceptr p, size_t n, size_t off, CUmemGenericAllocationHandle h,
                 unsigned long long f),
                (p, n, off, h, f))
CUDA_FORGETTING(MemUnmap, (CUdeviceptr p, size_t n), (p, n))
CUDA_FORGETTING(MemAllocFromPoolAsync, (CUdeviceptr * p, size_t n, CUmemoryPool pool, CUstream s),
                (p, n, pool, s))
CUDA_FORGETTING(MemFreeAsync, (CUdeviceptr p, CUstream s), (p, s))
CUDA_FORGETTING(IpcOpenMemHandle, (CUdeviceptr * p, CUipcMemHandle h, unsigned int f), (p, h, f))
CUDA_FORGETTING(IpcCloseMemHandle, (CUdeviceptr p), (p))
CUDA_FORGETTING(ExternalMemoryGetMappedBuffer,
                (CUdeviceptr * p, CUexternalMemory m, const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *d),
                (p, m, d))
CUDA_FORGETTING(DestroyExternalMemory, (CUexternalMemory m), (m))

#define CUDA_WRAP(field)                                                                           \
    if (cu.field != NULL) {                                                                        \
        real_##field = cu.field;                                                                   \
        cu.field = forget_after_##field;                                                           \
    }

void cuda_usm_lookup_wrap_driver(void) {
    CUDA_WRAP(MemAlloc)
    CUDA_WRAP(MemFree)
    CUDA_WRAP(MemAllocHost)
    CUDA_WRAP(MemFreeHost)
    CUDA_WRAP(MemHostAlloc)
    CUDA_WRAP(MemAllocManaged)
    CUDA_WRAP(MemHostRegister)
    CUDA_WRAP(MemHostUnregister)
    CUDA_WRAP(MemAllocPitch)
    CUDA_WRAP(MemAddressFree)
    CUDA_WRAP(MemMap)
    CUDA_WRAP(MemUnmap)
    CUDA_WRAP(MemAllocFromPoolAsync)
    CUDA_WRAP(MemFreeAsync)
    CUDA_WRAP(IpcOpenMemHandle)
    CUDA_WRAP(IpcCloseMemHandle)
    CUDA_WRAP(ExternalMemoryGetMappedBuffer)
    CUDA_WRAP(DestroyExternalMemory)
}

void cuda_rules(const cuda_device_t *dev, urc_rules_t *out) {
    *out = (urc_rules_t){.lookup = urc_usm_lookup_cached, .backend = &cuda_usm_lookups};
    out->limits.max_group_items = (size_t)dev->max_threads_per_block;
    for (int d = 0; d < 3; ++d) {
        out->limits.max_group[d] = (size_t)dev->max_block[d];
        out->limits.max_groups[d] = (uint64_t)dev->max_grid[d];
    }
}
