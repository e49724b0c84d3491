// SPDX-License-Identifier: MIT
// The layout of urEnqueueUSMFill2D: the pattern runs through the region's bytes row after row
// (byte c of row r is pattern[(r * width + c) % patternSize]), so a pattern longer than a row,
// or a row width that is not a multiple of the pattern, carries on into the next row. UR's
// specification allows both (only width * height must be a multiple of the pattern).
#ifndef URC_COMMON_MEMORY_FILL_H
#define URC_COMMON_MEMORY_FILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// True when every row starts with the pattern's first byte (width is a multiple of the
/// pattern), so each row is an ordinary 1D fill.
static inline bool urc_fill2d_rows_whole(size_t width, size_t pattern_size) {
    return pattern_size != 0 && width % pattern_size == 0;
}

/// Writes the region's bytes, rows packed one after another (width * height bytes), into `out`.
void urc_fill2d_expand(uint8_t *out, const void *pattern, size_t pattern_size, size_t width,
                       size_t height);

/// urc_fill2d_expand into a new buffer (free it), or NULL when width * height overflows or
/// memory runs out.
uint8_t *urc_fill2d_image(const void *pattern, size_t pattern_size, size_t width, size_t height);

#endif // URC_COMMON_MEMORY_FILL_H
