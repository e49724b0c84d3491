// SPDX-License-Identifier: MIT
// urMem* (buffers), urUSM* and the transfer commands urEnqueueMemBuffer*, urEnqueueMemUnmap and
// urEnqueueUSM* of the Level Zero adapter over the simulated driver.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/usm_cases.h"
#include "l0t.h"

static ur_mem_handle_t buffer(ur_mem_flags_t flags, size_t size, void *host) {
    ur_buffer_properties_t props = {UR_STRUCTURE_TYPE_BUFFER_PROPERTIES, NULL, host};
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, flags, size, host != NULL ? &props : NULL, &m));
    return m;
}

static void read_all(ur_mem_handle_t m, void *dst, size_t size) {
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, m, true, 0, size, dst, 0, NULL, NULL));
}

static void *device_alloc(size_t size) {
    void *p = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, size, &p));
    return p;
}

// ---- buffers ----

START_TEST(buffer_info) {
    ur_mem_handle_t m = buffer(UR_MEM_FLAG_READ_WRITE, 1024, NULL);
    size_t size = 0;
    ur_context_handle_t ctx = NULL;
    ck_assert_ur_ok(urMemGetInfo(m, UR_MEM_INFO_SIZE, sizeof size, &size, NULL));
    ck_assert_uint_eq(size, 1024);
    ck_assert_ur_ok(urMemGetInfo(m, UR_MEM_INFO_CONTEXT, sizeof ctx, &ctx, NULL));
    ck_assert_ptr_eq(ctx, T.context);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(buffer_host_pointer_rules) {
    ur_mem_handle_t m = NULL;
    ck_assert_ur(urMemBufferCreate(T.context, UR_MEM_FLAG_USE_HOST_POINTER, 64, NULL, &m),
                 UR_RESULT_ERROR_INVALID_HOST_PTR);
    uint64_t max = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_MAX_MEM_ALLOC_SIZE, sizeof max, &max, NULL));
    ck_assert_ur(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, (size_t)max + 1, NULL, &m),
                 UR_RESULT_ERROR_INVALID_BUFFER_SIZE);
}
END_TEST

START_TEST(buffer_copy_host_pointer_is_copied_in) {
    int src[16], dst[16] = {0};
    for (int i = 0; i < 16; ++i)
        src[i] = 100 + i;
    ur_mem_handle_t m = buffer(UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER, sizeof src, src);
    memset(src, 0, sizeof src); // the buffer has its own copy
    read_all(m, dst, sizeof dst);
    ck_assert_int_eq(dst[0], 100);
    ck_assert_int_eq(dst[15], 115);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(buffer_write_read_copy_with_offsets) {
    ur_mem_handle_t a = buffer(UR_MEM_FLAG_READ_WRITE, 256, NULL);
    ur_mem_handle_t b = buffer(UR_MEM_FLAG_READ_WRITE, 256, NULL);
    uint8_t in[64], out[64] = {0};
    for (int i = 0; i < 64; ++i)
        in[i] = (uint8_t)i;
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, a, false, 16, 64, in, 0, NULL, NULL));
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferCopy(T.queue, a, b, 16, 100, 64, 0, NULL, &e));
    ck_assert_int_eq(l0t_command(e), UR_COMMAND_MEM_BUFFER_COPY);
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, b, true, 100, 64, out, 1, &e, NULL));
    ck_assert_mem_eq(in, out, 64);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
}
END_TEST

START_TEST(buffer_ranges_are_checked_without_overflow) {
    ur_mem_handle_t m = buffer(UR_MEM_FLAG_READ_WRITE, 64, NULL);
    uint8_t data[64];
    ur_event_handle_t e = NULL;
    ck_assert_ur(urEnqueueMemBufferRead(T.queue, m, true, 32, 33, data, 0, NULL, &e),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueMemBufferWrite(T.queue, m, true, SIZE_MAX, 2, data, 0, NULL, &e),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ptr_null(e);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(buffer_fill_any_pattern_size) {
    ur_mem_handle_t m = buffer(UR_MEM_FLAG_READ_WRITE, 48, NULL);
    uint32_t word = 0xA5A5A5A5u;
    uint8_t out[48];
    ck_assert_ur_ok(urEnqueueMemBufferFill(T.queue, m, &word, 4, 0, 48, 0, NULL, NULL));
    read_all(m, out, 48);
    ck_assert_uint_eq(out[47], 0xA5);
    // 256 bytes is more than the engine's 128-byte fill patterns: written out and copied.
    uint8_t big[256];
    for (int i = 0; i < 256; ++i)
        big[i] = (uint8_t)(255 - i);
    ur_mem_handle_t m2 = buffer(UR_MEM_FLAG_READ_WRITE, 512, NULL);
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferFill(T.queue, m2, big, 256, 0, 512, 0, NULL, &e));
    ck_assert_int_eq(l0t_command(e), UR_COMMAND_MEM_BUFFER_FILL);
    uint8_t out2[512];
    read_all(m2, out2, 512);
    ck_assert_uint_eq(out2[256], 255);
    ck_assert_uint_eq(out2[511], 0);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urMemRelease(m));
    ck_assert_ur_ok(urMemRelease(m2));
}
END_TEST

START_TEST(buffer_rect_write_and_read) {
    // A 4 x 3 region at (2, 1) of a buffer 8 bytes wide, 4 rows high.
    ur_mem_handle_t m = buffer(UR_MEM_FLAG_READ_WRITE, 32, NULL);
    uint8_t zero[32] = {0}, host[12], out[32];
    for (int i = 0; i < 12; ++i)
        host[i] = (uint8_t)(1 + i);
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, m, false, 0, 32, zero, 0, NULL, NULL));
    ur_rect_offset_t borigin = {2, 1, 0}, horigin = {0, 0, 0};
    ur_rect_region_t region = {4, 3, 1};
    ck_assert_ur_ok(urEnqueueMemBufferWriteRect(T.queue, m, false, borigin, horigin, region, 8, 0,
                                                4, 0, host, 0, NULL, NULL));
    read_all(m, out, 32);
    ck_assert_uint_eq(out[8 + 2], 1);
    ck_assert_uint_eq(out[8 + 5], 4);
    ck_assert_uint_eq(out[8 + 6], 0);
    ck_assert_uint_eq(out[3 * 8 + 5], 12);
    uint8_t back[12] = {0};
    ck_assert_ur_ok(urEnqueueMemBufferReadRect(T.queue, m, true, borigin, horigin, region, 8, 0, 4,
                                               0, back, 0, NULL, NULL));
    ck_assert_mem_eq(back, host, 12);
    // One row too many runs past the end.
    ur_rect_region_t tall = {4, 4, 1};
    ck_assert_ur(urEnqueueMemBufferReadRect(T.queue, m, true, borigin, horigin, tall, 8, 0, 4, 0,
                                            back, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(buffer_copy_rect_between_buffers) {
    ur_mem_handle_t a = buffer(UR_MEM_FLAG_READ_WRITE, 64, NULL);
    ur_mem_handle_t b = buffer(UR_MEM_FLAG_READ_WRITE, 64, NULL);
    uint8_t in[64], out[64];
    for (int i = 0; i < 64; ++i)
        in[i] = (uint8_t)i;
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, a, false, 0, 64, in, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferFill(T.queue, b, &(uint8_t){0}, 1, 0, 64, 0, NULL, NULL));
    ur_rect_offset_t so = {0, 0, 0}, d_o = {4, 0, 0};
    ur_rect_region_t region = {4, 8, 1};
    ck_assert_ur_ok(
        urEnqueueMemBufferCopyRect(T.queue, a, b, so, d_o, region, 8, 0, 8, 0, 0, NULL, NULL));
    read_all(b, out, 64);
    ck_assert_uint_eq(out[4], 0);
    ck_assert_uint_eq(out[7 * 8 + 7], 7 * 8 + 3);
    ck_assert_uint_eq(out[0], 0);
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
}
END_TEST

START_TEST(buffer_map_write_then_read_back) {
    ur_mem_handle_t m = buffer(UR_MEM_FLAG_READ_WRITE, 64, NULL);
    int *p = NULL;
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferMap(T.queue, m, true, UR_MAP_FLAG_WRITE, 16, 32, 0, NULL, &e,
                                          (void **)&p));
    ck_assert_int_eq(l0t_command(e), UR_COMMAND_MEM_BUFFER_MAP);
    for (int i = 0; i < 8; ++i)
        p[i] = 50 + i;
    ur_event_handle_t u = NULL;
    ck_assert_ur_ok(urEnqueueMemUnmap(T.queue, m, p, 0, NULL, &u));
    ck_assert_int_eq(l0t_command(u), UR_COMMAND_MEM_UNMAP);
    int out[16];
    read_all(m, out, sizeof out);
    ck_assert_int_eq(out[4], 50);
    ck_assert_int_eq(out[11], 57);
    // Unmapping twice is an error: the mapping is gone.
    ck_assert_ur(urEnqueueMemUnmap(T.queue, m, p, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urEventRelease(u));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

// OpenCL's rule for UR_MEM_FLAG_USE_HOST_POINTER: the map returns host_ptr + offset.
START_TEST(buffer_use_host_pointer_maps_to_it) {
    int host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    ur_mem_handle_t m = buffer(UR_MEM_FLAG_USE_HOST_POINTER, sizeof host, host);
    int v = 70;
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, m, true, 8, sizeof v, &v, 0, NULL, NULL));
    int *p = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferMap(T.queue, m, true, UR_MAP_FLAG_READ | UR_MAP_FLAG_WRITE, 0,
                                          sizeof host, 0, NULL, NULL, (void **)&p));
    ck_assert_ptr_eq(p, host);
    ck_assert_int_eq(host[2], 70);
    host[7] = 80;
    ck_assert_ur_ok(urEnqueueMemUnmap(T.queue, m, p, 0, NULL, NULL));
    int out[8];
    read_all(m, out, sizeof out);
    ck_assert_int_eq(out[7], 80);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(buffer_partition_shares_memory) {
    ur_mem_handle_t m = buffer(UR_MEM_FLAG_READ_WRITE, 128, NULL);
    ur_buffer_region_t region = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, 64, 32};
    ur_mem_handle_t sub = NULL;
    ck_assert_ur_ok(urMemBufferPartition(m, UR_MEM_FLAG_READ_WRITE, UR_BUFFER_CREATE_TYPE_REGION,
                                         &region, &sub));
    uint8_t v = 0x3c, out[128];
    ck_assert_ur_ok(urEnqueueMemBufferFill(T.queue, m, &(uint8_t){0}, 1, 0, 128, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferFill(T.queue, sub, &v, 1, 0, 32, 0, NULL, NULL));
    read_all(m, out, 128);
    ck_assert_uint_eq(out[63], 0);
    ck_assert_uint_eq(out[64], 0x3c);
    ck_assert_uint_eq(out[95], 0x3c);
    ck_assert_uint_eq(out[96], 0);
    region.origin = 100;
    ur_mem_handle_t bad = NULL;
    ck_assert_ur(urMemBufferPartition(m, UR_MEM_FLAG_READ_WRITE, UR_BUFFER_CREATE_TYPE_REGION,
                                      &region, &bad),
                 UR_RESULT_ERROR_INVALID_BUFFER_SIZE);
    ck_assert_ur_ok(urMemRelease(sub));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(buffer_native_handle_is_usm) {
    ur_mem_handle_t m = buffer(UR_MEM_FLAG_READ_WRITE, 64, NULL);
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urMemGetNativeHandle(m, T.device, &native));
    ur_usm_type_t type = UR_USM_TYPE_UNKNOWN;
    ck_assert_ur_ok(urUSMGetMemAllocInfo(T.context, (void *)native, UR_USM_ALLOC_INFO_TYPE,
                                         sizeof type, &type, NULL));
    ck_assert_int_eq(type, UR_USM_TYPE_DEVICE);
    ur_mem_native_properties_t props = {UR_STRUCTURE_TYPE_MEM_NATIVE_PROPERTIES, NULL, false};
    ur_mem_handle_t wrapped = NULL;
    ck_assert_ur_ok(urMemBufferCreateWithNativeHandle(native, T.context, &props, &wrapped));
    size_t size = 0;
    ck_assert_ur_ok(urMemGetInfo(wrapped, UR_MEM_INFO_SIZE, sizeof size, &size, NULL));
    ck_assert_uint_eq(size, 64);
    ck_assert_ur_ok(urMemRelease(wrapped));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

// ---- USM ----

// Level Zero's answers for a pointer no allocation holds (its type is UNKNOWN on every adapter).
START_TEST(usm_unknown_pointer_has_no_base) {
    int local = 0;
    void *base = NULL;
    ck_assert_ur(urUSMGetMemAllocInfo(T.context, &local, UR_USM_ALLOC_INFO_BASE_PTR, sizeof base,
                                      &base, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urUSMFree(T.context, &local), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
}
END_TEST

START_TEST(usm_alignment_and_pools) {
    void *p = NULL;
    ur_usm_desc_t desc = {UR_STRUCTURE_TYPE_USM_DESC, NULL, 0, 4096};
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, &desc, NULL, 64, &p));
    ck_assert_uint_eq((uintptr_t)p % 4096, 0);
    ck_assert_ur_ok(urUSMFree(T.context, p));
    desc.align = 48;
    ck_assert_ur(urUSMDeviceAlloc(T.context, T.device, &desc, NULL, 64, &p),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // A queue is no pool: the generated handle check answers before the adapter sees it.
    ck_assert_ur(urUSMHostAlloc(T.context, NULL, (ur_usm_pool_handle_t)T.queue, 64, &p),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    uint64_t max = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_MAX_MEM_ALLOC_SIZE, sizeof max, &max, NULL));
    ck_assert_ur(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, (size_t)max + 1, &p),
                 UR_RESULT_ERROR_INVALID_USM_SIZE);
}
END_TEST

START_TEST(usm_free_takes_only_the_base) {
    char *p = device_alloc(64);
    ck_assert_ur(urUSMFree(T.context, p + 8), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

START_TEST(usm_fill_and_memcpy) {
    uint16_t *d = device_alloc(64);
    uint16_t pattern = 0xBEEF, out[32];
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueUSMFill(T.queue, d, sizeof pattern, &pattern, 64, 0, NULL, &e));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, d, 64, 1, &e, NULL));
    ck_assert_uint_eq(out[0], 0xBEEF);
    ck_assert_uint_eq(out[31], 0xBEEF);
    // A pattern that is not a power of two is written out on the host.
    uint8_t three[3] = {1, 2, 3}, bytes[12];
    ck_assert_ur_ok(urEnqueueUSMFill(T.queue, d, 3, three, 12, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, bytes, d, 12, 0, NULL, NULL));
    ck_assert_uint_eq(bytes[9], 1);
    ck_assert_uint_eq(bytes[11], 3);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urUSMFree(T.context, d));
}
END_TEST

START_TEST(usm_fill_2d_and_memcpy_2d) {
    // 3 rows of 6 bytes in a pitch of 8.
    uint8_t *d = device_alloc(24);
    uint8_t zero[24] = {0}, out[24];
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, false, d, zero, 24, 0, NULL, NULL));
    uint16_t pattern = 0x0201;
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueUSMFill2D(T.queue, d, 8, 2, &pattern, 6, 3, 0, NULL, &e));
    ck_assert_int_eq(l0t_command(e), UR_COMMAND_USM_FILL_2D);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, d, 24, 0, NULL, NULL));
    ck_assert_uint_eq(out[0], 1);
    ck_assert_uint_eq(out[5], 2);
    ck_assert_uint_eq(out[6], 0);
    ck_assert_uint_eq(out[16], 1);
    ck_assert_uint_eq(out[23], 0);
    // Back out as a tight 6 x 3 block.
    uint8_t tight[18] = {0};
    ur_event_handle_t c = NULL;
    ck_assert_ur_ok(urEnqueueUSMMemcpy2D(T.queue, true, tight, 6, d, 8, 6, 3, 0, NULL, &c));
    ck_assert_int_eq(l0t_command(c), UR_COMMAND_USM_MEMCPY_2D);
    ck_assert_uint_eq(tight[6], 1);
    ck_assert_uint_eq(tight[17], 2);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urEventRelease(c));
    ck_assert_ur_ok(urUSMFree(T.context, d));
}
END_TEST

START_TEST(usm_prefetch_and_advise) {
    void *s = NULL;
    ck_assert_ur_ok(urUSMSharedAlloc(T.context, T.device, NULL, NULL, 4096, &s));
    ur_event_handle_t e[2] = {NULL, NULL};
    ck_assert_ur_ok(urEnqueueUSMPrefetch(T.queue, s, 4096, UR_USM_MIGRATION_FLAG_HOST_TO_DEVICE, 0,
                                         NULL, &e[0]));
    ck_assert_ur_ok(urEnqueueUSMAdvise(
        T.queue, s, 4096,
        UR_USM_ADVICE_FLAG_SET_READ_MOSTLY | UR_USM_ADVICE_FLAG_SET_PREFERRED_LOCATION, &e[1]));
    ck_assert_ur_ok(urEventWait(2, e));
    ck_assert_int_eq(l0t_status(e[1]), UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventRelease(e[0]));
    ck_assert_ur_ok(urEventRelease(e[1]));
    ck_assert_ur_ok(urUSMFree(T.context, s));
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("level_zero_memory");
    const urc_test_case_t cases[] = {
        {"urMemBufferCreate",
         {buffer_info, buffer_host_pointer_rules, buffer_copy_host_pointer_is_copied_in}},
        {"urEnqueueMemBufferReadWriteCopy",
         {buffer_write_read_copy_with_offsets, buffer_ranges_are_checked_without_overflow}},
        {"urEnqueueMemBufferFill", {buffer_fill_any_pattern_size}},
        {"urEnqueueMemBufferRect", {buffer_rect_write_and_read, buffer_copy_rect_between_buffers}},
        {"urEnqueueMemBufferMap",
         {buffer_map_write_then_read_back, buffer_use_host_pointer_maps_to_it}},
        {"urMemBufferPartition", {buffer_partition_shares_memory}},
        {"urMemGetNativeHandle", {buffer_native_handle_is_usm}},
        {"urUSMAlloc", {usm_unknown_pointer_has_no_base, usm_alignment_and_pools}},
        {"urUSMFree", {usm_free_takes_only_the_base}},
        {"urEnqueueUSMFillMemcpy", {usm_fill_and_memcpy}},
        {"urEnqueueUSM2D", {usm_fill_2d_and_memcpy_2d}},
        {"urEnqueueUSMPrefetchAdvise", {usm_prefetch_and_advise}},
    };
    urc_test_add_cases(s, l0t_tcase, cases, sizeof cases / sizeof cases[0]);
    TCase *tc = l0t_tcase("urUSMAlloc");
    usm_cases_add_info(tc);
    suite_add_tcase(s, tc);
    tc = l0t_tcase("urEnqueueUSMRanges");
    usm_cases_add_ranges(tc);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return l0t_main(suite());
}
