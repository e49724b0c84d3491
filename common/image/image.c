// SPDX-License-Identifier: MIT
// Image and sampler rules shared by every adapter (image.h).
#include "image/image.h"

#include <string.h>

#include "core/error.h"

size_t urc_image_channel_count(ur_image_channel_order_t order) {
    switch (order) {
    case UR_IMAGE_CHANNEL_ORDER_A:
    case UR_IMAGE_CHANNEL_ORDER_R:
    case UR_IMAGE_CHANNEL_ORDER_INTENSITY:
    case UR_IMAGE_CHANNEL_ORDER_LUMINANCE:
    case UR_IMAGE_CHANNEL_ORDER_RX:
        return 1;
    case UR_IMAGE_CHANNEL_ORDER_RG:
    case UR_IMAGE_CHANNEL_ORDER_RA:
    case UR_IMAGE_CHANNEL_ORDER_RGX:
        return 2;
    case UR_IMAGE_CHANNEL_ORDER_RGB:
    case UR_IMAGE_CHANNEL_ORDER_RGBX:
        return 3;
    case UR_IMAGE_CHANNEL_ORDER_RGBA:
    case UR_IMAGE_CHANNEL_ORDER_BGRA:
    case UR_IMAGE_CHANNEL_ORDER_ARGB:
    case UR_IMAGE_CHANNEL_ORDER_ABGR:
    case UR_IMAGE_CHANNEL_ORDER_SRGBA:
        return 4;
    default:
        return 0;
    }
}

// Bytes of one channel, or 0 for the packed types (whose element is one word) and unknown ones.
static size_t channel_bytes(ur_image_channel_type_t type) {
    switch (type) {
    case UR_IMAGE_CHANNEL_TYPE_SNORM_INT8:
    case UR_IMAGE_CHANNEL_TYPE_UNORM_INT8:
    case UR_IMAGE_CHANNEL_TYPE_SIGNED_INT8:
    case UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8:
        return 1;
    case UR_IMAGE_CHANNEL_TYPE_SNORM_INT16:
    case UR_IMAGE_CHANNEL_TYPE_UNORM_INT16:
    case UR_IMAGE_CHANNEL_TYPE_SIGNED_INT16:
    case UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16:
    case UR_IMAGE_CHANNEL_TYPE_HALF_FLOAT:
        return 2;
    case UR_IMAGE_CHANNEL_TYPE_SIGNED_INT32:
    case UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32:
    case UR_IMAGE_CHANNEL_TYPE_FLOAT:
        return 4;
    default:
        return 0;
    }
}

static bool is_packed(ur_image_channel_type_t type) {
    return type == UR_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565 ||
           type == UR_IMAGE_CHANNEL_TYPE_UNORM_SHORT_555 ||
           type == UR_IMAGE_CHANNEL_TYPE_INT_101010;
}

static bool is_normalized_or_float(ur_image_channel_type_t type) {
    return type == UR_IMAGE_CHANNEL_TYPE_SNORM_INT8 || type == UR_IMAGE_CHANNEL_TYPE_SNORM_INT16 ||
           type == UR_IMAGE_CHANNEL_TYPE_UNORM_INT8 || type == UR_IMAGE_CHANNEL_TYPE_UNORM_INT16 ||
           type == UR_IMAGE_CHANNEL_TYPE_HALF_FLOAT || type == UR_IMAGE_CHANNEL_TYPE_FLOAT;
}

size_t urc_image_element_size(const ur_image_format_t *format) {
    ur_image_channel_order_t order = format->channelOrder;
    ur_image_channel_type_t type = format->channelType;
    size_t channels = urc_image_channel_count(order);
    if (channels == 0 || (uint32_t)type > UR_IMAGE_CHANNEL_TYPE_FLOAT)
        return 0;
    // OpenCL's rules, which every backend's formats are a subset of: packed types are one word
    // holding RGB (RGBx names the same layout), INTENSITY and LUMINANCE carry a normalised or
    // float value, sRGB is 8-bit unorm.
    if (is_packed(type)) {
        if (order != UR_IMAGE_CHANNEL_ORDER_RGB && order != UR_IMAGE_CHANNEL_ORDER_RGBX)
            return 0;
        return type == UR_IMAGE_CHANNEL_TYPE_INT_101010 ? 4 : 2;
    }
    if ((order == UR_IMAGE_CHANNEL_ORDER_INTENSITY || order == UR_IMAGE_CHANNEL_ORDER_LUMINANCE) &&
        !is_normalized_or_float(type))
        return 0;
    if (order == UR_IMAGE_CHANNEL_ORDER_SRGBA && type != UR_IMAGE_CHANNEL_TYPE_UNORM_INT8)
        return 0;
    // RGB and RGBx without a packed type have no element size OpenCL defines (3 channels of 1,
    // 2 or 4 bytes are not a power of two), so none is offered.
    if (channels == 3)
        return 0;
    return channels * channel_bytes(type);
}

ur_result_t urc_image_check_format(const ur_image_format_t *format) {
    if (urc_image_channel_count(format->channelOrder) == 0 ||
        (uint32_t)format->channelType > UR_IMAGE_CHANNEL_TYPE_FLOAT)
        return urc_error_set(UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR, 0,
                             "image format: unknown channel order %u or type %u",
                             (unsigned)format->channelOrder, (unsigned)format->channelType);
    if (urc_image_element_size(format) == 0)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, 0,
                             "image format: channel order %u cannot hold channel type %u",
                             (unsigned)format->channelOrder, (unsigned)format->channelType);
    return UR_RESULT_SUCCESS;
}

static bool type_is_array(ur_mem_type_t type) {
    return type == UR_MEM_TYPE_IMAGE1D_ARRAY || type == UR_MEM_TYPE_IMAGE2D_ARRAY;
}

static bool type_has_slices(ur_mem_type_t type) {
    return type == UR_MEM_TYPE_IMAGE1D_ARRAY || type == UR_MEM_TYPE_IMAGE2D_ARRAY ||
           type == UR_MEM_TYPE_IMAGE3D;
}

static ur_result_t bad_size(const char *what) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_IMAGE_SIZE, 0, "image: %s", what);
}

static ur_result_t bad_desc(const char *what) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR, 0, "image: %s", what);
}

ur_result_t urc_image_describe(urc_image_t *img, const ur_image_format_t *format,
                               const ur_image_desc_t *desc, const void *host) {
    ur_result_t r = urc_image_check_format(format);
    if (r != UR_RESULT_SUCCESS)
        return r;
    memset(img, 0, sizeof *img);
    img->format = *format;
    img->type = desc->type;
    img->element_size = urc_image_element_size(format);
    img->channels = urc_image_channel_count(format->channelOrder);
    img->width = desc->width;
    img->extent[0] = desc->width;
    img->extent[1] = img->extent[2] = 1;
    switch (desc->type) {
    case UR_MEM_TYPE_IMAGE1D:
        break;
    case UR_MEM_TYPE_IMAGE1D_ARRAY:
        img->array_size = img->extent[1] = desc->arraySize;
        break;
    case UR_MEM_TYPE_IMAGE2D:
        img->height = img->extent[1] = desc->height;
        break;
    case UR_MEM_TYPE_IMAGE2D_ARRAY:
        img->height = img->extent[1] = desc->height;
        img->array_size = img->extent[2] = desc->arraySize;
        break;
    case UR_MEM_TYPE_IMAGE3D:
        img->height = img->extent[1] = desc->height;
        img->depth = img->extent[2] = desc->depth;
        break;
    default:
        return bad_desc("not a classic image type (1D, 2D, 3D or their arrays)");
    }
    if (img->extent[0] == 0 || img->extent[1] == 0 || img->extent[2] == 0)
        return bad_size(type_is_array(desc->type) && desc->arraySize == 0
                            ? "an array of 0 layers"
                            : "an extent the type uses is 0");

    // The tight layout; a 1D array keeps one row per layer, so its slice is a row.
    size_t rows_per_slice = desc->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? 1 : img->extent[1];
    if (__builtin_mul_overflow(img->extent[0], img->element_size, &img->row_pitch) ||
        __builtin_mul_overflow(img->row_pitch, rows_per_slice, &img->slice_pitch) ||
        __builtin_mul_overflow(img->slice_pitch, img->extent[2], &img->size))
        return bad_size("its size in bytes does not fit a size_t");

    // The host memory's layout: pitches only come with a host pointer (generated check).
    img->host_row_pitch = img->row_pitch;
    img->host_slice_pitch = img->slice_pitch;
    if (host != NULL && desc->rowPitch != 0) {
        if (desc->rowPitch < img->row_pitch || desc->rowPitch % img->element_size != 0)
            return bad_desc("row pitch smaller than a row or not a multiple of the element size");
        img->host_row_pitch = desc->rowPitch;
    }
    size_t min_slice;
    if (__builtin_mul_overflow(img->host_row_pitch, rows_per_slice, &min_slice))
        return bad_size("its host layout does not fit a size_t");
    img->host_slice_pitch = min_slice;
    if (host != NULL && desc->slicePitch != 0) {
        if (!type_has_slices(desc->type))
            return bad_desc("slice pitch given for a 1D or 2D image");
        if (desc->slicePitch < min_slice || desc->slicePitch % img->host_row_pitch != 0)
            return bad_desc("slice pitch smaller than a slice or not a multiple of the row pitch");
        img->host_slice_pitch = desc->slicePitch;
    }
    if (__builtin_mul_overflow(img->host_slice_pitch, img->extent[2], &img->host_size))
        return bad_size("its host layout does not fit a size_t");
    return UR_RESULT_SUCCESS;
}

typedef struct limit_check_t {
    size_t value, limit;
    const char *name;
} limit_check_t;

ur_result_t urc_image_check_limits(const urc_image_t *img, const urc_image_limits_t *lim) {
    size_t w1 = lim->max_1d_width != 0 ? lim->max_1d_width : lim->max_2d_width;
    limit_check_t checks[4] = {{0, 0, NULL}};
    switch (img->type) {
    case UR_MEM_TYPE_IMAGE1D:
    case UR_MEM_TYPE_IMAGE1D_ARRAY:
        checks[0] = (limit_check_t){img->width, w1, "width"};
        break;
    case UR_MEM_TYPE_IMAGE2D:
    case UR_MEM_TYPE_IMAGE2D_ARRAY:
        checks[0] = (limit_check_t){img->width, lim->max_2d_width, "width"};
        checks[1] = (limit_check_t){img->height, lim->max_2d_height, "height"};
        break;
    default:
        checks[0] = (limit_check_t){img->width, lim->max_3d_width, "width"};
        checks[1] = (limit_check_t){img->height, lim->max_3d_height, "height"};
        checks[2] = (limit_check_t){img->depth, lim->max_3d_depth, "depth"};
        break;
    }
    if (type_is_array(img->type))
        checks[3] = (limit_check_t){img->array_size, lim->max_array_size, "array size"};
    for (int i = 0; i < 4; ++i)
        if (checks[i].name != NULL && checks[i].limit != 0 && checks[i].value > checks[i].limit)
            return urc_error_set(UR_RESULT_ERROR_INVALID_IMAGE_SIZE, 0,
                                 "image: %s %zu exceeds the device's limit of %zu", checks[i].name,
                                 checks[i].value, checks[i].limit);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_image_check_region(const urc_image_t *img, ur_rect_offset_t origin,
                                   ur_rect_region_t region) {
    const uint64_t o[3] = {origin.x, origin.y, origin.z};
    const uint64_t r[3] = {region.width, region.height, region.depth};
    for (int i = 0; i < 3; ++i) {
        uint64_t end;
        if (r[i] == 0 || __builtin_add_overflow(o[i], r[i], &end) || end > img->extent[i])
            return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                                 "image region: origin %llu + extent %llu in dimension %d lies "
                                 "outside the image's %zu",
                                 (unsigned long long)o[i], (unsigned long long)r[i], i,
                                 img->extent[i]);
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_image_host_pitches(const urc_image_t *img, const ur_rect_region_t *region,
                                   size_t *row_pitch, size_t *slice_pitch, size_t *host_bytes) {
    size_t row_bytes, min_slice, end;
    size_t rows = img->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? 1 : (size_t)region->height;
    size_t slices =
        img->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? (size_t)region->height : (size_t)region->depth;
    if (__builtin_mul_overflow((size_t)region->width, img->element_size, &row_bytes))
        goto bad;
    if (*row_pitch == 0)
        *row_pitch = row_bytes;
    if (*row_pitch < row_bytes || __builtin_mul_overflow(*row_pitch, rows, &min_slice))
        goto bad;
    if (*slice_pitch == 0)
        *slice_pitch = min_slice;
    if (*slice_pitch < min_slice)
        goto bad;
    // The last slice's last row ends the span: (slices - 1) * slice + (rows - 1) * row + row_bytes.
    if (__builtin_mul_overflow(slices - 1, *slice_pitch, &end) ||
        __builtin_add_overflow(end, (rows - 1) * *row_pitch, &end) ||
        __builtin_add_overflow(end, row_bytes, &end))
        goto bad;
    if (host_bytes != NULL)
        *host_bytes = end;
    return UR_RESULT_SUCCESS;
bad:
    return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                         "image copy: a host pitch is smaller than the region it spans, or the "
                         "host layout does not fit a size_t");
}

ur_result_t urc_image_check_copy(const urc_image_t *src, const urc_image_t *dst,
                                 ur_rect_offset_t src_origin, ur_rect_offset_t dst_origin,
                                 ur_rect_region_t region) {
    if (src->format.channelOrder != dst->format.channelOrder ||
        src->format.channelType != dst->format.channelType)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "image copy: the two images have different formats");
    ur_result_t r = urc_image_check_region(src, src_origin, region);
    return r != UR_RESULT_SUCCESS ? r : urc_image_check_region(dst, dst_origin, region);
}

static ur_result_t not_an_image(void) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0, "a buffer is not an image");
}

ur_result_t urc_image_check_use(const urc_image_t *img, const void *mem_context,
                                const void *queue_context) {
    if (img == NULL)
        return not_an_image();
    if (mem_context != queue_context)
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the image belongs to another context than the queue");
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_image_check_copy_use(const urc_image_t *src, const void *src_context,
                                     const urc_image_t *dst, const void *dst_context,
                                     const void *queue_context, ur_rect_offset_t src_origin,
                                     ur_rect_offset_t dst_origin, ur_rect_region_t region) {
    ur_result_t res = urc_image_check_use(src, src_context, queue_context);
    if (res == UR_RESULT_SUCCESS)
        res = urc_image_check_use(dst, dst_context, queue_context);
    if (res == UR_RESULT_SUCCESS)
        res = urc_image_check_copy(src, dst, src_origin, dst_origin, region);
    return res;
}

ur_result_t urc_image_describe_native(urc_image_t *img, ur_native_handle_t native,
                                      const ur_image_format_t *format,
                                      const ur_image_desc_t *desc) {
    if (native == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_NULL_HANDLE, 0, "the native image is 0");
    return urc_image_describe(img, format, desc, NULL);
}

ur_result_t urc_image_check_transfer(const urc_image_t *img, const void *mem_context,
                                     const void *queue_context, ur_rect_offset_t origin,
                                     ur_rect_region_t region, size_t *row_pitch,
                                     size_t *slice_pitch) {
    ur_result_t res = urc_image_check_use(img, mem_context, queue_context);
    if (res == UR_RESULT_SUCCESS)
        res = urc_image_check_region(img, origin, region);
    if (res == UR_RESULT_SUCCESS)
        res = urc_image_host_pitches(img, &region, row_pitch, slice_pitch, NULL);
    return res;
}

ur_result_t urc_image_info(const urc_info_t *out, ur_image_info_t prop, const urc_image_t *img) {
    if (img == NULL)
        return not_an_image();
    switch (prop) {
    case UR_IMAGE_INFO_FORMAT:
        return urc_info_bytes(out, &img->format, sizeof img->format);
    case UR_IMAGE_INFO_ELEMENT_SIZE:
        return urc_info_size(out, img->element_size);
    case UR_IMAGE_INFO_ROW_PITCH:
        return urc_info_size(out, img->row_pitch);
    case UR_IMAGE_INFO_SLICE_PITCH:
        return urc_info_size(out, type_has_slices(img->type) ? img->slice_pitch : 0);
    case UR_IMAGE_INFO_WIDTH:
        return urc_info_size(out, img->width);
    case UR_IMAGE_INFO_HEIGHT:
        return urc_info_size(out, img->height);
    case UR_IMAGE_INFO_DEPTH:
        return urc_info_size(out, img->depth);
    case UR_IMAGE_INFO_ARRAY_SIZE:
        return urc_info_size(out, img->array_size);
    case UR_IMAGE_INFO_NUM_MIP_LEVELS:
    case UR_IMAGE_INFO_NUM_SAMPLES:
        return urc_info_u32(out, 0);
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

size_t urc_image_offset(const urc_image_t *img, size_t row_pitch, size_t slice_pitch, size_t x,
                        size_t y, size_t z) {
    if (img->type == UR_MEM_TYPE_IMAGE1D_ARRAY)
        return x * img->element_size + y * slice_pitch;
    return x * img->element_size + y * row_pitch + z * slice_pitch;
}

void urc_image_copy_box(const urc_image_t *img, void *dst, size_t dst_row, size_t dst_slice,
                        const size_t dst_origin[3], const void *src, size_t src_row,
                        size_t src_slice, const size_t src_origin[3], const size_t region[3]) {
    size_t bytes = region[0] * img->element_size;
    for (size_t z = 0; z < region[2]; ++z)
        for (size_t y = 0; y < region[1]; ++y)
            memmove((char *)dst + urc_image_offset(img, dst_row, dst_slice, dst_origin[0],
                                                   dst_origin[1] + y, dst_origin[2] + z),
                    (const char *)src + urc_image_offset(img, src_row, src_slice, src_origin[0],
                                                         src_origin[1] + y, src_origin[2] + z),
                    bytes);
}

ur_result_t urc_sampler_describe(urc_sampler_t *s, const ur_sampler_desc_t *desc) {
    if (desc->stype != UR_STRUCTURE_TYPE_SAMPLER_DESC)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "sampler: the descriptor's stype is not SAMPLER_DESC");
    memset(s, 0, sizeof *s);
    s->normalized = desc->normalizedCoords;
    s->addressing[0] = s->addressing[1] = s->addressing[2] = desc->addressingMode;
    s->filter = desc->filterMode;
    s->mip_filter = UR_SAMPLER_FILTER_MODE_NEAREST;
    s->max_lod = 0.0f;
    const ur_base_properties_t *p = desc->pNext;
    // A chain longer than any real one is taken for a loop or garbage.
    for (int n = 0; p != NULL; p = p->pNext, ++n) {
        if (n == 64)
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "sampler: more than 64 structs on the pNext chain");
        if (p->stype == UR_STRUCTURE_TYPE_EXP_SAMPLER_MIP_PROPERTIES) {
            const ur_exp_sampler_mip_properties_t *m = (const void *)p;
            if ((uint32_t)m->mipFilterMode > UR_SAMPLER_FILTER_MODE_LINEAR)
                return urc_error_set(UR_RESULT_ERROR_INVALID_ENUMERATION, 0,
                                     "sampler: unknown mip filter mode %u",
                                     (unsigned)m->mipFilterMode);
            if (!(m->maxAnisotropy >= 0.0f) || !(m->minMipmapLevelClamp <= m->maxMipmapLevelClamp))
                return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                     "sampler: negative anisotropy or min LOD above max LOD");
            s->mip_filter = m->mipFilterMode;
            s->min_lod = m->minMipmapLevelClamp;
            s->max_lod = m->maxMipmapLevelClamp;
            s->max_anisotropy = m->maxAnisotropy;
        } else if (p->stype == UR_STRUCTURE_TYPE_EXP_SAMPLER_ADDR_MODES) {
            const ur_exp_sampler_addr_modes_t *a = (const void *)p;
            for (int i = 0; i < 3; ++i) {
                if ((uint32_t)a->addrModes[i] > UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT)
                    return urc_error_set(UR_RESULT_ERROR_INVALID_ENUMERATION, 0,
                                         "sampler: unknown addressing mode %u",
                                         (unsigned)a->addrModes[i]);
                s->addressing[i] = a->addrModes[i];
            }
        } else if (p->stype == UR_STRUCTURE_TYPE_EXP_SAMPLER_CUBEMAP_PROPERTIES) {
            const ur_exp_sampler_cubemap_properties_t *c = (const void *)p;
            if ((uint32_t)c->cubemapFilterMode > UR_EXP_SAMPLER_CUBEMAP_FILTER_MODE_SEAMLESS)
                return urc_error_set(UR_RESULT_ERROR_INVALID_ENUMERATION, 0,
                                     "sampler: unknown cubemap filter mode %u",
                                     (unsigned)c->cubemapFilterMode);
            s->seamless_cubemap =
                c->cubemapFilterMode == UR_EXP_SAMPLER_CUBEMAP_FILTER_MODE_SEAMLESS;
        }
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_sampler_info(const urc_info_t *out, ur_sampler_info_t prop, const urc_sampler_t *s,
                             ur_context_handle_t context, uint32_t refcount) {
    switch (prop) {
    case UR_SAMPLER_INFO_REFERENCE_COUNT:
        return urc_info_u32(out, refcount);
    case UR_SAMPLER_INFO_CONTEXT:
        return urc_info_ptr(out, context);
    case UR_SAMPLER_INFO_NORMALIZED_COORDS:
        return urc_info_bool(out, s->normalized);
    case UR_SAMPLER_INFO_ADDRESSING_MODE:
        return urc_info_bytes(out, &s->addressing[0], sizeof s->addressing[0]);
    case UR_SAMPLER_INFO_FILTER_MODE:
        return urc_info_bytes(out, &s->filter, sizeof s->filter);
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}
