// SPDX-License-Identifier: MIT
// Virtual memory (zeVirtualMem*) and physical memory (zePhysicalMem*). Physical memory is a
// memfd; zeVirtualMemMap maps it over a PROT_NONE reservation, so two mappings of it alias as
// on the device, and access attributes are mprotect.
#include "ze_sim_entry.h"
#include "ze_sim_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define SIM_PAGE ((size_t)64 << 10)

typedef struct sim_physical {
    sim_header_t hdr;
    int fd;
    size_t size;
} sim_physical_t;

typedef struct sim_range {
    uintptr_t base;
    size_t size;
    ze_memory_access_attribute_t access; // of mapped pages; one value per range is enough here
    struct sim_range *next;
} sim_range_t;

static pthread_mutex_t vmm_lock = PTHREAD_MUTEX_INITIALIZER;
static sim_range_t *reservations, *mappings;

static bool paged(size_t v) {
    return v != 0 && v % SIM_PAGE == 0;
}

// The range of `list` holding [p, p + n), or NULL; vmm_lock held.
static sim_range_t *holding(sim_range_t *list, uintptr_t p, size_t n) {
    for (sim_range_t *r = list; r != NULL; r = r->next)
        if (p >= r->base && n <= r->size && p - r->base <= r->size - n)
            return r;
    return NULL;
}

// True when [p, p + n) overlaps a mapping; vmm_lock held.
static bool overlaps_mapping(uintptr_t p, size_t n) {
    for (sim_range_t *r = mappings; r != NULL; r = r->next)
        if (p < r->base + r->size && r->base < p + n)
            return true;
    return false;
}

static ze_result_t add_range(sim_range_t **list, uintptr_t base, size_t size,
                             ze_memory_access_attribute_t access) {
    sim_range_t *r = malloc(sizeof *r);
    if (r == NULL)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    *r = (sim_range_t){base, size, access, *list};
    *list = r;
    return ZE_RESULT_SUCCESS;
}

static bool remove_range(sim_range_t **list, uintptr_t base, size_t size) {
    for (sim_range_t **at = list; *at != NULL; at = &(*at)->next)
        if ((*at)->base == base && (*at)->size == size) {
            sim_range_t *r = *at;
            *at = r->next;
            free(r);
            return true;
        }
    return false;
}

ze_result_t sim_virtual_mem_query_page_size(ze_context_handle_t hContext,
                                            ze_device_handle_t hDevice, size_t size,
                                            size_t *pagesize) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r) || !sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    if (pagesize == NULL)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    (void)size;
    *pagesize = SIM_PAGE;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_virtual_mem_reserve(ze_context_handle_t hContext, const void *start, size_t size,
                                    void **pptr) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r))
        return r;
    if (pptr == NULL)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (!paged(size))
        return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    // Reservations start on a page, as the driver's do: over-reserve, then trim both ends.
    (void)start; // a hint only
    char *raw =
        mmap(NULL, size + SIM_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED)
        return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    char *p = (char *)(((uintptr_t)raw + SIM_PAGE - 1) & ~(uintptr_t)(SIM_PAGE - 1));
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    munmap(p + size, (size_t)(raw + size + SIM_PAGE - (p + size)));
    pthread_mutex_lock(&vmm_lock);
    r = add_range(&reservations, (uintptr_t)p, size, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
    pthread_mutex_unlock(&vmm_lock);
    if (r != ZE_RESULT_SUCCESS) {
        munmap(p, size);
        return r;
    }
    *pptr = p;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_virtual_mem_free(ze_context_handle_t hContext, const void *ptr, size_t size) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r))
        return r;
    pthread_mutex_lock(&vmm_lock);
    bool found = remove_range(&reservations, (uintptr_t)ptr, size);
    pthread_mutex_unlock(&vmm_lock);
    if (!found)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    munmap((void *)ptr, size);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_physical_mem_create(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                    ze_physical_mem_desc_t *desc,
                                    ze_physical_mem_handle_t *phPhysicalMemory) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r) || !sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    if (desc == NULL || phPhysicalMemory == NULL)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (!paged(desc->size))
        return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    sim_physical_t *m = calloc(1, sizeof *m);
    if (m == NULL)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    m->fd = memfd_create("ze_sim_physical", MFD_CLOEXEC);
    if (m->fd < 0 || ftruncate(m->fd, (off_t)desc->size) != 0) {
        if (m->fd >= 0)
            close(m->fd);
        free(m);
        return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    m->size = desc->size;
    sim_obj_init(&m->hdr, SIM_KIND_PHYSICAL_MEM);
    *phPhysicalMemory = (ze_physical_mem_handle_t)m;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_physical_mem_destroy(ze_context_handle_t hContext,
                                     ze_physical_mem_handle_t hPhysicalMemory) {
    ze_result_t r;
    sim_physical_t *m = NULL;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r) ||
        !(m = sim_obj(hPhysicalMemory, SIM_KIND_PHYSICAL_MEM, &r)))
        return r;
    close(m->fd); // live mappings keep the memory
    sim_obj_fini(&m->hdr);
    free(m);
    return ZE_RESULT_SUCCESS;
}

static int prot_of(ze_memory_access_attribute_t a) {
    return a == ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE  ? PROT_READ | PROT_WRITE
           : a == ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY ? PROT_READ
                                                      : PROT_NONE;
}

ze_result_t sim_virtual_mem_map(ze_context_handle_t hContext, const void *ptr, size_t size,
                                ze_physical_mem_handle_t hPhysicalMemory, size_t offset,
                                ze_memory_access_attribute_t access) {
    ze_result_t r;
    sim_physical_t *m = NULL;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r) ||
        !(m = sim_obj(hPhysicalMemory, SIM_KIND_PHYSICAL_MEM, &r)))
        return r;
    if ((uint32_t)access > ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (!paged(size) || offset % SIM_PAGE != 0 || offset > m->size || size > m->size - offset)
        return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
    uintptr_t p = (uintptr_t)ptr;
    pthread_mutex_lock(&vmm_lock);
    r = !holding(reservations, p, size) || p % SIM_PAGE != 0 ? ZE_RESULT_ERROR_INVALID_ARGUMENT
        : overlaps_mapping(p, size)                          ? ZE_RESULT_ERROR_INVALID_ARGUMENT
                                                             : ZE_RESULT_SUCCESS;
    if (r == ZE_RESULT_SUCCESS && mmap((void *)p, size, prot_of(access), MAP_SHARED | MAP_FIXED,
                                       m->fd, (off_t)offset) == MAP_FAILED)
        r = ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    if (r == ZE_RESULT_SUCCESS)
        r = add_range(&mappings, p, size, access);
    pthread_mutex_unlock(&vmm_lock);
    return r;
}

ze_result_t sim_virtual_mem_unmap(ze_context_handle_t hContext, const void *ptr, size_t size) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r))
        return r;
    pthread_mutex_lock(&vmm_lock);
    bool found = remove_range(&mappings, (uintptr_t)ptr, size);
    if (found)
        mmap((void *)ptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE,
             -1, 0);
    pthread_mutex_unlock(&vmm_lock);
    return found ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

ze_result_t sim_virtual_mem_set_access_attribute(ze_context_handle_t hContext, const void *ptr,
                                                 size_t size, ze_memory_access_attribute_t access) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r))
        return r;
    if ((uint32_t)access > ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    pthread_mutex_lock(&vmm_lock);
    sim_range_t *m = holding(mappings, (uintptr_t)ptr, size);
    if (m != NULL && mprotect((void *)ptr, size, prot_of(access)) == 0)
        m->access = access;
    pthread_mutex_unlock(&vmm_lock);
    return m != NULL ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

ze_result_t sim_virtual_mem_get_access_attribute(ze_context_handle_t hContext, const void *ptr,
                                                 size_t size, ze_memory_access_attribute_t *access,
                                                 size_t *outSize) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r))
        return r;
    if (access == NULL || outSize == NULL)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    pthread_mutex_lock(&vmm_lock);
    sim_range_t *m = holding(mappings, (uintptr_t)ptr, size);
    if (m != NULL) {
        *access = m->access;
        *outSize = m->size - ((uintptr_t)ptr - m->base);
    }
    pthread_mutex_unlock(&vmm_lock);
    return m != NULL ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}
