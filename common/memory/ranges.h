// SPDX-License-Identifier: MIT
// Overflow-safe range checks of memory commands: a run of bytes in a buffer, and one side of a
// rectangular copy (origin, region, row and slice pitches). Every sum and product is checked,
// so no caller-chosen offset can wrap around to pass.
#ifndef URC_COMMON_MEMORY_RANGES_H
#define URC_COMMON_MEMORY_RANGES_H

#include <stdbool.h>
#include <stddef.h>

#include "ur_api.h"

/// offset + size <= total, without an addition that could wrap.
static inline bool urc_range_fits(size_t total, size_t offset, size_t size) {
    return offset <= total && size <= total - offset;
}

/// Applies UR's (and OpenCL's) default pitches to zero ones: row = region width, slice = row *
/// region height. False when the default slice pitch does not fit a size_t.
bool urc_rect_pitches(const ur_rect_region_t *region, size_t *row, size_t *slice);

/// One past the last byte a region (all extents at least 1) at `origin` touches, with these
/// pitches: origin.z * slice + origin.y * row + origin.x, plus (depth - 1) slices, (height - 1)
/// rows and width bytes. False when that does not fit a size_t.
bool urc_rect_end(ur_rect_offset_t origin, const ur_rect_region_t *region, size_t row, size_t slice,
                  size_t *end);

/// One side of a rectangular copy, as urc_rect_check leaves it.
typedef struct urc_rect_side_t {
    size_t row;    // row pitch, the default applied
    size_t slice;  // slice pitch, the default applied
    size_t offset; // bytes from the base to the origin
} urc_rect_side_t;

/// Checks one side of a rectangular copy as UR specifies: default pitches applied, the row
/// pitch at least the width, the slice pitch at least row pitch * height, and the region at
/// `origin` inside `limit` bytes from the base (SIZE_MAX for host memory). Fills `side`; on
/// failure returns UR_RESULT_ERROR_INVALID_SIZE with a message for urAdapterGetLastError.
ur_result_t urc_rect_check(urc_rect_side_t *side, ur_rect_offset_t origin,
                           const ur_rect_region_t *region, size_t row, size_t slice, size_t limit);

#endif // URC_COMMON_MEMORY_RANGES_H
