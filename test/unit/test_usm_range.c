// SPDX-License-Identifier: MIT
// common/usm_range: a range inside one USM allocation, the lookup being the adapter's.
#include <stdint.h>

#include "urc_test.h"
#include "usm_range.h"

static unsigned char alloc[256];

static bool lookup(void *backend, const void *ptr, const void **base, size_t *size) {
    (void)backend;
    if ((const unsigned char *)ptr < alloc || (const unsigned char *)ptr >= alloc + sizeof alloc)
        return false;
    *base = alloc;
    *size = sizeof alloc;
    return true;
}

START_TEST(ranges_inside_the_allocation_pass) {
    ck_assert_ur(urc_usm_range_check(lookup, NULL, alloc, 256), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_usm_range_check(lookup, NULL, alloc + 255, 1), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_usm_range_check(lookup, NULL, alloc + 128, 0), UR_RESULT_SUCCESS);
    // Memory the driver does not know is the caller's to bound.
    unsigned char host[4];
    ck_assert_ur(urc_usm_range_check(lookup, NULL, host, 1000), UR_RESULT_SUCCESS);
}
END_TEST

START_TEST(ranges_past_the_end_are_invalid_sizes) {
    ck_assert_ur(urc_usm_range_check(lookup, NULL, alloc, 257), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_usm_range_check(lookup, NULL, alloc + 200, 57), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_usm_range_check(lookup, NULL, alloc + 1, SIZE_MAX),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_usm_range_check(lookup, NULL, alloc, SIZE_MAX / 2 + 1),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_usm_range_check(NULL, NULL, (void *)(UINTPTR_MAX - 4), 8),
                 UR_RESULT_ERROR_INVALID_SIZE);
}
END_TEST

START_TEST(rectangles_are_checked_to_their_last_row) {
    ck_assert_ur(urc_usm_range_check_2d(lookup, NULL, alloc, 64, 64, 4), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_usm_range_check_2d(lookup, NULL, alloc, 80, 16, 4), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_usm_range_check_2d(lookup, NULL, alloc, 80, 32, 4),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_usm_range_check_2d(lookup, NULL, alloc, SIZE_MAX / 2 + 1, 1, 3),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_usm_range_check_2d(lookup, NULL, alloc, 64, SIZE_MAX, 1),
                 UR_RESULT_ERROR_INVALID_SIZE);
}
END_TEST

START_TEST(host_limits_end_at_the_allocation_or_user_memory) {
    ck_assert_uint_eq(urc_usm_host_limit(lookup, NULL, alloc + 56), 200);
    unsigned char host[4];
    size_t limit = urc_usm_host_limit(lookup, NULL, host);
    ck_assert_uint_gt(limit, 1u << 30);
    ck_assert_uint_lt(limit, SIZE_MAX / 2);
    ck_assert_uint_eq(urc_usm_host_limit(NULL, NULL, (void *)URC_USER_ADDRESS_END), 0);
}
END_TEST

int main(void) {
    Suite *s = suite_create("usm_range");
    TCase *tc = tcase_create("urc_usm_range_check");
    tcase_add_test(tc, ranges_inside_the_allocation_pass);
    tcase_add_test(tc, ranges_past_the_end_are_invalid_sizes);
    tcase_add_test(tc, rectangles_are_checked_to_their_last_row);
    tcase_add_test(tc, host_limits_end_at_the_allocation_or_user_memory);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
