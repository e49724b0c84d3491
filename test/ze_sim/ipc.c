// SPDX-License-Identifier: MIT
// IPC memory handles across processes. Device memory is anonymous pages of its own
// (memory.c); the first zeMemGetIpcHandle of an allocation copies it into a memfd and maps
// the memfd over the same addresses, so the exporter keeps its pointer. The handle names the
// exporter's pid, the memfd's descriptor there and its inode; zeMemOpenIpcHandle opens
// /proc/<pid>/fd/<fd> (a read-mode ptrace check: same user, no attach rights needed), checks
// the inode and maps a view. A handle outlives nothing: its process or allocation gone, it no
// longer opens. Writes racing the first export may be lost (the copy is not atomic).
#include "ze_sim_entry.h"
#include "ze_sim_internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define SIM_IPC_MAGIC 0x5a495043u // "ZIPC"

/// What the 64 bytes of ze_ipc_mem_handle_t carry.
typedef struct sim_ipc_wire {
    uint32_t magic;
    int32_t pid;
    int32_t fd;
    uint32_t reserved;
    uint64_t inode;
    uint64_t size; // of the allocation
} sim_ipc_wire_t;

_Static_assert(sizeof(sim_ipc_wire_t) <= ZE_MAX_IPC_HANDLE_SIZE, "IPC handle too large");

/// An exported allocation of this process.
typedef struct sim_export {
    uintptr_t base;
    size_t size;
    int fd;
    uint64_t inode;
    struct sim_export *next;
} sim_export_t;

static pthread_mutex_t ipc_lock = PTHREAD_MUTEX_INITIALIZER;
static sim_export_t *exports;

static size_t whole_pages(size_t n) {
    return (n + SIM_PAGE_SIZE - 1) & ~(size_t)(SIM_PAGE_SIZE - 1);
}

// Moves the allocation's pages into a memfd mapped at the same address; ipc_lock held.
static ze_result_t export_locked(const sim_alloc_info_t *a, sim_export_t **out) {
    for (sim_export_t *e = exports; e != NULL; e = e->next)
        if (e->base == a->base) {
            *out = e;
            return ZE_RESULT_SUCCESS;
        }
    sim_export_t *e = calloc(1, sizeof *e);
    if (e == NULL)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    const size_t bytes = whole_pages(a->size);
    struct stat st;
    int fd = memfd_create("ze_sim_ipc", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)bytes) != 0 || fstat(fd, &st) != 0)
        goto fail;
    for (size_t done = 0; done < a->size;) {
        ssize_t n = pwrite(fd, (const char *)a->base + done, a->size - done, (off_t)done);
        if (n <= 0)
            goto fail;
        done += (size_t)n;
    }
    if (mmap((void *)a->base, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) ==
        MAP_FAILED)
        goto fail;
    *e = (sim_export_t){a->base, a->size, fd, (uint64_t)st.st_ino, exports};
    exports = e;
    *out = e;
    return ZE_RESULT_SUCCESS;
fail:
    if (fd >= 0)
        close(fd);
    free(e);
    return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
}

void sim_ipc_forget(const void *base) {
    pthread_mutex_lock(&ipc_lock);
    for (sim_export_t **at = &exports; *at != NULL; at = &(*at)->next)
        if ((*at)->base == (uintptr_t)base) {
            sim_export_t *e = *at;
            *at = e->next;
            close(e->fd);
            free(e);
            break;
        }
    pthread_mutex_unlock(&ipc_lock);
}

ze_result_t sim_mem_get_ipc_handle(ze_context_handle_t hContext, const void *ptr,
                                   ze_ipc_mem_handle_t *pIpcHandle) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r))
        return r;
    if (ptr == NULL || pIpcHandle == NULL)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    sim_alloc_info_t a;
    // Only device memory of this process's own allocations can be shared.
    if (!sim_mem_lookup(ptr, &a) || a.type != ZE_MEMORY_TYPE_DEVICE ||
        !(a.flags & SIM_ALLOC_MAPPED))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    sim_export_t *e = NULL;
    pthread_mutex_lock(&ipc_lock);
    r = export_locked(&a, &e);
    sim_ipc_wire_t wire = {0};
    if (r == ZE_RESULT_SUCCESS)
        wire = (sim_ipc_wire_t){SIM_IPC_MAGIC, (int32_t)getpid(), e->fd, 0, e->inode, e->size};
    pthread_mutex_unlock(&ipc_lock);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    memset(pIpcHandle, 0, sizeof *pIpcHandle);
    memcpy(pIpcHandle->data, &wire, sizeof wire);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_mem_open_ipc_handle(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                    ze_ipc_mem_handle_t handle, ze_ipc_memory_flags_t flags,
                                    void **pptr) {
    ze_result_t r;
    sim_context_t *ctx = sim_obj(hContext, SIM_KIND_CONTEXT, &r);
    sim_device_t *dev = ctx != NULL ? sim_obj(hDevice, SIM_KIND_DEVICE, &r) : NULL;
    if (dev == NULL)
        return r;
    if (pptr == NULL)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (flags &
        ~(ze_ipc_memory_flags_t)(ZE_IPC_MEMORY_FLAG_BIAS_CACHED | ZE_IPC_MEMORY_FLAG_BIAS_UNCACHED))
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    sim_ipc_wire_t wire;
    memcpy(&wire, handle.data, sizeof wire);
    if (wire.magic != SIM_IPC_MAGIC || wire.pid <= 0 || wire.fd < 0 || wire.size == 0 ||
        wire.size > SIM_TOTAL_MEMORY)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)wire.pid, (int)wire.fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT; // its process or allocation is gone
    struct stat st;
    const size_t bytes = whole_pages(wire.size);
    void *p = MAP_FAILED;
    // The inode proves it is the exported memfd, not whatever now has that number.
    if (fstat(fd, &st) == 0 && (uint64_t)st.st_ino == wire.inode && st.st_size >= 0 &&
        (uint64_t)st.st_size == bytes)
        p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    r = sim_mem_track(p, wire.size, ZE_MEMORY_TYPE_DEVICE, dev, ctx, SIM_ALLOC_IPC_VIEW);
    if (r != ZE_RESULT_SUCCESS) {
        munmap(p, bytes);
        return r;
    }
    *pptr = p;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_mem_close_ipc_handle(ze_context_handle_t hContext, const void *ptr) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r))
        return r;
    if (ptr == NULL)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    sim_alloc_info_t a;
    if (!sim_mem_untrack(ptr, SIM_ALLOC_IPC_VIEW, &a))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    munmap((void *)a.base, whole_pages(a.size));
    return ZE_RESULT_SUCCESS;
}
