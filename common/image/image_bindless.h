// SPDX-License-Identifier: MIT
// Bindless image rules (urBindlessImages*Exp) every adapter shares: what a descriptor of image
// memory or of plain (host or USM) memory holding an image describes, its mip levels, which
// sides of urBindlessImagesImageCopyExp are images and which memory, and the boxes a copy
// moves, all overflow-safe. Nothing here calls a native API.
//
// A copy region addresses x in bytes (offset and width), rows in y and slices in z; the layers
// of both array types are slices (z), unlike the classic image commands.
#ifndef URC_COMMON_IMAGE_IMAGE_BINDLESS_H
#define URC_COMMON_IMAGE_IMAGE_BINDLESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "image/image.h"
#include "core/info.h"
#include "ur_api.h"

/// An image as a bindless call describes it.
typedef struct urc_bindless_t {
    ur_image_format_t format;
    ur_mem_type_t type;
    size_t element_size, channels;
    size_t width, height, depth, array_size; // as given; 0 where the type has none
    uint32_t levels;                         // mip levels, 1 without a mipmap
    // The box copies address: elements per row, rows per slice, slices (depth or layers).
    size_t extent[3];
    // The layout of plain memory holding it (urc_bindless_describe with `linear`): the row pitch
    // given or the tight one, a slice of rows at that pitch, and the bytes it spans.
    size_t row_pitch, slice_pitch, size;
} urc_bindless_t;

/// True for a type that has layers (1D and 2D arrays, cubemaps; a gather image is 2D).
bool urc_bindless_is_layered(ur_mem_type_t type);

/// Checks a format and descriptor and fills `b`: the format (urc_image_check_format);
/// INVALID_IMAGE_FORMAT_DESCRIPTOR for a type that is not an image, a cubemap that is not
/// 6 square layers, a mipmapped array type other than 1D/2D/3D, or (with `linear`) a row pitch
/// below a row or not a multiple of the element size; INVALID_IMAGE_SIZE when an extent the
/// type uses is 0, more mip levels than the largest extent halves into, or the bytes overflow.
/// `linear` describes plain memory (a host or USM side of a copy, a pitched USM image), whose
/// rows are `rowPitch` apart (0: tight).
ur_result_t urc_bindless_describe(urc_bindless_t *b, const ur_image_format_t *format,
                                  const ur_image_desc_t *desc, bool linear);

/// UR_RESULT_ERROR_INVALID_IMAGE_SIZE when `b` exceeds the device's limits (image.h's; 1D
/// limits for 1D shapes, 2D for 2D shapes and cubemaps, 3D for 3D; layers against the array
/// limit), with a message naming the limit.
ur_result_t urc_bindless_check_limits(const urc_bindless_t *b, const urc_image_limits_t *lim);

/// Mip level `level` of `b`: extents halved `level` times (never below 1; layers kept), one
/// level. UR_RESULT_ERROR_INVALID_VALUE when the image has no such level.
ur_result_t urc_bindless_level(const urc_bindless_t *b, uint32_t level, urc_bindless_t *out);

/// Which sides of a copy are image memory and which are host memory, from the direction flag
/// (exactly one) and the input types: a host side is never an image, HOST_TO_HOST copies memory
/// only. UR_RESULT_ERROR_INVALID_VALUE otherwise. Both formats must be formats
/// (urc_image_check_format), also on a side whose image brings its own: the caller describes
/// every side it names.
ur_result_t urc_bindless_copy_sides(ur_exp_image_copy_flags_t flags,
                                    ur_exp_image_copy_input_types_t types,
                                    const ur_image_format_t *src_format,
                                    const ur_image_format_t *dst_format, bool *src_image,
                                    bool *dst_image, bool *src_host, bool *dst_host);

/// The boxes of one copy: origins and extent in bytes (x), rows (y) and slices (z).
typedef struct urc_bindless_box_t {
    size_t src[3], dst[3];
    size_t extent[3];
} urc_bindless_box_t;

/// Checks `region` against both sides and fills `box`: the same element size on both sides
/// (UR_RESULT_ERROR_INVALID_VALUE), x offsets and width whole elements, an extent of 0 in a
/// dimension a side lacks taken as 1, and each box inside its side (INVALID_VALUE, with a
/// message naming the side).
ur_result_t urc_bindless_check_copy(const urc_bindless_t *src, const urc_bindless_t *dst,
                                    const ur_exp_image_copy_region_t *region,
                                    urc_bindless_box_t *box);

/// Answers urBindlessImagesImageGetInfoExp from `b`: WIDTH, HEIGHT, DEPTH (0 where the type
/// lacks one), ARRAY_SIZE, FORMAT, ELEMENT_SIZE, ROW_PITCH and SLICE_PITCH of the tight layout,
/// NUM_MIP_LEVELS, NUM_SAMPLES (1).
ur_result_t urc_bindless_info(const urc_info_t *out, ur_image_info_t prop, const urc_bindless_t *b);

/// The external imports' checks of a file descriptor before the driver takes it (INVALID_VALUE
/// with a message): it must be open (fstat), must not be a directory, pipe, socket, block
/// device or one of the kernel's memory devices (/dev/null, /dev/zero, ...: character major
/// 1), and for memory (`size` not 0) where its size can be known (a regular file such as a
/// memfd, or what lseek to the end answers for a DMA buffer) `size` bytes must fit in it. A
/// driver's own device file (NVIDIA's opaque descriptors) tells no size: there the driver
/// decides, and urc refuses only a `size` past the importing device's `device_memory` (no
/// allocation of a device is larger than the device; 0: not known). A semaphore's descriptor
/// (`size` 0) has only the first checks.
ur_result_t urc_bindless_check_external_fd(int fd, uint64_t size, uint64_t device_memory);

/// urBindlessImagesMapExternalLinearMemoryExp: INVALID_VALUE unless `size` bytes from `offset`
/// (at least one) lie inside the `imported` bytes.
ur_result_t urc_bindless_check_external_range(uint64_t offset, uint64_t size, uint64_t imported);

/// urBindlessImagesMapExternalArrayExp: INVALID_VALUE when the image `b` describes spans more
/// than the `size` bytes imported.
ur_result_t urc_bindless_check_external_fit(const urc_bindless_t *b, uint64_t size);

#endif // URC_COMMON_IMAGE_IMAGE_BINDLESS_H
