// SPDX-License-Identifier: MIT
// urEnqueueDeviceGlobalVariableWrite/Read: the UR conformance round trip (write 42, a kernel
// adds one, read 43), SYCL names through @global_id_mapping, offsets, wait lists, events,
// globals of a linked program, and the documented errors.
#include <stdint.h>
#include <string.h>

#include "cudat.h"

// A SYCL-style unique id, mapped to the PTX symbol by metadata.
#define DEV_VAR_ID "uid4d2f_dev_var"

static ur_program_handle_t program;
static ur_kernel_handle_t inc;

static void build(const md_list_t *md) {
    program = cudat_built_program("globals.ptx", md);
    ck_assert_ur_ok(urKernelCreate(program, "inc_dev_var", &inc));
}

static void setup(void) {
    cudat_setup();
    md_list_t md = {0};
    cudat_map_global(&md, DEV_VAR_ID, "dev_var");
    build(&md);
    md_free(&md);
}

static void teardown(void) {
    if (inc != NULL)
        ck_assert_ur_ok(urKernelRelease(inc));
    if (program != NULL)
        ck_assert_ur_ok(urProgramRelease(program));
    inc = NULL;
    program = NULL;
    cudat_teardown();
}

static TCase *tcase(const char *name) {
    return urc_test_tcase(name, setup, teardown);
}

static void launch_inc(void) {
    size_t one = 1;
    ck_assert_ur_ok(cudat_launch(T.queue, inc, 1, &one, 0, NULL, 0, NULL, NULL));
}

static void round_trip(const char *name, bool blocking) {
    int value = 42, result = 0;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, name, blocking,
                                                       sizeof value, 0, &value, 0, NULL, NULL));
    if (!blocking)
        ck_assert_ur_ok(urQueueFinish(T.queue));
    launch_inc();
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, program, name, blocking,
                                                      sizeof result, 0, &result, 0, NULL, NULL));
    if (!blocking)
        ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_int_eq(result, 43);
}

START_TEST(write_42_kernel_read_43_blocking) {
    round_trip("dev_var", true);
}
END_TEST

START_TEST(write_42_kernel_read_43_non_blocking) {
    round_trip("dev_var", false);
}
END_TEST

START_TEST(mapped_sycl_name_blocking) {
    round_trip(DEV_VAR_ID, true);
}
END_TEST

START_TEST(mapped_sycl_name_non_blocking) {
    round_trip(DEV_VAR_ID, false);
}
END_TEST

// Copies at non-zero offsets into an array global touch only their bytes.
START_TEST(non_zero_offsets) {
    int zeros[8] = {0}, seven = 7, pair[2] = {21, 22}, out[8];
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, "dev_array", true,
                                                       sizeof zeros, 0, zeros, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(
        T.queue, program, "dev_array", true, sizeof seven, 3 * sizeof(int), &seven, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(
        T.queue, program, "dev_array", true, sizeof pair, 6 * sizeof(int), pair, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, program, "dev_array", true,
                                                      sizeof out, 0, out, 0, NULL, NULL));
    const int want[8] = {0, 0, 0, 7, 0, 0, 21, 22};
    ck_assert_mem_eq(out, want, sizeof want);
    int last = 0;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(
        T.queue, program, "dev_array", true, sizeof last, 7 * sizeof(int), &last, 0, NULL, NULL));
    ck_assert_int_eq(last, 22);
}
END_TEST

// Non-blocking copies ordered only by their events.
START_TEST(wait_lists_and_event_commands) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    int value = 100, result = 0;
    size_t one = 1;
    ur_event_handle_t w = NULL, k = NULL, r = NULL;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(q, program, DEV_VAR_ID, false, sizeof value,
                                                       0, &value, 0, NULL, &w));
    ck_assert_ur_ok(cudat_launch(q, inc, 1, &one, 0, NULL, 1, &w, &k));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(q, program, DEV_VAR_ID, false, sizeof result,
                                                      0, &result, 1, &k, &r));
    ck_assert_ur_ok(urEventWait(1, &r));
    ck_assert_int_eq(result, 101);
    ck_assert_int_eq(cudat_event_command(w), UR_COMMAND_DEVICE_GLOBAL_VARIABLE_WRITE);
    ck_assert_int_eq(cudat_event_command(r), UR_COMMAND_DEVICE_GLOBAL_VARIABLE_READ);
    ck_assert_ur_ok(urEventRelease(w));
    ck_assert_ur_ok(urEventRelease(k));
    ck_assert_ur_ok(urEventRelease(r));
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

// Unknown names and out-of-range copies give INVALID_VALUE, computed without overflow, and
// leave no event behind.
START_TEST(unknown_name_is_invalid_value) {
    int v = 0;
    ur_event_handle_t ev = NULL;
    ck_assert_ur(urEnqueueDeviceGlobalVariableWrite(T.queue, program, "no_such_global", true,
                                                    sizeof v, 0, &v, 0, NULL, &ev),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ptr_null(ev);
}
END_TEST

START_TEST(out_of_range_is_invalid_value) {
    int v[2] = {0};
    ur_event_handle_t ev = NULL;
    ck_assert_ur(urEnqueueDeviceGlobalVariableWrite(T.queue, program, "dev_var", true, sizeof v, 0,
                                                    v, 0, NULL, &ev),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urEnqueueDeviceGlobalVariableRead(T.queue, program, "dev_var", true, sizeof(int),
                                                   1, v, 0, NULL, &ev),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // offset + count wraps around: still refused.
    ck_assert_ur(urEnqueueDeviceGlobalVariableRead(T.queue, program, "dev_var", true, 2, SIZE_MAX,
                                                   v, 0, NULL, &ev),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ptr_null(ev);
}
END_TEST

START_TEST(repeated_copies_stay_correct) {
    for (int i = 0; i < 1000; ++i) {
        int out = -1;
        ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, DEV_VAR_ID, true,
                                                           sizeof i, 0, &i, 0, NULL, NULL));
        ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, program, DEV_VAR_ID, true,
                                                          sizeof out, 0, &out, 0, NULL, NULL));
        ck_assert_int_eq(out, i);
    }
}
END_TEST

// "SYCL/device globals" metadata: a name it does not list is unknown even when the module has
// the symbol, and a device_image_scope variable is bounded by its metadata size.
START_TEST(device_globals_metadata_bounds) {
    teardown();
    cudat_setup();
    md_list_t md = {0};
    const uint32_t desc[2] = {4, 1}; // size 4, device_image_scope
    cudat_map_global(&md, DEV_VAR_ID, "dev_var");
    md_u32s(&md, "SYCL/device globals/" DEV_VAR_ID, desc, 2);
    build(&md);
    md_free(&md);
    int v = 5, out = 0;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, DEV_VAR_ID, true, sizeof v,
                                                       0, &v, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, program, DEV_VAR_ID, true,
                                                      sizeof out, 0, &out, 0, NULL, NULL));
    ck_assert_int_eq(out, 5);
    ck_assert_ur(urEnqueueDeviceGlobalVariableRead(T.queue, program, "dev_array", true, sizeof out,
                                                   0, &out, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

// UR's conformance fixture (urGlobalVariableTest) maps "_Z7dev_var" with an all-zero 8-byte
// header before the symbol, which UR's CUDA adapter skips unread; urc accepts that form too.
START_TEST(ur_cts_mapping_form) {
    teardown();
    cudat_setup();
    md_list_t md = {0};
    md_raw(&md, "_Z7dev_var@global_id_mapping", "\0\0\0\0\0\0\0\0dev_var", 15);
    build(&md);
    md_free(&md);
    round_trip("_Z7dev_var", true);
}
END_TEST

// Without device_image_scope a described variable holds only the pointer to its USM buffer, so
// copies are bounded by a pointer's size, not by sizeof(T) nor by the symbol (32 bytes here);
// a metadata size larger than the symbol is capped by the symbol.
START_TEST(device_globals_metadata_storage_size) {
    teardown();
    cudat_setup();
    md_list_t md = {0};
    const uint32_t usm_backed[2] = {32, 0}, oversized[2] = {64, 1};
    md_u32s(&md, "SYCL/device globals/dev_array", usm_backed, 2);
    md_u32s(&md, "SYCL/device globals/dev_var", oversized, 2);
    build(&md);
    md_free(&md);
    uint64_t ptr = 0x1234;
    int values[4] = {1, 2, 3, 4};
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, "dev_array", true,
                                                       sizeof ptr, 0, &ptr, 0, NULL, NULL));
    ck_assert_ur(urEnqueueDeviceGlobalVariableWrite(T.queue, program, "dev_array", true,
                                                    sizeof values, 0, values, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urEnqueueDeviceGlobalVariableWrite(T.queue, program, "dev_array", true, 4, 8,
                                                    values, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, "dev_var", true, 4, 0,
                                                       values, 0, NULL, NULL));
    ck_assert_ur(urEnqueueDeviceGlobalVariableWrite(T.queue, program, "dev_var", true, 8, 0, values,
                                                    0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

// Globals of a program made by urProgramLink are found by their mapped SYCL names: the link
// carries the inputs' metadata over (UR's CUDA adapter loses it).
START_TEST(linked_program_keeps_mapping) {
    md_list_t md = {0};
    cudat_map_global(&md, "uid_linked_var", "linked_var");
    ur_program_handle_t in[2] = {cudat_program("link_main.ptx", NULL),
                                 cudat_program("link_lib.ptx", &md)};
    md_free(&md);
    ur_program_handle_t linked = NULL;
    ck_assert_ur_ok(urProgramCompile(T.context, in[0], NULL));
    ck_assert_ur_ok(urProgramCompile(T.context, in[1], NULL));
    ck_assert_ur_ok(urProgramLink(T.context, 2, in, NULL, &linked));
    ur_kernel_handle_t bump = NULL;
    ck_assert_ur_ok(urKernelCreate(linked, "bump_linked", &bump));
    int v = 5, out = 0;
    size_t one = 1;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, linked, "uid_linked_var", false,
                                                       sizeof v, 0, &v, 0, NULL, NULL));
    ck_assert_ur_ok(cudat_launch(T.queue, bump, 1, &one, 0, NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, linked, "uid_linked_var", true,
                                                      sizeof out, 0, &out, 0, NULL, NULL));
    ck_assert_int_eq(out, 15);
    ck_assert_ur_ok(urKernelRelease(bump));
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(in[0]));
    ck_assert_ur_ok(urProgramRelease(in[1]));
}
END_TEST

START_TEST(profiled_write_has_times) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_PROFILING_ENABLE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    int v = 1;
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(q, program, "dev_var", true, sizeof v, 0, &v,
                                                       0, NULL, &ev));
    uint64_t submit = 0, start = 0, end = 0;
    ck_assert_ur_ok(urEventGetProfilingInfo(ev, UR_PROFILING_INFO_COMMAND_SUBMIT, sizeof submit,
                                            &submit, NULL));
    ck_assert_ur_ok(
        urEventGetProfilingInfo(ev, UR_PROFILING_INFO_COMMAND_START, sizeof start, &start, NULL));
    ck_assert_ur_ok(
        urEventGetProfilingInfo(ev, UR_PROFILING_INFO_COMMAND_END, sizeof end, &end, NULL));
    ck_assert_uint_le(submit, start);
    ck_assert_uint_le(start, end);
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda device globals");
    TCase *tc = tcase("urEnqueueDeviceGlobalVariableWrite");
    tcase_add_test(tc, write_42_kernel_read_43_blocking);
    tcase_add_test(tc, write_42_kernel_read_43_non_blocking);
    tcase_add_test(tc, mapped_sycl_name_blocking);
    tcase_add_test(tc, mapped_sycl_name_non_blocking);
    tcase_add_test(tc, non_zero_offsets);
    tcase_add_test(tc, wait_lists_and_event_commands);
    tcase_add_test(tc, unknown_name_is_invalid_value);
    tcase_add_test(tc, out_of_range_is_invalid_value);
    tcase_add_test(tc, repeated_copies_stay_correct);
    tcase_add_test(tc, ur_cts_mapping_form);
    tcase_add_test(tc, device_globals_metadata_bounds);
    tcase_add_test(tc, device_globals_metadata_storage_size);
    tcase_add_test(tc, profiled_write_has_times);
    suite_add_tcase(s, tc);
    tc = tcase("urProgramLink globals");
    tcase_add_test(tc, linked_program_keeps_mapping);
    suite_add_tcase(s, tc);
    return cudat_main(s, true);
}
