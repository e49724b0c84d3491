// SPDX-License-Identifier: MIT
// common/memory/buffer: the backend-independent argument rules of buffers and sub-buffers.
#include <stdint.h>

#include "memory/buffer.h"
#include "urc_test.h"

static int host;

START_TEST(create_host_pointer_goes_with_its_flags) {
    ck_assert_ur_ok(urc_buffer_check_create(UR_MEM_FLAG_READ_WRITE, NULL));
    ck_assert_ur_ok(urc_buffer_check_create(UR_MEM_FLAG_USE_HOST_POINTER, &host));
    ck_assert_ur_ok(urc_buffer_check_create(UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER, &host));
    ck_assert_ur(urc_buffer_check_create(UR_MEM_FLAG_USE_HOST_POINTER, NULL),
                 UR_RESULT_ERROR_INVALID_HOST_PTR);
    ck_assert_ur(urc_buffer_check_create(UR_MEM_FLAG_READ_WRITE, &host),
                 UR_RESULT_ERROR_INVALID_HOST_PTR);
}
END_TEST

START_TEST(create_use_excludes_alloc) {
    ck_assert_ur(urc_buffer_check_create(
                     UR_MEM_FLAG_USE_HOST_POINTER | UR_MEM_FLAG_ALLOC_HOST_POINTER, &host),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_buffer_check_create(
                     UR_MEM_FLAG_USE_HOST_POINTER | UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER, &host),
                 UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(partition_region_inside) {
    ur_buffer_region_t in = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, 16, 48};
    ur_buffer_region_t past = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, 16, 49};
    ur_buffer_region_t huge = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, 8, SIZE_MAX - 4};
    ur_mem_flags_t rw = UR_MEM_FLAG_READ_WRITE;
    ck_assert_ur_ok(urc_buffer_check_partition(false, 64, rw, rw, &in));
    ck_assert_ur(urc_buffer_check_partition(false, 64, rw, rw, &past),
                 UR_RESULT_ERROR_INVALID_BUFFER_SIZE);
    ck_assert_ur(urc_buffer_check_partition(false, 64, rw, rw, &huge),
                 UR_RESULT_ERROR_INVALID_BUFFER_SIZE);
}
END_TEST

START_TEST(partition_not_twice) {
    ur_buffer_region_t in = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, 0, 8};
    ck_assert_ur(urc_buffer_check_partition(true, 64, 0, 0, &in),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
}
END_TEST

START_TEST(partition_flags_narrow_only) {
    ur_buffer_region_t in = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, 0, 8};
    ck_assert_ur_ok(
        urc_buffer_check_partition(false, 64, UR_MEM_FLAG_READ_WRITE, UR_MEM_FLAG_READ_ONLY, &in));
    ck_assert_ur(
        urc_buffer_check_partition(false, 64, UR_MEM_FLAG_READ_ONLY, UR_MEM_FLAG_READ_WRITE, &in),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(
        urc_buffer_check_partition(false, 64, UR_MEM_FLAG_WRITE_ONLY, UR_MEM_FLAG_READ_ONLY, &in),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_buffer_check_partition(false, 64, UR_MEM_FLAG_READ_WRITE,
                                            UR_MEM_FLAG_USE_HOST_POINTER, &in),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Parent flags 0: the backend checks access itself.
    ck_assert_ur_ok(urc_buffer_check_partition(false, 64, 0, UR_MEM_FLAG_READ_WRITE, &in));
}
END_TEST

int main(void) {
    Suite *s = suite_create("buffer");
    TCase *tc = tcase_create("urc_buffer_check_create");
    tcase_add_test(tc, create_host_pointer_goes_with_its_flags);
    tcase_add_test(tc, create_use_excludes_alloc);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_buffer_check_partition");
    tcase_add_test(tc, partition_region_inside);
    tcase_add_test(tc, partition_not_twice);
    tcase_add_test(tc, partition_flags_narrow_only);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
