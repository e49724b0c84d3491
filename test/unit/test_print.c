// SPDX-License-Identifier: MIT
// The urPrint* printers exported by urc's loader: the required-size protocol, and the text of
// a sample of values of every kind against UR's format (enumerators, bit sets, structs with
// pNext chains and unions, pointers, handles, strings, parameter structs with arrays and
// info values tagged by their query).
#include <stdio.h>
#include <string.h>

#include "ur_print.h"
#include "urc_test.h"

static char text[4096];

static const char *enum_text(ur_result_t r) {
    size_t need = 0;
    ck_assert_int_eq(urPrintResult(r, NULL, 0, &need), UR_RESULT_SUCCESS);
    ck_assert_uint_lt(need, sizeof text);
    ck_assert_int_eq(urPrintResult(r, text, need, NULL), UR_RESULT_SUCCESS);
    ck_assert_uint_eq(strlen(text) + 1, need);
    return text;
}

START_TEST(size_protocol) {
    size_t need = 0;
    ck_assert_int_eq(urPrintResult(UR_RESULT_SUCCESS, NULL, 0, &need), UR_RESULT_SUCCESS);
    ck_assert_uint_eq(need, strlen("UR_RESULT_SUCCESS") + 1);
    char small[4] = "xyz";
    ck_assert_int_eq(urPrintResult(UR_RESULT_SUCCESS, small, sizeof small, &need),
                     UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_uint_eq(need, strlen("UR_RESULT_SUCCESS") + 1);
    ck_assert_str_eq(small, "xyz");
    char exact[18];
    ck_assert_int_eq(urPrintResult(UR_RESULT_SUCCESS, exact, sizeof exact, NULL),
                     UR_RESULT_SUCCESS);
    ck_assert_str_eq(exact, "UR_RESULT_SUCCESS");
}
END_TEST

START_TEST(enumerators) {
    ck_assert_str_eq(enum_text(UR_RESULT_ERROR_INVALID_VALUE), "UR_RESULT_ERROR_INVALID_VALUE");
    ck_assert_str_eq(enum_text((ur_result_t)123456), "unknown enumerator");
    ck_assert_int_eq(urPrintDeviceInfo(UR_DEVICE_INFO_NAME, text, sizeof text, NULL),
                     UR_RESULT_SUCCESS);
    ck_assert_str_eq(text, "UR_DEVICE_INFO_NAME");
    // A flag enum printed on its own is its enumerator's name, as in UR.
    ck_assert_int_eq(urPrintMemFlags(UR_MEM_FLAG_READ_ONLY, text, sizeof text, NULL),
                     UR_RESULT_SUCCESS);
    ck_assert_str_eq(text, "UR_MEM_FLAG_READ_ONLY");
}
END_TEST

START_TEST(structs_and_bit_sets) {
    ur_rect_region_t region = {4, 5, 6};
    ck_assert_int_eq(urPrintRectRegion(region, text, sizeof text, NULL), UR_RESULT_SUCCESS);
    ck_assert_str_eq(text, "(struct ur_rect_region_t){.width = 4, .height = 5, .depth = 6}");

    ur_context_properties_t none = {UR_STRUCTURE_TYPE_CONTEXT_PROPERTIES, NULL, 0};
    ck_assert_int_eq(urPrintContextProperties(none, text, sizeof text, NULL), UR_RESULT_SUCCESS);
    ck_assert_str_eq(text, "(struct ur_context_properties_t){.stype = "
                           "UR_STRUCTURE_TYPE_CONTEXT_PROPERTIES, .pNext = nullptr, .flags = 0}");

    ur_usm_desc_t usm = {UR_STRUCTURE_TYPE_USM_DESC, NULL,
                         UR_USM_ADVICE_FLAG_SET_READ_MOSTLY | (1u << 30), 8};
    ck_assert_int_eq(urPrintUsmDesc(usm, text, sizeof text, NULL), UR_RESULT_SUCCESS);
    ck_assert_str_eq(
        text, "(struct ur_usm_desc_t){.stype = UR_STRUCTURE_TYPE_USM_DESC, .pNext = nullptr, "
              ".hints = UR_USM_ADVICE_FLAG_SET_READ_MOSTLY | unknown bit flags "
              "01000000000000000000000000000000, .align = 8}");
}
END_TEST

START_TEST(pnext_chain_and_pointer) {
    ur_buffer_region_t region = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, 16, 32};
    ur_buffer_properties_t props = {UR_STRUCTURE_TYPE_BUFFER_PROPERTIES, &region, NULL};
    ck_assert_int_eq(urPrintBufferProperties(props, text, sizeof text, NULL), UR_RESULT_SUCCESS);
    char want[512];
    snprintf(want, sizeof want,
             "(struct ur_buffer_properties_t){.stype = UR_STRUCTURE_TYPE_BUFFER_PROPERTIES, "
             ".pNext = %p ((struct ur_buffer_region_t){.stype = UR_STRUCTURE_TYPE_BUFFER_REGION, "
             ".pNext = nullptr, .origin = 16, .size = 32}), .pHost = nullptr}",
             (void *)&region);
    ck_assert_str_eq(text, want);
}
END_TEST

START_TEST(union_by_tag) {
    char name[] = "SYCL/x";
    ur_program_metadata_t md = {name, UR_PROGRAM_METADATA_TYPE_UINT32, 4, {.data32 = 7}};
    ck_assert_int_eq(urPrintProgramMetadata(md, text, sizeof text, NULL), UR_RESULT_SUCCESS);
    char want[512];
    snprintf(want, sizeof want,
             "(struct ur_program_metadata_t){.pName = %p (SYCL/x), .type = "
             "UR_PROGRAM_METADATA_TYPE_UINT32, .size = 4, .value = (union "
             "ur_program_metadata_value_t){.data32 = 7}}",
             (void *)name);
    ck_assert_str_eq(text, want);
}
END_TEST

START_TEST(params_with_array_and_output) {
    uint32_t num_entries = 2;
    ur_adapter_handle_t adapters[2] = {(ur_adapter_handle_t)0x1000, NULL};
    ur_adapter_handle_t *ph = adapters;
    uint32_t count = 3;
    uint32_t *pcount = &count;
    ur_adapter_get_params_t p = {&num_entries, &ph, &pcount};
    ck_assert_int_eq(urPrintAdapterGetParams(&p, text, sizeof text, NULL), UR_RESULT_SUCCESS);
    char want[512];
    snprintf(want, sizeof want,
             ".NumEntries = 2, .phAdapters = %p {0x1000, nullptr}, .pNumAdapters = %p (3)",
             (void *)adapters, (void *)&count);
    ck_assert_str_eq(text, want);
    // The same through urPrintFunctionParams.
    char again[512];
    ck_assert_int_eq(urPrintFunctionParams(UR_FUNCTION_ADAPTER_GET, &p, again, sizeof again, NULL),
                     UR_RESULT_SUCCESS);
    ck_assert_str_eq(again, want);
    ck_assert_int_eq(
        urPrintFunctionParams(UR_FUNCTION_ADAPTER_GET, NULL, again, sizeof again, NULL),
        UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_int_eq(urPrintFunctionParams((ur_function_t)99999, &p, again, sizeof again, NULL),
                     UR_RESULT_ERROR_INVALID_ENUMERATION);
}
END_TEST

START_TEST(params_with_tagged_info) {
    ur_device_handle_t dev = (ur_device_handle_t)0x2000;
    ur_device_info_t query = UR_DEVICE_INFO_TYPE;
    ur_device_type_t type = UR_DEVICE_TYPE_GPU;
    size_t size = sizeof type;
    void *value = &type;
    size_t *size_ret = NULL;
    ur_device_get_info_params_t p = {&dev, &query, &size, &value, &size_ret};
    ck_assert_int_eq(urPrintDeviceGetInfoParams(&p, text, sizeof text, NULL), UR_RESULT_SUCCESS);
    char want[512];
    snprintf(want, sizeof want,
             ".hDevice = 0x2000, .propName = UR_DEVICE_INFO_TYPE, .propSize = 4, "
             ".pPropValue = %p (UR_DEVICE_TYPE_GPU), .pPropSizeRet = nullptr",
             (void *)&type);
    ck_assert_str_eq(text, want);

    // Too small a value for the query, a string, and a bit set.
    size = 2;
    ck_assert_int_eq(urPrintDeviceGetInfoParams(&p, text, sizeof text, NULL), UR_RESULT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(text, ".pPropValue = invalid size (is: 2, expected: >=4)"));
    char name[] = "cpu";
    query = UR_DEVICE_INFO_NAME;
    value = name;
    size = sizeof name;
    ck_assert_int_eq(urPrintDeviceGetInfoParams(&p, text, sizeof text, NULL), UR_RESULT_SUCCESS);
    snprintf(want, sizeof want, ".pPropValue = %p (cpu)", (void *)name);
    ck_assert_ptr_nonnull(strstr(text, want));
    ur_device_fp_capability_flags_t fp =
        UR_DEVICE_FP_CAPABILITY_FLAG_INF_NAN | UR_DEVICE_FP_CAPABILITY_FLAG_FMA;
    query = UR_DEVICE_INFO_SINGLE_FP_CONFIG;
    value = &fp;
    size = sizeof fp;
    ck_assert_int_eq(urPrintDeviceGetInfoParams(&p, text, sizeof text, NULL), UR_RESULT_SUCCESS);
    snprintf(want, sizeof want,
             ".pPropValue = %p (UR_DEVICE_FP_CAPABILITY_FLAG_INF_NAN | "
             "UR_DEVICE_FP_CAPABILITY_FLAG_FMA)",
             (void *)&fp);
    ck_assert_ptr_nonnull(strstr(text, want));
    size_t sizes[3] = {1, 2, 3};
    query = UR_DEVICE_INFO_MAX_WORK_ITEM_SIZES;
    value = sizes;
    size = sizeof sizes;
    ck_assert_int_eq(urPrintDeviceGetInfoParams(&p, text, sizeof text, NULL), UR_RESULT_SUCCESS);
    ck_assert_ptr_nonnull(strstr(text, ".pPropValue = {1, 2, 3}"));
}
END_TEST

START_TEST(params_scalars_bools_and_callbacks) {
    ur_queue_handle_t q = NULL;
    ur_mem_handle_t buf = (ur_mem_handle_t)0x30;
    bool blocking = true;
    size_t offset = 0, size = 64;
    void *dst = NULL;
    uint32_t n = 0;
    const ur_event_handle_t *wait = NULL;
    ur_event_handle_t *out = NULL;
    ur_enqueue_mem_buffer_read_params_t p = {&q,   &buf, &blocking, &offset, &size,
                                             &dst, &n,   &wait,     &out};
    ck_assert_int_eq(urPrintEnqueueMemBufferReadParams(&p, text, sizeof text, NULL),
                     UR_RESULT_SUCCESS);
    ck_assert_str_eq(
        text, ".hQueue = nullptr, .hBuffer = 0x30, .blockingRead = 1, .offset = 0, .size = 64, "
              ".pDst = nullptr, .numEventsInWaitList = 0, .phEventWaitList = nullptr, "
              ".phEvent = nullptr");
    ur_context_handle_t ctx = (ur_context_handle_t)0x40;
    ur_context_extended_deleter_t deleter = NULL;
    void *user = NULL;
    ur_context_set_extended_deleter_params_t d = {&ctx, &deleter, &user};
    ck_assert_int_eq(urPrintContextSetExtendedDeleterParams(&d, text, sizeof text, NULL),
                     UR_RESULT_SUCCESS);
    ck_assert_str_eq(text, ".hContext = 0x40, .pfnDeleter = 0, .pUserData = nullptr");
}
END_TEST

int main(void) {
    Suite *s = suite_create("print");
    TCase *tc = tcase_create("format");
    tcase_add_test(tc, size_protocol);
    tcase_add_test(tc, enumerators);
    tcase_add_test(tc, structs_and_bit_sets);
    tcase_add_test(tc, pnext_chain_and_pointer);
    tcase_add_test(tc, union_by_tag);
    tcase_add_test(tc, params_with_array_and_output);
    tcase_add_test(tc, params_with_tagged_info);
    tcase_add_test(tc, params_scalars_bools_and_callbacks);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
