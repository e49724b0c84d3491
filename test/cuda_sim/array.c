// SPDX-License-Identifier: MIT
// CUDA arrays as host storage (x fastest, then rows, then slices or layers) and surface objects
// that name them, for the adapter's images. Copies to and from arrays go through cuMemcpy3D
// (memory.c asks sim_array_layout for an array's pitches).
#include <stdlib.h>
#include <string.h>

#include "cuda_sim_internal.h"

static size_t format_bytes(CUarray_format f) {
    switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8:
        return 1;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF:
        return 2;
    case CU_AD_FORMAT_UNSIGNED_INT32:
    case CU_AD_FORMAT_SIGNED_INT32:
    case CU_AD_FORMAT_FLOAT:
        return 4;
    default:
        return 0;
    }
}

// The live arrays: a handle is looked up here before it is read, so a value that is no array
// (a device pointer, garbage) is refused as the real driver refuses it, never dereferenced.
static pthread_mutex_t arrays_lock = PTHREAD_MUTEX_INITIALIZER;
static sim_array_t **arrays;
static size_t narrays, arrays_cap;

static bool arrays_add(sim_array_t *a) {
    bool ok = true;
    pthread_mutex_lock(&arrays_lock);
    if (narrays == arrays_cap) {
        size_t cap = arrays_cap ? 2 * arrays_cap : 64;
        sim_array_t **grown = realloc(arrays, cap * sizeof *grown);
        if (grown == NULL)
            ok = false;
        else {
            arrays = grown;
            arrays_cap = cap;
        }
    }
    if (ok)
        arrays[narrays++] = a;
    pthread_mutex_unlock(&arrays_lock);
    return ok;
}

// Takes `h` out of the live arrays (remove) or asks about it; true when it is one.
static bool arrays_find(const void *h, bool remove) {
    bool found = false;
    pthread_mutex_lock(&arrays_lock);
    for (size_t i = 0; i < narrays && !found; ++i)
        if (arrays[i] == h) {
            found = true;
            if (remove)
                arrays[i] = arrays[--narrays];
        }
    if (narrays == 0) { // nothing kept while no array lives (the library may be unloaded)
        free(arrays);
        arrays = NULL;
        arrays_cap = 0;
    }
    pthread_mutex_unlock(&arrays_lock);
    return found;
}

SIM_EXPORT CUresult cuArray3DCreate_v2(CUarray *out, const CUDA_ARRAY3D_DESCRIPTOR *d) {
    sim_count_call();
    SIM_STICKY();
    if (!sim_has_context())
        return CUDA_ERROR_INVALID_CONTEXT;
    if (out == NULL || d == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    size_t es = format_bytes(d->Format) * d->NumChannels;
    if (es == 0 || (d->NumChannels != 1 && d->NumChannels != 2 && d->NumChannels != 4) ||
        d->Width == 0 || (d->Height == 0 && d->Depth != 0 && !(d->Flags & CUDA_ARRAY3D_LAYERED)))
        return CUDA_ERROR_INVALID_VALUE;
    sim_array_t *a = calloc(1, sizeof *a);
    if (a == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    a->desc = *d;
    a->element = es;
    a->pitch = es * d->Width;
    a->rows = d->Height ? d->Height : 1;
    size_t slices = d->Depth ? d->Depth : 1;
    a->bytes = calloc(a->pitch * a->rows * slices, 1);
    if (a->bytes == NULL) {
        free(a);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    a->magic = SIM_ARRAY_MAGIC;
    if (!arrays_add(a)) {
        free(a->bytes);
        free(a);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *out = (CUarray)a;
    return CUDA_SUCCESS;
}

sim_array_t *sim_array(const void *handle) {
    sim_array_t *a = (sim_array_t *)handle;
    return a != NULL && arrays_find(a, false) && a->magic == SIM_ARRAY_MAGIC ? a : NULL;
}

SIM_EXPORT CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *out, CUarray h) {
    sim_count_call();
    sim_array_t *a = sim_array(h);
    if (a == NULL)
        return CUDA_ERROR_INVALID_HANDLE;
    if (out == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    *out = a->desc;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuArrayDestroy(CUarray h) {
    sim_count_call();
    if (h == NULL || !arrays_find(h, true))
        return CUDA_ERROR_INVALID_HANDLE;
    sim_array_t *a = (sim_array_t *)h;
    a->magic = 0;
    free(a->bytes);
    free(a);
    return CUDA_SUCCESS;
}

// A surface object is the array's address: kernels find the storage through it.
SIM_EXPORT CUresult cuSurfObjectCreate(CUsurfObject *out, const CUDA_RESOURCE_DESC *d) {
    sim_count_call();
    SIM_STICKY();
    if (out == NULL || d == NULL || d->resType != CU_RESOURCE_TYPE_ARRAY ||
        sim_array(d->res.array.hArray) == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    if (!(sim_array(d->res.array.hArray)->desc.Flags & CUDA_ARRAY3D_SURFACE_LDST))
        return CUDA_ERROR_INVALID_VALUE;
    *out = (CUsurfObject)(uintptr_t)d->res.array.hArray;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuSurfObjectDestroy(CUsurfObject s) {
    sim_count_call();
    return sim_array((const void *)(uintptr_t)s) != NULL ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
