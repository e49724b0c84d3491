// SPDX-License-Identifier: MIT
// common/pool/pool_allocator: the pool over a fake driver (aligned_alloc) that counts its calls.
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "pool/pool_allocator.h"
#include "urc_test.h"

// ---- fake driver ----

typedef struct fake_driver_t {
    atomic_int allocs, frees, live;
    atomic_size_t bytes;
    _Atomic size_t last_align; // written by many threads in the thread cases
    atomic_bool last_zero;
    bool fail;
} fake_driver_t;

static fake_driver_t drv;

static ur_result_t fake_alloc(void *native, size_t size, size_t align, bool zero, void **out) {
    ck_assert_ptr_eq(native, &drv);
    if (drv.fail)
        return UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    size_t a = align < sizeof(void *) ? sizeof(void *) : align;
    void *p = aligned_alloc(a, (size + a - 1) / a * a);
    if (p == NULL)
        return UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    // A real driver's memory is not zero: make that visible.
    memset(p, zero ? 0 : 0xA5, size);
    drv.last_align = align;
    drv.last_zero = zero;
    atomic_fetch_add(&drv.allocs, 1);
    atomic_fetch_add(&drv.live, 1);
    atomic_fetch_add(&drv.bytes, size);
    *out = p;
    return UR_RESULT_SUCCESS;
}

static ur_result_t fake_free(void *native, void *ptr) {
    ck_assert_ptr_eq(native, &drv);
    free(ptr);
    atomic_fetch_add(&drv.frees, 1);
    atomic_fetch_sub(&drv.live, 1);
    return UR_RESULT_SUCCESS;
}

static const urc_pool_ops_t ops = {fake_alloc, fake_free};
static int owner_tag;

static void setup(void) {
    memset(&drv, 0, sizeof drv);
}

static urc_pool_t *make(const urc_pool_config_t *config) {
    urc_pool_t *p = NULL;
    ck_assert_ur_ok(urc_pool_create(&ops, &drv, &owner_tag, config, &p));
    return p;
}

static urc_pool_stats_t stats(urc_pool_t *p) {
    urc_pool_stats_t s;
    urc_pool_stats(p, &s);
    return s;
}

// ---- allocation ----

START_TEST(small_allocations_share_one_driver_block) {
    urc_pool_t *p = make(NULL);
    void *a[100];
    for (int i = 0; i < 100; ++i) {
        ck_assert_ur_ok(urc_pool_alloc(p, 256, 0, &a[i]));
        memset(a[i], i, 256);
    }
    ck_assert_int_eq(atomic_load(&drv.allocs), 1);
    for (int i = 0; i < 100; ++i) {
        ck_assert_int_eq(((unsigned char *)a[i])[255], i);
        for (int j = 0; j < i; ++j)
            ck_assert_ptr_ne(a[i], a[j]);
    }
    for (int i = 0; i < 100; ++i)
        ck_assert_ur_ok(urc_pool_free(p, a[i]));
    ck_assert_int_eq(atomic_load(&drv.frees), 0); // kept for reuse
    urc_pool_destroy(p);
    ck_assert_int_eq(atomic_load(&drv.live), 0);
}
END_TEST

START_TEST(freed_chunk_is_reused) {
    urc_pool_t *p = make(NULL);
    void *a = NULL, *b = NULL;
    ck_assert_ur_ok(urc_pool_alloc(p, 100, 0, &a));
    ck_assert_ur_ok(urc_pool_free(p, a));
    ck_assert_ur_ok(urc_pool_alloc(p, 128, 0, &b));
    ck_assert_ptr_eq(a, b);
    urc_pool_destroy(p);
}
END_TEST

START_TEST(classes_are_aligned_to_their_size) {
    urc_pool_t *p = make(NULL);
    for (size_t size = 1; size <= 4096; size = size * 3 + 1) {
        void *a = NULL;
        ck_assert_ur_ok(urc_pool_alloc(p, size, 0, &a));
        size_t cls = URC_POOL_MIN_CLASS;
        while (cls < size)
            cls <<= 1;
        size_t want = cls < URC_POOL_DEFAULT_MAX_ALIGN ? cls : URC_POOL_DEFAULT_MAX_ALIGN;
        ck_assert_uint_eq((uintptr_t)a % want, 0);
    }
    void *a = NULL;
    ck_assert_ur_ok(urc_pool_alloc(p, 8, 128, &a));
    ck_assert_uint_eq((uintptr_t)a % 128, 0);
    ck_assert_ur(urc_pool_alloc(p, 8, 96, &a), UR_RESULT_ERROR_INVALID_VALUE);
    urc_pool_destroy(p);
}
END_TEST

START_TEST(large_allocations_go_to_the_driver) {
    urc_pool_config_t c = {.max_poolable = 4096};
    urc_pool_t *p = make(&c);
    void *a = NULL;
    ck_assert_ur_ok(urc_pool_alloc(p, 10000, 0, &a));
    ck_assert_int_eq(atomic_load(&drv.allocs), 1);
    ck_assert_uint_eq(stats(p).used, 10000);
    ck_assert_uint_eq(stats(p).reserved, 10000);
    void *base = NULL;
    size_t size = 0;
    ck_assert_ptr_eq(urc_pool_find(a, &base, &size), p);
    ck_assert_ptr_eq(base, a);
    ck_assert_uint_eq(size, 10000);
    ck_assert_ptr_eq(urc_pool_find_large(a), p);
    ck_assert_ur_ok(urc_pool_free(p, a));
    ck_assert_int_eq(atomic_load(&drv.frees), 1); // given back at once
    ck_assert_uint_eq(stats(p).reserved, 0);
    ck_assert_ptr_null(urc_pool_find(a, NULL, NULL));
    urc_pool_destroy(p);
}
END_TEST

START_TEST(alignment_beyond_the_driver_goes_to_the_driver) {
    urc_pool_t *p = make(NULL);
    void *a = NULL;
    ck_assert_ur_ok(urc_pool_alloc(p, 64, 4096, &a));
    ck_assert_uint_eq(drv.last_align, 4096);
    ck_assert_uint_eq((uintptr_t)a % 4096, 0);
    ck_assert_ur_ok(urc_pool_free(p, a));
    urc_pool_destroy(p);
}
END_TEST

START_TEST(min_driver_alloc_sets_the_slab_size) {
    urc_pool_config_t c = {.min_driver_alloc = 1 << 20};
    urc_pool_t *p = make(&c);
    void *a = NULL;
    ck_assert_ur_ok(urc_pool_alloc(p, 64, 0, &a));
    ck_assert_uint_eq(atomic_load(&drv.bytes), 1 << 20);
    ck_assert_uint_eq(stats(p).reserved, 1 << 20);
    ck_assert_uint_eq(stats(p).used, 64);
    urc_pool_destroy(p);
}
END_TEST

START_TEST(zero_init_reaches_the_driver) {
    urc_pool_config_t c = {.zero_init = true};
    urc_pool_t *p = make(&c);
    unsigned char *a = NULL;
    ck_assert_ur_ok(urc_pool_alloc(p, 512, 0, (void **)&a));
    ck_assert(drv.last_zero);
    for (int i = 0; i < 512; ++i)
        ck_assert_int_eq(a[i], 0);
    urc_pool_destroy(p);
    p = make(NULL);
    ck_assert_ur_ok(urc_pool_alloc(p, 512, 0, (void **)&a));
    ck_assert(!drv.last_zero);
    urc_pool_destroy(p);
}
END_TEST

START_TEST(driver_failure_is_returned) {
    urc_pool_t *p = make(NULL);
    drv.fail = true;
    void *a = NULL;
    ck_assert_ur(urc_pool_alloc(p, 64, 0, &a), UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ck_assert_ur(urc_pool_alloc(p, 64 << 20, 0, &a), UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ck_assert_uint_eq(stats(p).reserved, 0);
    drv.fail = false;
    ck_assert_ur_ok(urc_pool_alloc(p, 64, 0, &a));
    urc_pool_destroy(p);
}
END_TEST

START_TEST(max_size_limits_reserved_memory) {
    urc_pool_config_t c = {.max_size = 128 << 10,
                           .out_of_memory = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY};
    urc_pool_t *p = make(&c);
    void *a = NULL, *b = NULL, *d = NULL;
    ck_assert_ur_ok(urc_pool_alloc(p, 64, 0, &a));   // a 64 KiB slab
    ck_assert_ur_ok(urc_pool_alloc(p, 1024, 0, &b)); // another
    ck_assert_ur(urc_pool_alloc(p, 4096, 0, &d), UR_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    ck_assert_ur(urc_pool_alloc(p, 1 << 20, 0, &d), UR_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    // Freeing one makes its empty slab trimmable, and the next request trims it.
    ck_assert_ur_ok(urc_pool_free(p, b));
    ck_assert_ur_ok(urc_pool_alloc(p, 4096, 0, &d));
    ck_assert_uint_le(stats(p).reserved, 128 << 10);
    urc_pool_destroy(p);
}
END_TEST

START_TEST(bad_limits_are_refused) {
    urc_pool_t *p = NULL;
    urc_pool_config_t c = {.max_poolable = (size_t)1 << 41};
    ck_assert_ur(urc_pool_create(&ops, &drv, NULL, &c, &p), UR_RESULT_ERROR_INVALID_VALUE);
    c = (urc_pool_config_t){.max_align = 48};
    ck_assert_ur(urc_pool_create(&ops, &drv, NULL, &c, &p), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

// ---- free and lookup ----

START_TEST(double_free_is_refused) {
    urc_pool_t *p = make(NULL);
    void *a = NULL, *keep = NULL;
    ck_assert_ur_ok(urc_pool_alloc(p, 64, 0, &keep));
    ck_assert_ur_ok(urc_pool_alloc(p, 64, 0, &a));
    ck_assert_ur_ok(urc_pool_free(p, a));
    ck_assert_ur(urc_pool_free(p, a), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_uint_eq(stats(p).used, 64);
    urc_pool_destroy(p);
}
END_TEST

START_TEST(interior_and_foreign_pointers_are_refused) {
    urc_pool_t *p = make(NULL), *q = make(NULL);
    char *a = NULL;
    ck_assert_ur_ok(urc_pool_alloc(p, 256, 0, (void **)&a));
    ck_assert_ur(urc_pool_free(p, a + 8), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urc_pool_free(q, a), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    int local = 0;
    ck_assert_ur(urc_pool_free(p, &local), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urc_pool_free(p, a));
    urc_pool_destroy(q);
    urc_pool_destroy(p);
}
END_TEST

START_TEST(find_gives_pool_and_extent) {
    urc_pool_t *p = make(NULL);
    char *a = NULL;
    ck_assert_ur_ok(urc_pool_alloc(p, 300, 0, (void **)&a));
    void *base = NULL;
    size_t size = 0;
    ck_assert_ptr_eq(urc_pool_find(a + 100, &base, &size), p);
    ck_assert_ptr_eq(base, a);
    ck_assert_uint_eq(size, 512);
    ck_assert_ptr_eq(urc_pool_owner(p), &owner_tag);
    ck_assert_ptr_eq(urc_pool_native(p), &drv);
    int local = 0;
    ck_assert_ptr_null(urc_pool_find(&local, NULL, NULL));
    urc_pool_destroy(p);
    ck_assert_ptr_null(urc_pool_find(a, NULL, NULL));
}
END_TEST

START_TEST(many_slabs_stay_findable) {
    // Enough slabs to grow the registry past its first table.
    // One-chunk slabs of 64 bytes: many share a registry page too.
    urc_pool_config_t c = {.min_driver_alloc = 64};
    urc_pool_t *p = make(&c);
    enum { N = 5000 };
    void **a = calloc(N, sizeof *a);
    for (int i = 0; i < N; ++i)
        ck_assert_ur_ok(urc_pool_alloc(p, 64, 0, &a[i]));
    ck_assert_int_eq(atomic_load(&drv.allocs), N);
    for (int i = 0; i < N; ++i)
        ck_assert_ptr_eq(urc_pool_find((char *)a[i] + 63, NULL, NULL), p);
    for (int i = 0; i < N; ++i)
        ck_assert_ur_ok(urc_pool_free(p, a[i]));
    free(a);
    urc_pool_destroy(p);
    ck_assert_int_eq(atomic_load(&drv.live), 0);
}
END_TEST

// ---- accounting, threshold, trim ----

START_TEST(used_and_reserved_with_high_marks) {
    urc_pool_t *p = make(NULL);
    void *a = NULL, *b = NULL;
    ck_assert_ur_ok(urc_pool_alloc(p, 1000, 0, &a)); // class 1024
    ck_assert_ur_ok(urc_pool_alloc(p, 64, 0, &b));
    urc_pool_stats_t s = stats(p);
    ck_assert_uint_eq(s.used, 1088);
    ck_assert_uint_eq(s.used_high, 1088);
    ck_assert_uint_eq(s.reserved, 128 << 10);
    ck_assert_ur_ok(urc_pool_free(p, a));
    s = stats(p);
    ck_assert_uint_eq(s.used, 64);
    ck_assert_uint_eq(s.used_high, 1088);
    urc_pool_reset_high(p, true, false);
    ck_assert_uint_eq(stats(p).used_high, 64);
    ck_assert_uint_eq(stats(p).reserved_high, 128 << 10);
    urc_pool_trim(p, 0);
    s = stats(p);
    ck_assert_uint_eq(s.reserved, 64 << 10); // the slab still holding b stays
    ck_assert_uint_eq(s.reserved_high, 128 << 10);
    urc_pool_reset_high(p, false, true);
    ck_assert_uint_eq(stats(p).reserved_high, 64 << 10);
    urc_pool_destroy(p);
}
END_TEST

START_TEST(trim_keeps_what_it_is_asked_to) {
    urc_pool_t *p = make(NULL);
    void *a[4];
    for (int i = 0; i < 4; ++i)
        ck_assert_ur_ok(urc_pool_alloc(p, (size_t)64 << i, 0, &a[i]));
    for (int i = 0; i < 4; ++i)
        ck_assert_ur_ok(urc_pool_free(p, a[i]));
    ck_assert_uint_eq(stats(p).reserved, 4 * (64 << 10));
    urc_pool_trim(p, 2 * (64 << 10));
    ck_assert_uint_eq(stats(p).reserved, 2 * (64 << 10));
    urc_pool_trim(p, 0);
    ck_assert_uint_eq(stats(p).reserved, 0);
    ck_assert_int_eq(atomic_load(&drv.live), 0);
    // Still usable after a trim.
    ck_assert_ur_ok(urc_pool_alloc(p, 64, 0, &a[0]));
    urc_pool_destroy(p);
}
END_TEST

START_TEST(release_threshold_gives_back_empty_slabs) {
    urc_pool_t *p = make(NULL);
    ck_assert_uint_eq(urc_pool_release_threshold(p), SIZE_MAX);
    urc_pool_set_release_threshold(p, 0);
    ck_assert_uint_eq(urc_pool_release_threshold(p), 0);
    void *a = NULL;
    ck_assert_ur_ok(urc_pool_alloc(p, 64, 0, &a));
    ck_assert_ur_ok(urc_pool_free(p, a));
    ck_assert_int_eq(atomic_load(&drv.live), 0);
    ck_assert_uint_eq(stats(p).reserved, 0);
    urc_pool_destroy(p);
}
END_TEST

START_TEST(destroy_frees_what_is_still_in_use) {
    urc_pool_t *p = make(NULL);
    void *a = NULL, *b = NULL;
    ck_assert_ur_ok(urc_pool_alloc(p, 64, 0, &a));
    ck_assert_ur_ok(urc_pool_alloc(p, 64 << 20, 0, &b));
    ck_assert_int_eq(atomic_load(&drv.live), 2);
    urc_pool_destroy(p);
    ck_assert_int_eq(atomic_load(&drv.live), 0);
    ck_assert_ptr_null(urc_pool_find(a, NULL, NULL));
    ck_assert_ptr_null(urc_pool_find(b, NULL, NULL));
}
END_TEST

// ---- descriptor ----

START_TEST(config_from_desc_reads_limits_and_flags) {
    ur_usm_pool_limits_desc_t limits = {UR_STRUCTURE_TYPE_USM_POOL_LIMITS_DESC, NULL, 1 << 16,
                                        1 << 20};
    ur_usm_pool_desc_t desc = {UR_STRUCTURE_TYPE_USM_POOL_DESC, &limits,
                               UR_USM_POOL_FLAG_ZERO_INITIALIZE_BLOCK};
    urc_pool_config_t c;
    const ur_usm_pool_buffer_desc_t *buffer = &(ur_usm_pool_buffer_desc_t){0};
    ck_assert_ur_ok(urc_pool_config_from_desc(&desc, &c, &buffer));
    ck_assert_ptr_null(buffer);
    ck_assert_uint_eq(c.max_poolable, 1 << 16);
    ck_assert_uint_eq(c.min_driver_alloc, 1 << 20);
    ck_assert(c.zero_init);
    ur_base_desc_t bogus = {UR_STRUCTURE_TYPE_USM_DESC, NULL};
    limits.pNext = &bogus;
    ck_assert_ur(urc_pool_config_from_desc(&desc, &c, &buffer), UR_RESULT_ERROR_INVALID_VALUE);
    // A pool in the caller's memory is found (and checked by the pool handle's code).
    ur_usm_pool_buffer_desc_t in_place = {
        UR_STRUCTURE_TYPE_USM_POOL_BUFFER_DESC, NULL, NULL, 0, UR_USM_TYPE_DEVICE, NULL};
    limits.pNext = &in_place;
    ck_assert_ur_ok(urc_pool_config_from_desc(&desc, &c, &buffer));
    ck_assert_ptr_eq(buffer, &in_place);
    // Only one.
    ur_usm_pool_buffer_desc_t second = in_place;
    in_place.pNext = &second;
    ck_assert_ur(urc_pool_config_from_desc(&desc, &c, &buffer), UR_RESULT_ERROR_INVALID_VALUE);
    // A cycle ends at the walk's bound.
    limits.pNext = &limits;
    ck_assert_ur(urc_pool_config_from_desc(&desc, &c, &buffer), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

// ---- threads ----

#define THREADS 8
#define ROUNDS  20000

static urc_pool_t *shared_pool;
static atomic_int thread_errors;

// Each thread keeps a window of live allocations of mixed sizes, writes a tag into each and
// checks it before freeing: two threads given the same chunk would see each other's tag.
static void *churn(void *arg) {
    unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u + 1;
    enum { WINDOW = 64 };
    unsigned char *live[WINDOW] = {0};
    size_t sizes[WINDOW] = {0};
    for (int r = 0; r < ROUNDS; ++r) {
        seed = seed * 1103515245u + 12345u;
        int slot = (int)((seed >> 8) % WINDOW);
        if (live[slot] != NULL) {
            for (size_t i = 0; i < sizes[slot]; i += 61)
                if (live[slot][i] != (unsigned char)(uintptr_t)arg)
                    atomic_fetch_add(&thread_errors, 1);
            if (urc_pool_free(shared_pool, live[slot]) != UR_RESULT_SUCCESS)
                atomic_fetch_add(&thread_errors, 1);
            live[slot] = NULL;
            continue;
        }
        size_t size = (size_t)1 << (4 + (seed >> 16) % 15); // 16 B .. 256 KiB
        if (urc_pool_alloc(shared_pool, size, 0, (void **)&live[slot]) != UR_RESULT_SUCCESS) {
            atomic_fetch_add(&thread_errors, 1);
            live[slot] = NULL;
            continue;
        }
        sizes[slot] = size;
        memset(live[slot], (int)(uintptr_t)arg, size);
    }
    for (int i = 0; i < WINDOW; ++i)
        if (live[i] != NULL && urc_pool_free(shared_pool, live[i]) != UR_RESULT_SUCCESS)
            atomic_fetch_add(&thread_errors, 1);
    return NULL;
}

START_TEST(threads_never_share_a_chunk) {
    urc_pool_config_t c = {.max_poolable = 128 << 10};
    shared_pool = make(&c);
    atomic_store(&thread_errors, 0);
    pthread_t t[THREADS];
    for (uintptr_t i = 0; i < THREADS; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, churn, (void *)(i + 1)), 0);
    for (int i = 0; i < THREADS; ++i)
        pthread_join(t[i], NULL);
    ck_assert_int_eq(atomic_load(&thread_errors), 0);
    urc_pool_stats_t s = stats(shared_pool);
    ck_assert_uint_eq(s.used, 0);
    ck_assert_uint_gt(s.used_high, 0);
    ck_assert_uint_ge(s.reserved_high, s.used_high);
    urc_pool_trim(shared_pool, 0);
    ck_assert_uint_eq(stats(shared_pool).reserved, 0);
    ck_assert_int_eq(atomic_load(&drv.live), 0);
    urc_pool_destroy(shared_pool);
}
END_TEST

// Threads free what other threads allocated (chunks go back to their slab's shard).
static void *free_others(void *arg) {
    void **ptrs = arg;
    for (int i = 0; i < 1000; ++i)
        if (urc_pool_free(shared_pool, ptrs[i]) != UR_RESULT_SUCCESS)
            atomic_fetch_add(&thread_errors, 1);
    return NULL;
}

START_TEST(threads_free_each_others_allocations) {
    shared_pool = make(NULL);
    atomic_store(&thread_errors, 0);
    static void *ptrs[THREADS][1000];
    for (int t = 0; t < THREADS; ++t)
        for (int i = 0; i < 1000; ++i)
            ck_assert_ur_ok(urc_pool_alloc(shared_pool, 64 << (i % 6), 0, &ptrs[t][i]));
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, free_others, ptrs[i]), 0);
    for (int i = 0; i < THREADS; ++i)
        pthread_join(t[i], NULL);
    ck_assert_int_eq(atomic_load(&thread_errors), 0);
    ck_assert_uint_eq(stats(shared_pool).used, 0);
    urc_pool_destroy(shared_pool);
}
END_TEST

int main(void) {
    Suite *s = suite_create("usm_pool");
    TCase *tc = tcase_create("urc_pool_alloc");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, small_allocations_share_one_driver_block);
    tcase_add_test(tc, freed_chunk_is_reused);
    tcase_add_test(tc, classes_are_aligned_to_their_size);
    tcase_add_test(tc, large_allocations_go_to_the_driver);
    tcase_add_test(tc, alignment_beyond_the_driver_goes_to_the_driver);
    tcase_add_test(tc, min_driver_alloc_sets_the_slab_size);
    tcase_add_test(tc, zero_init_reaches_the_driver);
    tcase_add_test(tc, driver_failure_is_returned);
    tcase_add_test(tc, max_size_limits_reserved_memory);
    tcase_add_test(tc, bad_limits_are_refused);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_pool_free");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, double_free_is_refused);
    tcase_add_test(tc, interior_and_foreign_pointers_are_refused);
    tcase_add_test(tc, find_gives_pool_and_extent);
    tcase_add_test(tc, many_slabs_stay_findable);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_pool_stats");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, used_and_reserved_with_high_marks);
    tcase_add_test(tc, trim_keeps_what_it_is_asked_to);
    tcase_add_test(tc, release_threshold_gives_back_empty_slabs);
    tcase_add_test(tc, destroy_frees_what_is_still_in_use);
    tcase_add_test(tc, config_from_desc_reads_limits_and_flags);
    suite_add_tcase(s, tc);
    tc = tcase_create("threads");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, threads_never_share_a_chunk);
    tcase_add_test(tc, threads_free_each_others_allocations);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
