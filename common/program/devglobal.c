// SPDX-License-Identifier: MIT
#include "program/devglobal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"

// The payload after the 8-byte size header: {uint32 size; uint32 device_image_scope}, both
// little-endian, exactly as sycl-post-link writes it (anchor §4.2).
#define DG_PAYLOAD_SIZE 8

static uint32_t read_le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

ur_result_t urc_dg_describe(const urc_props_t *props, const char *name, urc_dg_desc_t *desc) {
    if (name == NULL || desc == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    if (props == NULL || !urc_props_has_set(props, URC_SET_DEVICE_GLOBALS))
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;

    const urc_prop_t *prop = urc_props_find(props, URC_SET_DEVICE_GLOBALS, name);
    if (prop == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "device global '%s' is not listed in the program's \"%s\"", name,
                             URC_SET_DEVICE_GLOBALS);
    if (prop->type != UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY || prop->data == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0, "\"%s/%s\" is not a byte array",
                             URC_SET_DEVICE_GLOBALS, name);
    // DPC++ consumes two uint32 and asserts nothing is left; a longer or shorter payload
    // means the image was written by something else, so refuse it rather than guess.
    if (prop->size != DG_PAYLOAD_SIZE)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "\"%s/%s\" holds %zu payload bytes, expected %d "
                             "({uint32 size; uint32 device_image_scope})",
                             URC_SET_DEVICE_GLOBALS, name, prop->size, DG_PAYLOAD_SIZE);
    desc->size = read_le32(prop->data);
    // Non-zero means decorated: PropertySets.md and DPC++'s use of the field agree on this.
    desc->image_scope = read_le32(prop->data + 4) != 0;
    return UR_RESULT_SUCCESS;
}

// UR's tag after a device global's name; props.c parses it and keeps it under set "".
#define GLOBAL_ID_MAPPING_TAG "@global_id_mapping"

const char *urc_dg_symbol(const urc_props_t *props, const char *name) {
    if (props == NULL || name == NULL)
        return name;
    size_t n = strlen(name);
    char stack[256];
    char *key = n + sizeof GLOBAL_ID_MAPPING_TAG <= sizeof stack
                    ? stack
                    : malloc(n + sizeof GLOBAL_ID_MAPPING_TAG);
    if (key == NULL)
        return name;
    memcpy(key, name, n);
    memcpy(key + n, GLOBAL_ID_MAPPING_TAG, sizeof GLOBAL_ID_MAPPING_TAG);
    const urc_prop_t *prop = urc_props_find(props, "", key);
    if (key != stack)
        free(key);
    // Without a buffer the text is the property's own (NUL-terminated in the props' arena), so
    // no symbol is too long to use.
    const char *symbol = prop != NULL ? urc_prop_text(prop, NULL, 0) : NULL;
    return symbol != NULL ? symbol : name;
}

size_t urc_dg_bound(const urc_dg_desc_t *desc, size_t driver_size) {
    if (desc == NULL)
        return driver_size;
    size_t storage = urc_dg_storage_size(desc);
    return driver_size != 0 && driver_size < storage ? driver_size : storage;
}

ur_result_t urc_dg_resolve(urc_dg_cache_t *cache, const urc_props_t *props, const char *name,
                           urc_dg_lookup_t lookup, void *ctx, uint64_t *address, size_t *size) {
    if (name == NULL || lookup == NULL || address == NULL || size == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    // A program with "SYCL/device globals" metadata lists every variable it has: a name it does
    // not list is refused before the driver is asked.
    urc_dg_desc_t desc = {0, false};
    ur_result_t described = urc_dg_describe(props, name, &desc);
    if (described != UR_RESULT_SUCCESS && described != UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION)
        return described;
    uint64_t found = 0;
    size_t driver_size = 0;
    ur_result_t res = lookup(ctx, name, urc_dg_symbol(props, name), &found, &driver_size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    size_t bound = urc_dg_bound(described == UR_RESULT_SUCCESS ? &desc : NULL, driver_size);
    if (cache != NULL)
        (void)urc_dg_cache_put(cache, name, found, bound);
    *address = found;
    *size = bound;
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_dg_check_range(const char *name, size_t size, size_t offset, size_t count) {
    // Written so that no sum is ever formed: offset + count could wrap around.
    if (offset <= size && count <= size - offset)
        return UR_RESULT_SUCCESS;
    return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                         "copy of %zu bytes at offset %zu exceeds device global '%s' of %zu bytes",
                         count, offset, name != NULL ? name : "<unnamed>", size);
}

// ---------------------------------------------------------------------------------------------
// The per-program symbol cache: chained hash map, rwlock so lookups run in parallel.

typedef struct dg_entry_t {
    struct dg_entry_t *next;
    uint64_t hash;
    uint64_t address;
    size_t size;
    char name[]; // the key, owned
} dg_entry_t;

struct urc_dg_cache_t {
    pthread_rwlock_t lock;
    dg_entry_t **buckets;
    size_t nbuckets; // a power of two
    size_t count;
};

#define DG_CACHE_INITIAL_BUCKETS 16

static uint64_t hash_name(const char *s) {
    uint64_t h = 0xcbf29ce484222325u; // FNV-1a
    for (; *s != '\0'; ++s)
        h = (h ^ (uint8_t)*s) * 0x100000001b3u;
    return h;
}

static dg_entry_t *cache_lookup(const urc_dg_cache_t *cache, const char *name, uint64_t hash) {
    for (dg_entry_t *e = cache->buckets[hash & (cache->nbuckets - 1)]; e != NULL; e = e->next)
        if (e->hash == hash && strcmp(e->name, name) == 0)
            return e;
    return NULL;
}

urc_dg_cache_t *urc_dg_cache_create(void) {
    urc_dg_cache_t *cache = URC_NEW(urc_dg_cache_t);
    if (cache == NULL)
        return NULL;
    cache->buckets = urc_calloc(DG_CACHE_INITIAL_BUCKETS, sizeof *cache->buckets);
    if (cache->buckets == NULL)
        goto fail_buckets;
    cache->nbuckets = DG_CACHE_INITIAL_BUCKETS;
    if (pthread_rwlock_init(&cache->lock, NULL) != 0)
        goto fail_lock;
    return cache;

fail_lock:
    URC_FREE(cache->buckets);
fail_buckets:
    URC_FREE(cache);
    return NULL;
}

void urc_dg_cache_destroy(urc_dg_cache_t *cache) {
    if (cache == NULL)
        return;
    for (size_t i = 0; i < cache->nbuckets; ++i) {
        dg_entry_t *e = cache->buckets[i];
        while (e != NULL) {
            dg_entry_t *next = e->next;
            free(e);
            e = next;
        }
    }
    pthread_rwlock_destroy(&cache->lock);
    free(cache->buckets);
    free(cache);
}

bool urc_dg_cache_get(urc_dg_cache_t *cache, const char *name, uint64_t *address, size_t *size) {
    if (cache == NULL || name == NULL)
        return false;
    uint64_t hash = hash_name(name);
    pthread_rwlock_rdlock(&cache->lock);
    const dg_entry_t *e = cache_lookup(cache, name, hash);
    if (e != NULL) {
        if (address != NULL)
            *address = e->address;
        if (size != NULL)
            *size = e->size;
    }
    pthread_rwlock_unlock(&cache->lock);
    return e != NULL;
}

// Doubles the bucket array; called with the write lock held. A failed allocation only
// leaves the chains longer, so it is not an error.
static void cache_grow(urc_dg_cache_t *cache) {
    size_t n = cache->nbuckets * 2;
    dg_entry_t **fresh = urc_calloc(n, sizeof *fresh);
    if (fresh == NULL)
        return;
    for (size_t i = 0; i < cache->nbuckets; ++i) {
        dg_entry_t *e = cache->buckets[i];
        while (e != NULL) {
            dg_entry_t *next = e->next;
            e->next = fresh[e->hash & (n - 1)];
            fresh[e->hash & (n - 1)] = e;
            e = next;
        }
    }
    free(cache->buckets);
    cache->buckets = fresh;
    cache->nbuckets = n;
}

ur_result_t urc_dg_cache_put(urc_dg_cache_t *cache, const char *name, uint64_t address,
                             size_t size) {
    if (cache == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (name == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    uint64_t hash = hash_name(name);
    size_t len = strlen(name);
    // Allocate before locking so the writer holds the lock only for pointer updates.
    dg_entry_t *fresh = malloc(sizeof *fresh + len + 1);
    if (fresh == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    fresh->hash = hash;
    fresh->address = address;
    fresh->size = size;
    memcpy(fresh->name, name, len + 1);

    pthread_rwlock_wrlock(&cache->lock);
    dg_entry_t *old = cache_lookup(cache, name, hash);
    if (old != NULL) {
        // Two threads that missed together resolve the same symbol; the last answer wins.
        old->address = address;
        old->size = size;
    } else {
        if (cache->count + 1 > cache->nbuckets - cache->nbuckets / 4)
            cache_grow(cache);
        dg_entry_t **head = &cache->buckets[hash & (cache->nbuckets - 1)];
        fresh->next = *head;
        *head = fresh;
        cache->count++;
        fresh = NULL;
    }
    pthread_rwlock_unlock(&cache->lock);
    free(fresh);
    return UR_RESULT_SUCCESS;
}
