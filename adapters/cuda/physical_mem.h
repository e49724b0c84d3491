// SPDX-License-Identifier: MIT
// A CUDA physical memory handle (virtual_mem.c), shared with the IPC and memory-export code.
#ifndef URC_CUDA_PHYSICAL_MEM_H
#define URC_CUDA_PHYSICAL_MEM_H

#include "cuda_internal.h"

typedef struct cuda_physical_mem_t {
    urc_object_t obj;
    cuda_context_t *ctx; // retained
    cuda_device_t *dev;
    size_t size;
    ur_physical_mem_properties_t props;
    CUmemGenericAllocationHandle handle;
    bool ipc_opened; // made by urIPCOpenPhysMemHandleExp
} cuda_physical_mem_t;

#define CUDA_PHYSICAL(h) ((cuda_physical_mem_t *)(h))

/// The allocation properties of pinned memory on `dev`; `ipc` asks for a POSIX file
/// descriptor handle type, so the memory can be exported.
CUmemAllocationProp cuda_physical_prop(const cuda_device_t *dev, bool ipc);

/// Wraps a driver allocation handle (owned from now on) in a UR handle of the context.
ur_result_t cuda_physical_mem_wrap(cuda_context_t *ctx, cuda_device_t *dev, size_t size,
                                   ur_physical_mem_flags_t flags,
                                   CUmemGenericAllocationHandle handle, cuda_physical_mem_t **out);

/// True when the device can export memory as POSIX file descriptors (and the driver has the
/// calls for it).
bool cuda_device_exports_fd(const cuda_device_t *dev);

#endif // URC_CUDA_PHYSICAL_MEM_H
