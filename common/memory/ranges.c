// SPDX-License-Identifier: MIT
// Overflow-safe range checks of memory commands (ranges.h).
#include "memory/ranges.h"

#include "core/error.h"

bool urc_rect_pitches(const ur_rect_region_t *region, size_t *row, size_t *slice) {
    if (*row == 0)
        *row = region->width;
    return *slice != 0 || !__builtin_mul_overflow(*row, (size_t)region->height, slice);
}

// *acc += a * b; false on overflow.
static bool add_product(size_t *acc, size_t a, size_t b) {
    size_t t;
    return !__builtin_mul_overflow(a, b, &t) && !__builtin_add_overflow(*acc, t, acc);
}

bool urc_rect_end(ur_rect_offset_t origin, const ur_rect_region_t *region, size_t row, size_t slice,
                  size_t *end) {
    // Every term is non-negative, so the sum overflows exactly when some step does.
    size_t e = (size_t)origin.x;
    return add_product(&e, (size_t)origin.z, slice) && add_product(&e, (size_t)origin.y, row) &&
           add_product(&e, (size_t)region->depth - 1, slice) &&
           add_product(&e, (size_t)region->height - 1, row) &&
           !__builtin_add_overflow(e, (size_t)region->width, end);
}

ur_result_t urc_rect_check(urc_rect_side_t *side, ur_rect_offset_t origin,
                           const ur_rect_region_t *region, size_t row, size_t slice, size_t limit) {
    size_t plane, end;
    side->row = row;
    side->slice = slice;
    if (!urc_rect_pitches(region, &side->row, &side->slice) || side->row < region->width ||
        __builtin_mul_overflow(side->row, (size_t)region->height, &plane) || side->slice < plane)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "rectangular copy: a pitch is smaller than the region it spans");
    if (!urc_rect_end(origin, region, side->row, side->slice, &end) || end > limit)
        return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                             "rectangular copy: the region runs past the end of the memory");
    // No overflow: the origin's offset is part of the end just computed.
    side->offset = (size_t)origin.z * side->slice + (size_t)origin.y * side->row + origin.x;
    return UR_RESULT_SUCCESS;
}
