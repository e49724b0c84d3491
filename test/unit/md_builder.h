// SPDX-License-Identifier: MIT
// Builds ur_program_metadata_t arrays for the unit tests: each value in its own exact-size
// allocation, so a read past its end is caught by the sanitizers.
#ifndef URC_TEST_UNIT_MD_BUILDER_H
#define URC_TEST_UNIT_MD_BUILDER_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "program/props.h"

#define MD_MAX 32

typedef struct md_list_t {
    ur_program_metadata_t e[MD_MAX];
    uint32_t n;
    void *owned[MD_MAX];
} md_list_t;

static inline ur_program_metadata_t *md_add(md_list_t *l, const char *name,
                                            ur_program_metadata_type_t type) {
    ck_assert_uint_lt(l->n, MD_MAX);
    ur_program_metadata_t *m = &l->e[l->n++];
    memset(m, 0, sizeof(*m));
    m->pName = name;
    m->type = type;
    return m;
}

static inline void md_u32(md_list_t *l, const char *name, uint32_t v) {
    ur_program_metadata_t *m = md_add(l, name, UR_PROGRAM_METADATA_TYPE_UINT32);
    m->size = sizeof(uint32_t);
    m->value.data32 = v;
}

static inline void md_u64(md_list_t *l, const char *name, uint64_t v) {
    ur_program_metadata_t *m = md_add(l, name, UR_PROGRAM_METADATA_TYPE_UINT64);
    m->size = sizeof(uint64_t);
    m->value.data64 = v;
}

static inline void md_str(md_list_t *l, const char *name, const char *s) {
    ur_program_metadata_t *m = md_add(l, name, UR_PROGRAM_METADATA_TYPE_STRING);
    char *copy = malloc(strlen(s) + 1);
    strcpy(copy, s);
    l->owned[l->n - 1] = copy;
    m->size = strlen(s) + 1;
    m->value.pString = copy;
}

/// A byte array exactly as given (`size` bytes, no header added).
static inline void md_raw(md_list_t *l, const char *name, const void *data, size_t size) {
    ur_program_metadata_t *m = md_add(l, name, UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY);
    void *copy = malloc(size ? size : 1);
    if (size)
        memcpy(copy, data, size);
    l->owned[l->n - 1] = copy;
    m->size = size;
    m->value.pData = copy;
}

/// A byte array with the 8-byte header: `bits` then `len` payload bytes.
static inline void md_bits(md_list_t *l, const char *name, uint64_t bits, const void *payload,
                           size_t len) {
    uint8_t *buf = malloc(8 + len);
    for (int i = 0; i < 8; ++i)
        buf[i] = (uint8_t)(bits >> (8 * i));
    if (len)
        memcpy(buf + 8, payload, len);
    md_raw(l, name, buf, 8 + len);
    free(buf);
}

static inline void md_bytes(md_list_t *l, const char *name, const void *payload, size_t len) {
    md_bits(l, name, (uint64_t)len * 8, payload, len);
}

/// A byte array of little-endian uint32 values, as DPC++ writes aspect lists.
static inline void md_u32s(md_list_t *l, const char *name, const uint32_t *v, size_t n) {
    uint8_t buf[4 * 16];
    ck_assert_uint_le(n, 16);
    for (size_t i = 0; i < n; ++i)
        for (int b = 0; b < 4; ++b)
            buf[4 * i + b] = (uint8_t)(v[i] >> (8 * b));
    md_bytes(l, name, buf, 4 * n);
}

static inline void md_free(md_list_t *l) {
    for (uint32_t i = 0; i < l->n; ++i) {
        free(l->owned[i]);
        l->owned[i] = NULL;
    }
    l->n = 0;
}

/// Parses the list (which must be well formed) and frees the inputs.
static inline urc_props_t *md_parse(md_list_t *l) {
    urc_props_t *props = NULL;
    char err[256] = "";
    ur_result_t r = urc_props_parse(l->e, l->n, &props, err, sizeof(err));
    ck_assert_msg(r == UR_RESULT_SUCCESS, "urc_props_parse failed: %s", err);
    md_free(l);
    return props;
}

#endif // URC_TEST_UNIT_MD_BUILDER_H
