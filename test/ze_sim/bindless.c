// SPDX-License-Identifier: MIT
// ZE_experimental_bindless_image: an image made with ze_image_bindless_exp_desc_t (flag
// BINDLESS) gets a device offset, which zeImageGetDeviceOffsetExp hands out (on hardware, its
// slot in the bindless surface heap; here a unique non-zero number); with SAMPLED_IMAGE a
// ze_sampler_desc_t must follow in the chain. ze_image_pitched_exp_desc_t places a 1D or 2D
// image in USM whose rows are zeMemGetPitchFor2dImage's pitch apart (the simulator's rule:
// rows rounded up to 512 bytes), so copies into the image are seen through the USM pointer.
// zeImageViewCreateExp makes an image sharing another's storage; zeContextMakeImageResident
// (which bindless images need on hardware: no kernel argument names them) checks its handles.
// Kernels cannot read images here (the SPIR-V interpreter has no image instructions): only creation
// and copies are real. ZE_SIM_NO_BINDLESS=1 hides the extension (a driver without it).
#include "../../adapters/level_zero/ze_bindless_exp.h"
#include "ze_sim_entry.h"
#include "ze_sim_internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define SIM_PITCH_ALIGN 512u
#define SIM_CHAIN_LIMIT 32

static atomic_uint_fast64_t next_offset = 1;

static size_t pitch_for(size_t row_bytes) {
    return (row_bytes + SIM_PITCH_ALIGN - 1) / SIM_PITCH_ALIGN * SIM_PITCH_ALIGN;
}

ze_result_t sim_bindless_chain(sim_image_t *img, const ze_image_desc_t *desc) {
    const ze_image_bindless_exp_desc_t *bindless = NULL;
    const ze_image_pitched_exp_desc_t *pitched = NULL;
    int sampler = 0, n = 0;
    for (const ze_base_desc_t *d = desc->pNext; d != NULL; d = d->pNext) {
        if (++n > SIM_CHAIN_LIMIT)
            return ZE_RESULT_ERROR_INVALID_ARGUMENT;
        if (d->stype == ZE_STRUCTURE_TYPE_BINDLESS_IMAGE_EXP_DESC)
            bindless = (const ze_image_bindless_exp_desc_t *)d;
        else if (d->stype == ZE_STRUCTURE_TYPE_PITCHED_IMAGE_EXP_DESC)
            pitched = (const ze_image_pitched_exp_desc_t *)d;
        else if (d->stype == ZE_STRUCTURE_TYPE_SAMPLER_DESC)
            sampler = 1;
    }
    if (bindless != NULL) {
        ze_image_bindless_exp_flags_t known =
            ZE_IMAGE_BINDLESS_EXP_FLAG_BINDLESS | ZE_IMAGE_BINDLESS_EXP_FLAG_SAMPLED_IMAGE;
        if (bindless->flags & ~known)
            return ZE_RESULT_ERROR_INVALID_ENUMERATION;
        img->sampled = (bindless->flags & ZE_IMAGE_BINDLESS_EXP_FLAG_SAMPLED_IMAGE) != 0;
        if (img->sampled != sampler)
            return ZE_RESULT_ERROR_INVALID_ARGUMENT; // a sampler with SAMPLED_IMAGE, and only then
        if (bindless->flags & ZE_IMAGE_BINDLESS_EXP_FLAG_BINDLESS)
            img->offset = atomic_fetch_add(&next_offset, 1) * 0x40; // 64-byte heap slots
    }
    // Imported storage (mem_import.c): a tight image in the descriptor's first bytes.
    void *imported = NULL;
    ze_result_t r =
        sim_import_map(desc->pNext, (size_t)img->slice_pitch * img->extent[2], &imported);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    if (imported != NULL) {
        if (img->offset == 0 || pitched != NULL) {
            sim_import_unmap(imported);
            return ZE_RESULT_ERROR_INVALID_ARGUMENT; // imported images are bindless ones
        }
        img->bytes = imported;
        img->imported = 1;
        return ZE_RESULT_SUCCESS;
    }
    if (pitched == NULL)
        return ZE_RESULT_SUCCESS;
    if (img->offset == 0 || pitched->ptr == NULL)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT; // pitched images are bindless ones
    if (img->desc.type != ZE_IMAGE_TYPE_1D && img->desc.type != ZE_IMAGE_TYPE_2D)
        return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
    sim_alloc_info_t info;
    if (!sim_mem_lookup(pitched->ptr, &info))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    size_t pitch = pitch_for((size_t)img->element_size * img->extent[0]);
    size_t bytes = pitch * img->extent[1];
    if ((uintptr_t)pitched->ptr - info.base + bytes > info.size || pitch > UINT32_MAX)
        return ZE_RESULT_ERROR_INVALID_SIZE;
    img->bytes = pitched->ptr;
    img->owns_bytes = 0;
    img->row_pitch = (uint32_t)pitch;
    img->slice_pitch = (uint32_t)bytes;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_image_view_create(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                  const ze_image_desc_t *desc, ze_image_handle_t hImage,
                                  ze_image_handle_t *phView) {
    ze_result_t r;
    sim_image_t *base;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r) || !sim_obj(hDevice, SIM_KIND_DEVICE, &r) ||
        !(base = sim_obj(hImage, SIM_KIND_IMAGE, &r)))
        return r;
    if (!desc || !phView)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // A view reads the same elements: same element size, type and extents.
    if (sim_layout_bytes(desc->format.layout) != base->element_size ||
        desc->type != base->desc.type || desc->width != base->desc.width ||
        (desc->type != ZE_IMAGE_TYPE_1D && desc->type != ZE_IMAGE_TYPE_1DARRAY &&
         desc->height != base->desc.height))
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    sim_image_t *view = calloc(1, sizeof *view);
    if (!view)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    *view = *base;
    view->desc = *desc;
    view->desc.pNext = NULL;
    view->offset = 0;
    view->sampled = 0;
    view->imported = 0;
    if ((r = sim_bindless_chain(view, desc)) != ZE_RESULT_SUCCESS ||
        view->bytes != base->bytes) { // a view never moves its storage to USM or a file
        if (view->imported)
            sim_import_unmap(view->bytes);
        free(view);
        return r != ZE_RESULT_SUCCESS ? r : ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    view->owns_bytes = 0;
    sim_obj_init(&view->hdr, SIM_KIND_IMAGE);
    *phView = (ze_image_handle_t)view;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_context_make_image_resident(ze_context_handle_t hContext,
                                            ze_device_handle_t hDevice, ze_image_handle_t hImage) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r) || !sim_obj(hDevice, SIM_KIND_DEVICE, &r) ||
        !sim_obj(hImage, SIM_KIND_IMAGE, &r))
        return r;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL get_device_offset(ze_image_handle_t hImage, uint64_t *pOffset) {
    ze_result_t r;
    sim_image_t *img = sim_obj(hImage, SIM_KIND_IMAGE, &r);
    if (!img)
        return r;
    if (!pOffset)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (img->offset == 0)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT; // not made bindless
    *pOffset = img->offset;
    return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL get_pitch_for_2d_image(ze_context_handle_t hContext,
                                                     ze_device_handle_t hDevice, size_t width,
                                                     size_t height, unsigned int elementSize,
                                                     size_t *rowPitch) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r) || !sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    if (!rowPitch)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (width == 0 || height == 0 || width > SIM_MAX_IMAGE_2D || height > SIM_MAX_IMAGE_2D ||
        elementSize == 0 || elementSize > 16)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    *rowPitch = pitch_for(width * elementSize);
    return ZE_RESULT_SUCCESS;
}

int sim_bindless_enabled(void) {
    return sim_env_u64("ZE_SIM_NO_BINDLESS", 0) == 0;
}

void *sim_bindless_function(const char *name) {
    if (!sim_bindless_enabled())
        return NULL;
    if (strcmp(name, "zeImageGetDeviceOffsetExp") == 0)
        return (void *)get_device_offset;
    if (strcmp(name, "zeMemGetPitchFor2dImage") == 0)
        return (void *)get_pitch_for_2d_image;
    return NULL;
}
