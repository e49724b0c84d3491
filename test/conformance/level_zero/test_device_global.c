// SPDX-License-Identifier: MIT
// Device globals (seed 004) on the Level Zero adapter: urEnqueueDeviceGlobalVariableRead/Write
// and urProgramGetGlobalVariablePointer over the simulated driver.
//
// device_globals.spv (test/kernels) has uid_dev_var (int) and uid_dev_arr (int[4]), found by
// their HostAccessINTEL names, as SYCL's unique ids are.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "l0t.h"
#include "md_builder.h"

// "SYCL/device globals/<name>" = {uint32 size; uint32 device_image_scope}.
static void md_global(md_list_t *l, const char *name, uint32_t size, uint32_t image_scope) {
    uint8_t v[8];
    for (int i = 0; i < 4; ++i) {
        v[i] = (uint8_t)(size >> (8 * i));
        v[4 + i] = (uint8_t)(image_scope >> (8 * i));
    }
    md_bytes(l, name, v, sizeof v);
}

static ur_program_handle_t built_with(md_list_t *l) {
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, l->n, l->e};
    ur_program_handle_t p = l0t_program("device_globals.spv", l->n > 0 ? &props : NULL);
    md_free(l);
    ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
    return p;
}

static ur_program_handle_t globals(void) {
    return l0t_built("device_globals.spv");
}

static ur_result_t dg_write(ur_program_handle_t p, const char *name, size_t count, size_t offset,
                            const void *src, ur_event_handle_t *e) {
    return urEnqueueDeviceGlobalVariableWrite(T.queue, p, name, true, count, offset, src, 0, NULL,
                                              e);
}

static ur_result_t dg_read(ur_program_handle_t p, const char *name, size_t count, size_t offset,
                           void *dst, ur_event_handle_t *e) {
    return urEnqueueDeviceGlobalVariableRead(T.queue, p, name, true, count, offset, dst, 0, NULL,
                                             e);
}

// ---- urEnqueueDeviceGlobalVariableWrite / Read ----

START_TEST(write_then_read_blocking) {
    ur_program_handle_t p = globals();
    int v = 42, got = 0;
    ck_assert_ur_ok(dg_write(p, "uid_dev_var", sizeof v, 0, &v, NULL));
    ck_assert_ur_ok(dg_read(p, "uid_dev_var", sizeof got, 0, &got, NULL));
    ck_assert_int_eq(got, 42);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// DPC++ never blocks: it waits for the events, which name the command correctly.
START_TEST(write_then_read_with_events) {
    ur_program_handle_t p = globals();
    int v = 17, got = 0;
    ur_event_handle_t w = NULL, r = NULL;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, p, "uid_dev_var", false, sizeof v,
                                                       0, &v, 0, NULL, &w));
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, p, "uid_dev_var", false, sizeof got,
                                                      0, &got, 1, &w, &r));
    ck_assert_ur_ok(urEventWait(1, &r));
    ck_assert_int_eq(got, 17);
    ck_assert_int_eq(l0t_command(w), UR_COMMAND_DEVICE_GLOBAL_VARIABLE_WRITE);
    ck_assert_int_eq(l0t_command(r), UR_COMMAND_DEVICE_GLOBAL_VARIABLE_READ);
    ck_assert_int_eq(l0t_status(w), UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventRelease(w));
    ck_assert_ur_ok(urEventRelease(r));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(offsets_address_part_of_a_variable) {
    ur_program_handle_t p = globals();
    int zero[4] = {0}, seven = 7, three[2] = {3, 4}, got[4] = {-1, -1, -1, -1};
    ck_assert_ur_ok(dg_write(p, "uid_dev_arr", sizeof zero, 0, zero, NULL));
    ck_assert_ur_ok(dg_write(p, "uid_dev_arr", sizeof seven, 8, &seven, NULL));
    ck_assert_ur_ok(dg_read(p, "uid_dev_arr", sizeof got, 0, got, NULL));
    ck_assert_int_eq(got[0], 0);
    ck_assert_int_eq(got[2], 7);
    ck_assert_int_eq(got[3], 0);
    ck_assert_ur_ok(dg_write(p, "uid_dev_arr", sizeof three, 4, three, NULL));
    int tail[2] = {0};
    ck_assert_ur_ok(dg_read(p, "uid_dev_arr", sizeof tail, 8, tail, NULL));
    ck_assert_int_eq(tail[0], 4);
    ck_assert_int_eq(tail[1], 0);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(copies_wait_for_their_wait_list) {
    ur_program_handle_t p = globals();
    ze_event_handle_t gate_ze = NULL;
    ur_event_handle_t gate = l0t_user_event(&gate_ze);
    int v = 99, got = 0;
    ur_event_handle_t w = NULL;
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableWrite(T.queue, p, "uid_dev_var", false, sizeof v,
                                                       0, &v, 1, &gate, &w));
    ck_assert_ur_ok(urQueueFlush(T.queue));
    ck_assert_int_ne(l0t_status(w), UR_EVENT_STATUS_COMPLETE);
    ck_assert_int_eq(zeEventHostSignal(gate_ze), ZE_RESULT_SUCCESS);
    ck_assert_ur_ok(urEnqueueDeviceGlobalVariableRead(T.queue, p, "uid_dev_var", true, sizeof got,
                                                      0, &got, 1, &w, NULL));
    ck_assert_int_eq(got, 99);
    ck_assert_ur_ok(urEventRelease(w));
    ck_assert_ur_ok(urEventRelease(gate));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// offset <= size && count <= size - offset, never an addition that could wrap; the answer is
// INVALID_VALUE (UR's adapter said ADAPTER_SPECIFIC), and no event is made.
START_TEST(out_of_range_is_invalid_value_without_event) {
    ur_program_handle_t p = globals();
    int buf[8] = {0};
    ur_event_handle_t e = NULL;
    ck_assert_ur(dg_write(p, "uid_dev_arr", 8, 12, buf, &e), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(dg_write(p, "uid_dev_arr", 17, 0, buf, &e), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(dg_write(p, "uid_dev_arr", 2, SIZE_MAX, buf, &e), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(dg_read(p, "uid_dev_arr", 2, SIZE_MAX, buf, &e), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(dg_read(p, "uid_dev_var", SIZE_MAX, 1, buf, &e), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ptr_null(e);
    const char *msg = NULL;
    int32_t code = 0;
    ck_assert_ur_ok(urAdapterGetLastError(T.adapter, &msg, &code));
    ck_assert_ptr_nonnull(strstr(msg, "uid_dev_var"));
    // The whole variable, and nothing at its very end, are fine.
    ck_assert_ur_ok(dg_write(p, "uid_dev_arr", 16, 0, buf, NULL));
    ck_assert_ur_ok(dg_write(p, "uid_dev_arr", 0, 16, buf, &e));
    ck_assert_int_eq(l0t_command(e), UR_COMMAND_DEVICE_GLOBAL_VARIABLE_WRITE);
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(unknown_name_is_invalid_value_without_event) {
    ur_program_handle_t p = globals();
    int v = 0;
    ur_event_handle_t e = NULL;
    ck_assert_ur(dg_write(p, "no_such_global", sizeof v, 0, &v, &e), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(dg_read(p, "no_such_global", sizeof v, 0, &v, &e), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ptr_null(e);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(unbuilt_program_is_not_executable) {
    ur_program_handle_t p = l0t_program("device_globals.spv", NULL);
    int v = 0;
    ur_event_handle_t e = NULL;
    ck_assert_ur(dg_write(p, "uid_dev_var", sizeof v, 0, &v, &e),
                 UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE);
    ck_assert_ptr_null(e);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// With "SYCL/device globals" metadata the size is sizeof(T) from it (device_image_scope), even
// when the module's variable is larger; a name the set does not list is unknown.
START_TEST(metadata_sizes_bound_the_copy) {
    md_list_t l = {0};
    md_global(&l, "SYCL/device globals/uid_dev_arr", 8, 1);
    ur_program_handle_t p = built_with(&l);
    int buf[4] = {1, 2, 3, 4};
    ck_assert_ur_ok(dg_write(p, "uid_dev_arr", 8, 0, buf, NULL));
    ck_assert_ur(dg_write(p, "uid_dev_arr", 12, 0, buf, NULL), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(dg_write(p, "uid_dev_arr", 4, 8, buf, NULL), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(dg_write(p, "uid_dev_var", 4, 0, buf, NULL), UR_RESULT_ERROR_INVALID_VALUE);
    size_t size = 0;
    void *ptr = NULL;
    ck_assert_ur_ok(urProgramGetGlobalVariablePointer(T.device, p, "uid_dev_arr", &size, &ptr));
    ck_assert_uint_eq(size, 8);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// A variable without device_image_scope holds only the pointer to its USM buffer (what a SYCL
// runtime writes into it), whatever sizeof(T) the metadata gives.
START_TEST(metadata_pointer_variables_hold_a_pointer) {
    md_list_t l = {0};
    md_global(&l, "SYCL/device globals/uid_dev_arr", 64, 0);
    ur_program_handle_t p = built_with(&l);
    uint64_t usm = 0x1000;
    int buf[4] = {0};
    ck_assert_ur_ok(dg_write(p, "uid_dev_arr", sizeof usm, 0, &usm, NULL));
    ck_assert_ur(dg_write(p, "uid_dev_arr", 12, 0, buf, NULL), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// Without metadata the driver's size (from the SPIR-V type) bounds the copy.
START_TEST(driver_sizes_bound_the_copy) {
    ur_program_handle_t p = globals();
    int buf[5] = {0};
    ck_assert_ur_ok(dg_write(p, "uid_dev_arr", 16, 0, buf, NULL));
    ck_assert_ur(dg_write(p, "uid_dev_arr", 20, 0, buf, NULL), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(dg_write(p, "uid_dev_var", 8, 0, buf, NULL), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// UR's "<name>@global_id_mapping" names the module's symbol for a SYCL name.
START_TEST(global_id_mapping_names_the_symbol) {
    md_list_t l = {0};
    md_bytes(&l, "my_counter@global_id_mapping", "uid_dev_var", 11);
    ur_program_handle_t p = built_with(&l);
    int v = 5, got = 0;
    ck_assert_ur_ok(dg_write(p, "my_counter", sizeof v, 0, &v, NULL));
    ck_assert_ur_ok(dg_read(p, "uid_dev_var", sizeof got, 0, &got, NULL));
    ck_assert_int_eq(got, 5);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// A linked program carries its inputs' metadata, so the sizes still apply.
START_TEST(linked_program_keeps_the_metadata) {
    md_list_t l = {0};
    md_global(&l, "SYCL/device globals/uid_dev_var", 4, 1);
    md_global(&l, "SYCL/device globals/uid_dev_arr", 12, 1);
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, l.n, l.e};
    ur_program_handle_t in = l0t_program("device_globals.spv", &props);
    md_free(&l);
    ck_assert_ur_ok(urProgramCompile(T.context, in, NULL));
    ur_program_handle_t linked = NULL;
    ck_assert_ur_ok(urProgramLink(T.context, 1, &in, NULL, &linked));
    int buf[4] = {9, 8, 7, 6}, got[3] = {0};
    ck_assert_ur_ok(dg_write(linked, "uid_dev_arr", 12, 0, buf, NULL));
    ck_assert_ur(dg_write(linked, "uid_dev_arr", 16, 0, buf, NULL), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(dg_read(linked, "uid_dev_arr", 12, 0, got, NULL));
    ck_assert_int_eq(got[2], 7);
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(in));
}
END_TEST

// ---- urProgramGetGlobalVariablePointer ----

START_TEST(pointer_and_size_of_a_variable) {
    ur_program_handle_t p = globals();
    size_t size = 0;
    void *ptr = NULL, *again = NULL;
    ck_assert_ur_ok(urProgramGetGlobalVariablePointer(T.device, p, "uid_dev_arr", &size, &ptr));
    ck_assert_uint_eq(size, 16);
    ck_assert_ptr_nonnull(ptr);
    ck_assert_ur_ok(urProgramGetGlobalVariablePointer(T.device, p, "uid_dev_arr", NULL, &again));
    ck_assert_ptr_eq(again, ptr);
    // The pointer is the variable: what a device-global write puts there, a USM copy reads.
    int v[4] = {5, 6, 7, 8}, got[4] = {0};
    ck_assert_ur_ok(dg_write(p, "uid_dev_arr", sizeof v, 0, v, NULL));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, got, ptr, sizeof got, 0, NULL, NULL));
    ck_assert_int_eq(got[3], 8);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(pointer_of_unknown_name_is_invalid_value) {
    ur_program_handle_t p = globals();
    void *ptr = (void *)1;
    ck_assert_ur(urProgramGetGlobalVariablePointer(T.device, p, "foo", NULL, &ptr),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ptr_null(ptr);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(pointer_of_unbuilt_program_is_not_executable) {
    ur_program_handle_t p = l0t_program("device_globals.spv", NULL);
    void *ptr = NULL;
    ck_assert_ur(urProgramGetGlobalVariablePointer(T.device, p, "uid_dev_var", NULL, &ptr),
                 UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("level_zero_device_global");
    const urc_test_case_t cases[] = {
        {"urEnqueueDeviceGlobalVariableWrite",
         {write_then_read_blocking, write_then_read_with_events, offsets_address_part_of_a_variable,
          copies_wait_for_their_wait_list}},
        {"urEnqueueDeviceGlobalVariableRead",
         {out_of_range_is_invalid_value_without_event, unknown_name_is_invalid_value_without_event,
          unbuilt_program_is_not_executable}},
        {"DeviceGlobalSizes",
         {metadata_sizes_bound_the_copy, metadata_pointer_variables_hold_a_pointer,
          driver_sizes_bound_the_copy, global_id_mapping_names_the_symbol,
          linked_program_keeps_the_metadata}},
        {"urProgramGetGlobalVariablePointer",
         {pointer_and_size_of_a_variable, pointer_of_unknown_name_is_invalid_value,
          pointer_of_unbuilt_program_is_not_executable}},
    };
    urc_test_add_cases(s, l0t_tcase, cases, sizeof cases / sizeof cases[0]);
    return s;
}

int main(void) {
    return l0t_main(suite());
}
