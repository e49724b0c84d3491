// SPDX-License-Identifier: MIT
// Imported memory: zeMemAllocDevice, or zeImageCreate of a bindless image (bindless.c), with
// ze_external_memory_import_fd_t maps the file descriptor's first bytes shared, so the
// allocation and whoever exported the descriptor (another API; here a test's memfd) see the
// same bytes. The descriptor stays the caller's; the mapping ends at zeMemFree or
// zeImageDestroy. Opaque descriptors and DMA buffers are both plain mappable files here.
#include "ze_sim_internal.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct imported_t {
    void *base;
    size_t mapped;
    struct imported_t *next;
} imported_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static imported_t *list;

static const ze_external_memory_type_flags_t importable =
    ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD | ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;

ze_result_t sim_import_map(const void *pnext, size_t size, void **out) {
    *out = NULL;
    const ze_external_memory_import_fd_t *d =
        sim_find_ext_const(pnext, ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD);
    if (d == NULL)
        return ZE_RESULT_SUCCESS;
    // Exactly one type, one the simulator imports (Win32 handles cannot exist on Linux).
    if (d->flags == 0 || (d->flags & (d->flags - 1)) != 0 || (d->flags & ~importable) != 0)
        return ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    struct stat st;
    if (d->fd < 0 || fstat(d->fd, &st) != 0 || size == 0 || (uint64_t)st.st_size < size)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT; // not a file, or smaller than asked for
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t mapped = (size + page - 1) / page * page;
    imported_t *e = malloc(sizeof *e);
    void *p = e ? mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd, 0) : MAP_FAILED;
    if (p == MAP_FAILED) {
        free(e);
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    *e = (imported_t){p, mapped, NULL};
    pthread_mutex_lock(&lock);
    e->next = list;
    list = e;
    pthread_mutex_unlock(&lock);
    *out = p;
    return ZE_RESULT_SUCCESS;
}

int sim_import_unmap(void *base) {
    imported_t *found = NULL;
    pthread_mutex_lock(&lock);
    for (imported_t **at = &list; *at != NULL; at = &(*at)->next)
        if ((*at)->base == base) {
            found = *at;
            *at = found->next;
            break;
        }
    pthread_mutex_unlock(&lock);
    if (found == NULL)
        return 0;
    munmap(found->base, found->mapped);
    free(found);
    return 1;
}
