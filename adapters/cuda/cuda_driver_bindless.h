// SPDX-License-Identifier: MIT
// The driver functions bindless images need (bindless*.c), resolved with the others by
// cuda_driver.c as optional entries: NULL when the driver lacks one, which the bindless entry
// points answer with UNSUPPORTED_FEATURE. Kept apart from cuda_driver.h's lists so this feature
// adds its functions in one place.
#ifndef URC_CUDA_CUDA_DRIVER_BINDLESS_H
#define URC_CUDA_CUDA_DRIVER_BINDLESS_H

#define CUDA_DRIVER_BINDLESS(X)                                                                    \
    X(MipmappedArrayCreate, PFN_cuMipmappedArrayCreate_v5000, "cuMipmappedArrayCreate", NULL)      \
    X(MipmappedArrayDestroy, PFN_cuMipmappedArrayDestroy_v5000, "cuMipmappedArrayDestroy", NULL)   \
    X(MipmappedArrayGetLevel, PFN_cuMipmappedArrayGetLevel_v5000, "cuMipmappedArrayGetLevel",      \
      NULL)                                                                                        \
    X(TexObjectCreate, PFN_cuTexObjectCreate_v5000, "cuTexObjectCreate", NULL)                     \
    X(TexObjectDestroy, PFN_cuTexObjectDestroy_v5000, "cuTexObjectDestroy", NULL)                  \
    X(ImportExternalMemory, PFN_cuImportExternalMemory_v10000, "cuImportExternalMemory", NULL)     \
    X(ExternalMemoryGetMappedBuffer, PFN_cuExternalMemoryGetMappedBuffer_v10000,                   \
      "cuExternalMemoryGetMappedBuffer", NULL)                                                     \
    X(ExternalMemoryGetMappedMipmappedArray, PFN_cuExternalMemoryGetMappedMipmappedArray_v10000,   \
      "cuExternalMemoryGetMappedMipmappedArray", NULL)                                             \
    X(DestroyExternalMemory, PFN_cuDestroyExternalMemory_v10000, "cuDestroyExternalMemory", NULL)  \
    X(ImportExternalSemaphore, PFN_cuImportExternalSemaphore_v10000, "cuImportExternalSemaphore",  \
      NULL)                                                                                        \
    X(DestroyExternalSemaphore, PFN_cuDestroyExternalSemaphore_v10000,                             \
      "cuDestroyExternalSemaphore", NULL)                                                          \
    X(SignalExternalSemaphoresAsync, PFN_cuSignalExternalSemaphoresAsync_v10000,                   \
      "cuSignalExternalSemaphoresAsync", NULL)                                                     \
    X(WaitExternalSemaphoresAsync, PFN_cuWaitExternalSemaphoresAsync_v10000,                       \
      "cuWaitExternalSemaphoresAsync", NULL)

#endif // URC_CUDA_CUDA_DRIVER_BINDLESS_H
