// SPDX-License-Identifier: MIT
// Exportable device memory: zeMemAllocDevice with ze_external_memory_export_desc_t (opaque file
// descriptor or DMA buffer) backs the allocation with a memfd mapped shared, and
// zeMemGetAllocProperties with ze_external_memory_export_fd_t hands out a duplicate of that
// descriptor. Mapping the descriptor again (mmap) shows the same bytes, as importing it would.
#include "mem_export.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct exported_t {
    void *base;
    size_t size, mapped; // asked for; mapped, page-rounded
    int fd;
    ze_external_memory_type_flags_t types;
    struct exported_t *next;
} exported_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static exported_t *list;

static const ze_external_memory_type_flags_t exportable =
    ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD | ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;

ze_result_t sim_export_types(const void *pnext, ze_external_memory_type_flags_t *types) {
    const ze_external_memory_export_desc_t *d =
        sim_find_ext_const(pnext, ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC);
    *types = d != NULL ? d->flags : 0;
    if (*types & ~exportable)
        return ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION; // Win32 handles on Linux
    return ZE_RESULT_SUCCESS;
}

void *sim_export_map(size_t size, size_t alignment, ze_external_memory_type_flags_t types) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t mapped = (size + page - 1) / page * page;
    size_t align = alignment > page ? alignment : page;
    exported_t *e = calloc(1, sizeof *e);
    int fd = memfd_create("ze_sim_exportable", MFD_CLOEXEC);
    if (e == NULL || fd < 0 || ftruncate(fd, (off_t)mapped) != 0)
        goto fail;
    // Over-reserve, then place the shared mapping on the alignment asked for.
    char *raw = mmap(NULL, mapped + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        goto fail;
    char *p = (char *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
    if (mmap(p, mapped, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
        munmap(raw, mapped + align);
        goto fail;
    }
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    munmap(p + mapped, (size_t)(raw + mapped + align - (p + mapped)));
    *e = (exported_t){p, size, mapped, fd, types, NULL};
    pthread_mutex_lock(&lock);
    e->next = list;
    list = e;
    pthread_mutex_unlock(&lock);
    return p;
fail:
    if (fd >= 0)
        close(fd);
    free(e);
    return NULL;
}

int sim_export_unmap(void *base) {
    exported_t *found = NULL;
    pthread_mutex_lock(&lock);
    for (exported_t **at = &list; *at != NULL; at = &(*at)->next)
        if ((*at)->base == base) {
            found = *at;
            *at = found->next;
            break;
        }
    pthread_mutex_unlock(&lock);
    if (found == NULL)
        return 0;
    munmap(found->base, found->mapped);
    close(found->fd);
    free(found);
    return 1;
}

ze_result_t sim_export_fill(const void *base, void *pnext) {
    ze_external_memory_export_fd_t *out =
        sim_find_ext(pnext, ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD);
    if (out == NULL)
        return ZE_RESULT_SUCCESS;
    int fd = -1;
    ze_result_t r = ZE_RESULT_ERROR_INVALID_ARGUMENT; // not exportable memory
    pthread_mutex_lock(&lock);
    for (exported_t *e = list; e != NULL; e = e->next)
        if (e->base == base) {
            // One type at a time, and one the allocation was made for.
            if (out->flags == 0 || (out->flags & (out->flags - 1)) != 0 ||
                (out->flags & e->types) == 0)
                r = ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
            else if ((fd = fcntl(e->fd, F_DUPFD_CLOEXEC, 0)) < 0)
                r = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            else
                r = ZE_RESULT_SUCCESS;
            break;
        }
    pthread_mutex_unlock(&lock);
    if (r == ZE_RESULT_SUCCESS)
        out->fd = fd;
    return r;
}
