// SPDX-License-Identifier: MIT
// urKernel* of the OpenCL adapter, through the loader.
#include <stdint.h>
#include <string.h>

#include "oclt.h"

static ur_program_handle_t program;

static ur_kernel_handle_t add_one(void) {
    program = oclt_built_program("add_one");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(program, "add_one", &k));
    return k;
}

static void done(ur_kernel_handle_t k) {
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(program));
}

START_TEST(create_unknown_name_is_invalid_kernel_name) {
    ur_program_handle_t p = oclt_built_program("add_one");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur(urKernelCreate(p, "nope", &k), UR_RESULT_ERROR_INVALID_KERNEL_NAME);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(create_from_unbuilt_program_is_invalid_program_executable) {
    ur_program_handle_t p = oclt_program("add_one", NULL);
    ur_kernel_handle_t k = NULL;
    ck_assert_ur(urKernelCreate(p, "add_one", &k), UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(kernel_keeps_program_alive) {
    ur_kernel_handle_t k = add_one();
    ck_assert_ur_ok(urProgramRelease(program));
    ur_program_handle_t p = NULL;
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_PROGRAM, sizeof p, &p, NULL));
    ck_assert_ptr_eq(p, program);
    uint32_t n = 0;
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 0); // the user's count; the kernel's reference is the adapter's
    // A release past the user's count is refused, and the kernel keeps its program.
    ck_assert_ur(urProgramRelease(p), UR_RESULT_ERROR_INVALID_PROGRAM);
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_PROGRAM, sizeof p, &p, NULL));
    ck_assert_ur_ok(urKernelRelease(k));
}
END_TEST

START_TEST(get_info_name_and_args) {
    ur_kernel_handle_t k = add_one();
    char name[64] = "";
    uint32_t args = 0;
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_FUNCTION_NAME, sizeof name, name, NULL));
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_NUM_ARGS, sizeof args, &args, NULL));
    ck_assert_str_eq(name, "add_one");
    ck_assert_uint_eq(args, 1);
    done(k);
}
END_TEST

START_TEST(get_info_context) {
    ur_kernel_handle_t k = add_one();
    ur_context_handle_t c = NULL;
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_CONTEXT, sizeof c, &c, NULL));
    ck_assert_ptr_eq(c, T.context);
    done(k);
}
END_TEST

START_TEST(get_info_attributes) {
    ur_kernel_handle_t k = add_one();
    size_t size = 0;
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_ATTRIBUTES, 0, NULL, &size));
    ck_assert_uint_ge(size, 1);
    done(k);
}
END_TEST

START_TEST(get_info_small_buffer_is_invalid_size) {
    ur_kernel_handle_t k = add_one();
    char name[3];
    ck_assert_ur(urKernelGetInfo(k, UR_KERNEL_INFO_FUNCTION_NAME, sizeof name, name, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    done(k);
}
END_TEST

START_TEST(group_info_work_group_size) {
    ur_kernel_handle_t k = add_one();
    size_t wg = 0;
    ck_assert_ur_ok(urKernelGetGroupInfo(k, T.device, UR_KERNEL_GROUP_INFO_WORK_GROUP_SIZE,
                                         sizeof wg, &wg, NULL));
    ck_assert_uint_ge(wg, 1);
    done(k);
}
END_TEST

START_TEST(group_info_compile_work_group_size_is_zero) {
    ur_kernel_handle_t k = add_one();
    size_t wg[3] = {9, 9, 9};
    size_t size = 0;
    ck_assert_ur_ok(urKernelGetGroupInfo(k, T.device, UR_KERNEL_GROUP_INFO_COMPILE_WORK_GROUP_SIZE,
                                         sizeof wg, wg, &size));
    ck_assert_uint_eq(size, sizeof wg);
    ck_assert_uint_eq(wg[0], 0);
    done(k);
}
END_TEST

START_TEST(group_info_memory_sizes) {
    ur_kernel_handle_t k = add_one();
    size_t local = 1, priv = 0;
    ck_assert_ur_ok(urKernelGetGroupInfo(k, T.device, UR_KERNEL_GROUP_INFO_LOCAL_MEM_SIZE,
                                         sizeof local, &local, NULL));
    ck_assert_ur_ok(urKernelGetGroupInfo(k, T.device, UR_KERNEL_GROUP_INFO_PRIVATE_MEM_SIZE,
                                         sizeof priv, &priv, NULL));
    ck_assert_uint_eq(local, 0);
    done(k);
}
END_TEST

START_TEST(group_info_global_work_size_is_unsupported_on_cpu) {
    ur_kernel_handle_t k = add_one();
    size_t g[3];
    ck_assert_ur(
        urKernelGetGroupInfo(k, T.device, UR_KERNEL_GROUP_INFO_GLOBAL_WORK_SIZE, sizeof g, g, NULL),
        UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
    done(k);
}
END_TEST

START_TEST(sub_group_info_max_size) {
    ur_kernel_handle_t k = add_one();
    uint32_t v = 0;
    ck_assert_ur_ok(urKernelGetSubGroupInfo(
        k, T.device, UR_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE, sizeof v, &v, NULL));
    ck_assert_uint_ge(v, 1);
    done(k);
}
END_TEST

START_TEST(sub_group_info_compile_num_is_zero) {
    ur_kernel_handle_t k = add_one();
    uint32_t v = 9;
    ck_assert_ur_ok(urKernelGetSubGroupInfo(
        k, T.device, UR_KERNEL_SUB_GROUP_INFO_COMPILE_NUM_SUB_GROUPS, sizeof v, &v, NULL));
    ck_assert_uint_eq(v, 0);
    done(k);
}
END_TEST

START_TEST(retain_and_release_count) {
    ur_kernel_handle_t k = add_one();
    ck_assert_ur_ok(urKernelRetain(k));
    uint32_t n = 0;
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 2);
    ck_assert_ur_ok(urKernelRelease(k));
    done(k);
}
END_TEST

START_TEST(native_handle_round_trip) {
    ur_kernel_handle_t k = add_one();
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urKernelGetNativeHandle(k, &native));
    ur_kernel_handle_t again = NULL;
    ck_assert_ur_ok(urKernelCreateWithNativeHandle(native, T.context, program, NULL, &again));
    char name[64] = "";
    ck_assert_ur_ok(urKernelGetInfo(again, UR_KERNEL_INFO_FUNCTION_NAME, sizeof name, name, NULL));
    ck_assert_str_eq(name, "add_one");
    ck_assert_ur_ok(urKernelRelease(again));
    done(k);
}
END_TEST

START_TEST(create_with_native_handle_without_program) {
    ur_kernel_handle_t k = add_one();
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urKernelGetNativeHandle(k, &native));
    ur_kernel_handle_t again = NULL;
    ck_assert_ur_ok(urKernelCreateWithNativeHandle(native, T.context, NULL, NULL, &again));
    ur_program_handle_t p = NULL;
    ck_assert_ur_ok(urKernelGetInfo(again, UR_KERNEL_INFO_PROGRAM, sizeof p, &p, NULL));
    ur_native_handle_t pn = 0, mine = 0;
    ck_assert_ur_ok(urProgramGetNativeHandle(p, &pn));
    ck_assert_ur_ok(urProgramGetNativeHandle(program, &mine));
    ck_assert(pn == mine);
    ck_assert_ur_ok(urKernelRelease(again));
    done(k);
}
END_TEST

START_TEST(exec_info_indirect_access) {
    ur_kernel_handle_t k = add_one();
    ur_bool_t yes = true;
    ck_assert_ur_ok(
        urKernelSetExecInfo(k, UR_KERNEL_EXEC_INFO_USM_INDIRECT_ACCESS, sizeof yes, NULL, &yes));
    done(k);
}
END_TEST

START_TEST(exec_info_cache_config_is_accepted) {
    ur_kernel_handle_t k = add_one();
    ur_kernel_cache_config_t c = UR_KERNEL_CACHE_CONFIG_LARGE_SLM;
    ck_assert_ur_ok(urKernelSetExecInfo(k, UR_KERNEL_EXEC_INFO_CACHE_CONFIG, sizeof c, NULL, &c));
    done(k);
}
END_TEST

START_TEST(suggested_local_work_size) {
    // Asked of a kernel without arguments: OpenCL wants every argument set first.
    if (!T.intel) {
        ur_kernel_handle_t k = add_one();
        size_t offset = 0, global = 1024, local = 0;
        ck_assert_ur(urKernelGetSuggestedLocalWorkSize(k, T.queue, 1, &offset, &global, &local),
                     UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        done(k);
        return;
    }
    ur_program_handle_t p = oclt_built_program("device_globals");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "increment_dev_var", &k));
    size_t offset = 0, global = 1024, local = 0;
    ck_assert_ur_ok(urKernelGetSuggestedLocalWorkSize(k, T.queue, 1, &offset, &global, &local));
    ck_assert_uint_ge(local, 1);
    ck_assert_uint_eq(global % local, 0);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(suggested_local_work_size_with_args) {
    ur_kernel_handle_t k = add_one();
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 4096, NULL, &m));
    ur_exp_kernel_arg_properties_t arg = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                          NULL,
                                          UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ,
                                          0,
                                          sizeof m,
                                          {.memObjTuple = {m, UR_MEM_FLAG_READ_WRITE}}};
    size_t offset = 0, global = 1024, local = 0;
    ur_result_t r =
        urKernelGetSuggestedLocalWorkSizeWithArgs(k, T.queue, 1, &offset, &global, 1, &arg, &local);
    ck_assert_ur(r, T.intel ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur_ok(urMemRelease(m));
    done(k);
}
END_TEST

START_TEST(specialization_constants_are_unsupported) {
    ur_kernel_handle_t k = add_one();
    uint32_t v = 1;
    ur_specialization_constant_info_t sc = {0, sizeof v, &v};
    ck_assert_ur(urKernelSetSpecializationConstants(k, 1, &sc),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    done(k);
}
END_TEST

START_TEST(cooperative_group_count_is_unsupported) {
    ur_kernel_handle_t k = add_one();
    size_t local = 1;
    uint32_t count = 0;
    ck_assert_ur(urKernelSuggestMaxCooperativeGroupCount(k, T.device, 1, &local, 0, &count),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    done(k);
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl kernel");
    TCase *tc = oclt_tcase("urKernelCreate");
    tcase_add_test(tc, create_unknown_name_is_invalid_kernel_name);
    tcase_add_test(tc, create_from_unbuilt_program_is_invalid_program_executable);
    tcase_add_test(tc, kernel_keeps_program_alive);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urKernelGetInfo");
    tcase_add_test(tc, get_info_name_and_args);
    tcase_add_test(tc, get_info_context);
    tcase_add_test(tc, get_info_attributes);
    tcase_add_test(tc, get_info_small_buffer_is_invalid_size);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urKernelGetGroupInfo");
    tcase_add_test(tc, group_info_work_group_size);
    tcase_add_test(tc, group_info_compile_work_group_size_is_zero);
    tcase_add_test(tc, group_info_memory_sizes);
    tcase_add_test(tc, group_info_global_work_size_is_unsupported_on_cpu);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urKernelGetSubGroupInfo");
    tcase_add_test(tc, sub_group_info_max_size);
    tcase_add_test(tc, sub_group_info_compile_num_is_zero);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urKernelRetain");
    tcase_add_test(tc, retain_and_release_count);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urKernelGetNativeHandle");
    tcase_add_test(tc, native_handle_round_trip);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urKernelCreateWithNativeHandle");
    tcase_add_test(tc, create_with_native_handle_without_program);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urKernelSetExecInfo");
    tcase_add_test(tc, exec_info_indirect_access);
    tcase_add_test(tc, exec_info_cache_config_is_accepted);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urKernelGetSuggestedLocalWorkSize");
    tcase_add_test(tc, suggested_local_work_size);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urKernelGetSuggestedLocalWorkSizeWithArgs");
    tcase_add_test(tc, suggested_local_work_size_with_args);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urKernelSetSpecializationConstants");
    tcase_add_test(tc, specialization_constants_are_unsupported);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urKernelSuggestMaxCooperativeGroupCount");
    tcase_add_test(tc, cooperative_group_count_is_unsupported);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
