// SPDX-License-Identifier: MIT
// UR's USM pool handle over common/usm_pool (usm_pools.h).
#include "usm_pools.h"

#include <stdlib.h>

#include "alloc.h"
#include "error.h"

static size_t target_count(uint32_t ndevices) { return 1 + 2 * (size_t)ndevices; }

ur_result_t urc_usm_pool_init(urc_usm_pool_t *pool, ur_context_handle_t context,
                              void *adapter_context, uint32_t ndevices, void *const *devices,
                              const ur_usm_pool_desc_t *desc, const urc_pool_ops_t *ops,
                              const urc_usm_pool_caps_t *caps) {
    urc_pool_config_t config;
    ur_result_t res = urc_pool_config_from_desc(desc, &config);
    if (res != UR_RESULT_SUCCESS)
        return urc_error_set(res, 0, "urUSMPoolCreate: an unknown or endless descriptor chain");
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
    for (size_t i = 0; i < n; ++i) {
        urc_usm_target_t *t = &pool->targets[i];
        t->context = adapter_context;
        t->device = i == 0 ? NULL : devices[(i - 1) / 2];
        t->type = i == 0 ? UR_USM_TYPE_HOST : (i % 2 ? UR_USM_TYPE_DEVICE : UR_USM_TYPE_SHARED);
        if ((t->type == UR_USM_TYPE_HOST && !caps->host) ||
            (t->type == UR_USM_TYPE_SHARED && !caps->shared))
            continue;
        urc_pool_config_t c = config;
        c.max_align = t->type == UR_USM_TYPE_HOST ? caps->host_align : caps->device_align;
        c.out_of_memory = t->type == UR_USM_TYPE_HOST ? UR_RESULT_ERROR_OUT_OF_HOST_MEMORY
                                                      : UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
        res = urc_pool_create(ops, t, pool, &c, &pool->pools[i]);
        if (res != UR_RESULT_SUCCESS) {
            urc_usm_pool_fini(pool);
            return res == UR_RESULT_ERROR_INVALID_VALUE
                       ? urc_error_set(res, 0, "urUSMPoolCreate: pool limits out of range")
                       : res;
        }
    }
    return UR_RESULT_SUCCESS;
}

void urc_usm_pool_fini(urc_usm_pool_t *pool) {
    if (pool->pools != NULL)
        for (size_t i = 0; i < target_count(pool->ndevices); ++i)
            urc_pool_destroy(pool->pools[i]);
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
