// SPDX-License-Identifier: MIT
// Bindless images on Level Zero (bindless.c, bindless_external.c): what the two files share.
#ifndef URC_L0_BINDLESS_H
#define URC_L0_BINDLESS_H

#include "image/image_bindless.h"
#include "l0_internal.h"

/// The context and a device of it (INVALID_CONTEXT when the device is not in it), with
/// ZE_experimental_bindless_image (else UNSUPPORTED_FEATURE).
ur_result_t l0_bl_enter(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                        l0_context_t **ctx, l0_device_t **dev);

/// A format and descriptor as a Level Zero image of the device: the common checks (`linear`
/// for an image in memory), the device's limits, Level Zero's formats and types, and the image
/// descriptor (no pNext).
ur_result_t l0_bl_describe(const l0_device_t *dev, const ur_image_format_t *format,
                           const ur_image_desc_t *desc, bool linear, urc_bindless_t *b,
                           ze_image_desc_t *zd);

/// Makes a new image resident and records it as image memory of `ctx`, freed by
/// urBindlessImagesImageFreeExp; on failure the image is destroyed.
ur_result_t l0_bl_mem_adopt(l0_context_t *ctx, l0_device_t *dev, ze_image_handle_t ze,
                            const urc_bindless_t *desc, ur_exp_image_mem_native_handle_t *out);

/// bindless_external.c: the external memory types the device imports into allocations and
/// images (ze_device_external_memory_properties_t), 0 when it cannot.
ze_external_memory_type_flags_t l0_bl_import_types(const l0_device_t *dev);

#endif // URC_L0_BINDLESS_H
