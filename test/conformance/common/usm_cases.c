// SPDX-License-Identifier: MIT
// The USM cases every adapter shares (usm_cases.h).
#include "usm_cases.h"

#include <stdint.h>

static struct {
    ur_context_handle_t context;
    ur_device_handle_t device;
    ur_queue_handle_t queue;
    bool usm;
} H;

void usm_cases_bind(ur_context_handle_t context, ur_device_handle_t device, ur_queue_handle_t queue,
                    bool usm) {
    H.context = context;
    H.device = device;
    H.queue = queue;
    H.usm = usm;
}

static void *alloc(ur_usm_type_t kind, size_t size) {
    void *p = NULL;
    if (kind == UR_USM_TYPE_HOST)
        ck_assert_ur_ok(urUSMHostAlloc(H.context, NULL, NULL, size, &p));
    else if (kind == UR_USM_TYPE_DEVICE)
        ck_assert_ur_ok(urUSMDeviceAlloc(H.context, H.device, NULL, NULL, size, &p));
    else
        ck_assert_ur_ok(urUSMSharedAlloc(H.context, H.device, NULL, NULL, size, &p));
    return p;
}

// Type and base answered for a pointer inside the allocation; size at least what was asked.
START_TEST(usm_alloc_info_of_each_kind) {
    if (!H.usm)
        return;
    static const ur_usm_type_t kinds[] = {UR_USM_TYPE_HOST, UR_USM_TYPE_DEVICE, UR_USM_TYPE_SHARED};
    for (int i = 0; i < 3; ++i) {
        char *p = alloc(kinds[i], 256);
        ur_usm_type_t t = UR_USM_TYPE_UNKNOWN;
        void *base = NULL;
        size_t size = 0;
        ck_assert_ur_ok(
            urUSMGetMemAllocInfo(H.context, p + 10, UR_USM_ALLOC_INFO_TYPE, sizeof t, &t, NULL));
        ck_assert_ur_ok(urUSMGetMemAllocInfo(H.context, p + 10, UR_USM_ALLOC_INFO_BASE_PTR,
                                             sizeof base, &base, NULL));
        ck_assert_ur_ok(
            urUSMGetMemAllocInfo(H.context, p, UR_USM_ALLOC_INFO_SIZE, sizeof size, &size, NULL));
        ck_assert_int_eq(t, kinds[i]);
        ck_assert_ptr_eq(base, p);
        ck_assert_uint_ge(size, 256);
        if (kinds[i] == UR_USM_TYPE_DEVICE) {
            ur_device_handle_t d = NULL;
            ck_assert_ur_ok(
                urUSMGetMemAllocInfo(H.context, p, UR_USM_ALLOC_INFO_DEVICE, sizeof d, &d, NULL));
            ck_assert_ptr_eq(d, H.device);
        }
        ck_assert_ur_ok(urUSMFree(H.context, p));
    }
}
END_TEST

START_TEST(usm_unknown_pointer_is_unknown) {
    if (!H.usm)
        return;
    int local = 0;
    ur_usm_type_t type = UR_USM_TYPE_HOST;
    ck_assert_ur_ok(
        urUSMGetMemAllocInfo(H.context, &local, UR_USM_ALLOC_INFO_TYPE, sizeof type, &type, NULL));
    ck_assert_int_eq(type, UR_USM_TYPE_UNKNOWN);
}
END_TEST

// USM commands are checked against the allocation that holds their pointer, without overflow.
START_TEST(usm_ranges_past_their_allocation_refused) {
    if (!H.usm)
        return;
    void *d = alloc(UR_USM_TYPE_DEVICE, 64);
    uint8_t host[128] = {0};
    uint8_t *end = (uint8_t *)d + 64;
    ck_assert_ur(urEnqueueUSMMemcpy(H.queue, true, d, host, 65, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueUSMMemcpy(H.queue, true, host, end - 8, 16, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueUSMFill(H.queue, d, 1, host, SIZE_MAX, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueUSMPrefetch(H.queue, (uint8_t *)d + 1, 64,
                                      UR_USM_MIGRATION_FLAG_HOST_TO_DEVICE, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueUSMAdvise(H.queue, (uint8_t *)d + 1, 64, 0, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueUSMMemcpy2D(H.queue, true, d, 32, host, 32, 32, 3, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urEnqueueUSMMemcpy2D(H.queue, true, d, 32, host, 32, 32, 2, 0, NULL, NULL));
    ck_assert_ur_ok(urUSMFree(H.context, d));
}
END_TEST

void usm_cases_add_info(TCase *tc) {
    tcase_add_test(tc, usm_alloc_info_of_each_kind);
    tcase_add_test(tc, usm_unknown_pointer_is_unknown);
}

void usm_cases_add_ranges(TCase *tc) {
    tcase_add_test(tc, usm_ranges_past_their_allocation_refused);
}
