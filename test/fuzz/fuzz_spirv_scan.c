// SPDX-License-Identifier: MIT
// libFuzzer target over the SPIR-V scanner (common/program/spirv_scan.c), the one part of the
// SPIR-V path that reads untrusted modules inside the user's process: the translator runs in
// its own (docs/spirv.md). Seeds: the project's kernels as SPIR-V (corpus/spirv_scan).
//
// Input: the module's bytes. A module the scanner accepts is walked again in the other byte
// order, which must give the same facts.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "program/spirv_scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const urc_spirv_info_t *info) {
    for (uint32_t i = 0; i < info->kernel_count; ++i) {
        // Every name is a whole C string; reading it must stay inside its allocation.
        if (strlen(info->kernels[i].name) > 1u << 24)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char err[256];
    urc_spirv_info_t info;
    bool ok = urc_spirv_scan(data, size, &info, err, sizeof err);
    (void)urc_spirv_is(data, size);
    if (!ok) {
        if (err[0] == '\0')
            abort(); // a refusal always says why
        return 0;
    }
    check(&info);
    uint32_t *swapped = urc_spirv_native_words(data, size);
    if (swapped != NULL) {
        for (size_t i = 0; i < size / 4; ++i)
            swapped[i] = __builtin_bswap32(swapped[i]);
        urc_spirv_info_t other;
        if (!urc_spirv_scan(swapped, size, &other, err, sizeof err) ||
            other.kernel_count != info.kernel_count || other.spec_count != info.spec_count ||
            other.contraction_off != info.contraction_off)
            abort();
        for (uint32_t i = 0; i < info.kernel_count; ++i)
            if (strcmp(other.kernels[i].name, info.kernels[i].name) != 0 ||
                memcmp(other.kernels[i].local, info.kernels[i].local, sizeof info.kernels[i].local))
                abort();
        urc_spirv_info_free(&other);
        free(swapped);
    }
    urc_spirv_info_free(&info);
    return 0;
}
