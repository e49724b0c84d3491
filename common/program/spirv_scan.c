// SPDX-License-Identifier: MIT
#include "program/spirv_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

enum {
    OP_ENTRY_POINT = 15,
    OP_EXECUTION_MODE = 16,
    OP_CAPABILITY = 17,
    OP_DECORATE = 71,
    MODEL_KERNEL = 6,
    MODE_LOCAL_SIZE = 17,
    MODE_CONTRACTION_OFF = 31,
    DECORATION_SPEC_ID = 1,
};

// SPIR-V's registered capability numbers fall in these ranges (core, then the blocks given
// to KHR/EXT, and to vendors: AMD, NVIDIA, Intel and others); a number outside them is not a
// capability any consumer knows, which the translator would otherwise ignore.
static bool known_capability(uint32_t c) {
    return c < 128 || (c >= 4096 && c < 4608) || (c >= 4992 && c < 6656);
}

static uint32_t swap32(uint32_t v) {
    return __builtin_bswap32(v);
}

bool urc_spirv_is(const void *data, size_t size) {
    if (data == NULL || size < 4)
        return false;
    uint32_t w;
    memcpy(&w, data, 4);
    return w == URC_SPIRV_MAGIC || w == swap32(URC_SPIRV_MAGIC);
}

uint32_t *urc_spirv_native_words(const void *data, size_t size) {
    uint32_t *w = urc_memdup(data, size);
    if (w == NULL || size < 4 || w[0] == URC_SPIRV_MAGIC)
        return w;
    for (size_t i = 0; i < size / 4; ++i)
        w[i] = swap32(w[i]);
    return w;
}

void urc_spirv_info_free(urc_spirv_info_t *info) {
    for (uint32_t i = 0; i < info->kernel_count; ++i)
        free(info->kernels[i].name);
    free(info->kernels);
    free(info->spec_ids);
    memset(info, 0, sizeof *info);
}

static urc_spirv_kernel_t *kernel_of(urc_spirv_info_t *info, uint32_t id) {
    for (uint32_t i = 0; i < info->kernel_count; ++i)
        if (info->kernels[i].id == id)
            return &info->kernels[i];
    return NULL;
}

// Grows an array by one element; false when out of memory.
static bool grow(void **array, uint32_t count, size_t elem) {
    void *p = realloc(*array, ((size_t)count + 1) * elem);
    if (p == NULL)
        return false;
    *array = p;
    return true;
}

static bool fail(urc_spirv_info_t *info, char *err, size_t err_size, const char *msg, size_t word) {
    urc_spirv_info_free(info);
    if (word != (size_t)-1)
        snprintf(err, err_size, "invalid SPIR-V module: %s (word %zu)", msg, word);
    else
        snprintf(err, err_size, "invalid SPIR-V module: %s", msg);
    return false;
}

bool urc_spirv_scan(const void *data, size_t size, urc_spirv_info_t *info, char *err,
                    size_t err_size) {
    memset(info, 0, sizeof *info);
    if (data == NULL || size < 20)
        return fail(info, err, err_size, "shorter than the 5-word header", (size_t)-1);
    if (size % 4 != 0)
        return fail(info, err, err_size, "its size is not a multiple of 4 bytes", (size_t)-1);
    if (!urc_spirv_is(data, size))
        return fail(info, err, err_size, "wrong magic number", 0);
    uint32_t *w = urc_spirv_native_words(data, size);
    if (w == NULL)
        return fail(info, err, err_size, "out of host memory", (size_t)-1);
    size_t n = size / 4;
    bool ok = false;
    const char *why = NULL;
    size_t at = (size_t)-1;
    info->version = w[1];
    uint32_t major = (w[1] >> 16) & 0xff, minor = (w[1] >> 8) & 0xff;
    if (major != 1 || minor > 6 || (w[1] & 0xff0000ffu) != 0) {
        why = "unsupported version", at = 1;
        goto out;
    }
    if (w[3] == 0) {
        why = "id bound of 0", at = 3;
        goto out;
    }
    for (size_t i = 5; i < n;) {
        uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
        if (count == 0 || count > n - i) {
            why = count == 0 ? "instruction of 0 words" : "instruction runs past the end";
            at = i;
            goto out;
        }
        const uint32_t *ins = w + i;
        if (op == OP_ENTRY_POINT && count >= 4 && ins[1] == MODEL_KERNEL) {
            const char *name = (const char *)(ins + 3);
            size_t room = ((size_t)count - 3) * 4;
            size_t len = strnlen(name, room);
            if (len == room) {
                why = "entry-point name without its NUL", at = i;
                goto out;
            }
            if (!grow((void **)&info->kernels, info->kernel_count, sizeof *info->kernels)) {
                why = "out of host memory";
                goto out;
            }
            urc_spirv_kernel_t *k = &info->kernels[info->kernel_count];
            memset(k, 0, sizeof *k);
            k->id = ins[2];
            k->name = urc_memdup(name, len + 1);
            if (k->name == NULL) {
                why = "out of host memory";
                goto out;
            }
            ++info->kernel_count;
        } else if (op == OP_EXECUTION_MODE && count >= 3) {
            // Entry points come before execution modes in a valid module's layout.
            urc_spirv_kernel_t *k = kernel_of(info, ins[1]);
            if (k != NULL && ins[2] == MODE_LOCAL_SIZE && count >= 6)
                memcpy(k->local, ins + 3, sizeof k->local);
            if (k != NULL && ins[2] == MODE_CONTRACTION_OFF)
                k->contraction_off = info->contraction_off = true;
        } else if (op == OP_CAPABILITY && count >= 2 && !known_capability(ins[1])) {
            why = "unknown capability", at = i;
            goto out;
        } else if (op == OP_DECORATE && count >= 4 && ins[2] == DECORATION_SPEC_ID) {
            if (!grow((void **)&info->spec_ids, info->spec_count, sizeof *info->spec_ids)) {
                why = "out of host memory";
                goto out;
            }
            info->spec_ids[info->spec_count++] = ins[3];
        }
        i += count;
    }
    ok = true;
out:
    free(w);
    if (!ok)
        return fail(info, err, err_size, why, at);
    return true;
}
