// SPDX-License-Identifier: MIT
// libFuzzer target over urc_props_parse and everything that reads its result: lookups, texts,
// merge, urc_check_requirements and urc_vf_select.
//
// Input, read as a stream of decisions (fuzz_input.h):
//   programs           u8 % 4 + 1
//   per program        entries u8 % 16, then per entry:
//     name             prefix index u8, suffix (length u8 % 25, bytes)
//     type             u8 % 5: UINT32, UINT64, BYTE_ARRAY, STRING, or 4 = an invalid type
//     UINT32 / UINT64  4 / 8 bytes
//     STRING           length u8 % 49, bytes; size mode u8 % 4: 0, len, len + 1, u8
//     BYTE_ARRAY       flags u8 (1: NULL pData, 2: header from the input, 4: odd bit count),
//                      size u8 (header included when >= 8), bytes
//   device             4 x u64 aspect bitmap, sub-group sizes (u8 % 9, u8 each), max work-group
//                      size u16, max work-item sizes 3 x u16
#include <stdbool.h>
#include <stdio.h>

#include "fuzz_input.h"
#include "program/props.h"
#include "program/requirements.h"
#include "program/vfselect.h"

#define MAX_PROGRAMS 4

static void decode_entry(fuzz_input_t *in, ur_program_metadata_t *e) {
    memset(e, 0, sizeof(*e));
    e->pName = fz_name(in, fz_prefixes, FZ_NUM_PREFIXES);
    switch (fz_u8(in) % 5) {
    case 0:
        e->type = UR_PROGRAM_METADATA_TYPE_UINT32;
        e->size = 4;
        e->value.data32 = (uint32_t)fz_u64(in, 4);
        break;
    case 1:
        e->type = UR_PROGRAM_METADATA_TYPE_UINT64;
        e->size = 8;
        e->value.data64 = fz_u64(in, 8);
        break;
    case 2: {
        e->type = UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY;
        uint8_t flags = fz_u8(in);
        size_t size = fz_u8(in);
        uint8_t *data = fz_bytes(in, size);
        // Usually a header that agrees with the size, so parsing gets past it.
        if (data != NULL && !(flags & 2) && size >= 8) {
            uint64_t bits = (uint64_t)(size - 8) * 8 - ((flags & 4) && size > 8 ? 3 : 0);
            for (int i = 0; i < 8; ++i)
                data[i] = (uint8_t)(bits >> (8 * i));
        }
        e->size = size;
        e->value.pData = (flags & 1) ? NULL : data;
        break;
    }
    case 3: {
        e->type = UR_PROGRAM_METADATA_TYPE_STRING;
        char *s = fz_string(in, 48);
        size_t len = s != NULL ? strlen(s) : 0;
        uint8_t mode = fz_u8(in) % 4;
        e->size = mode == 0 ? 0 : mode == 1 ? len : mode == 2 ? len + 1 : fz_u8(in);
        e->value.pString = s;
        break;
    }
    default:
        e->type = (ur_program_metadata_type_t)9;
        break;
    }
}

static void decode_caps(fuzz_input_t *in, urc_device_caps_t *caps) {
    memset(caps, 0, sizeof(*caps));
    for (int i = 0; i < 4; ++i)
        caps->aspects[i] = fz_u64(in, 8);
    caps->num_sub_group_sizes = fz_u8(in) % 9;
    for (uint32_t i = 0; i < caps->num_sub_group_sizes; ++i)
        caps->sub_group_sizes[i] = fz_u8(in);
    caps->max_work_group_size = (size_t)fz_u64(in, 2);
    for (int i = 0; i < 3; ++i)
        caps->max_work_item_sizes[i] = (size_t)fz_u64(in, 2);
}

// Reads every property back through each accessor; a broken invariant traps.
static void exercise(const urc_props_t *props) {
    char buf[16];
    const urc_prop_t *list[4];
    for (size_t i = 0; i < urc_props_count(props); ++i) {
        const urc_prop_t *p = urc_props_at(props, i);
        const urc_prop_t *f = urc_props_find(props, p->set, p->name);
        if (f == NULL || strcmp(f->set, p->set) != 0 || strcmp(f->name, p->name) != 0)
            __builtin_trap();
        if (p->type == UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY && !p->raw &&
            p->bits / 8 + (p->bits % 8 != 0) != p->size)
            __builtin_trap();
        urc_prop_text(p, buf, sizeof(buf));
        const char *text = urc_prop_text(p, NULL, 0);
        if (text != NULL && strlen(text) > p->size &&
            p->type == UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY)
            __builtin_trap();
        const uint8_t *data;
        size_t n;
        if (urc_prop_u32_array(p, &data, &n))
            for (size_t k = 0; k < n; ++k)
                (void)urc_prop_u32_at(data, k);
        size_t in_set = urc_props_list(props, p->set, list, 4);
        if (in_set == 0 || !urc_props_has_set(props, p->set))
            __builtin_trap();
        urc_props_global_symbol(props, p->name, buf, sizeof(buf));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input_t in = {.p = data, .n = size};
    size_t programs = fz_u8(&in) % MAX_PROGRAMS + 1;
    urc_props_t *props[MAX_PROGRAMS] = {NULL};
    bool all_parsed = true;
    for (size_t k = 0; k < programs; ++k) {
        ur_program_metadata_t entries[16];
        uint32_t count = fz_u8(&in) % 16;
        for (uint32_t i = 0; i < count; ++i)
            decode_entry(&in, &entries[i]);
        char err[128];
        ur_result_t r = urc_props_parse(entries, count, &props[k], err, sizeof(err));
        if (r == UR_RESULT_SUCCESS)
            exercise(props[k]);
        else if (r != UR_RESULT_ERROR_INVALID_VALUE || props[k] != NULL || err[0] == '\0')
            __builtin_trap();
        all_parsed &= r == UR_RESULT_SUCCESS;
    }
    urc_device_caps_t caps;
    decode_caps(&in, &caps);
    char msg[256];
    for (size_t k = 0; k < programs; ++k)
        if (props[k] != NULL)
            urc_check_requirements(props[k], &caps, msg, sizeof(msg));
    urc_props_t *merged = NULL;
    if (urc_props_merge((const urc_props_t *const *)props, programs, &merged) ==
        UR_RESULT_SUCCESS) {
        exercise(merged);
        urc_props_release(merged);
    }
    if (all_parsed) {
        bool selected[MAX_PROGRAMS];
        urc_vf_select((const urc_props_t *const *)props, programs, &caps, selected, msg,
                      sizeof(msg));
    }
    for (size_t k = 0; k < programs; ++k)
        urc_props_release(props[k]);
    fz_free_all(&in);
    return 0;
}
