// SPDX-License-Identifier: MIT
// Mipmapped arrays and texture objects, for the adapter's bindless images: a mipmapped array
// is one simulated array per level (array.c), a texture object keeps the resource and texture
// descriptors it was made with (cuTexObjectGetResourceDesc / GetTextureDesc hand them back, so
// tests see exactly what the adapter asked for), and the image suite's texture_sample kernel
// reads 2D RGBA float textures through the host reference sampler (test/support).
#include <stdlib.h>
#include <string.h>

#include "cuda_sim_internal.h"
#include "urc_image_ref.h"

#define SIM_MIPMAP_MAGIC  0x4d495050u /* "MIPP" */
#define SIM_TEXTURE_MAGIC 0x54455854u /* "TEXT" */
#define SIM_MAX_LEVELS    32

typedef struct sim_mipmap_t {
    uint32_t magic;
    unsigned levels;
    CUarray level[SIM_MAX_LEVELS];
} sim_mipmap_t;

typedef struct sim_texture_t {
    uint32_t magic;
    CUDA_RESOURCE_DESC res;
    CUDA_TEXTURE_DESC tex;
} sim_texture_t;

static sim_mipmap_t *mipmap_of(CUmipmappedArray h) {
    sim_mipmap_t *m = (sim_mipmap_t *)h;
    return m != NULL && m->magic == SIM_MIPMAP_MAGIC ? m : NULL;
}

static sim_texture_t *texture_of(CUtexObject h) {
    sim_texture_t *t = (sim_texture_t *)(uintptr_t)h;
    return t != NULL && t->magic == SIM_TEXTURE_MAGIC ? t : NULL;
}

static size_t halve(size_t v, unsigned level) {
    v >>= level;
    return v ? v : 1;
}

SIM_EXPORT CUresult cuMipmappedArrayDestroy(CUmipmappedArray h) {
    sim_count_call();
    sim_mipmap_t *m = mipmap_of(h);
    if (m == NULL)
        return CUDA_ERROR_INVALID_HANDLE;
    for (unsigned i = 0; i < m->levels; ++i)
        (void)cuArrayDestroy(m->level[i]);
    m->magic = 0;
    free(m);
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMipmappedArrayCreate(CUmipmappedArray *out, const CUDA_ARRAY3D_DESCRIPTOR *d,
                                           unsigned levels) {
    sim_count_call();
    SIM_STICKY();
    if (out == NULL || d == NULL || levels == 0 || levels > SIM_MAX_LEVELS)
        return CUDA_ERROR_INVALID_VALUE;
    // The driver refuses a chain longer than the largest extent halves into.
    size_t largest = d->Width > d->Height ? d->Width : d->Height;
    if (!(d->Flags & CUDA_ARRAY3D_LAYERED) && d->Depth > largest)
        largest = d->Depth;
    if (largest >> (levels - 1) == 0)
        return CUDA_ERROR_INVALID_VALUE;
    sim_mipmap_t *m = calloc(1, sizeof *m);
    if (m == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    m->magic = SIM_MIPMAP_MAGIC;
    for (unsigned i = 0; i < levels; ++i) {
        CUDA_ARRAY3D_DESCRIPTOR l = *d;
        l.Width = halve(d->Width, i);
        l.Height = d->Height ? halve(d->Height, i) : 0;
        if (!(d->Flags & CUDA_ARRAY3D_LAYERED) && d->Depth)
            l.Depth = halve(d->Depth, i);
        CUresult r = cuArray3DCreate_v2(&m->level[i], &l);
        if (r != CUDA_SUCCESS) {
            m->levels = i;
            (void)cuMipmappedArrayDestroy((CUmipmappedArray)m);
            return r;
        }
    }
    m->levels = levels;
    *out = (CUmipmappedArray)m;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMipmappedArrayGetLevel(CUarray *out, CUmipmappedArray h, unsigned level) {
    sim_count_call();
    sim_mipmap_t *m = mipmap_of(h);
    if (out == NULL || m == NULL)
        return CUDA_ERROR_INVALID_HANDLE;
    if (level >= m->levels)
        return CUDA_ERROR_INVALID_VALUE;
    *out = m->level[level];
    return CUDA_SUCCESS;
}

// A resource the driver accepts: a live array or mipmap, or device memory with a pitch that
// covers a row.
static bool resource_ok(const CUDA_RESOURCE_DESC *r) {
    switch (r->resType) {
    case CU_RESOURCE_TYPE_ARRAY:
        return sim_array(r->res.array.hArray) != NULL;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
        return mipmap_of(r->res.mipmap.hMipmappedArray) != NULL;
    case CU_RESOURCE_TYPE_LINEAR: {
        sim_alloc_t a;
        return sim_find_alloc(r->res.linear.devPtr, &a) && r->res.linear.sizeInBytes > 0;
    }
    case CU_RESOURCE_TYPE_PITCH2D: {
        sim_alloc_t a;
        size_t element = r->res.pitch2D.numChannels *
                         (r->res.pitch2D.format == CU_AD_FORMAT_FLOAT ||
                                  r->res.pitch2D.format == CU_AD_FORMAT_UNSIGNED_INT32 ||
                                  r->res.pitch2D.format == CU_AD_FORMAT_SIGNED_INT32
                              ? 4
                              : 1);
        return sim_find_alloc(r->res.pitch2D.devPtr, &a) && r->res.pitch2D.width > 0 &&
               r->res.pitch2D.height > 0 &&
               r->res.pitch2D.pitchInBytes >= r->res.pitch2D.width * element;
    }
    default:
        return false;
    }
}

SIM_EXPORT CUresult cuTexObjectCreate(CUtexObject *out, const CUDA_RESOURCE_DESC *res,
                                      const CUDA_TEXTURE_DESC *tex,
                                      const CUDA_RESOURCE_VIEW_DESC *view) {
    sim_count_call();
    SIM_STICKY();
    if (out == NULL || res == NULL || tex == NULL || view != NULL || !resource_ok(res))
        return CUDA_ERROR_INVALID_VALUE;
    sim_texture_t *t = calloc(1, sizeof *t);
    if (t == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    t->magic = SIM_TEXTURE_MAGIC;
    t->res = *res;
    t->tex = *tex;
    *out = (CUtexObject)(uintptr_t)t;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuTexObjectDestroy(CUtexObject h) {
    sim_count_call();
    sim_texture_t *t = texture_of(h);
    if (t == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    t->magic = 0;
    free(t);
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *out, CUtexObject h) {
    sim_count_call();
    sim_texture_t *t = texture_of(h);
    if (out == NULL || t == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    *out = t->res;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *out, CUtexObject h) {
    sim_count_call();
    sim_texture_t *t = texture_of(h);
    if (out == NULL || t == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    *out = t->tex;
    return CUDA_SUCCESS;
}

// ---- texture_sample (images.cu) -----------------------------------------------------------------

static ur_sampler_addressing_mode_t ur_mode(CUaddress_mode m) {
    switch (m) {
    case CU_TR_ADDRESS_MODE_WRAP:
        return UR_SAMPLER_ADDRESSING_MODE_REPEAT;
    case CU_TR_ADDRESS_MODE_MIRROR:
        return UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT;
    case CU_TR_ADDRESS_MODE_BORDER:
        return UR_SAMPLER_ADDRESSING_MODE_CLAMP;
    default:
        return UR_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE;
    }
}

// The texels of a 2D RGBA float texture, rows packed; NULL for other resources.
static float *texels_of(const sim_texture_t *t, size_t *w, size_t *h) {
    const uint8_t *base;
    size_t pitch;
    if (t->res.resType == CU_RESOURCE_TYPE_ARRAY) {
        const sim_array_t *a = sim_array(t->res.res.array.hArray);
        if (a == NULL || a->desc.Format != CU_AD_FORMAT_FLOAT || a->desc.NumChannels != 4)
            return NULL;
        base = a->bytes;
        pitch = a->pitch;
        *w = a->desc.Width;
        *h = a->rows;
    } else if (t->res.resType == CU_RESOURCE_TYPE_PITCH2D) {
        if (t->res.res.pitch2D.format != CU_AD_FORMAT_FLOAT || t->res.res.pitch2D.numChannels != 4)
            return NULL;
        base = (const uint8_t *)t->res.res.pitch2D.devPtr;
        pitch = t->res.res.pitch2D.pitchInBytes;
        *w = t->res.res.pitch2D.width;
        *h = t->res.res.pitch2D.height;
    } else {
        return NULL;
    }
    float *out = malloc(*w * *h * 16);
    for (size_t y = 0; out != NULL && y < *h; ++y)
        memcpy(out + y * *w * 4, base + y * pitch, *w * 16);
    return out;
}

void sim_texture_sample(const sim_launch_t *l) {
    unsigned long long handle = 0;
    const float *coords = NULL;
    float *out = NULL;
    int n = 0;
    memcpy(&handle, l->args + l->arg_offset[0], sizeof handle);
    memcpy(&coords, l->args + l->arg_offset[1], sizeof coords);
    memcpy(&out, l->args + l->arg_offset[2], sizeof out);
    memcpy(&n, l->args + l->arg_offset[3], sizeof n);
    const sim_texture_t *t = texture_of(handle);
    size_t w = 0, h = 0;
    float *texels = t != NULL ? texels_of(t, &w, &h) : NULL;
    urc_ref_image_t img = {texels, w, h};
    size_t threads = (size_t)l->grid[0] * l->block[0];
    for (size_t i = 0; i < threads && (int)i < n; ++i) {
        float v[4] = {0, 0, 0, 0};
        if (texels != NULL)
            (void)urc_ref_sample(&img, (t->tex.flags & CU_TRSF_NORMALIZED_COORDINATES) != 0,
                                 ur_mode(t->tex.addressMode[0]),
                                 t->tex.filterMode == CU_TR_FILTER_MODE_LINEAR
                                     ? UR_SAMPLER_FILTER_MODE_LINEAR
                                     : UR_SAMPLER_FILTER_MODE_NEAREST,
                                 coords[2 * i], coords[2 * i + 1], v);
        memcpy(out + 4 * i, v, sizeof v);
    }
    free(texels);
}

// ---- bindless.cu
// ---------------------------------------------------------------------------------

// The byte of an 8-bit single-channel array at element (x, y, z), clamped to the edges.
static uint8_t texel8(const sim_array_t *a, long x, long y, long z) {
    long w = (long)a->desc.Width, h = (long)a->rows, d = a->desc.Depth ? (long)a->desc.Depth : 1;
    x = x < 0 ? 0 : x >= w ? w - 1 : x;
    y = y < 0 ? 0 : y >= h ? h - 1 : y;
    z = z < 0 ? 0 : z >= d ? d - 1 : z;
    return a->bytes[(size_t)z * a->pitch * a->rows + (size_t)y * a->pitch + (size_t)x];
}

// mip_sample: an R8 mipmap read with point filtering at the level nearest the clamped LOD.
void sim_mip_sample(const sim_launch_t *l) {
    unsigned long long handle = 0;
    float u = 0, v = 0;
    const float *lods = NULL;
    float *out = NULL;
    int n = 0;
    memcpy(&handle, l->args + l->arg_offset[0], sizeof handle);
    memcpy(&u, l->args + l->arg_offset[1], sizeof u);
    memcpy(&v, l->args + l->arg_offset[2], sizeof v);
    memcpy(&lods, l->args + l->arg_offset[3], sizeof lods);
    memcpy(&out, l->args + l->arg_offset[4], sizeof out);
    memcpy(&n, l->args + l->arg_offset[5], sizeof n);
    const sim_texture_t *t = texture_of(handle);
    const sim_mipmap_t *m = t != NULL && t->res.resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY
                                ? mipmap_of(t->res.res.mipmap.hMipmappedArray)
                                : NULL;
    for (int i = 0; i < n && (size_t)i < (size_t)l->grid[0] * l->block[0]; ++i) {
        out[i] = 0;
        if (m == NULL)
            continue;
        float lod = lods[i];
        lod = lod < t->tex.minMipmapLevelClamp ? t->tex.minMipmapLevelClamp : lod;
        lod = lod > t->tex.maxMipmapLevelClamp ? t->tex.maxMipmapLevelClamp : lod;
        long level = (long)(lod + 0.5f);
        level = level < 0 ? 0 : level >= (long)m->levels ? (long)m->levels - 1 : level;
        const sim_array_t *a = sim_array(m->level[level]);
        uint8_t b = texel8(a, (long)(u * (float)a->desc.Width), (long)(v * (float)a->rows), 0);
        out[i] = (t->tex.flags & CU_TRSF_READ_AS_INTEGER) ? (float)b : (float)b / 255.0f;
    }
}

// fetch3d_uint: a 3D array of unsigned bytes read at element centres. Without READ_AS_INTEGER
// the texture returns normalised floats, whose bits then land in the integers, as on a GPU.
void sim_fetch3d_uint(const sim_launch_t *l) {
    unsigned long long handle = 0;
    int w = 0, h = 0, d = 0;
    unsigned *out = NULL;
    memcpy(&handle, l->args + l->arg_offset[0], sizeof handle);
    memcpy(&w, l->args + l->arg_offset[1], sizeof w);
    memcpy(&h, l->args + l->arg_offset[2], sizeof h);
    memcpy(&d, l->args + l->arg_offset[3], sizeof d);
    memcpy(&out, l->args + l->arg_offset[4], sizeof out);
    const sim_texture_t *t = texture_of(handle);
    const sim_array_t *a = t != NULL && t->res.resType == CU_RESOURCE_TYPE_ARRAY
                               ? sim_array(t->res.res.array.hArray)
                               : NULL;
    for (int z = 0; z < d; ++z)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w && (size_t)x < (size_t)l->grid[0] * l->block[0]; ++x) {
                unsigned v = 0;
                if (a != NULL) {
                    uint8_t b = texel8(a, x, y, z);
                    float f = (float)b / 255.0f;
                    if (t->tex.flags & CU_TRSF_READ_AS_INTEGER)
                        v = b;
                    else
                        memcpy(&v, &f, sizeof v);
                }
                out[((size_t)z * h + y) * w + x] = v;
            }
}
