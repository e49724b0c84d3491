// SPDX-License-Identifier: MIT
// urDeviceGetSelected: the devices of one platform that ONEAPI_DEVICE_SELECTOR keeps, built
// from the public calls urPlatformGetInfo, urPlatformGet, urDeviceGet, urDeviceGetInfo and
// urDevicePartition, as in UR's loader.
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "env/env.h"
#include "loader.h"
#include "env/selector.h"
#include "ur_checks.h"

// A device the selector may pick, with its position: root index (counted across the
// platforms of its adapter), sub index, sub-sub index.
typedef struct candidate_t {
    ur_device_handle_t device;
    ur_device_type_t type; // its root device's type
    urc_ods_level_t level;
    uint32_t root, sub, subsub;
    bool gone; // discarded or already picked
} candidate_t;

typedef struct pool_t {
    candidate_t *items;
    size_t count, capacity;
    size_t *picked; // indices into items, in selection order
    size_t picked_count;
} pool_t;

static bool add(pool_t *pool, candidate_t c) {
    if (pool->count == pool->capacity) {
        size_t cap = pool->capacity ? pool->capacity * 2 : 16;
        candidate_t *items = realloc(pool->items, cap * sizeof *items);
        if (items == NULL)
            return false;
        pool->items = items;
        pool->capacity = cap;
    }
    pool->items[pool->count++] = c;
    return true;
}

// The root devices of a platform (each handed to us with a reference).
static ur_result_t root_devices(ur_platform_handle_t platform, ur_device_handle_t **out,
                                uint32_t *count) {
    *out = NULL;
    *count = 0;
    if (urDeviceGet(platform, UR_DEVICE_TYPE_ALL, 0, NULL, count) != UR_RESULT_SUCCESS)
        return UR_RESULT_ERROR_DEVICE_NOT_FOUND;
    if (*count == 0)
        return UR_RESULT_SUCCESS;
    *out = urc_calloc(*count, sizeof **out);
    if (*out == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (urDeviceGet(platform, UR_DEVICE_TYPE_ALL, *count, *out, NULL) != UR_RESULT_SUCCESS) {
        URC_FREE(*out);
        return UR_RESULT_ERROR_DEVICE_NOT_FOUND;
    }
    return UR_RESULT_SUCCESS;
}

// Root index 0 is the first device of the adapter's first platform, so the devices of the
// platforms before this one are counted first.
static ur_result_t first_root_index(ur_platform_handle_t platform, uint32_t *start) {
    *start = 0;
    ur_adapter_handle_t adapter = NULL;
    uint32_t count = 0;
    if (urPlatformGetInfo(platform, UR_PLATFORM_INFO_ADAPTER, sizeof adapter, &adapter, NULL) !=
            UR_RESULT_SUCCESS ||
        urPlatformGet(adapter, 0, NULL, &count) != UR_RESULT_SUCCESS)
        return UR_RESULT_ERROR_INVALID_PLATFORM;
    ur_platform_handle_t *platforms = urc_calloc(count, sizeof *platforms);
    if (platforms == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ur_result_t result = UR_RESULT_SUCCESS;
    if (count > 0 && urPlatformGet(adapter, count, platforms, NULL) != UR_RESULT_SUCCESS)
        result = UR_RESULT_ERROR_INVALID_PLATFORM;
    for (uint32_t i = 0; result == UR_RESULT_SUCCESS && i < count && platforms[i] != platform;
         ++i) {
        uint32_t n = 0;
        if (urDeviceGet(platforms[i], UR_DEVICE_TYPE_ALL, 0, NULL, &n) != UR_RESULT_SUCCESS)
            result = UR_RESULT_ERROR_INVALID_PLATFORM;
        *start += n;
    }
    free(platforms);
    return result;
}

// Adds the sub-devices of `parent` (one level down); partition failures mean "none", as in UR.
// `parent` is a copy: adding may move the pool's items.
static bool add_parts(pool_t *pool, candidate_t parent) {
    ur_device_partition_property_t prop = {.type = UR_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                           .value.affinity_domain =
                                               UR_DEVICE_AFFINITY_DOMAIN_FLAG_NEXT_PARTITIONABLE};
    ur_device_partition_properties_t props = {.stype =
                                                  UR_STRUCTURE_TYPE_DEVICE_PARTITION_PROPERTIES,
                                              .pProperties = &prop,
                                              .PropCount = 1};
    uint32_t count = 0;
    if (urDevicePartition(parent.device, &props, 0, NULL, &count) != UR_RESULT_SUCCESS ||
        count == 0)
        return true;
    ur_device_handle_t *parts = urc_calloc(count, sizeof *parts);
    if (parts == NULL)
        return false;
    bool ok = true;
    if (urDevicePartition(parent.device, &props, count, parts, NULL) == UR_RESULT_SUCCESS) {
        for (uint32_t i = 0; i < count; ++i) {
            candidate_t c = parent;
            c.device = parts[i];
            c.level = (urc_ods_level_t)(parent.level + 1);
            *(c.level == URC_ODS_SUB ? &c.sub : &c.subsub) = i;
            c.gone = false;
            if (ok && !add(pool, c))
                ok = false;
            if (!ok)
                urDeviceRelease(parts[i]);
        }
    }
    free(parts);
    return ok;
}

// Applies one filter: discards mark matches gone; accepts also record them as picked.
static size_t apply(pool_t *pool, const urc_ods_filter_t *f, bool discard) {
    size_t hits = 0;
    for (size_t i = 0; i < pool->count; ++i) {
        candidate_t *c = &pool->items[i];
        if (c->gone || c->level != f->level ||
            !urc_ods_filter_matches(f, c->type, c->root, c->sub, c->subsub))
            continue;
        c->gone = true;
        if (!discard)
            pool->picked[pool->picked_count++] = i;
        ++hits;
    }
    return hits;
}

typedef struct needs_t {
    bool any_accept; // an accept term anywhere in the selector (else "*:*" is implied)
    bool root_index; // an applicable filter uses a numeric root
    urc_ods_level_t deepest;
} needs_t;

static needs_t needs_of(const urc_ods_t *ods, ur_backend_t backend) {
    needs_t n = {.deepest = URC_ODS_ROOT};
    for (size_t t = 0; t < ods->count; ++t) {
        const urc_ods_term_t *term = &ods->terms[t];
        n.any_accept |= !term->discard;
        if (!urc_ods_term_applies(term, backend))
            continue;
        for (size_t i = 0; i < term->count; ++i) {
            n.root_index |= term->filters[i].root != URC_ODS_ANY;
            if (term->filters[i].level > n.deepest)
                n.deepest = term->filters[i].level;
        }
    }
    return n;
}

// Fills the pool with the platform's root devices of the wanted type and, when a filter
// asks for them, their sub- and sub-sub-devices.
static ur_result_t gather(ur_platform_handle_t platform, ur_device_type_t wanted, needs_t needs,
                          pool_t *pool) {
    uint32_t start = 0, count = 0;
    ur_result_t result = needs.root_index ? first_root_index(platform, &start) : UR_RESULT_SUCCESS;
    ur_device_handle_t *roots = NULL;
    if (result == UR_RESULT_SUCCESS)
        result = root_devices(platform, &roots, &count);
    for (uint32_t i = 0; i < count; ++i) {
        ur_device_type_t type = UR_DEVICE_TYPE_DEFAULT;
        if (urDeviceGetInfo(roots[i], UR_DEVICE_INFO_TYPE, sizeof type, &type, NULL) !=
            UR_RESULT_SUCCESS)
            type = UR_DEVICE_TYPE_DEFAULT;
        bool keep =
            wanted == UR_DEVICE_TYPE_ALL || wanted == UR_DEVICE_TYPE_DEFAULT || wanted == type;
        candidate_t c = {roots[i], type, URC_ODS_ROOT, start + i, URC_ODS_ANY, URC_ODS_ANY, false};
        if (!keep || result != UR_RESULT_SUCCESS || !add(pool, c)) {
            if (keep && result == UR_RESULT_SUCCESS)
                result = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            urDeviceRelease(roots[i]);
        }
    }
    free(roots);
    // Partitioning creates devices, so it is done only when a filter can pick one.
    for (int level = URC_ODS_ROOT; level < (int)needs.deepest; ++level)
        for (size_t i = 0, n = pool->count; result == UR_RESULT_SUCCESS && i < n; ++i)
            if (pool->items[i].level == (urc_ods_level_t)level && !add_parts(pool, pool->items[i]))
                result = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    return result;
}

static ur_result_t select_devices(ur_platform_handle_t platform, ur_backend_t backend,
                                  ur_device_type_t wanted, const urc_ods_t *ods, pool_t *pool) {
    needs_t needs = needs_of(ods, backend);
    ur_result_t result = gather(platform, wanted, needs, pool);
    pool->picked = urc_calloc(pool->count, sizeof *pool->picked);
    if (result != UR_RESULT_SUCCESS || pool->picked == NULL)
        return result != UR_RESULT_SUCCESS ? result : UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    urc_logger_t *lg = urc_loader_log();
    // Discards first, then accepts in key order and filter order, each pick at most once.
    for (int pass = 0; pass < 2; ++pass) {
        bool discard = pass == 0;
        for (size_t t = 0; t < ods->count; ++t) {
            const urc_ods_term_t *term = &ods->terms[t];
            if (term->discard != discard || !urc_ods_term_applies(term, backend))
                continue;
            for (size_t i = 0; i < term->count; ++i)
                if (apply(pool, &term->filters[i], discard) == 0 && !discard)
                    URC_LOG(lg, UR_LOGGER_LEVEL_WARN,
                            "ONEAPI_DEVICE_SELECTOR: term '%s' filter %zu selects no further "
                            "device",
                            term->key, i + 1);
        }
    }
    if (!needs.any_accept) {
        static const urc_ods_filter_t all = {URC_ODS_ROOT, UR_DEVICE_TYPE_ALL, URC_ODS_ANY,
                                             URC_ODS_ANY, URC_ODS_ANY};
        apply(pool, &all, false);
    }
    return UR_RESULT_SUCCESS;
}

// A malformed selector is named with what is wrong on stderr once per process even when
// UR_LOG_LOADER is quiet (UR's loader logs it at error level, which its default shows); with
// the logger on, it goes there every time instead.
static void report_bad_selector(const char *text, const char *why) {
    static atomic_bool told;
    urc_logger_t *lg = urc_loader_log();
    if (urc_log_enabled(lg, UR_LOGGER_LEVEL_ERROR))
        URC_LOG(lg, UR_LOGGER_LEVEL_ERROR, "ONEAPI_DEVICE_SELECTOR=\"%s\": %s", text, why);
    else if (!atomic_exchange(&told, true))
        fprintf(stderr, "<LOADER>[ERROR]: ONEAPI_DEVICE_SELECTOR=\"%s\": %s\n", text, why);
}

UR_APIEXPORT ur_result_t UR_APICALL urDeviceGetSelected(ur_platform_handle_t hPlatform,
                                                        ur_device_type_t DeviceType,
                                                        uint32_t NumEntries,
                                                        ur_device_handle_t *phDevices,
                                                        uint32_t *pNumDevices) {
    ur_result_t result =
        urc_check_device_get_selected(hPlatform, DeviceType, NumEntries, phDevices, pNumDevices);
    if (result != UR_RESULT_SUCCESS)
        return result;
    if (NumEntries > 0 && phDevices == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    if (NumEntries == 0 && pNumDevices == NULL)
        return UR_RESULT_ERROR_INVALID_SIZE;
    if (DeviceType == UR_DEVICE_TYPE_VPU) // UR's loader accepts every type but this one
        return UR_RESULT_ERROR_INVALID_ENUMERATION;

    // Read at every call, as UR does: harnesses change the selector with setenv between calls.
    char *text = urc_env_read_now(URC_ENV_DEVICE_SELECTOR);
    urc_ods_t ods;
    char err[400];
    bool parsed = urc_ods_parse(text, &ods, err, sizeof err);
    if (!parsed)
        report_bad_selector(text, err);
    free(text);
    if (!parsed)
        return UR_RESULT_ERROR_INVALID_VALUE;
    ur_backend_t backend = UR_BACKEND_UNKNOWN;
    pool_t pool = {0};
    if (urPlatformGetInfo(hPlatform, UR_PLATFORM_INFO_BACKEND, sizeof backend, &backend, NULL) !=
        UR_RESULT_SUCCESS)
        result = UR_RESULT_ERROR_INVALID_PLATFORM;
    else
        result = select_devices(hPlatform, backend, DeviceType, &ods, &pool);
    urc_ods_free(&ods);

    // Hand out what fits; every other device we were given a reference to goes back.
    size_t handed = 0;
    if (result == UR_RESULT_SUCCESS) {
        handed = NumEntries < pool.picked_count ? NumEntries : pool.picked_count;
        for (size_t i = 0; i < handed; ++i) {
            phDevices[i] = pool.items[pool.picked[i]].device;
            pool.items[pool.picked[i]].device = NULL;
        }
        if (pNumDevices != NULL)
            *pNumDevices = (uint32_t)pool.picked_count;
    }
    for (size_t i = 0; i < pool.count; ++i)
        if (pool.items[i].device != NULL)
            urDeviceRelease(pool.items[i].device);
    free(pool.items);
    free(pool.picked);
    return result;
}
