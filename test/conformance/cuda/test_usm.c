// SPDX-License-Identifier: MIT
// urUSM* allocations and the USM enqueues (fill, memcpy, 2D, prefetch, advise).
#include <stdint.h>
#include <string.h>

#include "../common/usm_cases.h"
#include "cudat.h"

START_TEST(alloc_alignment_rules) {
    void *p = NULL;
    ur_usm_desc_t desc = {UR_STRUCTURE_TYPE_USM_DESC, NULL, 0, 3};
    ck_assert_ur(urUSMDeviceAlloc(T.context, T.device, &desc, NULL, 64, &p),
                 UR_RESULT_ERROR_INVALID_VALUE);
    desc.align = 4096;
    ck_assert_ur(urUSMDeviceAlloc(T.context, T.device, &desc, NULL, 64, &p),
                 UR_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    desc.align = 128;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, &desc, NULL, 64, &p));
    ck_assert_uint_eq((uintptr_t)p % 128, 0);
    ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

// Host allocations larger than a device of the context could map are INVALID_USM_SIZE (the
// simulated driver once wrapped SIZE_MAX to a one-page allocation and "succeeded").
START_TEST(host_alloc_beyond_device_memory_refused) {
    void *p = NULL;
    ck_assert_ur(urUSMHostAlloc(T.context, NULL, NULL, SIZE_MAX, &p),
                 UR_RESULT_ERROR_INVALID_USM_SIZE);
    ck_assert_ur(urUSMHostAlloc(T.context, NULL, NULL, SIZE_MAX / 2 + 1, &p),
                 UR_RESULT_ERROR_INVALID_USM_SIZE);
    ck_assert_ptr_null(p);
}
END_TEST

// Managed memory is never overcommitted: more than the device has free is refused up front.
START_TEST(shared_alloc_beyond_free_memory_refused) {
    uint64_t free_bytes = 0, total = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_GLOBAL_MEM_FREE, sizeof free_bytes,
                                    &free_bytes, NULL));
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_GLOBAL_MEM_SIZE, sizeof total, &total, NULL));
    ck_assert_uint_gt(total - free_bytes, 1u << 20); // the driver always holds some
    // More than is free, not more than the card has (that would be INVALID_USM_SIZE).
    size_t size = (size_t)(free_bytes + (total - free_bytes) / 2);
    void *p = NULL;
    ck_assert_ur(urUSMSharedAlloc(T.context, T.device, NULL, NULL, size, &p),
                 UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ck_assert_ptr_null(p);
}
END_TEST

START_TEST(device_alloc_beyond_device_is_invalid_size) {
    uint64_t total = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_GLOBAL_MEM_SIZE, sizeof total, &total, NULL));
    void *p = NULL;
    ck_assert_ur(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, (size_t)total + 1, &p),
                 UR_RESULT_ERROR_INVALID_USM_SIZE);
}
END_TEST

START_TEST(fill_and_memcpy) {
    uint64_t *d = NULL, out[64];
    const uint64_t pattern = 0x0102030405060708ull;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, sizeof out, (void **)&d));
    ur_event_handle_t filled = NULL, copied = NULL;
    ck_assert_ur_ok(
        urEnqueueUSMFill(T.queue, d, sizeof pattern, &pattern, sizeof out, 0, NULL, &filled));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, false, out, d, sizeof out, 1, &filled, &copied));
    ck_assert_ur_ok(urEventWait(1, &copied));
    for (int i = 0; i < 64; ++i)
        ck_assert_uint_eq(out[i], pattern);
    ck_assert_int_eq(cudat_event_command(filled), UR_COMMAND_USM_FILL);
    ck_assert_int_eq(cudat_event_command(copied), UR_COMMAND_USM_MEMCPY);
    ck_assert_ur_ok(urEventRelease(filled));
    ck_assert_ur_ok(urEventRelease(copied));
    ck_assert_ur_ok(urUSMFree(T.context, d));
}
END_TEST

START_TEST(fill_2d_and_memcpy_2d) {
    uint8_t *d = NULL, out[4][16];
    const uint16_t pattern = 0xabcd;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 64, (void **)&d));
    ck_assert_ur_ok(urEnqueueUSMFill(T.queue, d, 1, &(uint8_t){0}, 64, 0, NULL, NULL));
    // 8 bytes of each 16-byte row.
    ck_assert_ur_ok(
        urEnqueueUSMFill2D(T.queue, d, 16, sizeof pattern, &pattern, 8, 4, 0, NULL, NULL));
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(urEnqueueUSMMemcpy2D(T.queue, true, out, 16, d, 16, 16, 4, 0, NULL, &ev));
    ck_assert_int_eq(cudat_event_command(ev), UR_COMMAND_USM_MEMCPY_2D);
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 16; ++c)
            ck_assert_uint_eq(out[r][c], c >= 8 ? 0 : (c % 2 == 0 ? 0xcd : 0xab));
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(urUSMFree(T.context, d));
}
END_TEST

START_TEST(prefetch_and_advise_shared) {
    int *s = NULL;
    ck_assert_ur_ok(urUSMSharedAlloc(T.context, T.device, NULL, NULL, 4096, (void **)&s));
    s[0] = 5;
    ur_event_handle_t pre = NULL, adv = NULL;
    ck_assert_ur_ok(urEnqueueUSMPrefetch(T.queue, s, 4096, UR_USM_MIGRATION_FLAG_HOST_TO_DEVICE, 0,
                                         NULL, &pre));
    ck_assert_ur_ok(urEnqueueUSMAdvise(T.queue, s, 4096, UR_USM_ADVICE_FLAG_SET_READ_MOSTLY, &adv));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_int_eq(cudat_event_command(pre), UR_COMMAND_USM_PREFETCH);
    ck_assert_int_eq(cudat_event_command(adv), UR_COMMAND_USM_ADVISE);
    ck_assert_int_eq(s[0], 5);
    ck_assert_ur(
        urEnqueueUSMPrefetch(T.queue, s, 8192, UR_USM_MIGRATION_FLAG_HOST_TO_DEVICE, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urEventRelease(pre));
    ck_assert_ur_ok(urEventRelease(adv));
    ck_assert_ur_ok(urUSMFree(T.context, s));
}
END_TEST

START_TEST(free_unknown_pointer_is_invalid) {
    int local = 0;
    ck_assert_ur(urUSMFree(T.context, &local), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda usm");
    TCase *tc = cudat_tcase("urUSMDeviceAlloc");
    tcase_add_test(tc, alloc_alignment_rules);
    tcase_add_test(tc, device_alloc_beyond_device_is_invalid_size);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urUSMSharedAlloc");
    tcase_add_test(tc, shared_alloc_beyond_free_memory_refused);
    tcase_add_test(tc, host_alloc_beyond_device_memory_refused);
    usm_cases_add_ranges(tc);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urUSMGetMemAllocInfo");
    usm_cases_add_info(tc);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urUSMFree");
    tcase_add_test(tc, free_unknown_pointer_is_invalid);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urEnqueueUSMFill");
    tcase_add_test(tc, fill_and_memcpy);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urEnqueueUSMFill2D");
    tcase_add_test(tc, fill_2d_and_memcpy_2d);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urEnqueueUSMPrefetch");
    tcase_add_test(tc, prefetch_and_advise_shared);
    suite_add_tcase(s, tc);
    return cudat_main(s, false);
}
