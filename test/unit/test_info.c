// SPDX-License-Identifier: MIT
// common/core/info: the size rule of every get-info answer, and the shared context and memory
// queries.
#include <stdint.h>
#include <string.h>

#include "core/error.h"
#include "core/info.h"
#include "urc_test.h"

START_TEST(bytes_copies_and_reports_the_size) {
    uint32_t v = 0;
    size_t size = 0;
    const urc_info_t out = {sizeof v, &v, &size};
    ck_assert_ur_ok(urc_info_u32(&out, 42));
    ck_assert_uint_eq(v, 42);
    ck_assert_uint_eq(size, sizeof v);
}
END_TEST

START_TEST(bytes_size_only_without_a_buffer) {
    size_t size = 0;
    const urc_info_t out = {0, NULL, &size};
    ck_assert_ur_ok(urc_info_string(&out, "abc"));
    ck_assert_uint_eq(size, 4);
}
END_TEST

START_TEST(bytes_accepts_a_larger_buffer) {
    char buf[16];
    memset(buf, 'x', sizeof buf);
    const urc_info_t out = {sizeof buf, buf, NULL};
    ck_assert_ur_ok(urc_info_string(&out, "abc"));
    ck_assert_str_eq(buf, "abc");
    ck_assert_int_eq(buf[4], 'x');
}
END_TEST

START_TEST(bytes_small_buffer_is_invalid_size_and_reports_the_size) {
    char buf[2] = {'x', 'x'};
    size_t size = 0;
    const urc_info_t out = {sizeof buf, buf, &size};
    ck_assert_ur(urc_info_string(&out, "abc"), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_uint_eq(size, 4);
    ck_assert_int_eq(buf[0], 'x');
    const char *msg = NULL;
    int32_t code = -1;
    urc_error_get(&msg, &code);
    ck_assert_str_eq(msg, "value buffer of 2 bytes, 4 needed");
}
END_TEST

START_TEST(bool_is_one_byte) {
    uint8_t v[2] = {7, 7};
    size_t size = 0;
    const urc_info_t out = {sizeof v, v, &size};
    ck_assert_ur_ok(urc_info_bool(&out, true));
    ck_assert_uint_eq(size, 1);
    ck_assert_uint_eq(v[0], 1);
    ck_assert_uint_eq(v[1], 7);
}
END_TEST

START_TEST(empty_answer_copies_nothing) {
    size_t size = 9;
    const urc_info_t out = {0, &size, &size};
    ck_assert_ur_ok(urc_info_bytes(&out, NULL, 0));
    ck_assert_uint_eq(size, 0);
}
END_TEST

START_TEST(reserve_checks_without_copying) {
    void *ptrs[2] = {NULL, NULL};
    size_t size = 0;
    const urc_info_t out = {sizeof ptrs, ptrs, &size};
    ck_assert_ur_ok(urc_info_reserve(&out, sizeof ptrs));
    ck_assert_uint_eq(size, sizeof ptrs);
    const urc_info_t small = {sizeof ptrs[0], ptrs, &size};
    ck_assert_ur(urc_info_reserve(&small, sizeof ptrs), UR_RESULT_ERROR_INVALID_SIZE);
}
END_TEST

START_TEST(exact_wants_the_exact_size) {
    uint64_t big = 0;
    uint32_t v = 0;
    size_t size = 0;
    const urc_info_t larger = {sizeof big, &big, &size};
    ck_assert_ur(urc_info_exact(&larger, &(uint32_t){5}, sizeof v), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_uint_eq(size, sizeof v);
    const urc_info_t exact = {sizeof v, &v, NULL};
    ck_assert_ur_ok(urc_info_exact(&exact, &(uint32_t){5}, sizeof v));
    ck_assert_uint_eq(v, 5);
}
END_TEST

START_TEST(adapter_queries) {
    ur_backend_t backend = UR_BACKEND_UNKNOWN;
    uint32_t v = 0;
    const urc_info_t b = {sizeof backend, &backend, NULL}, u = {sizeof v, &v, NULL};
    ck_assert_ur_ok(urc_info_adapter(&b, UR_ADAPTER_INFO_BACKEND, UR_BACKEND_CUDA, 2));
    ck_assert_int_eq(backend, UR_BACKEND_CUDA);
    ck_assert_ur_ok(urc_info_adapter(&u, UR_ADAPTER_INFO_REFERENCE_COUNT, UR_BACKEND_CUDA, 2));
    ck_assert_uint_eq(v, 2);
    ck_assert_ur_ok(urc_info_adapter(&u, UR_ADAPTER_INFO_VERSION, UR_BACKEND_CUDA, 2));
    ck_assert_uint_eq(v, 1);
}
END_TEST

START_TEST(context_queries) {
    ur_device_handle_t devs[2] = {(ur_device_handle_t)0x10, (ur_device_handle_t)0x20};
    ur_device_handle_t got[2] = {NULL, NULL};
    uint32_t n = 0;
    ur_bool_t b = 0;
    const urc_info_t count = {sizeof n, &n, NULL}, list = {sizeof got, got, NULL},
                     flag = {sizeof b, &b, NULL};
    ck_assert_ur_ok(urc_info_context(&count, UR_CONTEXT_INFO_NUM_DEVICES, 2, devs, 3, true));
    ck_assert_uint_eq(n, 2);
    ck_assert_ur_ok(urc_info_context(&list, UR_CONTEXT_INFO_DEVICES, 2, devs, 3, true));
    ck_assert_ptr_eq(got[1], devs[1]);
    ck_assert_ur_ok(urc_info_context(&count, UR_CONTEXT_INFO_REFERENCE_COUNT, 2, devs, 3, true));
    ck_assert_uint_eq(n, 3);
    ck_assert_ur_ok(urc_info_context(&flag, UR_CONTEXT_INFO_USM_FILL2D_SUPPORT, 2, devs, 3, false));
    ck_assert_uint_eq(b, 0);
}
END_TEST

START_TEST(queue_queries) {
    ur_device_handle_t dev = NULL;
    uint32_t v = 0;
    const urc_info_t d = {sizeof dev, &dev, NULL}, u = {sizeof v, &v, NULL};
    ur_context_handle_t ctx = (ur_context_handle_t)0x30;
    ur_device_handle_t owner = (ur_device_handle_t)0x40;
    ck_assert_ur_ok(urc_info_queue(&d, UR_QUEUE_INFO_DEVICE, ctx, owner, 5, 2));
    ck_assert_ptr_eq(dev, owner);
    ck_assert_ur_ok(urc_info_queue(&u, UR_QUEUE_INFO_FLAGS, ctx, owner, 5, 2));
    ck_assert_uint_eq(v, 5);
    ck_assert_ur_ok(urc_info_queue(&u, UR_QUEUE_INFO_REFERENCE_COUNT, ctx, owner, 5, 2));
    ck_assert_uint_eq(v, 2);
    // The adapter answers these itself.
    ck_assert_ur(urc_info_queue(&u, UR_QUEUE_INFO_EMPTY, ctx, owner, 5, 2),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
}
END_TEST

START_TEST(mem_queries) {
    size_t size = 0;
    ur_context_handle_t ctx = NULL;
    const urc_info_t s = {sizeof size, &size, NULL}, c = {sizeof ctx, &ctx, NULL};
    ur_context_handle_t owner = (ur_context_handle_t)0x30;
    ck_assert_ur_ok(urc_info_mem(&s, UR_MEM_INFO_SIZE, 64, owner, 1));
    ck_assert_uint_eq(size, 64);
    ck_assert_ur_ok(urc_info_mem(&c, UR_MEM_INFO_CONTEXT, 64, owner, 1));
    ck_assert_ptr_eq(ctx, owner);
}
END_TEST

int main(void) {
    Suite *s = suite_create("info");
    TCase *tc = tcase_create("urc_info_bytes");
    tcase_add_test(tc, bytes_copies_and_reports_the_size);
    tcase_add_test(tc, bytes_size_only_without_a_buffer);
    tcase_add_test(tc, bytes_accepts_a_larger_buffer);
    tcase_add_test(tc, bytes_small_buffer_is_invalid_size_and_reports_the_size);
    tcase_add_test(tc, bool_is_one_byte);
    tcase_add_test(tc, empty_answer_copies_nothing);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_info_reserve");
    tcase_add_test(tc, reserve_checks_without_copying);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_info_exact");
    tcase_add_test(tc, exact_wants_the_exact_size);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_info_adapter");
    tcase_add_test(tc, adapter_queries);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_info_context");
    tcase_add_test(tc, context_queries);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_info_queue");
    tcase_add_test(tc, queue_queries);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_info_mem");
    tcase_add_test(tc, mem_queries);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
