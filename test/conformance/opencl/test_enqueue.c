// SPDX-License-Identifier: MIT
// urEnqueue* on buffers, markers and barriers, and kernel launches of the OpenCL adapter.
#include <stdint.h>
#include <string.h>

#include "oclt.h"

#define N 64

static ur_mem_handle_t buffer(size_t size) {
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, size, NULL, &m));
    return m;
}

static ur_command_t type_of(ur_event_handle_t e) {
    ur_command_t t = UR_COMMAND_FORCE_UINT32;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_TYPE, sizeof t, &t, NULL));
    return t;
}

START_TEST(events_wait_returns_marker) {
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 0, NULL, &e));
    ck_assert_int_eq(type_of(e), UR_COMMAND_EVENTS_WAIT);
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(events_wait_with_list) {
    ur_event_handle_t a = NULL, b = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 0, NULL, &a));
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 1, &a, &b));
    ck_assert_ur_ok(urEventWait(1, &b));
    ck_assert_ur_ok(urEventRelease(a));
    ck_assert_ur_ok(urEventRelease(b));
}
END_TEST

START_TEST(events_wait_list_with_queue_is_invalid_event_wait_list) {
    ur_event_handle_t wrong = (ur_event_handle_t)T.queue, e = NULL;
    ck_assert_ur(urEnqueueEventsWait(T.queue, 1, &wrong, &e),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ptr_null(e);
}
END_TEST

START_TEST(barrier_returns_barrier) {
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrier(T.queue, 0, NULL, &e));
    ck_assert_int_eq(type_of(e), UR_COMMAND_EVENTS_WAIT_WITH_BARRIER);
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(barrier_ext_returns_barrier) {
    ur_exp_enqueue_ext_properties_t props = {UR_STRUCTURE_TYPE_EXP_ENQUEUE_EXT_PROPERTIES, NULL, 0};
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &props, 0, NULL, &e));
    ck_assert_int_eq(type_of(e), UR_COMMAND_EVENTS_WAIT_WITH_BARRIER);
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

START_TEST(write_then_read_blocking) {
    ur_mem_handle_t m = buffer(N * sizeof(int));
    int in[N], out[N] = {0};
    for (int i = 0; i < N; ++i)
        in[i] = i * 3;
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, m, true, 0, sizeof in, in, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, m, true, 0, sizeof out, out, 0, NULL, NULL));
    ck_assert_mem_eq(in, out, sizeof in);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(write_then_read_non_blocking_with_events) {
    ur_mem_handle_t m = buffer(N * sizeof(int));
    int in[N], out[N] = {0};
    for (int i = 0; i < N; ++i)
        in[i] = i + 7;
    ur_event_handle_t w = NULL, r = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, m, false, 0, sizeof in, in, 0, NULL, &w));
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, m, false, 0, sizeof out, out, 1, &w, &r));
    ck_assert_ur_ok(urEventWait(1, &r));
    ck_assert_int_eq(type_of(w), UR_COMMAND_MEM_BUFFER_WRITE);
    ck_assert_int_eq(type_of(r), UR_COMMAND_MEM_BUFFER_READ);
    ck_assert_mem_eq(in, out, sizeof in);
    ck_assert_ur_ok(urEventRelease(w));
    ck_assert_ur_ok(urEventRelease(r));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(read_out_of_range_is_invalid_size_and_no_event) {
    ur_mem_handle_t m = buffer(64);
    char out[64];
    ur_event_handle_t e = (ur_event_handle_t)(uintptr_t)0x5a5a;
    ck_assert_ur(urEnqueueMemBufferRead(T.queue, m, true, 32, 64, out, 0, NULL, &e),
                 UR_RESULT_ERROR_INVALID_SIZE);
    // Nothing was enqueued, so no event was made (UR's adapter wrapped garbage here).
    ck_assert_ptr_eq(e, (ur_event_handle_t)(uintptr_t)0x5a5a);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(write_overflowing_offset_is_invalid_size) {
    ur_mem_handle_t m = buffer(64);
    char in[2] = {0};
    ck_assert_ur(urEnqueueMemBufferWrite(T.queue, m, true, SIZE_MAX, 2, in, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(copy_between_buffers) {
    ur_mem_handle_t a = buffer(256), b = buffer(256);
    uint8_t in[256], out[256] = {0};
    for (int i = 0; i < 256; ++i)
        in[i] = (uint8_t)(255 - i);
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, a, true, 0, 256, in, 0, NULL, NULL));
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferCopy(T.queue, a, b, 16, 32, 128, 0, NULL, &e));
    ck_assert_int_eq(type_of(e), UR_COMMAND_MEM_BUFFER_COPY);
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, b, true, 0, 256, out, 1, &e, NULL));
    ck_assert_mem_eq(out + 32, in + 16, 128);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
}
END_TEST

START_TEST(copy_out_of_range_is_invalid_size) {
    ur_mem_handle_t a = buffer(256), b = buffer(128);
    ck_assert_ur(urEnqueueMemBufferCopy(T.queue, a, b, 0, 0, 256, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
}
END_TEST

START_TEST(write_rect_then_read_rect) {
    // A 4x4 block of a 16x16 byte image, at (2, 3).
    ur_mem_handle_t m = buffer(256);
    uint8_t zero[256] = {0}, block[16], out[16] = {0};
    for (int i = 0; i < 16; ++i)
        block[i] = (uint8_t)(i + 1);
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, m, true, 0, 256, zero, 0, NULL, NULL));
    ur_rect_offset_t origin = {2, 3, 0}, host = {0, 0, 0};
    ur_rect_region_t region = {4, 4, 1};
    ur_event_handle_t w = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferWriteRect(T.queue, m, true, origin, host, region, 16, 0, 4, 0,
                                                block, 0, NULL, &w));
    ck_assert_int_eq(type_of(w), UR_COMMAND_MEM_BUFFER_WRITE_RECT);
    ck_assert_ur_ok(urEnqueueMemBufferReadRect(T.queue, m, true, origin, host, region, 16, 0, 4, 0,
                                               out, 0, NULL, NULL));
    ck_assert_mem_eq(out, block, 16);
    uint8_t all[256];
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, m, true, 0, 256, all, 0, NULL, NULL));
    ck_assert_uint_eq(all[3 * 16 + 2], 1);
    ck_assert_uint_eq(all[3 * 16 + 1], 0);
    ck_assert_ur_ok(urEventRelease(w));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(read_rect_outside_is_invalid_size) {
    ur_mem_handle_t m = buffer(256);
    uint8_t out[64];
    ur_rect_offset_t origin = {0, 14, 0}, host = {0, 0, 0};
    ur_rect_region_t region = {4, 4, 1}; // rows 14..17 of a 16-row image
    ck_assert_ur(urEnqueueMemBufferReadRect(T.queue, m, true, origin, host, region, 16, 0, 4, 0,
                                            out, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(copy_rect) {
    ur_mem_handle_t a = buffer(256), b = buffer(256);
    uint8_t in[256], out[256] = {0};
    for (int i = 0; i < 256; ++i)
        in[i] = (uint8_t)i;
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, a, true, 0, 256, in, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, b, true, 0, 256, out, 0, NULL, NULL));
    ur_rect_offset_t src = {1, 1, 0}, dst = {0, 0, 0};
    ur_rect_region_t region = {2, 2, 1};
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(
        urEnqueueMemBufferCopyRect(T.queue, a, b, src, dst, region, 16, 0, 16, 0, 0, NULL, &e));
    ck_assert_int_eq(type_of(e), UR_COMMAND_MEM_BUFFER_COPY_RECT);
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, b, true, 0, 256, out, 1, &e, NULL));
    ck_assert_uint_eq(out[0], 17);
    ck_assert_uint_eq(out[1], 18);
    ck_assert_uint_eq(out[16], 33);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
}
END_TEST

START_TEST(fill_small_pattern) {
    ur_mem_handle_t m = buffer(256);
    uint32_t pattern = 0xdeadbeef, out[64] = {0};
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferFill(T.queue, m, &pattern, 4, 0, 256, 0, NULL, &e));
    ck_assert_int_eq(type_of(e), UR_COMMAND_MEM_BUFFER_FILL);
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, m, true, 0, 256, out, 1, &e, NULL));
    for (int i = 0; i < 64; ++i)
        ck_assert_uint_eq(out[i], 0xdeadbeef);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(fill_large_pattern) {
    // 256-byte patterns exceed OpenCL's 128-byte limit: written from a host image.
    ur_mem_handle_t m = buffer(1024);
    uint8_t pattern[256], out[1024];
    for (int i = 0; i < 256; ++i)
        pattern[i] = (uint8_t)(i ^ 0x5a);
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferFill(T.queue, m, pattern, 256, 0, 1024, 0, NULL, &e));
    ck_assert_int_eq(type_of(e), UR_COMMAND_MEM_BUFFER_FILL);
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, m, true, 0, 1024, out, 1, &e, NULL));
    for (int i = 0; i < 1024; ++i)
        ck_assert_uint_eq(out[i], pattern[i % 256]);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(fill_out_of_range_is_invalid_size) {
    ur_mem_handle_t m = buffer(256);
    uint32_t pattern = 1;
    ck_assert_ur(urEnqueueMemBufferFill(T.queue, m, &pattern, 4, 128, 256, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(map_write_unmap_read) {
    ur_mem_handle_t m = buffer(64);
    void *p = NULL;
    ur_event_handle_t me = NULL, ue = NULL;
    ck_assert_ur_ok(
        urEnqueueMemBufferMap(T.queue, m, true, UR_MAP_FLAG_WRITE, 0, 64, 0, NULL, &me, &p));
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(type_of(me), UR_COMMAND_MEM_BUFFER_MAP);
    memset(p, 0x42, 64);
    ck_assert_ur_ok(urEnqueueMemUnmap(T.queue, m, p, 0, NULL, &ue));
    ck_assert_int_eq(type_of(ue), UR_COMMAND_MEM_UNMAP);
    uint8_t out[64];
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, m, true, 0, 64, out, 1, &ue, NULL));
    ck_assert_uint_eq(out[63], 0x42);
    ck_assert_ur_ok(urEventRelease(me));
    ck_assert_ur_ok(urEventRelease(ue));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(map_out_of_range_is_invalid_size) {
    ur_mem_handle_t m = buffer(64);
    void *p = (void *)(uintptr_t)0x1;
    ck_assert_ur(
        urEnqueueMemBufferMap(T.queue, m, true, UR_MAP_FLAG_READ, 60, 8, 0, NULL, NULL, &p),
        UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ptr_eq(p, (void *)(uintptr_t)0x1);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(buffer_of_other_context_is_invalid_context) {
    ur_context_handle_t other = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemBufferCreate(other, UR_MEM_FLAG_READ_WRITE, 64, NULL, &m));
    char out[64];
    ck_assert_ur(urEnqueueMemBufferRead(T.queue, m, true, 0, 64, out, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur_ok(urMemRelease(m));
    ck_assert_ur_ok(urContextRelease(other));
}
END_TEST

// ---- kernel launch -----------------------------------------------------------------------------

static ur_exp_kernel_arg_properties_t mem_arg(uint32_t index, ur_mem_handle_t m) {
    ur_exp_kernel_arg_properties_t a = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                        NULL,
                                        UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ,
                                        index,
                                        sizeof(m),
                                        {.memObjTuple = {m, UR_MEM_FLAG_READ_WRITE}}};
    return a;
}

START_TEST(launch_add_one) {
    ur_program_handle_t p = oclt_built_program("add_one");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_one", &k));
    ur_mem_handle_t m = buffer(N * sizeof(int));
    int in[N], out[N];
    for (int i = 0; i < N; ++i)
        in[i] = i;
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, m, true, 0, sizeof in, in, 0, NULL, NULL));
    ur_exp_kernel_arg_properties_t arg = mem_arg(0, m);
    size_t global = N;
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL, 1, &arg,
                                                     NULL, 0, NULL, &e));
    ck_assert_int_eq(type_of(e), UR_COMMAND_KERNEL_LAUNCH);
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, m, true, 0, sizeof out, out, 1, &e, NULL));
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], i + 1);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urMemRelease(m));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(launch_out_of_order_with_wait_list) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    ur_program_handle_t p = oclt_built_program("add_one");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_one", &k));
    ur_mem_handle_t m = buffer(N * sizeof(int));
    int zero[N] = {0}, out[N];
    ur_event_handle_t w = NULL, l1 = NULL, l2 = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferWrite(q, m, false, 0, sizeof zero, zero, 0, NULL, &w));
    ur_exp_kernel_arg_properties_t arg = mem_arg(0, m);
    size_t global = N, local = 1;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(q, k, 1, NULL, &global, &local, 1, &arg, NULL,
                                                     1, &w, &l1));
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(q, k, 1, NULL, &global, &local, 1, &arg, NULL,
                                                     1, &l1, &l2));
    ck_assert_ur_ok(urEnqueueMemBufferRead(q, m, true, 0, sizeof out, out, 1, &l2, NULL));
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], 2);
    ur_event_handle_t all[3] = {w, l1, l2};
    for (int i = 0; i < 3; ++i)
        ck_assert_ur_ok(urEventRelease(all[i]));
    ck_assert_ur_ok(urMemRelease(m));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

START_TEST(launch_with_offset) {
    ur_program_handle_t p = oclt_built_program("add_one");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_one", &k));
    ur_mem_handle_t m = buffer(N * sizeof(int));
    int zero[N] = {0}, out[N];
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, m, true, 0, sizeof zero, zero, 0, NULL, NULL));
    ur_exp_kernel_arg_properties_t arg = mem_arg(0, m);
    size_t offset = N / 2, global = N / 2;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, &offset, &global, NULL, 1, &arg,
                                                     NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, m, true, 0, sizeof out, out, 0, NULL, NULL));
    ck_assert_int_eq(out[N / 2 - 1], 0);
    ck_assert_int_eq(out[N / 2], 1);
    ck_assert_ur_ok(urMemRelease(m));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(launch_bad_dimension_is_invalid_work_dimension) {
    ur_program_handle_t p = oclt_built_program("add_one");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_one", &k));
    size_t global[4] = {1, 1, 1, 1};
    ur_event_handle_t e = NULL;
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 4, NULL, global, NULL, 0, NULL, NULL,
                                                  0, NULL, &e),
                 UR_RESULT_ERROR_INVALID_WORK_DIMENSION);
    ck_assert_ptr_null(e);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(launch_bad_argument_index_is_invalid_kernel_argument_index) {
    ur_program_handle_t p = oclt_built_program("add_one");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_one", &k));
    ur_mem_handle_t m = buffer(64);
    ur_exp_kernel_arg_properties_t arg = mem_arg(7, m);
    size_t global = 1;
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL, 1, &arg, NULL,
                                                  0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    ck_assert_ur_ok(urMemRelease(m));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(launch_cooperative_is_unsupported) {
    ur_program_handle_t p = oclt_built_program("add_one");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_one", &k));
    ur_mem_handle_t m = buffer(64);
    ur_exp_kernel_arg_properties_t arg = mem_arg(0, m);
    ur_kernel_launch_ext_properties_t launch = {UR_STRUCTURE_TYPE_KERNEL_LAUNCH_EXT_PROPERTIES,
                                                NULL, UR_KERNEL_LAUNCH_FLAG_COOPERATIVE};
    size_t global = 1;
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL, 1, &arg,
                                                  &launch, 0, NULL, NULL),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur_ok(urMemRelease(m));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl enqueue");
    TCase *tc = oclt_tcase("urEnqueueEventsWait");
    tcase_add_test(tc, events_wait_returns_marker);
    tcase_add_test(tc, events_wait_with_list);
    tcase_add_test(tc, events_wait_list_with_queue_is_invalid_event_wait_list);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueEventsWaitWithBarrier");
    tcase_add_test(tc, barrier_returns_barrier);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueEventsWaitWithBarrierExt");
    tcase_add_test(tc, barrier_ext_returns_barrier);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueMemBufferWrite");
    tcase_add_test(tc, write_then_read_blocking);
    tcase_add_test(tc, write_overflowing_offset_is_invalid_size);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueMemBufferRead");
    tcase_add_test(tc, write_then_read_non_blocking_with_events);
    tcase_add_test(tc, read_out_of_range_is_invalid_size_and_no_event);
    tcase_add_test(tc, buffer_of_other_context_is_invalid_context);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueMemBufferCopy");
    tcase_add_test(tc, copy_between_buffers);
    tcase_add_test(tc, copy_out_of_range_is_invalid_size);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueMemBufferWriteRect");
    tcase_add_test(tc, write_rect_then_read_rect);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueMemBufferReadRect");
    tcase_add_test(tc, read_rect_outside_is_invalid_size);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueMemBufferCopyRect");
    tcase_add_test(tc, copy_rect);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueMemBufferFill");
    tcase_add_test(tc, fill_small_pattern);
    tcase_add_test(tc, fill_large_pattern);
    tcase_add_test(tc, fill_out_of_range_is_invalid_size);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueMemBufferMap");
    tcase_add_test(tc, map_write_unmap_read);
    tcase_add_test(tc, map_out_of_range_is_invalid_size);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueKernelLaunchWithArgsExp");
    tcase_add_test(tc, launch_add_one);
    tcase_add_test(tc, launch_out_of_order_with_wait_list);
    tcase_add_test(tc, launch_with_offset);
    tcase_add_test(tc, launch_bad_dimension_is_invalid_work_dimension);
    tcase_add_test(tc, launch_bad_argument_index_is_invalid_kernel_argument_index);
    tcase_add_test(tc, launch_cooperative_is_unsupported);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
