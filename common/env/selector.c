// SPDX-License-Identifier: MIT
#include "env/selector.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/alloc.h"
#include "env/kvparse.h"

static const struct {
    const char *name;
    ur_backend_t backend;
} backends[] = {
    {"*", UR_BACKEND_UNKNOWN},       {"level_zero", UR_BACKEND_LEVEL_ZERO},
    {"opencl", UR_BACKEND_OPENCL},   {"cuda", UR_BACKEND_CUDA},
    {"hip", UR_BACKEND_HIP},         {"native_cpu", UR_BACKEND_NATIVE_CPU},
    {"offload", UR_BACKEND_OFFLOAD},
};

static const struct {
    const char *name;
    ur_device_type_t type;
} type_names[] = {
    {"cpu", UR_DEVICE_TYPE_CPU}, {"gpu", UR_DEVICE_TYPE_GPU}, {"fpga", UR_DEVICE_TYPE_FPGA}};

const char *urc_ods_backend_name(ur_backend_t backend) {
    for (size_t i = 0; i < sizeof backends / sizeof backends[0]; ++i)
        if (backends[i].backend == backend)
            return backends[i].name;
    return NULL;
}

// A decimal index that fits below URC_ODS_ANY; false for anything else.
static bool parse_index(const char *s, size_t n, uint32_t *out) {
    if (n == 0)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!isdigit((unsigned char)s[i]))
            return false;
        v = v * 10 + (uint64_t)(s[i] - '0');
        if (v >= URC_ODS_ANY)
            return false;
    }
    *out = (uint32_t)v;
    return true;
}

static bool is_star(const char *s, size_t n) {
    return n == 1 && s[0] == '*';
}

// Reads one filter string ("1.*", "gpu"); on error writes why into `why`.
static bool parse_filter(const char *text, urc_ods_filter_t *f, char *why, size_t size) {
    *f = (urc_ods_filter_t){.level = URC_ODS_ROOT,
                            .type = UR_DEVICE_TYPE_ALL,
                            .root = URC_ODS_ANY,
                            .sub = URC_ODS_ANY,
                            .subsub = URC_ODS_ANY};
    const char *parts[3];
    size_t lens[3], count = 0;
    for (const char *p = text;; ++count) {
        if (count == 3) {
            snprintf(why, size, "more than two '.'");
            return false;
        }
        const char *dot = strchr(p, '.');
        parts[count] = p;
        lens[count] = dot != NULL ? (size_t)(dot - p) : strlen(p);
        if (lens[count] == 0) {
            snprintf(why, size, "an empty part");
            return false;
        }
        if (dot == NULL) {
            ++count;
            break;
        }
        p = dot + 1;
    }
    f->level = (urc_ods_level_t)(count - 1);
    uint32_t *index[3] = {&f->root, &f->sub, &f->subsub};
    bool star_seen = false;
    for (size_t i = 0; i < count; ++i) {
        if (is_star(parts[i], lens[i])) {
            star_seen = true;
            continue;
        }
        if (star_seen) {
            snprintf(why, size, "only '*' may follow a '*'");
            return false;
        }
        if (parse_index(parts[i], lens[i], index[i]))
            continue;
        bool typed = false;
        for (size_t t = 0; i == 0 && t < sizeof type_names / sizeof type_names[0]; ++t)
            if (strlen(type_names[t].name) == lens[0] &&
                strncasecmp(parts[0], type_names[t].name, lens[0]) == 0) {
                f->type = type_names[t].type;
                typed = true;
            }
        if (!typed) {
            snprintf(why, size, "'%.*s' is not '*', an index%s", (int)lens[i], parts[i],
                     i == 0 ? ", cpu, gpu or fpga" : "");
            return false;
        }
        if (count > 1) {
            snprintf(why, size, "a device type has no sub-devices (use an index)");
            return false;
        }
    }
    return true;
}

static int compare_terms(const void *a, const void *b) {
    return strcmp(((const urc_ods_term_t *)a)->key, ((const urc_ods_term_t *)b)->key);
}

static bool bad(char *err, size_t size, const urc_kv_entry_t *e, const char *reason) {
    if (err != NULL && size != 0) {
        // Name the whole term, as the user wrote it (key lower-cased).
        int n = snprintf(err, size, "term '%s:", e->key);
        for (size_t i = 0; i < e->count && n > 0 && (size_t)n < size; ++i)
            n += snprintf(err + n, size - (size_t)n, "%s%s", i ? "," : "", e->values[i]);
        if (n > 0 && (size_t)n < size)
            snprintf(err + n, size - (size_t)n, "': %s", reason);
    }
    return false;
}

static bool parse_term(const urc_kv_entry_t *e, urc_ods_term_t *t, char *err, size_t size) {
    const char *name = e->key;
    t->discard = name[0] == '!';
    if (t->discard)
        ++name;
    bool known = false;
    for (size_t i = 0; i < sizeof backends / sizeof backends[0]; ++i)
        if (strcmp(name, backends[i].name) == 0) {
            t->backend = backends[i].backend;
            t->any_backend = i == 0;
            known = true;
        }
    char reason[300];
    if (!known) {
        snprintf(reason, sizeof reason,
                 "unknown backend '%s' (use *, level_zero, opencl, cuda, hip, native_cpu or "
                 "offload)",
                 name);
        return bad(err, size, e, reason);
    }
    if (e->count == 0)
        return bad(err, size, e, "no device filter after ':'");
    t->filters = urc_calloc(e->count, sizeof *t->filters);
    if (t->filters == NULL)
        return bad(err, size, e, "out of memory");
    for (size_t i = 0; i < e->count; ++i) {
        char why[120];
        if (!parse_filter(e->values[i], &t->filters[i], why, sizeof why)) {
            snprintf(reason, sizeof reason, "filter '%s': %s", e->values[i], why);
            return bad(err, size, e, reason);
        }
        t->count = i + 1;
    }
    return true;
}

bool urc_ods_parse(const char *text, urc_ods_t *out, char *err, size_t err_size) {
    *out = (urc_ods_t){0};
    urc_kv_map_t map;
    urc_kv_options_t opt = {.reject_empty = false, .allow_duplicate = false, .lower = true};
    char why[200];
    if (!urc_kv_parse_map(text != NULL ? text : "*:*", opt, &map, why, sizeof why)) {
        if (err != NULL && err_size != 0)
            snprintf(err, err_size, "%s (expected [!]backend:filter[,filter...][;...])", why);
        return false;
    }
    if (map.count == 0) {
        urc_kv_map_free(&map);
        if (err != NULL && err_size != 0)
            snprintf(err, err_size, "no terms (expected [!]backend:filter[,filter...][;...])");
        return false;
    }
    bool ok = true;
    out->terms = urc_calloc(map.count, sizeof *out->terms);
    if (out->terms == NULL) {
        ok = false;
        if (err != NULL && err_size != 0)
            snprintf(err, err_size, "out of memory");
    }
    for (size_t i = 0; ok && i < map.count; ++i) {
        urc_ods_term_t *t = &out->terms[i];
        t->key = urc_strdup(map.entries[i].key);
        out->count = i + 1;
        ok = t->key != NULL ? parse_term(&map.entries[i], t, err, err_size)
                            : bad(err, err_size, &map.entries[i], "out of memory");
    }
    urc_kv_map_free(&map);
    if (!ok) {
        urc_ods_free(out);
        return false;
    }
    qsort(out->terms, out->count, sizeof *out->terms, compare_terms);
    return true;
}

void urc_ods_free(urc_ods_t *ods) {
    for (size_t i = 0; ods->terms != NULL && i < ods->count; ++i) {
        free(ods->terms[i].key);
        free(ods->terms[i].filters);
    }
    URC_FREE(ods->terms);
    ods->count = 0;
}

bool urc_ods_term_applies(const urc_ods_term_t *term, ur_backend_t backend) {
    return term->any_backend || term->backend == backend;
}

bool urc_ods_filter_matches(const urc_ods_filter_t *f, ur_device_type_t type, uint32_t root,
                            uint32_t sub, uint32_t subsub) {
    if (f->root == URC_ODS_ANY) // "*", "*.*", "*.*.*" or a type name
        return f->type == UR_DEVICE_TYPE_ALL || f->type == type;
    if (f->root != root)
        return false;
    if (f->level == URC_ODS_ROOT || f->sub == URC_ODS_ANY)
        return true;
    if (f->sub != sub)
        return false;
    return f->level == URC_ODS_SUB || f->subsub == URC_ODS_ANY || f->subsub == subsub;
}

// Could an accept term keep some device of this type? Indices may name any device.
static bool accept_may_match(const urc_ods_term_t *t, ur_device_type_t type) {
    for (size_t i = 0; i < t->count; ++i) {
        const urc_ods_filter_t *f = &t->filters[i];
        if (f->root != URC_ODS_ANY || f->type == UR_DEVICE_TYPE_ALL || f->type == type)
            return true;
    }
    return false;
}

// Does a discard term remove every root device of this type?
static bool discard_removes_all(const urc_ods_term_t *t, ur_device_type_t type) {
    for (size_t i = 0; i < t->count; ++i) {
        const urc_ods_filter_t *f = &t->filters[i];
        if (f->level == URC_ODS_ROOT && f->root == URC_ODS_ANY &&
            (f->type == UR_DEVICE_TYPE_ALL || f->type == type))
            return true;
    }
    return false;
}

bool urc_ods_backend_wanted(const urc_ods_t *ods, ur_backend_t backend,
                            const ur_device_type_t *types, size_t type_count) {
    bool any_accept = false;
    for (size_t i = 0; i < ods->count; ++i)
        any_accept |= !ods->terms[i].discard;
    for (size_t k = 0; k < type_count; ++k) {
        bool accepted = !any_accept, discarded = false; // only discards: "*:*" is implied
        for (size_t i = 0; i < ods->count; ++i) {
            const urc_ods_term_t *t = &ods->terms[i];
            if (!urc_ods_term_applies(t, backend))
                continue;
            if (t->discard)
                discarded |= discard_removes_all(t, types[k]);
            else
                accepted |= accept_may_match(t, types[k]);
        }
        if (accepted && !discarded)
            return true;
    }
    return false;
}
