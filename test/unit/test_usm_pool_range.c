// SPDX-License-Identifier: MIT
// common/pool/pool_in_range: a pool in the caller's memory. The range allocator alone (first fit,
// alignment, merging, exhaustion, overlaps), then a urc_pool_t over it: every allocation lies
// in the buffer, none overlaps another, the buffer bounds what the pool holds, and destroying
// the pool leaves the buffer to its owner.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pool/pool_in_range.h"
#include "urc_test.h"

#define BUF ((size_t)1 << 20)

static unsigned char *buf;

static void setup(void) {
    buf = aligned_alloc(1 << 16, BUF);
    ck_assert_ptr_nonnull(buf);
}

static void teardown(void) {
    free(buf);
}

static bool inside(const void *p, size_t size) {
    return (const unsigned char *)p >= buf && (const unsigned char *)p + size <= buf + BUF;
}

START_TEST(carves_aligned_blocks_inside) {
    urc_pool_range_t *r = NULL;
    ck_assert_ur_ok(
        urc_pool_range_create(buf, BUF, UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, NULL, NULL, &r));
    void *a = NULL, *b = NULL, *c = NULL;
    ck_assert_ur_ok(urc_pool_range_ops.alloc(r, 100, 1, false, &a));
    ck_assert_ur_ok(urc_pool_range_ops.alloc(r, 4096, 4096, false, &b));
    ck_assert_ur_ok(urc_pool_range_ops.alloc(r, 10, 1 << 16, false, &c));
    ck_assert(inside(a, 100) && inside(b, 4096) && inside(c, 10));
    ck_assert_uint_eq((uintptr_t)b % 4096, 0);
    ck_assert_uint_eq((uintptr_t)c % (1 << 16), 0);
    ck_assert((unsigned char *)a + 100 <= (unsigned char *)b);
    ck_assert((unsigned char *)b + 4096 <= (unsigned char *)c);
    // Freed blocks merge back: the whole buffer fits again.
    ck_assert_ur_ok(urc_pool_range_ops.free(r, b));
    ck_assert_ur_ok(urc_pool_range_ops.free(r, a));
    ck_assert_ur_ok(urc_pool_range_ops.free(r, c));
    void *all = NULL;
    ck_assert_ur_ok(urc_pool_range_ops.alloc(r, BUF, 1, false, &all));
    ck_assert_ptr_eq(all, buf);
    ck_assert_ur_ok(urc_pool_range_ops.free(r, all));
    urc_pool_range_destroy(r);
}
END_TEST

START_TEST(full_and_foreign_frees) {
    urc_pool_range_t *r = NULL;
    ck_assert_ur_ok(
        urc_pool_range_create(buf, 4096, UR_RESULT_ERROR_OUT_OF_HOST_MEMORY, NULL, NULL, &r));
    void *a = NULL, *b = NULL;
    ck_assert_ur_ok(urc_pool_range_ops.alloc(r, 3000, 1, false, &a));
    ck_assert_ur(urc_pool_range_ops.alloc(r, 2000, 1, false, &b),
                 UR_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    ck_assert_ur(urc_pool_range_ops.free(r, (char *)a + 1), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urc_pool_range_ops.free(r, a));
    ck_assert_ur(urc_pool_range_ops.free(r, a), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    urc_pool_range_destroy(r);
}
END_TEST

START_TEST(overlapping_ranges_are_refused) {
    urc_pool_range_t *r = NULL, *s = NULL;
    ck_assert_ur_ok(urc_pool_range_create(buf + 4096, 8192, UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY,
                                          NULL, NULL, &r));
    const ur_result_t oom = UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    ck_assert_ur(urc_pool_range_create(buf, 4097, oom, NULL, NULL, &s),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_pool_range_create(buf + 8192, 100, oom, NULL, NULL, &s),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_pool_range_create(buf + 12287, 10, oom, NULL, NULL, &s),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Touching is not overlapping.
    ck_assert_ur_ok(urc_pool_range_create(buf, 4096, oom, NULL, NULL, &s));
    urc_pool_range_destroy(s);
    ck_assert_ur(urc_pool_range_create((void *)(UINTPTR_MAX - 10), 100, oom, NULL, NULL, &s),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_pool_range_create(buf, 0, oom, NULL, NULL, &s), UR_RESULT_ERROR_INVALID_VALUE);
    // A destroyed range no longer blocks its memory.
    urc_pool_range_destroy(r);
    ck_assert_ur_ok(urc_pool_range_create(buf, BUF, oom, NULL, NULL, &s));
    urc_pool_range_destroy(s);
}
END_TEST

static int zeroed_calls;
static ur_result_t zero(void *arg, void *ptr, size_t size) {
    ck_assert_ptr_eq(arg, &zeroed_calls);
    ++zeroed_calls;
    memset(ptr, 0, size);
    return UR_RESULT_SUCCESS;
}

START_TEST(pool_over_the_range) {
    urc_pool_range_t *r = NULL;
    ck_assert_ur_ok(urc_pool_range_create(buf, BUF, UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, zero,
                                          &zeroed_calls, &r));
    memset(buf, 0xA5, BUF);
    urc_pool_config_t c = {.min_driver_alloc = URC_POOL_BUFFER_MIN_SLAB,
                           .max_size = BUF,
                           .zero_init = true,
                           .max_align = 4096};
    urc_pool_t *p = NULL;
    ck_assert_ur_ok(urc_pool_create(&urc_pool_range_ops, r, NULL, &c, &p));
    enum { N = 200 };
    void *v[N];
    size_t sizes[N];
    for (int i = 0; i < N; ++i) {
        sizes[i] = (size_t)(i % 7 + 1) * 100;
        ck_assert_ur_ok(urc_pool_alloc(p, sizes[i], 0, &v[i]));
        ck_assert(inside(v[i], sizes[i]));
        // Blocks come zeroed from the range.
        for (size_t k = 0; k < sizes[i]; ++k)
            ck_assert_uint_eq(((unsigned char *)v[i])[k], 0);
        memset(v[i], i, sizes[i]);
    }
    ck_assert_int_gt(zeroed_calls, 0);
    for (int i = 0; i < N; ++i)
        for (size_t k = 0; k < sizes[i]; ++k)
            ck_assert_uint_eq(((unsigned char *)v[i])[k], (unsigned char)i);
    // A large block (above the poolable size) comes from the range too.
    void *big = NULL;
    ck_assert_ur_ok(urc_pool_alloc(p, (size_t)512 << 10, 0, &big));
    ck_assert(inside(big, (size_t)512 << 10));
    // The buffer bounds the pool: no more than it holds.
    void *too_big = NULL;
    ck_assert_ur(urc_pool_alloc(p, BUF, 0, &too_big), UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    urc_pool_stats_t st;
    urc_pool_stats(p, &st);
    ck_assert_uint_le(st.reserved, BUF);
    ck_assert_ur_ok(urc_pool_free(p, big));
    for (int i = 0; i < N; ++i)
        ck_assert_ur_ok(urc_pool_free(p, v[i]));
    urc_pool_trim(p, 0);
    urc_pool_stats(p, &st);
    ck_assert_uint_eq(st.reserved, 0);
    urc_pool_destroy(p);
    urc_pool_range_destroy(r);
}
END_TEST

int main(void) {
    Suite *s = suite_create("usm_pool_range");
    TCase *tc = tcase_create("urc_pool_range");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, carves_aligned_blocks_inside);
    tcase_add_test(tc, full_and_foreign_frees);
    tcase_add_test(tc, overlapping_ranges_are_refused);
    tcase_add_test(tc, pool_over_the_range);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
