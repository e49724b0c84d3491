// SPDX-License-Identifier: MIT
// libFuzzer target over urcMetadataFromDeviceBinary, feeding what it makes to urc_props_parse.
//
// Input, read as a stream of decisions (fuzz_input.h):
//   sets          u8 % 6, then set-range mode u8 % 8 (0: both NULL, 1: end NULL, 2: reversed)
//   per set       name: NULL when u8 % 16 == 0, else prefix index + suffix;
//                 range mode u8 % 8 as above; properties u8 % 8, then per property:
//     name        NULL when u8 % 16 == 0, else suffix only
//     type        u8 % 5 (0 and 4 are invalid)
//     UINT32      size u64 (8 bytes); value NULL
//     BYTE_ARRAY  size u8 (the value allocation is exactly that big), header as in fuzz_props
//     STRING      string up to 48 bytes
#include <stdbool.h>

#include "fuzz_input.h"
#include "program/props.h"
#include "urc_device_image.h"

static const char *const set_names[] = {
    "",
    "SYCL/device requirements",
    "SYCL/virtual functions",
    "SYCL/device globals",
    "SYCL/program metadata",
    "SYCL/misc properties",
    "Unknown/set",
};

// Points a [begin, end) pair at `count` elements of `base`, or breaks it as `mode` says.
#define SET_RANGE(mode, base, count, begin, end)                                                   \
    do {                                                                                           \
        (begin) = (base);                                                                          \
        (end) = (base) + (count);                                                                  \
        if ((mode) == 0 && (count) == 0)                                                           \
            (begin) = (end) = NULL;                                                                \
        else if ((mode) == 1)                                                                      \
            (end) = NULL;                                                                          \
        else if ((mode) == 2 && (count) > 0) {                                                     \
            (begin) = (base) + (count);                                                            \
            (end) = (base);                                                                        \
        }                                                                                          \
    } while (0)

static void decode_property(fuzz_input_t *in, urc_sycl_property_t *p) {
    memset(p, 0, sizeof(*p));
    p->name = fz_u8(in) % 16 == 0 ? NULL : fz_string(in, 32);
    p->type = fz_u8(in) % 5;
    switch (p->type) {
    case URC_SYCL_PROPERTY_TYPE_UINT32:
        p->size = fz_u64(in, 8);
        break;
    case URC_SYCL_PROPERTY_TYPE_BYTE_ARRAY: {
        uint8_t flags = fz_u8(in);
        size_t size = fz_u8(in);
        uint8_t *data = fz_bytes(in, size);
        if (data != NULL && !(flags & 2) && size >= 8) {
            uint64_t bits = (uint64_t)(size - 8) * 8;
            for (int i = 0; i < 8; ++i)
                data[i] = (uint8_t)(bits >> (8 * i));
        }
        p->value = (flags & 1) ? NULL : data;
        p->size = size;
        break;
    }
    case URC_SYCL_PROPERTY_TYPE_STRING:
        p->value = fz_string(in, 48);
        break;
    default:
        p->size = fz_u8(in);
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input_t in = {.p = data, .n = size};
    size_t num_sets = fz_u8(&in) % 6;
    uint8_t binary_mode = fz_u8(&in) % 8;
    urc_sycl_property_set_t *sets = fz_alloc(&in, num_sets * sizeof(*sets));
    if (sets == NULL)
        return 0;
    for (size_t s = 0; s < num_sets; ++s) {
        urc_sycl_property_set_t *set = &sets[s];
        set->name = fz_u8(&in) % 16 == 0
                        ? NULL
                        : fz_name(&in, set_names, sizeof(set_names) / sizeof(set_names[0]));
        uint8_t mode = fz_u8(&in) % 8;
        size_t count = fz_u8(&in) % 8;
        urc_sycl_property_t *props = fz_alloc(&in, count * sizeof(*props));
        if (props == NULL)
            count = 0;
        for (size_t i = 0; i < count; ++i)
            decode_property(&in, &props[i]);
        SET_RANGE(mode, props, count, set->properties_begin, set->properties_end);
    }
    urc_sycl_device_binary_t binary = {.version = 1, .kind = 4, .format = 2};
    SET_RANGE(binary_mode, sets, num_sets, binary.property_sets_begin, binary.property_sets_end);

    ur_program_metadata_t *md = NULL;
    uint32_t count = 0;
    ur_result_t r = urcMetadataFromDeviceBinary(&binary, &md, &count);
    if (r == UR_RESULT_SUCCESS) {
        urc_props_t *props = NULL;
        char err[128];
        if (urc_props_parse(md, count, &props, err, sizeof(err)) == UR_RESULT_SUCCESS)
            urc_props_release(props);
        urcMetadataArrayFree(md);
    } else if (md != NULL || count != 0) {
        __builtin_trap();
    }
    fz_free_all(&in);
    return 0;
}
