// SPDX-License-Identifier: MIT
// urProgram* of the OpenCL adapter: creation, build, compile, link (with the log of a failed
// link), queries, native handles, specialization constants and function pointers.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "oclt.h"

/// The build log (static buffer).
static const char *log_of(ur_program_handle_t p) {
    static char log[16384];
    log[0] = '\0';
    ck_assert_ur_ok(
        urProgramGetBuildInfo(p, T.device, UR_PROGRAM_BUILD_INFO_LOG, sizeof log, log, NULL));
    return log;
}

START_TEST(create_with_il) {
    size_t size = 0;
    void *spv = oclt_read_kernel("add_one.spv", &size);
    ck_assert_ptr_nonnull(spv);
    ur_program_handle_t p = NULL;
    ur_result_t r = urProgramCreateWithIL(T.context, spv, size, NULL, &p);
    free(spv);
    // PoCL 3.1 takes no SPIR-V: no compiler for it.
    ck_assert_ur(r, T.il ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_COMPILER_NOT_AVAILABLE);
    if (p != NULL)
        ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(create_with_il_garbage_is_invalid_binary) {
    if (!T.il)
        return;
    uint32_t junk[16] = {0xdeadbeef};
    ur_program_handle_t p = NULL;
    ck_assert_ur(urProgramCreateWithIL(T.context, junk, sizeof junk, NULL, &p),
                 UR_RESULT_ERROR_INVALID_BINARY);
}
END_TEST

START_TEST(create_with_malformed_metadata_is_invalid_value) {
    uint8_t short_array[4] = {0};
    ur_program_metadata_t md = {"SYCL/device globals/uid_dev_var",
                                UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY,
                                sizeof short_array,
                                {.pData = short_array}};
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 1, &md};
    size_t size = 0;
    void *bin = oclt_read_kernel(T.il ? "add_one.spv" : "add_one.bc", &size);
    ur_program_handle_t p = NULL;
    ur_result_t r;
    if (T.il) {
        r = urProgramCreateWithIL(T.context, bin, size, &props, &p);
    } else {
        const uint8_t *b = bin;
        r = urProgramCreateWithBinary(T.context, 1, &T.device, &size, &b, &props, &p);
    }
    free(bin);
    ck_assert_ur(r, UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(create_with_binary_round_trip) {
    ur_program_handle_t built = oclt_built_program("add_one");
    size_t size = 0;
    ck_assert_ur_ok(
        urProgramGetInfo(built, UR_PROGRAM_INFO_BINARY_SIZES, sizeof size, &size, NULL));
    ck_assert_uint_gt(size, 0);
    uint8_t *bin = malloc(size);
    ck_assert_ur_ok(urProgramGetInfo(built, UR_PROGRAM_INFO_BINARIES, sizeof bin, &bin, NULL));
    const uint8_t *b = bin;
    ur_program_handle_t p = NULL;
    ck_assert_ur_ok(urProgramCreateWithBinary(T.context, 1, &T.device, &size, &b, NULL, &p));
    ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_one", &k));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
    ck_assert_ur_ok(urProgramRelease(built));
    free(bin);
}
END_TEST

START_TEST(create_with_garbage_binary_is_invalid_binary) {
    uint8_t junk[64];
    memset(junk, 0x5a, sizeof junk);
    const uint8_t *b = junk;
    size_t size = sizeof junk;
    ur_program_handle_t p = NULL;
    ck_assert_ur(urProgramCreateWithBinary(T.context, 1, &T.device, &size, &b, NULL, &p),
                 UR_RESULT_ERROR_INVALID_BINARY);
}
END_TEST

START_TEST(build_makes_executable) {
    ur_program_handle_t p = oclt_built_program("add_one");
    ur_program_build_status_t status = UR_PROGRAM_BUILD_STATUS_NONE;
    ck_assert_ur_ok(urProgramGetBuildInfo(p, T.device, UR_PROGRAM_BUILD_INFO_STATUS, sizeof status,
                                          &status, NULL));
    ck_assert_int_eq(status, UR_PROGRAM_BUILD_STATUS_SUCCESS);
    ck_assert_int_eq(urc_test_binary_type(p, T.device), UR_PROGRAM_BINARY_TYPE_EXECUTABLE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(build_with_unresolved_symbol_fails_with_log) {
    ur_program_handle_t p = oclt_program("vf_kernel", NULL);
    ck_assert_ur(urProgramBuild(T.context, p, NULL), UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE);
    ck_assert_ptr_nonnull(strstr(log_of(p), "vf_a"));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(build_in_other_context_is_invalid_context) {
    ur_program_handle_t p = oclt_program("add_one", NULL);
    ur_context_handle_t other = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    ck_assert_ur(urProgramBuild(other, p, NULL), UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur_ok(urContextRelease(other));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(build_exp_for_the_device) {
    ur_program_handle_t p = oclt_program("add_one", NULL);
    ck_assert_ur_ok(urProgramBuildExp(p, 1, &T.device, 0, NULL));
    ck_assert_int_eq(urc_test_binary_type(p, T.device), UR_PROGRAM_BINARY_TYPE_EXECUTABLE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(build_exp_with_foreign_device_is_invalid_device) {
    ur_program_handle_t p = oclt_program("add_one", NULL);
    ur_device_handle_t wrong = (ur_device_handle_t)T.queue;
    ck_assert_ur(urProgramBuildExp(p, 1, &wrong, 0, NULL), UR_RESULT_ERROR_INVALID_DEVICE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(build_exp_allowing_unresolved_is_unsupported) {
    ur_program_handle_t p = oclt_program("add_one", NULL);
    ck_assert_ur(
        urProgramBuildExp(p, 1, &T.device, UR_EXP_PROGRAM_FLAG_ALLOW_UNRESOLVED_SYMBOLS, NULL),
        UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(compile_makes_object) {
    ur_program_handle_t p = oclt_program("vf_kernel", NULL);
    ur_result_t r = urProgramCompile(T.context, p, NULL);
    if (!T.il) {
        // OpenCL compiles source or IL only; PoCL's programs here come from SPIR binaries.
        ck_assert_ur(r, UR_RESULT_ERROR_INVALID_OPERATION);
    } else {
        ck_assert_ur_ok(r);
        ck_assert_int_eq(urc_test_binary_type(p, T.device), UR_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    }
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(compile_exp_for_the_device) {
    if (!T.il)
        return;
    ur_program_handle_t p = oclt_program("vf_provider", NULL);
    ck_assert_ur_ok(urProgramCompileExp(p, 1, &T.device, 0, NULL));
    ck_assert_int_eq(urc_test_binary_type(p, T.device), UR_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

static ur_program_handle_t compiled(const char *base) {
    ur_program_handle_t p = oclt_program(base, NULL);
    ck_assert_ur_ok(urProgramCompile(T.context, p, NULL));
    return p;
}

START_TEST(link_kernel_with_provider_runs) {
    if (!T.il)
        return;
    ur_program_handle_t in[2] = {compiled("vf_kernel"), compiled("vf_provider")};
    ur_program_handle_t linked = NULL;
    ck_assert_ur_ok(urProgramLink(T.context, 2, in, NULL, &linked));
    ck_assert_int_eq(urc_test_binary_type(linked, T.device), UR_PROGRAM_BINARY_TYPE_EXECUTABLE);
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(linked, "vf_kernel", &k));
    ur_mem_handle_t m = NULL;
    int data[4] = {0, 1, 2, 4};
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, sizeof data, NULL, &m));
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, m, true, 0, sizeof data, data, 0, NULL, NULL));
    ur_exp_kernel_arg_properties_t arg = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                          NULL,
                                          UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ,
                                          0,
                                          sizeof m,
                                          {.memObjTuple = {m, UR_MEM_FLAG_READ_WRITE}}};
    size_t global = 4;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL, 1, &arg,
                                                     NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, m, true, 0, sizeof data, data, 0, NULL, NULL));
    ck_assert_int_eq(data[1], 2);  // (int)(1 * 2.5 + 0.25)
    ck_assert_int_eq(data[3], 10); // (int)(4 * 2.5 + 0.25)
    ck_assert_ur_ok(urMemRelease(m));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(in[0]));
    ck_assert_ur_ok(urProgramRelease(in[1]));
}
END_TEST

START_TEST(link_failure_returns_program_with_log) {
    if (!T.il)
        return;
    ur_program_handle_t in = compiled("vf_kernel");
    ur_program_handle_t linked = NULL;
    ck_assert_ur(urProgramLink(T.context, 1, &in, NULL, &linked),
                 UR_RESULT_ERROR_PROGRAM_LINK_FAILURE);
    ck_assert_ptr_nonnull(linked);
    ck_assert_ptr_nonnull(strstr(log_of(linked), "vf_a"));
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(in));
}
END_TEST

START_TEST(link_duplicate_definitions_fails) {
    if (!T.il)
        return;
    ur_program_handle_t in[3] = {compiled("vf_kernel"), compiled("vf_provider"),
                                 compiled("vf_provider")};
    ur_program_handle_t linked = NULL;
    ck_assert_ur(urProgramLink(T.context, 3, in, NULL, &linked),
                 UR_RESULT_ERROR_PROGRAM_LINK_FAILURE);
    if (linked != NULL)
        ck_assert_ur_ok(urProgramRelease(linked));
    for (int i = 0; i < 3; ++i)
        ck_assert_ur_ok(urProgramRelease(in[i]));
}
END_TEST

START_TEST(link_of_non_program_sets_output_null) {
    ur_program_handle_t wrong = (ur_program_handle_t)T.queue;
    ur_program_handle_t linked = (ur_program_handle_t)(uintptr_t)0x5a5a;
    ck_assert_ur(urProgramLink(T.context, 1, &wrong, NULL, &linked),
                 UR_RESULT_ERROR_INVALID_PROGRAM);
    ck_assert_ptr_null(linked);
}
END_TEST

START_TEST(link_exp_for_the_device) {
    if (!T.il)
        return;
    ur_program_handle_t in[2] = {compiled("vf_kernel"), compiled("vf_provider")};
    ur_program_handle_t linked = NULL;
    ck_assert_ur_ok(urProgramLinkExp(T.context, 1, &T.device, 0, 2, in, NULL, &linked));
    ck_assert_int_eq(urc_test_binary_type(linked, T.device), UR_PROGRAM_BINARY_TYPE_EXECUTABLE);
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(in[0]));
    ck_assert_ur_ok(urProgramRelease(in[1]));
}
END_TEST

START_TEST(link_exp_allowing_unresolved_is_unsupported) {
    ur_program_handle_t in = oclt_program("add_one", NULL);
    ur_program_handle_t linked = (ur_program_handle_t)(uintptr_t)0x5a5a;
    ck_assert_ur(urProgramLinkExp(T.context, 1, &T.device,
                                  UR_EXP_PROGRAM_FLAG_ALLOW_UNRESOLVED_SYMBOLS, 1, &in, NULL,
                                  &linked),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ptr_null(linked);
    ck_assert_ur_ok(urProgramRelease(in));
}
END_TEST

START_TEST(retain_and_release_count) {
    ur_program_handle_t p = oclt_program("add_one", NULL);
    ck_assert_ur_ok(urProgramRetain(p));
    uint32_t n = 0;
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 2);
    ck_assert_ur_ok(urProgramRelease(p));
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 1);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(get_info_devices_and_context) {
    ur_program_handle_t p = oclt_program("add_one", NULL);
    uint32_t n = 0;
    ur_device_handle_t d = NULL;
    ur_context_handle_t c = NULL;
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_NUM_DEVICES, sizeof n, &n, NULL));
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_DEVICES, sizeof d, &d, NULL));
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_CONTEXT, sizeof c, &c, NULL));
    ck_assert_uint_eq(n, 1);
    ck_assert_ptr_eq(d, T.device);
    ck_assert_ptr_eq(c, T.context);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(get_info_kernel_names) {
    ur_program_handle_t p = oclt_built_program("add_one");
    char names[256] = "";
    size_t n = 0;
    // A larger buffer than needed is fine (UR's adapter answered INVALID_SIZE).
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_KERNEL_NAMES, sizeof names, names, NULL));
    ck_assert_str_eq(names, "add_one");
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_NUM_KERNELS, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 1);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(get_info_il_returns_the_module) {
    if (!T.il)
        return;
    ur_program_handle_t p = oclt_program("add_one", NULL);
    size_t file_size = 0, size = 0;
    void *spv = oclt_read_kernel("add_one.spv", &file_size);
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_IL, 0, NULL, &size));
    ck_assert_uint_eq(size, file_size);
    free(spv);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(get_info_binaries_small_array_is_invalid_size) {
    ur_program_handle_t p = oclt_built_program("add_one");
    uint8_t *one = NULL;
    ck_assert_ur(urProgramGetInfo(p, UR_PROGRAM_INFO_BINARIES, 1, &one, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(build_info_log_in_larger_buffer) {
    ur_program_handle_t p = oclt_built_program("add_one");
    size_t size = 0;
    ck_assert_ur_ok(urProgramGetBuildInfo(p, T.device, UR_PROGRAM_BUILD_INFO_LOG, 0, NULL, &size));
    char *log = calloc(size + 100, 1);
    ck_assert_ur_ok(
        urProgramGetBuildInfo(p, T.device, UR_PROGRAM_BUILD_INFO_LOG, size + 100, log, NULL));
    free(log);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(build_info_options) {
    ur_program_handle_t p = oclt_program("add_one", NULL);
    ck_assert_ur_ok(urProgramBuild(T.context, p, "-cl-fast-relaxed-math"));
    char options[256] = "";
    ck_assert_ur_ok(urProgramGetBuildInfo(p, T.device, UR_PROGRAM_BUILD_INFO_OPTIONS,
                                          sizeof options, options, NULL));
    ck_assert_ptr_nonnull(strstr(options, "-cl-fast-relaxed-math"));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(native_handle_round_trip) {
    ur_program_handle_t p = oclt_built_program("add_one");
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urProgramGetNativeHandle(p, &native));
    ur_program_handle_t again = NULL;
    ck_assert_ur_ok(urProgramCreateWithNativeHandle(native, T.context, NULL, &again));
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(again, "add_one", &k));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(again)); // not owned
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(specialization_constants) {
    ur_program_handle_t p = oclt_program("add_one", NULL);
    uint32_t value = 1;
    ur_specialization_constant_info_t sc = {7, sizeof value, &value};
    ur_bool_t supported = false;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_PROGRAM_SET_SPECIALIZATION_CONSTANTS,
                                    sizeof supported, &supported, NULL));
    // add_one has no specialization constant 7.
    ck_assert_ur(urProgramSetSpecializationConstants(p, 1, &sc),
                 supported ? UR_RESULT_ERROR_INVALID_SPEC_ID : UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(function_pointer_of_kernel) {
    ur_program_handle_t p = oclt_built_program("add_one");
    void *fn = NULL;
    ur_result_t r = urProgramGetFunctionPointer(T.device, p, "add_one", &fn);
    if (T.intel) {
        ck_assert_ur_ok(r);
        ck_assert_ptr_nonnull(fn);
    } else {
        ck_assert_ur(r, UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    }
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(function_pointer_unknown_is_invalid_kernel_name) {
    if (!T.intel)
        return;
    ur_program_handle_t p = oclt_built_program("add_one");
    void *fn = NULL;
    ck_assert_ur(urProgramGetFunctionPointer(T.device, p, "nope", &fn),
                 UR_RESULT_ERROR_INVALID_KERNEL_NAME);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl program");
    TCase *tc = oclt_tcase("urProgramCreateWithIL");
    tcase_add_test(tc, create_with_il);
    tcase_add_test(tc, create_with_il_garbage_is_invalid_binary);
    tcase_add_test(tc, create_with_malformed_metadata_is_invalid_value);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urProgramCreateWithBinary");
    tcase_add_test(tc, create_with_binary_round_trip);
    tcase_add_test(tc, create_with_garbage_binary_is_invalid_binary);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urProgramBuild");
    tcase_add_test(tc, build_makes_executable);
    tcase_add_test(tc, build_with_unresolved_symbol_fails_with_log);
    tcase_add_test(tc, build_in_other_context_is_invalid_context);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urProgramBuildExp");
    tcase_add_test(tc, build_exp_for_the_device);
    tcase_add_test(tc, build_exp_with_foreign_device_is_invalid_device);
    tcase_add_test(tc, build_exp_allowing_unresolved_is_unsupported);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urProgramCompile");
    tcase_add_test(tc, compile_makes_object);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urProgramCompileExp");
    tcase_add_test(tc, compile_exp_for_the_device);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urProgramLink");
    tcase_add_test(tc, link_kernel_with_provider_runs);
    tcase_add_test(tc, link_failure_returns_program_with_log);
    tcase_add_test(tc, link_duplicate_definitions_fails);
    tcase_add_test(tc, link_of_non_program_sets_output_null);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urProgramLinkExp");
    tcase_add_test(tc, link_exp_for_the_device);
    tcase_add_test(tc, link_exp_allowing_unresolved_is_unsupported);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urProgramRetain");
    tcase_add_test(tc, retain_and_release_count);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urProgramGetInfo");
    tcase_add_test(tc, get_info_devices_and_context);
    tcase_add_test(tc, get_info_kernel_names);
    tcase_add_test(tc, get_info_il_returns_the_module);
    tcase_add_test(tc, get_info_binaries_small_array_is_invalid_size);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urProgramGetBuildInfo");
    tcase_add_test(tc, build_info_log_in_larger_buffer);
    tcase_add_test(tc, build_info_options);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urProgramGetNativeHandle");
    tcase_add_test(tc, native_handle_round_trip);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urProgramSetSpecializationConstants");
    tcase_add_test(tc, specialization_constants);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urProgramGetFunctionPointer");
    tcase_add_test(tc, function_pointer_of_kernel);
    tcase_add_test(tc, function_pointer_unknown_is_invalid_kernel_name);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
