// SPDX-License-Identifier: MIT
// common/device/device_info: the features no adapter implements, the table of fixed answers, and
// extension-list matching.
#include "device/device_info.h"
#include "urc_test.h"

START_TEST(unimplemented_features_are_listed) {
    ck_assert(urc_device_info_unimplemented_feature(UR_DEVICE_INFO_BINDLESS_IMAGES_SUPPORT_EXP));
    ck_assert(urc_device_info_unimplemented_feature(UR_DEVICE_INFO_LOW_POWER_EVENTS_SUPPORT_EXP));
}
END_TEST

START_TEST(adapter_specific_answers_are_not_listed) {
    // Answered by each adapter itself, differently (true on Level Zero, false on CUDA).
    ck_assert(!urc_device_info_unimplemented_feature(UR_DEVICE_INFO_DYNAMIC_LINK_SUPPORT_EXP));
    // Command buffers: each adapter reports what its device can do (common/queue/command_buffer.h).
    ck_assert(!urc_device_info_unimplemented_feature(UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP));
    ck_assert(!urc_device_info_unimplemented_feature(UR_DEVICE_INFO_ENQUEUE_HOST_TASK_SUPPORT_EXP));
    ck_assert(!urc_device_info_unimplemented_feature(UR_DEVICE_INFO_GLOBAL_VARIABLE_SUPPORT));
    ck_assert(!urc_device_info_unimplemented_feature(UR_DEVICE_INFO_NAME));
    // Reusable and IPC events: every adapter answers (OpenCL has no IPC events).
    ck_assert(!urc_device_info_unimplemented_feature(UR_DEVICE_INFO_REUSABLE_EVENTS_SUPPORT_EXP));
    ck_assert(!urc_device_info_unimplemented_feature(UR_DEVICE_INFO_IPC_EVENT_SUPPORT_EXP));
}
END_TEST

START_TEST(word_listed_matches_whole_words) {
    const char *ext = "cl_khr_fp16_foo cl_khr_fp64 cl_khr_fp16";
    ck_assert(urc_device_info_word_listed(ext, "cl_khr_fp16"));
    ck_assert(urc_device_info_word_listed(ext, "cl_khr_fp64"));
    ck_assert(!urc_device_info_word_listed(ext, "cl_khr_fp"));
    ck_assert(!urc_device_info_word_listed("cl_khr_fp16_foo", "cl_khr_fp16"));
    ck_assert(!urc_device_info_word_listed(NULL, "cl_khr_fp16"));
    ck_assert(!urc_device_info_word_listed(ext, ""));
}
END_TEST

static const urc_device_fixed_t table[] = {
    URC_FIXED_TRUE(UR_DEVICE_INFO_AVAILABLE),
    URC_FIXED_FALSE(UR_DEVICE_INFO_IMAGE_SRGB),
    URC_FIXED_U32(UR_DEVICE_INFO_ADDRESS_BITS, 64),
    // An unimplemented feature is false whatever a table says.
    URC_FIXED_TRUE(UR_DEVICE_INFO_BINDLESS_IMAGES_SUPPORT_EXP),
};

START_TEST(fixed_answers_come_from_the_table) {
    ur_bool_t b = 7;
    uint32_t u = 0;
    size_t size = 0;
    ur_result_t res = UR_RESULT_ERROR_UNKNOWN;
    urc_info_t out = {sizeof b, &b, &size};
    ck_assert(URC_DEVICE_INFO_FIXED(table, UR_DEVICE_INFO_AVAILABLE, &out, &res));
    ck_assert_int_eq(res, UR_RESULT_SUCCESS);
    ck_assert_int_eq(b, 1);
    ck_assert_uint_eq(size, sizeof(ur_bool_t));
    ck_assert(URC_DEVICE_INFO_FIXED(table, UR_DEVICE_INFO_IMAGE_SRGB, &out, &res));
    ck_assert_int_eq(b, 0);
    ck_assert(URC_DEVICE_INFO_FIXED(table, UR_DEVICE_INFO_BINDLESS_IMAGES_SUPPORT_EXP, &out, &res));
    ck_assert_int_eq(b, 0);
    out = (urc_info_t){sizeof u, &u, &size};
    ck_assert(URC_DEVICE_INFO_FIXED(table, UR_DEVICE_INFO_ADDRESS_BITS, &out, &res));
    ck_assert_int_eq(res, UR_RESULT_SUCCESS);
    ck_assert_uint_eq(u, 64);
    ck_assert_uint_eq(size, sizeof(uint32_t));
}
END_TEST

START_TEST(fixed_answers_keep_the_size_rule) {
    uint8_t small = 0;
    size_t size = 0;
    ur_result_t res = UR_RESULT_SUCCESS;
    const urc_info_t out = {sizeof small, &small, &size};
    ck_assert(URC_DEVICE_INFO_FIXED(table, UR_DEVICE_INFO_ADDRESS_BITS, &out, &res));
    ck_assert_int_eq(res, UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_uint_eq(size, sizeof(uint32_t));
}
END_TEST

START_TEST(queries_outside_the_table_are_the_adapters) {
    ur_result_t res = UR_RESULT_ERROR_UNKNOWN;
    const urc_info_t out = {0, NULL, NULL};
    ck_assert(!URC_DEVICE_INFO_FIXED(table, UR_DEVICE_INFO_NAME, &out, &res));
    ck_assert_int_eq(res, UR_RESULT_ERROR_UNKNOWN); // untouched
    ck_assert(!urc_device_info_fixed(NULL, 0, UR_DEVICE_INFO_NAME, &out, &res));
}
END_TEST

int main(void) {
    Suite *s = suite_create("device_info");
    TCase *tc = tcase_create("urc_device_info_unimplemented_feature");
    tcase_add_test(tc, unimplemented_features_are_listed);
    tcase_add_test(tc, adapter_specific_answers_are_not_listed);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_device_info_fixed");
    tcase_add_test(tc, fixed_answers_come_from_the_table);
    tcase_add_test(tc, fixed_answers_keep_the_size_rule);
    tcase_add_test(tc, queries_outside_the_table_are_the_adapters);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_device_info_word_listed");
    tcase_add_test(tc, word_listed_matches_whole_words);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
