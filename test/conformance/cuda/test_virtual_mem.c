// SPDX-License-Identifier: MIT
// Virtual and physical memory (cuMemAddressReserve, cuMemCreate, cuMemMap, cuMemSetAccess),
// registered host memory, pitched allocation, context copies and peer access of the CUDA
// adapter. The peer-copy test needs two GPUs and skips its body with one.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cudat.h"

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

START_TEST(device_reports_virtual_memory) {
    ur_bool_t b = false;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_VIRTUAL_MEMORY_SUPPORT, sizeof b, &b, NULL));
    ck_assert(b);
    size_t rec = 0;
    ck_assert_ur_ok(urVirtualMemGranularityGetInfo(
        T.context, NULL, 1, UR_VIRTUAL_MEM_GRANULARITY_INFO_RECOMMENDED, sizeof rec, &rec, NULL));
    ck_assert_uint_ge(rec, granularity());
}
END_TEST

START_TEST(reserve_map_write_read_unmap) {
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
    ck_assert_ur_ok(urVirtualMemUnmap(T.context, va, g));
    ck_assert_int_ne(urVirtualMemUnmap(T.context, va, g), UR_RESULT_SUCCESS);
    ck_assert_ur_ok(urPhysicalMemRelease(m));
    ck_assert_ur_ok(urVirtualMemFree(T.context, va, g));
    ck_assert_int_ne(urVirtualMemFree(T.context, va, g), UR_RESULT_SUCCESS);
}
END_TEST

START_TEST(physical_mem_info_and_references) {
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

// ---- registered host memory, pitched allocation, context copies ----

START_TEST(host_register_and_copy) {
    size_t size = 1 << 16;
    uint8_t *host = aligned_alloc(4096, size);
    ck_assert_ur_ok(urUSMHostAllocRegisterExp(T.context, host, size, NULL));
    ck_assert_ur(urUSMHostAllocRegisterExp(T.context, host, size, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    memset(host, 0x5a, size);
    void *dev = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, size, &dev));
    ck_assert_ur_ok(urUSMContextMemcpyExp(T.context, dev, host, size));
    memset(host, 0, size);
    ck_assert_ur_ok(urUSMContextMemcpyExp(T.context, host, dev, size));
    ck_assert_int_eq(host[0], 0x5a);
    ck_assert_int_eq(host[size - 1], 0x5a);
    ck_assert_ur_ok(urUSMFree(T.context, dev));
    ck_assert_ur_ok(urUSMHostAllocUnregisterExp(T.context, host));
    ck_assert_ur(urUSMHostAllocUnregisterExp(T.context, host), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urUSMImportExp(T.context, host, size));
    ck_assert_ur_ok(urUSMReleaseExp(T.context, host));
    free(host);
}
END_TEST

START_TEST(pitched_alloc) {
    void *p = NULL;
    size_t pitch = 0;
    ck_assert_ur_ok(urUSMPitchedAllocExp(T.context, T.device, NULL, NULL, 100, 10, 4, &p, &pitch));
    ck_assert_uint_ge(pitch, 100);
    size_t size = 0;
    ck_assert_ur_ok(
        urUSMGetMemAllocInfo(T.context, p, UR_USM_ALLOC_INFO_SIZE, sizeof size, &size, NULL));
    ck_assert_uint_ge(size, pitch * 10);
    ck_assert_ur_ok(urUSMFree(T.context, p));
    ck_assert_ur(urUSMPitchedAllocExp(T.context, T.device, NULL, NULL, 100, 10, 3, &p, &pitch),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urUSMPitchedAllocExp(T.context, T.device, NULL, NULL, 100, 0, 4, &p, &pitch),
                 UR_RESULT_ERROR_INVALID_USM_SIZE);
}
END_TEST

// ---- peer access ----

START_TEST(peer_access_of_a_device_with_itself) {
    ur_bool_t b = false;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_USM_P2P_SUPPORT_EXP, sizeof b, &b, NULL));
    ck_assert(b);
    int can = -1;
    ck_assert_ur_ok(urUsmP2PPeerAccessGetInfoExp(
        T.device, T.device, UR_EXP_PEER_INFO_UR_PEER_ACCESS_SUPPORT, sizeof can, &can, NULL));
    ck_assert_int_eq(can, 0); // CUDA: a device is not its own peer
    ck_assert_ur(urUsmP2PEnablePeerAccessExp(T.device, T.device),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
}
END_TEST

// Two GPUs: enable access both ways and copy 1 MiB from one device's memory to the other's.
START_TEST(peer_copy_between_two_devices) {
    ur_device_handle_t devs[2] = {NULL, NULL};
    uint32_t n = 0;
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_ALL, 2, devs, &n));
    if (n < 2)
        return; // one GPU: nothing to test here
    int can = 0;
    ck_assert_ur_ok(urUsmP2PPeerAccessGetInfoExp(
        devs[0], devs[1], UR_EXP_PEER_INFO_UR_PEER_ACCESS_SUPPORT, sizeof can, &can, NULL));
    if (!can)
        return;
    ck_assert_ur_ok(urUsmP2PEnablePeerAccessExp(devs[0], devs[1]));
    ck_assert_ur(urUsmP2PEnablePeerAccessExp(devs[0], devs[1]), UR_RESULT_ERROR_INVALID_OPERATION);
    ur_context_handle_t ctx = NULL;
    ck_assert_ur_ok(urContextCreate(2, devs, NULL, &ctx));
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(ctx, devs[0], NULL, &q));
    size_t size = 1 << 20;
    void *a = NULL, *b = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(ctx, devs[0], NULL, NULL, size, &a));
    ck_assert_ur_ok(urUSMDeviceAlloc(ctx, devs[1], NULL, NULL, size, &b));
    uint8_t *host = malloc(size);
    memset(host, 0x77, size);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, true, a, host, size, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, true, b, a, size, 0, NULL, NULL)); // peer copy
    memset(host, 0, size);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, true, host, b, size, 0, NULL, NULL));
    ck_assert_int_eq(host[0], 0x77);
    ck_assert_int_eq(host[size - 1], 0x77);
    free(host);
    ck_assert_ur_ok(urUSMFree(ctx, a));
    ck_assert_ur_ok(urUSMFree(ctx, b));
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur_ok(urContextRelease(ctx));
    ck_assert_ur_ok(urUsmP2PDisablePeerAccessExp(devs[0], devs[1]));
    ck_assert_ur(urUsmP2PDisablePeerAccessExp(devs[0], devs[1]), UR_RESULT_ERROR_INVALID_OPERATION);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda_virtual_mem");
    TCase *tc = cudat_tcase("urVirtualMem");
    tcase_add_test(tc, device_reports_virtual_memory);
    tcase_add_test(tc, reserve_map_write_read_unmap);
    tcase_add_test(tc, bad_sizes_and_ranges_are_refused);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urPhysicalMem");
    tcase_add_test(tc, physical_mem_info_and_references);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urUSMExp");
    tcase_add_test(tc, host_register_and_copy);
    tcase_add_test(tc, pitched_alloc);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urUsmP2P");
    tcase_add_test(tc, peer_access_of_a_device_with_itself);
    tcase_add_test(tc, peer_copy_between_two_devices);
    suite_add_tcase(s, tc);
    return cudat_main(s, false);
}
