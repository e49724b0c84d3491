// SPDX-License-Identifier: MIT
// Image and sampler rules every adapter shares: which (channel order, channel type) pairs can
// exist and their element sizes, descriptor checks, device limits, the box a copy addresses and
// the host pitches of reads and writes, all overflow-safe; and a sampler descriptor with its
// extension structs read once. Nothing here calls a native API.
#ifndef URC_COMMON_IMAGE_IMAGE_H
#define URC_COMMON_IMAGE_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/info.h"
#include "ur_api.h"

/// What an adapter keeps about an image, filled by urc_image_describe.
typedef struct urc_image_t {
    ur_image_format_t format;
    ur_mem_type_t type;
    size_t element_size; // bytes of one element
    size_t channels;     // channels an element has (1 to 4)
    // As urMemImageGetInfo reports them: 0 for a dimension the type lacks (OpenCL's answers).
    size_t width, height, depth, array_size;
    // The box commands address: x, then rows (the layers of a 1D array), then slices (the
    // layers of a 2D array, or the depth of a 3D image); 1 where the type has none.
    size_t extent[3];
    // The image's own tight layout: bytes per row and per slice (a 1D array's slice is one row).
    size_t row_pitch, slice_pitch;
    size_t size; // slice_pitch * extent[2]
    // The layout of the host memory given at creation: the descriptor's pitches or the tight
    // ones, and the bytes it spans.
    size_t host_row_pitch, host_slice_pitch, host_size;
} urc_image_t;

/// Channels an element of this order has, 0 for an unknown order.
size_t urc_image_channel_count(ur_image_channel_order_t order);

/// Bytes one element of `format` takes, 0 when the pair cannot exist (unknown enumerators, a
/// packed type with an order other than RGB / RGBx, INTENSITY or LUMINANCE with an integer
/// type, sRGB other than 8-bit unorm).
size_t urc_image_element_size(const ur_image_format_t *format);

/// UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR for an unknown channel order or type,
/// UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT for a known pair no device can hold.
ur_result_t urc_image_check_format(const ur_image_format_t *format);

/// Checks a format and descriptor beyond the generated checks and fills `img`:
/// the format (above); INVALID_IMAGE_SIZE when an extent the type uses is 0 (width; height of
/// 2D shapes and 3D; depth of 3D; arraySize of arrays) or the image's bytes overflow;
/// INVALID_IMAGE_FORMAT_DESCRIPTOR when a pitch given with `host` is smaller than the tight one,
/// not a multiple of the element size (row) or of the row pitch (slice), or given for a shape
/// without that dimension (a slice pitch of a 1D or 2D image).
ur_result_t urc_image_describe(urc_image_t *img, const ur_image_format_t *format,
                               const ur_image_desc_t *desc, const void *host);

/// The checks of urMemImageCreateWithNativeHandle before the adapter looks at the native
/// handle: 0 is INVALID_NULL_HANDLE, then urc_image_describe (without device limits).
ur_result_t urc_image_describe_native(urc_image_t *img, ur_native_handle_t native,
                                      const ur_image_format_t *format, const ur_image_desc_t *desc);

/// A device's image limits (0: no limit known).
typedef struct urc_image_limits_t {
    size_t max_1d_width; // also the width of 1D arrays; 0 means the 2D width
    size_t max_2d_width, max_2d_height;
    size_t max_3d_width, max_3d_height, max_3d_depth;
    size_t max_array_size;
} urc_image_limits_t;

/// UR_RESULT_ERROR_INVALID_IMAGE_SIZE when `img` exceeds a limit, with a message naming it.
ur_result_t urc_image_check_limits(const urc_image_t *img, const urc_image_limits_t *limits);

/// The box `region` at `origin` lies inside the image (overflow-safe), and a dimension the
/// image lacks has origin 0 and extent 1; else UR_RESULT_ERROR_INVALID_SIZE.
ur_result_t urc_image_check_region(const urc_image_t *img, ur_rect_offset_t origin,
                                   ur_rect_region_t region);

/// Both sides of an image-to-image copy: the same format (else UR_RESULT_ERROR_INVALID_MEM_OBJECT,
/// as OpenCL's format mismatch), each box inside its image (urc_image_check_region).
ur_result_t urc_image_check_copy(const urc_image_t *src, const urc_image_t *dst,
                                 ur_rect_offset_t src_origin, ur_rect_offset_t dst_origin,
                                 ur_rect_region_t region);

/// Answers urMemImageGetInfo from `img`: the slice pitch of a 1D or 2D image is 0 and mip
/// levels and samples are 0, as OpenCL answers. `img` NULL stands for a buffer:
/// UR_RESULT_ERROR_INVALID_MEM_OBJECT.
ur_result_t urc_image_info(const urc_info_t *out, ur_image_info_t prop, const urc_image_t *img);

/// The memory of an image command (`img` NULL for a buffer: UR_RESULT_ERROR_INVALID_MEM_OBJECT)
/// and its context against the queue's (UR_RESULT_ERROR_INVALID_CONTEXT when they differ).
ur_result_t urc_image_check_use(const urc_image_t *img, const void *mem_context,
                                const void *queue_context);

/// urEnqueueMemImageCopy's checks: both memories are images of the queue's context
/// (urc_image_check_use), then both boxes (urc_image_check_copy).
ur_result_t urc_image_check_copy_use(const urc_image_t *src, const void *src_context,
                                     const urc_image_t *dst, const void *dst_context,
                                     const void *queue_context, ur_rect_offset_t src_origin,
                                     ur_rect_offset_t dst_origin, ur_rect_region_t region);

/// The checks of an image read or write: the memory is an image of the queue's context
/// (urc_image_check_use), the box lies inside it (urc_image_check_region), and the host
/// pitches fit (urc_image_host_pitches, which makes 0 pitches explicit).
ur_result_t urc_image_check_transfer(const urc_image_t *img, const void *mem_context,
                                     const void *queue_context, ur_rect_offset_t origin,
                                     ur_rect_region_t region, size_t *row_pitch,
                                     size_t *slice_pitch);

/// One image read or write entry point `name`: the checks of urc_image_check_transfer, then
/// `transfer(write, <its arguments, the pitches made explicit>)`. `image_of(hMem, &context)` is
/// the memory's image (NULL for a buffer) and sets its context; `queue_context(hQueue)` is the
/// queue's context.
#define URC_IMAGE_TRANSFER_ENTRY(name, image_of, queue_context, transfer, write, blocking, host)   \
    ur_result_t name(ur_queue_handle_t hQueue, ur_mem_handle_t hImage, bool blocking,              \
                     ur_rect_offset_t origin, ur_rect_region_t region, size_t rowPitch,            \
                     size_t slicePitch, void *host, uint32_t numEventsInWaitList,                  \
                     const ur_event_handle_t *phEventWaitList, ur_event_handle_t *phEvent) {       \
        const void *mem_context = NULL;                                                            \
        const urc_image_t *img = image_of(hImage, &mem_context);                                   \
        ur_result_t res = urc_image_check_transfer(img, mem_context, queue_context(hQueue),        \
                                                   origin, region, &rowPitch, &slicePitch);        \
        return res != UR_RESULT_SUCCESS                                                            \
                   ? res                                                                           \
                   : transfer(write, hQueue, hImage, blocking, origin, region, rowPitch,           \
                              slicePitch, host, numEventsInWaitList, phEventWaitList, phEvent);    \
    }

/// urEnqueueMemImageRead and urEnqueueMemImageWrite of adapter `prefix` (see
/// URC_IMAGE_TRANSFER_ENTRY), both forwarded to its `transfer(bool write, <the entry point's
/// arguments>)` once checked.
#define URC_IMAGE_READ_WRITE(prefix, image_of, queue_context, transfer)                            \
    URC_IMAGE_TRANSFER_ENTRY(prefix##_enqueue_mem_image_read, image_of, queue_context, transfer,   \
                             false, blockingRead, pDst)                                            \
    URC_IMAGE_TRANSFER_ENTRY(prefix##_enqueue_mem_image_write, image_of, queue_context, transfer,  \
                             true, blockingWrite, pSrc)

/// urMemImageGetInfo of adapter `prefix`, answered by urc_image_info from `image_of` (as for
/// URC_IMAGE_TRANSFER_ENTRY).
#define URC_IMAGE_GET_INFO(prefix, image_of)                                                       \
    ur_result_t prefix##_mem_image_get_info(ur_mem_handle_t hMemory, ur_image_info_t propName,     \
                                            size_t propSize, void *pPropValue,                     \
                                            size_t *pPropSizeRet) {                                \
        const void *mem_context = NULL;                                                            \
        const urc_info_t out = {propSize, pPropValue, pPropSizeRet};                               \
        return urc_image_info(&out, propName, image_of(hMemory, &mem_context));                    \
    }

/// urEnqueueMemImageCopy of adapter `prefix`: urc_image_check_copy_use (with `image_of` and
/// `queue_context` as for URC_IMAGE_TRANSFER_ENTRY), then `copy(<the entry point's arguments>)`.
#define URC_IMAGE_COPY(prefix, image_of, queue_context, copy)                                      \
    ur_result_t prefix##_enqueue_mem_image_copy(                                                   \
        ur_queue_handle_t hQueue, ur_mem_handle_t hImageSrc, ur_mem_handle_t hImageDst,            \
        ur_rect_offset_t srcOrigin, ur_rect_offset_t dstOrigin, ur_rect_region_t region,           \
        uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,                    \
        ur_event_handle_t *phEvent) {                                                              \
        const void *src_context = NULL, *dst_context = NULL;                                       \
        const urc_image_t *src = image_of(hImageSrc, &src_context);                                \
        const urc_image_t *dst = image_of(hImageDst, &dst_context);                                \
        ur_result_t res =                                                                          \
            urc_image_check_copy_use(src, src_context, dst, dst_context, queue_context(hQueue),    \
                                     srcOrigin, dstOrigin, region);                                \
        return res != UR_RESULT_SUCCESS                                                            \
                   ? res                                                                           \
                   : copy(hQueue, hImageSrc, hImageDst, srcOrigin, dstOrigin, region,              \
                          numEventsInWaitList, phEventWaitList, phEvent);                          \
    }

/// Host pitches of a read or write of `region`: 0 means tight (row = width * element size,
/// slice = row * rows, a 1D array's slice being one row); a given row pitch must cover the
/// region's row and a given slice pitch its rows; the host bytes the copy spans, returned in
/// `host_bytes` when not NULL, must fit a size_t. Else UR_RESULT_ERROR_INVALID_SIZE.
ur_result_t urc_image_host_pitches(const urc_image_t *img, const ur_rect_region_t *region,
                                   size_t *row_pitch, size_t *slice_pitch, size_t *host_bytes);

/// Offset in bytes of element (x, y, z) of the box in a layout with these pitches (for 1D
/// arrays y is the layer and lands on the slice pitch).
size_t urc_image_offset(const urc_image_t *img, size_t row_pitch, size_t slice_pitch, size_t x,
                        size_t y, size_t z);

/// Copies a box between two layouts on the host (simulators, staging); both are checked
/// before this is called.
void urc_image_copy_box(const urc_image_t *img, void *dst, size_t dst_row, size_t dst_slice,
                        const size_t dst_origin[3], const void *src, size_t src_row,
                        size_t src_slice, const size_t src_origin[3], const size_t region[3]);

/// A sampler as every adapter keeps it: the descriptor and what its extension structs add.
typedef struct urc_sampler_t {
    bool normalized;
    ur_sampler_addressing_mode_t addressing[3]; // per dimension; all equal without ADDR_MODES
    ur_sampler_filter_mode_t filter;
    ur_sampler_filter_mode_t mip_filter; // NEAREST without mip properties
    float min_lod, max_lod, max_anisotropy;
    bool seamless_cubemap; // EXP_SAMPLER_CUBEMAP_PROPERTIES asked for SEAMLESS
} urc_sampler_t;

/// Reads `desc` and its pNext chain (UR_STRUCTURE_TYPE_EXP_SAMPLER_MIP_PROPERTIES,
/// UR_STRUCTURE_TYPE_EXP_SAMPLER_ADDR_MODES, UR_STRUCTURE_TYPE_EXP_SAMPLER_CUBEMAP_PROPERTIES;
/// other structs are skipped, at most 64 are walked).
/// UR_RESULT_ERROR_INVALID_VALUE for a wrong stype, a chain longer than 64 or a negative
/// anisotropy; UR_RESULT_ERROR_INVALID_ENUMERATION for unknown modes in the extension structs.
ur_result_t urc_sampler_describe(urc_sampler_t *s, const ur_sampler_desc_t *desc);

/// Answers urSamplerGetInfo's NORMALIZED_COORDS, ADDRESSING_MODE (the first dimension's) and
/// FILTER_MODE from `s`, CONTEXT and REFERENCE_COUNT from the arguments.
ur_result_t urc_sampler_info(const urc_info_t *out, ur_sampler_info_t prop, const urc_sampler_t *s,
                             ur_context_handle_t context, uint32_t refcount);

#endif // URC_COMMON_IMAGE_IMAGE_H
