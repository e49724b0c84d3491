// SPDX-License-Identifier: MIT
// common/queue/launch: launch geometry and argument index checks.
#include <stdint.h>

#include "queue/launch.h"
#include "urc_test.h"

static const urc_launch_limits_t limits = {256, {256, 128, 64}, {1u << 20, 1u << 16, 1u << 16}};

START_TEST(dimensions_and_zero_sizes_follow_ur) {
    size_t g[3] = {8, 8, 8}, l[3] = {2, 2, 2};
    ck_assert_ur(urc_launch_check(1, NULL, g, NULL, NULL), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_launch_check(3, NULL, g, l, &limits), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_launch_check(0, NULL, g, NULL, NULL), UR_RESULT_ERROR_INVALID_WORK_DIMENSION);
    ck_assert_ur(urc_launch_check(4, NULL, g, NULL, NULL), UR_RESULT_ERROR_INVALID_WORK_DIMENSION);
    g[2] = 0;
    ck_assert_ur(urc_launch_check(2, NULL, g, NULL, NULL), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_launch_check(3, NULL, g, NULL, NULL), UR_RESULT_ERROR_INVALID_WORK_DIMENSION);
    g[2] = 8;
    l[1] = 0;
    ck_assert_ur(urc_launch_check(1, NULL, g, l, NULL), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_launch_check(2, NULL, g, l, NULL), UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
}
END_TEST

START_TEST(overflowing_sizes_are_refused) {
    size_t g[3] = {SIZE_MAX / 2 + 1, 4, 1};
    ck_assert_ur(urc_launch_check(1, NULL, g, NULL, NULL), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_launch_check(2, NULL, g, NULL, NULL), UR_RESULT_ERROR_INVALID_VALUE);
    size_t o[3] = {SIZE_MAX / 2 + 1, 0, 0};
    ck_assert_ur(urc_launch_check(1, o, g, NULL, NULL), UR_RESULT_ERROR_INVALID_VALUE);
    size_t big_local[3] = {SIZE_MAX / 2 + 1, 4, 1};
    ck_assert_ur(urc_launch_check(2, NULL, (size_t[3]){SIZE_MAX / 2 + 1, 4, 1}, big_local, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(device_limits_are_checked) {
    size_t g[3] = {1024, 1, 1};
    size_t l[3] = {512, 1, 1};
    ck_assert_ur(urc_launch_check(1, NULL, g, l, &limits), UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
    l[0] = 16;
    l[1] = 32;
    ck_assert_ur(urc_launch_check(2, NULL, g, l, &limits), UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
    g[0] = SIZE_MAX;
    ck_assert_ur(urc_launch_check(1, NULL, g, NULL, &limits), UR_RESULT_ERROR_INVALID_VALUE);
    g[0] = (size_t)256 << 20;
    ck_assert_ur(urc_launch_check(1, NULL, g, NULL, &limits), UR_RESULT_SUCCESS);
    l[0] = 1;
    ck_assert_ur(urc_launch_check(1, NULL, g, l, &limits), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(argument_indices_are_bounded) {
    ck_assert_ur(urc_launch_check_arg_index(0, 1), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_launch_check_arg_index(1, 1), UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    ck_assert_ur(urc_launch_check_arg_index(UINT32_MAX - 1, UINT32_MAX), UR_RESULT_SUCCESS);
}
END_TEST

int main(void) {
    Suite *s = suite_create("launch");
    TCase *tc = tcase_create("urc_launch_check");
    tcase_add_test(tc, dimensions_and_zero_sizes_follow_ur);
    tcase_add_test(tc, overflowing_sizes_are_refused);
    tcase_add_test(tc, device_limits_are_checked);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_launch_check_arg_index");
    tcase_add_test(tc, argument_indices_are_bounded);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
