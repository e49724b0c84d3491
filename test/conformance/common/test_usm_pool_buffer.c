// SPDX-License-Identifier: MIT
// Pools in the caller's memory (ur_usm_pool_buffer_desc_t) through the loader, the same suite
// for every adapter: allocations of the pool lie in the buffer and hold their bytes, the
// buffer bounds the pool, other memory types are refused, the buffer outlives the pool, and
// bad buffers (NULL, empty, not USM, another type, too short, overlapping, two of them) are
// INVALID_VALUE.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "urc_fixture.h"

static urc_test_handles_t T;
static struct {
    bool pools, host, shared; // pools, host USM, shared USM
} has;

static bool supported(ur_device_info_t what) {
    ur_device_usm_access_capability_flags_t f = 0;
    return urDeviceGetInfo(T.device, what, sizeof f, &f, NULL) == UR_RESULT_SUCCESS && f != 0;
}

static void setup(void) {
    urc_test_handles_open(&T);
    has.pools = urc_test_device_says(T.device, UR_DEVICE_INFO_USM_POOL_SUPPORT);
    has.host = supported(UR_DEVICE_INFO_USM_HOST_SUPPORT);
    has.shared = supported(UR_DEVICE_INFO_USM_SINGLE_SHARED_SUPPORT);
}

static void teardown(void) {
    urc_test_handles_close(&T);
}

#define NEED_POOLS()                                                                               \
    do {                                                                                           \
        if (!has.pools)                                                                            \
            return;                                                                                \
    } while (0)

#define BUF ((size_t)1 << 20)

static void *plain_alloc(ur_usm_type_t type, size_t size) {
    void *p = NULL;
    if (type == UR_USM_TYPE_HOST)
        ck_assert_ur_ok(urUSMHostAlloc(T.context, NULL, NULL, size, &p));
    else if (type == UR_USM_TYPE_DEVICE)
        ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, size, &p));
    else
        ck_assert_ur_ok(urUSMSharedAlloc(T.context, T.device, NULL, NULL, size, &p));
    return p;
}

static ur_result_t pool_alloc(ur_usm_pool_handle_t pool, ur_usm_type_t type, size_t size,
                              void **p) {
    if (type == UR_USM_TYPE_HOST)
        return urUSMHostAlloc(T.context, NULL, pool, size, p);
    if (type == UR_USM_TYPE_DEVICE)
        return urUSMDeviceAlloc(T.context, T.device, NULL, pool, size, p);
    return urUSMSharedAlloc(T.context, T.device, NULL, pool, size, p);
}

static ur_result_t buffer_pool(void *mem, size_t size, ur_usm_type_t type,
                               ur_usm_pool_flags_t flags, ur_usm_pool_handle_t *pool) {
    ur_usm_pool_buffer_desc_t buf = {
        UR_STRUCTURE_TYPE_USM_POOL_BUFFER_DESC,    NULL, mem, size, type,
        type == UR_USM_TYPE_HOST ? NULL : T.device};
    ur_usm_pool_desc_t desc = {UR_STRUCTURE_TYPE_USM_POOL_DESC, &buf, flags};
    return urUSMPoolCreate(T.context, &desc, pool);
}

static bool inside(const void *p, size_t size, const void *buf, size_t buf_size) {
    return (uintptr_t)p >= (uintptr_t)buf && size <= buf_size &&
           (uintptr_t)p - (uintptr_t)buf <= buf_size - size;
}

static void serves_from_buffer(ur_usm_type_t type) {
    void *mem = plain_alloc(type, BUF);
    ur_usm_pool_handle_t pool = NULL;
    ck_assert_ur_ok(buffer_pool(mem, BUF, type, 0, &pool));
    size_t max = 0;
    ck_assert_ur_ok(urUSMPoolGetInfoExp(pool, UR_USM_POOL_INFO_MAXIMUM_SIZE_EXP, &max, NULL));
    ck_assert_uint_eq(max, BUF);
    // Small, middling and large requests all come out of the buffer and keep their bytes.
    const size_t sizes[] = {64, 256, 4096, 300 << 10};
    void *p[4];
    for (int i = 0; i < 4; ++i) {
        ck_assert_ur_ok(pool_alloc(pool, type, sizes[i], &p[i]));
        ck_assert_msg(inside(p[i], sizes[i], mem, BUF), "allocation %d outside the buffer", i);
        ck_assert_ur_ok(urEnqueueUSMFill(T.queue, p[i], 1, &(uint8_t){(uint8_t)(0x10 + i)},
                                         sizes[i], 0, NULL, NULL));
        ur_usm_pool_handle_t owner = NULL;
        ck_assert_ur_ok(urUSMGetMemAllocInfo(T.context, p[i], UR_USM_ALLOC_INFO_POOL, sizeof owner,
                                             &owner, NULL));
        ck_assert_ptr_eq(owner, pool);
    }
    ck_assert_ur_ok(urQueueFinish(T.queue));
    for (int i = 0; i < 4; ++i) {
        uint8_t first = 0, last = 0;
        ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, &first, p[i], 1, 0, NULL, NULL));
        ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, &last, (char *)p[i] + sizes[i] - 1, 1, 0,
                                           NULL, NULL));
        ck_assert_uint_eq(first, 0x10 + i);
        ck_assert_uint_eq(last, 0x10 + i);
    }
    size_t reserved = 0;
    ck_assert_ur_ok(
        urUSMPoolGetInfoExp(pool, UR_USM_POOL_INFO_RESERVED_CURRENT_EXP, &reserved, NULL));
    ck_assert_uint_le(reserved, BUF);
    // No more than the buffer holds.
    void *q = NULL;
    ur_result_t full = type == UR_USM_TYPE_HOST ? UR_RESULT_ERROR_OUT_OF_HOST_MEMORY
                                                : UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    ck_assert_ur(pool_alloc(pool, type, BUF, &q), full);
    // Other memory types are not this pool's.
    if (type != UR_USM_TYPE_HOST && has.host)
        ck_assert_ur(pool_alloc(pool, UR_USM_TYPE_HOST, 64, &q), UR_RESULT_ERROR_INVALID_VALUE);
    if (type != UR_USM_TYPE_DEVICE)
        ck_assert_ur(pool_alloc(pool, UR_USM_TYPE_DEVICE, 64, &q), UR_RESULT_ERROR_INVALID_VALUE);
    for (int i = 0; i < 4; ++i)
        ck_assert_ur_ok(urUSMFree(T.context, p[i]));
    ck_assert_ur(urUSMFree(T.context, p[0]), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urUSMPoolRelease(pool));
    // The buffer is still the caller's: usable, and freed by the caller.
    ck_assert_ur_ok(urEnqueueUSMFill(T.queue, mem, 1, &(uint8_t){7}, BUF, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urUSMFree(T.context, mem));
}

START_TEST(device_buffer) {
    NEED_POOLS();
    serves_from_buffer(UR_USM_TYPE_DEVICE);
}
END_TEST

START_TEST(host_buffer) {
    NEED_POOLS();
    if (has.host)
        serves_from_buffer(UR_USM_TYPE_HOST);
}
END_TEST

START_TEST(shared_buffer) {
    NEED_POOLS();
    if (has.shared)
        serves_from_buffer(UR_USM_TYPE_SHARED);
}
END_TEST

START_TEST(zero_initialized_blocks) {
    NEED_POOLS();
    void *mem = plain_alloc(UR_USM_TYPE_DEVICE, BUF);
    ck_assert_ur_ok(urEnqueueUSMFill(T.queue, mem, 1, &(uint8_t){0xFF}, BUF, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ur_usm_pool_handle_t pool = NULL;
    ck_assert_ur_ok(
        buffer_pool(mem, BUF, UR_USM_TYPE_DEVICE, UR_USM_POOL_FLAG_ZERO_INITIALIZE_BLOCK, &pool));
    void *p = NULL;
    ck_assert_ur_ok(pool_alloc(pool, UR_USM_TYPE_DEVICE, 256, &p));
    uint8_t got[256];
    memset(got, 0xAA, sizeof got);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, got, p, sizeof got, 0, NULL, NULL));
    for (size_t i = 0; i < sizeof got; ++i)
        ck_assert_uint_eq(got[i], 0);
    ck_assert_ur_ok(urUSMPoolRelease(pool));
    ck_assert_ur_ok(urUSMFree(T.context, mem));
}
END_TEST

START_TEST(exp_pool_of_the_device) {
    NEED_POOLS();
    void *mem = plain_alloc(UR_USM_TYPE_DEVICE, BUF);
    ur_usm_pool_buffer_desc_t buf = {UR_STRUCTURE_TYPE_USM_POOL_BUFFER_DESC,
                                     NULL,
                                     mem,
                                     BUF,
                                     UR_USM_TYPE_DEVICE,
                                     NULL}; // the device: the memory's
    ur_usm_pool_desc_t desc = {UR_STRUCTURE_TYPE_USM_POOL_DESC, &buf, 0};
    ur_usm_pool_handle_t pool = NULL;
    ck_assert_ur_ok(urUSMPoolCreateExp(T.context, T.device, &desc, &pool));
    void *p = NULL;
    ck_assert_ur_ok(pool_alloc(pool, UR_USM_TYPE_DEVICE, 1000, &p));
    ck_assert(inside(p, 1000, mem, BUF));
    ck_assert_ur_ok(urUSMPoolDestroyExp(T.context, T.device, pool));
    ck_assert_ur_ok(urUSMFree(T.context, mem));
}
END_TEST

START_TEST(enqueued_alloc_from_buffer) {
    NEED_POOLS();
    ur_bool_t async = false;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_ASYNC_USM_ALLOCATIONS_SUPPORT_EXP,
                                    sizeof async, &async, NULL));
    if (!async)
        return;
    void *mem = plain_alloc(UR_USM_TYPE_DEVICE, BUF);
    ur_usm_pool_handle_t pool = NULL;
    ck_assert_ur_ok(buffer_pool(mem, BUF, UR_USM_TYPE_DEVICE, 0, &pool));
    void *p = NULL;
    ur_event_handle_t made = NULL, freed = NULL;
    ck_assert_ur_ok(urEnqueueUSMDeviceAllocExp(T.queue, pool, 512, NULL, 0, NULL, &p, &made));
    ck_assert(inside(p, 512, mem, BUF));
    ck_assert_ur_ok(urEnqueueUSMFill(T.queue, p, 1, &(uint8_t){0x42}, 512, 1, &made, NULL));
    uint8_t got = 0;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, &got, (char *)p + 511, 1, 0, NULL, NULL));
    ck_assert_uint_eq(got, 0x42);
    ck_assert_ur_ok(urEnqueueUSMFreeExp(T.queue, pool, p, 0, NULL, &freed));
    ck_assert_ur_ok(urEventWait(1, &freed));
    ck_assert_ur_ok(urEventRelease(made));
    ck_assert_ur_ok(urEventRelease(freed));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urUSMPoolRelease(pool));
    ck_assert_ur_ok(urUSMFree(T.context, mem));
}
END_TEST

START_TEST(bad_buffers) {
    NEED_POOLS();
    void *mem = plain_alloc(UR_USM_TYPE_DEVICE, BUF);
    ur_usm_pool_handle_t pool = NULL;
    const ur_result_t bad = UR_RESULT_ERROR_INVALID_VALUE;
    ck_assert_ur(buffer_pool(NULL, BUF, UR_USM_TYPE_DEVICE, 0, &pool), bad);
    ck_assert_ur(buffer_pool(mem, 0, UR_USM_TYPE_DEVICE, 0, &pool), bad);
    ck_assert_ur(buffer_pool(mem, BUF, UR_USM_TYPE_UNKNOWN, 0, &pool), bad);
    ck_assert_ur(buffer_pool(mem, BUF, (ur_usm_type_t)77, 0, &pool), bad);
    // Memory of another type than memType, or reaching past its allocation (as large as the
    // driver says: it may round the request up).
    if (has.host)
        ck_assert_ur(buffer_pool(mem, BUF, UR_USM_TYPE_HOST, 0, &pool), bad);
    size_t size = 0;
    ck_assert_ur_ok(
        urUSMGetMemAllocInfo(T.context, mem, UR_USM_ALLOC_INFO_SIZE, sizeof size, &size, NULL));
    ck_assert_uint_ge(size, BUF);
    ck_assert_ur(buffer_pool(mem, size + 1, UR_USM_TYPE_DEVICE, 0, &pool), bad);
    ck_assert_ur(buffer_pool((char *)mem + 4096, size - 4095, UR_USM_TYPE_DEVICE, 0, &pool), bad);
    // Not USM at all.
    void *heap = malloc(BUF);
    ck_assert_ur(buffer_pool(heap, BUF, UR_USM_TYPE_HOST, 0, &pool), bad);
    free(heap);
    // Two pools may not share memory; the first one's release frees the range.
    ur_usm_pool_handle_t first = NULL;
    ck_assert_ur_ok(buffer_pool((char *)mem + 4096, BUF / 2, UR_USM_TYPE_DEVICE, 0, &first));
    ck_assert_ur(buffer_pool(mem, 8192, UR_USM_TYPE_DEVICE, 0, &pool), bad);
    ck_assert_ur_ok(buffer_pool(mem, 4096, UR_USM_TYPE_DEVICE, 0, &pool)); // touching is fine
    ck_assert_ur_ok(urUSMPoolRelease(pool));
    ck_assert_ur_ok(urUSMPoolRelease(first));
    ck_assert_ur_ok(buffer_pool(mem, BUF, UR_USM_TYPE_DEVICE, 0, &pool));
    ck_assert_ur_ok(urUSMPoolRelease(pool));
    // One buffer per pool.
    ur_usm_pool_buffer_desc_t second = {
        UR_STRUCTURE_TYPE_USM_POOL_BUFFER_DESC, NULL, mem, 4096, UR_USM_TYPE_DEVICE, T.device};
    ur_usm_pool_buffer_desc_t one = {UR_STRUCTURE_TYPE_USM_POOL_BUFFER_DESC,
                                     &second,
                                     (char *)mem + 8192,
                                     4096,
                                     UR_USM_TYPE_DEVICE,
                                     T.device};
    ur_usm_pool_desc_t desc = {UR_STRUCTURE_TYPE_USM_POOL_DESC, &one, 0};
    ck_assert_ur(urUSMPoolCreate(T.context, &desc, &pool), bad);
    ck_assert_ur_ok(urUSMFree(T.context, mem));
}
END_TEST

START_TEST(memory_of_another_context) {
    NEED_POOLS();
    ur_context_handle_t other = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    void *mem = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(other, T.device, NULL, NULL, BUF, &mem));
    ur_usm_pool_handle_t pool = NULL;
    ur_result_t res = buffer_pool(mem, BUF, UR_USM_TYPE_DEVICE, 0, &pool);
    // CUDA's contexts of one device share its memory (the primary context): the driver cannot
    // tell them apart, and the memory works in either, so the buffer is accepted there.
    ur_backend_t backend = UR_BACKEND_UNKNOWN;
    ck_assert_ur_ok(
        urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_BACKEND, sizeof backend, &backend, NULL));
    if (backend == UR_BACKEND_CUDA) {
        ck_assert_ur_ok(res);
        ck_assert_ur_ok(urUSMPoolRelease(pool));
    } else {
        ck_assert_ur(res, UR_RESULT_ERROR_INVALID_VALUE);
    }
    ck_assert_ur_ok(urUSMFree(other, mem));
    ck_assert_ur_ok(urContextRelease(other));
}
END_TEST

// A small buffer (4 KiB) serves what fits in it: 1 KiB, then more 1 KiB blocks, as long as
// they fit (a pool created over it that then could not give 1 KiB was of no use).
START_TEST(small_buffer_serves_what_fits) {
    NEED_POOLS();
    enum { SMALL = 4096 };
    void *mem = plain_alloc(UR_USM_TYPE_DEVICE, SMALL);
    ur_usm_pool_handle_t pool = NULL;
    ck_assert_ur_ok(buffer_pool(mem, SMALL, UR_USM_TYPE_DEVICE, 0, &pool));
    void *p = NULL;
    ck_assert_ur_ok(pool_alloc(pool, UR_USM_TYPE_DEVICE, 1024, &p));
    ck_assert(inside(p, 1024, mem, SMALL));
    unsigned char in[1024], out[1024];
    memset(in, 0x6B, sizeof in);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, p, in, sizeof in, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, p, sizeof out, 0, NULL, NULL));
    ck_assert_mem_eq(in, out, sizeof in);
    void *q = NULL;
    ck_assert_ur_ok(pool_alloc(pool, UR_USM_TYPE_DEVICE, 1024, &q));
    ck_assert(inside(q, 1024, mem, SMALL));
    ck_assert_ptr_ne(p, q);
    void *big = NULL;
    ck_assert_int_ne(pool_alloc(pool, UR_USM_TYPE_DEVICE, 2 * SMALL, &big), UR_RESULT_SUCCESS);
    ck_assert_ur_ok(urUSMFree(T.context, q));
    ck_assert_ur_ok(urUSMFree(T.context, p));
    ck_assert_ur_ok(urUSMPoolRelease(pool));
    ck_assert_ur_ok(urUSMFree(T.context, mem));
}
END_TEST

int main(void) {
    Suite *s = suite_create("usm_pool_buffer");
    TCase *tc = urc_test_tcase("ur_usm_pool_buffer_desc_t", setup, teardown);
    tcase_add_test(tc, device_buffer);
    tcase_add_test(tc, host_buffer);
    tcase_add_test(tc, shared_buffer);
    tcase_add_test(tc, zero_initialized_blocks);
    tcase_add_test(tc, exp_pool_of_the_device);
    tcase_add_test(tc, enqueued_alloc_from_buffer);
    tcase_add_test(tc, bad_buffers);
    tcase_add_test(tc, memory_of_another_context);
    tcase_add_test(tc, small_buffer_serves_what_fits);
    suite_add_tcase(s, tc);
    return urc_test_main_with_platform(s, "no platform for this adapter");
}
