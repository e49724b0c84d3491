// SPDX-License-Identifier: MIT
// UR's USM pool handle over common/pool/pool_allocator (usm_pools.h).
#include "pool/pool_handle.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/quarantine.h"
#include "pool/pool_in_range.h"

static size_t target_count(uint32_t ndevices) {
    return 1 + 2 * (size_t)ndevices;
}

// Zeroes a block carved out of a pool's buffer: host-visible memory directly, device memory by
// copies from a zero page through the adapter's own urUSMContextMemcpyExp.
static ur_result_t buffer_zero(void *arg, void *ptr, size_t size) {
    static const unsigned char zeros[1 << 16];
    const urc_usm_pool_t *pool = arg;
    if (pool->range_type != UR_USM_TYPE_DEVICE) {
        memset(ptr, 0, size);
        return UR_RESULT_SUCCESS;
    }
    ur_result_t res = UR_RESULT_SUCCESS;
    for (size_t at = 0; at < size && res == UR_RESULT_SUCCESS; at += sizeof zeros) {
        size_t n = size - at < sizeof zeros ? size - at : sizeof zeros;
        res = pool->obj.ddi->USMExp.pfnContextMemcpyExp(pool->context, (char *)ptr + at, zeros, n);
    }
    return res;
}

static size_t target_index(ur_usm_type_t type, uint32_t device_index) {
    return type == UR_USM_TYPE_HOST ? 0
                                    : 1 + 2 * (size_t)device_index + (type == UR_USM_TYPE_SHARED);
}

ur_result_t urc_usm_pool_init(urc_usm_pool_t *pool, ur_context_handle_t context,
                              void *adapter_context, uint32_t ndevices, void *const *devices,
                              const ur_usm_pool_desc_t *desc, const urc_pool_ops_t *ops,
                              const urc_usm_pool_caps_t *caps,
                              const urc_usm_pool_buffer_t *buffer) {
    urc_pool_config_t config;
    const ur_usm_pool_buffer_desc_t *in_desc = NULL;
    ur_result_t res = urc_pool_config_from_desc(desc, &config, &in_desc);
    if (res != UR_RESULT_SUCCESS)
        return urc_error_set(res, 0,
                             "urUSMPoolCreate: an unknown or endless descriptor chain, "
                             "or two buffers");
    (void)in_desc; // checked by the caller, which gives `buffer`
    pool->context = context;
    pool->ndevices = ndevices;
    pool->flags = desc != NULL ? desc->flags : 0;
    size_t n = target_count(ndevices);
    pool->targets = urc_calloc(n, sizeof *pool->targets);
    pool->pools = urc_calloc(n, sizeof *pool->pools);
    if (pool->targets == NULL || pool->pools == NULL) {
        urc_usm_pool_fini(pool);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    size_t only = buffer != NULL ? target_index(buffer->type, buffer->device_index) : SIZE_MAX;
    if (buffer != NULL) {
        pool->range_type = buffer->type;
        res = urc_pool_range_create(buffer->base, buffer->size,
                                    buffer->type == UR_USM_TYPE_HOST
                                        ? UR_RESULT_ERROR_OUT_OF_HOST_MEMORY
                                        : UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY,
                                    buffer_zero, pool, &pool->range);
        if (res != UR_RESULT_SUCCESS) {
            urc_usm_pool_fini(pool);
            return res;
        }
    }
    for (size_t i = 0; i < n; ++i) {
        urc_usm_target_t *t = &pool->targets[i];
        t->context = adapter_context;
        t->device = i == 0 ? NULL : devices[(i - 1) / 2];
        t->type = i == 0 ? UR_USM_TYPE_HOST : (i % 2 ? UR_USM_TYPE_DEVICE : UR_USM_TYPE_SHARED);
        if ((t->type == UR_USM_TYPE_HOST && !caps->host) ||
            (t->type == UR_USM_TYPE_SHARED && !caps->shared) || (buffer != NULL && i != only))
            continue;
        urc_pool_config_t c = config;
        c.max_align = t->type == UR_USM_TYPE_HOST ? caps->host_align : caps->device_align;
        c.out_of_memory = t->type == UR_USM_TYPE_HOST ? UR_RESULT_ERROR_OUT_OF_HOST_MEMORY
                                                      : UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
        const urc_pool_ops_t *o = ops;
        void *native = t;
        if (buffer != NULL) {
            // The buffer is all the pool may hold; small slabs, so one class does not take it.
            c.max_size = buffer->size;
            if (c.min_driver_alloc == 0)
                c.min_driver_alloc = URC_POOL_BUFFER_MIN_SLAB;
            o = &urc_pool_range_ops;
            native = pool->range;
        }
        res = urc_pool_create(o, native, pool, &c, &pool->pools[i]);
        if (res != UR_RESULT_SUCCESS) {
            urc_usm_pool_fini(pool);
            return res == UR_RESULT_ERROR_INVALID_VALUE
                       ? urc_error_set(res, 0, "urUSMPoolCreate: pool limits out of range")
                       : res;
        }
    }
    return UR_RESULT_SUCCESS;
}

static void forget_current(const urc_usm_pool_t *pool);

void urc_usm_pool_fini(urc_usm_pool_t *pool) {
    forget_current(pool);
    if (pool->pools != NULL)
        for (size_t i = 0; i < target_count(pool->ndevices); ++i)
            urc_pool_destroy(pool->pools[i]);
    urc_pool_range_destroy(pool->range); // the caller's memory stays the caller's
    pool->range = NULL;
    URC_FREE(pool->pools);
    URC_FREE(pool->targets);
}

ur_result_t urc_usm_pool_alloc(urc_usm_pool_t *pool, ur_usm_type_t type, uint32_t device_index,
                               size_t size, size_t align, void **out) {
    size_t i = 0;
    if (type != UR_USM_TYPE_HOST) {
        if (device_index >= pool->ndevices)
            return UR_RESULT_ERROR_INVALID_DEVICE;
        i = 1 + 2 * (size_t)device_index + (type == UR_USM_TYPE_SHARED);
        if (pool->only_device != NULL && pool->targets[i].device != pool->only_device)
            return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0,
                                 "the USM pool was created for another device");
    }
    if (pool->pools[i] == NULL && pool->range != NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "the USM pool serves only the %s memory of its buffer",
                             pool->range_type == UR_USM_TYPE_HOST     ? "host"
                             : pool->range_type == UR_USM_TYPE_DEVICE ? "device"
                                                                      : "shared");
    if (pool->pools[i] == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the device has no %s USM memory to pool",
                             type == UR_USM_TYPE_HOST ? "host" : "shared");
    return urc_pool_alloc(pool->pools[i], size, align, out);
}

static void pool_stats(const urc_usm_pool_t *pool, urc_pool_stats_t *sum) {
    *sum = (urc_pool_stats_t){0};
    for (size_t i = 0; i < target_count(pool->ndevices); ++i) {
        if (pool->pools[i] == NULL)
            continue;
        urc_pool_stats_t s;
        urc_pool_stats(pool->pools[i], &s);
        sum->used += s.used;
        sum->used_high += s.used_high;
        sum->reserved += s.reserved;
        sum->reserved_high += s.reserved_high;
    }
}

static urc_pool_t *any_pool(const urc_usm_pool_t *pool) {
    for (size_t i = 0; i < target_count(pool->ndevices); ++i)
        if (pool->pools[i] != NULL)
            return pool->pools[i];
    return NULL;
}

ur_result_t urc_usm_pool_info(urc_usm_pool_t *pool, ur_usm_pool_info_t propName,
                              const urc_info_t *out) {
    urc_pool_stats_t s;
    pool_stats(pool, &s);
    urc_pool_t *first = any_pool(pool);
    switch (propName) {
    case UR_USM_POOL_INFO_REFERENCE_COUNT:
        return urc_info_u32(out, urc_refcount(&pool->obj));
    case UR_USM_POOL_INFO_CONTEXT:
        return urc_info_ptr(out, pool->context);
    case UR_USM_POOL_INFO_RELEASE_THRESHOLD_EXP:
        return urc_info_size(out, first != NULL ? urc_pool_release_threshold(first) : SIZE_MAX);
    case UR_USM_POOL_INFO_MAXIMUM_SIZE_EXP:
        return urc_info_size(out, first != NULL ? urc_pool_config(first)->max_size : 0);
    case UR_USM_POOL_INFO_RESERVED_CURRENT_EXP:
        return urc_info_size(out, s.reserved);
    case UR_USM_POOL_INFO_RESERVED_HIGH_EXP:
        return urc_info_size(out, s.reserved_high);
    case UR_USM_POOL_INFO_USED_CURRENT_EXP:
        return urc_info_size(out, s.used);
    case UR_USM_POOL_INFO_USED_HIGH_EXP:
        return urc_info_size(out, s.used_high);
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

ur_result_t urc_usm_pool_set_info(urc_usm_pool_t *pool, ur_usm_pool_info_t propName,
                                  const void *value, size_t size) {
    bool used = propName == UR_USM_POOL_INFO_USED_HIGH_EXP;
    bool reserved = propName == UR_USM_POOL_INFO_RESERVED_HIGH_EXP;
    if (propName != UR_USM_POOL_INFO_RELEASE_THRESHOLD_EXP && !used && !reserved)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION, 0,
                             "urUSMPoolSetInfoExp: pool property %#x cannot be set",
                             (unsigned)propName);
    if (size != sizeof(size_t))
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "urUSMPoolSetInfoExp: the value is a size_t, not %zu bytes", size);
    size_t v;
    memcpy(&v, value, sizeof v);
    if ((used || reserved) && v != 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "urUSMPoolSetInfoExp: a high-water mark can only be reset to 0");
    for (size_t i = 0; i < target_count(pool->ndevices); ++i) {
        if (pool->pools[i] == NULL)
            continue;
        if (used || reserved)
            urc_pool_reset_high(pool->pools[i], used, reserved);
        else
            urc_pool_set_release_threshold(pool->pools[i], v);
    }
    return UR_RESULT_SUCCESS;
}

void urc_usm_pool_trim(urc_usm_pool_t *pool, size_t keep) {
    // Trim each sub-pool to what the others leave of `keep`.
    urc_pool_stats_t total;
    pool_stats(pool, &total);
    for (size_t i = 0; i < target_count(pool->ndevices) && total.reserved > keep; ++i) {
        if (pool->pools[i] == NULL)
            continue;
        urc_pool_stats_t s;
        urc_pool_stats(pool->pools[i], &s);
        size_t others = total.reserved - s.reserved;
        urc_pool_trim(pool->pools[i], keep > others ? keep - others : 0);
        urc_pool_stats_t after;
        urc_pool_stats(pool->pools[i], &after);
        total.reserved = others + after.reserved;
    }
}

urc_usm_pool_t *urc_usm_pool_of(const void *ptr, urc_pool_t **sub, void **base, size_t *size) {
    urc_pool_t *p = urc_pool_find(ptr, base, size);
    if (sub != NULL)
        *sub = p;
    return p != NULL ? urc_pool_owner(p) : NULL;
}

ur_result_t urc_usm_free_pooled(ur_context_handle_t context, void *ptr, bool *pooled) {
    urc_pool_t *sub = NULL;
    urc_usm_pool_t *pool = urc_usm_pool_of(ptr, &sub, NULL, NULL);
    *pooled = pool != NULL;
    if (pool == NULL)
        return UR_RESULT_SUCCESS;
    if (pool->context != context)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "%p belongs to a USM pool of another context", ptr);
    return urc_pool_free(sub, ptr);
}

ur_result_t urc_usm_alloc_info_pooled(ur_context_handle_t context, const void *ptr,
                                      ur_usm_alloc_info_t propName, const urc_info_t *out,
                                      bool *answered) {
    void *base = NULL;
    size_t size = 0;
    urc_usm_pool_t *pool = urc_usm_pool_of(ptr, NULL, &base, &size);
    *answered = pool != NULL && pool->context == context &&
                (propName == UR_USM_ALLOC_INFO_BASE_PTR || propName == UR_USM_ALLOC_INFO_SIZE ||
                 propName == UR_USM_ALLOC_INFO_POOL);
    if (!*answered)
        return UR_RESULT_SUCCESS;
    switch (propName) {
    case UR_USM_ALLOC_INFO_BASE_PTR:
        return urc_info_ptr(out, base);
    case UR_USM_ALLOC_INFO_SIZE:
        return urc_info_size(out, size);
    default:
        return urc_info_ptr(out, pool);
    }
}

// ---- entry points ------------------------------------------------------------------------

#define POOL(h) ((urc_usm_pool_t *)(h))

static bool is_pool(const urc_usm_pool_adapter_t *a, const void *h) {
    return urc_is_kind(h, URC_KIND_USM_POOL) && ((const urc_object_t *)h)->ddi == a->ddi;
}

static ur_result_t bad_pool(void) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_NULL_HANDLE, 0, "not a USM pool of this adapter");
}

static ur_result_t device_index(void *const *devices, uint32_t n, ur_device_handle_t device,
                                uint32_t *index) {
    for (uint32_t i = 0; i < n; ++i)
        if (devices[i] == (void *)device) {
            *index = i;
            return UR_RESULT_SUCCESS;
        }
    return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0, "the device is not in the context");
}

static void pool_destroy(const urc_usm_pool_adapter_t *a, urc_usm_pool_t *pool) {
    urc_usm_pool_fini(pool);
    if (!pool->context_owned)
        a->release_context(pool->context);
    URC_OBJECT_FREE(pool);
}

static ur_result_t bad_buffer(const char *why) {
    return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0, "urUSMPoolCreate: the pool buffer %s",
                         why);
}

// A ur_usm_pool_buffer_desc_t against what the adapter's own urUSMGetMemAllocInfo says of its
// memory: USM of the context, of the type named, large enough, on the device named (the pool's
// device for urUSMPoolCreateExp).
static ur_result_t check_buffer(const urc_usm_pool_adapter_t *a, ur_context_handle_t context,
                                uint32_t n, void *const *devices, ur_device_handle_t only_device,
                                const ur_usm_pool_buffer_desc_t *b, urc_usm_pool_buffer_t *out) {
    if (b->pMem == NULL || b->size == 0)
        return bad_buffer("is NULL or of 0 bytes");
    if (b->memType != UR_USM_TYPE_HOST && b->memType != UR_USM_TYPE_DEVICE &&
        b->memType != UR_USM_TYPE_SHARED)
        return bad_buffer("has no host, device or shared memory type");
    ur_result_t (*info)(ur_context_handle_t, const void *, ur_usm_alloc_info_t, size_t, void *,
                        size_t *) = a->ddi->USM.pfnGetMemAllocInfo;
    ur_usm_type_t type = UR_USM_TYPE_UNKNOWN;
    void *base = NULL;
    size_t size = 0;
    if (info(context, b->pMem, UR_USM_ALLOC_INFO_TYPE, sizeof type, &type, NULL) !=
            UR_RESULT_SUCCESS ||
        type == UR_USM_TYPE_UNKNOWN)
        return bad_buffer("is not USM memory of the context");
    if (type != b->memType)
        return bad_buffer("is USM memory of another type than memType");
    if (info(context, b->pMem, UR_USM_ALLOC_INFO_BASE_PTR, sizeof base, &base, NULL) !=
            UR_RESULT_SUCCESS ||
        info(context, b->pMem, UR_USM_ALLOC_INFO_SIZE, sizeof size, &size, NULL) !=
            UR_RESULT_SUCCESS)
        return bad_buffer("has an extent the driver does not tell");
    uintptr_t offset = (uintptr_t)b->pMem - (uintptr_t)base;
    if ((uintptr_t)b->pMem < (uintptr_t)base || offset > size || b->size > size - offset)
        return bad_buffer("reaches past the end of its allocation");
    uint32_t index = 0;
    if (b->device != NULL && device_index(devices, n, b->device, &index) != UR_RESULT_SUCCESS)
        return bad_buffer("names a device outside the context");
    if (b->memType != UR_USM_TYPE_HOST) {
        ur_device_handle_t dev = NULL;
        if (info(context, b->pMem, UR_USM_ALLOC_INFO_DEVICE, sizeof dev, &dev, NULL) !=
            UR_RESULT_SUCCESS)
            dev = NULL;
        if (b->device != NULL && dev != NULL && dev != b->device)
            return bad_buffer("is memory of another device than the one named");
        ur_device_handle_t chosen = b->device != NULL ? b->device : dev;
        if (chosen != NULL && device_index(devices, n, chosen, &index) != UR_RESULT_SUCCESS)
            return bad_buffer("is memory of a device outside the context");
        if (only_device != NULL && chosen != NULL && chosen != only_device)
            return bad_buffer("is memory of another device than the pool's");
        if (only_device != NULL && chosen == NULL)
            (void)device_index(devices, n, only_device, &index);
    }
    *out = (urc_usm_pool_buffer_t){b->pMem, b->size, b->memType, index};
    return UR_RESULT_SUCCESS;
}

static ur_result_t make_pool(const urc_usm_pool_adapter_t *a, ur_context_handle_t context,
                             ur_device_handle_t only_device, const ur_usm_pool_desc_t *desc,
                             bool context_owned, urc_usm_pool_t **out) {
    uint32_t n = 0, index = 0;
    void *const *devices = NULL;
    ur_result_t res = a->context_devices(context, &n, &devices);
    if (res == UR_RESULT_SUCCESS && only_device != NULL)
        res = device_index(devices, n, only_device, &index);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // A pool in the caller's memory is checked before anything is made.
    urc_pool_config_t unused;
    const ur_usm_pool_buffer_desc_t *in_desc = NULL;
    urc_usm_pool_buffer_t buffer;
    if (urc_pool_config_from_desc(desc, &unused, &in_desc) == UR_RESULT_SUCCESS &&
        in_desc != NULL &&
        (res = check_buffer(a, context, n, devices, only_device, in_desc, &buffer)) !=
            UR_RESULT_SUCCESS)
        return res;
    urc_usm_pool_t *pool = URC_NEW(urc_usm_pool_t);
    if (pool == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    urc_object_init(&pool->obj, a->ddi, URC_KIND_USM_POOL);
    pool->only_device = only_device;
    pool->context_owned = context_owned;
    res = urc_usm_pool_init(pool, context, context, n, devices, desc, &a->ops, &a->caps,
                            in_desc != NULL ? &buffer : NULL);
    if (res != UR_RESULT_SUCCESS) {
        free(pool);
        return res;
    }
    if (!context_owned)
        a->retain_context(context);
    *out = pool;
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_usm_pool_create(const urc_usm_pool_adapter_t *a, ur_context_handle_t context,
                                ur_device_handle_t only_device, const ur_usm_pool_desc_t *desc,
                                ur_usm_pool_handle_t *out) {
    urc_usm_pool_t *pool = NULL;
    ur_result_t res = make_pool(a, context, only_device, desc, false, &pool);
    if (res == UR_RESULT_SUCCESS)
        *out = (ur_usm_pool_handle_t)pool;
    return res;
}

ur_result_t urc_usm_pool_retain(const urc_usm_pool_adapter_t *a, ur_usm_pool_handle_t pool) {
    if (!is_pool(a, pool))
        return bad_pool();
    urc_user_retain(&POOL(pool)->obj);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_usm_pool_release(const urc_usm_pool_adapter_t *a, ur_usm_pool_handle_t pool) {
    if (!is_pool(a, pool))
        return bad_pool();
    // A context's default pool is the context's to destroy.
    if (POOL(pool)->context_owned)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "the context's default USM pool cannot be released");
    switch (urc_user_release(&POOL(pool)->obj)) {
    case URC_RELEASE_REFUSED:
        return urc_error_released(UR_RESULT_ERROR_INVALID_NULL_HANDLE, "urUSMPoolRelease");
    case URC_RELEASE_DESTROY:
        pool_destroy(a, POOL(pool));
        return UR_RESULT_SUCCESS;
    default:
        return UR_RESULT_SUCCESS;
    }
}

void urc_usm_pool_drop(const urc_usm_pool_adapter_t *a, urc_usm_pool_t *pool) {
    if (urc_unhold(&pool->obj))
        pool_destroy(a, pool);
}

ur_result_t urc_usm_pool_get_info(const urc_usm_pool_adapter_t *a, ur_usm_pool_handle_t pool,
                                  ur_usm_pool_info_t propName, const urc_info_t *out) {
    if (!is_pool(a, pool))
        return bad_pool();
    return urc_usm_pool_info(POOL(pool), propName, out);
}

ur_result_t urc_usm_pool_set_info_exp(const urc_usm_pool_adapter_t *a, ur_usm_pool_handle_t pool,
                                      ur_usm_pool_info_t propName, const void *value, size_t size) {
    if (!is_pool(a, pool))
        return bad_pool();
    return urc_usm_pool_set_info(POOL(pool), propName, value, size);
}

// The Exp calls name a context and device besides the pool: both must be the pool's.
static ur_result_t check_exp(const urc_usm_pool_adapter_t *a, ur_context_handle_t context,
                             ur_device_handle_t device, ur_usm_pool_handle_t pool,
                             uint32_t *index) {
    uint32_t n = 0;
    void *const *devices = NULL;
    ur_result_t res = a->context_devices(context, &n, &devices);
    if (res == UR_RESULT_SUCCESS)
        res = device_index(devices, n, device, index);
    if (res != UR_RESULT_SUCCESS || pool == NULL)
        return res;
    if (!is_pool(a, pool))
        return bad_pool();
    if (POOL(pool)->context != context)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "the USM pool belongs to another context");
    if (POOL(pool)->only_device != NULL && POOL(pool)->only_device != (void *)device)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "the USM pool was created for another device");
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_usm_pool_destroy_exp(const urc_usm_pool_adapter_t *a, ur_context_handle_t context,
                                     ur_device_handle_t device, ur_usm_pool_handle_t pool) {
    uint32_t index = 0;
    ur_result_t res = check_exp(a, context, device, pool, &index);
    return res != UR_RESULT_SUCCESS ? res : urc_usm_pool_release(a, pool);
}

ur_result_t urc_usm_pool_trim_to_exp(const urc_usm_pool_adapter_t *a, ur_context_handle_t context,
                                     ur_device_handle_t device, ur_usm_pool_handle_t pool,
                                     size_t keep) {
    uint32_t index = 0;
    ur_result_t res = check_exp(a, context, device, pool, &index);
    if (res == UR_RESULT_SUCCESS)
        urc_usm_pool_trim(POOL(pool), keep);
    return res;
}

ur_result_t urc_usm_pool_alloc_in(const urc_usm_pool_adapter_t *a, ur_context_handle_t context,
                                  ur_device_handle_t device, ur_usm_type_t type,
                                  ur_usm_pool_handle_t pool, size_t size, size_t align,
                                  void **out) {
    if (!is_pool(a, pool))
        return bad_pool();
    if (POOL(pool)->context != context)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "the USM pool belongs to another context");
    uint32_t index = 0;
    if (device != NULL) {
        uint32_t n = 0;
        void *const *devices = NULL;
        ur_result_t res = a->context_devices(context, &n, &devices);
        if (res == UR_RESULT_SUCCESS)
            res = device_index(devices, n, device, &index);
        if (res != UR_RESULT_SUCCESS)
            return res;
    } else if (type == UR_USM_TYPE_SHARED) {
        // Shared memory for no device in particular: the pool's device, or the first.
        index = 0;
        for (uint32_t i = 0; POOL(pool)->only_device != NULL && i < POOL(pool)->ndevices; ++i)
            if (POOL(pool)->targets[1 + 2 * i].device == POOL(pool)->only_device)
                index = i;
    }
    return urc_usm_pool_alloc(POOL(pool), type, index, size, align, out);
}

ur_result_t urc_usm_pitch(size_t width, size_t height, size_t element, size_t align, size_t *pitch,
                          size_t *bytes) {
    if ((element != 1 && element != 2 && element != 4 && element != 8 && element != 16) ||
        element > width)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "urUSMPitchedAllocExp: element size %zu (1, 2, 4, 8 or 16, at most "
                             "the row's %zu bytes)",
                             element, width);
    size_t p = (width + align - 1) & ~(align - 1);
    if (height == 0 || p < width || height > SIZE_MAX / p)
        return urc_error_set(UR_RESULT_ERROR_INVALID_USM_SIZE, 0,
                             "urUSMPitchedAllocExp: %zu rows of %zu bytes", height, width);
    *pitch = p;
    *bytes = p * height;
    return UR_RESULT_SUCCESS;
}

// ---- a context's default and current pools ---------------------------------------------------

// Few contexts use the Exp pool entry points, and those calls are rare: one list under one
// lock, outside every allocation path.
typedef struct context_pools_t {
    ur_context_handle_t context;
    const urc_usm_pool_adapter_t *adapter;
    urc_usm_pool_t *default_pool;
    urc_usm_pool_t **current;
    uint32_t ndevices;
    struct context_pools_t *next;
} context_pools_t;

static pthread_mutex_t context_pools_lock = PTHREAD_MUTEX_INITIALIZER;
static context_pools_t *context_pools;

// Called with context_pools_lock held.
static context_pools_t *context_entry(const urc_usm_pool_adapter_t *a, ur_context_handle_t context,
                                      uint32_t ndevices) {
    for (context_pools_t *e = context_pools; e != NULL; e = e->next)
        if (e->context == context)
            return e;
    context_pools_t *e = URC_NEW(context_pools_t);
    if (e == NULL)
        return NULL;
    e->current = urc_calloc(ndevices, sizeof *e->current);
    if (e->current == NULL) {
        free(e);
        return NULL;
    }
    e->context = context;
    e->adapter = a;
    e->ndevices = ndevices;
    e->next = context_pools;
    context_pools = e;
    return e;
}

// Called with context_pools_lock held.
static ur_result_t default_locked(context_pools_t *e, urc_usm_pool_t **out) {
    if (e->default_pool == NULL) {
        ur_result_t res = make_pool(e->adapter, e->context, NULL, NULL, true, &e->default_pool);
        if (res != UR_RESULT_SUCCESS)
            return res;
    }
    *out = e->default_pool;
    return UR_RESULT_SUCCESS;
}

static ur_result_t context_pools_do(const urc_usm_pool_adapter_t *a, ur_context_handle_t context,
                                    ur_device_handle_t device, ur_usm_pool_handle_t set,
                                    bool use_current, ur_usm_pool_handle_t *out) {
    uint32_t index = 0, n = 0;
    void *const *devices = NULL;
    ur_result_t res = check_exp(a, context, device, set, &index);
    if (res == UR_RESULT_SUCCESS)
        res = a->context_devices(context, &n, &devices);
    if (res != UR_RESULT_SUCCESS)
        return res;
    pthread_mutex_lock(&context_pools_lock);
    context_pools_t *e = context_entry(a, context, n);
    if (e == NULL) {
        res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    } else if (set != NULL) {
        e->current[index] = POOL(set);
    } else if (use_current && e->current[index] != NULL) {
        *out = (ur_usm_pool_handle_t)e->current[index];
    } else {
        urc_usm_pool_t *pool = NULL;
        res = default_locked(e, &pool);
        if (res == UR_RESULT_SUCCESS)
            *out = (ur_usm_pool_handle_t)pool;
    }
    pthread_mutex_unlock(&context_pools_lock);
    return res;
}

ur_result_t urc_usm_pool_default_exp(const urc_usm_pool_adapter_t *a, ur_context_handle_t context,
                                     ur_device_handle_t device, ur_usm_pool_handle_t *out) {
    return context_pools_do(a, context, device, NULL, false, out);
}

ur_result_t urc_usm_pool_get_device_pool_exp(const urc_usm_pool_adapter_t *a,
                                             ur_context_handle_t context, ur_device_handle_t device,
                                             ur_usm_pool_handle_t *out) {
    return context_pools_do(a, context, device, NULL, true, out);
}

ur_result_t urc_usm_pool_set_device_pool_exp(const urc_usm_pool_adapter_t *a,
                                             ur_context_handle_t context, ur_device_handle_t device,
                                             ur_usm_pool_handle_t pool) {
    return context_pools_do(a, context, device, pool, false, NULL);
}

void urc_usm_pool_context_destroyed(ur_context_handle_t context) {
    pthread_mutex_lock(&context_pools_lock);
    context_pools_t *found = NULL;
    for (context_pools_t **p = &context_pools; *p != NULL; p = &(*p)->next) {
        if ((*p)->context == context) {
            found = *p;
            *p = found->next;
            break;
        }
    }
    pthread_mutex_unlock(&context_pools_lock);
    if (found == NULL)
        return;
    if (found->default_pool != NULL)
        pool_destroy(found->adapter, found->default_pool);
    free(found->current);
    free(found);
}

// A pool being destroyed is no device's current pool any more.
static void forget_current(const urc_usm_pool_t *pool) {
    pthread_mutex_lock(&context_pools_lock);
    for (context_pools_t *e = context_pools; e != NULL; e = e->next)
        for (uint32_t i = 0; e->context == pool->context && i < e->ndevices; ++i)
            if (e->current[i] == pool)
                e->current[i] = NULL;
    pthread_mutex_unlock(&context_pools_lock);
}
