// SPDX-License-Identifier: MIT
// USM allocations: aligned host memory, tracked in a sorted table for pointer queries.
#include "mem_export.h"
#include "ze_sim_internal.h"
#include "ze_sim_entry.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

// Sorted by base so an interior pointer is found by binary search.
static struct {
    pthread_mutex_t lock;
    sim_alloc_info_t *v;
    size_t n, cap;
    uint64_t next_id;
    uint64_t device_bytes;
} g_mem = {.lock = PTHREAD_MUTEX_INITIALIZER, .next_id = 1};

// Index of the last allocation whose base is <= p, or SIZE_MAX; lock held.
static size_t find_floor(uintptr_t p) {
    size_t lo = 0, hi = g_mem.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g_mem.v[mid].base <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? lo - 1 : SIZE_MAX;
}

// Index of the allocation containing p, or SIZE_MAX; lock held.
static size_t find_containing(uintptr_t p) {
    size_t i = find_floor(p);
    if (i == SIZE_MAX || p - g_mem.v[i].base >= g_mem.v[i].size)
        return SIZE_MAX;
    return i;
}

int sim_mem_lookup(const void *ptr, sim_alloc_info_t *out) {
    pthread_mutex_lock(&g_mem.lock);
    size_t i = find_containing((uintptr_t)ptr);
    if (i != SIZE_MAX && out)
        *out = g_mem.v[i];
    pthread_mutex_unlock(&g_mem.lock);
    return i != SIZE_MAX;
}

ze_result_t sim_mem_check_range(const void *ptr, size_t size) {
    sim_alloc_info_t a;
    if (!sim_mem_lookup(ptr, &a))
        return ZE_RESULT_SUCCESS; // plain host memory: nothing to check against
    return size <= a.size - ((uintptr_t)ptr - a.base) ? ZE_RESULT_SUCCESS
                                                      : ZE_RESULT_ERROR_INVALID_SIZE;
}

uint64_t sim_mem_device_bytes(void) {
    pthread_mutex_lock(&g_mem.lock);
    uint64_t n = g_mem.device_bytes;
    pthread_mutex_unlock(&g_mem.lock);
    return n;
}

uint64_t sim_mem_live_count(void) {
    pthread_mutex_lock(&g_mem.lock);
    uint64_t n = g_mem.n;
    pthread_mutex_unlock(&g_mem.lock);
    return n;
}

// ze_relaxed_allocation_limits_exp_desc_t lifts the 4 GiB cap on a single allocation.
static int relaxed_limits(const void *pnext) {
    const ze_relaxed_allocation_limits_exp_desc_t *d =
        sim_find_ext_const(pnext, ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC);
    return d && (d->flags & ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE);
}

static void release_memory(void *p, size_t size, unsigned flags) {
    if (flags & (SIM_ALLOC_MAPPED | SIM_ALLOC_IPC_VIEW))
        munmap(p, size);
    else
        free(p);
}

// Enters an allocation in the sorted table; device and shared memory count against the 8 GiB
// of simulated device memory (opened IPC views do not: their exporter counted them).
static ze_result_t insert(void *p, size_t size, ze_memory_type_t type, sim_device_t *dev,
                          sim_context_t *ctx, unsigned flags) {
    const int counted = type != ZE_MEMORY_TYPE_HOST && !(flags & SIM_ALLOC_IPC_VIEW);
    ze_result_t r = ZE_RESULT_SUCCESS;
    pthread_mutex_lock(&g_mem.lock);
    if (counted && g_mem.device_bytes + size > SIM_TOTAL_MEMORY)
        r = ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    // The table doubles; allocations are rare enough that memmove on insert is fine.
    if (r == ZE_RESULT_SUCCESS && g_mem.n == g_mem.cap) {
        size_t cap = g_mem.cap ? g_mem.cap * 2 : 64;
        sim_alloc_info_t *v = realloc(g_mem.v, cap * sizeof(*v));
        if (v != NULL) {
            g_mem.v = v;
            g_mem.cap = cap;
        } else {
            r = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
    }
    if (r == ZE_RESULT_SUCCESS) {
        size_t at = find_floor((uintptr_t)p) + 1; // SIZE_MAX + 1 wraps to 0: insert first
        memmove(&g_mem.v[at + 1], &g_mem.v[at], (g_mem.n - at) * sizeof(g_mem.v[0]));
        g_mem.v[at] =
            (sim_alloc_info_t){(uintptr_t)p, size, type, g_mem.next_id++, dev, ctx, flags};
        g_mem.n++;
        if (counted)
            g_mem.device_bytes += size;
    }
    pthread_mutex_unlock(&g_mem.lock);
    return r;
}

// Removes entry i; lock held.
static void remove_at(size_t i) {
    if (g_mem.v[i].type != ZE_MEMORY_TYPE_HOST && !(g_mem.v[i].flags & SIM_ALLOC_IPC_VIEW))
        g_mem.device_bytes -= g_mem.v[i].size;
    memmove(&g_mem.v[i], &g_mem.v[i + 1], (g_mem.n - i - 1) * sizeof(g_mem.v[0]));
    g_mem.n--;
}

ze_result_t sim_mem_track(void *p, size_t size, ze_memory_type_t type, sim_device_t *dev,
                          sim_context_t *ctx, unsigned flags) {
    return insert(p, size, type, dev, ctx, flags);
}

int sim_mem_untrack(const void *p, unsigned flags, sim_alloc_info_t *out) {
    pthread_mutex_lock(&g_mem.lock);
    size_t i = find_floor((uintptr_t)p);
    int found =
        i != SIZE_MAX && g_mem.v[i].base == (uintptr_t)p && (g_mem.v[i].flags & flags) == flags;
    if (found) {
        *out = g_mem.v[i];
        remove_at(i);
    }
    pthread_mutex_unlock(&g_mem.lock);
    return found;
}

static ze_result_t mem_alloc(ze_context_handle_t hContext, ze_memory_type_t type, size_t size,
                             size_t alignment, ze_device_handle_t hDevice, int relaxed,
                             ze_external_memory_type_flags_t export_types, void **pptr) {
    ze_result_t r;
    sim_context_t *ctx = sim_obj(hContext, SIM_KIND_CONTEXT, &r);
    if (!ctx)
        return r;
    sim_device_t *dev = NULL;
    if (hDevice && !(dev = sim_obj(hDevice, SIM_KIND_DEVICE, &r)))
        return r;
    if (!pptr)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (size == 0 || (size > SIM_MAX_ALLOC && !relaxed) || size > SIM_TOTAL_MEMORY)
        return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    // Zero means the default alignment; anything else must be a power of two.
    if (alignment & (alignment - 1))
        return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
    r = sim_inject_take(ZE_SIM_FAIL_MEM_ALLOC);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    const int on_device = type != ZE_MEMORY_TYPE_HOST;
    const ze_result_t oom =
        on_device ? ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY : ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;

    void *p = NULL;
    unsigned flags = 0;
    if (export_types != 0) {
        // A memfd mapping of its own (mem_export.c), zero like a fresh file; freed by
        // sim_export_unmap.
        if ((p = sim_export_map(size, alignment, export_types)) == NULL)
            return oom;
    } else if (type == ZE_MEMORY_TYPE_DEVICE && alignment <= SIM_PAGE_SIZE) {
        // Whole pages of their own, so that an IPC export can swap a memfd in beneath them.
        p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
        if (p == MAP_FAILED)
            return oom;
        flags = SIM_ALLOC_MAPPED;
    } else {
        if (posix_memalign(&p, alignment > SIM_DEFAULT_ALIGN ? alignment : SIM_DEFAULT_ALIGN, size))
            return oom;
        // Zeroed so that tests are deterministic; real device memory holds garbage.
        memset(p, 0, size);
    }
    r = insert(p, size, type, dev, ctx, flags);
    if (r != ZE_RESULT_SUCCESS) {
        if (!sim_export_unmap(p))
            release_memory(p, size, flags);
        return oom;
    }
    *pptr = p;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_mem_alloc_shared(ze_context_handle_t hContext,
                                 const ze_device_mem_alloc_desc_t *device_desc,
                                 const ze_host_mem_alloc_desc_t *host_desc, size_t size,
                                 size_t alignment, ze_device_handle_t hDevice, void **pptr) {
    if (!device_desc || !host_desc)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    return mem_alloc(hContext, ZE_MEMORY_TYPE_SHARED, size, alignment, hDevice,
                     relaxed_limits(device_desc->pNext), 0, pptr);
}

// Device memory mapped from an external descriptor (mem_import.c), freed by sim_import_unmap.
static ze_result_t import_device(ze_context_handle_t hContext,
                                 const ze_device_mem_alloc_desc_t *device_desc, size_t size,
                                 ze_device_handle_t hDevice, void **pptr) {
    ze_result_t r;
    sim_context_t *ctx = sim_obj(hContext, SIM_KIND_CONTEXT, &r);
    sim_device_t *dev = ctx ? sim_obj(hDevice, SIM_KIND_DEVICE, &r) : NULL;
    if (!dev)
        return r;
    if (!pptr)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    void *p = NULL;
    if ((r = sim_import_map(device_desc->pNext, size, &p)) != ZE_RESULT_SUCCESS)
        return r;
    if ((r = insert(p, size, ZE_MEMORY_TYPE_DEVICE, dev, ctx, 0)) != ZE_RESULT_SUCCESS) {
        sim_import_unmap(p);
        return r;
    }
    *pptr = p;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_mem_alloc_device(ze_context_handle_t hContext,
                                 const ze_device_mem_alloc_desc_t *device_desc, size_t size,
                                 size_t alignment, ze_device_handle_t hDevice, void **pptr) {
    if (!hDevice)
        return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!device_desc)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    ze_external_memory_type_flags_t export_types = 0;
    ze_result_t r = sim_export_types(device_desc->pNext, &export_types);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    if (sim_find_ext_const(device_desc->pNext, ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD))
        return import_device(hContext, device_desc, size, hDevice, pptr);
    return mem_alloc(hContext, ZE_MEMORY_TYPE_DEVICE, size, alignment, hDevice,
                     relaxed_limits(device_desc->pNext), export_types, pptr);
}

ze_result_t sim_mem_alloc_host(ze_context_handle_t hContext,
                               const ze_host_mem_alloc_desc_t *host_desc, size_t size,
                               size_t alignment, void **pptr) {
    if (!host_desc)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    return mem_alloc(hContext, ZE_MEMORY_TYPE_HOST, size, alignment, NULL,
                     relaxed_limits(host_desc->pNext), 0, pptr);
}

ze_result_t sim_mem_free(ze_context_handle_t hContext, void *ptr) {
    ze_result_t r;
    sim_context_t *ctx = sim_obj(hContext, SIM_KIND_CONTEXT, &r);
    if (!ctx)
        return r;
    if (!ptr)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    pthread_mutex_lock(&g_mem.lock);
    size_t i = find_floor((uintptr_t)ptr);
    // Only the base pointer frees, and only through the context that allocated it; an opened
    // IPC view is closed, not freed.
    if (i == SIZE_MAX || g_mem.v[i].base != (uintptr_t)ptr || g_mem.v[i].context != ctx ||
        (g_mem.v[i].flags & SIM_ALLOC_IPC_VIEW)) {
        pthread_mutex_unlock(&g_mem.lock);
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    // Taken out under the lock, so a concurrent lookup never sees a dangling entry.
    sim_alloc_info_t a = g_mem.v[i];
    remove_at(i);
    pthread_mutex_unlock(&g_mem.lock);
    if (a.flags & SIM_ALLOC_MAPPED)
        sim_ipc_forget(ptr);
    if (!sim_export_unmap(ptr) && !sim_import_unmap(ptr))
        release_memory(ptr, a.size, a.flags);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_mem_free_ext(ze_context_handle_t hContext, const ze_memory_free_ext_desc_t *desc,
                             void *ptr) {
    if (!desc)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->freePolicy &
        ~(ze_driver_memory_free_policy_ext_flags_t)(ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE |
                                                    ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE))
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    // Commands that already ran are complete, so both policies reduce to an immediate free.
    return sim_mem_free(hContext, ptr);
}

ze_result_t sim_mem_get_alloc_properties(ze_context_handle_t hContext, const void *ptr,
                                         ze_memory_allocation_properties_t *props,
                                         ze_device_handle_t *phDevice) {
    ze_result_t r;
    sim_context_t *ctx = sim_obj(hContext, SIM_KIND_CONTEXT, &r);
    if (!ctx)
        return r;
    if (!ptr || !props)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // Unknown memory is not an error: the specification answers ZE_MEMORY_TYPE_UNKNOWN, also
    // for memory of another context, as drivers do.
    sim_alloc_info_t a;
    if (!sim_mem_lookup(ptr, &a) || a.context != ctx) {
        props->type = ZE_MEMORY_TYPE_UNKNOWN;
        props->id = 0;
        props->pageSize = 0;
        if (phDevice)
            *phDevice = NULL;
        return ZE_RESULT_SUCCESS;
    }
    props->type = a.type;
    props->id = a.id;
    props->pageSize = SIM_PAGE_SIZE;
    if (phDevice)
        *phDevice = (ze_device_handle_t)a.device;
    return sim_export_fill((const void *)a.base, props->pNext); // an export descriptor asked for
}

ze_result_t sim_mem_get_address_range(ze_context_handle_t hContext, const void *ptr, void **pBase,
                                      size_t *pSize) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r))
        return r;
    if (!ptr)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    sim_alloc_info_t a;
    if (!sim_mem_lookup(ptr, &a))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    if (pBase)
        *pBase = (void *)a.base;
    if (pSize)
        *pSize = a.size;
    return ZE_RESULT_SUCCESS;
}
