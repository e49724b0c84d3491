// SPDX-License-Identifier: MIT
// Bindless image memory and handles on CUDA: image memory is a CUDA array (cuArray3DCreate) or
// mipmapped array (cuMipmappedArrayCreate); an unsampled handle is a surface object over an
// array, a sampled one a texture object over an array, a mipmapped array, or pitched USM (1D
// linear and 2D pitch resources). The rules are common/image/image_bindless's; this file keeps the
// registry of what it handed out and translates to the driver.
#include <stdlib.h>
#include <string.h>

#include "bindless.h"

bool cuda_bindless_available(void) {
    return cuda_images_available() && cu.MipmappedArrayCreate != NULL &&
           cu.MipmappedArrayDestroy != NULL && cu.MipmappedArrayGetLevel != NULL &&
           cu.TexObjectCreate != NULL && cu.TexObjectDestroy != NULL;
}

// ---- the registry -------------------------------------------------------------------------------
// Image memory and image handles by their driver value. Creation and destruction are rare next
// to copies and launches, so one reader-writer lock guards both tables: lookups (every copy)
// only read.

#define BL_BUCKETS 256

// Image memory freed while image handles still refer to it is kept until the last of them is
// destroyed (the driver's objects would otherwise point at a destroyed array): `freed` hides it
// from every lookup, `views` counts the handles over it (over a mipmap or any of its levels).
typedef struct mem_node_t {
    struct mem_node_t *next;
    cuda_bl_mem_t m;
    uint32_t views;
    bool freed;
} mem_node_t;

typedef struct view_node_t {
    struct view_node_t *next;
    uint64_t handle; // CUsurfObject or CUtexObject
    bool sampled;
    cuda_context_t *ctx;
    cuda_device_t *dev;
    uintptr_t mem; // the image memory it keeps alive (0: USM)
} view_node_t;

static pthread_rwlock_t bl_lock = PTHREAD_RWLOCK_INITIALIZER;
static mem_node_t *mems[BL_BUCKETS];
static view_node_t *views[BL_BUCKETS];

static size_t bucket(uint64_t v) {
    return (size_t)((v * UINT64_C(0x9E3779B97F4A7C15)) >> 56) % BL_BUCKETS;
}

bool cuda_bl_mem_find(const cuda_context_t *ctx, uintptr_t handle, cuda_bl_mem_t *out) {
    bool found = false;
    pthread_rwlock_rdlock(&bl_lock);
    for (mem_node_t *n = mems[bucket(handle)]; n != NULL; n = n->next)
        if (n->m.handle == handle && n->m.ctx == ctx && !n->freed) {
            *out = n->m;
            found = true;
            break;
        }
    pthread_rwlock_unlock(&bl_lock);
    return found;
}

bool cuda_bl_mem_add(const cuda_bl_mem_t *m) {
    mem_node_t *n = URC_NEW(mem_node_t);
    if (n == NULL)
        return false;
    n->m = *m;
    pthread_rwlock_wrlock(&bl_lock);
    size_t b = bucket(m->handle);
    n->next = mems[b];
    mems[b] = n;
    pthread_rwlock_unlock(&bl_lock);
    return true;
}

// The node of `handle` in `ctx`, freed or not; under the lock.
static mem_node_t **mem_slot(uintptr_t handle, const cuda_context_t *ctx) {
    mem_node_t **p = &mems[bucket(handle)];
    while (*p != NULL && !((*p)->m.handle == handle && (*p)->m.ctx == ctx))
        p = &(*p)->next;
    return p;
}

// Takes the levels of mipmap `handle` out of the table; under the write lock.
static void forget_levels(uintptr_t handle) {
    for (size_t b = 0; b < BL_BUCKETS; ++b)
        for (mem_node_t **p = &mems[b]; *p != NULL;) {
            if ((*p)->m.kind == CUDA_BL_LEVEL && (*p)->m.owner == handle) {
                mem_node_t *dead = *p;
                *p = dead->next;
                free(dead);
            } else {
                p = &(*p)->next;
            }
        }
}

// The memory an image handle over `m` keeps alive: a level's mipmap, else `m` itself.
static uintptr_t root_of(const cuda_bl_mem_t *m) {
    return m->kind == CUDA_BL_LEVEL ? m->owner : m->handle;
}

// Gives the driver's memory of a record back.
static ur_result_t destroy_mem(const cuda_bl_mem_t *m) {
    switch (m->kind) {
    case CUDA_BL_MIPMAP:
        return cuda_ok(cu.MipmappedArrayDestroy((CUmipmappedArray)m->handle),
                       "cuMipmappedArrayDestroy");
    case CUDA_BL_EXTERNAL_ARRAY: // level 0 of a mapped mipmapped array, which owns it
        return cuda_ok(cu.MipmappedArrayDestroy((CUmipmappedArray)m->owner),
                       "cuMipmappedArrayDestroy");
    default:
        return cuda_ok(cu.ArrayDestroy((CUarray)m->handle), "cuArrayDestroy");
    }
}

// The user's free of `handle`: forgotten at once (a second free, a new handle or a copy is then
// refused), and its levels with it; destroyed now, or, while image handles refer to it, by the
// destruction of the last (`*later`). False when it was not there.
static bool mem_free(uintptr_t handle, const cuda_context_t *ctx, cuda_bl_mem_t *out, bool *later) {
    bool found = false;
    *later = false;
    pthread_rwlock_wrlock(&bl_lock);
    mem_node_t **p = mem_slot(handle, ctx);
    if (*p != NULL && !(*p)->freed) {
        found = true;
        *out = (*p)->m;
        if ((*p)->views != 0) {
            (*p)->freed = true;
            *later = true;
        } else {
            mem_node_t *dead = *p;
            *p = dead->next;
            free(dead);
        }
        if (out->kind == CUDA_BL_MIPMAP)
            forget_levels(handle);
    }
    pthread_rwlock_unlock(&bl_lock);
    return found;
}

// One more image handle over the memory `root`: false when it is gone or freed.
static bool mem_pin(uintptr_t root, const cuda_context_t *ctx) {
    pthread_rwlock_wrlock(&bl_lock);
    mem_node_t *n = *mem_slot(root, ctx);
    bool ok = n != NULL && !n->freed;
    if (ok)
        ++n->views;
    pthread_rwlock_unlock(&bl_lock);
    return ok;
}

// One image handle fewer over `root`; the memory is destroyed when it was freed meanwhile and
// this was the last handle.
static ur_result_t mem_unpin(uintptr_t root, const cuda_context_t *ctx) {
    mem_node_t *dead = NULL;
    pthread_rwlock_wrlock(&bl_lock);
    mem_node_t **p = mem_slot(root, ctx);
    if (*p != NULL && (*p)->views > 0 && --(*p)->views == 0 && (*p)->freed) {
        dead = *p;
        *p = dead->next;
    }
    pthread_rwlock_unlock(&bl_lock);
    if (dead == NULL)
        return UR_RESULT_SUCCESS;
    ur_result_t r = destroy_mem(&dead->m);
    free(dead);
    return r;
}

static bool view_add(uint64_t handle, bool sampled, cuda_context_t *ctx, cuda_device_t *dev,
                     uintptr_t mem) {
    view_node_t *n = URC_NEW(view_node_t);
    if (n == NULL)
        return false;
    *n = (view_node_t){NULL, handle, sampled, ctx, dev, mem};
    pthread_rwlock_wrlock(&bl_lock);
    size_t b = bucket(handle);
    n->next = views[b];
    views[b] = n;
    pthread_rwlock_unlock(&bl_lock);
    return true;
}

// Takes a handle of the kind asked for out of the registry, with the memory it kept alive;
// false when there is none.
static bool view_take(uint64_t handle, bool sampled, const cuda_context_t *ctx, uintptr_t *mem) {
    bool found = false;
    pthread_rwlock_wrlock(&bl_lock);
    for (view_node_t **p = &views[bucket(handle)]; *p != NULL; p = &(*p)->next)
        if ((*p)->handle == handle && (*p)->sampled == sampled && (*p)->ctx == ctx) {
            view_node_t *dead = *p;
            *p = dead->next;
            *mem = dead->mem;
            free(dead);
            found = true;
            break;
        }
    pthread_rwlock_unlock(&bl_lock);
    return found;
}

// ---- common steps -------------------------------------------------------------------------------

static ur_result_t unavailable(void) {
    return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                         "the CUDA driver lacks what bindless images need (arrays, mipmapped "
                         "arrays, surface and texture objects)");
}

// The context and a device of it, the context current for the device.
ur_result_t cuda_bl_enter(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                          cuda_context_t **ctx, cuda_device_t **dev) {
    if (!cuda_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    if (!cuda_is(hDevice, URC_KIND_DEVICE))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    *ctx = CUDA_CONTEXT(hContext);
    *dev = CUDA_DEVICE(hDevice);
    if (!cuda_context_has_device(*ctx, *dev))
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "bindless images: the device is not in the context");
    if (!cuda_bindless_available())
        return unavailable();
    return cuda_activate(*dev);
}

static ur_result_t not_ours(const char *what, uintptr_t handle) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                         "bindless images: %#llx is not %s of this context",
                         (unsigned long long)handle, what);
}

// A format and descriptor as image memory of the device: the common checks, CUDA's formats,
// the device's limits.
ur_result_t cuda_bl_describe_array(const cuda_device_t *dev, const ur_image_format_t *format,
                                   const ur_image_desc_t *desc, urc_bindless_t *b,
                                   CUDA_ARRAY3D_DESCRIPTOR *d) {
    ur_result_t r = urc_bindless_describe(b, format, desc, false);
    if (r != UR_RESULT_SUCCESS)
        return r;
    urc_image_limits_t lim;
    cuda_device_image_limits(dev, &lim);
    if ((r = urc_bindless_check_limits(b, &lim)) != UR_RESULT_SUCCESS)
        return r;
    memset(d, 0, sizeof *d);
    if (!cuda_array_format(format, &d->Format, &d->NumChannels))
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, 0,
                             "CUDA arrays hold R, RG and RGBA of unpacked channel types only");
    d->Width = b->width;
    d->Height = b->height;
    d->Depth = b->type == UR_MEM_TYPE_IMAGE3D ? b->depth : b->array_size;
    d->Flags = CUDA_ARRAY3D_SURFACE_LDST;
    if (b->type == UR_MEM_TYPE_IMAGE1D_ARRAY || b->type == UR_MEM_TYPE_IMAGE2D_ARRAY)
        d->Flags |= CUDA_ARRAY3D_LAYERED;
    else if (b->type == UR_MEM_TYPE_IMAGE_CUBEMAP_EXP)
        d->Flags |= CUDA_ARRAY3D_CUBEMAP;
    else if (b->type == UR_MEM_TYPE_IMAGE_GATHER_EXP)
        d->Flags = CUDA_ARRAY3D_TEXTURE_GATHER; // gather arrays take no surface access
    return UR_RESULT_SUCCESS;
}

// ---- image memory -------------------------------------------------------------------------------

ur_result_t cuda_bindless_images_image_allocate_exp(ur_context_handle_t hContext,
                                                    ur_device_handle_t hDevice,
                                                    const ur_image_format_t *pImageFormat,
                                                    const ur_image_desc_t *pImageDesc,
                                                    ur_exp_image_mem_native_handle_t *phImageMem) {
    cuda_context_t *ctx;
    cuda_device_t *dev;
    ur_result_t r = cuda_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    cuda_bl_mem_t m = {.kind = CUDA_BL_ARRAY, .ctx = ctx, .dev = dev};
    CUDA_ARRAY3D_DESCRIPTOR d;
    if ((r = cuda_bl_describe_array(dev, pImageFormat, pImageDesc, &m.desc, &d)) !=
        UR_RESULT_SUCCESS)
        return r;
    if (m.desc.levels > 1) {
        CUmipmappedArray mip = NULL;
        r = cuda_ok(cu.MipmappedArrayCreate(&mip, &d, m.desc.levels), "cuMipmappedArrayCreate");
        if (r != UR_RESULT_SUCCESS)
            return r;
        m.kind = CUDA_BL_MIPMAP;
        m.handle = (uintptr_t)mip;
        if (!cuda_bl_mem_add(&m)) {
            (void)cu.MipmappedArrayDestroy(mip);
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
    } else {
        CUarray array = NULL;
        r = cuda_ok(cu.Array3DCreate(&array, &d), "cuArray3DCreate");
        if (r != UR_RESULT_SUCCESS)
            return r;
        m.handle = (uintptr_t)array;
        if (!cuda_bl_mem_add(&m)) {
            (void)cu.ArrayDestroy(array);
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
    }
    *phImageMem = m.handle;
    return UR_RESULT_SUCCESS;
}

// Frees image memory of the kind the entry point frees.
static ur_result_t free_mem(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                            uintptr_t handle, bool mipmap) {
    cuda_context_t *ctx;
    cuda_device_t *dev;
    ur_result_t r = cuda_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    cuda_bl_mem_t m;
    if (!cuda_bl_mem_find(ctx, handle, &m))
        return not_ours("image memory", handle);
    if (m.kind == CUDA_BL_LEVEL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "bindless images: a mip level is freed with its mipmap");
    if ((m.kind == CUDA_BL_MIPMAP) != mipmap)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             mipmap ? "bindless images: not a mipmap (urBindlessImagesImageFreeExp "
                                      "frees it)"
                                    : "bindless images: a mipmap is freed by "
                                      "urBindlessImagesMipmapFreeExp");
    // Forgotten first: a second free of the same value is then refused, not passed on. Image
    // handles still over it keep the driver's memory until the last is destroyed.
    bool later = false;
    if (!mem_free(handle, ctx, &m, &later))
        return not_ours("image memory", handle);
    return later ? UR_RESULT_SUCCESS : destroy_mem(&m);
}

ur_result_t cuda_bindless_images_image_free_exp(ur_context_handle_t hContext,
                                                ur_device_handle_t hDevice,
                                                ur_exp_image_mem_native_handle_t hImageMem) {
    return free_mem(hContext, hDevice, hImageMem, false);
}

ur_result_t cuda_bindless_images_mipmap_free_exp(ur_context_handle_t hContext,
                                                 ur_device_handle_t hDevice,
                                                 ur_exp_image_mem_native_handle_t hMem) {
    return free_mem(hContext, hDevice, hMem, true);
}

ur_result_t
cuda_bindless_images_mipmap_get_level_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                          ur_exp_image_mem_native_handle_t hImageMem,
                                          uint32_t mipmapLevel,
                                          ur_exp_image_mem_native_handle_t *phImageMem) {
    cuda_context_t *ctx;
    cuda_device_t *dev;
    ur_result_t r = cuda_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    cuda_bl_mem_t mip, level;
    if (!cuda_bl_mem_find(ctx, hImageMem, &mip) || mip.kind != CUDA_BL_MIPMAP)
        return not_ours("a mipmap", hImageMem);
    level = mip;
    if ((r = urc_bindless_level(&mip.desc, mipmapLevel, &level.desc)) != UR_RESULT_SUCCESS)
        return r;
    CUarray array = NULL;
    r = cuda_ok(cu.MipmappedArrayGetLevel(&array, (CUmipmappedArray)hImageMem, mipmapLevel),
                "cuMipmappedArrayGetLevel");
    if (r != UR_RESULT_SUCCESS)
        return r;
    // The driver hands out the same array for a level each time; it is recorded once.
    cuda_bl_mem_t known;
    if (!cuda_bl_mem_find(ctx, (uintptr_t)array, &known)) {
        level.kind = CUDA_BL_LEVEL;
        level.handle = (uintptr_t)array;
        level.owner = hImageMem;
        if (!cuda_bl_mem_add(&level))
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    *phImageMem = (uintptr_t)array;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_bindless_images_image_get_info_exp(ur_context_handle_t hContext,
                                                    ur_exp_image_mem_native_handle_t hImageMem,
                                                    ur_image_info_t propName, void *pPropValue,
                                                    size_t *pPropSizeRet) {
    cuda_bl_mem_t m;
    if (!cuda_bl_mem_find(CUDA_CONTEXT(hContext), hImageMem, &m))
        return not_ours("image memory", hImageMem);
    // UR gives no size for the value: the caller's buffer is taken to fit the query's type.
    const urc_info_t out = {SIZE_MAX, pPropValue, pPropSizeRet};
    return urc_bindless_info(&out, propName, &m.desc);
}

// ---- image handles ------------------------------------------------------------------------------

ur_result_t cuda_bindless_images_unsampled_image_create_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice,
    ur_exp_image_mem_native_handle_t hImageMem, const ur_image_format_t *pImageFormat,
    const ur_image_desc_t *pImageDesc, ur_exp_image_native_handle_t *phImage) {
    cuda_context_t *ctx;
    cuda_device_t *dev;
    ur_result_t r = cuda_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    urc_bindless_t b;
    if ((r = urc_bindless_describe(&b, pImageFormat, pImageDesc, false)) != UR_RESULT_SUCCESS)
        return r;
    cuda_bl_mem_t m;
    // A surface writes one array: a mipmap's levels each get their own handle.
    if (!cuda_bl_mem_find(ctx, hImageMem, &m) || m.kind == CUDA_BL_MIPMAP)
        return not_ours("an image array (a mipmap's level, not the mipmap)", hImageMem);
    if (m.desc.element_size != b.element_size)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "bindless images: the format's elements are %zu bytes, the "
                             "memory's %zu",
                             b.element_size, m.desc.element_size);
    if (m.desc.type == UR_MEM_TYPE_IMAGE_GATHER_EXP)
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                             "bindless images: a gather image has no unsampled access");
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = (CUarray)hImageMem;
    // The handle keeps the memory alive: pinned before the driver sees it, so a concurrent free
    // cannot destroy it under the new surface.
    uintptr_t root = root_of(&m);
    if (!mem_pin(root, ctx))
        return not_ours("image memory", hImageMem);
    CUsurfObject surf = 0;
    if ((r = cuda_ok(cu.SurfObjectCreate(&surf, &rd), "cuSurfObjectCreate")) != UR_RESULT_SUCCESS) {
        (void)mem_unpin(root, ctx);
        return r;
    }
    if (!view_add(surf, false, ctx, dev, root)) {
        (void)cu.SurfObjectDestroy(surf);
        (void)mem_unpin(root, ctx);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    *phImage = (ur_exp_image_native_handle_t)surf;
    return UR_RESULT_SUCCESS;
}

static CUaddress_mode address_mode(ur_sampler_addressing_mode_t m) {
    switch (m) {
    case UR_SAMPLER_ADDRESSING_MODE_CLAMP:
        return CU_TR_ADDRESS_MODE_BORDER; // transparent black outside
    case UR_SAMPLER_ADDRESSING_MODE_REPEAT:
        return CU_TR_ADDRESS_MODE_WRAP;
    case UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT:
        return CU_TR_ADDRESS_MODE_MIRROR;
    default: // CLAMP_TO_EDGE; NONE leaves reads outside undefined, and clamping is one answer
        return CU_TR_ADDRESS_MODE_CLAMP;
    }
}

static bool normalized_type(ur_image_channel_type_t t) {
    return t == UR_IMAGE_CHANNEL_TYPE_UNORM_INT8 || t == UR_IMAGE_CHANNEL_TYPE_UNORM_INT16 ||
           t == UR_IMAGE_CHANNEL_TYPE_SNORM_INT8 || t == UR_IMAGE_CHANNEL_TYPE_SNORM_INT16;
}

// A texture's sampling from a UR sampler: addressing per dimension the image has, filtering,
// coordinates, integer reads of integer formats, mip and anisotropy settings.
static void texture_desc(const urc_sampler_t *s, const urc_bindless_t *b, CUDA_TEXTURE_DESC *td) {
    memset(td, 0, sizeof *td);
    size_t dims = b->type == UR_MEM_TYPE_IMAGE3D || b->type == UR_MEM_TYPE_IMAGE_CUBEMAP_EXP ? 3
                  : b->height != 0                                                           ? 2
                                                                                             : 1;
    // Dimensions the image lacks keep clamping: a mode there would only disturb the others.
    for (size_t i = 0; i < 3; ++i)
        td->addressMode[i] = i < dims ? address_mode(s->addressing[i]) : CU_TR_ADDRESS_MODE_CLAMP;
    td->filterMode = s->filter == UR_SAMPLER_FILTER_MODE_LINEAR ? CU_TR_FILTER_MODE_LINEAR
                                                                : CU_TR_FILTER_MODE_POINT;
    td->mipmapFilterMode = s->mip_filter == UR_SAMPLER_FILTER_MODE_LINEAR ? CU_TR_FILTER_MODE_LINEAR
                                                                          : CU_TR_FILTER_MODE_POINT;
    td->minMipmapLevelClamp = s->min_lod;
    td->maxMipmapLevelClamp = s->max_lod;
    td->maxAnisotropy = (unsigned)s->max_anisotropy;
    if (s->normalized)
        td->flags |= CU_TRSF_NORMALIZED_COORDINATES;
    // CUDA reads 8- and 16-bit integers as normalised floats unless told otherwise.
    if (!normalized_type(b->format.channelType))
        td->flags |= CU_TRSF_READ_AS_INTEGER;
    if (s->seamless_cubemap)
        td->flags |= CU_TRSF_SEAMLESS_CUBEMAP;
}

// The resource of USM memory holding an image: 1D linear or 2D pitched.
static ur_result_t usm_resource(uintptr_t ptr, const urc_bindless_t *b, CUDA_RESOURCE_DESC *rd) {
    cuda_pointer_t info;
    if (cuda_pointer_query((const void *)ptr, &info) != UR_RESULT_SUCCESS ||
        (info.memory_type != CU_MEMORYTYPE_DEVICE && info.memory_type != CU_MEMORYTYPE_HOST))
        return not_ours("image memory or USM", ptr);
    // The image must lie inside the allocation that holds its first byte.
    size_t used = (size_t)(ptr - (uintptr_t)info.base);
    if (used > info.range || b->size > info.range - used)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "bindless images: %zu bytes of image do not fit the USM allocation",
                             b->size);
    CUarray_format format;
    unsigned channels;
    if (!cuda_array_format(&b->format, &format, &channels))
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT, 0,
                             "CUDA textures hold R, RG and RGBA of unpacked channel types only");
    memset(rd, 0, sizeof *rd);
    if (b->type == UR_MEM_TYPE_IMAGE1D && b->levels == 1) {
        rd->resType = CU_RESOURCE_TYPE_LINEAR;
        rd->res.linear.devPtr = (CUdeviceptr)ptr;
        rd->res.linear.format = format;
        rd->res.linear.numChannels = channels;
        rd->res.linear.sizeInBytes = b->width * b->element_size;
    } else if (b->type == UR_MEM_TYPE_IMAGE2D && b->levels == 1) {
        rd->resType = CU_RESOURCE_TYPE_PITCH2D;
        rd->res.pitch2D.devPtr = (CUdeviceptr)ptr;
        rd->res.pitch2D.format = format;
        rd->res.pitch2D.numChannels = channels;
        rd->res.pitch2D.width = b->width;
        rd->res.pitch2D.height = b->height;
        rd->res.pitch2D.pitchInBytes = b->row_pitch;
    } else {
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "bindless images: USM holds 1D and 2D images without mip levels only");
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_bindless_images_sampled_image_create_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice,
    ur_exp_image_mem_native_handle_t hImageMem, const ur_image_format_t *pImageFormat,
    const ur_image_desc_t *pImageDesc, const ur_sampler_desc_t *pSamplerDesc,
    ur_exp_image_native_handle_t *phImage) {
    cuda_context_t *ctx;
    cuda_device_t *dev;
    ur_result_t r = cuda_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    urc_sampler_t s;
    if ((r = urc_sampler_describe(&s, pSamplerDesc)) != UR_RESULT_SUCCESS)
        return r;
    urc_bindless_t b;
    cuda_bl_mem_t m;
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    uintptr_t root = 0; // the image memory the handle keeps alive; 0 for USM
    if (cuda_bl_mem_find(ctx, hImageMem, &m)) {
        root = root_of(&m);
        if ((r = urc_bindless_describe(&b, pImageFormat, pImageDesc, false)) != UR_RESULT_SUCCESS)
            return r;
        if (m.desc.element_size != b.element_size)
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "bindless images: the format's elements are %zu bytes, the "
                                 "memory's %zu",
                                 b.element_size, m.desc.element_size);
        if (m.kind == CUDA_BL_MIPMAP) {
            rd.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
            rd.res.mipmap.hMipmappedArray = (CUmipmappedArray)hImageMem;
        } else {
            rd.resType = CU_RESOURCE_TYPE_ARRAY;
            rd.res.array.hArray = (CUarray)hImageMem;
        }
    } else {
        // Not image memory of ours: pitched (or plain) USM, laid out by the descriptor.
        if ((r = urc_bindless_describe(&b, pImageFormat, pImageDesc, true)) != UR_RESULT_SUCCESS)
            return r;
        if ((r = usm_resource(hImageMem, &b, &rd)) != UR_RESULT_SUCCESS)
            return r;
    }
    CUDA_TEXTURE_DESC td;
    texture_desc(&s, &b, &td);
    if (root != 0 && !mem_pin(root, ctx))
        return not_ours("image memory", hImageMem);
    CUtexObject tex = 0;
    if ((r = cuda_ok(cu.TexObjectCreate(&tex, &rd, &td, NULL), "cuTexObjectCreate")) !=
        UR_RESULT_SUCCESS) {
        if (root != 0)
            (void)mem_unpin(root, ctx);
        return r;
    }
    if (!view_add(tex, true, ctx, dev, root)) {
        (void)cu.TexObjectDestroy(tex);
        if (root != 0)
            (void)mem_unpin(root, ctx);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    *phImage = (ur_exp_image_native_handle_t)tex;
    return UR_RESULT_SUCCESS;
}

static ur_result_t destroy_view(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                ur_exp_image_native_handle_t hImage, bool sampled) {
    cuda_context_t *ctx;
    cuda_device_t *dev;
    ur_result_t r = cuda_bl_enter(hContext, hDevice, &ctx, &dev);
    if (r != UR_RESULT_SUCCESS)
        return r;
    uintptr_t mem = 0;
    if (!view_take(hImage, sampled, ctx, &mem))
        return not_ours(sampled ? "a sampled image handle" : "an unsampled image handle", hImage);
    r = sampled ? cuda_ok(cu.TexObjectDestroy((CUtexObject)hImage), "cuTexObjectDestroy")
                : cuda_ok(cu.SurfObjectDestroy((CUsurfObject)hImage), "cuSurfObjectDestroy");
    // Then the memory, when it was freed while this handle referred to it.
    ur_result_t freed = mem != 0 ? mem_unpin(mem, ctx) : UR_RESULT_SUCCESS;
    return r != UR_RESULT_SUCCESS ? r : freed;
}

ur_result_t cuda_bindless_images_unsampled_image_handle_destroy_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, ur_exp_image_native_handle_t hImage) {
    return destroy_view(hContext, hDevice, hImage, false);
}

ur_result_t cuda_bindless_images_sampled_image_handle_destroy_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, ur_exp_image_native_handle_t hImage) {
    return destroy_view(hContext, hDevice, hImage, true);
}

// ---- support queries ----------------------------------------------------------------------------

// Whether the device holds this image in memory of this kind; `why` is the first refusal.
static bool holds(const cuda_device_t *dev, const ur_image_desc_t *desc,
                  const ur_image_format_t *format, ur_exp_image_mem_type_t kind,
                  urc_bindless_t *b) {
    CUDA_ARRAY3D_DESCRIPTOR d;
    if (cuda_bl_describe_array(dev, format, desc, b, &d) != UR_RESULT_SUCCESS)
        return false;
    if (kind == UR_EXP_IMAGE_MEM_TYPE_OPAQUE_HANDLE)
        return true;
    // USM: 1D and 2D images without levels, within the linear limits for 2D.
    if (b->levels != 1 || (b->type != UR_MEM_TYPE_IMAGE1D && b->type != UR_MEM_TYPE_IMAGE2D))
        return false;
    if (b->type == UR_MEM_TYPE_IMAGE2D) {
        int w = 0, h = 0, p = 0;
        (void)cu.DeviceGetAttribute(&w, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH,
                                    dev->cu);
        (void)cu.DeviceGetAttribute(&h, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT,
                                    dev->cu);
        (void)cu.DeviceGetAttribute(&p, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH,
                                    dev->cu);
        size_t pitch = desc->rowPitch ? desc->rowPitch : b->row_pitch;
        if ((w > 0 && b->width > (size_t)w) || (h > 0 && b->height > (size_t)h) ||
            (p > 0 && pitch > (size_t)p))
            return false;
    }
    return true;
}

static ur_result_t support(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                           const ur_image_desc_t *desc, const ur_image_format_t *format,
                           ur_exp_image_mem_type_t kind, int query, ur_bool_t *out) {
    if (!cuda_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    if (!cuda_is(hDevice, URC_KIND_DEVICE))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    if (!cuda_context_has_device(CUDA_CONTEXT(hContext), CUDA_DEVICE(hDevice)))
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "bindless images: the device is not in the context");
    urc_bindless_t b;
    bool ok = cuda_bindless_available() && holds(CUDA_DEVICE(hDevice), desc, format, kind, &b);
    // 1: unsampled handles (surfaces): arrays only, one level, no gather; 2: sampled handles.
    if (ok && query == 1)
        ok = kind == UR_EXP_IMAGE_MEM_TYPE_OPAQUE_HANDLE && b.levels == 1 &&
             b.type != UR_MEM_TYPE_IMAGE_GATHER_EXP;
    *out = ok;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_bindless_images_get_image_memory_handle_type_support_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, const ur_image_desc_t *pImageDesc,
    const ur_image_format_t *pImageFormat, ur_exp_image_mem_type_t imageMemHandleType,
    ur_bool_t *pSupportedRet) {
    return support(hContext, hDevice, pImageDesc, pImageFormat, imageMemHandleType, 0,
                   pSupportedRet);
}

ur_result_t cuda_bindless_images_get_image_unsampled_handle_support_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, const ur_image_desc_t *pImageDesc,
    const ur_image_format_t *pImageFormat, ur_exp_image_mem_type_t imageMemHandleType,
    ur_bool_t *pSupportedRet) {
    return support(hContext, hDevice, pImageDesc, pImageFormat, imageMemHandleType, 1,
                   pSupportedRet);
}

ur_result_t cuda_bindless_images_get_image_sampled_handle_support_exp(
    ur_context_handle_t hContext, ur_device_handle_t hDevice, const ur_image_desc_t *pImageDesc,
    const ur_image_format_t *pImageFormat, ur_exp_image_mem_type_t imageMemHandleType,
    ur_bool_t *pSupportedRet) {
    return support(hContext, hDevice, pImageDesc, pImageFormat, imageMemHandleType, 2,
                   pSupportedRet);
}

// ---- device queries -----------------------------------------------------------------------------

bool cuda_bindless_device_info(const cuda_device_t *dev, ur_device_info_t name,
                               const urc_info_t *out, ur_result_t *result) {
    (void)dev;
    bool on = cuda_bindless_available();
    bool value;
    switch (name) {
    case UR_DEVICE_INFO_BINDLESS_IMAGES_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_IMAGES_SHARED_USM_SUPPORT_EXP: // managed memory is device memory
    case UR_DEVICE_INFO_BINDLESS_IMAGES_1D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_IMAGES_2D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_MIPMAP_SUPPORT_EXP:
    case UR_DEVICE_INFO_MIPMAP_ANISOTROPY_SUPPORT_EXP:
    case UR_DEVICE_INFO_MIPMAP_LEVEL_REFERENCE_SUPPORT_EXP:
    case UR_DEVICE_INFO_CUBEMAP_SUPPORT_EXP:
    case UR_DEVICE_INFO_CUBEMAP_SEAMLESS_FILTERING_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_1D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_2D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_2D_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_3D_SUPPORT_EXP:
    case UR_DEVICE_INFO_IMAGE_ARRAY_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_UNIQUE_ADDRESSING_PER_DIM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLE_2D_USM_SUPPORT_EXP:
        value = on;
        break;
    // A 1D array texture cannot fetch by integer coordinate, and linear 1D memory cannot be
    // filtered; gather images are refused by UR's own argument checks (a type past CUBEMAP).
    case UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_1D_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLE_1D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_IMAGES_GATHER_SUPPORT_EXP:
        value = false;
        break;
    case UR_DEVICE_INFO_EXTERNAL_MEMORY_IMPORT_SUPPORT_EXP:
        value = on && cuda_external_memory_available();
        break;
    case UR_DEVICE_INFO_EXTERNAL_SEMAPHORE_IMPORT_SUPPORT_EXP:
        value = on && cuda_external_semaphores_available();
        break;
    default:
        return false;
    }
    *result = urc_info_bool(out, value);
    return true;
}
