// SPDX-License-Identifier: MIT
// Reading fuzz bytes as a stream of small decisions, and keeping every allocation made from
// them so one call frees all. Each value gets its own exact-size allocation, so any read past
// its end is caught by AddressSanitizer.
#ifndef URC_TEST_FUZZ_FUZZ_INPUT_H
#define URC_TEST_FUZZ_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct fuzz_input_t {
    const uint8_t *p;
    size_t n;
    void *owned[1024];
    size_t num_owned;
} fuzz_input_t;

/// The next byte, or 0 once the input is used up.
static inline uint8_t fz_u8(fuzz_input_t *in) {
    if (in->n == 0)
        return 0;
    in->n--;
    return *in->p++;
}

static inline uint64_t fz_u64(fuzz_input_t *in, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v |= (uint64_t)fz_u8(in) << (8 * i);
    return v;
}

/// An allocation of `size` bytes (at least 1 allocated) freed by fz_free_all; NULL when the
/// ownership table is full.
static inline void *fz_alloc(fuzz_input_t *in, size_t size) {
    if (in->num_owned == sizeof(in->owned) / sizeof(in->owned[0]))
        return NULL;
    void *buf = malloc(size ? size : 1);
    if (buf != NULL)
        in->owned[in->num_owned++] = buf;
    return buf;
}

/// `size` bytes drawn from the input, in an allocation of exactly that size.
static inline uint8_t *fz_bytes(fuzz_input_t *in, size_t size) {
    uint8_t *buf = fz_alloc(in, size);
    for (size_t i = 0; buf != NULL && i < size; ++i)
        buf[i] = fz_u8(in);
    return buf;
}

/// A NUL-terminated string of up to `max` bytes drawn from the input (a NUL inside ends it).
static inline char *fz_string(fuzz_input_t *in, size_t max) {
    size_t len = fz_u8(in) % (max + 1);
    char *s = (char *)fz_bytes(in, len + 1);
    if (s != NULL)
        s[len] = '\0';
    return s;
}

/// A name made of one of `prefixes` (chosen by the input) and a suffix from the input.
static inline char *fz_name(fuzz_input_t *in, const char *const *prefixes, size_t count) {
    const char *prefix = prefixes[fz_u8(in) % count];
    char *suffix = fz_string(in, 24);
    if (suffix == NULL)
        return NULL;
    size_t a = strlen(prefix), b = strlen(suffix);
    char *full = fz_alloc(in, a + b + 1);
    if (full != NULL) {
        memcpy(full, prefix, a);
        memcpy(full + a, suffix, b + 1);
    }
    return full;
}

static inline void fz_free_all(fuzz_input_t *in) {
    for (size_t i = 0; i < in->num_owned; ++i)
        free(in->owned[i]);
    in->num_owned = 0;
}

// Names the decoders build from: every convention the parsers treat specially.
static const char *const fz_prefixes[] = {
    "",
    "SYCL/device requirements/",
    "SYCL/device requirements/aspects",
    "SYCL/device requirements/fixed_target",
    "SYCL/device requirements/reqd_sub_group_size",
    "SYCL/device requirements/reqd_work_group_size",
    "SYCL/device requirements/reqd_work_group_size_uint64_t",
    "SYCL/device requirements/work_group_num_dim",
    "SYCL/virtual functions/virtual-functions-set",
    "SYCL/virtual functions/uses-virtual-functions-set",
    "SYCL/virtual functions/dummy-image",
    "SYCL/device globals/",
    "SYCL/program metadata/",
    "SYCL/specialization constants",
    "SYCL/specialization constants default values/",
    "k@reqd_work_group_size",
    "k@global_id_mapping",
    "k@reqd_sub_group_size",
};
#define FZ_NUM_PREFIXES (sizeof(fz_prefixes) / sizeof(fz_prefixes[0]))

#endif // URC_TEST_FUZZ_FUZZ_INPUT_H
