// SPDX-License-Identifier: MIT
// Unified shared memory of the OpenCL adapter: allocations, queries and USM enqueues where the
// device has cl_intel_unified_shared_memory (Intel), UNSUPPORTED_FEATURE where not (PoCL).
#include <stdint.h>
#include <string.h>

#include "../common/usm_cases.h"
#include "oclt.h"

static void *alloc(ur_usm_type_t type, size_t size) {
    void *p = NULL;
    switch (type) {
    case UR_USM_TYPE_HOST:
        ck_assert_ur_ok(urUSMHostAlloc(T.context, NULL, NULL, size, &p));
        break;
    case UR_USM_TYPE_DEVICE:
        ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, size, &p));
        break;
    default:
        ck_assert_ur_ok(urUSMSharedAlloc(T.context, T.device, NULL, NULL, size, &p));
        break;
    }
    ck_assert_ptr_nonnull(p);
    return p;
}

static ur_command_t type_of(ur_event_handle_t e) {
    ur_command_t t = UR_COMMAND_FORCE_UINT32;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_TYPE, sizeof t, &t, NULL));
    return t;
}

START_TEST(host_alloc) {
    void *p = NULL;
    ur_result_t r = urUSMHostAlloc(T.context, NULL, NULL, 64, &p);
    if (!T.usm) {
        ck_assert_ur(r, UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        return;
    }
    ck_assert_ur_ok(r);
    memset(p, 1, 64); // host memory is host-accessible
    ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

START_TEST(device_alloc) {
    void *p = NULL;
    ur_result_t r = urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 64, &p);
    ck_assert_ur(r, T.usm ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    if (T.usm)
        ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

START_TEST(shared_alloc) {
    void *p = NULL;
    ur_result_t r = urUSMSharedAlloc(T.context, T.device, NULL, NULL, 64, &p);
    ck_assert_ur(r, T.usm ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    if (T.usm)
        ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

START_TEST(shared_alloc_aligned) {
    if (!T.usm)
        return;
    ur_usm_desc_t desc = {UR_STRUCTURE_TYPE_USM_DESC, NULL, 0, 4096};
    void *p = NULL;
    ck_assert_ur_ok(urUSMSharedAlloc(T.context, T.device, &desc, NULL, 100, &p));
    ck_assert_uint_eq((uintptr_t)p % 4096, 0);
    ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

// Alignment holds whatever the runtime does (PoCL 5 ignored 4096 for shared memory; the
// adapter then over-allocates): every type, small and large alignments, the base pointer is
// the caller's pointer and the memory is usable.
START_TEST(every_alignment_holds) {
    if (!T.usm)
        return;
    const uint32_t aligns[] = {64, 4096, 65536, 1u << 21};
    const ur_usm_type_t types[] = {UR_USM_TYPE_HOST, UR_USM_TYPE_DEVICE, UR_USM_TYPE_SHARED};
    for (size_t a = 0; a < sizeof aligns / sizeof aligns[0]; ++a)
        for (size_t t = 0; t < 3; ++t) {
            ur_usm_desc_t desc = {UR_STRUCTURE_TYPE_USM_DESC, NULL, 0, aligns[a]};
            void *p = NULL;
            if (types[t] == UR_USM_TYPE_HOST)
                ck_assert_ur_ok(urUSMHostAlloc(T.context, &desc, NULL, 100, &p));
            else if (types[t] == UR_USM_TYPE_DEVICE)
                ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, &desc, NULL, 100, &p));
            else
                ck_assert_ur_ok(urUSMSharedAlloc(T.context, T.device, &desc, NULL, 100, &p));
            ck_assert_uint_eq((uintptr_t)p % aligns[a], 0);
            void *base = NULL;
            ck_assert_ur_ok(urUSMGetMemAllocInfo(
                T.context, (char *)p + 10, UR_USM_ALLOC_INFO_BASE_PTR, sizeof base, &base, NULL));
            ck_assert_ptr_eq(base, p);
            uint8_t in[100], out[100] = {0};
            memset(in, (int)(a * 3 + t), sizeof in);
            ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, p, in, sizeof in, 0, NULL, NULL));
            ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, p, sizeof out, 0, NULL, NULL));
            ck_assert_mem_eq(in, out, sizeof in);
            ck_assert_ur_ok(urUSMFree(T.context, p));
        }
}
END_TEST

// Memory of another context is none of this one's, whatever the runtime answers (PoCL 5
// answered for any context): its type is UNKNOWN here, and it is not freed here.
START_TEST(memory_of_another_context_is_unknown) {
    if (!T.usm)
        return;
    ur_context_handle_t other = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    void *p = NULL;
    ck_assert_ur_ok(urUSMSharedAlloc(other, T.device, NULL, NULL, 256, &p));
    ur_usm_type_t t = UR_USM_TYPE_HOST;
    ck_assert_ur_ok(urUSMGetMemAllocInfo(T.context, p, UR_USM_ALLOC_INFO_TYPE, sizeof t, &t, NULL));
    ck_assert_int_eq(t, UR_USM_TYPE_UNKNOWN);
    ck_assert_ur_ok(urUSMGetMemAllocInfo(other, p, UR_USM_ALLOC_INFO_TYPE, sizeof t, &t, NULL));
    ck_assert_int_eq(t, UR_USM_TYPE_SHARED);
    ck_assert_ur(urUSMFree(T.context, p), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urUSMFree(other, p));
    ck_assert_ur_ok(urContextRelease(other));
}
END_TEST

START_TEST(alignment_not_power_of_two_is_invalid_value) {
    ur_usm_desc_t desc = {UR_STRUCTURE_TYPE_USM_DESC, NULL, 0, 48};
    void *p = NULL;
    // An argument check, so it answers before the feature check of a runtime without USM.
    ck_assert_ur(urUSMHostAlloc(T.context, &desc, NULL, 64, &p), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(device_flags_are_checked_with_device_mask) {
    // Bit 2 (DEVICE_READ_ONLY) is valid for device allocations; UR's adapter checked these
    // flags against the host mask, which refuses it.
    ur_usm_device_desc_t dev = {UR_STRUCTURE_TYPE_USM_DEVICE_DESC, NULL,
                                UR_USM_DEVICE_MEM_FLAG_DEVICE_READ_ONLY};
    ur_usm_desc_t desc = {UR_STRUCTURE_TYPE_USM_DESC, &dev, 0, 0};
    void *p = NULL;
    ur_result_t r = urUSMSharedAlloc(T.context, T.device, &desc, NULL, 64, &p);
    ck_assert_ur(r, T.usm ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    if (T.usm)
        ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

START_TEST(pool_is_unsupported) {
    // Pools exist where USM does (test_opencl_usm_pool tests them).
    ur_usm_pool_desc_t desc = {UR_STRUCTURE_TYPE_USM_POOL_DESC, NULL, 0};
    ur_usm_pool_handle_t pool = NULL;
    ck_assert_ur(urUSMPoolCreate(T.context, &desc, &pool),
                 T.usm ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    if (pool != NULL)
        ck_assert_ur_ok(urUSMPoolRelease(pool));
}
END_TEST

START_TEST(free_unsupported_without_usm) {
    if (T.usm)
        return;
    int x = 0;
    ck_assert_ur(urUSMFree(T.context, &x), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
}
END_TEST

START_TEST(alloc_info_without_usm_is_unsupported) {
    if (T.usm)
        return; // answered by the shared cases
    ur_usm_type_t t;
    int x = 0;
    ck_assert_ur(urUSMGetMemAllocInfo(T.context, &x, UR_USM_ALLOC_INFO_TYPE, sizeof t, &t, NULL),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
}
END_TEST

START_TEST(alloc_info_pool_is_unsupported_enumeration) {
    if (!T.usm)
        return;
    void *p = alloc(UR_USM_TYPE_SHARED, 64);
    // Not from a pool: NULL.
    ur_usm_pool_handle_t pool = (ur_usm_pool_handle_t)&pool;
    ck_assert_ur_ok(
        urUSMGetMemAllocInfo(T.context, p, UR_USM_ALLOC_INFO_POOL, sizeof pool, &pool, NULL));
    ck_assert_ptr_null(pool);
    ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

START_TEST(fill_power_of_two_pattern) {
    if (!T.usm) {
        int x[4];
        uint32_t pat = 0;
        ck_assert_ur(urEnqueueUSMFill(T.queue, x, 4, &pat, 16, 0, NULL, NULL),
                     UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        return;
    }
    uint32_t *p = alloc(UR_USM_TYPE_SHARED, 256);
    uint32_t pattern = 0x01020304;
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueUSMFill(T.queue, p, 4, &pattern, 256, 0, NULL, &e));
    ck_assert_int_eq(type_of(e), UR_COMMAND_USM_FILL);
    ck_assert_ur_ok(urEventWait(1, &e));
    for (int i = 0; i < 64; ++i)
        ck_assert_uint_eq(p[i], 0x01020304);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

START_TEST(fill_odd_pattern) {
    if (!T.usm)
        return;
    uint8_t *p = alloc(UR_USM_TYPE_SHARED, 300);
    uint8_t pattern[3] = {7, 8, 9};
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueUSMFill(T.queue, p, 3, pattern, 300, 0, NULL, &e));
    ck_assert_int_eq(type_of(e), UR_COMMAND_USM_FILL);
    ck_assert_ur_ok(urEventWait(1, &e));
    for (int i = 0; i < 300; ++i)
        ck_assert_uint_eq(p[i], pattern[i % 3]);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

START_TEST(memcpy_device_round_trip) {
    if (!T.usm)
        return;
    void *d = alloc(UR_USM_TYPE_DEVICE, 1024);
    uint8_t in[1024], out[1024] = {0};
    for (int i = 0; i < 1024; ++i)
        in[i] = (uint8_t)(i * 7);
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, false, d, in, 1024, 0, NULL, &e));
    ck_assert_int_eq(type_of(e), UR_COMMAND_USM_MEMCPY);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, d, 1024, 1, &e, NULL));
    ck_assert_mem_eq(in, out, 1024);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urUSMFree(T.context, d));
}
END_TEST

START_TEST(prefetch_returns_event) {
    if (!T.usm)
        return;
    void *p = alloc(UR_USM_TYPE_SHARED, 64);
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(
        urEnqueueUSMPrefetch(T.queue, p, 64, UR_USM_MIGRATION_FLAG_HOST_TO_DEVICE, 0, NULL, &e));
    ck_assert_int_eq(type_of(e), UR_COMMAND_USM_PREFETCH);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

START_TEST(advise_returns_event) {
    if (!T.usm)
        return;
    void *p = alloc(UR_USM_TYPE_SHARED, 64);
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueUSMAdvise(T.queue, p, 64, UR_USM_ADVICE_FLAG_SET_READ_MOSTLY, &e));
    ck_assert_int_eq(type_of(e), UR_COMMAND_USM_ADVISE);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

START_TEST(fill_2d_fills_rows) {
    if (!T.usm)
        return;
    uint8_t *p = alloc(UR_USM_TYPE_SHARED, 16 * 8);
    memset(p, 0, 16 * 8);
    uint16_t pattern = 0xabcd;
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueUSMFill2D(T.queue, p, 16, 2, &pattern, 8, 8, 0, NULL, &e));
    ck_assert_int_eq(type_of(e), UR_COMMAND_USM_FILL_2D);
    ck_assert_ur_ok(urEventWait(1, &e));
    for (int row = 0; row < 8; ++row) {
        ck_assert_uint_eq(*(uint16_t *)(p + row * 16), 0xabcd);
        ck_assert_uint_eq(*(uint16_t *)(p + row * 16 + 6), 0xabcd);
        ck_assert_uint_eq(p[row * 16 + 8], 0); // past the width
    }
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

START_TEST(fill_2d_unaligned_rows_are_copied) {
    if (!T.usm)
        return;
    // A pitch of 18 leaves odd rows misaligned for a 4-byte pattern, and a width of 6 ends
    // inside one: the pattern runs on into the next row (UR's conformance reference).
    uint8_t *p = alloc(UR_USM_TYPE_SHARED, 18 * 4);
    memset(p, 0, 18 * 4);
    uint8_t pattern[4] = {1, 2, 3, 4};
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueUSMFill2D(T.queue, p, 18, 4, pattern, 6, 4, 0, NULL, &e));
    ck_assert_ur_ok(urEventWait(1, &e));
    static const uint8_t even[7] = {1, 2, 3, 4, 1, 2, 0}, odd[7] = {3, 4, 1, 2, 3, 4, 0};
    for (int r = 0; r < 4; ++r)
        ck_assert_mem_eq(p + r * 18, r % 2 ? odd : even, sizeof even);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

START_TEST(memcpy_2d_copies_rows) {
    if (!T.usm) {
        char a[64] = {0}, b[64] = {0};
        ck_assert_ur(urEnqueueUSMMemcpy2D(T.queue, true, a, 8, b, 8, 8, 8, 0, NULL, NULL),
                     UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        return;
    }
    uint8_t *dst = alloc(UR_USM_TYPE_SHARED, 32 * 4);
    memset(dst, 0, 32 * 4);
    uint8_t src[8 * 4];
    for (int i = 0; i < 32; ++i)
        src[i] = (uint8_t)(i + 1);
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueUSMMemcpy2D(T.queue, true, dst, 32, src, 8, 8, 4, 0, NULL, &e));
    ck_assert_int_eq(type_of(e), UR_COMMAND_USM_MEMCPY_2D);
    for (int row = 0; row < 4; ++row) {
        ck_assert_mem_eq(dst + row * 32, src + row * 8, 8);
        ck_assert_uint_eq(dst[row * 32 + 8], 0);
    }
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urUSMFree(T.context, dst));
}
END_TEST

START_TEST(launch_with_pointer_argument) {
    ur_program_handle_t p = oclt_built_program("add_one");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_one", &k));
    int data[16] = {0};
    int *mem = T.usm ? alloc(UR_USM_TYPE_SHARED, sizeof data) : data;
    if (T.usm)
        memset(mem, 0, sizeof data);
    ur_exp_kernel_arg_properties_t arg = urc_test_arg_pointer(0, mem);
    size_t global = 16;
    ur_result_t r = urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL, 1, &arg,
                                                     NULL, 0, NULL, NULL);
    if (!T.usm) {
        ck_assert_ur(r, UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    } else {
        ck_assert_ur_ok(r);
        ck_assert_ur_ok(urQueueFinish(T.queue));
        for (int i = 0; i < 16; ++i)
            ck_assert_int_eq(mem[i], 1);
        ck_assert_ur_ok(urUSMFree(T.context, mem));
    }
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl usm");
    TCase *tc = oclt_tcase("urUSMHostAlloc");
    tcase_add_test(tc, host_alloc);
    tcase_add_test(tc, alignment_not_power_of_two_is_invalid_value);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urUSMDeviceAlloc");
    tcase_add_test(tc, device_alloc);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urUSMSharedAlloc");
    tcase_add_test(tc, shared_alloc);
    tcase_add_test(tc, shared_alloc_aligned);
    tcase_add_test(tc, every_alignment_holds);
    tcase_add_test(tc, memory_of_another_context_is_unknown);
    tcase_add_test(tc, device_flags_are_checked_with_device_mask);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urUSMFree");
    tcase_add_test(tc, free_unsupported_without_usm);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urUSMPoolCreate");
    tcase_add_test(tc, pool_is_unsupported);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urUSMGetMemAllocInfo");
    tcase_add_test(tc, alloc_info_without_usm_is_unsupported);
    usm_cases_add_info(tc);
    tcase_add_test(tc, alloc_info_pool_is_unsupported_enumeration);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueUSMFill");
    tcase_add_test(tc, fill_power_of_two_pattern);
    tcase_add_test(tc, fill_odd_pattern);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueUSMMemcpy");
    tcase_add_test(tc, memcpy_device_round_trip);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueUSMPrefetch");
    tcase_add_test(tc, prefetch_returns_event);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueUSMAdvise");
    tcase_add_test(tc, advise_returns_event);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueUSMFill2D");
    tcase_add_test(tc, fill_2d_fills_rows);
    tcase_add_test(tc, fill_2d_unaligned_rows_are_copied);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueUSMMemcpy2D");
    tcase_add_test(tc, memcpy_2d_copies_rows);
    usm_cases_add_ranges(tc);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueKernelLaunchWithArgsExp");
    tcase_add_test(tc, launch_with_pointer_argument);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
