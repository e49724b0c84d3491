// SPDX-License-Identifier: MIT
#include "queue/command_rules.h"

#include <stdbool.h>

#include "core/error.h"
#include "queue/command_buffer.h"

static bool power_of_two(size_t n) {
    return n != 0 && (n & (n - 1)) == 0;
}

static ur_result_t usm_range(const urc_rules_t *r, const void *ptr, size_t size) {
    return urc_usm_range_check(r != NULL ? r->lookup : NULL, r != NULL ? r->backend : NULL, ptr,
                               size);
}

/// `height` whole rows of `pitch` bytes from `ptr` inside its allocation (UR's pitch * height).
static ur_result_t usm_rows(const urc_rules_t *r, const void *ptr, size_t pitch, size_t height) {
    if (pitch > SIZE_MAX / height)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "%zu rows of %zu bytes overflow a size_t", height, pitch);
    return usm_range(r, ptr, pitch * height);
}

ur_result_t urc_rule_usm_memcpy(const urc_rules_t *r, const void *dst, const void *src,
                                size_t size) {
    if (size == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0, "a USM copy of 0 bytes");
    ur_result_t res = usm_range(r, dst, size);
    return res != UR_RESULT_SUCCESS ? res : usm_range(r, src, size);
}

ur_result_t urc_rule_usm_fill(const urc_rules_t *r, const void *ptr, size_t pattern_size,
                              size_t size) {
    if (pattern_size == 0 || size == 0 || pattern_size > size || size % pattern_size != 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "a USM fill of %zu bytes with a pattern of %zu (the pattern must "
                             "divide the size)",
                             size, pattern_size);
    return usm_range(r, ptr, size);
}

ur_result_t urc_rule_usm_hint(const urc_rules_t *r, const void *ptr, size_t size) {
    if (size == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "a USM prefetch or advice of 0 bytes");
    return usm_range(r, ptr, size);
}

ur_result_t urc_rule_usm_memcpy_2d(const urc_rules_t *r, const void *dst, size_t dst_pitch,
                                   const void *src, size_t src_pitch, size_t width, size_t height) {
    if (dst_pitch == 0 || src_pitch == 0 || width > dst_pitch || width > src_pitch || height == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "a 2D USM copy of %zu x %zu bytes at pitches %zu (destination) and "
                             "%zu (source)",
                             width, height, dst_pitch, src_pitch);
    ur_result_t res = usm_rows(r, dst, dst_pitch, height);
    return res != UR_RESULT_SUCCESS ? res : usm_rows(r, src, src_pitch, height);
}

ur_result_t urc_rule_usm_fill_2d(const urc_rules_t *r, const void *ptr, size_t pitch,
                                 size_t pattern_size, size_t width, size_t height) {
    if (pitch == 0 || width > pitch || width == 0 || height == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "a 2D USM fill of %zu x %zu bytes at pitch %zu", width, height, pitch);
    if (width > SIZE_MAX / height)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "a 2D fill of %zu x %zu bytes overflows a size_t", width, height);
    size_t bytes = width * height;
    if (!power_of_two(pattern_size) || pattern_size > bytes || bytes % pattern_size != 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "a 2D fill of %zu bytes with a pattern of %zu (a power of two that "
                             "divides width * height)",
                             bytes, pattern_size);
    return usm_rows(r, ptr, pitch, height);
}

ur_result_t urc_rule_buffer_range(size_t total, size_t offset, size_t size) {
    if (!urc_range_fits(total, offset, size))
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "%zu bytes at offset %zu pass the end of a buffer of %zu", size,
                             offset, total);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_rule_buffer_fill(size_t total, size_t offset, size_t pattern_size, size_t size) {
    if (size == 0 || !power_of_two(pattern_size) || pattern_size > size ||
        size % pattern_size != 0 || offset % pattern_size != 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "a buffer fill of %zu bytes at offset %zu with a pattern of %zu (a "
                             "power of two dividing both)",
                             size, offset, pattern_size);
    return urc_rule_buffer_range(total, offset, size);
}

ur_result_t urc_rule_rect(urc_rect_side_t *side, ur_rect_offset_t origin,
                          const ur_rect_region_t *region, size_t row, size_t slice, size_t limit) {
    if (region->width == 0 || region->height == 0 || region->depth == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "an empty rectangle (%zu x %zu x %zu)", (size_t)region->width,
                             (size_t)region->height, (size_t)region->depth);
    return urc_rect_check(side, origin, region, row, slice, limit);
}

ur_result_t urc_rule_launch(const urc_rules_t *r, uint32_t dims, const size_t *offset,
                            const size_t *global, const size_t *local) {
    return urc_launch_check(dims, offset, global, local, r != NULL ? &r->limits : NULL);
}

ur_result_t urc_rule_arg_indices(uint32_t n, const ur_exp_kernel_arg_properties_t *args,
                                 uint32_t count) {
    for (uint32_t i = 0; i < n; ++i) {
        ur_result_t res = urc_launch_check_arg_index(args[i].index, count);
        if (res != UR_RESULT_SUCCESS)
            return res;
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_rule_update(const urc_rules_t *r, const struct urc_cb_command_t *cmd,
                            const ur_exp_command_buffer_update_kernel_launch_desc_t *u,
                            urc_rules_arg_count_fn arg_count) {
    uint32_t dims = 0;
    size_t offset[3], global[3], local[3];
    bool has_local = false;
    urc_cb_update_launch(cmd, u, &dims, offset, global, local, &has_local);
    ur_result_t res = urc_rule_launch(r, dims, offset, global, has_local ? local : NULL);
    if (res != UR_RESULT_SUCCESS)
        return res;
    const void *kernel = u->hNewKernel != NULL ? (const void *)u->hNewKernel : cmd->k.kernel;
    uint32_t count = arg_count != NULL ? arg_count(kernel) : UINT32_MAX;
    for (uint32_t i = 0; i < u->numNewValueArgs && res == UR_RESULT_SUCCESS; ++i)
        res = urc_launch_check_arg_index(u->pNewValueArgList[i].argIndex, count);
    for (uint32_t i = 0; i < u->numNewMemObjArgs && res == UR_RESULT_SUCCESS; ++i)
        res = urc_launch_check_arg_index(u->pNewMemObjArgList[i].argIndex, count);
    for (uint32_t i = 0; i < u->numNewPointerArgs && res == UR_RESULT_SUCCESS; ++i)
        res = urc_launch_check_arg_index(u->pNewPointerArgList[i].argIndex, count);
    return res;
}
