// SPDX-License-Identifier: MIT
// Memory export on the Level Zero adapter (simulated driver): exportable device memory as an
// opaque file descriptor, whose memory (mapped again, as an importer would) holds the bytes
// written through UR; a DMA buffer export; the lifecycle and errors. Teardown checks that no
// allocation is left.
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "l0t.h"

static const ur_exp_external_mem_type_t fd_type = UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD;

START_TEST(support_reported) {
    ur_bool_t b = false;
    ck_assert_ur_ok(urDeviceGetInfo(
        T.device, UR_DEVICE_INFO_MEMORY_EXPORT_EXPORTABLE_DEVICE_MEM_EXP, sizeof b, &b, NULL));
    ck_assert(b);
}
END_TEST

static void export_and_read_back(ur_exp_external_mem_type_t type) {
    enum { N = 1024 };
    void *p = NULL;
    ck_assert_ur_ok(
        urMemoryExportAllocExportableMemoryExp(T.context, T.device, 0, N * 4, type, &p));
    uint32_t pattern[N];
    for (uint32_t i = 0; i < N; ++i)
        pattern[i] = 0xD0000000u + i;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, p, pattern, sizeof pattern, 0, NULL, NULL));
    int fd = -1;
    ck_assert_ur_ok(urMemoryExportExportMemoryHandleExp(T.context, T.device, type, p, &fd));
    ck_assert_int_ge(fd, 0);
    // The simulator's device memory is host memory: the descriptor maps to the same bytes.
    void *view = mmap(NULL, sizeof pattern, PROT_READ, MAP_SHARED, fd, 0);
    ck_assert_ptr_ne(view, MAP_FAILED);
    ck_assert_mem_eq(view, pattern, sizeof pattern);
    munmap(view, sizeof pattern);
    close(fd);
    ck_assert_ur_ok(urMemoryExportFreeExportableMemoryExp(T.context, T.device, p));
}

START_TEST(opaque_fd_same_bytes) {
    export_and_read_back(fd_type);
}
END_TEST

START_TEST(dma_buf_same_bytes) {
    export_and_read_back(UR_EXP_EXTERNAL_MEM_TYPE_DMA_BUF);
}
END_TEST

START_TEST(aligned) {
    void *p = NULL;
    ck_assert_ur_ok(
        urMemoryExportAllocExportableMemoryExp(T.context, T.device, 1 << 16, 100, fd_type, &p));
    ck_assert_uint_eq((uintptr_t)p % (1 << 16), 0);
    ck_assert_ur_ok(urMemoryExportFreeExportableMemoryExp(T.context, T.device, p));
}
END_TEST

START_TEST(bad_arguments) {
    void *p = NULL;
    int fd = -1;
    ck_assert_ur(urMemoryExportAllocExportableMemoryExp(T.context, T.device, 0, 0, fd_type, &p),
                 UR_RESULT_ERROR_INVALID_USM_SIZE);
    ck_assert_ur(urMemoryExportAllocExportableMemoryExp(T.context, T.device, 6, 64, fd_type, &p),
                 UR_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    ck_assert_ur(
        urMemoryExportAllocExportableMemoryExp(T.context, T.device, 0, SIZE_MAX / 2, fd_type, &p),
        UR_RESULT_ERROR_UNSUPPORTED_SIZE);
    ck_assert_ur(urMemoryExportAllocExportableMemoryExp(T.context, T.device, 0, 64,
                                                        UR_EXP_EXTERNAL_MEM_TYPE_WIN32_NT, &p),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
    ck_assert_ur(urMemoryExportAllocExportableMemoryExp(T.context, T.device, 0, 64,
                                                        (ur_exp_external_mem_type_t)5, &p),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    void *plain = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 64, &plain));
    ck_assert_ur(urMemoryExportExportMemoryHandleExp(T.context, T.device, fd_type, plain, &fd),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urMemoryExportFreeExportableMemoryExp(T.context, T.device, plain),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urUSMFree(T.context, plain));
    ck_assert_ur_ok(
        urMemoryExportAllocExportableMemoryExp(T.context, T.device, 0, 64, fd_type, &p));
    // Exported as the type it was made for, and only from its start.
    ck_assert_ur(urMemoryExportExportMemoryHandleExp(T.context, T.device,
                                                     UR_EXP_EXTERNAL_MEM_TYPE_DMA_BUF, p, &fd),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(
        urMemoryExportExportMemoryHandleExp(T.context, T.device, fd_type, (char *)p + 4, &fd),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urMemoryExportExportMemoryHandleExp(T.context, T.device, fd_type, p, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur_ok(urMemoryExportFreeExportableMemoryExp(T.context, T.device, p));
    ck_assert_ur(urMemoryExportFreeExportableMemoryExp(T.context, T.device, p),
                 UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(other_context) {
    ur_context_handle_t other = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    void *p = NULL;
    ck_assert_ur_ok(
        urMemoryExportAllocExportableMemoryExp(T.context, T.device, 0, 64, fd_type, &p));
    int fd = -1;
    ck_assert_ur(urMemoryExportExportMemoryHandleExp(other, T.device, fd_type, p, &fd),
                 UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur(urMemoryExportFreeExportableMemoryExp(other, T.device, p),
                 UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur_ok(urMemoryExportFreeExportableMemoryExp(T.context, T.device, p));
    ck_assert_ur_ok(urContextRelease(other));
}
END_TEST

// Memory with its own free call is refused by urUSMFree (the CUDA driver's cuMemFree of it
// corrupted the allocation's bookkeeping), inside as at its start, and stays usable.
START_TEST(usm_free_refused) {
    void *p = NULL;
    ck_assert_ur_ok(
        urMemoryExportAllocExportableMemoryExp(T.context, T.device, 0, 4096, fd_type, &p));
    ck_assert_ur(urUSMFree(T.context, p), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urUSMFree(T.context, (char *)p + 64), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    uint32_t in[16] = {1, 2, 3}, out[16] = {0};
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, p, in, sizeof in, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, p, sizeof out, 0, NULL, NULL));
    ck_assert_mem_eq(in, out, sizeof in);
    ck_assert_ur_ok(urMemoryExportFreeExportableMemoryExp(T.context, T.device, p));
}
END_TEST

int main(void) {
    Suite *s = suite_create("l0_memory_export");
    TCase *tc = l0t_tcase("urMemoryExportExp");
    tcase_add_test(tc, support_reported);
    tcase_add_test(tc, opaque_fd_same_bytes);
    tcase_add_test(tc, dma_buf_same_bytes);
    tcase_add_test(tc, aligned);
    tcase_add_test(tc, bad_arguments);
    tcase_add_test(tc, other_context);
    tcase_add_test(tc, usm_free_refused);
    suite_add_tcase(s, tc);
    return l0t_main(s);
}
