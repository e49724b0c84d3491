// SPDX-License-Identifier: MIT
// Shareable physical memory: cuMemExportToShareableHandle gives a duplicate of the memfd behind
// a cuMemCreate allocation made with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, and
// cuMemImportFromShareableHandle turns such a descriptor (from this process or, passed over,
// from another) back into physical memory. Two processes mapping it really share the bytes.
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuda_sim_internal.h"

#define SIM_MEMFD_NAME "/memfd:cuda_sim_physical"

SIM_EXPORT CUresult cuMemExportToShareableHandle(void *shareableHandle,
                                                 CUmemGenericAllocationHandle handle,
                                                 CUmemAllocationHandleType handleType,
                                                 unsigned long long flags) {
    SIM_STICKY();
    sim_physical_t *m = (sim_physical_t *)(uintptr_t)handle;
    if (shareableHandle == NULL || m == NULL || flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    // Only the handle types asked for at creation can be exported, as on the device.
    if (handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR ||
        (m->handle_types & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) == 0)
        return CUDA_ERROR_NOT_SUPPORTED;
    int fd = fcntl(m->fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *(int *)shareableHandle = fd;
    return CUDA_SUCCESS;
}

// True when `fd` is a descriptor of the simulator's physical memory.
static bool ours(int fd) {
    char path[64], target[128];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n <= 0)
        return false;
    target[n] = '\0';
    return strncmp(target, SIM_MEMFD_NAME, strlen(SIM_MEMFD_NAME)) == 0;
}

SIM_EXPORT CUresult cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle,
                                                   void *osHandle,
                                                   CUmemAllocationHandleType shHandleType) {
    SIM_STICKY();
    int fd = (int)(intptr_t)osHandle;
    struct stat st;
    if (handle == NULL || shHandleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR || fd < 0 ||
        fstat(fd, &st) != 0 || !ours(fd) || st.st_size <= 0 ||
        (size_t)st.st_size % SIM_GRANULARITY != 0)
        return CUDA_ERROR_INVALID_VALUE;
    sim_physical_t *m = malloc(sizeof *m);
    if (m == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    // The caller keeps (and closes) its descriptor; the allocation holds its own.
    m->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (m->fd < 0) {
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    m->size = (size_t)st.st_size;
    m->handle_types = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    *handle = (CUmemGenericAllocationHandle)(uintptr_t)m;
    return CUDA_SUCCESS;
}
