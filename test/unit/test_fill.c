// SPDX-License-Identifier: MIT
// common/memory/fill: the byte layout of a 2D USM fill, against a byte-by-byte reference.
#include <stdint.h>
#include <stdlib.h>

#include "memory/fill.h"
#include "urc_test.h"

static const size_t shapes[][3] = {
    // pattern size, width, height: whole rows, patterns longer than a row, rows that split one
    {1, 1, 1},  {1, 57, 3},  {4, 256, 1}, {256, 256, 4},  {128, 256, 35},
    {8, 12, 2}, {16, 4, 8},  {64, 16, 4}, {4096, 64, 64}, {65536, 256, 256},
    {2, 3, 2},  {32, 8, 12}, {4, 6, 6},
};
#define SHAPE_COUNT ((int)(sizeof shapes / sizeof shapes[0]))

START_TEST(expand_matches_the_reference) {
    size_t psize = shapes[_i][0], width = shapes[_i][1], height = shapes[_i][2];
    uint8_t *pattern = malloc(psize);
    ck_assert_ptr_nonnull(pattern);
    for (size_t i = 0; i < psize; ++i)
        pattern[i] = (uint8_t)(i * 7 + i / 251 + 1);
    uint8_t *image = urc_fill2d_image(pattern, psize, width, height);
    ck_assert_ptr_nonnull(image);
    for (size_t r = 0; r < height; ++r)
        for (size_t c = 0; c < width; ++c)
            ck_assert_msg(image[r * width + c] == pattern[(r * width + c) % psize],
                          "pattern %zu, %zux%zu: byte (%zu, %zu)", psize, width, height, r, c);
    free(image);
    free(pattern);
}
END_TEST

START_TEST(rows_whole_only_for_multiples) {
    ck_assert(urc_fill2d_rows_whole(256, 4));
    ck_assert(urc_fill2d_rows_whole(4, 4));
    ck_assert(!urc_fill2d_rows_whole(256, 65536));
    ck_assert(!urc_fill2d_rows_whole(6, 4));
    ck_assert(!urc_fill2d_rows_whole(6, 0));
}
END_TEST

START_TEST(image_refuses_overflow) {
    uint8_t p = 1;
    ck_assert_ptr_null(urc_fill2d_image(&p, 1, SIZE_MAX, 2));
    ck_assert_ptr_null(urc_fill2d_image(&p, 0, 4, 4));
}
END_TEST

int main(void) {
    Suite *s = suite_create("fill");
    TCase *tc = tcase_create("urc_fill2d");
    tcase_add_loop_test(tc, expand_matches_the_reference, 0, SHAPE_COUNT);
    tcase_add_test(tc, rows_whole_only_for_multiples);
    tcase_add_test(tc, image_refuses_overflow);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
