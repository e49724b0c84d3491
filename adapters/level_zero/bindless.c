// SPDX-License-Identifier: MIT
// Bindless images on Level Zero (ZE_experimental_bindless_image): image memory is a Level Zero
// image made bindless (ze_image_bindless_exp_desc_t); an image handle is the device offset
// (zeImageGetDeviceOffsetExp) of a bindless view of it (zeImageViewCreateExp), sampled ones
// with a ze_sampler_desc_t in the chain, or of an image placed in pitched USM
// (ze_image_pitched_exp_desc_t, rows at zeMemGetPitchFor2dImage's pitch). The rules are
// common/image/image_bindless's. Level Zero cannot address one mip level of an image, so mipmaps,
// like cubemaps and gather images, are UNSUPPORTED_FEATURE; external memory is
// bindless_external.c's, semaphores are not offered. It has run only on urc's simulated driver
// (test/ze_sim).
#include <stdlib.h>

#include "bindless.h"

void l0_bindless_init(l0_platform_t *p, uint32_t version) {
    if (version < ZE_BINDLESS_IMAGE_EXP_VERSION_1_0)
        return;
    void *offset = NULL, *pitch = NULL;
    if (zeDriverGetExtensionFunctionAddress(p->ze, "zeImageGetDeviceOffsetExp", &offset) !=
            ZE_RESULT_SUCCESS ||
        zeDriverGetExtensionFunctionAddress(p->ze, "zeMemGetPitchFor2dImage", &pitch) !=
            ZE_RESULT_SUCCESS)
        return;
    memcpy(&p->image_device_offset, &offset, sizeof offset);
    memcpy(&p->pitch_for_2d_image, &pitch, sizeof pitch);
}

static bool available(const l0_device_t *dev) {
    return dev->platform->image_device_offset != NULL &&
           dev->platform->pitch_for_2d_image != NULL && dev->image.maxImageDims2D != 0;
}

// ---- the registry -------------------------------------------------------------------------------
// Image memory (its handle is the record's address) and image handles (device offsets) this
// adapter handed out, so every entry point refuses values it did not make without reading
// through them. Creation and destruction are rare next to copies: one reader-writer lock.

typedef struct bl_mem_t {
    struct bl_mem_t *next;
    l0_context_t *ctx;
    l0_device_t *dev;
    ze_image_handle_t ze;
    urc_bindless_t desc;
} bl_mem_t;

typedef struct bl_view_t {
    struct bl_view_t *next;
    uint64_t offset;
    bool sampled;
    l0_context_t *ctx;
    ze_image_handle_t ze;
} bl_view_t;

static pthread_rwlock_t bl_lock = PTHREAD_RWLOCK_INITIALIZER;
static bl_mem_t *mems;
static bl_view_t *views;

// Copies the record of image memory `handle` of `ctx`; false when there is none.
static bool mem_find(const l0_context_t *ctx, uintptr_t handle, bl_mem_t *out) {
    bool found = false;
    pthread_rwlock_rdlock(&bl_lock);
    for (bl_mem_t *m = mems; m != NULL; m = m->next)
        if ((uintptr_t)m == handle && m->ctx == ctx) {
            *out = *m;
            found = true;
            break;
        }
    pthread_rwlock_unlock(&bl_lock);
    return found;
}

static void mem_add(bl_mem_t *m) {
    pthread_rwlock_wrlock(&bl_lock);
    m->next = mems;
    mems = m;
    pthread_rwlock_unlock(&bl_lock);
}

// Takes image memory out of the registry; NULL when it is not there.
static bl_mem_t *mem_take(const l0_context_t *ctx, uintptr_t handle) {
    bl_mem_t *found = NULL;
    pthread_rwlock_wrlock(&bl_lock);
    for (bl_mem_t **p = &mems; *p != NULL; p = &(*p)->next)
        if ((uintptr_t)*p == handle && (*p)->ctx == ctx) {
            found = *p;
            *p = found->next;
            break;
        }
    pthread_rwlock_unlock(&bl_lock);
    return found;
}

static bool view_add(uint64_t offset, bool sampled, l0_context_t *ctx, ze_image_handle_t ze) {
    bl_view_t *v = URC_NEW(bl_view_t);
    if (v == NULL)
        return false;
    *v = (bl_view_t){NULL, offset, sampled, ctx, ze};
    pthread_rwlock_wrlock(&bl_lock);
    v->next = views;
    views = v;
    pthread_rwlock_unlock(&bl_lock);
    return true;
}

// Takes a handle of the kind asked for out of the registry: its Level Zero image, or NULL.
static ze_image_handle_t view_take(uint64_t offset, bool sampled, const l0_context_t *ctx) {
    ze_image_handle_t ze = NULL;
    pthread_rwlock_wrlock(&bl_lock);
    for (bl_view_t **p = &views; *p != NULL; p = &(*p)->next)
        if ((*p)->offset == offset && (*p)->sampled == sampled && (*p)->ctx == ctx) {
            bl_view_t *dead = *p;
            *p = dead->next;
            ze = dead->ze;
            free(dead);
            break;
        }
    pthread_rwlock_unlock(&bl_lock);
    return ze;
}

// ---- common steps -------------------------------------------------------------------------------

static ur_result_t unsupported(const char *what) {
    return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0, "Level Zero bindless images: %s",
                         what);
}

static ur_result_t not_ours(const char *what, uintptr_t handle) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                         "bindless images: %#llx is not %s of this context",
                         (unsigned long long)handle, what);
}

ur_result_t l0_bl_enter(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                        l0_context_t **ctx, l0_device_t **dev) {
    if (!l0_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    if (!l0_is(hDevice, URC_KIND_DEVICE))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    *ctx = L0_CONTEXT(hContext);
    *dev = L0_DEVICE(hDevice);
    if (!l0_context_has_device(*ctx, *dev))
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "bindless images: the device is not in the context");
    if (!available(*dev))
        return unsupported("the driver lacks " ZE_BINDLESS_IMAGE_EXP_NAME " or images");
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_bl_describe(const l0_device_t *dev, const ur_image_format_t *format,
                           const ur_image_desc_t *desc, bool linear, urc_bindless_t *b,
                           ze_image_desc_t *zd) {
    ur_result_t r = urc_bindless_describe(b, format, desc, linear);
    if (r != UR_RESULT_SUCCESS)
        return r;
    const urc_image_limits_t lim = {dev->image.maxImageDims1D,     dev->image.maxImageDims2D,
                                    dev->image.maxImageDims2D,     dev->image.maxImageDims3D,
                                    dev->image.maxImageDims3D,     dev->image.maxImageDims3D,
                                    dev->image.maxImageArraySlices};
    if ((r = urc_bindless_check_limits(b, &lim)) != UR_RESULT_SUCCESS)
        return r;
    if (b->levels > 1)
        return unsupported("Level Zero cannot address one mip level of an image: no mipmaps");
    if (b->type == UR_MEM_TYPE_IMAGE_CUBEMAP_EXP || b->type == UR_MEM_TYPE_IMAGE_GATHER_EXP)
        return unsupported("Level Zero has no cubemap or gather images");
    memset(zd, 0, sizeof *zd);
    zd->stype = ZE_STRUCTURE_TYPE_IMAGE_DESC;
    zd->flags = ZE_IMAGE_FLAG_KERNEL_WRITE;
    zd->type = l0_image_type(b->type);
    if (!l0_image_format(format, &zd->format))
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, 0,
                             "Level Zero has no layout for this channel order and type");
    // The limits above keep every extent inside 32 bits; Level Zero wants 1 where none.
    zd->width = b->width;
    zd->height = b->height ? (uint32_t)b->height : 1;
    zd->depth = b->depth ? (uint32_t)b->depth : 1;
    zd->arraylevels = (uint32_t)b->array_size;
    return UR_RESULT_SUCCESS;
}

// Kernels reach bindless images by offset, not as arguments, so the driver cannot know to make
// them resident: the adapter does, for image memory and each handle (as UR's adapter does).
static ur_result_t resident(l0_context_t *ctx, l0_device_t *dev, ze_image_handle_t ze) {
    return l0_ok(zeContextMakeImageResident(ctx->ze, dev->ze, ze), "zeContextMakeImageResident");
}

// ---- image memory -------------------------------------------------------------------------------

ur_result_t l0_bl_mem_adopt(l0_context_t *ctx, l0_device_t *dev, ze_image_handle_t ze,
                            const urc_bindless_t *desc, ur_exp_image_mem_native_handle_t *out) {
    bl_mem_t *m = URC_NEW(bl_mem_t);
    ur_result_t r = m != NULL ? resident(ctx, dev, ze) : UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (r != UR_RESULT_SUCCESS) {
        (void)zeImageDestroy(ze);
        free(m);
        return r;
    }
    *m = (bl_mem_t){NULL, ctx, dev, ze, *desc};
    mem_add(m);
    *out = (uintptr_t)m;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_bindless_images_image_allocate_exp(ur_context_handle_t hContext,
                                                  ur_device_handle_t hDevice,
                                                  const ur_image_format_t *pImageFormat,
                                                  const ur_image_desc_t *pImageDesc,
                                                  ur_exp_image_mem_native_handle_t *phImageMem) {
    l0_context_t *ctx;
    l0_device_t *dev;
    ur_result_t r = l0_bl_enter(hContext, hDevice, &ctx, &dev);
    urc_bindless_t b;
    ze_image_desc_t zd;
    if (r == UR_RESULT_SUCCESS)
        r = l0_bl_describe(dev, pImageFormat, pImageDesc, false, &b, &zd);
    if (r != UR_RESULT_SUCCESS)
        return r;
    ze_image_bindless_exp_desc_t bd = {ZE_STRUCTURE_TYPE_BINDLESS_IMAGE_EXP_DESC, NULL,
                                       ZE_IMAGE_BINDLESS_EXP_FLAG_BINDLESS};
    zd.pNext = &bd;
    ze_image_handle_t ze = NULL;
    if ((r = l0_ok(zeImageCreate(ctx->ze, dev->ze, &zd, &ze), "zeImageCreate")) !=
        UR_RESULT_SUCCESS)
        return r;
    return l0_bl_mem_adopt(ctx, dev, ze, &b, phImageMem);
}

ur_result_t l0_bindless_images_image_free_exp(ur_context_handle_t hContext,
                                              ur_device_handle_t hDevice,
                                              ur_exp_image_mem_native_handle_t hImageMem) {
    l0_context_t *ctx;
    l0_device_t *dev;
    ur_result_t r = l0_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    // Taken out first: a second free of the same value is then refused, not passed on.
    bl_mem_t *m = mem_take(ctx, hImageMem);
    if (m == NULL)
        return not_ours("image memory", hImageMem);
    r = l0_ok(zeImageDestroy(m->ze), "zeImageDestroy");
    free(m);
    return r;
}

ur_result_t l0_bindless_images_image_get_info_exp(ur_context_handle_t hContext,
                                                  ur_exp_image_mem_native_handle_t hImageMem,
                                                  ur_image_info_t propName, void *pPropValue,
                                                  size_t *pPropSizeRet) {
    bl_mem_t m;
    if (!mem_find(L0_CONTEXT(hContext), hImageMem, &m))
        return not_ours("image memory", hImageMem);
    // UR gives no size for the value: the caller's buffer is taken to fit the query's type.
    const urc_info_t out = {SIZE_MAX, pPropValue, pPropSizeRet};
    return urc_bindless_info(&out, propName, &m.desc);
}

// ---- image handles ------------------------------------------------------------------------------

// The USM allocation holding `ptr`: its base and size; false when `ptr` is not USM.
static bool usm_range(const l0_context_t *ctx, const void *ptr, uintptr_t *base, size_t *size) {
    ze_memory_allocation_properties_t props = {ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL,
                                               ZE_MEMORY_TYPE_UNKNOWN, 0, 0};
    void *b = NULL;
    if (zeMemGetAllocProperties(ctx->ze, ptr, &props, NULL) != ZE_RESULT_SUCCESS ||
        props.type == ZE_MEMORY_TYPE_UNKNOWN ||
        zeMemGetAddressRange(ctx->ze, ptr, &b, size) != ZE_RESULT_SUCCESS || b == NULL)
        return false;
    *base = (uintptr_t)b;
    return true;
}

// An image handle: a bindless view of image memory, or a bindless image in pitched USM.
static ur_result_t make_handle(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                               uintptr_t hImageMem, const ur_image_format_t *format,
                               const ur_image_desc_t *desc, const ur_sampler_desc_t *sampler,
                               ur_exp_image_native_handle_t *phImage) {
    l0_context_t *ctx;
    l0_device_t *dev;
    ur_result_t r = l0_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    ze_image_bindless_exp_desc_t bd = {ZE_STRUCTURE_TYPE_BINDLESS_IMAGE_EXP_DESC, NULL,
                                       ZE_IMAGE_BINDLESS_EXP_FLAG_BINDLESS};
    ze_sampler_desc_t sd;
    if (sampler != NULL) {
        urc_sampler_t s;
        if ((r = urc_sampler_describe(&s, sampler)) != UR_RESULT_SUCCESS)
            return r;
        if (s.addressing[1] != s.addressing[0] || s.addressing[2] != s.addressing[0])
            return unsupported("a Level Zero sampler has one addressing mode for all dimensions");
        l0_sampler_desc(&s, &sd);
        bd.flags |= ZE_IMAGE_BINDLESS_EXP_FLAG_SAMPLED_IMAGE;
        bd.pNext = &sd;
    }
    urc_bindless_t b;
    ze_image_desc_t zd;
    bl_mem_t m;
    ze_image_handle_t ze = NULL;
    if (mem_find(ctx, hImageMem, &m)) {
        if ((r = l0_bl_describe(dev, format, desc, false, &b, &zd)) != UR_RESULT_SUCCESS)
            return r;
        if (b.element_size != m.desc.element_size || b.type != m.desc.type ||
            memcmp(b.extent, m.desc.extent, sizeof b.extent) != 0)
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "bindless images: the descriptor is not the image memory's "
                                 "(type, extents or element size)");
        zd.pNext = &bd;
        r = l0_ok(zeImageViewCreateExp(ctx->ze, dev->ze, &zd, m.ze, &ze), "zeImageViewCreateExp");
    } else {
        // Not image memory of ours: an image in USM, laid out at the driver's pitch.
        uintptr_t base;
        size_t size, pitch = 0;
        if (!usm_range(ctx, (const void *)hImageMem, &base, &size))
            return not_ours("image memory or USM", hImageMem);
        if ((r = l0_bl_describe(dev, format, desc, true, &b, &zd)) != UR_RESULT_SUCCESS)
            return r;
        if (b.type != UR_MEM_TYPE_IMAGE2D)
            return unsupported("images in USM are 2D (zeMemGetPitchFor2dImage)");
        r = l0_ok(dev->platform->pitch_for_2d_image(ctx->ze, dev->ze, b.width, b.height,
                                                    (unsigned)b.element_size, &pitch),
                  "zeMemGetPitchFor2dImage");
        if (r != UR_RESULT_SUCCESS)
            return r;
        if (desc->rowPitch != 0 && desc->rowPitch != pitch)
            return urc_error_set(UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR, 0,
                                 "bindless images: Level Zero lays this image out with rows %zu "
                                 "bytes apart, not %zu (urUSMPitchedAllocExp gives that pitch)",
                                 pitch, desc->rowPitch);
        size_t used = hImageMem - base;
        if (used > size || pitch * b.height > size - used)
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "bindless images: the image does not fit its USM allocation");
        ze_image_pitched_exp_desc_t pd = {ZE_STRUCTURE_TYPE_PITCHED_IMAGE_EXP_DESC, NULL,
                                          (void *)hImageMem};
        // The chain: image, bindless, [sampler,] pitched.
        if (sampler != NULL)
            sd.pNext = &pd;
        else
            bd.pNext = &pd;
        zd.pNext = &bd;
        r = l0_ok(zeImageCreate(ctx->ze, dev->ze, &zd, &ze), "zeImageCreate");
    }
    if (r != UR_RESULT_SUCCESS)
        return r;
    r = resident(ctx, dev, ze);
    uint64_t offset = 0;
    if (r == UR_RESULT_SUCCESS)
        r = l0_ok(dev->platform->image_device_offset(ze, &offset), "zeImageGetDeviceOffsetExp");
    if (r == UR_RESULT_SUCCESS && !view_add(offset, sampler != NULL, ctx, ze))
        r = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (r != UR_RESULT_SUCCESS) {
        (void)zeImageDestroy(ze);
        return r;
    }
    *phImage = offset;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_bindless_images_unsampled_image_create_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice,
    ur_exp_image_mem_native_handle_t hImageMem, const ur_image_format_t *pImageFormat,
    const ur_image_desc_t *pImageDesc, ur_exp_image_native_handle_t *phImage) {
    return make_handle(hContext, hDevice, hImageMem, pImageFormat, pImageDesc, NULL, phImage);
}

ur_result_t l0_bindless_images_sampled_image_create_exp(ur_context_handle_t hContext,
                                                        ur_device_handle_t hDevice,
                                                        ur_exp_image_mem_native_handle_t hImageMem,
                                                        const ur_image_format_t *pImageFormat,
                                                        const ur_image_desc_t *pImageDesc,
                                                        const ur_sampler_desc_t *pSamplerDesc,
                                                        ur_exp_image_native_handle_t *phImage) {
    return make_handle(hContext, hDevice, hImageMem, pImageFormat, pImageDesc, pSamplerDesc,
                       phImage);
}

static ur_result_t destroy_handle(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                  ur_exp_image_native_handle_t hImage, bool sampled) {
    l0_context_t *ctx;
    l0_device_t *dev;
    ur_result_t r = l0_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    ze_image_handle_t ze = view_take(hImage, sampled, ctx);
    if (ze == NULL)
        return not_ours(sampled ? "a sampled image handle" : "an unsampled image handle", hImage);
    return l0_ok(zeImageDestroy(ze), "zeImageDestroy");
}

ur_result_t l0_bindless_images_unsampled_image_handle_destroy_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, ur_exp_image_native_handle_t hImage) {
    return destroy_handle(hContext, hDevice, hImage, false);
}

ur_result_t l0_bindless_images_sampled_image_handle_destroy_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, ur_exp_image_native_handle_t hImage) {
    return destroy_handle(hContext, hDevice, hImage, true);
}

// ---- support queries ----------------------------------------------------------------------------

static ur_result_t support(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                           const ur_image_desc_t *desc, const ur_image_format_t *format,
                           ur_exp_image_mem_type_t kind, ur_bool_t *out) {
    if (!l0_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    if (!l0_is(hDevice, URC_KIND_DEVICE))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    const l0_device_t *dev = L0_DEVICE(hDevice);
    if (!l0_context_has_device(L0_CONTEXT(hContext), dev))
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "bindless images: the device is not in the context");
    // Image memory holds every shape l0_bl_describe() takes; USM holds 2D images; unsampled and
    // sampled handles exist for both.
    urc_bindless_t b;
    ze_image_desc_t zd;
    bool usm = kind == UR_EXP_IMAGE_MEM_TYPE_USM_POINTER;
    *out = available(dev) && l0_bl_describe(dev, format, desc, usm, &b, &zd) == UR_RESULT_SUCCESS &&
           (!usm || b.type == UR_MEM_TYPE_IMAGE2D);
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_bindless_images_get_image_memory_handle_type_support_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, const ur_image_desc_t *pImageDesc,
    const ur_image_format_t *pImageFormat, ur_exp_image_mem_type_t imageMemHandleType,
    ur_bool_t *pSupportedRet) {
    return support(hContext, hDevice, pImageDesc, pImageFormat, imageMemHandleType, pSupportedRet);
}

ur_result_t l0_bindless_images_get_image_unsampled_handle_support_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, const ur_image_desc_t *pImageDesc,
    const ur_image_format_t *pImageFormat, ur_exp_image_mem_type_t imageMemHandleType,
    ur_bool_t *pSupportedRet) {
    return support(hContext, hDevice, pImageDesc, pImageFormat, imageMemHandleType, pSupportedRet);
}

ur_result_t l0_bindless_images_get_image_sampled_handle_support_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, const ur_image_desc_t *pImageDesc,
    const ur_image_format_t *pImageFormat, ur_exp_image_mem_type_t imageMemHandleType,
    ur_bool_t *pSupportedRet) {
    return support(hContext, hDevice, pImageDesc, pImageFormat, imageMemHandleType, pSupportedRet);
}

// ---- copies -------------------------------------------------------------------------------------

// One side of a copy: a Level Zero image, or memory (host or USM) with its pitches.
typedef struct side_t {
    ze_image_handle_t image; // NULL for memory
    const unsigned char *ptr;
    urc_bindless_t desc;
} side_t;

static ur_result_t image_side(const l0_context_t *ctx, const void *ptr, const char *which,
                              side_t *s) {
    bl_mem_t m;
    if (!mem_find(ctx, (uintptr_t)ptr, &m))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "image copy: the %s is not image memory of the queue's context",
                             which);
    s->image = m.ze;
    s->ptr = NULL;
    s->desc = m.desc;
    return UR_RESULT_SUCCESS;
}

static ur_result_t memory_side(const l0_context_t *ctx, const void *ptr, bool host,
                               const ur_image_format_t *format, const ur_image_desc_t *desc,
                               const char *which, side_t *s) {
    s->image = NULL;
    s->ptr = ptr;
    ur_result_t r = urc_bindless_describe(&s->desc, format, desc, true);
    if (r != UR_RESULT_SUCCESS)
        return r;
    if (s->desc.row_pitch > UINT32_MAX || s->desc.size > UINT32_MAX)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "image copy: the %s's pitches pass 32 bits, which Level Zero cannot "
                             "take",
                             which);
    if (host)
        return UR_RESULT_SUCCESS;
    // Device-side memory is USM that must hold the whole layout.
    uintptr_t base;
    size_t size;
    if (!usm_range(ctx, ptr, &base, &size))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "image copy: the %s is neither image memory nor USM", which);
    size_t used = (uintptr_t)ptr - base;
    if (used > size || s->desc.size > size - used)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "image copy: the %s's %zu bytes leave its USM allocation", which,
                             s->desc.size);
    return UR_RESULT_SUCCESS;
}

// The box of one image side as a Level Zero region: x in elements; a 1D array's layers are
// Level Zero's rows (image.c's convention), the box's slices.
static ze_image_region_t image_region(const side_t *s, const size_t origin[3],
                                      const size_t extent[3]) {
    size_t es = s->desc.element_size;
    if (s->desc.type == UR_MEM_TYPE_IMAGE1D_ARRAY)
        return (ze_image_region_t){(uint32_t)(origin[0] / es), (uint32_t)origin[2], 0,
                                   (uint32_t)(extent[0] / es), (uint32_t)extent[2], 1};
    return (ze_image_region_t){(uint32_t)(origin[0] / es), (uint32_t)origin[1],
                               (uint32_t)origin[2],        (uint32_t)(extent[0] / es),
                               (uint32_t)extent[1],        (uint32_t)extent[2]};
}

// The first byte of a memory side's box.
static const unsigned char *memory_at(const side_t *s, const size_t origin[3]) {
    return s->ptr + origin[2] * s->desc.slice_pitch + origin[1] * s->desc.row_pitch + origin[0];
}

static ze_result_t append_copy(ze_command_list_handle_t list, const side_t *src, const side_t *dst,
                               const urc_bindless_box_t *box, ze_event_handle_t ev, uint32_t n,
                               ze_event_handle_t *waits) {
    if (src->image != NULL && dst->image != NULL) {
        ze_image_region_t sr = image_region(src, box->src, box->extent),
                          dr = image_region(dst, box->dst, box->extent);
        return zeCommandListAppendImageCopyRegion(list, dst->image, src->image, &dr, &sr, ev, n,
                                                  waits);
    }
    // Memory next to an image of layers in rows (a 1D array) steps by its slices there.
    const side_t *img = src->image != NULL ? src : dst->image != NULL ? dst : NULL;
    const side_t *mem = img == src ? dst : src;
    if (img != NULL) {
        ze_image_region_t r = image_region(img, img == src ? box->src : box->dst, box->extent);
        const size_t *morigin = img == src ? box->dst : box->src;
        bool rows_are_layers = img->desc.type == UR_MEM_TYPE_IMAGE1D_ARRAY;
        uint32_t row = (uint32_t)(rows_are_layers ? mem->desc.slice_pitch : mem->desc.row_pitch);
        // One slice of Level Zero's then spans every layer the box takes.
        uint32_t slice = (uint32_t)(rows_are_layers ? mem->desc.slice_pitch * box->extent[2]
                                                    : mem->desc.slice_pitch);
        if (img == src)
            return zeCommandListAppendImageCopyToMemoryExt(
                list, (void *)memory_at(mem, morigin), src->image, &r, row, slice, ev, n, waits);
        return zeCommandListAppendImageCopyFromMemoryExt(list, dst->image, memory_at(mem, morigin),
                                                         &r, row, slice, ev, n, waits);
    }
    // Memory to memory: one region copy at both sides' pitches.
    ze_copy_region_t sr = {(uint32_t)box->src[0],    (uint32_t)box->src[1],
                           (uint32_t)box->src[2],    (uint32_t)box->extent[0],
                           (uint32_t)box->extent[1], (uint32_t)box->extent[2]};
    ze_copy_region_t dr = {(uint32_t)box->dst[0],    (uint32_t)box->dst[1],
                           (uint32_t)box->dst[2],    (uint32_t)box->extent[0],
                           (uint32_t)box->extent[1], (uint32_t)box->extent[2]};
    return zeCommandListAppendMemoryCopyRegion(
        list, (void *)dst->ptr, &dr, (uint32_t)dst->desc.row_pitch, (uint32_t)dst->desc.slice_pitch,
        src->ptr, &sr, (uint32_t)src->desc.row_pitch, (uint32_t)src->desc.slice_pitch, ev, n,
        waits);
}

ur_result_t l0_bindless_images_image_copy_exp(
    ur_queue_handle_t hQueue, const void *pSrc, void *pDst, const ur_image_desc_t *pSrcImageDesc,
    const ur_image_desc_t *pDstImageDesc, const ur_image_format_t *pSrcImageFormat,
    const ur_image_format_t *pDstImageFormat, ur_exp_image_copy_region_t *pCopyRegion,
    ur_exp_image_copy_flags_t imageCopyFlags, ur_exp_image_copy_input_types_t imageCopyInputTypes,
    uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,
    ur_event_handle_t *phEvent) {
    l0_queue_t *q = L0_QUEUE(hQueue);
    if (!available(q->dev))
        return unsupported("the driver lacks " ZE_BINDLESS_IMAGE_EXP_NAME " or images");
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
    r = src_image
            ? image_side(q->ctx, pSrc, "source", &src)
            : memory_side(q->ctx, pSrc, src_host, pSrcImageFormat, pSrcImageDesc, "source", &src);
    if (r == UR_RESULT_SUCCESS)
        r = dst_image ? image_side(q->ctx, pDst, "destination", &dst)
                      : memory_side(q->ctx, pDst, dst_host, pDstImageFormat, pDstImageDesc,
                                    "destination", &dst);
    urc_bindless_box_t box;
    if (r == UR_RESULT_SUCCESS)
        r = urc_bindless_check_copy(&src.desc, &dst.desc, pCopyRegion, &box);
    if (r != UR_RESULT_SUCCESS)
        return r;
    l0_op_t op;
    r = l0_op_begin(q, UR_COMMAND_MEM_IMAGE_COPY, numEventsInWaitList, phEventWaitList, &op);
    if (r != UR_RESULT_SUCCESS)
        return r;
    r = l0_ok(append_copy(op.list, &src, &dst, &box, op.event->ze, op.nwaits, op.waits),
              "zeCommandListAppendImageCopy");
    return l0_op_end(&op, r, false, phEvent);
}

// ---- device queries -----------------------------------------------------------------------------

bool l0_bindless_device_info(const l0_device_t *dev, ur_device_info_t name, const urc_info_t *out,
                             ur_result_t *result) {
    bool on = available(dev);
    bool value;
    switch (name) {
    case UR_DEVICE_INFO_BINDLESS_IMAGES_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_IMAGES_SHARED_USM_SUPPORT_EXP: // any USM holds a pitched image
    case UR_DEVICE_INFO_BINDLESS_IMAGES_2D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_1D_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_2D_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_3D_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_2D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLE_2D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_IMAGE_ARRAY_SUPPORT_EXP:
        value = on;
        break;
    // Pitched images are 2D (zeMemGetPitchFor2dImage); Level Zero addresses no mip level, has
    // no cubemaps or gather images, and one addressing mode per sampler; external semaphores
    // are an extension after API 1.4, not offered.
    case UR_DEVICE_INFO_BINDLESS_IMAGES_1D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_1D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLE_1D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_MIPMAP_SUPPORT_EXP:
    case UR_DEVICE_INFO_MIPMAP_ANISOTROPY_SUPPORT_EXP:
    case UR_DEVICE_INFO_MIPMAP_LEVEL_REFERENCE_SUPPORT_EXP:
    case UR_DEVICE_INFO_CUBEMAP_SUPPORT_EXP:
    case UR_DEVICE_INFO_CUBEMAP_SEAMLESS_FILTERING_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_IMAGES_GATHER_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_UNIQUE_ADDRESSING_PER_DIM_SUPPORT_EXP:
    case UR_DEVICE_INFO_EXTERNAL_SEMAPHORE_IMPORT_SUPPORT_EXP:
        value = false;
        break;
    case UR_DEVICE_INFO_EXTERNAL_MEMORY_IMPORT_SUPPORT_EXP: // bindless_external.c
        value = on && (l0_bl_import_types(dev) & ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD) != 0;
        break;
    default:
        return false;
    }
    *result = urc_info_bool(out, value);
    return true;
}
