// SPDX-License-Identifier: MIT
// Device globals (seed 004) through the OpenCL adapter: urEnqueueDeviceGlobalVariableRead/Write
// end to end with a kernel, blocking and not, with and without wait lists, at non-zero offsets;
// the adapter's own range checks (the driver's overflow); sizes from program metadata, kept
// across linking; urProgramGetGlobalVariablePointer. Without the extension (PoCL) every call
// must answer UNSUPPORTED_FEATURE.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "oclt.h"

#define VAR "uid_dev_var" // int
#define ARR "uid_dev_arr" // int[4]

/// An 8-byte little-endian bit count followed by the payload, as SYCL encodes byte arrays.
typedef struct byte_array_t {
    uint8_t bytes[64];
    size_t size;
} byte_array_t;

static byte_array_t byte_array(const void *payload, size_t n) {
    byte_array_t a = {{0}, 8 + n};
    uint64_t bits = (uint64_t)n * 8;
    memcpy(a.bytes, &bits, 8);
    memcpy(a.bytes + 8, payload, n);
    return a;
}

/// "SYCL/device globals/<name>" = {uint32 size; uint32 device_image_scope}.
static byte_array_t dg_desc(uint32_t size, uint32_t image_scope) {
    uint32_t v[2] = {size, image_scope};
    return byte_array(v, sizeof v);
}

static ur_program_handle_t globals_program(const ur_program_properties_t *props) {
    ur_program_handle_t p = oclt_program("device_globals", props);
    ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
    return p;
}

static ur_program_handle_t program;
static ur_kernel_handle_t increment;

static void setup(void) {
    oclt_setup();
    if (!T.globals)
        return;
    program = globals_program(NULL);
    ck_assert_ur_ok(urKernelCreate(program, "increment_dev_var", &increment));
}

static void teardown(void) {
    if (increment != NULL)
        urKernelRelease(increment);
    if (program != NULL)
        urProgramRelease(program);
    increment = NULL;
    program = NULL;
    oclt_teardown();
}

static TCase *dg_tcase(const char *name) {
    return urc_test_tcase(name, setup, teardown);
}

static ur_command_t type_of(ur_event_handle_t e) {
    ur_command_t t = UR_COMMAND_FORCE_UINT32;
    ck_assert_ur_ok(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_TYPE, sizeof t, &t, NULL));
    return t;
}

static void launch_increment(uint32_t n_wait, const ur_event_handle_t *wait,
                             ur_event_handle_t *out) {
    size_t one = 1;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, increment, 1, NULL, &one, NULL, 0,
                                                     NULL, NULL, n_wait, wait, out));
}

#define NEEDS_GLOBALS()                                                                            \
    do {                                                                                           \
        if (!T.globals)                                                                            \
            return;                                                                                \
    } while (0)

START_TEST(write_blocking_increment_read_blocking) {
    NEEDS_GLOBALS();
    int v = 42, back = 0;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, VAR, true, sizeof v, 0, &v,
                                                       0, NULL, NULL));
    launch_increment(0, NULL, NULL);
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, program, VAR, true, sizeof back, 0,
                                                      &back, 0, NULL, NULL));
    ck_assert_int_eq(back, 43);
}
END_TEST

START_TEST(write_non_blocking_with_wait_lists) {
    NEEDS_GLOBALS();
    // An out-of-order queue, so only the wait lists order the three commands.
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    static int v = 100, back = 0;
    ur_event_handle_t w = NULL, k = NULL, r = NULL;
    ck_assert_ur_ok(
        urEnqueueDeviceGlobalVariableWrite(q, program, VAR, false, sizeof v, 0, &v, 0, NULL, &w));
    size_t one = 1;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(q, increment, 1, NULL, &one, NULL, 0, NULL,
                                                     NULL, 1, &w, &k));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(q, program, VAR, false, sizeof back, 0, &back,
                                                      1, &k, &r));
    ck_assert_ur_ok(urEventWait(1, &r));
    ck_assert_int_eq(back, 101);
    ck_assert_ur_ok(urEventRelease(w));
    ck_assert_ur_ok(urEventRelease(k));
    ck_assert_ur_ok(urEventRelease(r));
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

START_TEST(read_non_blocking_then_finish) {
    NEEDS_GLOBALS();
    int v = 7;
    static int back = 0;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, VAR, false, sizeof v, 0,
                                                       &v, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue)); // v lives on the stack: the write must be done
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, program, VAR, false, sizeof back, 0,
                                                      &back, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_int_eq(back, 7);
}
END_TEST

START_TEST(blocking_write_waits_for_its_list) {
    NEEDS_GLOBALS();
    int v = 5, back = 0;
    ur_event_handle_t k = NULL;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, VAR, true, sizeof v, 0, &v,
                                                       0, NULL, NULL));
    launch_increment(0, NULL, &k);
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, program, VAR, true, sizeof back, 0,
                                                      &back, 1, &k, NULL));
    ck_assert_int_eq(back, 6);
    ck_assert_ur_ok(urEventRelease(k));
}
END_TEST

START_TEST(events_have_device_global_command_types) {
    NEEDS_GLOBALS();
    int v = 1;
    ur_event_handle_t w = NULL, r = NULL;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, VAR, true, sizeof v, 0, &v,
                                                       0, NULL, &w));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, program, VAR, true, sizeof v, 0, &v,
                                                      0, NULL, &r));
    ck_assert_int_eq(type_of(w), UR_COMMAND_DEVICE_GLOBAL_VARIABLE_WRITE);
    ck_assert_int_eq(type_of(r), UR_COMMAND_DEVICE_GLOBAL_VARIABLE_READ);
    ck_assert_ur_ok(urEventRelease(w));
    ck_assert_ur_ok(urEventRelease(r));
}
END_TEST

START_TEST(native_events_map_to_device_global_command_types) {
    NEEDS_GLOBALS();
    // Events made from native handles learn their type from OpenCL's 0x418E / 0x418F.
    int v = 1;
    ur_event_handle_t w = NULL;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, VAR, true, sizeof v, 0, &v,
                                                       0, NULL, &w));
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urEventGetNativeHandle(w, &native));
    ur_event_handle_t again = NULL;
    ck_assert_ur_ok(urEventCreateWithNativeHandle(native, T.context, NULL, &again));
    ck_assert_int_eq(type_of(again), UR_COMMAND_DEVICE_GLOBAL_VARIABLE_WRITE);
    ck_assert_ur_ok(urEventRelease(again));
    ck_assert_ur_ok(urEventRelease(w));
}
END_TEST

START_TEST(array_at_non_zero_offsets) {
    NEEDS_GLOBALS();
    int zero[4] = {0}, pair[2] = {11, 22}, back[4] = {0};
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, ARR, true, sizeof zero, 0,
                                                       zero, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, ARR, true, sizeof pair, 8,
                                                       pair, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, program, ARR, true, sizeof back, 0,
                                                      back, 0, NULL, NULL));
    ck_assert_int_eq(back[0], 0);
    ck_assert_int_eq(back[1], 0);
    ck_assert_int_eq(back[2], 11);
    ck_assert_int_eq(back[3], 22);
    int last = 0;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, program, ARR, true, sizeof last, 12,
                                                      &last, 0, NULL, NULL));
    ck_assert_int_eq(last, 22);
}
END_TEST

START_TEST(kernel_sees_array_written_at_offset) {
    NEEDS_GLOBALS();
    int zero[4] = {0}, v = 9, third = 33;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, ARR, true, sizeof zero, 0,
                                                       zero, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, ARR, true, sizeof third, 8,
                                                       &third, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, program, VAR, true, sizeof v, 0, &v,
                                                       0, NULL, NULL));
    ur_kernel_handle_t copy = NULL;
    ck_assert_ur_ok(urKernelCreate(program, "copy_dev_arr", &copy));
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(
        urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 5 * sizeof(int), NULL, &m));
    ur_exp_kernel_arg_properties_t arg = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                          NULL,
                                          UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ,
                                          0,
                                          sizeof m,
                                          {.memObjTuple = {m, UR_MEM_FLAG_READ_WRITE}}};
    size_t five = 5;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, copy, 1, NULL, &five, NULL, 1, &arg,
                                                     NULL, 0, NULL, NULL));
    int out[5] = {0};
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, m, true, 0, sizeof out, out, 0, NULL, NULL));
    ck_assert_int_eq(out[2], 33);
    ck_assert_int_eq(out[3], 0);
    ck_assert_int_eq(out[4], 9);
    ck_assert_ur_ok(urMemRelease(m));
    ck_assert_ur_ok(urKernelRelease(copy));
}
END_TEST

START_TEST(out_of_range_is_invalid_value_without_event) {
    NEEDS_GLOBALS();
    int buf[4] = {0};
    ur_event_handle_t e = (ur_event_handle_t)(uintptr_t)0x5a5a;
    ck_assert_ur(
        urEnqueueDeviceGlobalVariableRead(T.queue, program, ARR, true, 8, 12, buf, 0, NULL, &e),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ptr_eq(e, (ur_event_handle_t)(uintptr_t)0x5a5a);
    ck_assert_ur(
        urEnqueueDeviceGlobalVariableWrite(T.queue, program, VAR, true, 8, 0, buf, 0, NULL, &e),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ptr_eq(e, (ur_event_handle_t)(uintptr_t)0x5a5a);
}
END_TEST

START_TEST(overflowing_offset_is_invalid_value) {
    NEEDS_GLOBALS();
    int buf[4] = {0};
    ck_assert_ur(urEnqueueDeviceGlobalVariableRead(T.queue, program, VAR, true, 2, SIZE_MAX, buf, 0,
                                                   NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Intel's runtime itself accepts this one: its bounds check wraps around.
    ck_assert_ur(urEnqueueDeviceGlobalVariableWrite(T.queue, program, VAR, true, 4, SIZE_MAX - 1,
                                                    buf, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(unknown_name_is_invalid_value) {
    NEEDS_GLOBALS();
    int v = 0;
    ck_assert_ur(urEnqueueDeviceGlobalVariableRead(T.queue, program, "nope", true, sizeof v, 0, &v,
                                                   0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urEnqueueDeviceGlobalVariableWrite(T.queue, program, "nope", true, sizeof v, 0, &v,
                                                    0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(unbuilt_program_is_invalid_program_executable) {
    NEEDS_GLOBALS();
    ur_program_handle_t p = oclt_program("device_globals", NULL);
    int v = 0;
    ck_assert_ur(
        urEnqueueDeviceGlobalVariableRead(T.queue, p, VAR, true, sizeof v, 0, &v, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(program_of_other_context_is_invalid_context) {
    NEEDS_GLOBALS();
    ur_context_handle_t other = NULL;
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    ck_assert_ur_ok(urQueueCreate(other, T.device, NULL, &q));
    int v = 0;
    ck_assert_ur(
        urEnqueueDeviceGlobalVariableRead(q, program, VAR, true, sizeof v, 0, &v, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur_ok(urContextRelease(other));
}
END_TEST

START_TEST(metadata_size_bounds_the_transfer) {
    NEEDS_GLOBALS();
    // The metadata says 2 bytes; it is believed over the driver's 4.
    byte_array_t desc = dg_desc(2, 1);
    ur_program_metadata_t md = {"SYCL/device globals/" VAR,
                                UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY,
                                desc.size,
                                {.pData = desc.bytes}};
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 1, &md};
    ur_program_handle_t p = globals_program(&props);
    int v = 0;
    ck_assert_ur(urEnqueueDeviceGlobalVariableRead(T.queue, p, VAR, true, 4, 0, &v, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(
        urEnqueueDeviceGlobalVariableRead(T.queue, p, VAR, true, 2, 0, &v, 0, NULL, NULL));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(metadata_without_the_name_is_invalid_value) {
    NEEDS_GLOBALS();
    byte_array_t desc = dg_desc(16, 1);
    ur_program_metadata_t md = {"SYCL/device globals/" ARR,
                                UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY,
                                desc.size,
                                {.pData = desc.bytes}};
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 1, &md};
    ur_program_handle_t p = globals_program(&props);
    int v = 0;
    ck_assert_ur(urEnqueueDeviceGlobalVariableRead(T.queue, p, VAR, true, 4, 0, &v, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(global_id_mapping_names_the_symbol) {
    NEEDS_GLOBALS();
    byte_array_t symbol = byte_array(VAR, strlen(VAR));
    ur_program_metadata_t md = {"my_alias@global_id_mapping",
                                UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY,
                                symbol.size,
                                {.pData = symbol.bytes}};
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 1, &md};
    ur_program_handle_t p = globals_program(&props);
    int v = 77, back = 0;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, p, "my_alias", true, sizeof v, 0,
                                                       &v, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, p, VAR, true, sizeof back, 0, &back,
                                                      0, NULL, NULL));
    ck_assert_int_eq(back, 77);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(linked_program_keeps_metadata) {
    NEEDS_GLOBALS();
    byte_array_t desc = dg_desc(2, 1);
    ur_program_metadata_t md = {"SYCL/device globals/" VAR,
                                UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY,
                                desc.size,
                                {.pData = desc.bytes}};
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 1, &md};
    ur_program_handle_t in = oclt_program("device_globals", &props);
    ck_assert_ur_ok(urProgramCompile(T.context, in, NULL));
    ur_program_handle_t linked = NULL;
    ck_assert_ur_ok(urProgramLink(T.context, 1, &in, NULL, &linked));
    int v = 0;
    ck_assert_ur(
        urEnqueueDeviceGlobalVariableRead(T.queue, linked, VAR, true, 4, 0, &v, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(
        urEnqueueDeviceGlobalVariableRead(T.queue, linked, VAR, true, 2, 0, &v, 0, NULL, NULL));
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(in));
}
END_TEST

START_TEST(pointer_global_without_image_scope) {
    NEEDS_GLOBALS();
    // A device_global<int> without device_image_scope holds a USM pointer: 8 bytes are
    // written although the metadata names the 4-byte int.
    byte_array_t desc = dg_desc(4, 0);
    ur_program_metadata_t md = {"SYCL/device globals/uid_dev_ptr",
                                UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY,
                                desc.size,
                                {.pData = desc.bytes}};
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 1, &md};
    ur_program_handle_t p = oclt_program("device_global_ptr", &props);
    ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
    int *counter = NULL;
    ck_assert_ur_ok(
        urUSMSharedAlloc(T.context, T.device, NULL, NULL, sizeof *counter, (void **)&counter));
    *counter = 0;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, p, "uid_dev_ptr", true,
                                                       sizeof counter, 0, &counter, 0, NULL, NULL));
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "increment_through_ptr", &k));
    ur_bool_t yes = true;
    ck_assert_ur_ok(
        urKernelSetExecInfo(k, UR_KERNEL_EXEC_INFO_USM_INDIRECT_ACCESS, sizeof yes, NULL, &yes));
    size_t n = 64;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &n, NULL, 0, NULL, NULL,
                                                     0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_int_eq(*counter, 64);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, counter));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(pointer_query) {
    NEEDS_GLOBALS();
    size_t size = 0, arr_size = 0;
    void *ptr = NULL, *arr = NULL;
    ck_assert_ur_ok(urProgramGetGlobalVariablePointer(T.device, program, VAR, &size, &ptr));
    ck_assert_ur_ok(urProgramGetGlobalVariablePointer(T.device, program, ARR, &arr_size, &arr));
    ck_assert_uint_eq(size, 4);
    ck_assert_uint_eq(arr_size, 16);
    ck_assert_ptr_nonnull(ptr);
    ck_assert_ptr_ne(ptr, arr);
}
END_TEST

START_TEST(pointer_query_unknown_is_invalid_value) {
    NEEDS_GLOBALS();
    void *ptr = (void *)(uintptr_t)0x1;
    ck_assert_ur(urProgramGetGlobalVariablePointer(T.device, program, "foo", NULL, &ptr),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ptr_null(ptr);
}
END_TEST

START_TEST(pointer_query_unbuilt_is_invalid_program_executable) {
    NEEDS_GLOBALS();
    ur_program_handle_t p = oclt_program("device_globals", NULL);
    void *ptr = NULL;
    ck_assert_ur(urProgramGetGlobalVariablePointer(T.device, p, VAR, NULL, &ptr),
                 UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(without_extension_every_call_is_unsupported) {
    if (T.globals)
        return;
    ur_program_handle_t p = oclt_built_program("add_one");
    int v = 0;
    ur_event_handle_t e = NULL;
    ck_assert_ur(
        urEnqueueDeviceGlobalVariableWrite(T.queue, p, VAR, true, sizeof v, 0, &v, 0, NULL, &e),
        UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur(
        urEnqueueDeviceGlobalVariableRead(T.queue, p, VAR, false, sizeof v, 0, &v, 0, NULL, &e),
        UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ptr_null(e);
    void *ptr = NULL;
    ck_assert_ur(urProgramGetGlobalVariablePointer(T.device, p, VAR, NULL, &ptr),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl device globals");
    TCase *tc = dg_tcase("urEnqueueDeviceGlobalVariableWrite");
    tcase_add_test(tc, write_blocking_increment_read_blocking);
    tcase_add_test(tc, write_non_blocking_with_wait_lists);
    tcase_add_test(tc, array_at_non_zero_offsets);
    tcase_add_test(tc, kernel_sees_array_written_at_offset);
    tcase_add_test(tc, out_of_range_is_invalid_value_without_event);
    tcase_add_test(tc, overflowing_offset_is_invalid_value);
    tcase_add_test(tc, unknown_name_is_invalid_value);
    tcase_add_test(tc, program_of_other_context_is_invalid_context);
    tcase_add_test(tc, global_id_mapping_names_the_symbol);
    tcase_add_test(tc, pointer_global_without_image_scope);
    tcase_add_test(tc, without_extension_every_call_is_unsupported);
    suite_add_tcase(s, tc);
    tc = dg_tcase("urEnqueueDeviceGlobalVariableRead");
    tcase_add_test(tc, read_non_blocking_then_finish);
    tcase_add_test(tc, blocking_write_waits_for_its_list);
    tcase_add_test(tc, events_have_device_global_command_types);
    tcase_add_test(tc, native_events_map_to_device_global_command_types);
    tcase_add_test(tc, unbuilt_program_is_invalid_program_executable);
    tcase_add_test(tc, metadata_size_bounds_the_transfer);
    tcase_add_test(tc, metadata_without_the_name_is_invalid_value);
    tcase_add_test(tc, linked_program_keeps_metadata);
    suite_add_tcase(s, tc);
    tc = dg_tcase("urProgramGetGlobalVariablePointer");
    tcase_add_test(tc, pointer_query);
    tcase_add_test(tc, pointer_query_unknown_is_invalid_value);
    tcase_add_test(tc, pointer_query_unbuilt_is_invalid_program_executable);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
