// SPDX-License-Identifier: MIT
// common/memory/ranges: overflow-safe buffer ranges and rectangular-copy sides.
#include <stdint.h>

#include "memory/ranges.h"
#include "urc_test.h"

START_TEST(range_fits_without_wrapping) {
    ck_assert(urc_range_fits(64, 0, 64));
    ck_assert(urc_range_fits(64, 64, 0));
    ck_assert(!urc_range_fits(64, 60, 8));
    ck_assert(!urc_range_fits(64, 65, 0));
    // 8 + (SIZE_MAX - 4) wraps to 3: a sum would accept it.
    ck_assert(!urc_range_fits(64, 8, SIZE_MAX - 4));
}
END_TEST

START_TEST(rect_pitches_default_to_the_region) {
    ur_rect_region_t r = {4, 3, 2};
    size_t row = 0, slice = 0;
    ck_assert(urc_rect_pitches(&r, &row, &slice));
    ck_assert_uint_eq(row, 4);
    ck_assert_uint_eq(slice, 12);
    row = 8;
    slice = 0;
    ck_assert(urc_rect_pitches(&r, &row, &slice));
    ck_assert_uint_eq(slice, 24);
    ur_rect_region_t tall = {1, SIZE_MAX, 1};
    row = 2;
    slice = 0;
    ck_assert(!urc_rect_pitches(&tall, &row, &slice));
}
END_TEST

START_TEST(rect_end_is_one_past_the_last_byte) {
    ur_rect_offset_t o = {2, 1, 1};
    ur_rect_region_t r = {4, 3, 2};
    size_t end = 0;
    // 1*64 + 1*8 + 2, plus one more slice, two more rows and the width.
    ck_assert(urc_rect_end(o, &r, 8, 64, &end));
    ck_assert_uint_eq(end, 64 + 8 + 2 + 64 + 16 + 4);
    ur_rect_offset_t far = {0, 0, SIZE_MAX / 2};
    ck_assert(!urc_rect_end(far, &r, 8, 64, &end));
}
END_TEST

START_TEST(rect_check_fills_the_side) {
    urc_rect_side_t s;
    ur_rect_offset_t o = {2, 1, 0};
    ur_rect_region_t r = {4, 3, 1};
    ck_assert_ur_ok(urc_rect_check(&s, o, &r, 8, 0, 32));
    ck_assert_uint_eq(s.row, 8);
    ck_assert_uint_eq(s.slice, 24);
    ck_assert_uint_eq(s.offset, 10);
    // The last row ends at 10 + 2*8 + 4 = 30; one byte less of memory is too little.
    ck_assert_ur(urc_rect_check(&s, o, &r, 8, 0, 29), UR_RESULT_ERROR_INVALID_SIZE);
}
END_TEST

START_TEST(rect_check_rejects_small_pitches) {
    urc_rect_side_t s;
    ur_rect_offset_t o = {0, 0, 0};
    ur_rect_region_t r = {4, 3, 1};
    ck_assert_ur(urc_rect_check(&s, o, &r, 3, 0, SIZE_MAX), UR_RESULT_ERROR_INVALID_SIZE);
    // UR's rule holds for one slice too: the slice pitch spans height rows.
    ck_assert_ur(urc_rect_check(&s, o, &r, 4, 11, SIZE_MAX), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urc_rect_check(&s, o, &r, 4, 12, SIZE_MAX));
}
END_TEST

START_TEST(rect_check_rejects_wrapping_origins) {
    urc_rect_side_t s;
    ur_rect_offset_t o = {0, SIZE_MAX / 4, 0};
    ur_rect_region_t r = {4, 3, 1};
    ck_assert_ur(urc_rect_check(&s, o, &r, 8, 0, SIZE_MAX), UR_RESULT_ERROR_INVALID_SIZE);
}
END_TEST

int main(void) {
    Suite *s = suite_create("ranges");
    TCase *tc = tcase_create("urc_range_fits");
    tcase_add_test(tc, range_fits_without_wrapping);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_rect_pitches");
    tcase_add_test(tc, rect_pitches_default_to_the_region);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_rect_end");
    tcase_add_test(tc, rect_end_is_one_past_the_last_byte);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_rect_check");
    tcase_add_test(tc, rect_check_fills_the_side);
    tcase_add_test(tc, rect_check_rejects_small_pitches);
    tcase_add_test(tc, rect_check_rejects_wrapping_origins);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
