// SPDX-License-Identifier: MIT
// Bindless images on CUDA (bindless.c, bindless_copy.c, bindless_external.c): what the three
// files share. Image memory handles are the driver's own CUarray / CUmipmappedArray values and
// image handles its CUsurfObject / CUtexObject values, as UR's CUDA adapter hands them out
// (SYCL passes them on as native handles); a registry of what this adapter made lets every
// entry point refuse values it did not hand out instead of passing them to the driver.
#ifndef URC_CUDA_BINDLESS_H
#define URC_CUDA_BINDLESS_H

#include "cuda_internal.h"
#include "image/image_bindless.h"

typedef enum cuda_bl_kind_t {
    CUDA_BL_ARRAY,          // cuArray3DCreate: ImageFreeExp
    CUDA_BL_MIPMAP,         // cuMipmappedArrayCreate: MipmapFreeExp
    CUDA_BL_LEVEL,          // cuMipmappedArrayGetLevel of a mipmap above: freed with it
    CUDA_BL_EXTERNAL_ARRAY, // level 0 of a mipmapped array mapped from external memory
} cuda_bl_kind_t;

/// Image memory this adapter handed out.
typedef struct cuda_bl_mem_t {
    uintptr_t handle; // the CUarray or CUmipmappedArray
    cuda_bl_kind_t kind;
    cuda_context_t *ctx;
    cuda_device_t *dev;
    urc_bindless_t desc;
    uintptr_t owner; // a level's mipmap; an external array's mipmapped array
} cuda_bl_mem_t;

/// True when the driver has what image memory and handles need.
bool cuda_bindless_available(void);

/// The context and a device of it (INVALID_CONTEXT when the device is not in it), the driver's
/// bindless functions there, and the context made current for the device.
ur_result_t cuda_bl_enter(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                          cuda_context_t **ctx, cuda_device_t **dev);

/// A format and descriptor as image memory of the device: the common checks, CUDA's formats,
/// the device's limits, and the CUDA array descriptor (levels are the caller's).
ur_result_t cuda_bl_describe_array(const cuda_device_t *dev, const ur_image_format_t *format,
                                   const ur_image_desc_t *desc, urc_bindless_t *b,
                                   CUDA_ARRAY3D_DESCRIPTOR *d);

/// bindless_external.c: whether the driver imports external memory / semaphores.
bool cuda_external_memory_available(void);
bool cuda_external_semaphores_available(void);

/// Copies the record of image memory `handle` of `ctx` to `out`; false when this adapter did
/// not hand it out in that context (or it was freed).
bool cuda_bl_mem_find(const cuda_context_t *ctx, uintptr_t handle, cuda_bl_mem_t *out);
/// Records image memory; false when out of memory.
bool cuda_bl_mem_add(const cuda_bl_mem_t *m);

/// The device's answer to a bindless query, or false when `name` is not one.
bool cuda_bindless_device_info(const cuda_device_t *dev, ur_device_info_t name,
                               const urc_info_t *out, ur_result_t *result);

#endif // URC_CUDA_BINDLESS_H
