// SPDX-License-Identifier: MIT
// Buffers (urMem*) and their transfers (urEnqueueMemBuffer*, urEnqueueMemUnmap).
#include <string.h>

#include "cudat.h"

#define N 256

static ur_mem_handle_t buffer(ur_mem_flags_t flags, size_t size, void *host) {
    ur_buffer_properties_t props = {UR_STRUCTURE_TYPE_BUFFER_PROPERTIES, NULL, host};
    ur_mem_handle_t mem = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, flags, size, host ? &props : NULL, &mem));
    return mem;
}

static void iota(int *v, int n, int start) {
    for (int i = 0; i < n; ++i)
        v[i] = start + i;
}

START_TEST(create_write_read) {
    int in[N], out[N] = {0};
    iota(in, N, 5);
    ur_mem_handle_t mem = buffer(UR_MEM_FLAG_READ_WRITE, sizeof in, NULL);
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, mem, true, 0, sizeof in, in, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, mem, true, 0, sizeof out, out, 0, NULL, NULL));
    ck_assert_mem_eq(in, out, sizeof in);
    ck_assert_ur_ok(urMemRelease(mem));
}
END_TEST

START_TEST(create_copy_host_pointer) {
    int in[N], out[N] = {0};
    iota(in, N, 100);
    ur_mem_handle_t mem =
        buffer(UR_MEM_FLAG_READ_WRITE | UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER, sizeof in, in);
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, mem, true, 0, sizeof out, out, 0, NULL, NULL));
    ck_assert_mem_eq(in, out, sizeof in);
    ck_assert_ur_ok(urMemRelease(mem));
}
END_TEST

// A USE_HOST_POINTER buffer is the caller's memory: writes through the queue land there.
START_TEST(create_use_host_pointer) {
    static int host[N];
    int in[N];
    iota(in, N, 9);
    ur_mem_handle_t mem = buffer(UR_MEM_FLAG_USE_HOST_POINTER, sizeof host, host);
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, mem, true, 0, sizeof in, in, 0, NULL, NULL));
    ck_assert_mem_eq(host, in, sizeof in);
    ck_assert_ur_ok(urMemRelease(mem));
}
END_TEST

START_TEST(create_alloc_host_pointer) {
    int in[N], out[N] = {0};
    iota(in, N, 3);
    ur_mem_handle_t mem = buffer(UR_MEM_FLAG_ALLOC_HOST_POINTER, sizeof in, NULL);
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, mem, true, 0, sizeof in, in, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, mem, true, 0, sizeof out, out, 0, NULL, NULL));
    ck_assert_mem_eq(in, out, sizeof in);
    ck_assert_ur_ok(urMemRelease(mem));
}
END_TEST

START_TEST(create_host_pointer_without_flag_is_invalid) {
    int host[4];
    ur_buffer_properties_t props = {UR_STRUCTURE_TYPE_BUFFER_PROPERTIES, NULL, host};
    ur_mem_handle_t mem = NULL;
    ck_assert_ur(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, sizeof host, &props, &mem),
                 UR_RESULT_ERROR_INVALID_HOST_PTR);
    ck_assert_ur(
        urMemBufferCreate(T.context, UR_MEM_FLAG_USE_HOST_POINTER, sizeof host, NULL, &mem),
        UR_RESULT_ERROR_INVALID_HOST_PTR);
}
END_TEST

START_TEST(get_info_size_context_refcount) {
    ur_mem_handle_t mem = buffer(UR_MEM_FLAG_READ_WRITE, 1000, NULL);
    size_t size = 0;
    ur_context_handle_t ctx = NULL;
    uint32_t refs = 0;
    ck_assert_ur_ok(urMemGetInfo(mem, UR_MEM_INFO_SIZE, sizeof size, &size, NULL));
    ck_assert_ur_ok(urMemGetInfo(mem, UR_MEM_INFO_CONTEXT, sizeof ctx, &ctx, NULL));
    ck_assert_ur_ok(urMemRetain(mem));
    ck_assert_ur_ok(urMemGetInfo(mem, UR_MEM_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_uint_eq(size, 1000);
    ck_assert_ptr_eq(ctx, T.context);
    ck_assert_uint_eq(refs, 2);
    ck_assert_ur_ok(urMemRelease(mem));
    ck_assert_ur_ok(urMemRelease(mem));
}
END_TEST

START_TEST(partition_views_the_parent) {
    int in[N], out[16] = {0};
    iota(in, N, 0);
    ur_mem_handle_t mem = buffer(UR_MEM_FLAG_READ_WRITE, sizeof in, NULL), sub = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, mem, true, 0, sizeof in, in, 0, NULL, NULL));
    ur_buffer_region_t region = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, 64 * sizeof(int),
                                 sizeof out};
    ck_assert_ur_ok(urMemBufferPartition(mem, UR_MEM_FLAG_READ_ONLY, UR_BUFFER_CREATE_TYPE_REGION,
                                         &region, &sub));
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, sub, true, 0, sizeof out, out, 0, NULL, NULL));
    ck_assert_mem_eq(out, in + 64, sizeof out);
    ck_assert_ur_ok(urMemRelease(mem)); // the sub-buffer keeps the parent alive
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, sub, true, 0, sizeof out, out, 0, NULL, NULL));
    ck_assert_ur_ok(urMemRelease(sub));
}
END_TEST

START_TEST(partition_out_of_range_is_invalid) {
    ur_mem_handle_t mem = buffer(UR_MEM_FLAG_READ_WRITE, 256, NULL), sub = NULL;
    ur_buffer_region_t past = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, 200, 100};
    ur_buffer_region_t huge = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, 8, SIZE_MAX - 4};
    ck_assert_ur(urMemBufferPartition(mem, 0, UR_BUFFER_CREATE_TYPE_REGION, &past, &sub),
                 UR_RESULT_ERROR_INVALID_BUFFER_SIZE);
    ck_assert_ur(urMemBufferPartition(mem, 0, UR_BUFFER_CREATE_TYPE_REGION, &huge, &sub),
                 UR_RESULT_ERROR_INVALID_BUFFER_SIZE);
    ck_assert_ur_ok(urMemRelease(mem));
}
END_TEST

START_TEST(read_out_of_range_is_invalid_and_makes_no_event) {
    int out[4];
    ur_mem_handle_t mem = buffer(UR_MEM_FLAG_READ_WRITE, sizeof out, NULL);
    ur_event_handle_t ev = NULL;
    ck_assert_ur(urEnqueueMemBufferRead(T.queue, mem, true, 4, sizeof out, out, 0, NULL, &ev),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueMemBufferRead(T.queue, mem, true, SIZE_MAX, 2, out, 0, NULL, &ev),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ptr_null(ev);
    ck_assert_ur_ok(urMemRelease(mem));
}
END_TEST

START_TEST(read_and_write_events_carry_commands) {
    int v = 3;
    ur_mem_handle_t mem = buffer(UR_MEM_FLAG_READ_WRITE, sizeof v, NULL);
    ur_event_handle_t w = NULL, r = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, mem, false, 0, sizeof v, &v, 0, NULL, &w));
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, mem, false, 0, sizeof v, &v, 1, &w, &r));
    ck_assert_ur_ok(urEventWait(1, &r));
    ck_assert_int_eq(cudat_event_command(w), UR_COMMAND_MEM_BUFFER_WRITE);
    ck_assert_int_eq(cudat_event_command(r), UR_COMMAND_MEM_BUFFER_READ);
    ck_assert_ur_ok(urEventRelease(w));
    ck_assert_ur_ok(urEventRelease(r));
    ck_assert_ur_ok(urMemRelease(mem));
}
END_TEST

START_TEST(copy_between_buffers) {
    int in[N], out[N] = {0};
    iota(in, N, 50);
    ur_mem_handle_t a = buffer(UR_MEM_FLAG_READ_WRITE, sizeof in, NULL);
    ur_mem_handle_t b = buffer(UR_MEM_FLAG_READ_WRITE, sizeof in, NULL);
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, a, false, 0, sizeof in, in, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferCopy(T.queue, a, b, 4, 0, sizeof in - 4, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, b, true, 0, sizeof in, out, 0, NULL, NULL));
    ck_assert_mem_eq(out, in + 1, sizeof in - 4);
    ck_assert_ur(urEnqueueMemBufferCopy(T.queue, a, b, 8, 0, sizeof in, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
}
END_TEST

// Patterns of 1 to 128 bytes, including ones that are not a repeated word.
START_TEST(fill_patterns) {
    static const size_t sizes[] = {1, 2, 4, 8, 16, 32, 128};
    uint8_t pattern[128], out[1024];
    for (size_t i = 0; i < sizeof pattern; ++i)
        pattern[i] = (uint8_t)(i * 7 + 1);
    ur_mem_handle_t mem = buffer(UR_MEM_FLAG_READ_WRITE, sizeof out, NULL);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        size_t p = sizes[s];
        memset(out, 0, sizeof out);
        ck_assert_ur_ok(
            urEnqueueMemBufferWrite(T.queue, mem, false, 0, sizeof out, out, 0, NULL, NULL));
        ck_assert_ur_ok(
            urEnqueueMemBufferFill(T.queue, mem, pattern, p, p, sizeof out - 2 * p, 0, NULL, NULL));
        ck_assert_ur_ok(
            urEnqueueMemBufferRead(T.queue, mem, true, 0, sizeof out, out, 0, NULL, NULL));
        for (size_t i = 0; i < sizeof out; ++i) {
            uint8_t want = (i < p || i >= sizeof out - p) ? 0 : pattern[i % p];
            ck_assert_msg(out[i] == want, "pattern %zu: byte %zu is %u, want %u", p, i, out[i],
                          want);
        }
    }
    ck_assert_ur_ok(urMemRelease(mem));
}
END_TEST

// A 4x3x2 box out of an 8x4x3 host array, into a buffer with its own pitches, and back.
START_TEST(rect_write_and_read) {
    uint8_t host[3][4][8], back[3][4][8];
    for (int z = 0; z < 3; ++z)
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 8; ++x)
                host[z][y][x] = (uint8_t)(z * 32 + y * 8 + x);
    memset(back, 0xee, sizeof back);
    ur_mem_handle_t mem = buffer(UR_MEM_FLAG_READ_WRITE, 256, NULL);
    ur_rect_offset_t host_origin = {2, 1, 1}, buf_origin = {1, 0, 0};
    ur_rect_region_t region = {4, 3, 2};
    ck_assert_ur_ok(urEnqueueMemBufferWriteRect(T.queue, mem, false, buf_origin, host_origin,
                                                region, 16, 64, 8, 32, host, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferReadRect(T.queue, mem, true, buf_origin, host_origin, region,
                                               16, 64, 8, 32, back, 0, NULL, NULL));
    for (int z = 1; z < 3; ++z)
        for (int y = 1; y < 4; ++y)
            for (int x = 2; x < 6; ++x)
                ck_assert_uint_eq(back[z][y][x], host[z][y][x]);
    ck_assert_uint_eq(back[0][0][0], 0xee);
    ck_assert_ur_ok(urMemRelease(mem));
}
END_TEST

START_TEST(rect_out_of_buffer_is_invalid) {
    uint8_t host[256];
    ur_mem_handle_t mem = buffer(UR_MEM_FLAG_READ_WRITE, 64, NULL);
    ur_rect_offset_t zero = {0, 0, 0};
    ur_rect_region_t region = {8, 8, 2}; // 128 bytes with default pitches
    ck_assert_ur(urEnqueueMemBufferReadRect(T.queue, mem, true, zero, zero, region, 0, 0, 0, 0,
                                            host, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urMemRelease(mem));
}
END_TEST

START_TEST(copy_rect_between_buffers) {
    uint8_t in[64], out[64] = {0};
    for (int i = 0; i < 64; ++i)
        in[i] = (uint8_t)i;
    ur_mem_handle_t a = buffer(UR_MEM_FLAG_READ_WRITE, 64, NULL);
    ur_mem_handle_t b = buffer(UR_MEM_FLAG_READ_WRITE, 64, NULL);
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, a, false, 0, 64, in, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, b, false, 0, 64, out, 0, NULL, NULL));
    ur_rect_offset_t src = {1, 1, 0}, dst = {0, 0, 0};
    ur_rect_region_t region = {4, 2, 1};
    ck_assert_ur_ok(
        urEnqueueMemBufferCopyRect(T.queue, a, b, src, dst, region, 8, 64, 4, 8, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, b, true, 0, 64, out, 0, NULL, NULL));
    const uint8_t want[8] = {9, 10, 11, 12, 17, 18, 19, 20};
    ck_assert_mem_eq(out, want, sizeof want);
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
}
END_TEST

START_TEST(map_write_unmap_read) {
    int out[N] = {0};
    ur_mem_handle_t mem = buffer(UR_MEM_FLAG_READ_WRITE, sizeof out, NULL);
    int *mapped = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferMap(T.queue, mem, true, UR_MAP_FLAG_WRITE, 0, sizeof out, 0,
                                          NULL, NULL, (void **)&mapped));
    iota(mapped, N, 77);
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(urEnqueueMemUnmap(T.queue, mem, mapped, 0, NULL, &ev));
    ck_assert_int_eq(cudat_event_command(ev), UR_COMMAND_MEM_UNMAP);
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, mem, true, 0, sizeof out, out, 1, &ev, NULL));
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], 77 + i);
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(urMemRelease(mem));
}
END_TEST

START_TEST(map_read_sees_contents) {
    int in[N];
    iota(in, N, 1);
    ur_mem_handle_t mem = buffer(UR_MEM_FLAG_READ_WRITE, sizeof in, NULL);
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, mem, false, 0, sizeof in, in, 0, NULL, NULL));
    int *mapped = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferMap(T.queue, mem, true, UR_MAP_FLAG_READ, 16, 64, 0, NULL,
                                          NULL, (void **)&mapped));
    ck_assert_mem_eq(mapped, in + 4, 64);
    ck_assert_ur_ok(urEnqueueMemUnmap(T.queue, mem, mapped, 0, NULL, NULL));
    ck_assert_ur(urEnqueueMemUnmap(T.queue, mem, mapped, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urMemRelease(mem));
}
END_TEST

START_TEST(native_handle_round_trip) {
    int in[4] = {1, 2, 3, 4}, out[4] = {0};
    ur_mem_handle_t mem = buffer(UR_MEM_FLAG_READ_WRITE, sizeof in, NULL), wrapped = NULL;
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urMemGetNativeHandle(mem, T.device, &native));
    ck_assert_ur_ok(urMemBufferCreateWithNativeHandle(native, T.context, NULL, &wrapped));
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, mem, false, 0, sizeof in, in, 0, NULL, NULL));
    ck_assert_ur_ok(
        urEnqueueMemBufferRead(T.queue, wrapped, true, 0, sizeof out, out, 0, NULL, NULL));
    ck_assert_mem_eq(in, out, sizeof in);
    ck_assert_ur_ok(urMemRelease(wrapped));
    ck_assert_ur_ok(urMemRelease(mem));
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda memory");
    TCase *tc = cudat_tcase("urMemBufferCreate");
    tcase_add_test(tc, create_write_read);
    tcase_add_test(tc, create_copy_host_pointer);
    tcase_add_test(tc, create_use_host_pointer);
    tcase_add_test(tc, create_alloc_host_pointer);
    tcase_add_test(tc, create_host_pointer_without_flag_is_invalid);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urMemGetInfo");
    tcase_add_test(tc, get_info_size_context_refcount);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urMemBufferPartition");
    tcase_add_test(tc, partition_views_the_parent);
    tcase_add_test(tc, partition_out_of_range_is_invalid);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urEnqueueMemBufferRead");
    tcase_add_test(tc, read_out_of_range_is_invalid_and_makes_no_event);
    tcase_add_test(tc, read_and_write_events_carry_commands);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urEnqueueMemBufferCopy");
    tcase_add_test(tc, copy_between_buffers);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urEnqueueMemBufferFill");
    tcase_add_test(tc, fill_patterns);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urEnqueueMemBufferReadRect");
    tcase_add_test(tc, rect_write_and_read);
    tcase_add_test(tc, rect_out_of_buffer_is_invalid);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urEnqueueMemBufferCopyRect");
    tcase_add_test(tc, copy_rect_between_buffers);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urEnqueueMemBufferMap");
    tcase_add_test(tc, map_write_unmap_read);
    tcase_add_test(tc, map_read_sees_contents);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urMemGetNativeHandle");
    tcase_add_test(tc, native_handle_round_trip);
    suite_add_tcase(s, tc);
    return cudat_main(s, false);
}
