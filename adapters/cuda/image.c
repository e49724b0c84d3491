// SPDX-License-Identifier: MIT
// Images on CUDA arrays: the rules are common/image/image's; this file maps UR's formats to array
// formats (R, RG and RGBA of 8/16/32-bit integers, half and float; normalised types are the same
// storage, read normalised by texture fetches), creates the array with a surface object kernels
// receive, and reads, writes and copies boxes with cuMemcpy3DAsync. A 1D array is a layered 1D
// CUDA array (layers in z), a 2D array a layered 2D one.
#include <string.h>

#include "cuda_internal.h"

// A memory object's image description (NULL for a buffer) and its context.
static const urc_image_t *image_of(ur_mem_handle_t h, const void **context) {
    const cuda_mem_t *m = CUDA_MEM(h);
    *context = m->ctx;
    return m->is_image ? &m->img : NULL;
}

static const void *queue_context(ur_queue_handle_t h) {
    return CUDA_QUEUE(h)->ctx;
}

URC_IMAGE_GET_INFO(cuda, image_of)

bool cuda_images_available(void) {
    return cu.Array3DCreate != NULL && cu.ArrayDestroy != NULL && cu.SurfObjectCreate != NULL &&
           cu.SurfObjectDestroy != NULL;
}

bool cuda_array_format(const ur_image_format_t *f, CUarray_format *format, unsigned *channels) {
    switch (f->channelOrder) {
    case UR_IMAGE_CHANNEL_ORDER_R:
        *channels = 1;
        break;
    case UR_IMAGE_CHANNEL_ORDER_RG:
        *channels = 2;
        break;
    case UR_IMAGE_CHANNEL_ORDER_RGBA:
        *channels = 4;
        break;
    default:
        return false;
    }
    switch (f->channelType) {
    case UR_IMAGE_CHANNEL_TYPE_UNORM_INT8:
    case UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8:
        *format = CU_AD_FORMAT_UNSIGNED_INT8;
        return true;
    case UR_IMAGE_CHANNEL_TYPE_UNORM_INT16:
    case UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16:
        *format = CU_AD_FORMAT_UNSIGNED_INT16;
        return true;
    case UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32:
        *format = CU_AD_FORMAT_UNSIGNED_INT32;
        return true;
    case UR_IMAGE_CHANNEL_TYPE_SNORM_INT8:
    case UR_IMAGE_CHANNEL_TYPE_SIGNED_INT8:
        *format = CU_AD_FORMAT_SIGNED_INT8;
        return true;
    case UR_IMAGE_CHANNEL_TYPE_SNORM_INT16:
    case UR_IMAGE_CHANNEL_TYPE_SIGNED_INT16:
        *format = CU_AD_FORMAT_SIGNED_INT16;
        return true;
    case UR_IMAGE_CHANNEL_TYPE_SIGNED_INT32:
        *format = CU_AD_FORMAT_SIGNED_INT32;
        return true;
    case UR_IMAGE_CHANNEL_TYPE_HALF_FLOAT:
        *format = CU_AD_FORMAT_HALF;
        return true;
    case UR_IMAGE_CHANNEL_TYPE_FLOAT:
        *format = CU_AD_FORMAT_FLOAT;
        return true;
    default: // packed types have no CUDA array format
        return false;
    }
}

void cuda_image_free(cuda_mem_t *m) {
    if (m->surf != 0)
        (void)cuda_ok(cu.SurfObjectDestroy(m->surf), "cuSurfObjectDestroy");
    if (m->array != NULL && m->owns_native)
        (void)cuda_ok(cu.ArrayDestroy(m->array), "cuArrayDestroy");
}

// One side of a copy in cuMemcpy3D's terms.
typedef struct side_t {
    CUmemorytype type;
    CUarray array;
    const void *host;
    size_t x, y, z;     // origin: x in bytes
    size_t pitch, rows; // host: bytes per row, rows per slice
} side_t;

// The box (x, y, z) of an image as a CUDA array sees it: a 1D array's layer moves to z.
static void array_side(const cuda_mem_t *m, ur_rect_offset_t o, side_t *s) {
    memset(s, 0, sizeof *s);
    s->type = CU_MEMORYTYPE_ARRAY;
    s->array = m->array;
    s->x = (size_t)o.x * m->img.element_size;
    s->y = m->img.type == UR_MEM_TYPE_IMAGE1D_ARRAY ? 0 : (size_t)o.y;
    s->z = m->img.type == UR_MEM_TYPE_IMAGE1D_ARRAY ? (size_t)o.y : (size_t)o.z;
}

static void cuda_region(const urc_image_t *img, ur_rect_region_t r, size_t *height, size_t *depth) {
    *height = img->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? 1 : (size_t)r.height;
    *depth = img->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? (size_t)r.height : (size_t)r.depth;
}

// cuMemcpy3D takes a host slice as a whole number of rows; other slice pitches go one slice
// at a time.
static CUresult copy3d(CUstream stream, const side_t *src, const side_t *dst, size_t width_bytes,
                       size_t height, size_t depth, size_t host_slice) {
    CUDA_MEMCPY3D p;
    memset(&p, 0, sizeof p);
    p.srcMemoryType = src->type;
    p.srcArray = src->array;
    p.srcHost = src->host;
    p.srcXInBytes = src->x;
    p.srcY = src->y;
    p.srcZ = src->z;
    p.srcPitch = src->pitch;
    p.srcHeight = src->rows;
    p.dstMemoryType = dst->type;
    p.dstArray = dst->array;
    p.dstHost = (void *)dst->host;
    p.dstXInBytes = dst->x;
    p.dstY = dst->y;
    p.dstZ = dst->z;
    p.dstPitch = dst->pitch;
    p.dstHeight = dst->rows;
    p.WidthInBytes = width_bytes;
    p.Height = height;
    p.Depth = depth;
    const side_t *host = src->type == CU_MEMORYTYPE_HOST ? src : dst;
    if (host->type != CU_MEMORYTYPE_HOST || depth == 1 || host_slice == host->pitch * host->rows)
        return cu.Memcpy3DAsync(&p, stream);
    p.Depth = 1;
    for (size_t z = 0; z < depth; ++z) {
        const char *base = (const char *)host->host + z * host_slice;
        if (host == src) {
            p.srcHost = base;
            p.dstZ = dst->z + z;
        } else {
            p.dstHost = (void *)base;
            p.srcZ = src->z + z;
        }
        CUresult r = cu.Memcpy3DAsync(&p, stream);
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

// Host memory of a copy with these pitches; for a 1D array each layer is one row at the slice
// pitch.
static void host_side(const urc_image_t *img, const void *host, size_t row, size_t slice, side_t *s,
                      size_t *host_slice) {
    memset(s, 0, sizeof *s);
    s->type = CU_MEMORYTYPE_HOST;
    s->host = host;
    if (img->type == UR_MEM_TYPE_IMAGE1D_ARRAY) {
        s->pitch = slice;
        s->rows = 1;
    } else {
        s->pitch = row;
        s->rows = slice / row;
    }
    *host_slice = slice;
}

ur_result_t cuda_mem_image_create(ur_context_handle_t hContext, ur_mem_flags_t flags,
                                  const ur_image_format_t *pImageFormat,
                                  const ur_image_desc_t *pImageDesc, void *pHost,
                                  ur_mem_handle_t *phMem) {
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    urc_image_t img;
    ur_result_t res = urc_buffer_check_create(flags, pHost);
    if (res == UR_RESULT_SUCCESS)
        res = urc_image_describe(&img, pImageFormat, pImageDesc, pHost);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (!cuda_images_available())
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the CUDA driver lacks cuArray3DCreate or surface objects");
    urc_image_limits_t lim;
    cuda_device_image_limits(ctx->devices[0], &lim);
    if ((res = urc_image_check_limits(&img, &lim)) != UR_RESULT_SUCCESS)
        return res;
    CUDA_ARRAY3D_DESCRIPTOR d;
    memset(&d, 0, sizeof d);
    if (!cuda_array_format(pImageFormat, &d.Format, &d.NumChannels))
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, 0,
                             "CUDA arrays hold R, RG and RGBA of unpacked channel types only");
    d.Width = img.width;
    d.Height =
        img.type == UR_MEM_TYPE_IMAGE1D || img.type == UR_MEM_TYPE_IMAGE1D_ARRAY ? 0 : img.height;
    d.Depth = img.type == UR_MEM_TYPE_IMAGE3D ? img.depth : img.array_size;
    d.Flags = CUDA_ARRAY3D_SURFACE_LDST;
    if (img.type == UR_MEM_TYPE_IMAGE1D_ARRAY || img.type == UR_MEM_TYPE_IMAGE2D_ARRAY)
        d.Flags |= CUDA_ARRAY3D_LAYERED;
    if ((res = cuda_activate(ctx->devices[0])) != UR_RESULT_SUCCESS)
        return res;
    cuda_mem_t *m = cuda_mem_new(ctx, flags, img.size, CUDA_MEM_NATIVE);
    if (m == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    m->is_image = true;
    m->img = img;
    cuda_context_retain_internal(ctx);
    res = cuda_ok(cu.Array3DCreate(&m->array, &d), "cuArray3DCreate");
    m->owns_native = res == UR_RESULT_SUCCESS;
    if (res == UR_RESULT_SUCCESS) {
        CUDA_RESOURCE_DESC rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = CU_RESOURCE_TYPE_ARRAY;
        rd.res.array.hArray = m->array;
        res = cuda_ok(cu.SurfObjectCreate(&m->surf, &rd), "cuSurfObjectCreate");
    }
    // Host memory is copied in once; USE_HOST_POINTER does not keep the two in step (an image
    // has no map in UR, so nothing observes the host copy).
    if (res == UR_RESULT_SUCCESS && pHost != NULL) {
        side_t src, dst;
        size_t host_slice, height, depth;
        ur_rect_offset_t o0 = {0, 0, 0};
        ur_rect_region_t all = {img.extent[0], img.extent[1], img.extent[2]};
        host_side(&img, pHost, img.host_row_pitch, img.host_slice_pitch, &src, &host_slice);
        array_side(m, o0, &dst);
        cuda_region(&img, all, &height, &depth);
        res = cuda_ok(copy3d(NULL, &src, &dst, img.row_pitch, height, depth, host_slice),
                      "cuMemcpy3DAsync");
        if (res == UR_RESULT_SUCCESS)
            res = cuda_ok(cu.StreamSynchronize(NULL), "cuStreamSynchronize");
    }
    if (res != UR_RESULT_SUCCESS) {
        cuda_mem_release_internal(m);
        return res;
    }
    *phMem = (ur_mem_handle_t)m;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_mem_image_create_with_native_handle(ur_native_handle_t hNativeMem,
                                                     ur_context_handle_t hContext,
                                                     const ur_image_format_t *pImageFormat,
                                                     const ur_image_desc_t *pImageDesc,
                                                     const ur_mem_native_properties_t *pProps,
                                                     ur_mem_handle_t *phMem) {
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    urc_image_t img;
    ur_result_t res = urc_image_describe_native(&img, hNativeMem, pImageFormat, pImageDesc);
    if (res == UR_RESULT_SUCCESS && !cuda_images_available())
        res = UR_RESULT_ERROR_UNSUPPORTED_FEATURE;
    if (res == UR_RESULT_SUCCESS)
        res = cuda_activate(ctx->devices[0]);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // Only a CUarray makes an image. On an H200 both the surface call and
    // cuArray3DGetDescriptor crash inside libcuda given a buffer's CUdeviceptr, so memory the
    // driver knows as a pointer (device, host or managed) is refused first; what remains must
    // be an array by cuArray3DGetDescriptor's answer.
    CUDA_ARRAY3D_DESCRIPTOR ad;
    unsigned int memory_type = 0;
    if (cu.PointerGetAttribute != NULL &&
        cu.PointerGetAttribute(&memory_type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                               (CUdeviceptr)hNativeMem) == CUDA_SUCCESS)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "the native handle is memory, not a CUDA array (a buffer's "
                             "CUdeviceptr or USM?)");
    if (cu.Array3DGetDescriptor == NULL ||
        cu.Array3DGetDescriptor(&ad, (CUarray)hNativeMem) != CUDA_SUCCESS)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "the native handle is not a CUDA array (a buffer's CUdeviceptr?)");
    cuda_mem_t *m = cuda_mem_new(ctx, UR_MEM_FLAG_READ_WRITE, img.size, CUDA_MEM_NATIVE);
    if (m == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    m->is_image = true;
    m->img = img;
    m->array = (CUarray)hNativeMem;
    m->owns_native = pProps != NULL && pProps->isNativeHandleOwned;
    cuda_context_retain_internal(ctx);
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = m->array;
    res = cuda_ok(cu.SurfObjectCreate(&m->surf, &rd), "cuSurfObjectCreate");
    if (res != UR_RESULT_SUCCESS) {
        cuda_mem_release_internal(m);
        return res;
    }
    *phMem = (ur_mem_handle_t)m;
    return UR_RESULT_SUCCESS;
}

// ---- reads, writes and copies ------------------------------------------------------------------

static ur_result_t transfer(bool write, ur_queue_handle_t hQueue, ur_mem_handle_t hImage,
                            bool blocking, ur_rect_offset_t origin, ur_rect_region_t region,
                            size_t row, size_t slice, void *host, uint32_t n,
                            const ur_event_handle_t *waits, ur_event_handle_t *phEvent) {
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    cuda_mem_t *m = CUDA_MEM(hImage);
    side_t arr, hst;
    size_t host_slice, height, depth;
    array_side(m, origin, &arr);
    host_side(&m->img, host, row, slice, &hst, &host_slice);
    cuda_region(&m->img, region, &height, &depth);
    cuda_op_t op;
    ur_result_t res = cuda_op_begin(
        q, write ? UR_COMMAND_MEM_IMAGE_WRITE : UR_COMMAND_MEM_IMAGE_READ, n, waits, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    size_t width = (size_t)region.width * m->img.element_size;
    CUresult r = write ? copy3d(op.stream, &hst, &arr, width, height, depth, host_slice)
                       : copy3d(op.stream, &arr, &hst, width, height, depth, host_slice);
    return cuda_op_end(&op, cuda_ok(r, "cuMemcpy3DAsync"), blocking, phEvent);
}

URC_IMAGE_READ_WRITE(cuda, image_of, queue_context, transfer)

static ur_result_t copy(ur_queue_handle_t hQueue, ur_mem_handle_t hImageSrc,
                        ur_mem_handle_t hImageDst, ur_rect_offset_t srcOrigin,
                        ur_rect_offset_t dstOrigin, ur_rect_region_t region,
                        uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,
                        ur_event_handle_t *phEvent) {
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    cuda_mem_t *src = CUDA_MEM(hImageSrc), *dst = CUDA_MEM(hImageDst);
    // Both are arrays; a 1D array on either side moves its layers to z, so the extents follow
    // the source's shape and must describe the same box on the destination.
    side_t s, d;
    size_t height, depth;
    array_side(src, srcOrigin, &s);
    array_side(dst, dstOrigin, &d);
    cuda_region(&src->img, region, &height, &depth);
    if ((src->img.type == UR_MEM_TYPE_IMAGE1D_ARRAY) !=
            (dst->img.type == UR_MEM_TYPE_IMAGE1D_ARRAY) &&
        region.height > 1)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "copies of several rows between a 1D array and another shape");
    cuda_op_t op;
    ur_result_t res = cuda_op_begin(q, UR_COMMAND_MEM_IMAGE_COPY, numEventsInWaitList,
                                    phEventWaitList, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUresult r =
        copy3d(op.stream, &s, &d, (size_t)region.width * src->img.element_size, height, depth, 0);
    return cuda_op_end(&op, cuda_ok(r, "cuMemcpy3DAsync"), false, phEvent);
}

URC_IMAGE_COPY(cuda, image_of, queue_context, copy)
