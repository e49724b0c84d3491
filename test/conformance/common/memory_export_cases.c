// SPDX-License-Identifier: MIT
// The memory-export cases the CUDA and Level Zero suites share (memory_export_cases.h).
#include "memory_export_cases.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

// urBindlessImagesImportExternalMemoryExp checks the descriptor before the driver maps it: a
// closed descriptor, /dev/null and a size 16 times what the descriptor holds are refused (they
// were accepted), both for a memfd and for memory urMemoryExport* exported.
static void import_refused(int fd, size_t size) {
    ur_exp_file_descriptor_t f = {UR_STRUCTURE_TYPE_EXP_FILE_DESCRIPTOR, NULL, fd};
    ur_exp_external_mem_desc_t md = {UR_STRUCTURE_TYPE_EXP_EXTERNAL_MEM_DESC, &f};
    ur_exp_external_mem_handle_t ext = NULL;
    ck_assert_ur(urBindlessImagesImportExternalMemoryExp(
                     urc_test_opened.context, urc_test_opened.device, size,
                     UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, &md, &ext),
                 UR_RESULT_ERROR_INVALID_VALUE);
}

START_TEST(import_checks_the_descriptor) {
    enum { BYTES = 4096 };
    int mfd = memfd_create("urc_import_checks", MFD_CLOEXEC);
    ck_assert_int_ge(mfd, 0);
    ck_assert_int_eq(ftruncate(mfd, BYTES), 0);
    import_refused(mfd, 16 * BYTES);
    close(mfd);
    import_refused(mfd, BYTES); // closed
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    ck_assert_int_ge(null, 0);
    import_refused(null, BYTES);
    close(null);
    ur_bool_t exportable = false;
    ck_assert_ur_ok(urDeviceGetInfo(urc_test_opened.device,
                                    UR_DEVICE_INFO_MEMORY_EXPORT_EXPORTABLE_DEVICE_MEM_EXP,
                                    sizeof exportable, &exportable, NULL));
    if (!exportable)
        return;
    void *p = NULL;
    ck_assert_ur_ok(urMemoryExportAllocExportableMemoryExp(urc_test_opened.context,
                                                           urc_test_opened.device, 0, BYTES,
                                                           UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, &p));
    int fd = -1;
    ck_assert_ur_ok(
        urMemoryExportExportMemoryHandleExp(urc_test_opened.context, urc_test_opened.device,
                                            UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, p, &fd));
    struct stat st;
    ck_assert_int_eq(fstat(fd, &st), 0);
    // Where the descriptor tells its size (the simulators' memfds), 16 times it is refused.
    if (S_ISREG(st.st_mode) && st.st_size > 0)
        import_refused(fd, 16 * (size_t)st.st_size);
    close(fd);
    ck_assert_ur_ok(
        urMemoryExportFreeExportableMemoryExp(urc_test_opened.context, urc_test_opened.device, p));
}
END_TEST

void memory_export_cases_add(TCase *tc) {
    tcase_add_test(tc, export_bad_arguments);
    tcase_add_test(tc, export_other_context);
    tcase_add_test(tc, export_usm_free_refused);
    tcase_add_test(tc, import_checks_the_descriptor);
}
