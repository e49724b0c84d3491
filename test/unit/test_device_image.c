// SPDX-License-Identifier: MIT
// urcMetadataFromDeviceBinary: descriptor layout, the conversion, validation, and the round trip
// through urc_props_parse.
#include <stddef.h>

#include "program/props.h"
#include "urc_device_image.h"
#include "urc_test.h"

// A DPC++-style image: two sets, one property of each type.
typedef struct fixture_t {
    uint8_t aspects[8 + 8];
    urc_sycl_property_t req[2];
    urc_sycl_property_t vf[2];
    urc_sycl_property_set_t sets[2];
    urc_sycl_device_binary_t binary;
} fixture_t;

static void fixture_init(fixture_t *f) {
    memset(f, 0, sizeof(*f));
    // 64 bits: aspects 5 and 6 (fp16, fp64).
    const uint8_t raw[16] = {64, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0};
    memcpy(f->aspects, raw, sizeof(raw));
    f->req[0] = (urc_sycl_property_t){"aspects", f->aspects, URC_SYCL_PROPERTY_TYPE_BYTE_ARRAY, 16};
    f->req[1] =
        (urc_sycl_property_t){"reqd_sub_group_size", NULL, URC_SYCL_PROPERTY_TYPE_UINT32, 16};
    f->vf[0] = (urc_sycl_property_t){"uses-virtual-functions-set", "A,B",
                                     URC_SYCL_PROPERTY_TYPE_STRING, 0};
    f->vf[1] = (urc_sycl_property_t){"dummy-image", NULL, URC_SYCL_PROPERTY_TYPE_UINT32, 1};
    f->sets[0] = (urc_sycl_property_set_t){"SYCL/device requirements", f->req, f->req + 2};
    f->sets[1] = (urc_sycl_property_set_t){"SYCL/virtual functions", f->vf, f->vf + 2};
    f->binary.version = 1;
    f->binary.kind = 4;
    f->binary.format = 2;
    f->binary.device_target_spec = "spir64";
    f->binary.property_sets_begin = f->sets;
    f->binary.property_sets_end = f->sets + 2;
}

START_TEST(layout_matches_dpcpp) {
    ck_assert_uint_eq(sizeof(urc_sycl_property_t), 32);
    ck_assert_uint_eq(offsetof(urc_sycl_property_t, type), 16);
    ck_assert_uint_eq(offsetof(urc_sycl_property_t, size), 24);
    ck_assert_uint_eq(sizeof(urc_sycl_property_set_t), 24);
    ck_assert_uint_eq(sizeof(urc_sycl_offload_entry_t), 32);
    ck_assert_uint_eq(offsetof(urc_sycl_device_binary_t, kind), 2);
    ck_assert_uint_eq(offsetof(urc_sycl_device_binary_t, format), 3);
    ck_assert_uint_eq(offsetof(urc_sycl_device_binary_t, binary_start), 48);
    ck_assert_uint_eq(offsetof(urc_sycl_device_binary_t, entries_begin), 64);
    ck_assert_uint_eq(sizeof(urc_sycl_device_binary_t), 96);
    ck_assert_uint_eq(offsetof(urc_sycl_device_binaries_t, device_binaries), 8);
    ck_assert_uint_eq(sizeof(urc_sycl_device_binaries_t), 32);
}
END_TEST

START_TEST(converts_every_type) {
    fixture_t f;
    fixture_init(&f);
    ur_program_metadata_t *md = NULL;
    uint32_t n = 0;
    ck_assert_ur_ok(urcMetadataFromDeviceBinary(&f.binary, &md, &n));
    ck_assert_uint_eq(n, 4);
    ck_assert_str_eq(md[0].pName, "SYCL/device requirements/aspects");
    ck_assert_int_eq(md[0].type, UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY);
    ck_assert_uint_eq(md[0].size, 16); // header included
    ck_assert_ptr_eq(md[0].value.pData, f.aspects);
    ck_assert_str_eq(md[1].pName, "SYCL/device requirements/reqd_sub_group_size");
    ck_assert_int_eq(md[1].type, UR_PROGRAM_METADATA_TYPE_UINT32);
    ck_assert_uint_eq(md[1].value.data32, 16);
    ck_assert_str_eq(md[2].pName, "SYCL/virtual functions/uses-virtual-functions-set");
    ck_assert_int_eq(md[2].type, UR_PROGRAM_METADATA_TYPE_STRING);
    ck_assert_str_eq(md[2].value.pString, "A,B");
    ck_assert_uint_eq(md[2].size, 4);
    ck_assert_uint_eq(md[3].value.data32, 1);
    urcMetadataArrayFree(md);
}
END_TEST

START_TEST(round_trip_through_parse) {
    fixture_t f;
    fixture_init(&f);
    ur_program_metadata_t *md = NULL;
    uint32_t n = 0;
    ck_assert_ur_ok(urcMetadataFromDeviceBinary(&f.binary, &md, &n));
    urc_props_t *props = NULL;
    char err[256] = "";
    ck_assert_ur_ok(urc_props_parse(md, n, &props, err, sizeof(err)));
    urcMetadataArrayFree(md);
    const urc_prop_t *p = urc_props_find(props, URC_SET_DEVICE_REQUIREMENTS, "aspects");
    const uint8_t *data;
    size_t count;
    ck_assert(urc_prop_u32_array(p, &data, &count));
    ck_assert_uint_eq(count, 2);
    ck_assert_uint_eq(urc_prop_u32_at(data, 1), 6);
    ck_assert_str_eq(
        urc_props_find(props, URC_SET_VIRTUAL_FUNCTIONS, "uses-virtual-functions-set")->string,
        "A,B");
    urc_props_release(props);
}
END_TEST

START_TEST(no_property_sets) {
    urc_sycl_device_binary_t binary = {.version = 1};
    ur_program_metadata_t *md = (ur_program_metadata_t *)1;
    uint32_t n = 7;
    ck_assert_ur_ok(urcMetadataFromDeviceBinary(&binary, &md, &n));
    ck_assert_ptr_null(md);
    ck_assert_uint_eq(n, 0);
    urcMetadataArrayFree(NULL);

    fixture_t f;
    fixture_init(&f);
    f.sets[0].properties_end = f.sets[0].properties_begin; // an empty set
    f.binary.property_sets_end = f.sets + 1;
    ck_assert_ur_ok(urcMetadataFromDeviceBinary(&f.binary, &md, &n));
    ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(null_arguments) {
    fixture_t f;
    fixture_init(&f);
    ur_program_metadata_t *md;
    uint32_t n;
    ck_assert_ur(urcMetadataFromDeviceBinary(NULL, &md, &n), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urcMetadataFromDeviceBinary(&f.binary, NULL, &n),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urcMetadataFromDeviceBinary(&f.binary, &md, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
}
END_TEST

static void expect_invalid(fixture_t *f) {
    ur_program_metadata_t *md = (ur_program_metadata_t *)1;
    uint32_t n = 9;
    ck_assert_ur(urcMetadataFromDeviceBinary(&f->binary, &md, &n), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ptr_null(md);
    ck_assert_uint_eq(n, 0);
}

START_TEST(invalid_set_ranges) {
    fixture_t f;
    fixture_init(&f);
    f.binary.property_sets_end = NULL;
    expect_invalid(&f);
    fixture_init(&f);
    f.binary.property_sets_begin = NULL;
    expect_invalid(&f);
    fixture_init(&f);
    f.binary.property_sets_begin = f.sets + 2;
    f.binary.property_sets_end = f.sets;
    expect_invalid(&f);
}
END_TEST

START_TEST(invalid_property_ranges) {
    fixture_t f;
    fixture_init(&f);
    f.sets[1].properties_end = NULL;
    expect_invalid(&f);
    fixture_init(&f);
    f.sets[1].properties_begin = f.vf + 2;
    f.sets[1].properties_end = f.vf;
    expect_invalid(&f);
}
END_TEST

START_TEST(invalid_names) {
    fixture_t f;
    fixture_init(&f);
    f.sets[1].name = NULL;
    expect_invalid(&f);
    fixture_init(&f);
    f.vf[1].name = NULL;
    expect_invalid(&f);
}
END_TEST

START_TEST(invalid_types_and_values) {
    fixture_t f;
    fixture_init(&f);
    f.req[1].type = URC_SYCL_PROPERTY_TYPE_UNKNOWN;
    expect_invalid(&f);
    fixture_init(&f);
    f.req[1].type = 7;
    expect_invalid(&f);
    fixture_init(&f);
    f.req[1].size = UINT64_C(1) << 32; // a UINT32 that does not fit
    expect_invalid(&f);
    fixture_init(&f);
    f.req[0].value = NULL; // BYTE_ARRAY with size 16
    expect_invalid(&f);
    fixture_init(&f);
    f.vf[0].value = NULL; // STRING
    expect_invalid(&f);
}
END_TEST

static Suite *device_image_suite(void) {
    Suite *s = suite_create("device_image");
    TCase *tc = tcase_create("urcMetadataFromDeviceBinary");
    tcase_add_test(tc, layout_matches_dpcpp);
    tcase_add_test(tc, converts_every_type);
    tcase_add_test(tc, round_trip_through_parse);
    tcase_add_test(tc, no_property_sets);
    tcase_add_test(tc, null_arguments);
    tcase_add_test(tc, invalid_set_ranges);
    tcase_add_test(tc, invalid_property_ranges);
    tcase_add_test(tc, invalid_names);
    tcase_add_test(tc, invalid_types_and_values);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return urc_test_run(device_image_suite());
}
