// SPDX-License-Identifier: MIT
// The argument rules of UR's description that the generated checks enforce, through the real
// loader: flag masks, flag conflicts, enumerators, host pointers, metadata counts, alignments,
// slice pitches and launch sizes each get the result the description names, and no adapter
// is reached.
#include <string.h>

#include "dispatch_calls.h"
#include "loader_test.h"

static fake_api_t A, B;

static void setup(void) {
    lt_init_two(&A, &B);
    A.reset_calls();
}

static uint32_t calls(void) {
    uint32_t n = 0;
    for (uint32_t s = 0; s < URC_SLOT_COUNT; ++s)
        n += A.calls(s);
    return n;
}

#define H(type) ((type)A.generic_handle())

START_TEST(context_flags_outside_the_mask) {
    ur_device_handle_t dev = H(ur_device_handle_t);
    ur_context_properties_t props = {UR_STRUCTURE_TYPE_CONTEXT_PROPERTIES, NULL, 0x80000000u};
    ur_context_handle_t c = NULL;
    ck_assert_ur(urContextCreate(1, &dev, &props, &c), UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_uint_eq(calls(), 0);
}
END_TEST

START_TEST(queue_flags_conflicts_and_mask) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_PRIORITY_HIGH | UR_QUEUE_FLAG_PRIORITY_LOW};
    ur_queue_handle_t q = NULL;
    ur_context_handle_t c = H(ur_context_handle_t);
    ur_device_handle_t d = H(ur_device_handle_t);
    ck_assert_ur(urQueueCreate(c, d, &props, &q), UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES);
    props.flags = UR_QUEUE_FLAG_SUBMISSION_BATCHED | UR_QUEUE_FLAG_SUBMISSION_IMMEDIATE;
    ck_assert_ur(urQueueCreate(c, d, &props, &q), UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES);
    props.flags = 0x80000000u;
    ck_assert_ur(urQueueCreate(c, d, &props, &q), UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_uint_eq(calls(), 0);
}
END_TEST

START_TEST(sampler_addressing_mode_out_of_range) {
    ur_sampler_desc_t desc = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, false,
                              (ur_sampler_addressing_mode_t)99, UR_SAMPLER_FILTER_MODE_NEAREST};
    ur_sampler_handle_t s = NULL;
    ck_assert_ur(urSamplerCreate(H(ur_context_handle_t), &desc, &s),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_uint_eq(calls(), 0);
}
END_TEST

START_TEST(usm_alignment_not_a_power_of_two) {
    ur_usm_desc_t desc = {UR_STRUCTURE_TYPE_USM_DESC, NULL, 0, 48};
    void *p = NULL;
    ur_context_handle_t c = H(ur_context_handle_t);
    ur_device_handle_t d = H(ur_device_handle_t);
    ck_assert_ur(urUSMHostAlloc(c, &desc, NULL, 64, &p), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urUSMDeviceAlloc(c, d, &desc, NULL, 64, &p), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urUSMSharedAlloc(c, d, &desc, NULL, 64, &p), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_uint_eq(calls(), 0);
}
END_TEST

START_TEST(buffer_host_pointer_goes_with_its_flags) {
    ur_mem_handle_t m = NULL;
    ur_context_handle_t c = H(ur_context_handle_t);
    int host[4];
    ur_buffer_properties_t with = {UR_STRUCTURE_TYPE_BUFFER_PROPERTIES, NULL, host};
    ur_buffer_properties_t without = {UR_STRUCTURE_TYPE_BUFFER_PROPERTIES, NULL, NULL};
    ck_assert_ur(urMemBufferCreate(c, UR_MEM_FLAG_USE_HOST_POINTER, 16, NULL, &m),
                 UR_RESULT_ERROR_INVALID_HOST_PTR);
    ck_assert_ur(urMemBufferCreate(c, UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER, 16, &without, &m),
                 UR_RESULT_ERROR_INVALID_HOST_PTR);
    ck_assert_ur(urMemBufferCreate(c, UR_MEM_FLAG_READ_WRITE, 16, &with, &m),
                 UR_RESULT_ERROR_INVALID_HOST_PTR);
    ck_assert_uint_eq(calls(), 0);
}
END_TEST

START_TEST(program_metadata_count_and_array_agree) {
    ur_program_metadata_t md[1];
    memset(md, 0, sizeof md);
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 2, NULL};
    ur_program_handle_t p = NULL;
    const uint8_t il[4] = {1, 2, 3, 4};
    ur_context_handle_t c = H(ur_context_handle_t);
    ck_assert_ur(urProgramCreateWithIL(c, il, sizeof il, &props, &p),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    props.count = 0;
    props.pMetadatas = md;
    ck_assert_ur(urProgramCreateWithIL(c, il, sizeof il, &props, &p), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_uint_eq(calls(), 0);
}
END_TEST

START_TEST(rect_slice_pitches) {
    char host[256];
    ur_rect_offset_t o = {0, 0, 0};
    ur_rect_region_t r = {4, 4, 2};
    ur_queue_handle_t q = H(ur_queue_handle_t);
    ur_mem_handle_t b = H(ur_mem_handle_t);
    // Smaller than one slice of rows, then not a whole number of rows.
    ck_assert_ur(urEnqueueMemBufferReadRect(q, b, true, o, o, r, 0, 8, 0, 0, host, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueMemBufferWriteRect(q, b, true, o, o, r, 0, 18, 0, 0, host, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueMemBufferCopyRect(q, b, b, o, o, r, 0, 0, 8, 18, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_uint_eq(calls(), 0);
}
END_TEST

START_TEST(launch_sizes_and_flags) {
    ur_queue_handle_t q = H(ur_queue_handle_t);
    ur_kernel_handle_t k = H(ur_kernel_handle_t);
    size_t zero[3] = {0, 0, 0}, one[3] = {1, 1, 1}, ones_but_last[3] = {1, 1, 0};
    ck_assert_ur(
        urEnqueueKernelLaunchWithArgsExp(q, k, 1, NULL, zero, NULL, 0, NULL, NULL, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_WORK_DIMENSION);
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(q, k, 3, NULL, ones_but_last, NULL, 0, NULL, NULL,
                                                  0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_WORK_DIMENSION);
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(q, k, 3, NULL, one, ones_but_last, 0, NULL, NULL,
                                                  0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
    ur_kernel_launch_ext_properties_t props = {UR_STRUCTURE_TYPE_KERNEL_LAUNCH_EXT_PROPERTIES, NULL,
                                               0x80000000u};
    ck_assert_ur(
        urEnqueueKernelLaunchWithArgsExp(q, k, 1, NULL, one, NULL, 0, NULL, &props, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_uint_eq(calls(), 0);
}
END_TEST

START_TEST(kernel_group_info_out_of_range) {
    size_t v = 0;
    ck_assert_ur(urKernelGetGroupInfo(H(ur_kernel_handle_t), H(ur_device_handle_t),
                                      (ur_kernel_group_info_t)999, sizeof v, &v, NULL),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_uint_eq(calls(), 0);
}
END_TEST

START_TEST(barrier_flags_outside_the_mask) {
    ur_exp_enqueue_ext_properties_t props = {UR_STRUCTURE_TYPE_EXP_ENQUEUE_EXT_PROPERTIES, NULL,
                                             0x80000000u};
    ck_assert_ur(urEnqueueEventsWaitWithBarrierExt(H(ur_queue_handle_t), &props, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_uint_eq(calls(), 0);
}
END_TEST

int main(void) {
    Suite *s = suite_create("loader spec checks");
    TCase *tc = urc_test_tcase("generated checks", setup, NULL);
    tcase_add_test(tc, context_flags_outside_the_mask);
    tcase_add_test(tc, queue_flags_conflicts_and_mask);
    tcase_add_test(tc, sampler_addressing_mode_out_of_range);
    tcase_add_test(tc, usm_alignment_not_a_power_of_two);
    tcase_add_test(tc, buffer_host_pointer_goes_with_its_flags);
    tcase_add_test(tc, program_metadata_count_and_array_agree);
    tcase_add_test(tc, rect_slice_pitches);
    tcase_add_test(tc, launch_sizes_and_flags);
    tcase_add_test(tc, kernel_group_info_out_of_range);
    tcase_add_test(tc, barrier_flags_outside_the_mask);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
