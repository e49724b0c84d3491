// SPDX-License-Identifier: MIT
#include "memory/fill.h"

#include <stdlib.h>
#include <string.h>

void urc_fill2d_expand(uint8_t *out, const void *pattern, size_t pattern_size, size_t width,
                       size_t height) {
    size_t total = width * height;
    // Copy the pattern once, then double what is written: O(log n) memcpy calls.
    size_t done = total < pattern_size ? total : pattern_size;
    memcpy(out, pattern, done);
    while (done < total) {
        size_t n = done <= total - done ? done : total - done;
        // Copies from the start keep the phase: `done` is a multiple of the pattern size.
        memcpy(out + done, out, n);
        done += n;
    }
}

uint8_t *urc_fill2d_image(const void *pattern, size_t pattern_size, size_t width, size_t height) {
    size_t total;
    if (pattern_size == 0 || __builtin_mul_overflow(width, height, &total) || total == 0)
        return NULL;
    uint8_t *out = malloc(total);
    if (out != NULL)
        urc_fill2d_expand(out, pattern, pattern_size, width, height);
    return out;
}
