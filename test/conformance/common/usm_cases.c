// SPDX-License-Identifier: MIT
// The USM cases every adapter shares (usm_cases.h).
#include "usm_cases.h"

#include <stdint.h>

// Whether the device has USM (some OpenCL runtimes have none).
static bool has_usm(void) {
    uint32_t caps = 0;
    ck_assert_ur_ok(urDeviceGetInfo(urc_test_opened.device, UR_DEVICE_INFO_USM_DEVICE_SUPPORT,
                                    sizeof caps, &caps, NULL));
    return caps != 0;
}

static void *alloc(ur_usm_type_t kind, size_t size) {
    void *p = NULL;
    if (kind == UR_USM_TYPE_HOST)
        ck_assert_ur_ok(urUSMHostAlloc(urc_test_opened.context, NULL, NULL, size, &p));
    else if (kind == UR_USM_TYPE_DEVICE)
        ck_assert_ur_ok(urUSMDeviceAlloc(urc_test_opened.context, urc_test_opened.device, NULL,
                                         NULL, size, &p));
    else
        ck_assert_ur_ok(urUSMSharedAlloc(urc_test_opened.context, urc_test_opened.device, NULL,
                                         NULL, size, &p));
    return p;
}

// Type and base answered for a pointer inside the allocation; size at least what was asked.
START_TEST(usm_alloc_info_of_each_kind) {
    if (!has_usm())
        return;
    static const ur_usm_type_t kinds[] = {UR_USM_TYPE_HOST, UR_USM_TYPE_DEVICE, UR_USM_TYPE_SHARED};
    for (int i = 0; i < 3; ++i) {
        char *p = alloc(kinds[i], 256);
        ur_usm_type_t t = UR_USM_TYPE_UNKNOWN;
        void *base = NULL;
        size_t size = 0;
        ck_assert_ur_ok(urUSMGetMemAllocInfo(urc_test_opened.context, p + 10,
                                             UR_USM_ALLOC_INFO_TYPE, sizeof t, &t, NULL));
        ck_assert_ur_ok(urUSMGetMemAllocInfo(urc_test_opened.context, p + 10,
                                             UR_USM_ALLOC_INFO_BASE_PTR, sizeof base, &base, NULL));
        ck_assert_ur_ok(urUSMGetMemAllocInfo(urc_test_opened.context, p, UR_USM_ALLOC_INFO_SIZE,
                                             sizeof size, &size, NULL));
        ck_assert_int_eq(t, kinds[i]);
        ck_assert_ptr_eq(base, p);
        ck_assert_uint_ge(size, 256);
        if (kinds[i] == UR_USM_TYPE_DEVICE) {
            ur_device_handle_t d = NULL;
            ck_assert_ur_ok(urUSMGetMemAllocInfo(urc_test_opened.context, p,
                                                 UR_USM_ALLOC_INFO_DEVICE, sizeof d, &d, NULL));
            ck_assert_ptr_eq(d, urc_test_opened.device);
        }
        ck_assert_ur_ok(urUSMFree(urc_test_opened.context, p));
    }
}
END_TEST

START_TEST(usm_unknown_pointer_is_unknown) {
    if (!has_usm())
        return;
    int local = 0;
    ur_usm_type_t type = UR_USM_TYPE_HOST;
    ck_assert_ur_ok(urUSMGetMemAllocInfo(urc_test_opened.context, &local, UR_USM_ALLOC_INFO_TYPE,
                                         sizeof type, &type, NULL));
    ck_assert_int_eq(type, UR_USM_TYPE_UNKNOWN);
}
END_TEST

// USM commands are checked against the allocation that holds their pointer, without overflow.
START_TEST(usm_ranges_past_their_allocation_refused) {
    if (!has_usm())
        return;
    void *d = alloc(UR_USM_TYPE_DEVICE, 64);
    uint8_t host[128] = {0};
    uint8_t *end = (uint8_t *)d + 64;
    ck_assert_ur(urEnqueueUSMMemcpy(urc_test_opened.queue, true, d, host, 65, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueUSMMemcpy(urc_test_opened.queue, true, host, end - 8, 16, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueUSMFill(urc_test_opened.queue, d, 1, host, SIZE_MAX, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueUSMPrefetch(urc_test_opened.queue, (uint8_t *)d + 1, 64,
                                      UR_USM_MIGRATION_FLAG_HOST_TO_DEVICE, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueUSMAdvise(urc_test_opened.queue, (uint8_t *)d + 1, 64, 0, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(
        urEnqueueUSMMemcpy2D(urc_test_opened.queue, true, d, 32, host, 32, 32, 3, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(
        urEnqueueUSMMemcpy2D(urc_test_opened.queue, true, d, 32, host, 32, 32, 2, 0, NULL, NULL));
    ck_assert_ur_ok(urUSMFree(urc_test_opened.context, d));
}
END_TEST

void usm_cases_add_info(TCase *tc) {
    tcase_add_test(tc, usm_alloc_info_of_each_kind);
    tcase_add_test(tc, usm_unknown_pointer_is_unknown);
}

void usm_cases_add_ranges(TCase *tc) {
    tcase_add_test(tc, usm_ranges_past_their_allocation_refused);
}
