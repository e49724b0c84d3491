// SPDX-License-Identifier: MIT
// urKernel* and urEnqueueKernelLaunchWithArgsExp: arguments of every kind, local memory, the
// implicit global offset, and the checks that keep a bad launch from reaching the driver.
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "cudat.h"

#define N 256

static ur_kernel_handle_t kernel(const char *name) {
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(T.program, name, &k));
    return k;
}

static int *device_ints(size_t n) {
    int *p = NULL;
    ck_assert_ur_ok(
        urUSMDeviceAlloc(T.context, T.device, NULL, NULL, n * sizeof(int), (void **)&p));
    return p;
}

static void read_ints(int *host, const int *dev, size_t n) {
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, host, dev, n * sizeof(int), 0, NULL, NULL));
}

// The simulated driver's count of function look-ups and queries; -1 on a real driver.
static long function_queries(void) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    size_t (*count)(void) =
        lib != NULL ? (size_t(*)(void))dlsym(lib, "urc_cuda_sim_function_queries") : NULL;
    long n = count != NULL ? (long)count() : -1;
    if (lib != NULL)
        dlclose(lib);
    return n;
}

// The first urKernelCreate of a name asks the driver; later ones reuse what it learnt.
START_TEST(create_again_asks_the_driver_nothing) {
    ur_kernel_handle_t first = kernel("add_one");
    long before = function_queries();
    ck_assert_ur_ok(urKernelRelease(first));
    ur_kernel_handle_t k = kernel("add_one");
    if (before >= 0)
        ck_assert_int_eq(function_queries(), before);
    char name[32] = "";
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_FUNCTION_NAME, sizeof name, name, NULL));
    ck_assert_str_eq(name, "add_one");
    // It launches like the first.
    int in[N], out[N];
    for (int i = 0; i < N; ++i)
        in[i] = i;
    int *din = device_ints(N), *dout = device_ints(N);
    const int n = N;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, false, din, in, sizeof in, 0, NULL, NULL));
    ur_exp_kernel_arg_properties_t args[3] = {cudat_arg_pointer(0, dout), cudat_arg_pointer(1, din),
                                              cudat_arg_value(2, &n, sizeof n)};
    size_t local = 64;
    ck_assert_ur_ok(cudat_launch(T.queue, k, N, &local, 3, args, 0, NULL, NULL));
    read_ints(out, dout, N);
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], i + 1);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, din));
    ck_assert_ur_ok(urUSMFree(T.context, dout));
}
END_TEST

START_TEST(create_missing_name_is_invalid_kernel_name) {
    ur_kernel_handle_t k = NULL;
    ck_assert_ur(urKernelCreate(T.program, "no_such_kernel", &k),
                 UR_RESULT_ERROR_INVALID_KERNEL_NAME);
}
END_TEST

START_TEST(create_in_unbuilt_program_is_not_executable) {
    ur_program_handle_t p = cudat_program("globals.ptx", NULL);
    ur_kernel_handle_t k = NULL;
    ck_assert_ur(urKernelCreate(p, "add_one", &k), UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(get_info_name_program_context) {
    ur_kernel_handle_t k = kernel("add_one");
    char name[32] = "";
    ur_program_handle_t p = NULL;
    ur_context_handle_t ctx = NULL;
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_FUNCTION_NAME, sizeof name, name, NULL));
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_PROGRAM, sizeof p, &p, NULL));
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_CONTEXT, sizeof ctx, &ctx, NULL));
    ck_assert_str_eq(name, "add_one");
    ck_assert_ptr_eq(p, T.program);
    ck_assert_ptr_eq(ctx, T.context);
    // The argument count needs cuFuncGetParamInfo (CUDA 12.4 drivers).
    uint32_t args = 0;
    ur_result_t r = urKernelGetInfo(k, UR_KERNEL_INFO_NUM_ARGS, sizeof args, &args, NULL);
    if (r == UR_RESULT_SUCCESS)
        ck_assert_uint_eq(args, 3);
    else
        ck_assert_ur(r, UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
    ck_assert_ur_ok(urKernelRelease(k));
}
END_TEST

START_TEST(get_group_and_sub_group_info) {
    ur_kernel_handle_t k = kernel("add_one");
    size_t wg = 0, multiple = 0;
    uint32_t sg = 0;
    ck_assert_ur_ok(urKernelGetGroupInfo(k, T.device, UR_KERNEL_GROUP_INFO_WORK_GROUP_SIZE,
                                         sizeof wg, &wg, NULL));
    ck_assert_ur_ok(urKernelGetGroupInfo(k, T.device,
                                         UR_KERNEL_GROUP_INFO_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                         sizeof multiple, &multiple, NULL));
    ck_assert_ur_ok(urKernelGetSubGroupInfo(
        k, T.device, UR_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE, sizeof sg, &sg, NULL));
    ck_assert_uint_ge(wg, 32);
    ck_assert_uint_eq(multiple, 32);
    ck_assert_uint_eq(sg, 32);
    ck_assert_ur_ok(urKernelRelease(k));
}
END_TEST

START_TEST(suggested_local_size_divides_global) {
    ur_kernel_handle_t k = kernel("add_one");
    size_t global = 1000, local = 0, offset = 0;
    ck_assert_ur_ok(urKernelGetSuggestedLocalWorkSize(k, T.queue, 1, &offset, &global, &local));
    ck_assert_uint_gt(local, 0);
    ck_assert_uint_eq(global % local, 0);
    ck_assert_ur_ok(urKernelRelease(k));
}
END_TEST

START_TEST(launch_pointer_and_value_arguments) {
    int in[N], out[N];
    for (int i = 0; i < N; ++i)
        in[i] = i * 3;
    int *din = device_ints(N), *dout = device_ints(N);
    const int n = N;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, false, din, in, sizeof in, 0, NULL, NULL));
    ur_kernel_handle_t k = kernel("add_one");
    ur_exp_kernel_arg_properties_t args[3] = {cudat_arg_pointer(0, dout), cudat_arg_pointer(1, din),
                                              cudat_arg_value(2, &n, sizeof n)};
    size_t local = 64;
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(cudat_launch(T.queue, k, N, &local, 3, args, 0, NULL, &ev));
    ck_assert_int_eq(cudat_event_command(ev), UR_COMMAND_KERNEL_LAUNCH);
    read_ints(out, dout, N);
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], i * 3 + 1);
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, din));
    ck_assert_ur_ok(urUSMFree(T.context, dout));
}
END_TEST

// Arguments may come in any order: they are placed by index.
START_TEST(launch_arguments_out_of_order_and_without_local_size) {
    int out[N];
    int *dout = device_ints(N);
    const int value = 42;
    ur_kernel_handle_t k = kernel("fill_value");
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_value(1, &value, sizeof value),
                                              cudat_arg_pointer(0, dout)};
    ck_assert_ur_ok(cudat_launch(T.queue, k, N, NULL, 2, args, 0, NULL, NULL));
    read_ints(out, dout, N);
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], 42);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, dout));
}
END_TEST

START_TEST(launch_buffer_argument) {
    int out[N];
    ur_mem_handle_t mem = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, sizeof out, NULL, &mem));
    const int value = -5;
    ur_kernel_handle_t k = kernel("fill_value");
    ur_exp_kernel_arg_properties_t args[2];
    memset(&args[0], 0, sizeof args[0]);
    args[0].stype = UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES;
    args[0].type = UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ;
    args[0].index = 0;
    args[0].size = sizeof(void *);
    args[0].value.memObjTuple.hMem = mem;
    args[0].value.memObjTuple.flags = UR_MEM_FLAG_READ_WRITE;
    args[1] = cudat_arg_value(1, &value, sizeof value);
    size_t local = 32;
    ck_assert_ur_ok(cudat_launch(T.queue, k, N, &local, 2, args, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, mem, true, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], -5);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urMemRelease(mem));
}
END_TEST

// A local argument becomes an offset into dynamic shared memory, after work-group memory.
START_TEST(launch_local_argument) {
    int out[N];
    int *dout = device_ints(N);
    size_t local = 64;
    ur_kernel_handle_t k = kernel("local_reverse");
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, dout),
                                              cudat_arg_local(1, local * sizeof(int))};
    ur_kernel_launch_workgroup_property_t wg = {UR_STRUCTURE_TYPE_KERNEL_LAUNCH_WORKGROUP_PROPERTY,
                                                NULL, 100};
    ur_kernel_launch_ext_properties_t props = {UR_STRUCTURE_TYPE_KERNEL_LAUNCH_EXT_PROPERTIES, &wg,
                                               0};
    size_t global = N;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, &local, 2, args,
                                                     &props, 0, NULL, NULL));
    read_ints(out, dout, N);
    for (int g = 0; g < N / 64; ++g)
        for (int t = 0; t < 64; ++t)
            ck_assert_int_eq(out[g * 64 + t], g * 64 + 63 - t);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, dout));
}
END_TEST

// A work-group reading past its small local array, as dpctl's masked extraction does, reads
// unused memory instead of ending the context: local memory comes in whole KiB.
START_TEST(launch_local_read_past_end) {
    enum { n = 5 };
    int out[n];
    int *dout = device_ints(n);
    size_t local = 64, global = 64;
    ur_kernel_handle_t k = kernel("local_next");
    int count = n;
    ur_exp_kernel_arg_properties_t args[3] = {cudat_arg_pointer(0, dout),
                                              cudat_arg_local(1, (n + 1) * sizeof(int)),
                                              cudat_arg_value(2, &count, sizeof count)};
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, &local, 3, args,
                                                     NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    read_ints(out, dout, n);
    for (int t = 0; t < n; ++t)
        ck_assert_int_eq(out[t], (t + 1) * 10);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, dout));
}
END_TEST

// A non-zero global offset runs DPC++'s "<name>_with_offset" variant.
START_TEST(launch_with_global_offset) {
    int out[64];
    int *dout = device_ints(64);
    ur_kernel_handle_t k = kernel("global_id");
    ur_exp_kernel_arg_properties_t arg = cudat_arg_pointer(0, dout);
    size_t global = 64, local = 32, offset = 1000;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, &offset, &global, &local, 1,
                                                     &arg, NULL, 0, NULL, NULL));
    read_ints(out, dout, 64);
    for (int i = 0; i < 64; ++i)
        ck_assert_int_eq(out[i], i + 1000);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, dout));
}
END_TEST

START_TEST(launch_offset_without_variant_is_unsupported) {
    int *dout = device_ints(64);
    ur_kernel_handle_t k = kernel("fill_value");
    const int value = 1;
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, dout),
                                              cudat_arg_value(1, &value, sizeof value)};
    size_t global = 64, offset = 8;
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, &offset, &global, NULL, 2, args,
                                                  NULL, 0, NULL, NULL),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, dout));
}
END_TEST

// A missing or repeated argument is refused before the driver could read a null pointer, and
// no event is created for the refused launch.
START_TEST(launch_missing_argument_is_refused) {
    int *dout = device_ints(N);
    const int n = N;
    ur_kernel_handle_t k = kernel("add_one");
    ur_exp_kernel_arg_properties_t gap[2] = {cudat_arg_pointer(0, dout),
                                             cudat_arg_value(2, &n, sizeof n)};
    ur_exp_kernel_arg_properties_t twice[3] = {
        cudat_arg_pointer(0, dout), cudat_arg_pointer(0, dout), cudat_arg_value(2, &n, sizeof n)};
    ur_event_handle_t ev = NULL;
    ck_assert_ur(cudat_launch(T.queue, k, N, NULL, 2, gap, 0, NULL, &ev),
                 UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    ck_assert_ur(cudat_launch(T.queue, k, N, NULL, 3, twice, 0, NULL, &ev),
                 UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    ck_assert_ptr_null(ev);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, dout));
}
END_TEST

START_TEST(launch_bad_work_group_size_is_refused) {
    int *dout = device_ints(N);
    const int value = 1;
    ur_kernel_handle_t k = kernel("fill_value");
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, dout),
                                              cudat_arg_value(1, &value, sizeof value)};
    size_t not_divisor = 100, too_big = 4096;
    ck_assert_ur(cudat_launch(T.queue, k, N, &not_divisor, 2, args, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
    ck_assert_ur(cudat_launch(T.queue, k, 8192, &too_big, 2, args, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 4, NULL, &not_divisor, NULL, 2, args,
                                                  NULL, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_WORK_DIMENSION);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, dout));
}
END_TEST

// UR's description: a zero global size is INVALID_WORK_DIMENSION, a zero local size
// INVALID_WORK_GROUP_SIZE (the generated checks, before the adapter).
START_TEST(launch_empty_range_is_invalid_work_dimension) {
    ur_kernel_handle_t k = kernel("inc_dev_var");
    size_t global = 0, local = 0, one = 1;
    ur_event_handle_t ev = NULL;
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL,
                                                  0, NULL, &ev),
                 UR_RESULT_ERROR_INVALID_WORK_DIMENSION);
    ck_assert_ptr_null(ev);
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &one, &local, 0, NULL, NULL,
                                                  0, NULL, &ev),
                 UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
    ck_assert_ur_ok(urKernelRelease(k));
}
END_TEST

// Launches without an event trust this thread's record of the current context; when the
// application changed it behind the adapter's back, the launch is made again in the right one.
START_TEST(launch_without_event_after_the_context_was_cleared) {
    int *dout = device_ints(N), out[N];
    const int value = 7;
    ur_kernel_handle_t k = kernel("fill_value");
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, dout),
                                              cudat_arg_value(1, &value, sizeof value)};
    size_t local = 64;
    ck_assert_ur_ok(cudat_launch(T.queue, k, N, &local, 2, args, 0, NULL, NULL));
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    ck_assert_ptr_nonnull(lib);
    int (*set_current)(void *) = (int (*)(void *))dlsym(lib, "cuCtxSetCurrent");
    ck_assert_ptr_nonnull(set_current);
    ck_assert_int_eq(set_current(NULL), 0);
    ck_assert_ur_ok(cudat_launch(T.queue, k, N, &local, 2, args, 0, NULL, NULL));
    read_ints(out, dout, N);
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], value);
    dlclose(lib);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, dout));
}
END_TEST

// A wrong argument is reported the same with or without an event (the event-less launch takes
// a shorter path).
START_TEST(launch_without_event_wrong_value_size_is_refused) {
    int *dout = device_ints(N);
    const long long value = 1;
    ur_kernel_handle_t k = kernel("fill_value");
    uint32_t nargs = 0;
    if (urKernelGetInfo(k, UR_KERNEL_INFO_NUM_ARGS, sizeof nargs, &nargs, NULL) ==
        UR_RESULT_SUCCESS) { // sizes are known to the adapter only with cuFuncGetParamInfo
        ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, dout),
                                                  cudat_arg_value(1, &value, sizeof value)};
        size_t local = 64;
        ck_assert_ur(cudat_launch(T.queue, k, N, &local, 2, args, 0, NULL, NULL),
                     UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
    }
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, dout));
}
END_TEST

// 3000 bytes by value: more than the launch's stack frame holds, so the kernel's kept frame
// carries them (the second launch reuses it).
START_TEST(launch_large_by_value_argument) {
    static int values[750];
    int sum = 0, out = 0;
    for (int i = 0; i < 750; ++i) {
        values[i] = i % 7 - 3;
        sum += values[i];
    }
    int *dout = device_ints(1);
    ur_kernel_handle_t k = kernel("big_sum");
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, dout),
                                              cudat_arg_value(1, values, sizeof values)};
    size_t one = 1;
    for (int round = 0; round < 2; ++round) {
        ck_assert_ur_ok(cudat_launch(T.queue, k, 1, &one, 2, args, 0, NULL, NULL));
        read_ints(&out, dout, 1);
        ck_assert_int_eq(out, sum);
        values[0] += 1;
        sum += 1;
    }
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, dout));
}
END_TEST

START_TEST(native_handle_and_exec_info) {
    ur_kernel_handle_t k = kernel("add_one");
    ur_native_handle_t fn = 0;
    ur_bool_t yes = true;
    ck_assert_ur_ok(urKernelGetNativeHandle(k, &fn));
    ck_assert_uint_ne(fn, 0);
    ck_assert_ur_ok(
        urKernelSetExecInfo(k, UR_KERNEL_EXEC_INFO_USM_INDIRECT_ACCESS, sizeof yes, NULL, &yes));
    ck_assert_ur_ok(urKernelRelease(k));
}
END_TEST

// ---- urKernelCreateWithNativeHandle ----

// Fills dout with `value` through kernel `k` (fill_value) and checks it.
static void check_fill(ur_kernel_handle_t k, int value) {
    int *dout = device_ints(N), out[N];
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, dout),
                                              cudat_arg_value(1, &value, sizeof value)};
    size_t local = 32;
    ck_assert_ur_ok(cudat_launch(T.queue, k, N, &local, 2, args, 0, NULL, NULL));
    read_ints(out, dout, N);
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], value);
    ck_assert_ur_ok(urUSMFree(T.context, dout));
}

START_TEST(native_kernel_of_its_program) {
    ur_kernel_handle_t k = kernel("fill_value"), again = NULL;
    ur_native_handle_t fn = 0;
    ck_assert_ur_ok(urKernelGetNativeHandle(k, &fn));
    ck_assert_ur_ok(urKernelCreateWithNativeHandle(fn, T.context, T.program, NULL, &again));
    ur_native_handle_t same = 0;
    ur_program_handle_t p = NULL;
    ck_assert_ur_ok(urKernelGetNativeHandle(again, &same));
    ck_assert_ur_ok(urKernelGetInfo(again, UR_KERNEL_INFO_PROGRAM, sizeof p, &p, NULL));
    ck_assert_uint_eq(same, fn);
    ck_assert_ptr_eq(p, T.program);
    // cuFuncGetName (CUDA 12.3) gives the name back; older drivers leave it empty.
    char name[32] = "?";
    ck_assert_ur_ok(urKernelGetInfo(again, UR_KERNEL_INFO_FUNCTION_NAME, sizeof name, name, NULL));
    ck_assert(strcmp(name, "fill_value") == 0 || name[0] == '\0');
    check_fill(again, 11);
    ck_assert_ur_ok(urKernelRelease(again));
    ck_assert_ur_ok(urKernelRelease(k));
}
END_TEST

// Without a program the kernel's module is wrapped in one (cuFuncGetModule, CUDA 11), which
// lives as long as the kernel.
START_TEST(native_kernel_without_program) {
    ur_kernel_handle_t k = kernel("fill_value"), again = NULL;
    ur_native_handle_t fn = 0, module = 0, wrapped_module = 0;
    ck_assert_ur_ok(urKernelGetNativeHandle(k, &fn));
    ck_assert_ur_ok(urProgramGetNativeHandle(T.program, &module));
    ck_assert_ur_ok(urKernelCreateWithNativeHandle(fn, T.context, NULL, NULL, &again));
    ur_program_handle_t p = NULL;
    ck_assert_ur_ok(urKernelGetInfo(again, UR_KERNEL_INFO_PROGRAM, sizeof p, &p, NULL));
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_ne(p, T.program);
    ck_assert_ur_ok(urProgramGetNativeHandle(p, &wrapped_module));
    ck_assert_uint_eq(wrapped_module, module);
    check_fill(again, 12);
    ck_assert_ur_ok(urKernelRelease(again));
    ck_assert_ur_ok(urKernelRelease(k));
}
END_TEST

START_TEST(native_kernel_of_another_program_is_refused) {
    ur_kernel_handle_t k = kernel("fill_value"), again = NULL;
    ur_program_handle_t other = cudat_built_program("globals.ptx", NULL);
    ur_native_handle_t fn = 0;
    ck_assert_ur_ok(urKernelGetNativeHandle(k, &fn));
    ck_assert_ur(urKernelCreateWithNativeHandle(fn, T.context, other, NULL, &again),
                 UR_RESULT_ERROR_INVALID_PROGRAM);
    ck_assert_ur(urKernelCreateWithNativeHandle(0, T.context, T.program, NULL, &again),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ptr_null(again);
    ck_assert_ur_ok(urProgramRelease(other));
    ck_assert_ur_ok(urKernelRelease(k));
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda kernel");
    TCase *tc = cudat_program_tcase("urKernelCreate");
    tcase_add_test(tc, create_again_asks_the_driver_nothing);
    tcase_add_test(tc, create_missing_name_is_invalid_kernel_name);
    tcase_add_test(tc, create_in_unbuilt_program_is_not_executable);
    suite_add_tcase(s, tc);
    tc = cudat_program_tcase("urKernelGetInfo");
    tcase_add_test(tc, get_info_name_program_context);
    suite_add_tcase(s, tc);
    tc = cudat_program_tcase("urKernelGetGroupInfo");
    tcase_add_test(tc, get_group_and_sub_group_info);
    suite_add_tcase(s, tc);
    tc = cudat_program_tcase("urKernelGetSuggestedLocalWorkSize");
    tcase_add_test(tc, suggested_local_size_divides_global);
    suite_add_tcase(s, tc);
    tc = cudat_program_tcase("urKernelGetNativeHandle");
    tcase_add_test(tc, native_handle_and_exec_info);
    suite_add_tcase(s, tc);
    tc = cudat_program_tcase("urKernelCreateWithNativeHandle");
    tcase_add_test(tc, native_kernel_of_its_program);
    tcase_add_test(tc, native_kernel_without_program);
    tcase_add_test(tc, native_kernel_of_another_program_is_refused);
    suite_add_tcase(s, tc);
    tc = cudat_program_tcase("urEnqueueKernelLaunchWithArgsExp");
    tcase_add_test(tc, launch_pointer_and_value_arguments);
    tcase_add_test(tc, launch_arguments_out_of_order_and_without_local_size);
    tcase_add_test(tc, launch_buffer_argument);
    tcase_add_test(tc, launch_local_argument);
    tcase_add_test(tc, launch_local_read_past_end);
    tcase_add_test(tc, launch_with_global_offset);
    tcase_add_test(tc, launch_offset_without_variant_is_unsupported);
    tcase_add_test(tc, launch_missing_argument_is_refused);
    tcase_add_test(tc, launch_bad_work_group_size_is_refused);
    tcase_add_test(tc, launch_empty_range_is_invalid_work_dimension);
    tcase_add_test(tc, launch_without_event_after_the_context_was_cleared);
    tcase_add_test(tc, launch_without_event_wrong_value_size_is_refused);
    tcase_add_test(tc, launch_large_by_value_argument);
    suite_add_tcase(s, tc);
    return cudat_main(s, true);
}
