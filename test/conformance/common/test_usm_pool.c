// SPDX-License-Identifier: MIT
// USM pools through the loader, the same suite for every adapter (common/pool/pool_handle): pool
// handles and their queries, pooled allocations of each type, frees and their errors, the
// Exp default and device pools, limits, trimming and zero-initialised blocks.
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "urc_fixture.h"

static urc_test_handles_t T;
static struct {
    bool pools; // UR_DEVICE_INFO_USM_POOL_SUPPORT
} has;

static void setup(void) {
    urc_test_handles_open(&T);
    has.pools = urc_test_device_says(T.device, UR_DEVICE_INFO_USM_POOL_SUPPORT);
}

static void teardown(void) {
    urc_test_handles_close(&T);
}

static ur_usm_pool_handle_t make_pool(ur_usm_pool_flags_t flags, size_t max_poolable) {
    ur_usm_pool_limits_desc_t limits = {UR_STRUCTURE_TYPE_USM_POOL_LIMITS_DESC, NULL, max_poolable,
                                        0};
    ur_usm_pool_desc_t desc = {UR_STRUCTURE_TYPE_USM_POOL_DESC, max_poolable ? &limits : NULL,
                               flags};
    ur_usm_pool_handle_t pool = NULL;
    ck_assert_ur_ok(urUSMPoolCreate(T.context, &desc, &pool));
    ck_assert_ptr_nonnull(pool);
    return pool;
}

static void *pool_alloc(ur_usm_pool_handle_t pool, ur_usm_type_t type, size_t size) {
    void *p = NULL;
    if (type == UR_USM_TYPE_HOST)
        ck_assert_ur_ok(urUSMHostAlloc(T.context, NULL, pool, size, &p));
    else if (type == UR_USM_TYPE_DEVICE)
        ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, pool, size, &p));
    else
        ck_assert_ur_ok(urUSMSharedAlloc(T.context, T.device, NULL, pool, size, &p));
    ck_assert_ptr_nonnull(p);
    return p;
}

static size_t pool_size_info(ur_usm_pool_handle_t pool, ur_usm_pool_info_t what) {
    size_t v = 0, got = 0;
    ck_assert_ur_ok(urUSMPoolGetInfo(pool, what, sizeof v, &v, &got));
    ck_assert_uint_eq(got, sizeof v);
    size_t exp = 1;
    ck_assert_ur_ok(urUSMPoolGetInfoExp(pool, what, &exp, NULL));
    ck_assert_uint_eq(exp, v);
    return v;
}

#define NEED_POOLS()                                                                               \
    do {                                                                                           \
        if (!has.pools) {                                                                          \
            ur_usm_pool_handle_t p_ = NULL;                                                        \
            ur_usm_pool_desc_t d_ = {UR_STRUCTURE_TYPE_USM_POOL_DESC, NULL, 0};                    \
            ck_assert_ur(urUSMPoolCreate(T.context, &d_, &p_),                                     \
                         UR_RESULT_ERROR_UNSUPPORTED_FEATURE);                                     \
            return;                                                                                \
        }                                                                                          \
    } while (0)

// ---- urUSMPoolCreate / Retain / Release / GetInfo ----

START_TEST(create_retain_release_info) {
    NEED_POOLS();
    ur_usm_pool_handle_t pool = make_pool(0, 0);
    uint32_t refs = 0;
    ck_assert_ur_ok(
        urUSMPoolGetInfo(pool, UR_USM_POOL_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_uint_eq(refs, 1);
    ck_assert_ur_ok(urUSMPoolRetain(pool));
    ck_assert_ur_ok(
        urUSMPoolGetInfo(pool, UR_USM_POOL_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_uint_eq(refs, 2);
    ck_assert_ur_ok(urUSMPoolRelease(pool));
    ur_context_handle_t ctx = NULL;
    ck_assert_ur_ok(urUSMPoolGetInfo(pool, UR_USM_POOL_INFO_CONTEXT, sizeof ctx, &ctx, NULL));
    ck_assert_ptr_eq(ctx, T.context);
    ck_assert_ur(urUSMPoolGetInfo(pool, UR_USM_POOL_INFO_CONTEXT, 1, &ctx, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urUSMPoolRelease(pool));
}
END_TEST

START_TEST(create_refuses_bad_descriptors) {
    NEED_POOLS();
    ur_usm_pool_handle_t pool = NULL;
    ur_usm_pool_desc_t desc = {UR_STRUCTURE_TYPE_USM_POOL_DESC, NULL, 0x100};
    ck_assert_ur(urUSMPoolCreate(T.context, &desc, &pool), UR_RESULT_ERROR_INVALID_ENUMERATION);
    ur_usm_desc_t stranger = {UR_STRUCTURE_TYPE_USM_DESC, NULL, 0, 0};
    desc = (ur_usm_pool_desc_t){UR_STRUCTURE_TYPE_USM_POOL_DESC, &stranger, 0};
    ck_assert_ur(urUSMPoolCreate(T.context, &desc, &pool), UR_RESULT_ERROR_INVALID_VALUE);
    ur_usm_pool_limits_desc_t limits = {UR_STRUCTURE_TYPE_USM_POOL_LIMITS_DESC, NULL,
                                        (size_t)1 << 50, 0};
    desc = (ur_usm_pool_desc_t){UR_STRUCTURE_TYPE_USM_POOL_DESC, &limits, 0};
    ck_assert_ur(urUSMPoolCreate(T.context, &desc, &pool), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

// ---- allocation through a pool ----

static void each_type_pooled(ur_usm_type_t type) {
    ur_usm_pool_handle_t pool = make_pool(0, 0);
    enum { N = 64 };
    void *p[N];
    for (int i = 0; i < N; ++i) {
        p[i] = pool_alloc(pool, type, 256);
        for (int j = 0; j < i; ++j)
            ck_assert_ptr_ne(p[i], p[j]);
    }
    for (int i = 0; i < N; ++i) {
        ur_usm_pool_handle_t owner = NULL;
        ck_assert_ur_ok(urUSMGetMemAllocInfo(T.context, (char *)p[i] + 8, UR_USM_ALLOC_INFO_POOL,
                                             sizeof owner, &owner, NULL));
        ck_assert_ptr_eq(owner, pool);
        void *base = NULL;
        ck_assert_ur_ok(urUSMGetMemAllocInfo(T.context, (char *)p[i] + 8,
                                             UR_USM_ALLOC_INFO_BASE_PTR, sizeof base, &base, NULL));
        ck_assert_ptr_eq(base, p[i]);
        size_t size = 0;
        ck_assert_ur_ok(urUSMGetMemAllocInfo(T.context, p[i], UR_USM_ALLOC_INFO_SIZE, sizeof size,
                                             &size, NULL));
        ck_assert_uint_eq(size, 256);
        ur_usm_type_t t = UR_USM_TYPE_UNKNOWN;
        ck_assert_ur_ok(
            urUSMGetMemAllocInfo(T.context, p[i], UR_USM_ALLOC_INFO_TYPE, sizeof t, &t, NULL));
        ck_assert_int_eq(t, type);
    }
    // The memory works: a pattern copied in comes back out.
    unsigned char in[256], out[256] = {0};
    for (int i = 0; i < 256; ++i)
        in[i] = (unsigned char)(i * 7);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, p[N - 1], in, sizeof in, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, p[N - 1], sizeof out, 0, NULL, NULL));
    ck_assert_mem_eq(in, out, sizeof in);
    ck_assert_uint_eq(pool_size_info(pool, UR_USM_POOL_INFO_USED_CURRENT_EXP), N * 256);
    for (int i = 0; i < N; ++i)
        ck_assert_ur_ok(urUSMFree(T.context, p[i]));
    ck_assert_uint_eq(pool_size_info(pool, UR_USM_POOL_INFO_USED_CURRENT_EXP), 0);
    ck_assert_uint_eq(pool_size_info(pool, UR_USM_POOL_INFO_USED_HIGH_EXP), N * 256);
    ck_assert_ur_ok(urUSMPoolRelease(pool));
}

START_TEST(device_alloc_pooled) {
    NEED_POOLS();
    each_type_pooled(UR_USM_TYPE_DEVICE);
}
END_TEST

START_TEST(host_alloc_pooled) {
    NEED_POOLS();
    each_type_pooled(UR_USM_TYPE_HOST);
}
END_TEST

START_TEST(shared_alloc_pooled) {
    NEED_POOLS();
    each_type_pooled(UR_USM_TYPE_SHARED);
}
END_TEST

START_TEST(large_alloc_bypasses_the_pool) {
    NEED_POOLS();
    ur_usm_pool_handle_t pool = make_pool(0, 4096);
    void *p = pool_alloc(pool, UR_USM_TYPE_DEVICE, 1 << 20);
    ur_usm_pool_handle_t owner = NULL;
    ck_assert_ur_ok(
        urUSMGetMemAllocInfo(T.context, p, UR_USM_ALLOC_INFO_POOL, sizeof owner, &owner, NULL));
    ck_assert_ptr_eq(owner, pool);
    ck_assert_uint_eq(pool_size_info(pool, UR_USM_POOL_INFO_RESERVED_CURRENT_EXP), 1 << 20);
    ck_assert_ur_ok(urUSMFree(T.context, p));
    ck_assert_uint_eq(pool_size_info(pool, UR_USM_POOL_INFO_RESERVED_CURRENT_EXP), 0);
    ck_assert_ur_ok(urUSMPoolRelease(pool));
}
END_TEST

START_TEST(alignment_is_honoured) {
    NEED_POOLS();
    ur_usm_pool_handle_t pool = make_pool(0, 0);
    ur_usm_desc_t desc = {UR_STRUCTURE_TYPE_USM_DESC, NULL, 0, 128};
    void *p = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, &desc, pool, 8, &p));
    ck_assert_uint_eq((uintptr_t)p % 128, 0);
    ck_assert_ur_ok(urUSMFree(T.context, p));
    desc.align = 48;
    ck_assert_ur(urUSMDeviceAlloc(T.context, T.device, &desc, pool, 8, &p),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urUSMPoolRelease(pool));
}
END_TEST

START_TEST(zero_initialized_blocks) {
    NEED_POOLS();
    ur_usm_pool_handle_t pool = make_pool(UR_USM_POOL_FLAG_ZERO_INITIALIZE_BLOCK, 0);
    void *p = pool_alloc(pool, UR_USM_TYPE_DEVICE, 4096);
    unsigned char out[4096];
    memset(out, 0xff, sizeof out);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, p, sizeof out, 0, NULL, NULL));
    for (size_t i = 0; i < sizeof out; ++i)
        ck_assert_int_eq(out[i], 0);
    ck_assert_ur_ok(urUSMFree(T.context, p));
    ck_assert_ur_ok(urUSMPoolRelease(pool));
}
END_TEST

START_TEST(plain_allocation_has_no_pool) {
    NEED_POOLS();
    void *p = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 64, &p));
    ur_usm_pool_handle_t owner = (ur_usm_pool_handle_t)1;
    ck_assert_ur_ok(
        urUSMGetMemAllocInfo(T.context, p, UR_USM_ALLOC_INFO_POOL, sizeof owner, &owner, NULL));
    ck_assert_ptr_null(owner);
    ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

// Threads allocate and free through one pool at once, each checking that no other thread got
// its memory (host memory, so each can write and read its chunks directly).
static ur_usm_pool_handle_t shared_pool;
static atomic_int thread_errors;

static void *churn(void *arg) {
    unsigned char tag = (unsigned char)(uintptr_t)arg;
    void *live[16] = {0};
    for (int round = 0; round < 400; ++round) {
        int slot = round % 16;
        if (live[slot] != NULL) {
            if (((unsigned char *)live[slot])[0] != tag ||
                urUSMFree(T.context, live[slot]) != UR_RESULT_SUCCESS)
                atomic_fetch_add(&thread_errors, 1);
            live[slot] = NULL;
        }
        size_t size = (size_t)64 << (round % 7);
        if (urUSMHostAlloc(T.context, NULL, shared_pool, size, &live[slot]) != UR_RESULT_SUCCESS) {
            atomic_fetch_add(&thread_errors, 1);
            continue;
        }
        memset(live[slot], tag, size);
    }
    for (int i = 0; i < 16; ++i)
        if (live[i] != NULL && urUSMFree(T.context, live[i]) != UR_RESULT_SUCCESS)
            atomic_fetch_add(&thread_errors, 1);
    return NULL;
}

START_TEST(threads_share_a_pool) {
    NEED_POOLS();
    shared_pool = make_pool(0, 0);
    atomic_store(&thread_errors, 0);
    pthread_t t[4];
    for (uintptr_t i = 0; i < 4; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, churn, (void *)(i + 1)), 0);
    for (int i = 0; i < 4; ++i)
        pthread_join(t[i], NULL);
    ck_assert_int_eq(atomic_load(&thread_errors), 0);
    ck_assert_uint_eq(pool_size_info(shared_pool, UR_USM_POOL_INFO_USED_CURRENT_EXP), 0);
    ck_assert_ur_ok(urUSMPoolRelease(shared_pool));
}
END_TEST

// ---- urUSMFree of pooled pointers ----

START_TEST(double_free_is_refused) {
    NEED_POOLS();
    ur_usm_pool_handle_t pool = make_pool(0, 0);
    void *keep = pool_alloc(pool, UR_USM_TYPE_DEVICE, 64);
    void *p = pool_alloc(pool, UR_USM_TYPE_DEVICE, 64);
    ck_assert_ur_ok(urUSMFree(T.context, p));
    ck_assert_ur(urUSMFree(T.context, p), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urUSMFree(T.context, (char *)keep + 8), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urUSMFree(T.context, keep));
    ck_assert_ur_ok(urUSMPoolRelease(pool));
}
END_TEST

START_TEST(free_through_another_context_is_refused) {
    NEED_POOLS();
    ur_usm_pool_handle_t pool = make_pool(0, 0);
    void *p = pool_alloc(pool, UR_USM_TYPE_DEVICE, 64);
    ur_context_handle_t other = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    ck_assert_ur(urUSMFree(other, p), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ur_usm_pool_handle_t owner = NULL;
    void *q = NULL;
    ck_assert_ur(urUSMDeviceAlloc(other, T.device, NULL, pool, 64, &q),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urContextRelease(other));
    ck_assert_ur_ok(
        urUSMGetMemAllocInfo(T.context, p, UR_USM_ALLOC_INFO_POOL, sizeof owner, &owner, NULL));
    ck_assert_ptr_eq(owner, pool);
    ck_assert_ur_ok(urUSMFree(T.context, p));
    ck_assert_ur_ok(urUSMPoolRelease(pool));
}
END_TEST

START_TEST(release_frees_what_is_left) {
    NEED_POOLS();
    ur_usm_pool_handle_t pool = make_pool(0, 4096);
    (void)pool_alloc(pool, UR_USM_TYPE_DEVICE, 64);
    (void)pool_alloc(pool, UR_USM_TYPE_HOST, 1 << 20);
    ck_assert_ur_ok(urUSMPoolRelease(pool)); // no leak: checked under LeakSanitizer
}
END_TEST

// ---- Exp: counters, settings, trim, default and device pools ----

START_TEST(counters_settings_and_trim) {
    NEED_POOLS();
    ur_usm_pool_handle_t pool = make_pool(0, 0);
    void *a = pool_alloc(pool, UR_USM_TYPE_DEVICE, 1000);
    void *b = pool_alloc(pool, UR_USM_TYPE_DEVICE, 64);
    ck_assert_uint_eq(pool_size_info(pool, UR_USM_POOL_INFO_USED_CURRENT_EXP), 1024 + 64);
    size_t reserved = pool_size_info(pool, UR_USM_POOL_INFO_RESERVED_CURRENT_EXP);
    ck_assert_uint_ge(reserved, 1024 + 64);
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_ur_ok(urUSMFree(T.context, b));
    size_t zero = 0;
    ck_assert_ur_ok(urUSMPoolSetInfoExp(pool, UR_USM_POOL_INFO_USED_HIGH_EXP, &zero, sizeof zero));
    ck_assert_uint_eq(pool_size_info(pool, UR_USM_POOL_INFO_USED_HIGH_EXP), 0);
    size_t one = 1;
    ck_assert_ur(urUSMPoolSetInfoExp(pool, UR_USM_POOL_INFO_USED_HIGH_EXP, &one, sizeof one),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urUSMPoolSetInfoExp(pool, UR_USM_POOL_INFO_USED_CURRENT_EXP, &zero, sizeof zero),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
    ck_assert_ur(urUSMPoolSetInfoExp(pool, UR_USM_POOL_INFO_RELEASE_THRESHOLD_EXP, &zero, 4),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urUSMPoolTrimToExp(T.context, T.device, pool, 0));
    ck_assert_uint_eq(pool_size_info(pool, UR_USM_POOL_INFO_RESERVED_CURRENT_EXP), 0);
    ck_assert_uint_eq(pool_size_info(pool, UR_USM_POOL_INFO_RESERVED_HIGH_EXP), reserved);
    // A zero release threshold gives empty slabs back at once.
    ck_assert_ur_ok(
        urUSMPoolSetInfoExp(pool, UR_USM_POOL_INFO_RELEASE_THRESHOLD_EXP, &zero, sizeof zero));
    ck_assert_uint_eq(pool_size_info(pool, UR_USM_POOL_INFO_RELEASE_THRESHOLD_EXP), 0);
    a = pool_alloc(pool, UR_USM_TYPE_DEVICE, 64);
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_uint_eq(pool_size_info(pool, UR_USM_POOL_INFO_RESERVED_CURRENT_EXP), 0);
    ck_assert_ur_ok(urUSMPoolRelease(pool));
}
END_TEST

START_TEST(default_and_device_pools) {
    NEED_POOLS();
    ur_usm_pool_handle_t def = NULL, again = NULL, cur = NULL;
    ck_assert_ur_ok(urUSMPoolGetDefaultDevicePoolExp(T.context, T.device, &def));
    ck_assert_ptr_nonnull(def);
    ck_assert_ur_ok(urUSMPoolGetDefaultDevicePoolExp(T.context, T.device, &again));
    ck_assert_ptr_eq(def, again);
    ck_assert_ur_ok(urUSMPoolGetDevicePoolExp(T.context, T.device, &cur));
    ck_assert_ptr_eq(cur, def);
    ck_assert_ur(urUSMPoolRelease(def), UR_RESULT_ERROR_INVALID_VALUE);
    void *p = pool_alloc(def, UR_USM_TYPE_DEVICE, 64);
    ck_assert_ur_ok(urUSMFree(T.context, p));

    ur_usm_pool_desc_t desc = {UR_STRUCTURE_TYPE_USM_POOL_DESC, NULL, 0};
    ur_usm_pool_handle_t mine = NULL;
    ck_assert_ur_ok(urUSMPoolCreateExp(T.context, T.device, &desc, &mine));
    ck_assert_ur_ok(urUSMPoolSetDevicePoolExp(T.context, T.device, mine));
    ck_assert_ur_ok(urUSMPoolGetDevicePoolExp(T.context, T.device, &cur));
    ck_assert_ptr_eq(cur, mine);
    p = pool_alloc(mine, UR_USM_TYPE_DEVICE, 64);
    ck_assert_ur_ok(urUSMFree(T.context, p));
    ck_assert_ur_ok(urUSMPoolDestroyExp(T.context, T.device, mine));
    // A destroyed pool is no device's pool any more.
    ck_assert_ur_ok(urUSMPoolGetDevicePoolExp(T.context, T.device, &cur));
    ck_assert_ptr_eq(cur, def);
}
END_TEST

START_TEST(exp_calls_check_their_context) {
    NEED_POOLS();
    ur_usm_pool_handle_t pool = make_pool(0, 0);
    ur_context_handle_t other = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    ck_assert_ur(urUSMPoolTrimToExp(other, T.device, pool, 0), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urUSMPoolSetDevicePoolExp(other, T.device, pool), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urUSMPoolDestroyExp(other, T.device, pool), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urContextRelease(other));
    ck_assert_ur_ok(urUSMPoolRelease(pool));
}
END_TEST

// ---- stream-ordered allocation ----

static ur_command_t command_of(ur_event_handle_t e) {
    ur_command_t c = UR_COMMAND_FORCE_UINT32;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_TYPE, sizeof c, &c, NULL));
    return c;
}

// An enqueued free gives memory back when its barrier completes, which the adapter learns
// from an event callback: allow it a moment after the queue has finished.
static size_t used_now(ur_usm_pool_handle_t pool) {
    size_t v = 0;
    ck_assert_ur_ok(urUSMPoolGetInfo(pool, UR_USM_POOL_INFO_USED_CURRENT_EXP, sizeof v, &v, NULL));
    return v;
}

static void wait_until_unused(ur_usm_pool_handle_t pool) {
    for (int i = 0; i < 2000 && used_now(pool) != 0; ++i)
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    ck_assert_uint_eq(used_now(pool), 0);
}

START_TEST(enqueued_alloc_and_free) {
    ur_bool_t async = false;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_ASYNC_USM_ALLOCATIONS_SUPPORT_EXP,
                                    sizeof async, &async, NULL));
    ck_assert_int_eq(async, has.pools);
    NEED_POOLS();
    ur_usm_pool_handle_t def = NULL;
    ck_assert_ur_ok(urUSMPoolGetDefaultDevicePoolExp(T.context, T.device, &def));
    void *p = NULL;
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(urEnqueueUSMDeviceAllocExp(T.queue, NULL, 256, NULL, 0, NULL, &p, &ev));
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(command_of(ev), UR_COMMAND_ENQUEUE_USM_DEVICE_ALLOC_EXP);
    unsigned char in[256], out[256] = {0};
    for (int i = 0; i < 256; ++i)
        in[i] = (unsigned char)(255 - i);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, false, p, in, sizeof in, 1, &ev, NULL));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, p, sizeof out, 0, NULL, NULL));
    ck_assert_mem_eq(in, out, sizeof in);
    ur_event_handle_t freed = NULL;
    ck_assert_ur_ok(urEnqueueUSMFreeExp(T.queue, NULL, p, 0, NULL, &freed));
    ck_assert_int_eq(command_of(freed), UR_COMMAND_ENQUEUE_USM_FREE_EXP);
    ck_assert_ur_ok(urEventWait(1, &freed));
    ck_assert_ur_ok(urEventRelease(freed));
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    wait_until_unused(def);
}
END_TEST

START_TEST(enqueued_alloc_of_each_type_from_a_pool) {
    NEED_POOLS();
    ur_usm_pool_handle_t pool = make_pool(0, 0);
    void *h = NULL, *s = NULL, *d = NULL;
    ck_assert_ur_ok(urEnqueueUSMHostAllocExp(T.queue, pool, 64, NULL, 0, NULL, &h, NULL));
    ck_assert_ur_ok(urEnqueueUSMSharedAllocExp(T.queue, pool, 64, NULL, 0, NULL, &s, NULL));
    ck_assert_ur_ok(urEnqueueUSMDeviceAllocExp(T.queue, pool, 64, NULL, 0, NULL, &d, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ur_usm_type_t t = UR_USM_TYPE_UNKNOWN;
    ck_assert_ur_ok(urUSMGetMemAllocInfo(T.context, h, UR_USM_ALLOC_INFO_TYPE, sizeof t, &t, NULL));
    ck_assert_int_eq(t, UR_USM_TYPE_HOST);
    ck_assert_ur_ok(urUSMGetMemAllocInfo(T.context, s, UR_USM_ALLOC_INFO_TYPE, sizeof t, &t, NULL));
    ck_assert_int_eq(t, UR_USM_TYPE_SHARED);
    memset(h, 1, 64); // host and shared memory are host-accessible
    memset(s, 2, 64);
    ck_assert_ur_ok(urEnqueueUSMFreeExp(T.queue, pool, h, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMFreeExp(T.queue, pool, s, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMFreeExp(T.queue, pool, d, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    wait_until_unused(pool);
    ck_assert_ur_ok(urUSMPoolRelease(pool));
}
END_TEST

START_TEST(enqueued_alloc_refuses_bad_input) {
    NEED_POOLS();
    void *p = NULL;
    ck_assert_ur(urEnqueueUSMDeviceAllocExp(T.queue, NULL, 0, NULL, 0, NULL, &p, NULL),
                 UR_RESULT_ERROR_INVALID_USM_SIZE);
    ur_exp_async_usm_alloc_properties_t props = {UR_STRUCTURE_TYPE_EXP_ASYNC_USM_ALLOC_PROPERTIES,
                                                 NULL, 0x10};
    ck_assert_ur(urEnqueueUSMDeviceAllocExp(T.queue, NULL, 64, &props, 0, NULL, &p, NULL),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    // A plain allocation, or one from another pool, is not freed this way.
    void *plain = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 64, &plain));
    ck_assert_ur(urEnqueueUSMFreeExp(T.queue, NULL, plain, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urUSMFree(T.context, plain));
    ur_usm_pool_handle_t a = make_pool(0, 0), b = make_pool(0, 0);
    ck_assert_ur_ok(urEnqueueUSMDeviceAllocExp(T.queue, a, 64, NULL, 0, NULL, &p, NULL));
    ck_assert_ur(urEnqueueUSMFreeExp(T.queue, b, p, 0, NULL, NULL), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urEnqueueUSMFreeExp(T.queue, a, (char *)p + 8, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urEnqueueUSMFreeExp(T.queue, a, p, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    wait_until_unused(a);
    ck_assert_ur_ok(urUSMPoolRelease(b));
    ck_assert_ur_ok(urUSMPoolRelease(a));
}
END_TEST

// Memory enqueued-allocated in one context is not freed through a queue of another (CUDA's
// driver pool is the device's, shared by all contexts: the adapter freed it).
START_TEST(enqueued_free_through_another_context_is_refused) {
    NEED_POOLS();
    ur_context_handle_t other = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    ur_queue_handle_t q2 = NULL;
    ck_assert_ur_ok(urQueueCreate(other, T.device, NULL, &q2));
    void *p = NULL;
    ck_assert_ur_ok(urEnqueueUSMDeviceAllocExp(q2, NULL, 256, NULL, 0, NULL, &p, NULL));
    ck_assert_ur_ok(urQueueFinish(q2));
    ck_assert_ur(urEnqueueUSMFreeExp(T.queue, NULL, p, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    // Still allocated: its own context frees it.
    unsigned char in[256], out[256] = {0};
    memset(in, 0x3C, sizeof in);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q2, true, p, in, sizeof in, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q2, true, out, p, sizeof out, 0, NULL, NULL));
    ck_assert_mem_eq(in, out, sizeof in);
    ck_assert_ur_ok(urEnqueueUSMFreeExp(q2, NULL, p, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(q2));
    ck_assert_ur_ok(urQueueRelease(q2));
    ck_assert_ur_ok(urContextRelease(other));
}
END_TEST

// ---- the other USM extensions every adapter has ----

START_TEST(pitched_alloc_pads_rows) {
    NEED_POOLS();
    ur_usm_pool_handle_t pool = make_pool(0, 0);
    for (int pooled = 0; pooled < 2; ++pooled) {
        void *p = NULL;
        size_t pitch = 0;
        ck_assert_ur_ok(urUSMPitchedAllocExp(T.context, T.device, NULL, pooled ? pool : NULL, 100,
                                             8, 4, &p, &pitch));
        ck_assert_uint_ge(pitch, 100);
        ck_assert_uint_eq(pitch % 4, 0);
        unsigned char rows[8 * 512];
        memset(rows, 3, sizeof rows);
        ck_assert_uint_le(pitch, 512);
        ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, p, rows, pitch * 8, 0, NULL, NULL));
        ck_assert_ur_ok(urUSMFree(T.context, p));
    }
    void *p = NULL;
    size_t pitch = 0;
    ck_assert_ur(urUSMPitchedAllocExp(T.context, T.device, NULL, NULL, 100, 8, 3, &p, &pitch),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urUSMPitchedAllocExp(T.context, T.device, NULL, NULL, 2, 8, 4, &p, &pitch),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urUSMPitchedAllocExp(T.context, T.device, NULL, NULL, 100, 0, 4, &p, &pitch),
                 UR_RESULT_ERROR_INVALID_USM_SIZE);
    ck_assert_ur_ok(urUSMPoolRelease(pool));
}
END_TEST

START_TEST(context_memcpy_round_trip) {
    ur_bool_t b = false;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_USM_CONTEXT_MEMCPY_SUPPORT_EXP,
                                    sizeof b, &b, NULL));
    ck_assert_int_eq(b, has.pools);
    NEED_POOLS();
    void *d = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 4096, &d));
    unsigned char in[4096], out[4096] = {0};
    for (size_t i = 0; i < sizeof in; ++i)
        in[i] = (unsigned char)(i * 13);
    ck_assert_ur_ok(urUSMContextMemcpyExp(T.context, d, in, sizeof in));
    ck_assert_ur_ok(urUSMContextMemcpyExp(T.context, out, d, sizeof out));
    ck_assert_mem_eq(in, out, sizeof in);
    ck_assert_ur_ok(urUSMFree(T.context, d));
}
END_TEST

int main(void) {
    Suite *s = suite_create("usm_pool");
    TCase *tc = urc_test_tcase("urUSMPoolCreate", setup, teardown);
    tcase_add_test(tc, create_retain_release_info);
    tcase_add_test(tc, create_refuses_bad_descriptors);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("urUSMAlloc_pooled", setup, teardown);
    tcase_add_test(tc, device_alloc_pooled);
    tcase_add_test(tc, host_alloc_pooled);
    tcase_add_test(tc, shared_alloc_pooled);
    tcase_add_test(tc, large_alloc_bypasses_the_pool);
    tcase_add_test(tc, alignment_is_honoured);
    tcase_add_test(tc, zero_initialized_blocks);
    tcase_add_test(tc, plain_allocation_has_no_pool);
    tcase_add_test(tc, threads_share_a_pool);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("urUSMFree_pooled", setup, teardown);
    tcase_add_test(tc, double_free_is_refused);
    tcase_add_test(tc, free_through_another_context_is_refused);
    tcase_add_test(tc, release_frees_what_is_left);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("urUSMPoolExp", setup, teardown);
    tcase_add_test(tc, counters_settings_and_trim);
    tcase_add_test(tc, default_and_device_pools);
    tcase_add_test(tc, exp_calls_check_their_context);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("urEnqueueUSMAllocExp", setup, teardown);
    tcase_add_test(tc, enqueued_alloc_and_free);
    tcase_add_test(tc, enqueued_alloc_of_each_type_from_a_pool);
    tcase_add_test(tc, enqueued_alloc_refuses_bad_input);
    tcase_add_test(tc, enqueued_free_through_another_context_is_refused);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("urUSMExp", setup, teardown);
    tcase_add_test(tc, pitched_alloc_pads_rows);
    tcase_add_test(tc, context_memcpy_round_trip);
    suite_add_tcase(s, tc);
    return urc_test_main_with_platform(s, "no platform for this adapter");
}
