// SPDX-License-Identifier: MIT
// Device globals end to end (seed 004) on the OpenCL adapter with the loader's device-global
// database (urc_device_global.h), as a C program without a SYCL runtime uses them:
//   - a variable without device_image_scope, shared through one USM buffer by two programs
//     whose kernels both increment it (zero at first);
//   - an image-scope variable of one program that a kernel reads (what the host wrote) and
//     writes (what the host reads back);
//   - the database's errors: a copy past the end, an image-scope variable in two programs;
//   - sizes from "SYCL/device globals" metadata: a name the set lacks, the union a link keeps.
// PoCL has no cl_intel_global_variable_access: there every test returns at once.
#include <stdint.h>
#include <string.h>

#include <urc_device_global.h>

#include "e2e.h"

#define VAR "uid_dev_var" // int, in device_globals.spv
#define ARR "uid_dev_arr" // int[4], in device_globals.spv
#define PTR "uid_dev_ptr" // int *, in device_global_ptr.spv

#define NEEDS_GLOBALS()                                                                            \
    do {                                                                                           \
        if (T.intel)                                                                               \
            ck_assert(T.globals &&T.usm);                                                          \
        if (!T.globals || !T.usm)                                                                  \
            return;                                                                                \
    } while (0)

// Host instances of the variables, as a SYCL runtime's device_global<T> objects would be.
static int counter_host; // device_global<int> (no device_image_scope)
static int image_var;    // device_global<int, device_image_scope>
static int image_arr[4]; // device_global<int[4], device_image_scope>

static ur_program_handle_t built(const char *base, const ur_program_properties_t *props) {
    ur_program_handle_t p = e2e_program(base, props);
    ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
    return p;
}

static void launch(ur_program_handle_t p, const char *name, size_t n, bool usm_indirect) {
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, name, &k));
    if (usm_indirect) {
        // The kernel reaches the buffer through the pointer in the variable.
        ur_bool_t yes = true;
        ck_assert_ur_ok(urKernelSetExecInfo(k, UR_KERNEL_EXEC_INFO_USM_INDIRECT_ACCESS, sizeof yes,
                                            NULL, &yes));
    }
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &n, NULL, 0, NULL, NULL,
                                                     0, NULL, NULL));
    ck_assert_ur_ok(urKernelRelease(k));
}

static void forget(ur_program_handle_t p) {
    ck_assert_ur_ok(urcDeviceGlobalForgetProgram(p));
    ck_assert_ur_ok(urProgramRelease(p));
}

static void setup(void) {
    oclt_setup();
}

static void teardown(void) {
    if (T.context != NULL)
        urcDeviceGlobalReleaseContext(T.context);
    urcDeviceGlobalUnregister(&counter_host);
    urcDeviceGlobalUnregister(&image_var);
    urcDeviceGlobalUnregister(&image_arr);
    oclt_teardown();
}

static TCase *dg_tcase(const char *name) {
    return urc_test_tcase(name, setup, teardown);
}

// ---- without device_image_scope: one USM buffer shared by every program -----------------------

START_TEST(shared_variable_starts_at_zero_and_is_seen_by_two_programs) {
    NEEDS_GLOBALS();
    ck_assert_ur_ok(urcDeviceGlobalRegister(&counter_host, PTR, sizeof(int), false));
    ur_program_handle_t a = built("device_global_ptr", NULL);
    ur_program_handle_t b = built("device_global_ptr", NULL);
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(T.queue, a));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(T.queue, b));
    int v = -1;
    ck_assert_ur_ok(
        urcDeviceGlobalCopyFrom(T.queue, &counter_host, &v, sizeof v, 0, true, 0, NULL, NULL));
    ck_assert_int_eq(v, 0);
    // Each work-item adds 1 through the pointer each program holds: 3 from a, 5 from b.
    launch(a, "increment_through_ptr", 3, true);
    launch(b, "increment_through_ptr", 5, true);
    ck_assert_ur_ok(
        urcDeviceGlobalCopyFrom(T.queue, &counter_host, &v, sizeof v, 0, true, 0, NULL, NULL));
    ck_assert_int_eq(v, 8);
    // What the host writes, both programs' kernels see.
    int start = 100;
    ck_assert_ur_ok(urcDeviceGlobalCopyTo(T.queue, &counter_host, &start, sizeof start, 0, true, 0,
                                          NULL, NULL));
    launch(b, "increment_through_ptr", 1, true);
    launch(a, "increment_through_ptr", 1, true);
    ck_assert_ur_ok(
        urcDeviceGlobalCopyFrom(T.queue, &counter_host, &v, sizeof v, 0, true, 0, NULL, NULL));
    ck_assert_int_eq(v, 102);
    forget(a);
    forget(b);
}
END_TEST

// ---- device_image_scope: the variable lives in the one program --------------------------------

START_TEST(image_scope_kernel_reads_host_value_and_host_reads_kernel_value) {
    NEEDS_GLOBALS();
    ck_assert_ur_ok(urcDeviceGlobalRegister(&image_var, VAR, sizeof(int), true));
    ur_program_handle_t p = built("device_globals", NULL);
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(T.queue, p));
    int v = 42;
    ck_assert_ur_ok(
        urcDeviceGlobalCopyTo(T.queue, &image_var, &v, sizeof v, 0, true, 0, NULL, NULL));
    launch(p, "increment_dev_var", 1, false); // dev_var += 1
    v = 0;
    ck_assert_ur_ok(
        urcDeviceGlobalCopyFrom(T.queue, &image_var, &v, sizeof v, 0, true, 0, NULL, NULL));
    ck_assert_int_eq(v, 43);
    forget(p);
}
END_TEST

START_TEST(image_scope_array_written_at_an_offset_reaches_the_kernel) {
    NEEDS_GLOBALS();
    ck_assert_ur_ok(urcDeviceGlobalRegister(&image_arr, ARR, sizeof image_arr, true));
    ck_assert_ur_ok(urcDeviceGlobalRegister(&image_var, VAR, sizeof(int), true));
    ur_program_handle_t p = built("device_globals", NULL);
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(T.queue, p));
    const int tail[2] = {7, 9};
    ur_event_handle_t written = NULL;
    ck_assert_ur_ok(urcDeviceGlobalCopyTo(T.queue, &image_arr, tail, sizeof tail, 2 * sizeof(int),
                                          false, 0, NULL, &written));
    ck_assert_ur_ok(urEventWait(1, &written));
    ck_assert_ur_ok(urEventRelease(written));
    // copy_dev_arr(out): out[0..3] = dev_arr, out[4] = dev_var.
    int out[5] = {-1, -1, -1, -1, -1};
    ur_mem_handle_t m = e2e_int_buffer(out, 5);
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "copy_dev_arr", &k));
    e2e_launch_buffer(k, m, 5, 0);
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, m, true, 0, sizeof out, out, 0, NULL, NULL));
    ck_assert_int_eq(out[0], 0);
    ck_assert_int_eq(out[1], 0);
    ck_assert_int_eq(out[2], 7);
    ck_assert_int_eq(out[3], 9);
    ck_assert_int_eq(out[4], 0);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urMemRelease(m));
    forget(p);
}
END_TEST

// ---- the database's errors --------------------------------------------------------------------

START_TEST(copy_past_the_end_is_invalid_value) {
    NEEDS_GLOBALS();
    ck_assert_ur_ok(urcDeviceGlobalRegister(&image_var, VAR, sizeof(int), true));
    ur_program_handle_t p = built("device_globals", NULL);
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(T.queue, p));
    int v[2] = {1, 2};
    const char *why = NULL;
    ck_assert_ur(urcDeviceGlobalCopyTo(T.queue, &image_var, v, sizeof v[0], sizeof(int), true, 0,
                                       NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urcDeviceGlobalGetLastError(&why));
    ck_assert_str_eq(why, "copy of 4 bytes at offset 4 exceeds device global '" VAR "' of 4 bytes");
    ck_assert_ur(urcDeviceGlobalCopyTo(T.queue, &image_var, v, sizeof v, 0, true, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urcDeviceGlobalGetLastError(&why));
    ck_assert_str_eq(why, "copy of 8 bytes at offset 0 exceeds device global '" VAR "' of 4 bytes");
    // Nothing was written: the variable still holds its zero.
    int now = -1;
    ck_assert_ur_ok(
        urcDeviceGlobalCopyFrom(T.queue, &image_var, &now, sizeof now, 0, true, 0, NULL, NULL));
    ck_assert_int_eq(now, 0);
    ck_assert_ur(urcDeviceGlobalCopyFrom(T.queue, &image_var, v, 1, SIZE_MAX, true, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    forget(p);
}
END_TEST

START_TEST(image_scope_variable_in_two_programs_is_invalid_operation) {
    NEEDS_GLOBALS();
    ck_assert_ur_ok(urcDeviceGlobalRegister(&image_var, VAR, sizeof(int), true));
    ur_program_handle_t a = built("device_globals", NULL);
    ur_program_handle_t b = built("device_globals", NULL);
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(T.queue, a));
    ck_assert_ur_ok(urcDeviceGlobalProgramBuilt(T.queue, b));
    int v = 1;
    ck_assert_ur(urcDeviceGlobalCopyTo(T.queue, &image_var, &v, sizeof v, 0, true, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    const char *why = NULL;
    ck_assert_ur_ok(urcDeviceGlobalGetLastError(&why));
    ck_assert_str_eq(why, "More than one image exists with the device_global '" VAR "'");
    forget(a);
    forget(b);
}
END_TEST

// ---- sizes from "SYCL/device globals" metadata ------------------------------------------------

/// "SYCL/device globals/<name>" = {uint32 size; uint32 device_image_scope}.
static ur_program_metadata_t dg_entry(const char *name, e2e_bytes_t *storage, uint32_t size) {
    uint32_t v[2] = {size, 1};
    *storage = e2e_u32s(v, 2);
    return (ur_program_metadata_t){
        name, UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY, storage->size, {.pData = storage->data}};
}

START_TEST(name_missing_from_the_set_is_invalid_value) {
    NEEDS_GLOBALS();
    e2e_bytes_t storage;
    ur_program_metadata_t md = dg_entry("SYCL/device globals/" ARR, &storage, 16);
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 1, &md};
    ur_program_handle_t p = built("device_globals", &props);
    int v = 0;
    // The driver knows uid_dev_var, but the program's metadata does not list it.
    ck_assert_ur(
        urEnqueueDeviceGlobalVariableRead(T.queue, p, VAR, true, sizeof v, 0, &v, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(
        urEnqueueDeviceGlobalVariableWrite(T.queue, p, VAR, true, sizeof v, 0, &v, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(linked_program_keeps_the_union_of_its_inputs) {
    NEEDS_GLOBALS();
    // Two inputs, each listing one variable (sizes smaller than the real ones, so the bound
    // shows which metadata is used): the linked program knows both, and nothing else.
    e2e_bytes_t s1, s2;
    ur_program_metadata_t md1 = dg_entry("SYCL/device globals/" VAR, &s1, 2);
    ur_program_metadata_t md2 = dg_entry("SYCL/device globals/" ARR, &s2, 8);
    ur_program_properties_t p1 = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 1, &md1};
    ur_program_properties_t p2 = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 1, &md2};
    ur_program_handle_t in[2] = {e2e_program("device_globals", &p1), e2e_program("add_one", &p2)};
    for (int i = 0; i < 2; ++i)
        ck_assert_ur_ok(urProgramCompile(T.context, in[i], NULL));
    ur_program_handle_t linked = NULL;
    ck_assert_ur_ok(urProgramLink(T.context, 2, in, NULL, &linked));
    int v[4] = {0};
    ck_assert_ur_ok(
        urEnqueueDeviceGlobalVariableRead(T.queue, linked, VAR, true, 2, 0, v, 0, NULL, NULL));
    ck_assert_ur(
        urEnqueueDeviceGlobalVariableRead(T.queue, linked, VAR, true, 4, 0, v, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(
        urEnqueueDeviceGlobalVariableRead(T.queue, linked, ARR, true, 8, 0, v, 0, NULL, NULL));
    ck_assert_ur(
        urEnqueueDeviceGlobalVariableRead(T.queue, linked, ARR, true, 12, 0, v, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urEnqueueDeviceGlobalVariableRead(T.queue, linked, "uid_absent", true, 1, 0, v, 0,
                                                   NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(in[0]));
    ck_assert_ur_ok(urProgramRelease(in[1]));
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("e2e device globals (OpenCL)");
    TCase *tc = dg_tcase("urcDeviceGlobalCopyTo/From without device_image_scope");
    tcase_add_test(tc, shared_variable_starts_at_zero_and_is_seen_by_two_programs);
    suite_add_tcase(s, tc);
    tc = dg_tcase("urcDeviceGlobalCopyTo/From with device_image_scope");
    tcase_add_test(tc, image_scope_kernel_reads_host_value_and_host_reads_kernel_value);
    tcase_add_test(tc, image_scope_array_written_at_an_offset_reaches_the_kernel);
    suite_add_tcase(s, tc);
    tc = dg_tcase("urcDeviceGlobalCopyTo/From errors");
    tcase_add_test(tc, copy_past_the_end_is_invalid_value);
    tcase_add_test(tc, image_scope_variable_in_two_programs_is_invalid_operation);
    suite_add_tcase(s, tc);
    tc = dg_tcase("urEnqueueDeviceGlobalVariableRead/Write metadata");
    tcase_add_test(tc, name_missing_from_the_set_is_invalid_value);
    tcase_add_test(tc, linked_program_keeps_the_union_of_its_inputs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return oclt_main(suite());
}
