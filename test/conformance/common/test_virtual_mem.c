// SPDX-License-Identifier: MIT
// Virtual and physical memory through the loader, one suite for every adapter: reservations,
// maps of one physical allocation at two addresses (they alias), access rights, granularity
// and range errors, physical memory queries. Adapters without virtual memory (OpenCL) report
// UR_DEVICE_INFO_VIRTUAL_MEMORY_SUPPORT false and answer UNSUPPORTED_FEATURE.
#include <stdint.h>
#include <string.h>

#include "urc_fixture.h"

static urc_test_handles_t T;
static struct {
    bool vm; // UR_DEVICE_INFO_VIRTUAL_MEMORY_SUPPORT
} has;

static void setup(void) {
    urc_test_handles_open(&T);
    has.vm = urc_test_device_says(T.device, UR_DEVICE_INFO_VIRTUAL_MEMORY_SUPPORT);
}

static void teardown(void) {
    urc_test_handles_close(&T);
}

#define NEED_VM()                                                                                  \
    do {                                                                                           \
        if (!has.vm) {                                                                             \
            void *va_ = NULL;                                                                      \
            ck_assert_ur(urVirtualMemReserve(T.context, NULL, 1 << 21, &va_),                      \
                         UR_RESULT_ERROR_UNSUPPORTED_FEATURE);                                     \
            return;                                                                                \
        }                                                                                          \
    } while (0)

static size_t granularity(void) {
    size_t g = 0;
    ck_assert_ur_ok(urVirtualMemGranularityGetInfo(
        T.context, T.device, 1, UR_VIRTUAL_MEM_GRANULARITY_INFO_MINIMUM, sizeof g, &g, NULL));
    ck_assert_uint_gt(g, 0);
    return g;
}

static ur_physical_mem_handle_t physical(size_t size) {
    ur_physical_mem_handle_t m = NULL;
    ck_assert_ur_ok(urPhysicalMemCreate(T.context, T.device, size, NULL, &m));
    return m;
}

START_TEST(granularity_minimum_and_recommended) {
    NEED_VM();
    size_t rec = 0;
    ck_assert_ur_ok(urVirtualMemGranularityGetInfo(
        T.context, NULL, 1, UR_VIRTUAL_MEM_GRANULARITY_INFO_RECOMMENDED, sizeof rec, &rec, NULL));
    ck_assert_uint_ge(rec, granularity());
}
END_TEST

START_TEST(reserve_map_write_read_unmap) {
    NEED_VM();
    size_t g = granularity();
    void *va = NULL;
    ck_assert_ur_ok(urVirtualMemReserve(T.context, NULL, 2 * g, &va));
    ck_assert_ptr_nonnull(va);
    ur_physical_mem_handle_t m = physical(g);
    // Both halves of the range show the same physical memory.
    ck_assert_ur_ok(urVirtualMemMap(T.context, va, g, m, 0, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE));
    char *second = (char *)va + g;
    ck_assert_ur_ok(
        urVirtualMemMap(T.context, second, g, m, 0, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE));
    ur_virtual_mem_access_flags_t mode = 0;
    ck_assert_ur_ok(urVirtualMemGetInfo(T.context, va, g, UR_VIRTUAL_MEM_INFO_ACCESS_MODE,
                                        sizeof mode, &mode, NULL));
    ck_assert_uint_eq(mode, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE);
    uint32_t in[64], out[64] = {0};
    for (int i = 0; i < 64; ++i)
        in[i] = 0xC0DE0000u + (uint32_t)i;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, va, in, sizeof in, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, second, sizeof out, 0, NULL, NULL));
    ck_assert_mem_eq(in, out, sizeof in);
    ck_assert_ur_ok(urVirtualMemSetAccess(T.context, va, g, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_ONLY));
    ck_assert_ur_ok(urVirtualMemGetInfo(T.context, va, g, UR_VIRTUAL_MEM_INFO_ACCESS_MODE,
                                        sizeof mode, &mode, NULL));
    ck_assert_uint_eq(mode, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_ONLY);
    ck_assert_ur_ok(urVirtualMemUnmap(T.context, va, g));
    ck_assert_ur_ok(urVirtualMemUnmap(T.context, second, g));
    ck_assert_ur_ok(urPhysicalMemRelease(m));
    ck_assert_ur_ok(urVirtualMemFree(T.context, va, 2 * g));
}
END_TEST

START_TEST(bad_sizes_and_ranges_are_refused) {
    NEED_VM();
    size_t g = granularity();
    void *va = NULL;
    ck_assert_ur(urVirtualMemReserve(T.context, NULL, g + 1, &va), UR_RESULT_ERROR_INVALID_SIZE);
    ur_physical_mem_handle_t m = NULL;
    ck_assert_ur(urPhysicalMemCreate(T.context, T.device, g / 2, NULL, &m),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ur_physical_mem_properties_t props = {UR_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES, NULL, 0x1};
    ck_assert_ur(urPhysicalMemCreate(T.context, T.device, g, &props, &m),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_ur_ok(urVirtualMemReserve(T.context, NULL, g, &va));
    m = physical(g);
    // Outside the reservation, past the physical memory, misaligned, twice.
    ck_assert_int_ne(
        urVirtualMemMap(T.context, (char *)va + g, g, m, 0, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE),
        UR_RESULT_SUCCESS);
    ck_assert_ur(urVirtualMemMap(T.context, va, g, m, g, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(
        urVirtualMemMap(T.context, (char *)va + 1, g, m, 0, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urVirtualMemMap(T.context, va, g, m, 0, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE));
    ck_assert_int_ne(urVirtualMemMap(T.context, va, g, m, 0, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE),
                     UR_RESULT_SUCCESS);
    // A reservation with memory mapped in it is not given back (the drivers freed it and left
    // the range unusable).
    ck_assert_ur(urVirtualMemFree(T.context, va, g), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urVirtualMemUnmap(T.context, va, g));
    // A second unmap is refused (CUDA's own driver on an H100 or H200 accepted it).
    ck_assert_ur(urVirtualMemUnmap(T.context, va, g), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urPhysicalMemRelease(m));
    ck_assert_ur_ok(urVirtualMemFree(T.context, va, g));
    ck_assert_int_ne(urVirtualMemFree(T.context, va, g), UR_RESULT_SUCCESS);
}
END_TEST

// urUSMFree of virtual memory, mapped or not, is refused: the CUDA adapter gave the address
// to cuMemFree (the simulated driver then freed an mmap'ed range).
START_TEST(usm_free_of_virtual_memory_refused) {
    NEED_VM();
    size_t g = granularity();
    void *va = NULL;
    ck_assert_ur_ok(urVirtualMemReserve(T.context, NULL, 4 * g, &va));
    ur_physical_mem_handle_t m = physical(2 * g);
    ck_assert_ur_ok(
        urVirtualMemMap(T.context, va, 2 * g, m, 0, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE));
    ck_assert_ur(urUSMFree(T.context, va), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urUSMFree(T.context, (char *)va + g), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urUSMFree(T.context, (char *)va + 3 * g), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    // Still mapped and usable.
    uint32_t in[32], out[32] = {0};
    for (int i = 0; i < 32; ++i)
        in[i] = 0xFEED0000u + (uint32_t)i;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, va, in, sizeof in, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, va, sizeof out, 0, NULL, NULL));
    ck_assert_mem_eq(in, out, sizeof in);
    ck_assert_ur_ok(urVirtualMemUnmap(T.context, va, 2 * g));
    ck_assert_ur_ok(urPhysicalMemRelease(m));
    ck_assert_ur_ok(urVirtualMemFree(T.context, va, 4 * g));
}
END_TEST

// Two physical allocations mapped side by side are one run of memory: a copy or fill across
// the seam is valid (the CUDA adapter's range check saw only one map and said INVALID_SIZE).
START_TEST(copy_across_the_seam) {
    NEED_VM();
    size_t g = granularity();
    void *va = NULL;
    ck_assert_ur_ok(urVirtualMemReserve(T.context, NULL, 2 * g, &va));
    ur_physical_mem_handle_t a = physical(g), b = physical(g);
    ck_assert_ur_ok(urVirtualMemMap(T.context, va, g, a, 0, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE));
    char *second = (char *)va + g;
    ck_assert_ur_ok(
        urVirtualMemMap(T.context, second, g, b, 0, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE));
    enum { N = 256 };
    uint8_t in[N], out[N];
    for (int i = 0; i < N; ++i)
        in[i] = (uint8_t)(i * 3 + 1);
    char *across = second - N / 2;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, across, in, N, 0, NULL, NULL));
    memset(out, 0, N);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, across, N, 0, NULL, NULL));
    ck_assert_mem_eq(in, out, N);
    uint8_t pattern = 0x5A;
    ck_assert_ur_ok(urEnqueueUSMFill(T.queue, across, 1, &pattern, N, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, across, N, 0, NULL, NULL));
    for (int i = 0; i < N; ++i)
        ck_assert_uint_eq(out[i], 0x5A);
    // Past the end of the reservation's mapped memory is still refused.
    ck_assert_ur(urEnqueueUSMMemcpy(T.queue, true, second + g - N / 2, in, N, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    // Unmapping one half ends the run there.
    ck_assert_ur_ok(urVirtualMemUnmap(T.context, second, g));
    ck_assert_ur(urEnqueueUSMMemcpy(T.queue, true, across, in, N, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urVirtualMemUnmap(T.context, va, g));
    ck_assert_ur_ok(urPhysicalMemRelease(a));
    ck_assert_ur_ok(urPhysicalMemRelease(b));
    ck_assert_ur_ok(urVirtualMemFree(T.context, va, 2 * g));
}
END_TEST

START_TEST(physical_mem_info_and_references) {
    NEED_VM();
    size_t g = granularity();
    ur_physical_mem_handle_t m = physical(g);
    ur_context_handle_t ctx = NULL;
    ck_assert_ur_ok(urPhysicalMemGetInfo(m, UR_PHYSICAL_MEM_INFO_CONTEXT, sizeof ctx, &ctx, NULL));
    ck_assert_ptr_eq(ctx, T.context);
    ur_device_handle_t dev = NULL;
    ck_assert_ur_ok(urPhysicalMemGetInfo(m, UR_PHYSICAL_MEM_INFO_DEVICE, sizeof dev, &dev, NULL));
    ck_assert_ptr_eq(dev, T.device);
    size_t size = 0;
    ck_assert_ur_ok(urPhysicalMemGetInfo(m, UR_PHYSICAL_MEM_INFO_SIZE, sizeof size, &size, NULL));
    ck_assert_uint_eq(size, g);
    ur_physical_mem_properties_t props;
    ck_assert_ur_ok(
        urPhysicalMemGetInfo(m, UR_PHYSICAL_MEM_INFO_PROPERTIES, sizeof props, &props, NULL));
    ck_assert_uint_eq(props.flags, 0);
    ck_assert_ur_ok(urPhysicalMemRetain(m));
    uint32_t refs = 0;
    ck_assert_ur_ok(
        urPhysicalMemGetInfo(m, UR_PHYSICAL_MEM_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_uint_eq(refs, 2);
    ck_assert_ur_ok(urPhysicalMemRelease(m));
    ck_assert_ur_ok(urPhysicalMemRelease(m));
}
END_TEST

int main(void) {
    Suite *s = suite_create("virtual_mem");
    TCase *tc = urc_test_tcase("urVirtualMem", setup, teardown);
    tcase_add_test(tc, granularity_minimum_and_recommended);
    tcase_add_test(tc, reserve_map_write_read_unmap);
    tcase_add_test(tc, bad_sizes_and_ranges_are_refused);
    tcase_add_test(tc, usm_free_of_virtual_memory_refused);
    tcase_add_test(tc, copy_across_the_seam);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("urPhysicalMem", setup, teardown);
    tcase_add_test(tc, physical_mem_info_and_references);
    suite_add_tcase(s, tc);
    return urc_test_main_with_platform(s, "no platform for this adapter");
}
