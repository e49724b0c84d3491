// SPDX-License-Identifier: MIT
// IPC memory handles. The simulator's device memory is private to its process, so a handle
// opens only in the process that made it (the real driver refuses exactly that case, and
// shares the memory with other processes): enough for the adapter's handle packing, opens,
// closes and errors; the two-process test runs on a real GPU only.
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_sim_internal.h"

#define SIM_IPC_MAGIC 0x55524349u /* "URCI" */

typedef struct sim_ipc_t {
    uint32_t magic;
    uint32_t pid;
    uint64_t base;
} sim_ipc_t;

static pthread_mutex_t ipc_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t opened[64];
static size_t nopened;

SIM_EXPORT CUresult cuIpcGetMemHandle(CUipcMemHandle *handle, CUdeviceptr dptr) {
    SIM_STICKY();
    sim_alloc_t a;
    if (handle == NULL || !sim_find_alloc(dptr, &a) || a.base != dptr || a.kind != SIM_MEM_DEVICE)
        return CUDA_ERROR_INVALID_VALUE;
    sim_ipc_t h = {SIM_IPC_MAGIC, (uint32_t)getpid(), dptr};
    memset(handle, 0, sizeof *handle);
    memcpy(handle->reserved, &h, sizeof h);
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *pdptr, CUipcMemHandle handle,
                                          unsigned int flags) {
    SIM_STICKY();
    (void)flags;
    sim_ipc_t h;
    memcpy(&h, handle.reserved, sizeof h);
    sim_alloc_t a;
    if (pdptr == NULL || h.magic != SIM_IPC_MAGIC)
        return CUDA_ERROR_INVALID_VALUE;
    if (h.pid != (uint32_t)getpid() || !sim_find_alloc(h.base, &a))
        return CUDA_ERROR_MAP_FAILED;
    pthread_mutex_lock(&ipc_lock);
    CUresult r = nopened < 64 ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    if (r == CUDA_SUCCESS)
        opened[nopened++] = h.base;
    pthread_mutex_unlock(&ipc_lock);
    if (r == CUDA_SUCCESS)
        *pdptr = h.base;
    return r;
}

SIM_EXPORT CUresult cuIpcCloseMemHandle(CUdeviceptr dptr) {
    SIM_STICKY();
    CUresult r = CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&ipc_lock);
    for (size_t i = 0; i < nopened; ++i)
        if (opened[i] == dptr) {
            opened[i] = opened[--nopened];
            r = CUDA_SUCCESS;
            break;
        }
    pthread_mutex_unlock(&ipc_lock);
    return r;
}
