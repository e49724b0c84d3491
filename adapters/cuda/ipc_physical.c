// SPDX-License-Identifier: MIT
// Inter-process physical memory: physical memory made with UR_PHYSICAL_MEM_FLAG_ENABLE_IPC asks
// cuMemCreate for a POSIX file descriptor handle type; urIPCGetPhysMemHandleExp exports it
// (cuMemExportToShareableHandle). A descriptor means nothing in another process, so the handle
// data names the exporting process and its descriptor, and the opening process takes a copy
// with pidfd_open + pidfd_getfd before cuMemImportFromShareableHandle. The data also carries
// what lets the opener refuse a wrong or stale handle before the driver sees it: a magic word
// and its own size, the descriptor's file identity (a closed and reused descriptor number is
// usually another file; where it is not, the driver's import refuses it), the size and the
// device's UUID.
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "physical_mem.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 // the same number on every architecture
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

#define PHYS_IPC_MAGIC 0x50435255u /* "URCP" */

/// What crosses the process boundary (fixed-width fields: both sides are this adapter).
typedef struct cuda_phys_ipc_data_t {
    uint32_t magic;
    uint32_t bytes; // sizeof(cuda_phys_ipc_data_t)
    int32_t pid;    // the exporting process
    int32_t fd;     // its descriptor, open until urIPCPutPhysMemHandleExp
    uint64_t st_dev, st_ino;
    uint64_t size;
    uint8_t uuid[16]; // the device the memory lives on
} cuda_phys_ipc_data_t;

// Handle data this process handed out and has not put back: a put of anything else is refused
// instead of freeing memory that is not the adapter's.
typedef struct live_data_t {
    cuda_phys_ipc_data_t *data;
    struct live_data_t *next;
} live_data_t;

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static live_data_t *live;

static bool have_calls(void) {
    return cu.MemExportToShareableHandle != NULL && cu.MemImportFromShareableHandle != NULL &&
           cu.MemCreate != NULL && cu.MemRelease != NULL && cu.MemAddressReserve != NULL &&
           cu.MemAddressFree != NULL && cu.MemMap != NULL && cu.MemUnmap != NULL &&
           cu.MemSetAccess != NULL && cu.MemGetAllocationGranularity != NULL;
}

bool cuda_device_exports_fd(const cuda_device_t *dev) {
    int v = 0;
    return have_calls() &&
           cu.DeviceGetAttribute(&v,
                                 CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
                                 dev->cu) == CUDA_SUCCESS &&
           v != 0;
}

static ur_result_t device_uuid(const cuda_device_t *dev, uint8_t out[16]) {
    if (cu.DeviceGetUuid == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0, "no cuDeviceGetUuid");
    CUuuid uuid;
    ur_result_t res = cuda_ok(cu.DeviceGetUuid(&uuid, dev->cu), "cuDeviceGetUuid");
    if (res == UR_RESULT_SUCCESS)
        memcpy(out, uuid.bytes, 16);
    return res;
}

static ur_result_t ready(ur_context_handle_t hContext) {
    if (!cuda_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    if (!have_calls())
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the CUDA driver cannot share physical memory");
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_ipc_get_phys_mem_handle_exp(ur_context_handle_t hContext,
                                             ur_physical_mem_handle_t hPhysMem,
                                             void **ppIPCPhysMemHandleData,
                                             size_t *pIPCPhysMemHandleDataSizeRet) {
    ur_result_t res = ready(hContext);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (!cuda_is(hPhysMem, URC_KIND_PHYSICAL_MEM))
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    cuda_physical_mem_t *m = CUDA_PHYSICAL(hPhysMem);
    if ((void *)m->ctx != (void *)hContext)
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the physical memory belongs to another context");
    if ((m->props.flags & UR_PHYSICAL_MEM_FLAG_ENABLE_IPC) == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_ARGUMENT, 0,
                             "the physical memory was not created with "
                             "UR_PHYSICAL_MEM_FLAG_ENABLE_IPC");
    cuda_phys_ipc_data_t *data = URC_NEW(cuda_phys_ipc_data_t);
    live_data_t *entry = URC_NEW(live_data_t);
    if (data == NULL || entry == NULL) {
        free(data);
        free(entry);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    int fd = -1;
    struct stat st;
    res = device_uuid(m->dev, data->uuid);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_activate(m->dev);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.MemExportToShareableHandle(&fd, m->handle,
                                                    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
                      "cuMemExportToShareableHandle");
    if (res == UR_RESULT_SUCCESS && fstat(fd, &st) != 0)
        res = urc_error_set(UR_RESULT_ERROR_OUT_OF_RESOURCES, errno,
                            "the exported descriptor cannot be examined");
    if (res != UR_RESULT_SUCCESS) {
        if (fd >= 0)
            close(fd);
        free(data);
        free(entry);
        return res;
    }
    data->magic = PHYS_IPC_MAGIC;
    data->bytes = sizeof *data;
    data->pid = (int32_t)getpid();
    data->fd = fd;
    data->st_dev = (uint64_t)st.st_dev;
    data->st_ino = (uint64_t)st.st_ino;
    data->size = m->size;
    entry->data = data;
    pthread_mutex_lock(&live_lock);
    entry->next = live;
    live = entry;
    pthread_mutex_unlock(&live_lock);
    *ppIPCPhysMemHandleData = data;
    *pIPCPhysMemHandleDataSizeRet = sizeof *data;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_ipc_put_phys_mem_handle_exp(ur_context_handle_t hContext,
                                             const void *pIPCPhysMemHandleData) {
    if (!cuda_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    live_data_t *found = NULL;
    pthread_mutex_lock(&live_lock);
    for (live_data_t **at = &live; *at != NULL; at = &(*at)->next)
        if ((const void *)(*at)->data == pIPCPhysMemHandleData) {
            found = *at;
            *at = found->next;
            break;
        }
    pthread_mutex_unlock(&live_lock);
    if (found == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%p is no IPC physical memory handle data of this process (or was "
                             "put already)",
                             pIPCPhysMemHandleData);
    // Closing the descriptor ends the handle: later opens of a copy of the data fail.
    close(found->data->fd);
    free(found->data);
    free(found);
    return UR_RESULT_SUCCESS;
}

static ur_result_t bad_data(const char *why) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0, "IPC physical memory handle data: %s",
                         why);
}

/// A descriptor of this process for the exporter's `fd`: a duplicate when the exporter is
/// this process, else a copy taken with pidfd_getfd.
static ur_result_t take_fd(const cuda_phys_ipc_data_t *d, int *out) {
    int fd = -1;
    if (d->pid == (int32_t)getpid()) {
        fd = fcntl(d->fd, F_DUPFD_CLOEXEC, 0);
        if (fd < 0)
            return bad_data("its descriptor is closed (the handle was put)");
    } else {
        int pidfd = (int)syscall(SYS_pidfd_open, (pid_t)d->pid, 0);
        if (pidfd < 0 && (errno == ESRCH || errno == EINVAL))
            return bad_data("the exporting process is gone");
        if (pidfd < 0)
            return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, errno,
                                 "pidfd_open is not available here (Linux 5.6 or later)");
        fd = (int)syscall(SYS_pidfd_getfd, pidfd, d->fd, 0);
        int err = errno;
        close(pidfd);
        if (fd < 0 && (err == EBADF || err == ESRCH))
            return bad_data("the exporting process has exited or put the handle");
        if (fd < 0 && (err == EPERM || err == EACCES))
            return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, err,
                                 "this process may not take descriptors of process %d "
                                 "(pidfd_getfd needs ptrace rights over it)",
                                 (int)d->pid);
        if (fd < 0)
            return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, err,
                                 "pidfd_getfd is not available here (Linux 5.6 or later)");
    }
    // A descriptor number reused after a put is another file.
    struct stat st;
    if (fstat(fd, &st) != 0 || (uint64_t)st.st_dev != d->st_dev ||
        (uint64_t)st.st_ino != d->st_ino) {
        close(fd);
        return bad_data("its descriptor now names another file (the handle was put)");
    }
    *out = fd;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_ipc_open_phys_mem_handle_exp(ur_context_handle_t hContext,
                                              ur_device_handle_t hDevice,
                                              const void *pIPCPhysMemHandleData,
                                              size_t ipcPhysMemHandleDataSize,
                                              ur_physical_mem_handle_t *phPhysMem) {
    ur_result_t res = ready(hContext);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    if (!cuda_is(hDevice, URC_KIND_DEVICE) || !cuda_context_has_device(ctx, CUDA_DEVICE(hDevice)))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    cuda_device_t *dev = CUDA_DEVICE(hDevice);
    if (ipcPhysMemHandleDataSize != sizeof(cuda_phys_ipc_data_t))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "IPC physical memory handle data of %zu bytes; the CUDA adapter's "
                             "are %zu",
                             ipcPhysMemHandleDataSize, sizeof(cuda_phys_ipc_data_t));
    cuda_phys_ipc_data_t d;
    memcpy(&d, pIPCPhysMemHandleData, sizeof d); // the caller's bytes may be unaligned
    if (d.magic != PHYS_IPC_MAGIC || d.bytes != sizeof d)
        return bad_data("not made by urIPCGetPhysMemHandleExp of the CUDA adapter");
    if (d.pid <= 0 || d.fd < 0 || d.size == 0)
        return bad_data("a field is out of range");
    uint8_t uuid[16];
    if ((res = device_uuid(dev, uuid)) != UR_RESULT_SUCCESS)
        return res;
    if (memcmp(uuid, d.uuid, sizeof uuid) != 0)
        return bad_data("the memory lives on another device");
    int fd = -1;
    if ((res = take_fd(&d, &fd)) != UR_RESULT_SUCCESS)
        return res;
    CUmemGenericAllocationHandle handle = 0;
    res = cuda_activate(dev);
    CUresult r = CUDA_SUCCESS;
    if (res == UR_RESULT_SUCCESS) {
        r = cu.MemImportFromShareableHandle(&handle, (void *)(intptr_t)fd,
                                            CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
        // Short of memory, a refused import means the descriptor is no shareable memory (the
        // file identity cannot tell two descriptors of one driver device file apart).
        res = r == CUDA_SUCCESS || r == CUDA_ERROR_OUT_OF_MEMORY
                  ? cuda_ok(r, "cuMemImportFromShareableHandle")
                  : urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, (int32_t)r,
                                  "cuMemImportFromShareableHandle refused the descriptor");
    }
    close(fd); // the import holds its own reference to the memory
    cuda_physical_mem_t *m = NULL;
    if (res == UR_RESULT_SUCCESS)
        res = cuda_physical_mem_wrap(ctx, dev, (size_t)d.size, UR_PHYSICAL_MEM_FLAG_ENABLE_IPC,
                                     handle, &m);
    if (res != UR_RESULT_SUCCESS)
        return res;
    m->ipc_opened = true;
    *phPhysMem = (ur_physical_mem_handle_t)m;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_ipc_close_phys_mem_handle_exp(ur_context_handle_t hContext,
                                               ur_physical_mem_handle_t hPhysMem) {
    ur_result_t res = ready(hContext);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (!cuda_is(hPhysMem, URC_KIND_PHYSICAL_MEM))
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    cuda_physical_mem_t *m = CUDA_PHYSICAL(hPhysMem);
    if ((void *)m->ctx != (void *)hContext)
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the physical memory belongs to another context");
    if (!m->ipc_opened)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "the physical memory was not opened by urIPCOpenPhysMemHandleExp");
    // Closing drops the reference the open gave; mappings keep the memory until unmapped.
    return cuda_physical_mem_release(hPhysMem);
}
