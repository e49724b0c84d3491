// SPDX-License-Identifier: MIT
// urBindlessImagesImageCopyExp on CUDA: every direction and input type is one cuMemcpy2DAsync
// (flat boxes between 1D/2D arrays and memory) or cuMemcpy3DAsync (3D images, layers, slices)
// on the queue's stream. common/image/image_bindless checks the sides and the box; image sides are
// arrays this adapter handed out (bindless.c), memory sides are host memory or USM laid out by
// their descriptor's row pitch.
#include <string.h>

#include "bindless.h"

// One side of the copy as the driver takes it.
typedef struct side_t {
    CUmemorytype type;
    CUarray array;
    const void *ptr;
    size_t pitch, rows; // memory: bytes per row, rows per slice
    bool deep;          // a 3D or layered array, which cuMemcpy2D cannot address
    urc_bindless_t desc;
} side_t;

static ur_result_t image_side(const cuda_context_t *ctx, const void *ptr, const char *which,
                              side_t *s) {
    cuda_bl_mem_t m;
    if (!cuda_bl_mem_find(ctx, (uintptr_t)ptr, &m))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "image copy: the %s is not image memory of the queue's context",
                             which);
    if (m.kind == CUDA_BL_MIPMAP)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "image copy: the %s is a mipmap; copy its levels "
                             "(urBindlessImagesMipmapGetLevelExp)",
                             which);
    memset(s, 0, sizeof *s);
    s->type = CU_MEMORYTYPE_ARRAY;
    s->array = (CUarray)ptr;
    s->desc = m.desc;
    s->deep = m.desc.type == UR_MEM_TYPE_IMAGE3D || urc_bindless_is_layered(m.desc.type);
    return UR_RESULT_SUCCESS;
}

static ur_result_t memory_side(const void *ptr, bool host, const ur_image_format_t *format,
                               const ur_image_desc_t *desc, const char *which, side_t *s) {
    memset(s, 0, sizeof *s);
    ur_result_t r = urc_bindless_describe(&s->desc, format, desc, true);
    if (r != UR_RESULT_SUCCESS)
        return r;
    s->ptr = ptr;
    s->pitch = s->desc.row_pitch;
    s->rows = s->desc.extent[1];
    if (host) {
        s->type = CU_MEMORYTYPE_HOST;
        return UR_RESULT_SUCCESS;
    }
    // Device-side memory is USM (device, host or shared) that must hold the whole layout.
    cuda_pointer_t info;
    if (cuda_pointer_query(ptr, &info) != UR_RESULT_SUCCESS || info.memory_type == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "image copy: the %s is neither image memory nor USM", which);
    size_t used = (size_t)((uintptr_t)ptr - (uintptr_t)info.base);
    if (used > info.range || s->desc.size > info.range - used)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "image copy: the %s's %zu bytes leave its USM allocation", which,
                             s->desc.size);
    s->type = CU_MEMORYTYPE_UNIFIED; // the driver tells device from host USM itself
    return UR_RESULT_SUCCESS;
}

// A box one slice deep between flat sides goes through cuMemcpy2D, the rest through cuMemcpy3D.
static bool flat(const side_t *src, const side_t *dst, const urc_bindless_box_t *box) {
    return box->extent[2] == 1 && box->src[2] == 0 && box->dst[2] == 0 && !src->deep && !dst->deep;
}

static CUresult copy(CUstream stream, const side_t *src, const side_t *dst,
                     const urc_bindless_box_t *box) {
    if (flat(src, dst, box)) {
        CUDA_MEMCPY2D p;
        memset(&p, 0, sizeof p);
        p.srcMemoryType = src->type;
        p.srcArray = src->array;
        p.srcHost = src->ptr;
        p.srcDevice = (CUdeviceptr)src->ptr;
        p.srcPitch = src->pitch;
        p.srcXInBytes = box->src[0];
        p.srcY = box->src[1];
        p.dstMemoryType = dst->type;
        p.dstArray = dst->array;
        p.dstHost = (void *)dst->ptr;
        p.dstDevice = (CUdeviceptr)dst->ptr;
        p.dstPitch = dst->pitch;
        p.dstXInBytes = box->dst[0];
        p.dstY = box->dst[1];
        p.WidthInBytes = box->extent[0];
        p.Height = box->extent[1];
        return cu.Memcpy2DAsync(&p, stream);
    }
    CUDA_MEMCPY3D p;
    memset(&p, 0, sizeof p);
    p.srcMemoryType = src->type;
    p.srcArray = src->array;
    p.srcHost = src->ptr;
    p.srcDevice = (CUdeviceptr)src->ptr;
    p.srcPitch = src->pitch;
    p.srcHeight = src->rows;
    p.srcXInBytes = box->src[0];
    p.srcY = box->src[1];
    p.srcZ = box->src[2];
    p.dstMemoryType = dst->type;
    p.dstArray = dst->array;
    p.dstHost = (void *)dst->ptr;
    p.dstDevice = (CUdeviceptr)dst->ptr;
    p.dstPitch = dst->pitch;
    p.dstHeight = dst->rows;
    p.dstXInBytes = box->dst[0];
    p.dstY = box->dst[1];
    p.dstZ = box->dst[2];
    p.WidthInBytes = box->extent[0];
    p.Height = box->extent[1];
    p.Depth = box->extent[2];
    return cu.Memcpy3DAsync(&p, stream);
}

ur_result_t cuda_bindless_images_image_copy_exp(
    ur_queue_handle_t hQueue, const void *pSrc, void *pDst, const ur_image_desc_t *pSrcImageDesc,
    const ur_image_desc_t *pDstImageDesc, const ur_image_format_t *pSrcImageFormat,
    const ur_image_format_t *pDstImageFormat, ur_exp_image_copy_region_t *pCopyRegion,
    ur_exp_image_copy_flags_t imageCopyFlags, ur_exp_image_copy_input_types_t imageCopyInputTypes,
    uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,
    ur_event_handle_t *phEvent) {
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    if (!cuda_bindless_available())
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the CUDA driver lacks what bindless images need");
    bool src_image, dst_image, src_host, dst_host;
    ur_result_t r =
        urc_bindless_copy_sides(imageCopyFlags, imageCopyInputTypes, pSrcImageFormat,
                                pDstImageFormat, &src_image, &dst_image, &src_host, &dst_host);
    if (r != UR_RESULT_SUCCESS)
        return r;
    if (pCopyRegion->stype != UR_STRUCTURE_TYPE_EXP_IMAGE_COPY_REGION)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "image copy: the region's stype is not EXP_IMAGE_COPY_REGION");
    side_t src, dst;
    r = src_image ? image_side(q->ctx, pSrc, "source", &src)
                  : memory_side(pSrc, src_host, pSrcImageFormat, pSrcImageDesc, "source", &src);
    if (r == UR_RESULT_SUCCESS)
        r = dst_image
                ? image_side(q->ctx, pDst, "destination", &dst)
                : memory_side(pDst, dst_host, pDstImageFormat, pDstImageDesc, "destination", &dst);
    urc_bindless_box_t box;
    if (r == UR_RESULT_SUCCESS)
        r = urc_bindless_check_copy(&src.desc, &dst.desc, pCopyRegion, &box);
    if (r != UR_RESULT_SUCCESS)
        return r;
    cuda_op_t op;
    r = cuda_op_begin(q, UR_COMMAND_MEM_IMAGE_COPY, numEventsInWaitList, phEventWaitList, phEvent,
                      &op);
    if (r != UR_RESULT_SUCCESS)
        return r;
    const char *call = flat(&src, &dst, &box) ? "cuMemcpy2DAsync" : "cuMemcpy3DAsync";
    return cuda_op_end(&op, cuda_ok(copy(op.stream, &src, &dst, &box), call), false, phEvent);
}
