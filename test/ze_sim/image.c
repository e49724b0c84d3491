// SPDX-License-Identifier: MIT
// Images: row-major host storage per image (x fastest, then rows, then slices; a 1D array's
// layers are its rows and a 2D array's its slices, the region convention Intel's driver shares
// with OpenCL), and copies between images and memory as region copies run by the engine.
// Bindless, pitched and view images (bindless.c) use the same storage and copies.
#include "ze_sim_internal.h"
#include "ze_sim_entry.h"

#include <stdlib.h>
#include <string.h>

// Bytes per element of the plain (non-media) layouts; 0 for what the simulator does not hold.
uint32_t sim_layout_bytes(ze_image_format_layout_t layout) {
    switch (layout) {
    case ZE_IMAGE_FORMAT_LAYOUT_8:
        return 1;
    case ZE_IMAGE_FORMAT_LAYOUT_16:
    case ZE_IMAGE_FORMAT_LAYOUT_8_8:
    case ZE_IMAGE_FORMAT_LAYOUT_5_6_5:
    case ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1:
        return 2;
    case ZE_IMAGE_FORMAT_LAYOUT_32:
    case ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8:
    case ZE_IMAGE_FORMAT_LAYOUT_16_16:
    case ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2:
        return 4;
    case ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16:
    case ZE_IMAGE_FORMAT_LAYOUT_32_32:
        return 8;
    case ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32:
        return 16;
    default:
        return 0;
    }
}

ze_result_t sim_image_create(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                             const ze_image_desc_t *desc, ze_image_handle_t *phImage) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r) || !sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    if (!desc || !phImage)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if ((uint32_t)desc->type > ZE_IMAGE_TYPE_3D)
        return ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT;
    uint32_t es = sim_layout_bytes(desc->format.layout);
    if (es == 0 || (uint32_t)desc->format.type > ZE_IMAGE_FORMAT_TYPE_FLOAT)
        return ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT;
    uint32_t e[3] = {(uint32_t)desc->width, 1, 1};
    uint32_t limit = desc->type == ZE_IMAGE_TYPE_3D ? SIM_MAX_IMAGE_3D : SIM_MAX_IMAGE_2D;
    switch (desc->type) {
    case ZE_IMAGE_TYPE_1DARRAY:
        e[1] = desc->arraylevels;
        break;
    case ZE_IMAGE_TYPE_2D:
        e[1] = desc->height;
        break;
    case ZE_IMAGE_TYPE_2DARRAY:
        e[1] = desc->height;
        e[2] = desc->arraylevels;
        break;
    case ZE_IMAGE_TYPE_3D:
        e[1] = desc->height;
        e[2] = desc->depth;
        break;
    default:
        break;
    }
    if (desc->width == 0 || desc->width > limit || e[1] == 0 || e[1] > limit || e[2] == 0 ||
        e[2] > limit)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    sim_image_t *img = calloc(1, sizeof *img);
    if (!img)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    img->desc = *desc;
    img->desc.pNext = NULL;
    img->element_size = es;
    memcpy(img->extent, e, sizeof e);
    img->row_pitch = es * e[0];
    img->slice_pitch = img->row_pitch * e[1];
    // Bindless and pitched descriptors (bindless.c) may place the storage in USM.
    if ((r = sim_bindless_chain(img, desc)) != ZE_RESULT_SUCCESS) { // imports nothing on failure
        free(img);
        return r;
    }
    if (!img->bytes) {
        img->bytes = calloc(1, (size_t)es * e[0] * e[1] * e[2]);
        img->owns_bytes = 1;
    }
    if (!img->bytes) {
        free(img);
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    sim_obj_init(&img->hdr, SIM_KIND_IMAGE);
    *phImage = (ze_image_handle_t)img;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_image_destroy(ze_image_handle_t hImage) {
    ze_result_t r;
    sim_image_t *img = sim_obj(hImage, SIM_KIND_IMAGE, &r);
    if (!img)
        return r;
    sim_obj_fini(&img->hdr);
    if (img->owns_bytes)
        free(img->bytes);
    else if (img->imported)
        sim_import_unmap(img->bytes);
    free(img);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_image_get_properties(ze_device_handle_t hDevice, const ze_image_desc_t *desc,
                                     ze_image_properties_t *props) {
    ze_result_t r;
    if (!sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    if (!desc || !props)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    props->samplerFilterFlags =
        sim_layout_bytes(desc->format.layout)
            ? ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT | ZE_IMAGE_SAMPLER_FILTER_FLAG_LINEAR
            : 0;
    return ZE_RESULT_SUCCESS;
}

// A region of an image as a byte region of its storage; false when it leaves the image.
// NULL means the whole image.
static int byte_region(const sim_image_t *img, const ze_image_region_t *r, ze_copy_region_t *out) {
    ze_image_region_t all = {0, 0, 0, img->extent[0], img->extent[1], img->extent[2]};
    if (!r)
        r = &all;
    const uint64_t o[3] = {r->originX, r->originY, r->originZ};
    const uint64_t n[3] = {r->width, r->height, r->depth};
    for (int i = 0; i < 3; ++i)
        if (n[i] == 0 || o[i] + n[i] > img->extent[i])
            return 0;
    out->originX = r->originX * img->element_size;
    out->originY = r->originY;
    out->originZ = r->originZ;
    out->width = r->width * img->element_size;
    out->height = r->height;
    out->depth = r->depth;
    return 1;
}

static ze_result_t append_region(ze_command_list_handle_t hList, unsigned char *dst,
                                 const ze_copy_region_t *dr, uint32_t dpitch, uint32_t dslice,
                                 const unsigned char *src, const ze_copy_region_t *sr,
                                 uint32_t spitch, uint32_t sslice, ze_event_handle_t hSignal,
                                 uint32_t numWaits, ze_event_handle_t *phWaits) {
    ze_result_t r;
    sim_cmdlist_t *l = sim_obj(hList, SIM_KIND_CMDLIST, &r);
    if (!l)
        return r;
    if ((r = sim_inject_take(ZE_SIM_FAIL_MEMORY_COPY)) != ZE_RESULT_SUCCESS)
        return r;
    sim_cmd_t *c = sim_cmd_new(SIM_CMD_COPY_REGION, hSignal, numWaits, phWaits, &r);
    if (!c)
        return r;
    c->u.region.dst = dst;
    c->u.region.src = src;
    c->u.region.dst_region = *dr;
    c->u.region.src_region = *sr;
    c->u.region.dst_pitch = dpitch;
    c->u.region.dst_slice_pitch = dslice;
    c->u.region.src_pitch = spitch;
    c->u.region.src_slice_pitch = sslice;
    return sim_cmdlist_append(l, c);
}

ze_result_t sim_command_list_append_image_copy_region(
    ze_command_list_handle_t hList, ze_image_handle_t hDst, ze_image_handle_t hSrc,
    const ze_image_region_t *pDstRegion, const ze_image_region_t *pSrcRegion,
    ze_event_handle_t hSignal, uint32_t numWaits, ze_event_handle_t *phWaits) {
    ze_result_t r;
    sim_image_t *dst = sim_obj(hDst, SIM_KIND_IMAGE, &r), *src = NULL;
    if (!dst || !(src = sim_obj(hSrc, SIM_KIND_IMAGE, &r)))
        return r;
    ze_copy_region_t dr, sr;
    if (src->element_size != dst->element_size || !byte_region(dst, pDstRegion, &dr) ||
        !byte_region(src, pSrcRegion, &sr) || dr.width != sr.width || dr.height != sr.height ||
        dr.depth != sr.depth)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    return append_region(hList, dst->bytes, &dr, dst->row_pitch, dst->slice_pitch, src->bytes, &sr,
                         src->row_pitch, src->slice_pitch, hSignal, numWaits, phWaits);
}

ze_result_t sim_command_list_append_image_copy(ze_command_list_handle_t hList,
                                               ze_image_handle_t hDst, ze_image_handle_t hSrc,
                                               ze_event_handle_t hSignal, uint32_t numWaits,
                                               ze_event_handle_t *phWaits) {
    return sim_command_list_append_image_copy_region(hList, hDst, hSrc, NULL, NULL, hSignal,
                                                     numWaits, phWaits);
}

// Host memory is laid out with the given pitches (0: tight for the region).
static ze_result_t memory_side(const ze_copy_region_t *img_region, uint32_t row, uint32_t slice,
                               ze_copy_region_t *mem, uint32_t *prow, uint32_t *pslice) {
    *mem = (ze_copy_region_t){0, 0, 0, img_region->width, img_region->height, img_region->depth};
    *prow = row ? row : img_region->width;
    *pslice = slice ? slice : *prow * img_region->height;
    if (*prow < img_region->width || *pslice < *prow * img_region->height)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_command_list_append_image_copy_to_memory_ext(
    ze_command_list_handle_t hList, void *dstptr, ze_image_handle_t hSrc,
    const ze_image_region_t *pSrcRegion, uint32_t destRowPitch, uint32_t destSlicePitch,
    ze_event_handle_t hSignal, uint32_t numWaits, ze_event_handle_t *phWaits) {
    ze_result_t r;
    sim_image_t *src = sim_obj(hSrc, SIM_KIND_IMAGE, &r);
    if (!src)
        return r;
    if (!dstptr)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    ze_copy_region_t sr, dr;
    uint32_t row, slice;
    if (!byte_region(src, pSrcRegion, &sr))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    if ((r = memory_side(&sr, destRowPitch, destSlicePitch, &dr, &row, &slice)) !=
        ZE_RESULT_SUCCESS)
        return r;
    return append_region(hList, dstptr, &dr, row, slice, src->bytes, &sr, src->row_pitch,
                         src->slice_pitch, hSignal, numWaits, phWaits);
}

ze_result_t sim_command_list_append_image_copy_from_memory_ext(
    ze_command_list_handle_t hList, ze_image_handle_t hDst, const void *srcptr,
    const ze_image_region_t *pDstRegion, uint32_t srcRowPitch, uint32_t srcSlicePitch,
    ze_event_handle_t hSignal, uint32_t numWaits, ze_event_handle_t *phWaits) {
    ze_result_t r;
    sim_image_t *dst = sim_obj(hDst, SIM_KIND_IMAGE, &r);
    if (!dst)
        return r;
    if (!srcptr)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    ze_copy_region_t dr, sr;
    uint32_t row, slice;
    if (!byte_region(dst, pDstRegion, &dr))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    if ((r = memory_side(&dr, srcRowPitch, srcSlicePitch, &sr, &row, &slice)) != ZE_RESULT_SUCCESS)
        return r;
    return append_region(hList, dst->bytes, &dr, dst->row_pitch, dst->slice_pitch, srcptr, &sr, row,
                         slice, hSignal, numWaits, phWaits);
}

ze_result_t sim_command_list_append_image_copy_to_memory(ze_command_list_handle_t hList,
                                                         void *dstptr, ze_image_handle_t hSrc,
                                                         const ze_image_region_t *pSrcRegion,
                                                         ze_event_handle_t hSignal,
                                                         uint32_t numWaits,
                                                         ze_event_handle_t *phWaits) {
    return sim_command_list_append_image_copy_to_memory_ext(hList, dstptr, hSrc, pSrcRegion, 0, 0,
                                                            hSignal, numWaits, phWaits);
}

ze_result_t sim_command_list_append_image_copy_from_memory(
    ze_command_list_handle_t hList, ze_image_handle_t hDst, const void *srcptr,
    const ze_image_region_t *pDstRegion, ze_event_handle_t hSignal, uint32_t numWaits,
    ze_event_handle_t *phWaits) {
    return sim_command_list_append_image_copy_from_memory_ext(hList, hDst, srcptr, pDstRegion, 0, 0,
                                                              hSignal, numWaits, phWaits);
}
