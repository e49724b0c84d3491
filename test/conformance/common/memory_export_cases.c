// SPDX-License-Identifier: MIT
// The memory-export cases the CUDA and Level Zero suites share (memory_export_cases.h).
#include "memory_export_cases.h"

#include <stdint.h>

static const ur_exp_external_mem_type_t fd_type = UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD;

static ur_result_t alloc(size_t align, size_t size, ur_exp_external_mem_type_t type, void **p) {
    return urMemoryExportAllocExportableMemoryExp(urc_test_opened.context, urc_test_opened.device,
                                                  align, size, type, p);
}

START_TEST(export_bad_arguments) {
    void *p = NULL;
    int fd = -1;
    ck_assert_ur(alloc(0, 0, fd_type, &p), UR_RESULT_ERROR_INVALID_USM_SIZE);
    ck_assert_ur(alloc(6, 64, fd_type, &p), UR_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    ck_assert_ur(alloc(0, SIZE_MAX / 2, fd_type, &p), UR_RESULT_ERROR_UNSUPPORTED_SIZE);
    ck_assert_ur(alloc(0, 64, (ur_exp_external_mem_type_t)99, &p),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_ur(alloc(0, 64, UR_EXP_EXTERNAL_MEM_TYPE_WIN32_NT, &p),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
    ck_assert_ur(alloc(0, 64, fd_type, NULL), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    // Plain USM is not exportable memory.
    void *plain = NULL;
    ck_assert_ur_ok(
        urUSMDeviceAlloc(urc_test_opened.context, urc_test_opened.device, NULL, NULL, 64, &plain));
    ck_assert_ur(urMemoryExportExportMemoryHandleExp(urc_test_opened.context,
                                                     urc_test_opened.device, fd_type, plain, &fd),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urMemoryExportFreeExportableMemoryExp(urc_test_opened.context,
                                                       urc_test_opened.device, plain),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urUSMFree(urc_test_opened.context, plain));
    ck_assert_ur_ok(alloc(0, 64, fd_type, &p));
    ck_assert_ur(urMemoryExportExportMemoryHandleExp(urc_test_opened.context,
                                                     urc_test_opened.device, fd_type, p, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    // Never as a type this adapter does not export.
    ck_assert_ur(urMemoryExportExportMemoryHandleExp(urc_test_opened.context,
                                                     urc_test_opened.device,
                                                     UR_EXP_EXTERNAL_MEM_TYPE_WIN32_NT, p, &fd),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
    // Exported only from its start.
    ck_assert_ur(urMemoryExportExportMemoryHandleExp(
                     urc_test_opened.context, urc_test_opened.device, fd_type, (char *)p + 8, &fd),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(
        urMemoryExportFreeExportableMemoryExp(urc_test_opened.context, urc_test_opened.device, p));
    ck_assert_ur(
        urMemoryExportFreeExportableMemoryExp(urc_test_opened.context, urc_test_opened.device, p),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urMemoryExportExportMemoryHandleExp(urc_test_opened.context,
                                                     urc_test_opened.device, fd_type, p, &fd),
                 UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(export_other_context) {
    ur_context_handle_t other = NULL;
    ck_assert_ur_ok(urContextCreate(1, &urc_test_opened.device, NULL, &other));
    void *p = NULL;
    ck_assert_ur_ok(alloc(0, 64, fd_type, &p));
    int fd = -1;
    ck_assert_ur(
        urMemoryExportExportMemoryHandleExp(other, urc_test_opened.device, fd_type, p, &fd),
        UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur(urMemoryExportFreeExportableMemoryExp(other, urc_test_opened.device, p),
                 UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur_ok(
        urMemoryExportFreeExportableMemoryExp(urc_test_opened.context, urc_test_opened.device, p));
    ck_assert_ur_ok(urContextRelease(other));
}
END_TEST

// Memory with its own free call is refused by urUSMFree (the CUDA driver's cuMemFree of it
// corrupted the allocation's bookkeeping), inside as at its start, and stays usable.
START_TEST(export_usm_free_refused) {
    const urc_test_handles_t *t = &urc_test_opened;
    void *p = NULL;
    ck_assert_ur_ok(alloc(0, 4096, fd_type, &p));
    ck_assert_ur(urUSMFree(t->context, p), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urUSMFree(t->context, (char *)p + 64), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    uint32_t in[16] = {1, 2, 3}, out[16] = {0};
    ck_assert_ur_ok(urEnqueueUSMMemcpy(t->queue, true, p, in, sizeof in, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(t->queue, true, out, p, sizeof out, 0, NULL, NULL));
    ck_assert_mem_eq(in, out, sizeof in);
    ck_assert_ur_ok(urMemoryExportFreeExportableMemoryExp(t->context, t->device, p));
}
END_TEST

void memory_export_cases_add(TCase *tc) {
    tcase_add_test(tc, export_bad_arguments);
    tcase_add_test(tc, export_other_context);
    tcase_add_test(tc, export_usm_free_refused);
}
