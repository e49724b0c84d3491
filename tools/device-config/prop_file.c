// SPDX-License-Identifier: MIT
// Reader of sycl-post-link's .prop files (prop_file.h).
#include "prop_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int base64_value(char c) {
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

size_t sycl_base64_decode(const char *text, size_t len, uint8_t *out, size_t cap, bool *ok) {
    // Each character adds six bits above those already held; whole bytes leave from the bottom.
    uint32_t acc = 0;
    unsigned bits = 0;
    size_t n = 0;
    *ok = true;
    for (size_t i = 0; i < len; ++i) {
        int v = base64_value(text[i]);
        if (v < 0) {
            *ok = false;
            return n;
        }
        acc |= (uint32_t)v << bits;
        bits += 6;
        if (bits >= 8) {
            if (n < cap)
                out[n] = (uint8_t)(acc & 0xffu);
            n++;
            acc >>= 8;
            bits -= 8;
        }
    }
    return n;
}

static void *own(prop_file_t *file, size_t size) {
    void **list = realloc(file->owned, (file->num_owned + 1) * sizeof(void *));
    if (list == NULL)
        return NULL;
    file->owned = list;
    void *p = malloc(size ? size : 1);
    if (p != NULL)
        file->owned[file->num_owned++] = p;
    return p;
}

static bool fail(char *err, size_t err_size, size_t line, const char *why) {
    snprintf(err, err_size, "line %zu: %s", line, why);
    return false;
}

// Finds "=<digits>|" in a "key=<type>|<value>" line: keys may hold '=' but never that pattern.
static const char *find_separator(const char *s, const char *end) {
    for (const char *p = s; p < end; ++p) {
        if (*p != '=')
            continue;
        const char *q = p + 1;
        while (q < end && *q >= '0' && *q <= '9')
            q++;
        if (q > p + 1 && q < end && *q == '|')
            return p;
    }
    return NULL;
}

static bool add_entry(prop_file_t *file, const char *set, size_t set_len, const char *key,
                      size_t key_len, unsigned long type, const char *value, size_t value_len,
                      size_t line, char *err, size_t err_size) {
    ur_program_metadata_t *e = realloc(file->entries, (file->count + 1) * sizeof(*e));
    if (e == NULL)
        return fail(err, err_size, line, "out of memory");
    file->entries = e;
    e = &file->entries[file->count];
    memset(e, 0, sizeof(*e));
    char *name = own(file, set_len + key_len + 2);
    if (name == NULL)
        return fail(err, err_size, line, "out of memory");
    memcpy(name, set, set_len);
    name[set_len] = '/';
    memcpy(name + set_len + 1, key, key_len);
    name[set_len + key_len + 1] = '\0';
    e->pName = name;
    if (type == 1) {
        unsigned long long v = 0;
        if (value_len == 0 || value_len > 10)
            return fail(err, err_size, line, "a type 1 value must be a decimal uint32");
        for (size_t i = 0; i < value_len; ++i) {
            if (value[i] < '0' || value[i] > '9')
                return fail(err, err_size, line, "a type 1 value must be a decimal uint32");
            v = v * 10 + (unsigned)(value[i] - '0');
        }
        if (v > UINT32_MAX)
            return fail(err, err_size, line, "a type 1 value must be a decimal uint32");
        e->type = UR_PROGRAM_METADATA_TYPE_UINT32;
        e->size = sizeof(uint32_t);
        e->value.data32 = (uint32_t)v;
    } else if (type == 2) {
        bool ok;
        size_t n = sycl_base64_decode(value, value_len, NULL, 0, &ok);
        if (!ok)
            return fail(err, err_size, line, "a type 2 value must be SYCL base64");
        uint8_t *data = own(file, n);
        if (data == NULL)
            return fail(err, err_size, line, "out of memory");
        sycl_base64_decode(value, value_len, data, n, &ok);
        e->type = UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY;
        e->size = n;
        e->value.pData = data;
    } else {
        return fail(err, err_size, line, "unknown property type (1: uint32, 2: byte array)");
    }
    file->count++;
    return true;
}

static bool parse_lines(const char *text, size_t len, prop_file_t *file, char *err,
                        size_t err_size) {
    const char *set = NULL;
    size_t set_len = 0, line = 0;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl != NULL ? nl : end;
        const char *next = nl != NULL ? nl + 1 : end;
        line++;
        if (eol > p && eol[-1] == '\r')
            eol--;
        if (eol == p) {
            p = next;
            continue;
        }
        if (*p == '[') {
            if (eol[-1] != ']' || eol - p < 3)
                return fail(err, err_size, line, "a set line must be '[<set name>]'");
            set = p + 1;
            set_len = (size_t)(eol - p) - 2;
        } else {
            const char *eq = find_separator(p, eol);
            if (eq == NULL)
                return fail(err, err_size, line, "expected '<key>=<type>|<value>'");
            if (set == NULL)
                return fail(err, err_size, line, "a property before any '[<set name>]' line");
            if (eq == p)
                return fail(err, err_size, line, "an empty property name");
            char *bar;
            errno = 0;
            unsigned long type = strtoul(eq + 1, &bar, 10);
            const char *value = bar + 1;
            if (!add_entry(file, set, set_len, p, (size_t)(eq - p), type, value,
                           (size_t)(eol - value), line, err, err_size))
                return false;
        }
        p = next;
    }
    return true;
}

bool prop_file_parse(const char *text, size_t len, prop_file_t *file, char *err, size_t err_size) {
    memset(file, 0, sizeof(*file));
    if (parse_lines(text, len, file, err, err_size))
        return true;
    prop_file_free(file);
    return false;
}

bool prop_file_read(const char *path, prop_file_t *file, char *err, size_t err_size) {
    memset(file, 0, sizeof(*file));
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, err_size, "%s: %s", path, strerror(errno));
        return false;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    bool ok = true;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 4096;
            char *t = realloc(text, cap);
            if (t == NULL) {
                ok = false;
                break;
            }
            text = t;
        }
        size_t got = fread(text + len, 1, cap - len, f);
        if (got == 0)
            break;
        len += got;
    }
    fclose(f);
    if (!ok) {
        free(text);
        snprintf(err, err_size, "%s: out of memory", path);
        return false;
    }
    char why[256];
    ok = prop_file_parse(text, len, file, why, sizeof(why));
    free(text);
    if (!ok)
        snprintf(err, err_size, "%s: %s", path, why);
    return ok;
}

void prop_file_free(prop_file_t *file) {
    for (size_t i = 0; i < file->num_owned; ++i)
        free(file->owned[i]);
    free(file->owned);
    free(file->entries);
    memset(file, 0, sizeof(*file));
}
