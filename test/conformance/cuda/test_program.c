// SPDX-License-Identifier: MIT
// urProgram*: images (PTX, cubin, fatbin), build options and logs, compile and link.
#include <stdlib.h>
#include <string.h>

#include "cudat.h"

static char *log_of(ur_program_handle_t p) {
    size_t size = 0;
    ck_assert_ur_ok(urProgramGetBuildInfo(p, T.device, UR_PROGRAM_BUILD_INFO_LOG, 0, NULL, &size));
    char *log = malloc(size);
    ck_assert_ur_ok(urProgramGetBuildInfo(p, T.device, UR_PROGRAM_BUILD_INFO_LOG, size, log, NULL));
    return log;
}

static ur_program_handle_t program_from_bytes(const void *data, size_t size) {
    const uint8_t *bin = data;
    ur_program_handle_t p = NULL;
    ck_assert_ur_ok(urProgramCreateWithBinary(T.context, 1, &T.device, &size, &bin, NULL, &p));
    return p;
}

static void builds_and_runs(const char *file) {
    ur_program_handle_t p = cudat_program(file, NULL);
    ck_assert_int_eq(urc_test_build_status(p, T.device), UR_PROGRAM_BUILD_STATUS_NONE);
    ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
    ck_assert_int_eq(urc_test_build_status(p, T.device), UR_PROGRAM_BUILD_STATUS_SUCCESS);
    ck_assert_int_eq(urc_test_binary_type(p, T.device), UR_PROGRAM_BINARY_TYPE_EXECUTABLE);
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "inc_dev_var", &k));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}

START_TEST(create_ptx_and_build) {
    builds_and_runs("globals.ptx");
}
END_TEST

START_TEST(create_cubin_and_build) {
    builds_and_runs("globals.cubin");
}
END_TEST

START_TEST(create_fatbin_and_build) {
    builds_and_runs("globals.fatbin");
}
END_TEST

START_TEST(create_junk_is_invalid_binary) {
    const char junk[] = "not a device image\x01\x02";
    const uint8_t *bin = (const uint8_t *)junk;
    size_t size = sizeof junk;
    ur_program_handle_t p = NULL;
    ck_assert_ur(urProgramCreateWithBinary(T.context, 1, &T.device, &size, &bin, NULL, &p),
                 UR_RESULT_ERROR_INVALID_BINARY);
}
END_TEST

// Five bytes starting with SPIR-V's magic: where the translator is installed (docs/spirv.md)
// that is a module too short for its header; elsewhere SPIR-V is unsupported (test_spirv.c
// covers both in full).
START_TEST(create_with_il_is_unsupported) {
    const char il[] = "\x03\x02\x23\x07";
    ur_program_handle_t p = NULL;
    size_t size = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_IL_VERSION, 0, NULL, &size));
    char *versions = malloc(size);
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_IL_VERSION, size, versions, NULL));
    bool spirv = strstr(versions, "SPIR-V") != NULL;
    free(versions);
    ck_assert_ur(urProgramCreateWithIL(T.context, il, sizeof il, NULL, &p),
                 spirv ? UR_RESULT_ERROR_INVALID_BINARY : UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
}
END_TEST

// A PTX syntax error: the build fails, and the log holds the JIT's error log.
START_TEST(build_failure_keeps_error_log) {
    size_t size = 0;
    char *ptx = cudat_read_kernel("globals.ptx", &size);
    char *at = memmem(ptx, size, "add.s32", 7);
    ck_assert_ptr_nonnull(at);
    memcpy(at, "bad.s32", 7);
    ur_program_handle_t p = program_from_bytes(ptx, size);
    free(ptx);
    ck_assert_ur(urProgramBuild(T.context, p, NULL), UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE);
    ck_assert_int_eq(urc_test_build_status(p, T.device), UR_PROGRAM_BUILD_STATUS_ERROR);
    char *log = log_of(p);
    ck_assert_msg(strstr(log, "rror") != NULL, "log: %s", log);
    free(log);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// Compile runs the JIT (through cuLinkAddData), so a PTX error surfaces there with its log.
START_TEST(compile_failure_keeps_error_log) {
    size_t size = 0;
    char *ptx = cudat_read_kernel("link_main.ptx", &size);
    char *at = memmem(ptx, size, "ld.global", 9);
    ck_assert_ptr_nonnull(at);
    memcpy(at, "xx", 2);
    ur_program_handle_t p = program_from_bytes(ptx, size);
    free(ptx);
    ck_assert_ur(urProgramCompile(T.context, p, NULL), UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE);
    ck_assert_int_eq(urc_test_build_status(p, T.device), UR_PROGRAM_BUILD_STATUS_ERROR);
    char *log = log_of(p);
    ck_assert_msg(strstr(log, "rror") != NULL, "log: %s", log);
    free(log);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(build_options_maxrregcount_forms) {
    static const char *const good[] = {"-maxrregcount=32", "--maxrregcount 32",
                                       "-Dcount=3 -O3 --maxrregcount=40"};
    for (size_t i = 0; i < 3; ++i) {
        ur_program_handle_t p = cudat_program("globals.ptx", NULL);
        ck_assert_ur_ok(urProgramBuild(T.context, p, good[i]));
        char opts[128] = "";
        ck_assert_ur_ok(urProgramGetBuildInfo(p, T.device, UR_PROGRAM_BUILD_INFO_OPTIONS,
                                              sizeof opts, opts, NULL));
        ck_assert_str_eq(opts, good[i]);
        ck_assert_ur_ok(urProgramRelease(p));
    }
}
END_TEST

START_TEST(build_options_bad_maxrregcount_fails) {
    ur_program_handle_t p = cudat_program("globals.ptx", NULL);
    ck_assert_ur(urProgramBuild(T.context, p, "-maxrregcount=abc"),
                 UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE);
    char *log = log_of(p);
    ck_assert_ptr_nonnull(strstr(log, "maxrregcount"));
    free(log);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(compile_and_link_two_modules) {
    ur_program_handle_t in[2] = {cudat_program("link_main.ptx", NULL),
                                 cudat_program("link_lib.ptx", NULL)};
    ur_program_handle_t linked = NULL;
    for (int i = 0; i < 2; ++i) {
        ck_assert_ur_ok(urProgramCompile(T.context, in[i], NULL));
        ck_assert_int_eq(urc_test_binary_type(in[i], T.device),
                         UR_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    }
    ck_assert_ur_ok(urProgramLink(T.context, 2, in, NULL, &linked));
    ck_assert_int_eq(urc_test_binary_type(linked, T.device), UR_PROGRAM_BINARY_TYPE_EXECUTABLE);
    ck_assert_int_eq(urc_test_build_status(linked, T.device), UR_PROGRAM_BUILD_STATUS_SUCCESS);
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(linked, "bump_linked", &k));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(in[0]));
    ck_assert_ur_ok(urProgramRelease(in[1]));
}
END_TEST

START_TEST(link_exp_with_device_list) {
    ur_program_handle_t in[2] = {cudat_program("link_main.ptx", NULL),
                                 cudat_program("link_lib.ptx", NULL)};
    ur_program_handle_t linked = NULL;
    for (int i = 0; i < 2; ++i)
        ck_assert_ur_ok(urProgramCompileExp(in[i], 1, &T.device, 0, NULL));
    ck_assert_ur_ok(urProgramLinkExp(T.context, 1, &T.device, 0, 2, in, NULL, &linked));
    ck_assert_ptr_nonnull(linked);
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(in[0]));
    ck_assert_ur_ok(urProgramRelease(in[1]));
}
END_TEST

// An unresolved symbol: the link fails, yet returns a program whose log names the symbol.
START_TEST(link_failure_returns_program_with_log) {
    ur_program_handle_t in = cudat_program("link_main.ptx", NULL), linked = NULL;
    ck_assert_ur_ok(urProgramCompile(T.context, in, NULL));
    ck_assert_ur(urProgramLink(T.context, 1, &in, NULL, &linked),
                 UR_RESULT_ERROR_PROGRAM_LINK_FAILURE);
    ck_assert_ptr_nonnull(linked);
    ck_assert_int_eq(urc_test_build_status(linked, T.device), UR_PROGRAM_BUILD_STATUS_ERROR);
    char *log = log_of(linked);
    ck_assert_msg(strstr(log, "linked_var") != NULL || strstr(log, "linked_step") != NULL,
                  "log: %s", log);
    free(log);
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(in));
}
END_TEST

START_TEST(get_info_binaries_round_trip) {
    size_t size = 0, reported = 0;
    void *ptx = cudat_read_kernel("globals.ptx", &size);
    ur_program_handle_t p = program_from_bytes(ptx, size);
    uint32_t devices = 0;
    ck_assert_ur_ok(
        urProgramGetInfo(p, UR_PROGRAM_INFO_NUM_DEVICES, sizeof devices, &devices, NULL));
    ck_assert_ur_ok(
        urProgramGetInfo(p, UR_PROGRAM_INFO_BINARY_SIZES, sizeof reported, &reported, NULL));
    ck_assert_uint_eq(devices, 1);
    ck_assert_uint_eq(reported, size);
    uint8_t *copy = malloc(size);
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_BINARIES, sizeof copy, &copy, NULL));
    ck_assert_mem_eq(copy, ptx, size);
    free(copy);
    free(ptx);
    ck_assert_ur(urProgramGetInfo(p, UR_PROGRAM_INFO_KERNEL_NAMES, 0, NULL, &size),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(function_pointer_found_and_missing) {
    ur_program_handle_t p = cudat_built_program("globals.ptx", NULL);
    void *fn = NULL;
    ck_assert_ur_ok(urProgramGetFunctionPointer(T.device, p, "add_one", &fn));
    ck_assert_ptr_nonnull(fn);
    ck_assert_ur(urProgramGetFunctionPointer(T.device, p, "nope", &fn),
                 UR_RESULT_ERROR_INVALID_KERNEL_NAME);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(global_variable_pointer_found_and_missing) {
    ur_program_handle_t p = cudat_built_program("globals.ptx", NULL);
    void *ptr = NULL;
    size_t size = 0;
    ck_assert_ur_ok(urProgramGetGlobalVariablePointer(T.device, p, "dev_var", &size, &ptr));
    ck_assert_ptr_nonnull(ptr);
    ck_assert_uint_eq(size, sizeof(int));
    ck_assert_ur(urProgramGetGlobalVariablePointer(T.device, p, "foo", &size, &ptr),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(global_variable_pointer_unbuilt_is_not_executable) {
    ur_program_handle_t p = cudat_program("globals.ptx", NULL);
    void *ptr = NULL;
    ck_assert_ur(urProgramGetGlobalVariablePointer(T.device, p, "dev_var", NULL, &ptr),
                 UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(native_handle_round_trip) {
    ur_program_handle_t p = cudat_built_program("globals.ptx", NULL), wrapped = NULL;
    ur_native_handle_t module = 0;
    ck_assert_ur_ok(urProgramGetNativeHandle(p, &module));
    ck_assert_ur_ok(urProgramCreateWithNativeHandle(module, T.context, NULL, &wrapped));
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(wrapped, "add_one", &k));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(wrapped)); // does not own the module
    ck_assert_ur_ok(urKernelCreate(p, "add_one", &k));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// The device-image requirement check runs at build: with fp64 masked, an image requiring it
// is refused with the seed's message in the log.
START_TEST(build_checks_device_requirements) {
    setenv("URC_MASK_ASPECTS", "fp64", 1);
    cudat_setup();
    md_list_t md = {0};
    const uint32_t fp64 = 6;
    md_u32s(&md, "SYCL/device requirements/aspects", &fp64, 1);
    ur_program_handle_t p = cudat_program("globals.ptx", &md);
    md_free(&md);
    ck_assert_ur(urProgramBuild(T.context, p, NULL), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    char *log = log_of(p);
    ck_assert_msg(strstr(log, "aspect::fp64") != NULL, "log: %s", log);
    free(log);
    ck_assert_ur_ok(urProgramRelease(p));
    cudat_teardown();
}
END_TEST

START_TEST(retain_counts) {
    ur_program_handle_t p = cudat_program("globals.ptx", NULL);
    uint32_t refs = 0;
    ck_assert_ur_ok(urProgramRetain(p));
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ck_assert_uint_eq(refs, 2);
    ck_assert_ur_ok(urProgramRelease(p));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda program");
    TCase *tc = cudat_tcase("urProgramCreateWithBinary");
    tcase_add_test(tc, create_ptx_and_build);
    tcase_add_test(tc, create_cubin_and_build);
    tcase_add_test(tc, create_fatbin_and_build);
    tcase_add_test(tc, create_junk_is_invalid_binary);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urProgramCreateWithIL");
    tcase_add_test(tc, create_with_il_is_unsupported);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urProgramBuild");
    tcase_add_test(tc, build_failure_keeps_error_log);
    tcase_add_test(tc, build_options_maxrregcount_forms);
    tcase_add_test(tc, build_options_bad_maxrregcount_fails);
    suite_add_tcase(s, tc);
    tc = tcase_create("urProgramBuild requirements");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, build_checks_device_requirements);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urProgramCompile");
    tcase_add_test(tc, compile_failure_keeps_error_log);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urProgramLink");
    tcase_add_test(tc, compile_and_link_two_modules);
    tcase_add_test(tc, link_failure_returns_program_with_log);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urProgramLinkExp");
    tcase_add_test(tc, link_exp_with_device_list);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urProgramGetInfo");
    tcase_add_test(tc, get_info_binaries_round_trip);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urProgramGetFunctionPointer");
    tcase_add_test(tc, function_pointer_found_and_missing);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urProgramGetGlobalVariablePointer");
    tcase_add_test(tc, global_variable_pointer_found_and_missing);
    tcase_add_test(tc, global_variable_pointer_unbuilt_is_not_executable);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urProgramGetNativeHandle");
    tcase_add_test(tc, native_handle_round_trip);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urProgramRetain");
    tcase_add_test(tc, retain_counts);
    suite_add_tcase(s, tc);
    return cudat_main(s, true);
}
