// SPDX-License-Identifier: MIT
// The bounds-checked reader of SYCL property sets carried as program metadata (props.h).
// Parsing runs in two passes: the first validates every entry and measures what it needs,
// the second copies names and values into one arena, so a props object is three allocations
// whatever its size and nothing in it points at the caller's memory.
#include "program/props.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/hashmap.h"

struct urc_props_t {
    atomic_uint refcount;
    size_t count;
    urc_prop_t *props;
    char *arena;
    urc_index_t index; // (set, name) -> position of its first entry
    uint32_t sets;     // bit i: a property of known_sets[i] is present
};

// Every set DPC++ writes (anchor-behaviour §4.1). Order matters only for the longest match,
// which urc_props_known_set does explicitly.
static const char *const known_sets[] = {
    "SYCL/specialization constants",
    "SYCL/specialization constants default values",
    "SYCL/devicelib req mask",
    "SYCL/kernel param opt",
    URC_SET_PROGRAM_METADATA,
    URC_SET_MISC_PROPERTIES,
    URC_SET_ASSERT_USED,
    URC_SET_EXPORTED_SYMBOLS,
    URC_SET_IMPORTED_SYMBOLS,
    URC_SET_DEVICE_GLOBALS,
    URC_SET_DEVICE_REQUIREMENTS,
    "SYCL/host pipes",
    URC_SET_VIRTUAL_FUNCTIONS,
    "SYCL/implicit local arg",
    "SYCL/registered kernels",
    "SYCL/kernel names",
    "SYCL/devicelib metadata",
    "SYCL/kernel args info",
};
#define NUM_KNOWN_SETS (sizeof(known_sets) / sizeof(known_sets[0]))
_Static_assert(NUM_KNOWN_SETS <= 32, "the set bitmask holds 32 sets");

static const char GLOBAL_ID_MAPPING_TAG[] = "@global_id_mapping";

// UR's "<name>@<tag>" tags that adapters read, and whether the value is a uint32 array.
static const struct {
    const char *tag;
    bool u32_array;
} ur_tags[] = {
    {"@reqd_work_group_size", true}, {"@max_work_group_size", true},
    {GLOBAL_ID_MAPPING_TAG, false},  {"@max_linear_work_group_size", false},
    {"@reqd_sub_group_size", false}, {"@work_group_num_dim", false},
};

#define BYTE_ARRAY_HEADER 8

static int known_set_id(const char *set) {
    for (size_t i = 0; i < NUM_KNOWN_SETS; ++i)
        if (strcmp(known_sets[i], set) == 0)
            return (int)i;
    return -1;
}

const char *urc_props_known_set(const char *name, size_t *set_len) {
    const char *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; name != NULL && i < NUM_KNOWN_SETS; ++i) {
        size_t n = strlen(known_sets[i]);
        if (n > best_len && strncmp(name, known_sets[i], n) == 0 && name[n] == '/') {
            best = known_sets[i];
            best_len = n;
        }
    }
    if (set_len != NULL)
        *set_len = best_len;
    return best;
}

// The UR tag a name ends with, or -1.
static int ur_tag_id(const char *name) {
    const char *at = strrchr(name, '@');
    if (at == NULL || at == name)
        return -1;
    for (size_t i = 0; i < sizeof(ur_tags) / sizeof(ur_tags[0]); ++i)
        if (strcmp(at, ur_tags[i].tag) == 0)
            return (int)i;
    return -1;
}

// How a strict property's payload must divide: 4 for uint32 arrays, 8 for uint64 ones, else 1.
static size_t element_size(const char *set, const char *name, int tag) {
    if (tag >= 0)
        return ur_tags[tag].u32_array ? 4 : 1;
    if (set == NULL || strcmp(set, URC_SET_DEVICE_REQUIREMENTS) != 0)
        return 1;
    if (strcmp(name, "aspects") == 0 || strcmp(name, "aspect") == 0 ||
        strcmp(name, "fixed_target") == 0 || strcmp(name, "reqd_sub_group_size") == 0 ||
        strcmp(name, "reqd_work_group_size") == 0)
        return 4;
    if (strcmp(name, "reqd_work_group_size_uint64_t") == 0)
        return 8;
    return 1;
}

static uint64_t read_le64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

uint32_t urc_prop_u32_at(const uint8_t *data, size_t index) {
    const uint8_t *p = data + index * 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t urc_prop_u64_at(const uint8_t *data, size_t index) {
    return read_le64(data + index * 8);
}

// ---------------------------------------------------------------------------------------------
// Validation (first pass)

typedef struct parse_ctx_t {
    char *err;
    size_t err_size;
} parse_ctx_t;

static ur_result_t entry_error(parse_ctx_t *ctx, uint32_t i, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static ur_result_t entry_error(parse_ctx_t *ctx, uint32_t i, const char *name, const char *fmt,
                               ...) {
    if (ctx->err == NULL || ctx->err_size == 0)
        return UR_RESULT_ERROR_INVALID_VALUE;
    int n = name != NULL
                ? snprintf(ctx->err, ctx->err_size, "metadata entry %" PRIu32 " ('%s'): ", i, name)
                : snprintf(ctx->err, ctx->err_size, "metadata entry %" PRIu32 ": ", i);
    if (n >= 0 && (size_t)n < ctx->err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctx->err + n, ctx->err_size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return UR_RESULT_ERROR_INVALID_VALUE;
}

// One entry as the first pass sees it: strings still point into the caller's memory.
typedef struct view_t {
    urc_prop_t prop;
    size_t name_len;
    bool strict;
    int set_id;
} view_t;

static ur_result_t view_entry(parse_ctx_t *ctx, uint32_t i, const ur_program_metadata_t *e,
                              view_t *v) {
    const char *full = e->pName;
    if (full == NULL)
        return entry_error(ctx, i, NULL, "pName is NULL");
    if (full[0] == '\0')
        return entry_error(ctx, i, full, "the name is empty");

    size_t set_len = 0;
    const char *set = urc_props_known_set(full, &set_len);
    const char *name = set != NULL ? full + set_len + 1 : full;
    // UR's tags mean the same bare or inside "SYCL/program metadata" (where DPC++ keeps them):
    // such entries are stored bare, so adapters find them under set "" either way.
    int tag = set == NULL || strcmp(set, URC_SET_PROGRAM_METADATA) == 0 ? ur_tag_id(name) : -1;
    if (tag >= 0)
        set = NULL;
    v->strict = set != NULL || tag >= 0;
    v->set_id = set != NULL ? known_set_id(set) : -1;
    v->prop.set = set != NULL ? set : "";
    v->prop.name = name;
    v->name_len = strlen(name);
    v->prop.type = e->type;
    if (set != NULL && name[0] == '\0')
        return entry_error(ctx, i, full, "no property name after the set name");

    switch (e->type) {
    case UR_PROGRAM_METADATA_TYPE_UINT32:
        v->prop.u32 = e->value.data32;
        v->prop.u64 = e->value.data32;
        return UR_RESULT_SUCCESS;
    case UR_PROGRAM_METADATA_TYPE_UINT64:
        v->prop.u64 = e->value.data64;
        return UR_RESULT_SUCCESS;
    case UR_PROGRAM_METADATA_TYPE_STRING: {
        const char *s = e->value.pString;
        if (s == NULL)
            return entry_error(ctx, i, full, "pString is NULL");
        // UR's callers give size = strlen (CTS) or strlen + 1; either way the NUL is within
        // size + 1 bytes, and nothing past that is read.
        size_t len =
            e->size == 0 ? strlen(s) : strnlen(s, e->size == SIZE_MAX ? SIZE_MAX : e->size + 1);
        if (e->size != 0 && len > e->size)
            return entry_error(ctx, i, full, "the string has no NUL within its size of %zu bytes",
                               e->size);
        v->prop.string = s;
        return UR_RESULT_SUCCESS;
    }
    case UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY:
        break;
    default:
        return entry_error(ctx, i, full, "unknown metadata type %d", (int)e->type);
    }

    const uint8_t *p = e->value.pData;
    size_t size = e->size;
    if (p == NULL && size > 0)
        return entry_error(ctx, i, full, "pData is NULL but size is %zu", size);
    if (!v->strict) {
        v->prop.data = p;
        v->prop.size = size;
        v->prop.bits = size <= UINT64_MAX / 8 ? (uint64_t)size * 8 : UINT64_MAX;
        v->prop.raw = true;
        return UR_RESULT_SUCCESS;
    }
    if (size < BYTE_ARRAY_HEADER)
        return entry_error(ctx, i, full,
                           "byte array of %zu bytes is shorter than its 8-byte size header", size);
    uint64_t bits = read_le64(p);
    size_t payload = size - BYTE_ARRAY_HEADER;
    // UR's conformance fixture passes "<id>@global_id_mapping" with an all-zero header before
    // the symbol, and UR's CUDA adapter skips the header unread: for this tag alone a zero bit
    // count with a payload means "the rest of the entry".
    if (bits == 0 && payload > 0 && tag >= 0 && ur_tags[tag].tag == GLOBAL_ID_MAPPING_TAG)
        bits = (uint64_t)payload * 8;
    // The payload is the bit count rounded up to whole bytes, nothing more and nothing less.
    uint64_t need = bits / 8 + (bits % 8 != 0);
    if (need != (uint64_t)payload)
        return entry_error(ctx, i, full,
                           "the size header says %" PRIu64 " bits (%" PRIu64
                           " bytes) but %zu payload bytes follow it",
                           bits, need, payload);
    size_t elem = element_size(set, name, tag);
    if (elem > 1 && (payload % elem != 0 || bits != (uint64_t)payload * 8))
        return entry_error(ctx, i, full,
                           "a payload of %" PRIu64 " bits is not a whole number of uint%zu values",
                           bits, elem * 8);
    v->prop.data = p + BYTE_ARRAY_HEADER;
    v->prop.size = payload;
    v->prop.bits = bits;
    return UR_RESULT_SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Building (second pass), shared by parse and merge

typedef struct prop_key_t {
    const char *set;
    const char *name;
    const urc_prop_t *props;
} prop_key_t;

static uint64_t key_hash(const char *set, const char *name) {
    uint64_t h = urc_hash_str(URC_HASH_INIT, set);
    h = urc_hash_bytes(h, "", 1);
    return urc_hash_str(h, name);
}

static bool key_eq(const void *key, uint32_t pos) {
    const prop_key_t *k = key;
    const urc_prop_t *p = &k->props[pos];
    return strcmp(p->set, k->set) == 0 && strcmp(p->name, k->name) == 0;
}

static bool same_value(const urc_prop_t *a, const urc_prop_t *b) {
    if (a->type != b->type)
        return false;
    switch (a->type) {
    case UR_PROGRAM_METADATA_TYPE_UINT32:
    case UR_PROGRAM_METADATA_TYPE_UINT64:
        return a->u64 == b->u64;
    case UR_PROGRAM_METADATA_TYPE_STRING:
        return strcmp(a->string, b->string) == 0;
    default:
        return a->raw == b->raw && a->bits == b->bits && a->size == b->size &&
               (a->size == 0 || memcmp(a->data, b->data, a->size) == 0);
    }
}

static size_t value_bytes(const urc_prop_t *p) {
    if (p->type == UR_PROGRAM_METADATA_TYPE_STRING)
        return strlen(p->string) + 1;
    if (p->type == UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY)
        return p->size + 1;
    return 0;
}

static urc_props_t *props_alloc(size_t count, size_t arena_bytes) {
    urc_props_t *props = URC_NEW(urc_props_t);
    if (props == NULL)
        return NULL;
    atomic_init(&props->refcount, 1);
    props->props = urc_calloc(count, sizeof(urc_prop_t));
    props->arena = malloc(arena_bytes ? arena_bytes : 1);
    if (props->props == NULL || props->arena == NULL || !urc_index_init(&props->index, count)) {
        free(props->props);
        free(props->arena);
        free(props);
        return NULL;
    }
    return props;
}

// Copies `src` into slot `pos`, its strings and payload into the arena at `*cursor`.
static void copy_prop(urc_props_t *props, size_t pos, const urc_prop_t *src, int set_id,
                      char **cursor) {
    urc_prop_t *dst = &props->props[pos];
    *dst = *src;
    dst->set = set_id >= 0 ? known_sets[set_id] : "";
    if (set_id >= 0)
        props->sets |= 1u << set_id;
    size_t n = strlen(src->name) + 1;
    memcpy(*cursor, src->name, n);
    dst->name = *cursor;
    *cursor += n;
    if (src->type == UR_PROGRAM_METADATA_TYPE_STRING) {
        n = strlen(src->string) + 1;
        memcpy(*cursor, src->string, n);
        dst->string = *cursor;
        *cursor += n;
    } else if (src->type == UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY) {
        if (src->size > 0)
            memcpy(*cursor, src->data, src->size);
        (*cursor)[src->size] = '\0';
        dst->data = (const uint8_t *)*cursor;
        *cursor += src->size + 1;
    }
}

static bool add_size(size_t *total, size_t n) {
    if (n > SIZE_MAX - *total)
        return false;
    *total += n;
    return true;
}

ur_result_t urc_props_parse(const ur_program_metadata_t *entries, uint32_t count, urc_props_t **out,
                            char *err, size_t err_size) {
    if (out == NULL || (entries == NULL && count > 0))
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    *out = NULL;
    if (err != NULL && err_size > 0)
        err[0] = '\0';
    parse_ctx_t ctx = {err, err_size};

    view_t *views = urc_calloc(count, sizeof(view_t));
    if (views == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ur_result_t result = UR_RESULT_SUCCESS;
    size_t arena = 0;
    for (uint32_t i = 0; i < count; ++i) {
        result = view_entry(&ctx, i, &entries[i], &views[i]);
        if (result != UR_RESULT_SUCCESS)
            goto fail_views;
        if (!add_size(&arena, views[i].name_len + 1) ||
            !add_size(&arena, value_bytes(&views[i].prop))) {
            result = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            goto fail_views;
        }
    }

    urc_props_t *props = props_alloc(count, arena);
    if (props == NULL) {
        result = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        goto fail_views;
    }
    char *cursor = props->arena;
    for (uint32_t i = 0; i < count; ++i) {
        const view_t *v = &views[i];
        copy_prop(props, i, &v->prop, v->set_id, &cursor);
        props->count = i + 1;
        prop_key_t key = {props->props[i].set, props->props[i].name, props->props};
        uint32_t at = urc_index_insert(&props->index, key_hash(key.set, key.name), i, key_eq, &key);
        if (at == URC_INDEX_NONE) {
            result = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            goto fail_props;
        }
        if (at != i && v->strict) {
            result = entry_error(&ctx, i, entries[i].pName, "the same name as entry %" PRIu32, at);
            goto fail_props;
        }
    }
    free(views);
    *out = props;
    return UR_RESULT_SUCCESS;

fail_props:
    urc_props_release(props);
fail_views:
    free(views);
    return result;
}

ur_result_t urc_props_merge(const urc_props_t *const *inputs, size_t n, urc_props_t **out) {
    if (out == NULL || (inputs == NULL && n > 0))
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    *out = NULL;
    size_t total = 0, arena = 0;
    for (size_t k = 0; k < n; ++k) {
        const urc_props_t *in = inputs[k];
        if (in == NULL)
            continue;
        if (!add_size(&total, in->count))
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        for (size_t i = 0; i < in->count; ++i) {
            const urc_prop_t *p = &in->props[i];
            if (!add_size(&arena, strlen(p->name) + 1) || !add_size(&arena, value_bytes(p)))
                return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
    }
    if (total > UINT32_MAX)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    urc_props_t *props = props_alloc(total, arena);
    if (props == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;

    char *cursor = props->arena;
    for (size_t k = 0; k < n; ++k) {
        const urc_props_t *in = inputs[k];
        for (size_t i = 0; in != NULL && i < in->count; ++i) {
            const urc_prop_t *p = &in->props[i];
            prop_key_t key = {p->set, p->name, props->props};
            uint64_t h = key_hash(p->set, p->name);
            uint32_t first = urc_index_find(&props->index, h, key_eq, &key);
            // An equal entry is dropped; a conflicting strict one too (the first wins). Opaque
            // entries may repeat, as in a single program.
            if (first != URC_INDEX_NONE) {
                bool opaque = p->set[0] == '\0' && ur_tag_id(p->name) < 0;
                if (same_value(&props->props[first], p) || !opaque)
                    continue;
            }
            size_t pos = props->count;
            copy_prop(props, pos, p, p->set[0] != '\0' ? known_set_id(p->set) : -1, &cursor);
            props->count++;
            key.set = props->props[pos].set;
            key.name = props->props[pos].name;
            if (first == URC_INDEX_NONE &&
                urc_index_insert(&props->index, h, (uint32_t)pos, key_eq, &key) == URC_INDEX_NONE) {
                urc_props_release(props);
                return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            }
        }
    }
    *out = props;
    return UR_RESULT_SUCCESS;
}

urc_props_t *urc_props_retain(urc_props_t *props) {
    if (props != NULL)
        atomic_fetch_add_explicit(&props->refcount, 1, memory_order_relaxed);
    return props;
}

void urc_props_release(urc_props_t *props) {
    if (props == NULL || atomic_fetch_sub_explicit(&props->refcount, 1, memory_order_acq_rel) != 1)
        return;
    urc_index_free(&props->index);
    free(props->props);
    free(props->arena);
    free(props);
}

size_t urc_props_count(const urc_props_t *props) {
    return props != NULL ? props->count : 0;
}

const urc_prop_t *urc_props_at(const urc_props_t *props, size_t i) {
    return props != NULL && i < props->count ? &props->props[i] : NULL;
}

const urc_prop_t *urc_props_find(const urc_props_t *props, const char *set, const char *name) {
    if (props == NULL || set == NULL || name == NULL)
        return NULL;
    prop_key_t key = {set, name, props->props};
    uint32_t pos = urc_index_find(&props->index, key_hash(set, name), key_eq, &key);
    return pos != URC_INDEX_NONE ? &props->props[pos] : NULL;
}

size_t urc_props_list(const urc_props_t *props, const char *set, const urc_prop_t **out,
                      size_t max) {
    if (props == NULL || set == NULL)
        return 0;
    int id = known_set_id(set);
    if (id >= 0 && !(props->sets & (1u << id)))
        return 0;
    // Set names are interned, so known sets compare by pointer.
    const char *interned = id >= 0 ? known_sets[id] : NULL;
    size_t found = 0;
    for (size_t i = 0; i < props->count; ++i) {
        const urc_prop_t *p = &props->props[i];
        if (interned != NULL ? p->set != interned : strcmp(p->set, set) != 0)
            continue;
        if (found < max && out != NULL)
            out[found] = p;
        found++;
    }
    return found;
}

bool urc_props_has_set(const urc_props_t *props, const char *set) {
    if (props == NULL || set == NULL)
        return false;
    int id = known_set_id(set);
    if (id >= 0)
        return (props->sets & (1u << id)) != 0;
    return urc_props_list(props, set, NULL, 0) > 0;
}

bool urc_prop_u32_array(const urc_prop_t *prop, const uint8_t **data, size_t *count) {
    if (prop == NULL || prop->type != UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY || prop->size % 4 != 0)
        return false;
    if (data != NULL)
        *data = prop->data;
    if (count != NULL)
        *count = prop->size / 4;
    return true;
}

const char *urc_prop_text(const urc_prop_t *prop, char *buf, size_t size) {
    if (prop == NULL)
        return NULL;
    const char *text;
    size_t len;
    if (prop->type == UR_PROGRAM_METADATA_TYPE_STRING) {
        text = prop->string;
        len = strlen(text);
    } else if (prop->type == UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY) {
        // The arena holds a NUL after every payload, so the payload reads as a C string that
        // stops at its first NUL or its end.
        text = (const char *)prop->data;
        len = strnlen(text, prop->size);
    } else {
        return NULL;
    }
    if (buf == NULL)
        return text;
    if (len >= size)
        return NULL;
    memcpy(buf, text, len);
    buf[len] = '\0';
    return buf;
}

const char *urc_props_global_symbol(const urc_props_t *props, const char *name, char *buf,
                                    size_t size) {
    if (props == NULL || name == NULL || buf == NULL)
        return NULL;
    const char *tag = GLOBAL_ID_MAPPING_TAG;
    size_t n = strlen(name), tag_size = sizeof GLOBAL_ID_MAPPING_TAG;
    char stack[256];
    char *key = n + tag_size <= sizeof(stack) ? stack : malloc(n + tag_size);
    if (key == NULL)
        return NULL;
    memcpy(key, name, n);
    memcpy(key + n, tag, tag_size);
    const urc_prop_t *p = urc_props_find(props, "", key);
    if (key != stack)
        free(key);
    return urc_prop_text(p, buf, size);
}

ur_result_t urc_props_from_program_properties(const ur_program_properties_t *props,
                                              urc_props_t **out) {
    uint32_t count = props != NULL ? props->count : 0;
    const ur_program_metadata_t *entries = props != NULL ? props->pMetadatas : NULL;
    if (count > 0 && entries == NULL)
        return UR_RESULT_ERROR_INVALID_NULL_POINTER;
    if (count == 0 && entries != NULL)
        return UR_RESULT_ERROR_INVALID_SIZE;
    char err[256] = "";
    ur_result_t res = urc_props_parse(entries, count, out, err, sizeof err);
    if (res != UR_RESULT_SUCCESS)
        return urc_error_set(res, 0, "program metadata: %s", err);
    return UR_RESULT_SUCCESS;
}
