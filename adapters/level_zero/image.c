// SPDX-License-Identifier: MIT
// Images over zeImageCreate: the rules are common/image/image's; this file maps UR's formats to
// Level Zero layouts and swizzles, and reads, writes and copies boxes with
// zeCommandListAppendImageCopy* (the Ext forms when the host rows or slices are not tight). Regions
// follow Intel's driver and OpenCL: a 1D array's layer is y, a 2D array's z.
#include "l0_internal.h"

// A memory object's image description (NULL for a buffer) and its context.
static const urc_image_t *image_of(ur_mem_handle_t h, const void **context) {
    const l0_mem_t *m = L0_MEM(h);
    *context = m->ctx;
    return m->is_image ? &m->img : NULL;
}

static const void *queue_context(ur_queue_handle_t h) {
    return L0_QUEUE(h)->ctx;
}

URC_IMAGE_GET_INFO(l0, image_of)

bool l0_image_format(const ur_image_format_t *f, ze_image_format_t *out) {
    ze_image_format_type_t type;
    unsigned bits;
    switch (f->channelType) {
    case UR_IMAGE_CHANNEL_TYPE_SNORM_INT8:
        type = ZE_IMAGE_FORMAT_TYPE_SNORM, bits = 8;
        break;
    case UR_IMAGE_CHANNEL_TYPE_SNORM_INT16:
        type = ZE_IMAGE_FORMAT_TYPE_SNORM, bits = 16;
        break;
    case UR_IMAGE_CHANNEL_TYPE_UNORM_INT8:
        type = ZE_IMAGE_FORMAT_TYPE_UNORM, bits = 8;
        break;
    case UR_IMAGE_CHANNEL_TYPE_UNORM_INT16:
        type = ZE_IMAGE_FORMAT_TYPE_UNORM, bits = 16;
        break;
    case UR_IMAGE_CHANNEL_TYPE_SIGNED_INT8:
        type = ZE_IMAGE_FORMAT_TYPE_SINT, bits = 8;
        break;
    case UR_IMAGE_CHANNEL_TYPE_SIGNED_INT16:
        type = ZE_IMAGE_FORMAT_TYPE_SINT, bits = 16;
        break;
    case UR_IMAGE_CHANNEL_TYPE_SIGNED_INT32:
        type = ZE_IMAGE_FORMAT_TYPE_SINT, bits = 32;
        break;
    case UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8:
        type = ZE_IMAGE_FORMAT_TYPE_UINT, bits = 8;
        break;
    case UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16:
        type = ZE_IMAGE_FORMAT_TYPE_UINT, bits = 16;
        break;
    case UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32:
        type = ZE_IMAGE_FORMAT_TYPE_UINT, bits = 32;
        break;
    case UR_IMAGE_CHANNEL_TYPE_HALF_FLOAT:
        type = ZE_IMAGE_FORMAT_TYPE_FLOAT, bits = 16;
        break;
    case UR_IMAGE_CHANNEL_TYPE_FLOAT:
        type = ZE_IMAGE_FORMAT_TYPE_FLOAT, bits = 32;
        break;
    case UR_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565:
        *out = (ze_image_format_t){ZE_IMAGE_FORMAT_LAYOUT_5_6_5, ZE_IMAGE_FORMAT_TYPE_UNORM,
                                   ZE_IMAGE_FORMAT_SWIZZLE_R,    ZE_IMAGE_FORMAT_SWIZZLE_G,
                                   ZE_IMAGE_FORMAT_SWIZZLE_B,    ZE_IMAGE_FORMAT_SWIZZLE_1};
        return true;
    case UR_IMAGE_CHANNEL_TYPE_INT_101010:
        *out = (ze_image_format_t){ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, ZE_IMAGE_FORMAT_TYPE_UNORM,
                                   ZE_IMAGE_FORMAT_SWIZZLE_R,         ZE_IMAGE_FORMAT_SWIZZLE_G,
                                   ZE_IMAGE_FORMAT_SWIZZLE_B,         ZE_IMAGE_FORMAT_SWIZZLE_1};
        return true;
    default: // 5-5-5 has no Level Zero layout
        return false;
    }
    // Which stored channel each of x, y, z, w reads.
    const ze_image_format_swizzle_t R = ZE_IMAGE_FORMAT_SWIZZLE_R, G = ZE_IMAGE_FORMAT_SWIZZLE_G,
                                    B = ZE_IMAGE_FORMAT_SWIZZLE_B, A = ZE_IMAGE_FORMAT_SWIZZLE_A,
                                    Z = ZE_IMAGE_FORMAT_SWIZZLE_0, O = ZE_IMAGE_FORMAT_SWIZZLE_1;
    ze_image_format_swizzle_t s[4];
    unsigned channels;
    switch (f->channelOrder) {
    case UR_IMAGE_CHANNEL_ORDER_R:
    case UR_IMAGE_CHANNEL_ORDER_RX:
        channels = 1, s[0] = R, s[1] = Z, s[2] = Z, s[3] = O;
        break;
    case UR_IMAGE_CHANNEL_ORDER_A:
        channels = 1, s[0] = Z, s[1] = Z, s[2] = Z, s[3] = R;
        break;
    case UR_IMAGE_CHANNEL_ORDER_RG:
    case UR_IMAGE_CHANNEL_ORDER_RGX:
        channels = 2, s[0] = R, s[1] = G, s[2] = Z, s[3] = O;
        break;
    case UR_IMAGE_CHANNEL_ORDER_RA:
        channels = 2, s[0] = R, s[1] = Z, s[2] = Z, s[3] = G;
        break;
    case UR_IMAGE_CHANNEL_ORDER_RGBA:
        channels = 4, s[0] = R, s[1] = G, s[2] = B, s[3] = A;
        break;
    case UR_IMAGE_CHANNEL_ORDER_BGRA:
        channels = 4, s[0] = B, s[1] = G, s[2] = R, s[3] = A;
        break;
    case UR_IMAGE_CHANNEL_ORDER_ARGB:
        channels = 4, s[0] = G, s[1] = B, s[2] = A, s[3] = R;
        break;
    case UR_IMAGE_CHANNEL_ORDER_ABGR:
        channels = 4, s[0] = A, s[1] = B, s[2] = G, s[3] = R;
        break;
    case UR_IMAGE_CHANNEL_ORDER_RGBX:
        channels = 4, s[0] = R, s[1] = G, s[2] = B, s[3] = O;
        break;
    default: // INTENSITY, LUMINANCE, sRGBA and unpacked RGB have no Level Zero layout
        return false;
    }
    static const ze_image_format_layout_t layouts[3][3] = {
        {ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_LAYOUT_16, ZE_IMAGE_FORMAT_LAYOUT_32},
        {ZE_IMAGE_FORMAT_LAYOUT_8_8, ZE_IMAGE_FORMAT_LAYOUT_16_16, ZE_IMAGE_FORMAT_LAYOUT_32_32},
        {ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16,
         ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32}};
    unsigned row = channels == 4 ? 2 : channels - 1, col = bits == 8 ? 0 : bits == 16 ? 1 : 2;
    *out = (ze_image_format_t){layouts[row][col], type, s[0], s[1], s[2], s[3]};
    return true;
}

ze_image_type_t l0_image_type(ur_mem_type_t t) {
    switch (t) {
    case UR_MEM_TYPE_IMAGE1D:
        return ZE_IMAGE_TYPE_1D;
    case UR_MEM_TYPE_IMAGE1D_ARRAY:
        return ZE_IMAGE_TYPE_1DARRAY;
    case UR_MEM_TYPE_IMAGE2D:
        return ZE_IMAGE_TYPE_2D;
    case UR_MEM_TYPE_IMAGE2D_ARRAY:
        return ZE_IMAGE_TYPE_2DARRAY;
    default:
        return ZE_IMAGE_TYPE_3D;
    }
}

typedef struct upload_t {
    ze_image_handle_t image;
    const void *host;
    const urc_image_t *img;
} upload_t;

static ze_result_t append_upload(ze_command_list_handle_t list, ze_event_handle_t ev, void *arg) {
    const upload_t *u = arg;
    ze_image_region_t all = {0,
                             0,
                             0,
                             (uint32_t)u->img->extent[0],
                             (uint32_t)u->img->extent[1],
                             (uint32_t)u->img->extent[2]};
    if (u->img->host_row_pitch == u->img->row_pitch &&
        u->img->host_slice_pitch == u->img->slice_pitch)
        return zeCommandListAppendImageCopyFromMemory(list, u->image, u->host, &all, ev, 0, NULL);
    // As in transfer(): a 1D array's layers step by the row pitch.
    size_t row = u->img->host_row_pitch, slice = u->img->host_slice_pitch;
    if (u->img->type == UR_MEM_TYPE_IMAGE1D_ARRAY) {
        row = slice;
        slice *= u->img->extent[1];
    }
    return zeCommandListAppendImageCopyFromMemoryExt(list, u->image, u->host, &all, (uint32_t)row,
                                                     (uint32_t)slice, ev, 0, NULL);
}

ur_result_t l0_mem_image_create(ur_context_handle_t hContext, ur_mem_flags_t flags,
                                const ur_image_format_t *pImageFormat,
                                const ur_image_desc_t *pImageDesc, void *pHost,
                                ur_mem_handle_t *phMem) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    ur_result_t res = urc_buffer_check_create(flags, pHost);
    urc_image_t img;
    if (res == UR_RESULT_SUCCESS)
        res = urc_image_describe(&img, pImageFormat, pImageDesc, pHost);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_device_t *dev = ctx->devices[0];
    if (dev->image.maxImageDims2D == 0)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the device has no images (maxImageDims2D is 0)");
    const urc_image_limits_t lim = {dev->image.maxImageDims1D,     dev->image.maxImageDims2D,
                                    dev->image.maxImageDims2D,     dev->image.maxImageDims3D,
                                    dev->image.maxImageDims3D,     dev->image.maxImageDims3D,
                                    dev->image.maxImageArraySlices};
    if ((res = urc_image_check_limits(&img, &lim)) != UR_RESULT_SUCCESS)
        return res;
    // Level Zero's extents and pitches are 32-bit; the limits above keep extents inside.
    if (pHost != NULL && (img.host_row_pitch > UINT32_MAX || img.host_size > UINT32_MAX))
        return urc_error_set(UR_RESULT_ERROR_INVALID_IMAGE_SIZE, 0,
                             "host pitches beyond 32 bits, which Level Zero cannot take");
    ze_image_desc_t desc = {ZE_STRUCTURE_TYPE_IMAGE_DESC,
                            NULL,
                            0,
                            l0_image_type(img.type),
                            {0},
                            img.width,
                            (uint32_t)img.height,
                            (uint32_t)img.depth,
                            (uint32_t)img.array_size,
                            0};
    if (!(flags & UR_MEM_FLAG_READ_ONLY))
        desc.flags |= ZE_IMAGE_FLAG_KERNEL_WRITE;
    if (!l0_image_format(pImageFormat, &desc.format))
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, 0,
                             "Level Zero has no layout for this channel order and type");
    // Level Zero wants 1 for the extents a type lacks.
    if (desc.height == 0)
        desc.height = 1;
    if (desc.depth == 0)
        desc.depth = 1;
    l0_mem_t *m = l0_mem_new(ctx, flags, img.size, L0_MEM_DEVICE);
    if (m == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    m->is_image = true;
    m->img = img;
    res = l0_ok(zeImageCreate(ctx->ze, dev->ze, &desc, &m->image), "zeImageCreate");
    if (res == UR_RESULT_SUCCESS) {
        m->owns_ptr = true;
        // Host memory is copied in once; USE_HOST_POINTER does not keep the two in step (an
        // image has no map in UR, so nothing observes the host copy).
        if (pHost != NULL) {
            upload_t up = {m->image, pHost, &m->img};
            res =
                l0_run_now(ctx, dev, append_upload, &up, "zeCommandListAppendImageCopyFromMemory");
        }
    }
    if (res != UR_RESULT_SUCCESS) {
        l0_mem_release_internal(m);
        return res;
    }
    *phMem = (ur_mem_handle_t)m;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_mem_image_create_with_native_handle(ur_native_handle_t hNativeMem,
                                                   ur_context_handle_t hContext,
                                                   const ur_image_format_t *pImageFormat,
                                                   const ur_image_desc_t *pImageDesc,
                                                   const ur_mem_native_properties_t *pProps,
                                                   ur_mem_handle_t *phMem) {
    urc_image_t img;
    ur_result_t res = urc_image_describe_native(&img, hNativeMem, pImageFormat, pImageDesc);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_mem_t *m = l0_mem_new(L0_CONTEXT(hContext), UR_MEM_FLAG_READ_WRITE, img.size, L0_MEM_DEVICE);
    if (m == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    m->is_image = true;
    m->img = img;
    m->image = (ze_image_handle_t)hNativeMem;
    m->owns_ptr = pProps != NULL && pProps->isNativeHandleOwned;
    *phMem = (ur_mem_handle_t)m;
    return UR_RESULT_SUCCESS;
}

// ---- reads, writes and copies ------------------------------------------------------------------

static ze_image_region_t ze_region(ur_rect_offset_t o, ur_rect_region_t r) {
    // The region was checked against the image, whose extents are 32-bit.
    return (ze_image_region_t){(uint32_t)o.x,     (uint32_t)o.y,      (uint32_t)o.z,
                               (uint32_t)r.width, (uint32_t)r.height, (uint32_t)r.depth};
}

static ur_result_t transfer(bool write, ur_queue_handle_t hQueue, ur_mem_handle_t hImage,
                            bool blocking, ur_rect_offset_t origin, ur_rect_region_t region,
                            size_t row, size_t slice, void *host, uint32_t n,
                            const ur_event_handle_t *waits, ur_event_handle_t *phEvent) {
    l0_queue_t *q = L0_QUEUE(hQueue);
    l0_mem_t *m = L0_MEM(hImage);
    size_t rows = m->img.type == UR_MEM_TYPE_IMAGE1D_ARRAY ? 1 : region.height;
    bool tight = row == region.width * m->img.element_size && slice == row * rows;
    // A 1D array's layers are the region's rows to Level Zero: they step by the row pitch.
    if (m->img.type == UR_MEM_TYPE_IMAGE1D_ARRAY) {
        row = slice;
        slice *= region.height;
    }
    if (row > UINT32_MAX || slice > UINT32_MAX)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "host pitches beyond 32 bits, which Level Zero cannot take");
    ze_image_region_t r = ze_region(origin, region);
    l0_op_t op;
    ur_result_t res = l0_op_begin(q, write ? UR_COMMAND_MEM_IMAGE_WRITE : UR_COMMAND_MEM_IMAGE_READ,
                                  n, waits, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    ze_result_t zr;
    if (write && tight)
        zr = zeCommandListAppendImageCopyFromMemory(op.list, m->image, host, &r, op.event->ze,
                                                    op.nwaits, op.waits);
    else if (write)
        zr = zeCommandListAppendImageCopyFromMemoryExt(op.list, m->image, host, &r, (uint32_t)row,
                                                       (uint32_t)slice, op.event->ze, op.nwaits,
                                                       op.waits);
    else if (tight)
        zr = zeCommandListAppendImageCopyToMemory(op.list, host, m->image, &r, op.event->ze,
                                                  op.nwaits, op.waits);
    else
        zr = zeCommandListAppendImageCopyToMemoryExt(op.list, host, m->image, &r, (uint32_t)row,
                                                     (uint32_t)slice, op.event->ze, op.nwaits,
                                                     op.waits);
    return l0_op_end(&op, l0_ok(zr, "zeCommandListAppendImageCopy"), blocking, phEvent);
}

URC_IMAGE_READ_WRITE(l0, image_of, queue_context, transfer)

static ur_result_t copy(ur_queue_handle_t hQueue, ur_mem_handle_t hImageSrc,
                        ur_mem_handle_t hImageDst, ur_rect_offset_t srcOrigin,
                        ur_rect_offset_t dstOrigin, ur_rect_region_t region,
                        uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,
                        ur_event_handle_t *phEvent) {
    l0_queue_t *q = L0_QUEUE(hQueue);
    l0_mem_t *src = L0_MEM(hImageSrc), *dst = L0_MEM(hImageDst);
    ze_image_region_t sr = ze_region(srcOrigin, region), dr = ze_region(dstOrigin, region);
    l0_op_t op;
    ur_result_t res =
        l0_op_begin(q, UR_COMMAND_MEM_IMAGE_COPY, numEventsInWaitList, phEventWaitList, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = l0_ok(zeCommandListAppendImageCopyRegion(op.list, dst->image, src->image, &dr, &sr,
                                                   op.event->ze, op.nwaits, op.waits),
                "zeCommandListAppendImageCopyRegion");
    return l0_op_end(&op, res, false, phEvent);
}

URC_IMAGE_COPY(l0, image_of, queue_context, copy)
