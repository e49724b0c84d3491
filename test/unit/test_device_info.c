// SPDX-License-Identifier: MIT
// common/device/device_info: the features no adapter implements, and extension-list matching.
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

int main(void) {
    Suite *s = suite_create("device_info");
    TCase *tc = tcase_create("urc_device_info_unimplemented_feature");
    tcase_add_test(tc, unimplemented_features_are_listed);
    tcase_add_test(tc, adapter_specific_answers_are_not_listed);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_device_info_word_listed");
    tcase_add_test(tc, word_listed_matches_whole_words);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
