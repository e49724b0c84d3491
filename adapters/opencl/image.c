// SPDX-License-Identifier: MIT
// Images: creation (the format checked against clGetSupportedImageFormats before clCreateImage),
// native handles, info, and reads, writes and copies. The rules are common/image/image's; this file
// translates them to OpenCL.
#include <stdlib.h>

#include "core/alloc.h"
#include "ocl_internal.h"

// A memory object's image description (NULL for a buffer) and its context.
static const urc_image_t *image_of(ur_mem_handle_t m, const void **context) {
    *context = m->context;
    return m->is_image ? &m->image : NULL;
}

static const void *queue_context(ur_queue_handle_t q) {
    return q->context;
}

URC_IMAGE_GET_INFO(ocl, image_of)

static const cl_channel_order channel_orders[] = {
    [UR_IMAGE_CHANNEL_ORDER_A] = CL_A,
    [UR_IMAGE_CHANNEL_ORDER_R] = CL_R,
    [UR_IMAGE_CHANNEL_ORDER_RG] = CL_RG,
    [UR_IMAGE_CHANNEL_ORDER_RA] = CL_RA,
    [UR_IMAGE_CHANNEL_ORDER_RGB] = CL_RGB,
    [UR_IMAGE_CHANNEL_ORDER_RGBA] = CL_RGBA,
    [UR_IMAGE_CHANNEL_ORDER_BGRA] = CL_BGRA,
    [UR_IMAGE_CHANNEL_ORDER_ARGB] = CL_ARGB,
    [UR_IMAGE_CHANNEL_ORDER_ABGR] = CL_ABGR,
    [UR_IMAGE_CHANNEL_ORDER_INTENSITY] = CL_INTENSITY,
    [UR_IMAGE_CHANNEL_ORDER_LUMINANCE] = CL_LUMINANCE,
    [UR_IMAGE_CHANNEL_ORDER_RX] = CL_Rx,
    [UR_IMAGE_CHANNEL_ORDER_RGX] = CL_RGx,
    [UR_IMAGE_CHANNEL_ORDER_RGBX] = CL_RGBx,
    [UR_IMAGE_CHANNEL_ORDER_SRGBA] = CL_sRGBA,
};

static const cl_channel_type channel_types[] = {
    [UR_IMAGE_CHANNEL_TYPE_SNORM_INT8] = CL_SNORM_INT8,
    [UR_IMAGE_CHANNEL_TYPE_SNORM_INT16] = CL_SNORM_INT16,
    [UR_IMAGE_CHANNEL_TYPE_UNORM_INT8] = CL_UNORM_INT8,
    [UR_IMAGE_CHANNEL_TYPE_UNORM_INT16] = CL_UNORM_INT16,
    [UR_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565] = CL_UNORM_SHORT_565,
    [UR_IMAGE_CHANNEL_TYPE_UNORM_SHORT_555] = CL_UNORM_SHORT_555,
    [UR_IMAGE_CHANNEL_TYPE_INT_101010] = CL_UNORM_INT_101010,
    [UR_IMAGE_CHANNEL_TYPE_SIGNED_INT8] = CL_SIGNED_INT8,
    [UR_IMAGE_CHANNEL_TYPE_SIGNED_INT16] = CL_SIGNED_INT16,
    [UR_IMAGE_CHANNEL_TYPE_SIGNED_INT32] = CL_SIGNED_INT32,
    [UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8] = CL_UNSIGNED_INT8,
    [UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16] = CL_UNSIGNED_INT16,
    [UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32] = CL_UNSIGNED_INT32,
    [UR_IMAGE_CHANNEL_TYPE_HALF_FLOAT] = CL_HALF_FLOAT,
    [UR_IMAGE_CHANNEL_TYPE_FLOAT] = CL_FLOAT,
};

static cl_mem_object_type cl_image_type(ur_mem_type_t type) {
    switch (type) {
    case UR_MEM_TYPE_IMAGE1D:
        return CL_MEM_OBJECT_IMAGE1D;
    case UR_MEM_TYPE_IMAGE1D_ARRAY:
        return CL_MEM_OBJECT_IMAGE1D_ARRAY;
    case UR_MEM_TYPE_IMAGE2D:
        return CL_MEM_OBJECT_IMAGE2D;
    case UR_MEM_TYPE_IMAGE2D_ARRAY:
        return CL_MEM_OBJECT_IMAGE2D_ARRAY;
    default:
        return CL_MEM_OBJECT_IMAGE3D;
    }
}

// UNSUPPORTED_FEATURE unless a device of the context has images (UR's rule for every image and
// sampler entry point).
static ur_result_t check_image_support(ur_context_handle_t ctx) {
    for (uint32_t i = 0; i < ctx->num_devices; ++i) {
        cl_bool images = CL_FALSE;
        if (clGetDeviceInfo(ctx->devices[i]->cl, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images,
                            NULL) == CL_SUCCESS &&
            images)
            return UR_RESULT_SUCCESS;
    }
    return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                         "no device of the context supports images");
}

// The largest image any device of the context takes: urc_image_check_limits refuses larger ones
// with INVALID_IMAGE_SIZE whatever the runtime would say (PoCL says INVALID_OPERATION).
static ur_result_t check_limits(ur_context_handle_t ctx, const urc_image_t *img) {
    urc_image_limits_t lim = {0};
    static const cl_device_info queries[] = {
        CL_DEVICE_IMAGE2D_MAX_WIDTH,  CL_DEVICE_IMAGE2D_MAX_HEIGHT, CL_DEVICE_IMAGE3D_MAX_WIDTH,
        CL_DEVICE_IMAGE3D_MAX_HEIGHT, CL_DEVICE_IMAGE3D_MAX_DEPTH,  CL_DEVICE_IMAGE_MAX_ARRAY_SIZE};
    size_t *fields[] = {&lim.max_2d_width,  &lim.max_2d_height, &lim.max_3d_width,
                        &lim.max_3d_height, &lim.max_3d_depth,  &lim.max_array_size};
    for (uint32_t d = 0; d < ctx->num_devices; ++d)
        for (size_t i = 0; i < sizeof queries / sizeof queries[0]; ++i) {
            size_t v = 0;
            if (clGetDeviceInfo(ctx->devices[d]->cl, queries[i], sizeof v, &v, NULL) ==
                    CL_SUCCESS &&
                v > *fields[i])
                *fields[i] = v;
        }
    return urc_image_check_limits(img, &lim);
}

// Asks the driver which formats it offers for this type and access before creating the image,
// so an unoffered format is UNSUPPORTED_IMAGE_FORMAT rather than whatever clCreateImage says.
static ur_result_t check_supported(ur_context_handle_t ctx, cl_mem_flags flags,
                                   cl_mem_object_type type, const cl_image_format *want) {
    cl_mem_flags access = flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY);
    if (access == 0)
        access = CL_MEM_READ_WRITE; // OpenCL's default access, which the query needs spelled out
    cl_uint n = 0;
    OCL_TRY("clGetSupportedImageFormats",
            clGetSupportedImageFormats(ctx->cl, access, type, 0, NULL, &n));
    cl_image_format *formats = urc_calloc(n != 0 ? n : 1, sizeof *formats);
    if (formats == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    cl_int err = clGetSupportedImageFormats(ctx->cl, access, type, n, formats, NULL);
    bool found = false;
    for (cl_uint i = 0; err == CL_SUCCESS && i < n && !found; ++i)
        found = formats[i].image_channel_order == want->image_channel_order &&
                formats[i].image_channel_data_type == want->image_channel_data_type;
    free(formats);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clGetSupportedImageFormats");
    if (!found)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, 0,
                             "the OpenCL runtime offers no image of this format and type");
    return UR_RESULT_SUCCESS;
}

// Completes a new image handle: the shape from common/image/image, the pitches from the driver
// (which chooses them for its own storage, or takes the host's with USE_HOST_POINTER).
static ur_result_t image_wrap(cl_mem cl, ur_context_handle_t ctx, bool owns, const urc_image_t *img,
                              ur_mem_handle_t *out) {
    size_t row = 0, slice = 0;
    OCL_TRY("clGetImageInfo", clGetImageInfo(cl, CL_IMAGE_ROW_PITCH, sizeof row, &row, NULL));
    OCL_TRY("clGetImageInfo", clGetImageInfo(cl, CL_IMAGE_SLICE_PITCH, sizeof slice, &slice, NULL));
    OCL_TRY_UR(ocl_mem_make(cl, ctx, NULL, owns, out));
    (*out)->is_image = true;
    (*out)->image = *img;
    if (row != 0)
        (*out)->image.row_pitch = row;
    if (slice != 0)
        (*out)->image.slice_pitch = slice;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_mem_image_create(ur_context_handle_t hContext, ur_mem_flags_t flags,
                                 const ur_image_format_t *pImageFormat,
                                 const ur_image_desc_t *pImageDesc, void *pHost,
                                 ur_mem_handle_t *phMem) {
    OCL_TRY_UR(urc_buffer_check_create(flags, pHost));
    urc_image_t img;
    OCL_TRY_UR(urc_image_describe(&img, pImageFormat, pImageDesc, pHost));
    OCL_TRY_UR(check_image_support(hContext));
    OCL_TRY_UR(check_limits(hContext, &img));
    cl_image_format format = {channel_orders[pImageFormat->channelOrder],
                              channel_types[pImageFormat->channelType]};
    cl_image_desc desc = {0};
    desc.image_type = cl_image_type(img.type);
    desc.image_width = img.width;
    desc.image_height = img.height;
    desc.image_depth = img.depth;
    desc.image_array_size = img.array_size;
    // OpenCL wants the host pitches only with a host pointer, and no slice pitch for 1D and 2D.
    if (pHost != NULL) {
        desc.image_row_pitch = pImageDesc->rowPitch;
        desc.image_slice_pitch = pImageDesc->slicePitch;
    }
    cl_mem_flags cl_flags = ocl_mem_flags(flags);
    OCL_TRY_UR(check_supported(hContext, cl_flags, desc.image_type, &format));
    cl_int err = CL_SUCCESS;
    cl_mem cl = clCreateImage(hContext->cl, cl_flags, &format, &desc, pHost, &err);
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clCreateImage");
    ur_result_t result = image_wrap(cl, hContext, true, &img, phMem);
    if (result != UR_RESULT_SUCCESS)
        clReleaseMemObject(cl);
    return result;
}

ur_result_t ocl_mem_image_create_with_native_handle(ur_native_handle_t hNativeMem,
                                                    ur_context_handle_t hContext,
                                                    const ur_image_format_t *pImageFormat,
                                                    const ur_image_desc_t *pImageDesc,
                                                    const ur_mem_native_properties_t *pProps,
                                                    ur_mem_handle_t *phMem) {
    urc_image_t img;
    OCL_TRY_UR(urc_image_describe_native(&img, hNativeMem, pImageFormat, pImageDesc));
    cl_mem cl = (cl_mem)hNativeMem;
    cl_context cl_ctx = NULL;
    cl_mem_object_type type = 0;
    OCL_TRY("clGetMemObjectInfo",
            clGetMemObjectInfo(cl, CL_MEM_CONTEXT, sizeof cl_ctx, &cl_ctx, NULL));
    OCL_TRY("clGetMemObjectInfo", clGetMemObjectInfo(cl, CL_MEM_TYPE, sizeof type, &type, NULL));
    OCL_TRY_UR(ocl_native_in_context(cl_ctx, hContext, "image"));
    if (type != cl_image_type(img.type))
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "the native memory object is not an image of the described type");
    bool owns = pProps != NULL && pProps->isNativeHandleOwned;
    return image_wrap(cl, hContext, owns, &img, phMem);
}

// ---- reads, writes and copies ------------------------------------------------------------------

// Reads and writes differ in the OpenCL call and the command; `host` is written only by reads.
static ur_result_t transfer(bool write, ur_queue_handle_t hQueue, ur_mem_handle_t hImage,
                            bool blocking, ur_rect_offset_t origin, ur_rect_region_t region,
                            size_t row, size_t slice, void *host, uint32_t n,
                            const ur_event_handle_t *waits, ur_event_handle_t *phEvent) {
    const urc_image_t *img = &hImage->image;
    // OpenCL refuses a slice pitch for images without slices.
    if (img->type == UR_MEM_TYPE_IMAGE1D || img->type == UR_MEM_TYPE_IMAGE2D)
        slice = 0;
    // A 1D array's layers are one row each and lie slice pitch apart; runtimes differ on which
    // pitch they step by (Intel's steps by the row pitch), so both name the layer pitch.
    if (img->type == UR_MEM_TYPE_IMAGE1D_ARRAY)
        row = slice;
    // Tight pitches go as 0, the runtime's own default (Intel's takes a faster path then).
    size_t tight_row = (size_t)region.width * img->element_size;
    if (row == tight_row &&
        (slice == 0 ||
         slice == row * (img->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? 1 : (size_t)region.height)))
        row = slice = 0;
    const size_t o[3] = {origin.x, origin.y, origin.z};
    const size_t r[3] = {region.width, region.height, region.depth};
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, n, waits));
    cl_event ev = NULL, *evp = phEvent != NULL ? &ev : NULL;
    cl_int err = write ? clEnqueueWriteImage(hQueue->cl, hImage->cl, blocking, o, r, row, slice,
                                             host, wl.count, wl.events, evp)
                       : clEnqueueReadImage(hQueue->cl, hImage->cl, blocking, o, r, row, slice,
                                            host, wl.count, wl.events, evp);
    ur_result_t res = ocl_enqueue_done(
        err, write ? "clEnqueueWriteImage" : "clEnqueueReadImage", &wl, hQueue,
        write ? UR_COMMAND_MEM_IMAGE_WRITE : UR_COMMAND_MEM_IMAGE_READ, ev, phEvent);
    return ocl_assert_after_blocking(hQueue, blocking, res, phEvent);
}

URC_IMAGE_READ_WRITE(ocl, image_of, queue_context, transfer)

static ur_result_t copy(ur_queue_handle_t hQueue, ur_mem_handle_t hImageSrc,
                        ur_mem_handle_t hImageDst, ur_rect_offset_t srcOrigin,
                        ur_rect_offset_t dstOrigin, ur_rect_region_t region,
                        uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,
                        ur_event_handle_t *phEvent) {
    const size_t so[3] = {srcOrigin.x, srcOrigin.y, srcOrigin.z};
    const size_t dso[3] = {dstOrigin.x, dstOrigin.y, dstOrigin.z};
    const size_t r[3] = {region.width, region.height, region.depth};
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList));
    cl_event ev = NULL;
    cl_int err = clEnqueueCopyImage(hQueue->cl, hImageSrc->cl, hImageDst->cl, so, dso, r, wl.count,
                                    wl.events, phEvent != NULL ? &ev : NULL);
    return ocl_enqueue_done(err, "clEnqueueCopyImage", &wl, hQueue, UR_COMMAND_MEM_IMAGE_COPY, ev,
                            phEvent);
}

URC_IMAGE_COPY(ocl, image_of, queue_context, copy)
