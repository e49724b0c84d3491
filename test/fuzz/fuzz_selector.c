// SPDX-License-Identifier: MIT
// libFuzzer target over the environment-value parsers: ONEAPI_DEVICE_SELECTOR
// (urc_ods_parse, then matching and the pre-filter over what it read) and UR's list and map
// grammars (urc_kv_parse_list, urc_kv_parse_map).
//
// Input: a mode byte (bits 0-2: the map options reject_empty, allow_duplicate, lower), then
// the text, which stops at the first NUL.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "env/kvparse.h"
#include "env/selector.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void use_selector(const char *text) {
    urc_ods_t ods;
    char err[128];
    if (!urc_ods_parse(text, &ods, err, sizeof err))
        return;
    static const ur_backend_t backends[] = {UR_BACKEND_LEVEL_ZERO, UR_BACKEND_OPENCL,
                                            UR_BACKEND_CUDA, UR_BACKEND_OFFLOAD};
    static const ur_device_type_t types[] = {UR_DEVICE_TYPE_CPU, UR_DEVICE_TYPE_GPU,
                                             UR_DEVICE_TYPE_FPGA};
    for (size_t b = 0; b < sizeof backends / sizeof backends[0]; ++b)
        (void)urc_ods_backend_wanted(&ods, backends[b], types, 3);
    for (size_t t = 0; t < ods.count; ++t) {
        (void)urc_ods_term_applies(&ods.terms[t], UR_BACKEND_OPENCL);
        for (size_t i = 0; i < ods.terms[t].count; ++i)
            for (uint32_t k = 0; k < 3; ++k)
                (void)urc_ods_filter_matches(&ods.terms[t].filters[i], types[k], k, k + 1,
                                             URC_ODS_ANY);
    }
    urc_ods_free(&ods);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0)
        return 0;
    uint8_t mode = data[0];
    // An exact-size copy, NUL-terminated, so a read past the text is caught.
    char *text = malloc(size);
    if (text == NULL)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    use_selector(text);
    char err[128];
    urc_kv_list_t list;
    if (urc_kv_parse_list(text, &list, err, sizeof err))
        urc_kv_list_free(&list);
    urc_kv_map_t map;
    urc_kv_options_t opt = {
        .reject_empty = mode & 1, .allow_duplicate = mode & 2, .lower = mode & 4};
    if (urc_kv_parse_map(text, opt, &map, err, sizeof err)) {
        if (map.count > 0)
            (void)urc_kv_find(&map, map.entries[0].key);
        urc_kv_map_free(&map);
    }
    free(text);
    return 0;
}
