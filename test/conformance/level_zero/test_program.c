// SPDX-License-Identifier: MIT
// urProgram*, urKernel* and urEnqueueKernelLaunchWithArgsExp of the Level Zero adapter over the
// simulated driver. Kernels never run in the simulator: launches are checked through what it
// recorded (zeSimGetLaunch, zeSimGetLaunchArg), builds through the flags it received.
//
// Modules (test/ze_sim/spv): globals.spv has kernels sim_fill(uint *dst, uint n, local uint *)
// and sim_reqd (reqd_work_group_size 8,4,1; sub-group 16), exports helper_add and
// urc_exported_counter; importer.spv imports both; unresolved.spv imports missing_fn;
// spec.spv has SpecId 7 (length of spec_array) and 8 (initial value of spec_value).
#include <stdlib.h>
#include <string.h>

#include "l0t.h"
#include "md_builder.h"

static char *last_flags(uint32_t index) {
    size_t size = 0;
    ck_assert_int_eq(T.sim.GetLastBuildFlags(index, &size, NULL), ZE_RESULT_SUCCESS);
    char *s = calloc(size + 1, 1);
    ck_assert_int_eq(T.sim.GetLastBuildFlags(index, &size, s), ZE_RESULT_SUCCESS);
    return s;
}

// SPIR-V with a valid header that the driver cannot build.
static const uint32_t broken_spirv[] = {0x07230203, 0x00010200, 0, 100, 0, 0x00040047, 1, 2, 3};

// ---- urProgram* ----

START_TEST(program_create_and_build) {
    ur_program_handle_t p = l0t_program("globals.spv", NULL);
    ck_assert_int_eq(urc_test_binary_type(p, T.device), UR_PROGRAM_BINARY_TYPE_NONE);
    ck_assert_int_eq(urc_test_build_status(p, T.device), UR_PROGRAM_BUILD_STATUS_NONE);
    ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
    ck_assert_int_eq(urc_test_binary_type(p, T.device), UR_PROGRAM_BINARY_TYPE_EXECUTABLE);
    ck_assert_int_eq(urc_test_build_status(p, T.device), UR_PROGRAM_BUILD_STATUS_SUCCESS);
    size_t n = 0;
    char names[256] = "";
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_NUM_KERNELS, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 2);
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_KERNEL_NAMES, sizeof names, names, NULL));
    ck_assert_str_eq(names, "sim_fill;sim_reqd");
    size_t il = 0;
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_IL, 0, NULL, &il));
    ck_assert_uint_gt(il, 20);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(program_il_must_be_spirv) {
    static const char text[] = "this is not SPIR-V, only text..";
    ur_program_handle_t p = NULL;
    ck_assert_ur(urProgramCreateWithIL(T.context, text, sizeof text - 1, NULL, &p),
                 UR_RESULT_ERROR_INVALID_BINARY);
    ck_assert_ptr_null(p);
}
END_TEST

START_TEST(program_malformed_metadata_is_refused) {
    md_list_t l = {0};
    md_raw(&l, "SYCL/device requirements/aspects", "\x01\x02\x03", 3);
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, l.n, l.e};
    size_t size = 0;
    void *spv = l0t_read("globals.spv", &size);
    ur_program_handle_t p = NULL;
    ck_assert_ur(urProgramCreateWithIL(T.context, spv, size, &props, &p),
                 UR_RESULT_ERROR_INVALID_VALUE);
    free(spv);
    md_free(&l);
}
END_TEST

START_TEST(program_build_passes_options_to_the_driver) {
    ur_program_handle_t p = l0t_program("globals.spv", NULL);
    ck_assert_ur_ok(urProgramBuild(T.context, p, "-ze-opt-disable -DX=1"));
    char *flags = last_flags(0);
    ck_assert_str_eq(flags, "-ze-opt-disable -DX=1");
    free(flags);
    char opts[64] = "";
    ck_assert_ur_ok(
        urProgramGetBuildInfo(p, T.device, UR_PROGRAM_BUILD_INFO_OPTIONS, sizeof opts, opts, NULL));
    ck_assert_str_eq(opts, "-ze-opt-disable -DX=1");
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// The log is copied out of the driver once: it reads the same any number of times (UR's
// adapter destroyed the driver's log after the first read of a failed program).
START_TEST(program_build_failure_log_reads_twice) {
    ur_program_handle_t p = NULL;
    ck_assert_ur_ok(urProgramCreateWithIL(T.context, broken_spirv, sizeof broken_spirv, NULL, &p));
    ck_assert_ur(urProgramBuild(T.context, p, "-DMARK"), UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE);
    ck_assert_int_eq(urc_test_build_status(p, T.device), UR_PROGRAM_BUILD_STATUS_ERROR);
    char *first = l0t_log(p), *second = l0t_log(p);
    ck_assert_uint_gt(strlen(first), 0);
    ck_assert_str_eq(first, second);
    ck_assert_ptr_nonnull(strstr(first, "-DMARK"));
    free(first);
    free(second);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(program_build_reports_unresolved_symbols) {
    ur_program_handle_t p = l0t_program("unresolved.spv", NULL);
    ck_assert_ur(urProgramBuild(T.context, p, NULL), UR_RESULT_ERROR_PROGRAM_BUILD_FAILURE);
    char *log = l0t_log(p);
    ck_assert_ptr_nonnull(strstr(log, "Unresolved Symbol <missing_fn>"));
    free(log);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// With ALLOW_UNRESOLVED_SYMBOLS a program with imports builds; it runs once dynamically
// linked with a program that exports them.
START_TEST(program_dynamic_link_resolves_imports) {
    ur_program_handle_t exporter = l0t_built("globals.spv");
    ur_program_handle_t importer = l0t_program("importer.spv", NULL);
    ck_assert_ur_ok(urProgramBuildExp(importer, 1, &T.device,
                                      UR_EXP_PROGRAM_FLAG_ALLOW_UNRESOLVED_SYMBOLS, NULL));
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(importer, "use_helper", &k));
    void *out = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 4, &out));
    ur_exp_kernel_arg_properties_t arg = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                          NULL,
                                          UR_EXP_KERNEL_ARG_TYPE_POINTER,
                                          0,
                                          sizeof out,
                                          {NULL}};
    arg.value.pointer = out;
    size_t one = 1;
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &one, &one, 1, &arg, NULL, 0,
                                                  NULL, NULL),
                 UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE);
    ur_program_handle_t both[2] = {importer, exporter};
    ck_assert_ur_ok(urProgramDynamicLinkExp(T.context, 2, both));
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &one, &one, 1, &arg, NULL,
                                                     0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ze_sim_launch_t launch;
    ck_assert_int_eq(T.sim.GetLaunch(0, &launch), ZE_RESULT_SUCCESS);
    ck_assert_str_eq(launch.kernel_name, "use_helper");
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, out));
    ck_assert_ur_ok(urProgramRelease(importer));
    ck_assert_ur_ok(urProgramRelease(exporter));
}
END_TEST

// UR's adapter dropped the dynamic link's log; here it lands in the program's build log.
START_TEST(program_dynamic_link_failure_keeps_the_log) {
    ur_program_handle_t p = l0t_program("unresolved.spv", NULL);
    ck_assert_ur_ok(
        urProgramBuildExp(p, 1, &T.device, UR_EXP_PROGRAM_FLAG_ALLOW_UNRESOLVED_SYMBOLS, NULL));
    ck_assert_ur(urProgramDynamicLinkExp(T.context, 1, &p), UR_RESULT_ERROR_PROGRAM_LINK_FAILURE);
    char *log = l0t_log(p);
    ck_assert_ptr_nonnull(strstr(log, "Unresolved Symbol <missing_fn>"));
    free(log);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(program_specialization_constants_reach_the_driver) {
    ur_program_handle_t p = l0t_program("spec.spv", NULL);
    uint32_t len = 6, val = 9;
    ur_specialization_constant_info_t specs[2] = {{7, sizeof len, &len}, {8, sizeof val, &val}};
    ck_assert_ur_ok(urProgramSetSpecializationConstants(p, 2, specs));
    val = 1; // copied: a later change of the caller's memory does not count
    ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
    size_t size = 0;
    void *ptr = NULL;
    ck_assert_ur_ok(urProgramGetGlobalVariablePointer(T.device, p, "spec_array", &size, &ptr));
    ck_assert_uint_eq(size, 6 * sizeof(uint32_t));
    uint32_t got = 0;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, p, "spec_value", true, sizeof got, 0,
                                                      &got, 0, NULL, NULL));
    ck_assert_uint_eq(got, 9);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(program_compile_then_link) {
    ur_program_handle_t a = l0t_program("importer.spv", NULL);
    ur_program_handle_t b = l0t_program("globals.spv", NULL);
    ck_assert_ur_ok(urProgramCompile(T.context, a, "-DA"));
    ck_assert_ur_ok(urProgramCompile(T.context, b, "-DB"));
    ck_assert_int_eq(urc_test_binary_type(a, T.device), UR_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    ur_program_handle_t in[2] = {a, b}, linked = NULL;
    ck_assert_ur_ok(urProgramLink(T.context, 2, in, "-DL", &linked));
    ck_assert_int_eq(urc_test_binary_type(linked, T.device), UR_PROGRAM_BINARY_TYPE_EXECUTABLE);
    // Both inputs reached the driver in one module, each with its compile and link options.
    char *f0 = last_flags(0), *f1 = last_flags(1);
    ck_assert_str_eq(f0, "-DA -DL");
    ck_assert_str_eq(f1, "-DB -DL");
    free(f0);
    free(f1);
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(linked, "use_helper", &k));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(a));
    ck_assert_ur_ok(urProgramRelease(b));
}
END_TEST

// A link failure returns the program anyway, only for its log (UR's rule), as LINK_FAILURE.
START_TEST(program_link_failure_returns_the_log) {
    ur_program_handle_t a = l0t_program("unresolved.spv", NULL);
    ck_assert_ur_ok(urProgramCompile(T.context, a, NULL));
    ur_program_handle_t linked = NULL;
    ck_assert_ur(urProgramLink(T.context, 1, &a, NULL, &linked),
                 UR_RESULT_ERROR_PROGRAM_LINK_FAILURE);
    ck_assert_ptr_nonnull(linked);
    ck_assert_int_eq(urc_test_build_status(linked, T.device), UR_PROGRAM_BUILD_STATUS_ERROR);
    char *first = l0t_log(linked), *second = l0t_log(linked);
    ck_assert_ptr_nonnull(strstr(first, "Unresolved Symbol <missing_fn>"));
    ck_assert_str_eq(first, second);
    free(first);
    free(second);
    ur_kernel_handle_t k = NULL;
    ck_assert_ur(urKernelCreate(linked, "use_missing", &k),
                 UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE);
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(a));
}
END_TEST

START_TEST(program_link_exp_may_leave_symbols_unresolved) {
    ur_program_handle_t a = l0t_program("importer.spv", NULL);
    ck_assert_ur_ok(urProgramCompileExp(a, 1, &T.device, 0, NULL));
    ur_program_handle_t linked = NULL;
    ck_assert_ur_ok(urProgramLinkExp(T.context, 1, &T.device,
                                     UR_EXP_PROGRAM_FLAG_ALLOW_UNRESOLVED_SYMBOLS, 1, &a, NULL,
                                     &linked));
    ck_assert_int_eq(urc_test_binary_type(linked, T.device), UR_PROGRAM_BINARY_TYPE_EXECUTABLE);
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(a));
}
END_TEST

START_TEST(program_states_are_enforced) {
    ur_program_handle_t built = l0t_built("globals.spv");
    ck_assert_ur(urProgramCompile(T.context, built, NULL), UR_RESULT_ERROR_INVALID_OPERATION);
    ur_program_handle_t il = l0t_program("globals.spv", NULL), linked = NULL;
    ck_assert_ur(urProgramLink(T.context, 1, &il, NULL, &linked),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ptr_null(linked);
    ck_assert_ur_ok(urProgramRelease(built));
    ck_assert_ur_ok(urProgramRelease(il));
}
END_TEST

START_TEST(program_binaries_round_trip) {
    ur_program_handle_t p = l0t_built("globals.spv");
    size_t size = 0;
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_BINARY_SIZES, sizeof size, &size, NULL));
    ck_assert_uint_gt(size, 0);
    uint8_t *bin = malloc(size);
    ck_assert_ur_ok(urProgramGetInfo(p, UR_PROGRAM_INFO_BINARIES, sizeof bin, &bin, NULL));
    ur_program_handle_t again = NULL;
    const uint8_t *cbin = bin;
    ck_assert_ur_ok(urProgramCreateWithBinary(T.context, 1, &T.device, &size, &cbin, NULL, &again));
    ck_assert_ur_ok(urProgramBuild(T.context, again, NULL));
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(again, "sim_fill", &k));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(again));
    ck_assert_ur_ok(urProgramRelease(p));
    free(bin);
}
END_TEST

START_TEST(program_function_pointer) {
    ur_program_handle_t p = l0t_program("globals.spv", NULL);
    void *fn = NULL;
    ck_assert_ur(urProgramGetFunctionPointer(T.device, p, "helper_add", &fn),
                 UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE);
    ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
    ck_assert_ur_ok(urProgramGetFunctionPointer(T.device, p, "helper_add", &fn));
    ck_assert_ptr_nonnull(fn);
    ck_assert_ur(urProgramGetFunctionPointer(T.device, p, "no_such_fn", &fn),
                 UR_RESULT_ERROR_INVALID_KERNEL_NAME);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// ---- urKernel* ----

static ur_exp_kernel_arg_properties_t arg_ptr(uint32_t index, void *p) {
    ur_exp_kernel_arg_properties_t a = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                        NULL,
                                        UR_EXP_KERNEL_ARG_TYPE_POINTER,
                                        index,
                                        sizeof p,
                                        {NULL}};
    a.value.pointer = p;
    return a;
}

static ur_exp_kernel_arg_properties_t arg_value(uint32_t index, const void *v, size_t size) {
    ur_exp_kernel_arg_properties_t a = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                        NULL,
                                        UR_EXP_KERNEL_ARG_TYPE_VALUE,
                                        index,
                                        size,
                                        {NULL}};
    a.value.value = v;
    return a;
}

static ur_exp_kernel_arg_properties_t arg_local(uint32_t index, size_t size) {
    ur_exp_kernel_arg_properties_t a = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                        NULL,
                                        UR_EXP_KERNEL_ARG_TYPE_LOCAL,
                                        index,
                                        size,
                                        {NULL}};
    return a;
}

START_TEST(kernel_create_checks_name_and_build) {
    ur_program_handle_t p = l0t_program("globals.spv", NULL);
    ur_kernel_handle_t k = NULL;
    ck_assert_ur(urKernelCreate(p, "sim_fill", &k), UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE);
    ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
    ck_assert_ur(urKernelCreate(p, "nope", &k), UR_RESULT_ERROR_INVALID_KERNEL_NAME);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(kernel_info) {
    ur_program_handle_t p = l0t_built("globals.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "sim_fill", &k));
    char name[64] = "";
    uint32_t nargs = 0;
    ur_program_handle_t owner = NULL;
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_FUNCTION_NAME, sizeof name, name, NULL));
    ck_assert_str_eq(name, "sim_fill");
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_NUM_ARGS, sizeof nargs, &nargs, NULL));
    ck_assert_uint_eq(nargs, 3);
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_PROGRAM, sizeof owner, &owner, NULL));
    ck_assert_ptr_eq(owner, p);
    ck_assert_ur_ok(urKernelRelease(k));
    // The kernel keeps its program alive.
    ck_assert_ur_ok(urKernelCreate(p, "sim_reqd", &k));
    ck_assert_ur_ok(urProgramRelease(p));
    char attrs[128] = "";
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_ATTRIBUTES, sizeof attrs, attrs, NULL));
    ck_assert_str_eq(attrs, "reqd_work_group_size(8,4,1) intel_reqd_sub_group_size(16)");
    ck_assert_ur_ok(urKernelRelease(k));
}
END_TEST

START_TEST(kernel_group_and_sub_group_info) {
    ur_program_handle_t p = l0t_built("globals.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "sim_reqd", &k));
    size_t wg[3] = {0};
    ck_assert_ur_ok(urKernelGetGroupInfo(k, T.device, UR_KERNEL_GROUP_INFO_COMPILE_WORK_GROUP_SIZE,
                                         sizeof wg, wg, NULL));
    ck_assert_uint_eq(wg[0], 8);
    ck_assert_uint_eq(wg[1], 4);
    ck_assert_uint_eq(wg[2], 1);
    uint32_t sg = 0;
    ck_assert_ur_ok(urKernelGetSubGroupInfo(
        k, T.device, UR_KERNEL_SUB_GROUP_INFO_SUB_GROUP_SIZE_INTEL, sizeof sg, &sg, NULL));
    ck_assert_uint_eq(sg, 16);
    size_t max = 0;
    ck_assert_ur_ok(urKernelGetGroupInfo(k, T.device, UR_KERNEL_GROUP_INFO_WORK_GROUP_SIZE,
                                         sizeof max, &max, NULL));
    ck_assert_uint_eq(max, 1024);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(kernel_launch_is_recorded_with_its_arguments) {
    ur_program_handle_t p = l0t_built("globals.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "sim_fill", &k));
    void *dst = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 256, &dst));
    uint32_t n = 7;
    ur_exp_kernel_arg_properties_t args[3] = {arg_local(2, 64), arg_ptr(0, dst),
                                              arg_value(1, &n, sizeof n)};
    size_t global = 64, local = 16;
    uint64_t before = T.sim.GetLaunchCount();
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, &local, 3, args,
                                                     NULL, 0, NULL, &e));
    ck_assert_int_eq(l0t_command(e), UR_COMMAND_KERNEL_LAUNCH);
    ck_assert_ur_ok(urEventWait(1, &e));
    ck_assert_uint_eq(T.sim.GetLaunchCount(), before + 1);
    ze_sim_launch_t l;
    ck_assert_int_eq(T.sim.GetLaunch(0, &l), ZE_RESULT_SUCCESS);
    ck_assert_str_eq(l.kernel_name, "sim_fill");
    ck_assert_int_eq(l.kind, ZE_SIM_LAUNCH_KERNEL);
    ck_assert_uint_eq(l.group_count[0], 4);
    ck_assert_uint_eq(l.group_count[1], 1);
    ck_assert_uint_eq(l.group_size[0], 16);
    ck_assert_uint_eq(l.num_args, 3);
    ck_assert_uint_eq(l.num_args_set, 3);
    void *got_ptr = NULL;
    uint32_t got_n = 0;
    size_t size = sizeof got_ptr;
    int is_null = -1;
    ck_assert_int_eq(T.sim.GetLaunchArg(0, 0, &size, &got_ptr, NULL), ZE_RESULT_SUCCESS);
    ck_assert_ptr_eq(got_ptr, dst);
    size = sizeof got_n;
    ck_assert_int_eq(T.sim.GetLaunchArg(0, 1, &size, &got_n, NULL), ZE_RESULT_SUCCESS);
    ck_assert_uint_eq(got_n, 7);
    size = 0;
    ck_assert_int_eq(T.sim.GetLaunchArg(0, 2, &size, NULL, &is_null), ZE_RESULT_SUCCESS);
    ck_assert_int_eq(is_null, 1);
    ck_assert_uint_eq(size, 64);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, dst));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(kernel_launch_uses_the_required_group_size) {
    ur_program_handle_t p = l0t_built("globals.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "sim_reqd", &k));
    size_t global[3] = {16, 8, 2};
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 3, NULL, global, NULL, 0, NULL,
                                                     NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ze_sim_launch_t l;
    ck_assert_int_eq(T.sim.GetLaunch(0, &l), ZE_RESULT_SUCCESS);
    ck_assert_uint_eq(l.group_size[0], 8);
    ck_assert_uint_eq(l.group_size[1], 4);
    ck_assert_uint_eq(l.group_size[2], 1);
    ck_assert_uint_eq(l.group_count[0], 2);
    ck_assert_uint_eq(l.group_count[1], 2);
    ck_assert_uint_eq(l.group_count[2], 2);
    size_t wrong[3] = {4, 4, 1};
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 3, NULL, global, wrong, 0, NULL, NULL,
                                                  0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// Bad launches are refused before anything is enqueued: no launch, no event.
START_TEST(kernel_launch_refuses_bad_arguments_and_sizes) {
    ur_program_handle_t p = l0t_built("globals.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "sim_fill", &k));
    void *dst = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 64, &dst));
    uint32_t n = 1;
    uint64_t wide = 1;
    size_t global = 64, local = 24;
    uint64_t before = T.sim.GetLaunchCount();
    ur_event_handle_t e = NULL;
    ur_exp_kernel_arg_properties_t two[2] = {arg_ptr(0, dst), arg_value(1, &n, sizeof n)};
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL, 2, two, NULL,
                                                  0, NULL, &e),
                 UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    ur_exp_kernel_arg_properties_t bad[3] = {arg_ptr(0, dst), arg_value(1, &wide, sizeof wide),
                                             arg_local(2, 16)};
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL, 3, bad, NULL,
                                                  0, NULL, &e),
                 UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
    ur_exp_kernel_arg_properties_t good[3] = {arg_ptr(0, dst), arg_value(1, &n, sizeof n),
                                              arg_local(2, 16)};
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, &local, 3, good,
                                                  NULL, 0, NULL, &e),
                 UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 4, NULL, &global, NULL, 3, good, NULL,
                                                  0, NULL, &e),
                 UR_RESULT_ERROR_INVALID_WORK_DIMENSION);
    ck_assert_ptr_null(e);
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_uint_eq(T.sim.GetLaunchCount(), before);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, dst));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(kernel_launch_offsets_and_cooperative) {
    ur_program_handle_t p = l0t_built("globals.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "sim_reqd", &k));
    size_t global[2] = {8, 4}, offset[2] = {5, 3};
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 2, offset, global, NULL, 0, NULL,
                                                     NULL, 0, NULL, NULL));
    ur_kernel_launch_ext_properties_t coop = {UR_STRUCTURE_TYPE_KERNEL_LAUNCH_EXT_PROPERTIES, NULL,
                                              UR_KERNEL_LAUNCH_FLAG_COOPERATIVE};
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 2, NULL, global, NULL, 0, NULL,
                                                     &coop, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ze_sim_launch_t first, second;
    ck_assert_int_eq(T.sim.GetLaunch(1, &first), ZE_RESULT_SUCCESS);
    ck_assert_int_eq(T.sim.GetLaunch(0, &second), ZE_RESULT_SUCCESS);
    ck_assert_uint_eq(first.global_offset[0], 5);
    ck_assert_uint_eq(first.global_offset[1], 3);
    // The offset is kernel state in Level Zero; a launch without one clears it.
    ck_assert_uint_eq(second.global_offset[0], 0);
    ck_assert_int_eq(second.kind, ZE_SIM_LAUNCH_COOPERATIVE);
    uint32_t groups = 0;
    size_t local[2] = {8, 4};
    ck_assert_ur_ok(urKernelSuggestMaxCooperativeGroupCount(k, T.device, 2, local, 0, &groups));
    ck_assert_uint_gt(groups, 0);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(kernel_launch_takes_buffers) {
    ur_program_handle_t p = l0t_built("globals.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "sim_fill", &k));
    ur_mem_handle_t buf = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 64, NULL, &buf));
    uint32_t n = 3;
    ur_exp_kernel_arg_properties_t args[3] = {{UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                               NULL,
                                               UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ,
                                               0,
                                               sizeof(void *),
                                               {NULL}},
                                              arg_value(1, &n, sizeof n),
                                              arg_local(2, 4)};
    args[0].value.memObjTuple.hMem = buf;
    args[0].value.memObjTuple.flags = UR_MEM_FLAG_READ_WRITE;
    size_t global = 16;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL, 3, args,
                                                     NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urMemGetNativeHandle(buf, T.device, &native));
    void *got = NULL;
    size_t size = sizeof got;
    ck_assert_int_eq(T.sim.GetLaunchArg(0, 0, &size, &got, NULL), ZE_RESULT_SUCCESS);
    ck_assert_ptr_eq(got, (void *)native);
    ck_assert_ur_ok(urMemRelease(buf));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// A launch keeps its kernel (and so its module) until it has run: releasing both right after
// the enqueue is fine, and the leak check sees them go once the launch completes.
START_TEST(kernel_released_while_its_launch_waits) {
    ur_program_handle_t p = l0t_built("globals.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "sim_reqd", &k));
    ze_event_handle_t gate_ze = NULL;
    ur_event_handle_t gate = l0t_user_event(&gate_ze);
    size_t global[2] = {8, 4};
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 2, NULL, global, NULL, 0, NULL,
                                                     NULL, 1, &gate, &e));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
    ck_assert_ur_ok(urQueueFlush(T.queue));
    ck_assert_int_ne(l0t_status(e), UR_EVENT_STATUS_COMPLETE);
    ck_assert_int_eq(zeEventHostSignal(gate_ze), ZE_RESULT_SUCCESS);
    ck_assert_ur_ok(urEventWait(1, &e));
    ze_sim_launch_t l;
    ck_assert_int_eq(T.sim.GetLaunch(0, &l), ZE_RESULT_SUCCESS);
    ck_assert_str_eq(l.kernel_name, "sim_reqd");
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urEventRelease(gate));
}
END_TEST

START_TEST(kernel_suggested_local_size_divides_the_range) {
    ur_program_handle_t p = l0t_built("globals.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "sim_fill", &k));
    size_t global[2] = {96, 10}, offset[2] = {0, 0}, local[2] = {0, 0};
    ck_assert_ur_ok(urKernelGetSuggestedLocalWorkSize(k, T.queue, 2, offset, global, local));
    ck_assert_uint_gt(local[0], 0);
    ck_assert_uint_eq(global[0] % local[0], 0);
    ck_assert_uint_eq(global[1] % local[1], 0);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("level_zero_program");
    const urc_test_case_t cases[] = {
        {"urProgramCreateWithIL",
         {program_create_and_build, program_il_must_be_spirv,
          program_malformed_metadata_is_refused}},
        {"urProgramBuild",
         {program_build_passes_options_to_the_driver, program_build_failure_log_reads_twice,
          program_build_reports_unresolved_symbols}},
        {"urProgramDynamicLinkExp",
         {program_dynamic_link_resolves_imports, program_dynamic_link_failure_keeps_the_log}},
        {"urProgramSetSpecializationConstants",
         {program_specialization_constants_reach_the_driver}},
        {"urProgramLink",
         {program_compile_then_link, program_link_failure_returns_the_log,
          program_link_exp_may_leave_symbols_unresolved, program_states_are_enforced}},
        {"urProgramCreateWithBinary", {program_binaries_round_trip}},
        {"urProgramGetFunctionPointer", {program_function_pointer}},
        {"urKernelCreate", {kernel_create_checks_name_and_build}},
        {"urKernelGetInfo", {kernel_info, kernel_group_and_sub_group_info}},
        {"urEnqueueKernelLaunchWithArgsExp",
         {kernel_launch_is_recorded_with_its_arguments, kernel_launch_uses_the_required_group_size,
          kernel_launch_refuses_bad_arguments_and_sizes, kernel_launch_offsets_and_cooperative,
          kernel_launch_takes_buffers, kernel_released_while_its_launch_waits}},
        {"urKernelGetSuggestedLocalWorkSize", {kernel_suggested_local_size_divides_the_range}},
    };
    urc_test_add_cases(s, l0t_tcase, cases, sizeof cases / sizeof cases[0]);
    return s;
}

int main(void) {
    return l0t_main(suite());
}
