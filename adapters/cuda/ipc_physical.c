// SPDX-License-Identifier: MIT
// Inter-process physical memory: physical memory made with UR_PHYSICAL_MEM_FLAG_ENABLE_IPC asks
// cuMemCreate for a POSIX file descriptor handle type; urIPCGetPhysMemHandleExp exports it
// (cuMemExportToShareableHandle). A descriptor means nothing in another process, so the handle
// data (urc's checked framing, common/ipc/ipc_handle.h, which names the exporting process) carry
// the exporter's descriptor, and the opening process takes a copy with pidfd_open + pidfd_getfd
// before cuMemImportFromShareableHandle. The payload also carries what lets the opener refuse a
// stale handle or one for another device before the driver sees it: the descriptor's file
// identity (a closed and reused descriptor number is usually another file; where it is not, the
// driver's import refuses it), the size and the device's UUID.
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ipc/ipc_handle.h"
#include "physical_mem.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 // the same number on every architecture
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

/// The payload of CUDA's IPC physical memory handle data (the exporter's pid is the header's).
typedef struct cuda_phys_ipc_payload_t {
    int32_t fd; // the exporter's descriptor, open until urIPCPutPhysMemHandleExp
    uint32_t reserved;
    uint64_t st_dev, st_ino;
    uint64_t size;
    uint8_t uuid[16]; // the device the memory lives on
} cuda_phys_ipc_payload_t;

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
    cuda_physical_mem_t *m = CUDA_PHYSICAL(hPhysMem);
    if ((void *)m->ctx != (void *)hContext)
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the physical memory belongs to another context");
    if ((m->props.flags & UR_PHYSICAL_MEM_FLAG_ENABLE_IPC) == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_ARGUMENT, 0,
                             "the physical memory was not created with "
                             "UR_PHYSICAL_MEM_FLAG_ENABLE_IPC");
    cuda_phys_ipc_payload_t payload = {.fd = -1, .size = m->size};
    struct stat st;
    res = device_uuid(m->dev, payload.uuid);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_activate(m->dev);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.MemExportToShareableHandle(&payload.fd, m->handle,
                                                    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
                      "cuMemExportToShareableHandle");
    if (res == UR_RESULT_SUCCESS && fstat(payload.fd, &st) != 0)
        res = urc_error_set(UR_RESULT_ERROR_OUT_OF_RESOURCES, errno,
                            "the exported descriptor cannot be examined");
    if (res == UR_RESULT_SUCCESS) {
        payload.st_dev = (uint64_t)st.st_dev;
        payload.st_ino = (uint64_t)st.st_ino;
        res = urc_ipc_pack(UR_BACKEND_CUDA, URC_IPC_PHYSICAL_MEMORY, &payload, sizeof payload,
                           ppIPCPhysMemHandleData, pIPCPhysMemHandleDataSizeRet);
    }
    if (res != UR_RESULT_SUCCESS && payload.fd >= 0)
        close(payload.fd);
    return res;
}

ur_result_t cuda_ipc_put_phys_mem_handle_exp(ur_context_handle_t hContext,
                                             const void *pIPCPhysMemHandleData) {
    (void)hContext; // checked by the generated wrapper
    cuda_phys_ipc_payload_t payload;
    ur_result_t res = urc_ipc_put(UR_BACKEND_CUDA, URC_IPC_PHYSICAL_MEMORY, pIPCPhysMemHandleData,
                                  &payload, sizeof payload);
    // Closing the descriptor ends the handle: later opens of a copy of the data fail.
    if (res == UR_RESULT_SUCCESS)
        close(payload.fd);
    return res;
}

static ur_result_t bad_data(const char *why) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0, "IPC physical memory handle data: %s",
                         why);
}

/// A descriptor of this process for the exporter's `fd`: a duplicate when the exporter is
/// this process, else a copy taken with pidfd_getfd.
static ur_result_t take_fd(pid_t pid, const cuda_phys_ipc_payload_t *d, int *out) {
    int fd = -1;
    if (pid == getpid()) {
        fd = fcntl(d->fd, F_DUPFD_CLOEXEC, 0);
        if (fd < 0)
            return bad_data("its descriptor is closed (the handle was put)");
    } else {
        int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
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
                                 (int)pid);
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
    if (!cuda_context_has_device(ctx, CUDA_DEVICE(hDevice)))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    cuda_device_t *dev = CUDA_DEVICE(hDevice);
    cuda_phys_ipc_payload_t d;
    uint32_t pid = 0;
    res = urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_PHYSICAL_MEMORY, pIPCPhysMemHandleData,
                         ipcPhysMemHandleDataSize, &d, sizeof d, &pid);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (pid == 0 || pid > INT32_MAX || d.fd < 0 || d.size == 0)
        return bad_data("a field is out of range");
    uint8_t uuid[16];
    if ((res = device_uuid(dev, uuid)) != UR_RESULT_SUCCESS)
        return res;
    if (memcmp(uuid, d.uuid, sizeof uuid) != 0)
        return bad_data("the memory lives on another device");
    int fd = -1;
    if ((res = take_fd((pid_t)pid, &d, &fd)) != UR_RESULT_SUCCESS)
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
