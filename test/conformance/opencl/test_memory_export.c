// SPDX-License-Identifier: MIT
// Memory export on OpenCL: no OpenCL extension allocates exportable memory, so the device
// query is false and the entry points answer UNSUPPORTED_FEATURE, after the argument checks.
#include "oclt.h"

START_TEST(reported_absent) {
    ur_bool_t b = true;
    ck_assert_ur_ok(urDeviceGetInfo(
        T.device, UR_DEVICE_INFO_MEMORY_EXPORT_EXPORTABLE_DEVICE_MEM_EXP, sizeof b, &b, NULL));
    ck_assert(!b);
}
END_TEST

START_TEST(unsupported_after_checks) {
    const ur_exp_external_mem_type_t fd_type = UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD;
    void *p = NULL;
    int fd = -1;
    ck_assert_ur(urMemoryExportAllocExportableMemoryExp(T.context, T.device, 0, 64, fd_type, &p),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur(urMemoryExportAllocExportableMemoryExp(T.context, T.device, 0, 0, fd_type, &p),
                 UR_RESULT_ERROR_INVALID_USM_SIZE);
    ck_assert_ur(urMemoryExportAllocExportableMemoryExp(T.context, T.device, 3, 64, fd_type, &p),
                 UR_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    ck_assert_ur(urMemoryExportAllocExportableMemoryExp(T.context, NULL, 0, 64, fd_type, &p),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urMemoryExportAllocExportableMemoryExp(T.context, T.device, 0, 64,
                                                        (ur_exp_external_mem_type_t)9, &p),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_ur(urMemoryExportFreeExportableMemoryExp(T.context, T.device, &fd),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur(urMemoryExportFreeExportableMemoryExp(T.context, T.device, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urMemoryExportExportMemoryHandleExp(T.context, T.device, fd_type, &fd, &fd),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur(urMemoryExportExportMemoryHandleExp(T.context, T.device, fd_type, &fd, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl_memory_export");
    TCase *tc = oclt_tcase("urMemoryExportExp");
    tcase_add_test(tc, reported_absent);
    tcase_add_test(tc, unsupported_after_checks);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
