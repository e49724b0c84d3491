// SPDX-License-Identifier: MIT
// Memory export of the CUDA adapter: exportable memory written through UR, exported as a file
// descriptor, imported again with the CUDA driver's own calls (cuMemImportFromShareableHandle,
// reserve, map, access) and read back through UR: the same bytes. Then the errors: plain USM,
// handle types the adapter cannot export, double frees, other devices' calls.
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cuda.h>

#include "../common/memory_export_cases.h"
#include "cudat.h"

#define WORDS 4096

// The driver's calls the test imports with, from the libcuda.so.1 the adapter loaded.
static struct {
    CUresult (*import)(CUmemGenericAllocationHandle *, void *, CUmemAllocationHandleType);
    CUresult (*reserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
    CUresult (*map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long);
    CUresult (*access)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
    CUresult (*unmap)(CUdeviceptr, size_t);
    CUresult (*release)(CUmemGenericAllocationHandle);
    CUresult (*unreserve)(CUdeviceptr, size_t);
} drv;

static void load_driver(void) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    ck_assert_ptr_nonnull(lib);
    *(void **)&drv.import = dlsym(lib, "cuMemImportFromShareableHandle");
    *(void **)&drv.reserve = dlsym(lib, "cuMemAddressReserve");
    *(void **)&drv.map = dlsym(lib, "cuMemMap");
    *(void **)&drv.access = dlsym(lib, "cuMemSetAccess");
    *(void **)&drv.unmap = dlsym(lib, "cuMemUnmap");
    *(void **)&drv.release = dlsym(lib, "cuMemRelease");
    *(void **)&drv.unreserve = dlsym(lib, "cuMemAddressFree");
    ck_assert(drv.import && drv.reserve && drv.map && drv.access && drv.unmap && drv.release &&
              drv.unreserve);
}

START_TEST(support_reported) {
    ur_bool_t b = false;
    ck_assert_ur_ok(urDeviceGetInfo(
        T.device, UR_DEVICE_INFO_MEMORY_EXPORT_EXPORTABLE_DEVICE_MEM_EXP, sizeof b, &b, NULL));
    ck_assert(b);
}
END_TEST

START_TEST(export_import_same_bytes) {
    load_driver();
    void *p = NULL;
    ck_assert_ur_ok(urMemoryExportAllocExportableMemoryExp(T.context, T.device, 0, WORDS * 4,
                                                           UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, &p));
    ck_assert_ptr_nonnull(p);
    uint32_t pattern[WORDS], got[WORDS];
    for (uint32_t i = 0; i < WORDS; ++i)
        pattern[i] = 0xE0000000u + i * 7;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, p, pattern, sizeof pattern, 0, NULL, NULL));
    int fd = -1;
    ck_assert_ur_ok(urMemoryExportExportMemoryHandleExp(
        T.context, T.device, UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, p, &fd));
    ck_assert_int_ge(fd, 0);

    // Import as another API would; the allocation is at least one granule (2 MiB here).
    CUmemGenericAllocationHandle h = 0;
    ck_assert_int_eq(drv.import(&h, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR),
                     CUDA_SUCCESS);
    size_t size = (size_t)2 << 20;
    CUdeviceptr q = 0;
    ck_assert_int_eq(drv.reserve(&q, size, 0, 0, 0), CUDA_SUCCESS);
    ck_assert_int_eq(drv.map(q, size, 0, h, 0), CUDA_SUCCESS);
    CUmemAccessDesc access = {{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    ck_assert_int_eq(drv.access(q, size, &access, 1), CUDA_SUCCESS);
    void *imported = (void *)(uintptr_t)q;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, got, imported, sizeof got, 0, NULL, NULL));
    ck_assert_mem_eq(got, pattern, sizeof got);
    // And the other way: written through the import, read through the export.
    ck_assert_ur_ok(
        urEnqueueUSMFill(T.queue, imported, 4, &(uint32_t){0x5A5A5A5Au}, 64, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, got, p, 64, 0, NULL, NULL));
    for (int i = 0; i < 16; ++i)
        ck_assert_uint_eq(got[i], 0x5A5A5A5Au);
    ck_assert_int_eq(drv.unmap(q, size), CUDA_SUCCESS);
    ck_assert_int_eq(drv.release(h), CUDA_SUCCESS);
    ck_assert_int_eq(drv.unreserve(q, size), CUDA_SUCCESS);
    close(fd);
    ck_assert_ur_ok(urMemoryExportFreeExportableMemoryExp(T.context, T.device, p));
}
END_TEST

START_TEST(alignment_and_odd_sizes) {
    void *p = NULL;
    ck_assert_ur_ok(urMemoryExportAllocExportableMemoryExp(
        T.context, T.device, (size_t)4 << 20, 1000, UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, &p));
    ck_assert_uint_eq((uintptr_t)p % ((size_t)4 << 20), 0);
    char bytes[1000];
    memset(bytes, 0x33, sizeof bytes);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, p, bytes, sizeof bytes, 0, NULL, NULL));
    ck_assert_ur_ok(urMemoryExportFreeExportableMemoryExp(T.context, T.device, p));
}
END_TEST

// CUDA makes no DMA-BUF memory.
START_TEST(bad_arguments) {
    void *p = NULL;
    ck_assert_ur(urMemoryExportAllocExportableMemoryExp(T.context, T.device, 0, 64,
                                                        UR_EXP_EXTERNAL_MEM_TYPE_DMA_BUF, &p),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda_memory_export");
    TCase *tc = cudat_tcase("urMemoryExportExp");
    tcase_add_test(tc, support_reported);
    tcase_add_test(tc, export_import_same_bytes);
    tcase_add_test(tc, alignment_and_odd_sizes);
    tcase_add_test(tc, bad_arguments);
    memory_export_cases_add(tc);
    suite_add_tcase(s, tc);
    return cudat_main(s, false);
}
