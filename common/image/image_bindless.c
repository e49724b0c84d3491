// SPDX-License-Identifier: MIT
// Bindless image rules shared by every adapter (image_bindless.h).
#include "image/image_bindless.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/error.h"
#include "image/image.h"

bool urc_bindless_is_layered(ur_mem_type_t type) {
    return type == UR_MEM_TYPE_IMAGE1D_ARRAY || type == UR_MEM_TYPE_IMAGE2D_ARRAY ||
           type == UR_MEM_TYPE_IMAGE_CUBEMAP_EXP;
}

static ur_result_t bad_desc(const char *what) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR, 0, "bindless image: %s",
                         what);
}

static ur_result_t bad_size(const char *what) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_IMAGE_SIZE, 0, "bindless image: %s", what);
}

// Levels a full mip chain of this largest extent has: 1 + floor(log2(extent)).
static uint32_t full_chain(size_t extent) {
    uint32_t n = 1;
    while (extent > 1) {
        extent >>= 1;
        ++n;
    }
    return n;
}

ur_result_t urc_bindless_describe(urc_bindless_t *b, const ur_image_format_t *format,
                                  const ur_image_desc_t *desc, bool linear) {
    ur_result_t r = urc_image_check_format(format);
    if (r != UR_RESULT_SUCCESS)
        return r;
    memset(b, 0, sizeof *b);
    b->format = *format;
    b->type = desc->type;
    b->element_size = urc_image_element_size(format);
    b->channels = urc_image_channel_count(format->channelOrder);
    b->width = b->extent[0] = desc->width;
    b->extent[1] = b->extent[2] = 1;
    switch (desc->type) {
    case UR_MEM_TYPE_IMAGE1D:
        break;
    case UR_MEM_TYPE_IMAGE1D_ARRAY:
        b->array_size = b->extent[2] = desc->arraySize;
        break;
    case UR_MEM_TYPE_IMAGE2D:
    case UR_MEM_TYPE_IMAGE_GATHER_EXP: // a 2D image whose texture may gather
        b->height = b->extent[1] = desc->height;
        break;
    case UR_MEM_TYPE_IMAGE2D_ARRAY:
    case UR_MEM_TYPE_IMAGE_CUBEMAP_EXP:
        b->height = b->extent[1] = desc->height;
        b->array_size = b->extent[2] = desc->arraySize;
        break;
    case UR_MEM_TYPE_IMAGE3D:
        b->height = b->extent[1] = desc->height;
        b->depth = b->extent[2] = desc->depth;
        break;
    default:
        return bad_desc("the type is not an image type");
    }
    if (b->extent[0] == 0 || b->extent[1] == 0 || b->extent[2] == 0)
        return bad_size(urc_bindless_is_layered(desc->type) && desc->arraySize == 0
                            ? "an array of 0 layers"
                            : "an extent the type uses is 0");
    if (desc->type == UR_MEM_TYPE_IMAGE_CUBEMAP_EXP &&
        (desc->arraySize != 6 || desc->width != desc->height))
        return bad_desc("a cubemap is 6 square faces (arraySize 6, width == height)");

    // 0 and 1 both mean "no mipmap"; a mipmap is of a 1D, 2D or 3D image only.
    b->levels = desc->numMipLevel > 1 ? desc->numMipLevel : 1;
    if (b->levels > 1) {
        if (desc->type != UR_MEM_TYPE_IMAGE1D && desc->type != UR_MEM_TYPE_IMAGE2D &&
            desc->type != UR_MEM_TYPE_IMAGE3D)
            return bad_desc("only 1D, 2D and 3D images have mip levels");
        size_t largest = b->extent[0];
        if (b->height > largest)
            largest = b->height;
        if (b->depth > largest)
            largest = b->depth;
        if (b->levels > full_chain(largest))
            return bad_size("more mip levels than the largest extent halves into");
    }

    // The tight row, or the row pitch of plain memory holding the image.
    size_t row;
    if (__builtin_mul_overflow(b->extent[0], b->element_size, &row))
        return bad_size("a row's bytes do not fit a size_t");
    b->row_pitch = row;
    if (linear && desc->rowPitch != 0) {
        if (desc->rowPitch < row || desc->rowPitch % b->element_size != 0)
            return bad_desc("row pitch smaller than a row or not a multiple of the element size");
        b->row_pitch = desc->rowPitch;
    }
    if (__builtin_mul_overflow(b->row_pitch, b->extent[1], &b->slice_pitch) ||
        __builtin_mul_overflow(b->slice_pitch, b->extent[2], &b->size))
        return bad_size("its bytes do not fit a size_t");
    return UR_RESULT_SUCCESS;
}

static ur_result_t over(const char *what, size_t value, size_t limit) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_IMAGE_SIZE, 0,
                         "bindless image: %s %zu exceeds the device's %zu", what, value, limit);
}

ur_result_t urc_bindless_check_limits(const urc_bindless_t *b, const urc_image_limits_t *lim) {
    size_t w1 = lim->max_1d_width ? lim->max_1d_width : lim->max_2d_width;
    switch (b->type) {
    case UR_MEM_TYPE_IMAGE1D:
    case UR_MEM_TYPE_IMAGE1D_ARRAY:
        if (w1 && b->width > w1)
            return over("width", b->width, w1);
        break;
    case UR_MEM_TYPE_IMAGE3D:
        if (lim->max_3d_width && b->width > lim->max_3d_width)
            return over("width", b->width, lim->max_3d_width);
        if (lim->max_3d_height && b->height > lim->max_3d_height)
            return over("height", b->height, lim->max_3d_height);
        if (lim->max_3d_depth && b->depth > lim->max_3d_depth)
            return over("depth", b->depth, lim->max_3d_depth);
        break;
    default: // 2D shapes
        if (lim->max_2d_width && b->width > lim->max_2d_width)
            return over("width", b->width, lim->max_2d_width);
        if (lim->max_2d_height && b->height > lim->max_2d_height)
            return over("height", b->height, lim->max_2d_height);
        break;
    }
    if (b->array_size && lim->max_array_size && b->array_size > lim->max_array_size)
        return over("layer count", b->array_size, lim->max_array_size);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_bindless_level(const urc_bindless_t *b, uint32_t level, urc_bindless_t *out) {
    if (level >= b->levels)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "bindless image: mip level %u of an image with %u", level, b->levels);
    *out = *b;
    out->levels = 1;
    size_t *dims[3] = {&out->width, &out->height, &out->depth};
    for (int i = 0; i < 3; ++i) {
        size_t v = *dims[i];
        if (v == 0)
            continue; // a dimension the type lacks stays 0
        v = level < sizeof(size_t) * 8 ? v >> level : 0;
        *dims[i] = v > 0 ? v : 1;
    }
    out->extent[0] = out->width;
    if (out->height != 0)
        out->extent[1] = out->height;
    if (out->depth != 0)
        out->extent[2] = out->depth;
    // Smaller than the level above, so nothing overflows.
    out->row_pitch = out->extent[0] * out->element_size;
    out->slice_pitch = out->row_pitch * out->extent[1];
    out->size = out->slice_pitch * out->extent[2];
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_bindless_copy_sides(ur_exp_image_copy_flags_t flags,
                                    ur_exp_image_copy_input_types_t types,
                                    const ur_image_format_t *src_format,
                                    const ur_image_format_t *dst_format, bool *src_image,
                                    bool *dst_image, bool *src_host, bool *dst_host) {
    ur_result_t r = urc_image_check_format(src_format);
    if (r == UR_RESULT_SUCCESS)
        r = urc_image_check_format(dst_format);
    if (r != UR_RESULT_SUCCESS)
        return r;
    *src_image = types == UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_MEM ||
                 types == UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_IMAGE;
    *dst_image = types == UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE ||
                 types == UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_IMAGE;
    *src_host = flags == UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE ||
                flags == UR_EXP_IMAGE_COPY_FLAG_HOST_TO_HOST;
    *dst_host = flags == UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST ||
                flags == UR_EXP_IMAGE_COPY_FLAG_HOST_TO_HOST;
    if (flags != UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE &&
        flags != UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST &&
        flags != UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_DEVICE &&
        flags != UR_EXP_IMAGE_COPY_FLAG_HOST_TO_HOST)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "image copy: the flags must name exactly one direction");
    if ((*src_image && *src_host) || (*dst_image && *dst_host))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "image copy: host memory cannot be image memory (direction %#x, "
                             "input types %u)",
                             (unsigned)flags, (unsigned)types);
    return UR_RESULT_SUCCESS;
}

// One side: the box (x in bytes) inside the side's extent.
static ur_result_t check_side(const urc_bindless_t *img, const char *side, ur_rect_offset_t o,
                              const size_t extent[3], size_t origin[3]) {
    size_t limit[3] = {img->extent[0] * img->element_size, img->extent[1], img->extent[2]};
    const uint64_t off[3] = {o.x, o.y, o.z};
    if (off[0] % img->element_size != 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "image copy: the %s x offset %llu is not whole elements of %zu bytes",
                             side, (unsigned long long)off[0], img->element_size);
    for (int i = 0; i < 3; ++i) {
        if (off[i] > limit[i] || extent[i] > limit[i] - off[i])
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "image copy: the region leaves the %s in dimension %d (offset "
                                 "%llu, extent %zu, size %zu)",
                                 side, i, (unsigned long long)off[i], extent[i], limit[i]);
        origin[i] = (size_t)off[i];
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_bindless_check_copy(const urc_bindless_t *src, const urc_bindless_t *dst,
                                    const ur_exp_image_copy_region_t *region,
                                    urc_bindless_box_t *box) {
    if (src->element_size != dst->element_size)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "image copy: elements of %zu and %zu bytes", src->element_size,
                             dst->element_size);
    const uint64_t ext[3] = {region->copyExtent.width, region->copyExtent.height,
                             region->copyExtent.depth};
    for (int i = 0; i < 3; ++i) {
        if (ext[i] > SIZE_MAX)
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0, "image copy: extent too large");
        // A dimension neither side has may be given as 0 (SYCL passes 0 or 1 there).
        box->extent[i] = ext[i] == 0 && i > 0 ? 1 : (size_t)ext[i];
    }
    if (box->extent[0] == 0 || box->extent[0] % src->element_size != 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "image copy: a width of %zu bytes is not whole elements of %zu",
                             box->extent[0], src->element_size);
    ur_result_t r = check_side(src, "source", region->srcOffset, box->extent, box->src);
    if (r == UR_RESULT_SUCCESS)
        r = check_side(dst, "destination", region->dstOffset, box->extent, box->dst);
    return r;
}

ur_result_t urc_bindless_info(const urc_info_t *out, ur_image_info_t prop,
                              const urc_bindless_t *b) {
    switch (prop) {
    case UR_IMAGE_INFO_FORMAT:
        return urc_info_bytes(out, &b->format, sizeof b->format);
    case UR_IMAGE_INFO_ELEMENT_SIZE:
        return urc_info_size(out, b->element_size);
    case UR_IMAGE_INFO_ROW_PITCH:
        return urc_info_size(out, b->extent[0] * b->element_size);
    case UR_IMAGE_INFO_SLICE_PITCH:
        return urc_info_size(out,
                             b->extent[2] > 1 ? b->extent[0] * b->element_size * b->extent[1] : 0);
    case UR_IMAGE_INFO_WIDTH:
        return urc_info_size(out, b->width);
    case UR_IMAGE_INFO_HEIGHT:
        return urc_info_size(out, b->height);
    case UR_IMAGE_INFO_DEPTH:
        return urc_info_size(out, b->depth);
    case UR_IMAGE_INFO_ARRAY_SIZE:
        return urc_info_size(out, b->array_size);
    case UR_IMAGE_INFO_NUM_MIP_LEVELS:
        return urc_info_u32(out, b->levels);
    case UR_IMAGE_INFO_NUM_SAMPLES:
        return urc_info_u32(out, 1);
    default:
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION, 0,
                             "image info %u is not answered for bindless images", (unsigned)prop);
    }
}

ur_result_t urc_bindless_check_external_fd(int fd, uint64_t size, uint64_t device_memory) {
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "external import: %d is not an open file descriptor", fd);
    mode_t kind = st.st_mode & S_IFMT;
    if (kind == S_IFDIR || kind == S_IFIFO || kind == S_IFSOCK || kind == S_IFBLK ||
        (kind == S_IFCHR && major(st.st_rdev) == 1))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "external import: file descriptor %d names nothing exported", fd);
    if (size == 0)
        return UR_RESULT_SUCCESS; // a semaphore: nothing to measure
    if (device_memory != 0 && size > device_memory)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "external memory: %llu bytes asked, more than the device's %llu",
                             (unsigned long long)size, (unsigned long long)device_memory);
    uint64_t known = 0;
    if (kind == S_IFREG && st.st_size > 0) {
        known = (uint64_t)st.st_size;
    } else if (kind == 0) {
        // An anonymous inode: a DMA buffer tells its size to lseek (and has no position that
        // matters); anything else refuses the seek.
        off_t end = lseek(fd, 0, SEEK_END);
        if (end > 0) {
            known = (uint64_t)end;
            (void)lseek(fd, 0, SEEK_SET);
        }
    }
    if (known != 0 && size > known)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "external memory: %llu bytes asked of a descriptor of %llu",
                             (unsigned long long)size, (unsigned long long)known);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_bindless_check_external_fit(const urc_bindless_t *b, uint64_t size) {
    if ((uint64_t)b->size > size)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "external memory: a %zu-byte image does not fit the %llu imported",
                             b->size, (unsigned long long)size);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_bindless_check_external_range(uint64_t offset, uint64_t size, uint64_t imported) {
    if (size == 0 || offset > imported || size > imported - offset)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "external memory: %llu bytes at %llu of the %llu imported",
                             (unsigned long long)size, (unsigned long long)offset,
                             (unsigned long long)imported);
    return UR_RESULT_SUCCESS;
}
