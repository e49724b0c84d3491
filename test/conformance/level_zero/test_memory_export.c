// SPDX-License-Identifier: MIT
// Memory export on the Level Zero adapter (simulated driver): exportable device memory as an
// opaque file descriptor, whose memory (mapped again, as an importer would) holds the bytes
// written through UR; a DMA buffer export; the lifecycle and errors. Teardown checks that no
// allocation is left.
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../common/memory_export_cases.h"
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

// Memory made for one handle type is exported as that type only.
START_TEST(bad_arguments) {
    void *p = NULL;
    int fd = -1;
    ck_assert_ur_ok(
        urMemoryExportAllocExportableMemoryExp(T.context, T.device, 0, 64, fd_type, &p));
    ck_assert_ur(urMemoryExportExportMemoryHandleExp(T.context, T.device,
                                                     UR_EXP_EXTERNAL_MEM_TYPE_DMA_BUF, p, &fd),
                 UR_RESULT_ERROR_INVALID_VALUE);
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
    memory_export_cases_add(tc);
    suite_add_tcase(s, tc);
    return l0t_main(s);
}
