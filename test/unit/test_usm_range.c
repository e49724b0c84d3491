// SPDX-License-Identifier: MIT
// common/memory/usm_range: a range inside one USM allocation, the lookup being the adapter's.
#include <stdint.h>

#include "urc_test.h"
#include "memory/usm_range.h"

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

// A driver lookup that counts its calls and whose one allocation can move.
static unsigned char *moving_base = alloc;
static size_t moving_size = sizeof alloc;
static int driver_lookups;

static bool counting_lookup(void *backend, const void *ptr, const void **base, size_t *size) {
    ck_assert_ptr_eq(backend, &driver_lookups);
    ++driver_lookups;
    const unsigned char *p = ptr;
    if (p < moving_base || p >= moving_base + moving_size)
        return false;
    *base = moving_base;
    *size = moving_size;
    return true;
}

static urc_usm_lookup_cache_t cache = {.lookup = counting_lookup, .backend = &driver_lookups};

START_TEST(cached_answers_are_reused_until_forgotten) {
    driver_lookups = 0;
    urc_usm_lookup_cache_forget(&cache);
    static unsigned char host[64];
    for (int i = 0; i < 10; ++i) {
        ck_assert_ur(urc_usm_range_check(urc_usm_lookup_cached, &cache, alloc + i, 16),
                     UR_RESULT_SUCCESS);
        ck_assert_ur(urc_usm_range_check(urc_usm_lookup_cached, &cache, host, 64),
                     UR_RESULT_SUCCESS);
    }
    ck_assert_int_eq(driver_lookups, 2); // one per pointer, then remembered
    ck_assert_ur(urc_usm_range_check(urc_usm_lookup_cached, &cache, alloc + 250, 7),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_int_eq(driver_lookups, 2);

    // The allocation shrinks: a remembered answer would let 200 bytes through.
    moving_size = 100;
    urc_usm_lookup_cache_forget(&cache);
    ck_assert_ur(urc_usm_range_check(urc_usm_lookup_cached, &cache, alloc, 200),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_int_eq(driver_lookups, 3);
    // Past its new end the bytes are unknown memory, the caller's to bound.
    ck_assert_ur(urc_usm_range_check(urc_usm_lookup_cached, &cache, alloc + 150, 200),
                 UR_RESULT_SUCCESS);
    moving_size = sizeof alloc;
    urc_usm_lookup_cache_forget(&cache);
}
END_TEST

START_TEST(unknown_answers_end_when_memory_appears) {
    driver_lookups = 0;
    unsigned char *saved = moving_base;
    static unsigned char other[128];
    moving_base = NULL;
    moving_size = 0;
    urc_usm_lookup_cache_forget(&cache);
    ck_assert_ur(urc_usm_range_check(urc_usm_lookup_cached, &cache, other, 1000),
                 UR_RESULT_SUCCESS);
    ck_assert_ur(urc_usm_range_check(urc_usm_lookup_cached, &cache, other, 1000),
                 UR_RESULT_SUCCESS);
    ck_assert_int_eq(driver_lookups, 1);
    moving_base = other; // allocated: the adapter forgets on every allocation
    moving_size = sizeof other;
    urc_usm_lookup_cache_forget(&cache);
    ck_assert_ur(urc_usm_range_check(urc_usm_lookup_cached, &cache, other, 1000),
                 UR_RESULT_ERROR_INVALID_SIZE);
    moving_base = saved;
    moving_size = sizeof alloc;
    urc_usm_lookup_cache_forget(&cache);
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
    tc = tcase_create("urc_usm_lookup_cached");
    tcase_add_test(tc, cached_answers_are_reused_until_forgotten);
    tcase_add_test(tc, unknown_answers_end_when_memory_appears);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
