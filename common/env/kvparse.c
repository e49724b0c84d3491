// SPDX-License-Identifier: MIT
#include "env/kvparse.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

typedef struct span_t {
    const char *p;
    size_t n;
} span_t;

__attribute__((format(printf, 3, 4))) static bool fail(char *err, size_t size, const char *fmt,
                                                       ...) {
    if (err != NULL && size != 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, size, fmt, ap);
        va_end(ap);
    }
    return false;
}

// Splits `s` at `sep` the way std::getline does: a final empty piece is not a piece, so
// "a," gives one piece and "" gives none. Returns the number of pieces (pieces may be NULL).
static size_t split(span_t s, char sep, span_t *pieces) {
    size_t count = 0;
    const char *p = s.p, *end = s.p + s.n;
    while (p < end) {
        const char *q = memchr(p, sep, (size_t)(end - p));
        const char *stop = q != NULL ? q : end;
        if (pieces != NULL)
            pieces[count] = (span_t){p, (size_t)(stop - p)};
        ++count;
        if (q == NULL)
            break;
        p = q + 1;
        if (p == end) // "x," ends here; "x,," has already produced its empty piece above
            break;
    }
    return count;
}

static bool is_quoted(span_t v) {
    return v.n >= 2 && (v.p[0] == '\'' || v.p[0] == '"') && v.p[v.n - 1] == v.p[0];
}

static bool contains(span_t v, char c) {
    return memchr(v.p, c, v.n) != NULL;
}

static char *copy_span(span_t v) {
    char *s = urc_calloc(v.n + 1, 1);
    if (s != NULL)
        memcpy(s, v.p, v.n);
    return s;
}

// A value with its quotes removed; `forbidden` lists characters an unquoted value may not hold.
static bool take_value(span_t v, const char *forbidden, char **out, char *err, size_t size) {
    if (v.n == 0)
        return fail(err, size, "an empty value");
    if (is_quoted(v)) {
        v.p += 1;
        v.n -= 2;
    } else {
        for (const char *f = forbidden; *f != '\0'; ++f)
            if (contains(v, *f))
                return fail(err, size, "'%.*s' holds '%c' and must be quoted", (int)v.n, v.p, *f);
    }
    *out = copy_span(v);
    return *out != NULL || fail(err, size, "out of memory");
}

static span_t whole(const char *text) {
    return (span_t){text != NULL ? text : "", text != NULL ? strlen(text) : 0};
}

bool urc_kv_parse_list(const char *text, urc_kv_list_t *out, char *err, size_t err_size) {
    *out = (urc_kv_list_t){0};
    span_t all = whole(text);
    size_t n = split(all, ',', NULL);
    span_t *pieces = urc_calloc(n, sizeof *pieces);
    if (pieces == NULL)
        return fail(err, err_size, "out of memory");
    split(all, ',', pieces);
    out->items = urc_calloc(n, sizeof *out->items);
    bool ok = out->items != NULL || fail(err, err_size, "out of memory");
    for (size_t i = 0; ok && i < n; ++i) {
        ok = take_value(pieces[i], ":;", &out->items[i], err, err_size);
        if (ok)
            out->count = i + 1;
    }
    free(pieces);
    if (!ok)
        urc_kv_list_free(out);
    return ok;
}

static urc_kv_entry_t *find_entry(urc_kv_map_t *map, const char *key) {
    for (size_t i = 0; i < map->count; ++i)
        if (strcmp(map->entries[i].key, key) == 0)
            return &map->entries[i];
    return NULL;
}

const urc_kv_entry_t *urc_kv_find(const urc_kv_map_t *map, const char *key) {
    return find_entry((urc_kv_map_t *)map, key);
}

// Appends the values of one "key:values" piece to `entry`.
static bool add_values(urc_kv_entry_t *entry, span_t values, char *err, size_t size) {
    size_t n = split(values, ',', NULL);
    if (n == 0)
        return true;
    char **grown = realloc(entry->values, (entry->count + n) * sizeof *grown);
    if (grown == NULL)
        return fail(err, size, "out of memory");
    entry->values = grown;
    span_t *pieces = urc_calloc(n, sizeof *pieces);
    if (pieces == NULL)
        return fail(err, size, "out of memory");
    split(values, ',', pieces);
    bool ok = true;
    for (size_t i = 0; ok && i < n; ++i) {
        char *v = NULL;
        ok = take_value(pieces[i], ":", &v, err, size);
        if (ok)
            entry->values[entry->count++] = v;
    }
    free(pieces);
    return ok;
}

static bool parse_pair(span_t pair, urc_kv_options_t opt, urc_kv_map_t *map, size_t capacity,
                       char *err, size_t size) {
    const char *colon = memchr(pair.p, ':', pair.n);
    if (colon == NULL)
        return fail(err, size, "'%.*s' is not key:value", (int)pair.n, pair.p);
    span_t key = {pair.p, (size_t)(colon - pair.p)};
    span_t values = {colon + 1, pair.n - key.n - 1};
    if (key.n == 0)
        return fail(err, size, "'%.*s' has no key", (int)pair.n, pair.p);
    if (opt.reject_empty && values.n == 0)
        return fail(err, size, "'%.*s' has no value", (int)pair.n, pair.p);
    char *k = copy_span(key);
    if (k == NULL)
        return fail(err, size, "out of memory");
    if (opt.lower)
        for (char *c = k; *c != '\0'; ++c)
            *c = (char)tolower((unsigned char)*c);
    urc_kv_entry_t *entry = find_entry(map, k);
    if (entry != NULL && !opt.allow_duplicate) {
        fail(err, size, "key '%s' appears twice", k);
        free(k);
        return false;
    }
    if (entry == NULL) {
        if (map->count == capacity) { // cannot happen: capacity is the number of pieces
            free(k);
            return fail(err, size, "too many keys");
        }
        entry = &map->entries[map->count++];
        *entry = (urc_kv_entry_t){.key = k};
    } else {
        free(k);
    }
    return add_values(entry, values, err, size);
}

bool urc_kv_parse_map(const char *text, urc_kv_options_t options, urc_kv_map_t *out, char *err,
                      size_t err_size) {
    *out = (urc_kv_map_t){0};
    span_t all = whole(text);
    size_t n = split(all, ';', NULL);
    span_t *pairs = urc_calloc(n, sizeof *pairs);
    if (pairs == NULL)
        return fail(err, err_size, "out of memory");
    split(all, ';', pairs);
    out->entries = urc_calloc(n, sizeof *out->entries);
    bool ok = out->entries != NULL || fail(err, err_size, "out of memory");
    for (size_t i = 0; ok && i < n; ++i)
        ok = parse_pair(pairs[i], options, out, n, err, err_size);
    free(pairs);
    if (!ok)
        urc_kv_map_free(out);
    return ok;
}

void urc_kv_list_free(urc_kv_list_t *list) {
    for (size_t i = 0; list->items != NULL && i < list->count; ++i)
        free(list->items[i]);
    URC_FREE(list->items);
    list->count = 0;
}

void urc_kv_map_free(urc_kv_map_t *map) {
    for (size_t i = 0; map->entries != NULL && i < map->count; ++i) {
        for (size_t j = 0; j < map->entries[i].count; ++j)
            free(map->entries[i].values[j]);
        free(map->entries[i].values);
        free(map->entries[i].key);
    }
    URC_FREE(map->entries);
    map->count = 0;
}
