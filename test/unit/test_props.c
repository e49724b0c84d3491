// SPDX-License-Identifier: MIT
// common/program/props: the metadata convention, every malformed case, lookups, merge, refcounting.
#include <pthread.h>
#include <stdio.h>

#include "md_builder.h"
#include "program/props.h"
#include "urc_test.h"

#define REQ "SYCL/device requirements/"

// Parses and expects INVALID_VALUE with exactly `want` as the message.
static void expect_malformed(md_list_t *l, const char *want) {
    urc_props_t *props = (urc_props_t *)1;
    char err[256] = "unset";
    ck_assert_ur(urc_props_parse(l->e, l->n, &props, err, sizeof(err)),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ptr_null(props);
    ck_assert_str_eq(err, want);
    md_free(l);
}

// --- urc_props_parse: the convention ---------------------------------------------------------

START_TEST(parse_empty) {
    urc_props_t *props = NULL;
    ck_assert_ur_ok(urc_props_parse(NULL, 0, &props, NULL, 0));
    ck_assert_ptr_nonnull(props);
    ck_assert_uint_eq(urc_props_count(props), 0);
    ck_assert_ptr_null(urc_props_find(props, "", "x"));
    urc_props_release(props);
}
END_TEST

START_TEST(parse_null_arguments) {
    md_list_t l = {0};
    md_u32(&l, "a", 1);
    urc_props_t *props = NULL;
    ck_assert_ur(urc_props_parse(l.e, 1, NULL, NULL, 0), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urc_props_parse(NULL, 1, &props, NULL, 0), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    md_free(&l);
}
END_TEST

START_TEST(parse_splits_known_sets) {
    md_list_t l = {0};
    md_u32(&l, "SYCL/virtual functions/dummy-image", 1);
    md_u32(&l, "SYCL/specialization constants default values/sc/1", 2);
    md_u32(&l, "SYCL/specialization constants/sc", 3);
    md_u32(&l, "SYCL/kernel args info/k", 4);
    urc_props_t *props = md_parse(&l);
    const urc_prop_t *p = urc_props_at(props, 0);
    ck_assert_str_eq(p->set, "SYCL/virtual functions");
    ck_assert_str_eq(p->name, "dummy-image");
    // The longest known set wins, and the property keeps any '/' after it.
    p = urc_props_at(props, 1);
    ck_assert_str_eq(p->set, "SYCL/specialization constants default values");
    ck_assert_str_eq(p->name, "sc/1");
    ck_assert_str_eq(urc_props_at(props, 2)->set, "SYCL/specialization constants");
    ck_assert_str_eq(urc_props_at(props, 3)->set, "SYCL/kernel args info");
    urc_props_release(props);
}
END_TEST

START_TEST(parse_keeps_unknown_and_ur_entries) {
    md_list_t l = {0};
    md_u32(&l, "SYCL/unknown set/x", 1);
    uint32_t wg[3] = {8, 4, 1};
    md_u32s(&l, "_Z1kv@reqd_work_group_size", wg, 3);
    md_str(&l, "plain", "text");
    md_u32(&l, "SYCL/program metadata/k2@reqd_sub_group_size", 16);
    md_u32(&l, "SYCL/program metadata/other", 1);
    urc_props_t *props = md_parse(&l);
    const urc_prop_t *p = urc_props_find(props, "", "SYCL/unknown set/x");
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(p->u32, 1);
    p = urc_props_find(props, "", "_Z1kv@reqd_work_group_size");
    ck_assert_ptr_nonnull(p);
    ck_assert(!p->raw);
    ck_assert_uint_eq(p->size, 12);
    ck_assert_uint_eq(urc_prop_u32_at(p->data, 1), 4);
    ck_assert_str_eq(urc_props_find(props, "", "plain")->string, "text");
    // UR tags inside "SYCL/program metadata" are stored bare.
    ck_assert_uint_eq(urc_props_find(props, "", "k2@reqd_sub_group_size")->u32, 16);
    ck_assert_ptr_nonnull(urc_props_find(props, URC_SET_PROGRAM_METADATA, "other"));
    urc_props_release(props);
}
END_TEST

START_TEST(parse_values) {
    md_list_t l = {0};
    md_u32(&l, "SYCL/misc properties/optLevel", 2);
    md_u64(&l, "k@max_linear_work_group_size", UINT64_C(1) << 40);
    md_str(&l, "SYCL/misc properties/s", "hello");
    md_bytes(&l, "SYCL/virtual functions/virtual-functions-set", "set_fp64", 8);
    urc_props_t *props = md_parse(&l);
    const urc_prop_t *p = urc_props_find(props, "SYCL/misc properties", "optLevel");
    ck_assert_int_eq(p->type, UR_PROGRAM_METADATA_TYPE_UINT32);
    ck_assert_uint_eq(p->u32, 2);
    ck_assert_uint_eq(p->u64, 2);
    p = urc_props_find(props, "", "k@max_linear_work_group_size");
    ck_assert_uint_eq(p->u64, UINT64_C(1) << 40);
    ck_assert_str_eq(urc_props_find(props, "SYCL/misc properties", "s")->string, "hello");
    p = urc_props_find(props, "SYCL/virtual functions", "virtual-functions-set");
    ck_assert_uint_eq(p->size, 8);
    ck_assert_uint_eq(p->bits, 64);
    ck_assert_mem_eq(p->data, "set_fp64", 8);
    // Payloads are stored with a NUL after them.
    ck_assert_uint_eq(p->data[8], 0);
    urc_props_release(props);
}
END_TEST

START_TEST(parse_bit_count_rounds_up) {
    md_list_t l = {0};
    md_bits(&l, "SYCL/misc properties/b", 12, "\xff\x0f", 2);
    md_bits(&l, "SYCL/misc properties/empty", 0, NULL, 0);
    urc_props_t *props = md_parse(&l);
    const urc_prop_t *p = urc_props_find(props, "SYCL/misc properties", "b");
    ck_assert_uint_eq(p->bits, 12);
    ck_assert_uint_eq(p->size, 2);
    ck_assert_uint_eq(urc_props_find(props, "SYCL/misc properties", "empty")->size, 0);
    urc_props_release(props);
}
END_TEST

START_TEST(parse_owns_its_copy) {
    md_list_t l = {0};
    char name[] = "SYCL/device globals/dg";
    md_bytes(&l, name, "\x08\0\0\0\x01\0\0\0", 8);
    md_str(&l, "SYCL/misc properties/s", "value");
    urc_props_t *props = NULL;
    ck_assert_ur_ok(urc_props_parse(l.e, l.n, &props, NULL, 0));
    // The inputs go away; the parsed copy stays readable.
    memset(name, 'x', sizeof(name) - 1);
    md_free(&l);
    const urc_prop_t *p = urc_props_find(props, "SYCL/device globals", "dg");
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(urc_prop_u32_at(p->data, 0), 8);
    ck_assert_str_eq(urc_props_find(props, "SYCL/misc properties", "s")->string, "value");
    urc_props_release(props);
}
END_TEST

// UR's conformance tests (urProgramCreateWithIL/WithBinary SuccessWithProperties) pass four
// entries all named "test metadata", a string whose size excludes its NUL and a 4-byte byte
// array without a header. Those must be accepted.
START_TEST(parse_accepts_ur_cts_metadata) {
    md_list_t l = {0};
    md_str(&l, "test metadata", "test metadata");
    l.e[0].size = strlen("test metadata");
    md_u32(&l, "test metadata", 32);
    md_u64(&l, "test metadata", 64);
    md_raw(&l, "test metadata", "\xde\xad\xbe\xef", 4);
    urc_props_t *props = md_parse(&l);
    ck_assert_uint_eq(urc_props_count(props), 4);
    const urc_prop_t *p = urc_props_at(props, 3);
    ck_assert(p->raw);
    ck_assert_uint_eq(p->size, 4);
    ck_assert_mem_eq(p->data, "\xde\xad\xbe\xef", 4);
    // Lookups find the first of repeated opaque names.
    ck_assert_int_eq(urc_props_find(props, "", "test metadata")->type,
                     UR_PROGRAM_METADATA_TYPE_STRING);
    urc_props_release(props);
}
END_TEST

// UR's conformance fixture maps its device global with an all-zero header before the symbol
// (UR's CUDA adapter skips the 8 bytes unread); the payload is then the rest of the entry.
START_TEST(parse_accepts_ur_cts_global_id_mapping) {
    md_list_t l = {0};
    md_raw(&l, "_Z7dev_var@global_id_mapping", "\0\0\0\0\0\0\0\0dev_var", 15);
    md_raw(&l, "SYCL/program metadata/_Z7dev_arr@global_id_mapping", "\0\0\0\0\0\0\0\0arr", 11);
    urc_props_t *props = md_parse(&l);
    char buf[16];
    ck_assert_str_eq(urc_props_global_symbol(props, "_Z7dev_var", buf, sizeof(buf)), "dev_var");
    ck_assert_str_eq(urc_props_global_symbol(props, "_Z7dev_arr", buf, sizeof(buf)), "arr");
    const urc_prop_t *p = urc_props_at(props, 0);
    ck_assert(!p->raw);
    ck_assert_uint_eq(p->size, 7);
    ck_assert_uint_eq(p->bits, 56);
    urc_props_release(props);
}
END_TEST

START_TEST(parse_many_entries_hash_lookup) {
    enum { N = 5000 };
    ur_program_metadata_t *e = calloc(N, sizeof(*e));
    char(*names)[48] = calloc(N, sizeof(*names));
    for (int i = 0; i < N; ++i) {
        snprintf(names[i], sizeof(names[i]), "SYCL/exported symbols/sym_%d", i);
        e[i].pName = names[i];
        e[i].type = UR_PROGRAM_METADATA_TYPE_UINT32;
        e[i].value.data32 = (uint32_t)i;
    }
    urc_props_t *props = NULL;
    ck_assert_ur_ok(urc_props_parse(e, N, &props, NULL, 0));
    for (int i = 0; i < N; ++i) {
        char want[32];
        snprintf(want, sizeof(want), "sym_%d", i);
        const urc_prop_t *p = urc_props_find(props, "SYCL/exported symbols", want);
        ck_assert_ptr_nonnull(p);
        ck_assert_uint_eq(p->u32, (uint32_t)i);
    }
    ck_assert_ptr_null(urc_props_find(props, "SYCL/exported symbols", "sym_5000"));
    ck_assert_ptr_null(urc_props_find(props, "SYCL/imported symbols", "sym_1"));
    ck_assert_uint_eq(urc_props_list(props, "SYCL/exported symbols", NULL, 0), N);
    urc_props_release(props);
    free(names);
    free(e);
}
END_TEST

// --- urc_props_parse: malformed input -------------------------------------------------------

START_TEST(malformed_null_name) {
    md_list_t l = {0};
    md_u32(&l, NULL, 1);
    expect_malformed(&l, "metadata entry 0: pName is NULL");
}
END_TEST

START_TEST(malformed_empty_name) {
    md_list_t l = {0};
    md_u32(&l, "ok", 1);
    md_u32(&l, "", 1);
    expect_malformed(&l, "metadata entry 1 (''): the name is empty");
}
END_TEST

START_TEST(malformed_set_without_property) {
    md_list_t l = {0};
    md_u32(&l, "SYCL/assert used/", 1);
    expect_malformed(&l, "metadata entry 0 ('SYCL/assert used/'): no property name after the set "
                         "name");
}
END_TEST

START_TEST(malformed_unknown_type) {
    md_list_t l = {0};
    md_u32(&l, "x", 1);
    l.e[0].type = (ur_program_metadata_type_t)7;
    expect_malformed(&l, "metadata entry 0 ('x'): unknown metadata type 7");
}
END_TEST

START_TEST(malformed_truncated_header) {
    md_list_t l = {0};
    md_raw(&l, REQ "aspects", "\x20\0\0\0\0", 5);
    expect_malformed(&l, "metadata entry 0 ('SYCL/device requirements/aspects'): byte array of 5 "
                         "bytes is shorter than its 8-byte size header");
}
END_TEST

START_TEST(malformed_empty_byte_array) {
    md_list_t l = {0};
    md_raw(&l, "SYCL/assert used/k", "", 0);
    expect_malformed(&l, "metadata entry 0 ('SYCL/assert used/k'): byte array of 0 bytes is "
                         "shorter than its 8-byte size header");
}
END_TEST

START_TEST(malformed_bits_exceed_size) {
    md_list_t l = {0};
    md_bits(&l, "SYCL/virtual functions/virtual-functions-set", 100, "abcd", 4);
    expect_malformed(&l, "metadata entry 0 ('SYCL/virtual functions/virtual-functions-set'): the "
                         "size header says 100 bits (13 bytes) but 4 payload bytes follow it");
}
END_TEST

START_TEST(malformed_bits_too_few_for_size) {
    // 9 bits need 2 bytes; 3 bytes leave a whole unused byte.
    md_list_t l = {0};
    md_bits(&l, "SYCL/misc properties/p", 9, "abc", 3);
    expect_malformed(&l, "metadata entry 0 ('SYCL/misc properties/p'): the size header says 9 "
                         "bits (2 bytes) but 3 payload bytes follow it");
}
END_TEST

// The zero-header form is UR's for @global_id_mapping only; elsewhere it stays malformed, and
// a mapping whose non-zero bit count disagrees with its size is still refused.
START_TEST(malformed_zero_bits_outside_global_id_mapping) {
    md_list_t l = {0};
    md_bits(&l, "SYCL/misc properties/p", 0, "abc", 3);
    expect_malformed(&l, "metadata entry 0 ('SYCL/misc properties/p'): the size header says 0 "
                         "bits (0 bytes) but 3 payload bytes follow it");
    md_bits(&l, "k@max_work_group_size", 0, "\1\0\0\0", 4);
    expect_malformed(&l, "metadata entry 0 ('k@max_work_group_size'): the size header says 0 "
                         "bits (0 bytes) but 4 payload bytes follow it");
    md_bits(&l, "dg@global_id_mapping", 100, "abc", 3);
    expect_malformed(&l, "metadata entry 0 ('dg@global_id_mapping'): the size header says 100 "
                         "bits (13 bytes) but 3 payload bytes follow it");
}
END_TEST

START_TEST(malformed_huge_bit_count) {
    md_list_t l = {0};
    md_bits(&l, "SYCL/misc properties/p", UINT64_MAX, "a", 1);
    expect_malformed(&l, "metadata entry 0 ('SYCL/misc properties/p'): the size header says "
                         "18446744073709551615 bits (2305843009213693952 bytes) but 1 payload "
                         "bytes follow it");
}
END_TEST

START_TEST(malformed_null_data) {
    md_list_t l = {0};
    md_raw(&l, "opaque", "abcd", 4);
    free(l.owned[0]);
    l.owned[0] = NULL;
    l.e[0].value.pData = NULL;
    expect_malformed(&l, "metadata entry 0 ('opaque'): pData is NULL but size is 4");
}
END_TEST

START_TEST(null_data_with_zero_size_is_empty) {
    md_list_t l = {0};
    md_u32(&l, "opaque", 0);
    l.e[0].type = UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY;
    l.e[0].size = 0;
    l.e[0].value.pData = NULL;
    urc_props_t *props = md_parse(&l);
    ck_assert_uint_eq(urc_props_at(props, 0)->size, 0);
    urc_props_release(props);
}
END_TEST

START_TEST(malformed_null_string) {
    md_list_t l = {0};
    md_u32(&l, "SYCL/misc properties/s", 0);
    l.e[0].type = UR_PROGRAM_METADATA_TYPE_STRING;
    l.e[0].value.pString = NULL;
    expect_malformed(&l, "metadata entry 0 ('SYCL/misc properties/s'): pString is NULL");
}
END_TEST

START_TEST(malformed_unterminated_string) {
    md_list_t l = {0};
    md_str(&l, "SYCL/misc properties/s", "abcdef");
    l.e[0].size = 3; // the NUL is at 6, past size + 1
    expect_malformed(&l, "metadata entry 0 ('SYCL/misc properties/s'): the string has no NUL "
                         "within its size of 3 bytes");
}
END_TEST

START_TEST(malformed_duplicate_name) {
    md_list_t l = {0};
    md_bytes(&l, "SYCL/device globals/x", "\x04\0\0\0\0\0\0\0", 8);
    md_u32(&l, "SYCL/assert used/k", 1);
    md_bytes(&l, "SYCL/device globals/x", "\x08\0\0\0\0\0\0\0", 8);
    expect_malformed(&l, "metadata entry 2 ('SYCL/device globals/x'): the same name as entry 0");
}
END_TEST

START_TEST(malformed_duplicate_ur_tag) {
    md_list_t l = {0};
    md_u32(&l, "k@reqd_sub_group_size", 16);
    md_u32(&l, "k@reqd_sub_group_size", 32);
    expect_malformed(&l, "metadata entry 1 ('k@reqd_sub_group_size'): the same name as entry 0");
    // Bare and inside "SYCL/program metadata" are the same entry.
    md_u32(&l, "k@reqd_sub_group_size", 16);
    md_u32(&l, "SYCL/program metadata/k@reqd_sub_group_size", 16);
    expect_malformed(&l, "metadata entry 1 ('SYCL/program metadata/k@reqd_sub_group_size'): the "
                         "same name as entry 0");
}
END_TEST

static void expect_not_u32(const char *name, const char *want) {
    md_list_t l = {0};
    md_bytes(&l, name, "\x05\0\0\0\x06\0", 6);
    expect_malformed(&l, want);
}

START_TEST(malformed_u32_arrays) {
    expect_not_u32(REQ "aspects", "metadata entry 0 ('SYCL/device requirements/aspects'): a "
                                  "payload of 48 bits is not a whole number of uint32 values");
    expect_not_u32(REQ "fixed_target", "metadata entry 0 ('SYCL/device requirements/"
                                       "fixed_target'): a payload of 48 bits is not a whole "
                                       "number of uint32 values");
    expect_not_u32(REQ "reqd_sub_group_size",
                   "metadata entry 0 ('SYCL/device requirements/reqd_sub_group_size'): a payload "
                   "of 48 bits is not a whole number of uint32 values");
    expect_not_u32(REQ "reqd_work_group_size",
                   "metadata entry 0 ('SYCL/device requirements/reqd_work_group_size'): a "
                   "payload of 48 bits is not a whole number of uint32 values");
    expect_not_u32("k@reqd_work_group_size", "metadata entry 0 ('k@reqd_work_group_size'): a "
                                             "payload of 48 bits is not a whole number of uint32 "
                                             "values");
    expect_not_u32("SYCL/program metadata/k@max_work_group_size",
                   "metadata entry 0 ('SYCL/program metadata/k@max_work_group_size'): a payload "
                   "of 48 bits is not a whole number of uint32 values");
}
END_TEST

START_TEST(malformed_u32_array_bit_count) {
    // Four bytes, but the header claims 25 bits: not one whole uint32.
    md_list_t l = {0};
    md_bits(&l, REQ "aspects", 25, "\x05\0\0\0", 4);
    expect_malformed(&l, "metadata entry 0 ('SYCL/device requirements/aspects'): a payload of 25 "
                         "bits is not a whole number of uint32 values");
}
END_TEST

START_TEST(malformed_u64_array) {
    md_list_t l = {0};
    md_bytes(&l, REQ "reqd_work_group_size_uint64_t", "\x40\0\0\0\0\0\0\0\x01\0\0\0", 12);
    expect_malformed(&l, "metadata entry 0 ('SYCL/device requirements/"
                         "reqd_work_group_size_uint64_t'): a payload of 96 bits is not a whole "
                         "number of uint64 values");
}
END_TEST

START_TEST(malformed_message_truncates_safely) {
    md_list_t l = {0};
    md_raw(&l, REQ "aspects", "\x20", 1);
    char err[16];
    urc_props_t *props = NULL;
    ck_assert_ur(urc_props_parse(l.e, l.n, &props, err, sizeof(err)),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_str_eq(err, "metadata entry ");
    ck_assert_ur(urc_props_parse(l.e, l.n, &props, NULL, 0), UR_RESULT_ERROR_INVALID_VALUE);
    md_free(&l);
}
END_TEST

// --- lookups ---------------------------------------------------------------------------------

START_TEST(list_in_input_order) {
    md_list_t l = {0};
    md_u32(&l, "SYCL/assert used/a", 1);
    md_u32(&l, "SYCL/device globals/x", 0);
    md_u32(&l, "SYCL/assert used/b", 1);
    md_u32(&l, "SYCL/assert used/c", 1);
    urc_props_t *props = md_parse(&l);
    const urc_prop_t *out[2];
    ck_assert_uint_eq(urc_props_list(props, URC_SET_ASSERT_USED, out, 2), 3);
    ck_assert_str_eq(out[0]->name, "a");
    ck_assert_str_eq(out[1]->name, "b");
    ck_assert_uint_eq(urc_props_list(props, URC_SET_IMPORTED_SYMBOLS, out, 2), 0);
    ck_assert_uint_eq(urc_props_list(props, "", out, 2), 0);
    ck_assert(urc_props_has_set(props, URC_SET_DEVICE_GLOBALS));
    ck_assert(!urc_props_has_set(props, URC_SET_VIRTUAL_FUNCTIONS));
    ck_assert(!urc_props_has_set(NULL, URC_SET_VIRTUAL_FUNCTIONS));
    urc_props_release(props);
}
END_TEST

START_TEST(u32_array_views) {
    md_list_t l = {0};
    uint32_t v[3] = {5, 6, 0x01020304};
    md_u32s(&l, REQ "aspects", v, 3);
    md_bytes(&l, "SYCL/misc properties/odd", "abc", 3);
    md_u32(&l, "SYCL/misc properties/u", 1);
    urc_props_t *props = md_parse(&l);
    const uint8_t *data;
    size_t n;
    ck_assert(urc_prop_u32_array(urc_props_find(props, URC_SET_DEVICE_REQUIREMENTS, "aspects"),
                                 &data, &n));
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(urc_prop_u32_at(data, 2), 0x01020304);
    ck_assert(
        !urc_prop_u32_array(urc_props_find(props, URC_SET_MISC_PROPERTIES, "odd"), &data, &n));
    ck_assert(!urc_prop_u32_array(urc_props_find(props, URC_SET_MISC_PROPERTIES, "u"), &data, &n));
    ck_assert(!urc_prop_u32_array(NULL, &data, &n));
    urc_props_release(props);
}
END_TEST

START_TEST(text_of_strings_and_byte_arrays) {
    md_list_t l = {0};
    md_str(&l, "SYCL/misc properties/s", "string");
    md_bytes(&l, "SYCL/virtual functions/uses-virtual-functions-set", "A,B", 3);
    md_bytes(&l, "SYCL/misc properties/nul", "ab\0cd", 5);
    md_u32(&l, "SYCL/misc properties/u", 3);
    urc_props_t *props = md_parse(&l);
    char buf[8];
    ck_assert_str_eq(urc_prop_text(urc_props_at(props, 0), buf, sizeof(buf)), "string");
    ck_assert_str_eq(urc_prop_text(urc_props_at(props, 1), NULL, 0), "A,B");
    ck_assert_str_eq(urc_prop_text(urc_props_at(props, 1), buf, sizeof(buf)), "A,B");
    ck_assert_str_eq(urc_prop_text(urc_props_at(props, 2), buf, sizeof(buf)), "ab");
    ck_assert_ptr_null(urc_prop_text(urc_props_at(props, 0), buf, 6)); // "string" needs 7
    ck_assert_ptr_null(urc_prop_text(urc_props_at(props, 3), buf, sizeof(buf)));
    urc_props_release(props);
}
END_TEST

START_TEST(global_symbol_mapping) {
    md_list_t l = {0};
    md_bytes(&l, "dg_a@global_id_mapping", "sym_a", 5);
    md_bytes(&l, "SYCL/program metadata/dg_b@global_id_mapping", "sym_b", 5);
    urc_props_t *props = md_parse(&l);
    char buf[16];
    ck_assert_str_eq(urc_props_global_symbol(props, "dg_a", buf, sizeof(buf)), "sym_a");
    ck_assert_str_eq(urc_props_global_symbol(props, "dg_b", buf, sizeof(buf)), "sym_b");
    ck_assert_ptr_null(urc_props_global_symbol(props, "dg_c", buf, sizeof(buf)));
    ck_assert_ptr_null(urc_props_global_symbol(props, "dg_a", buf, 3));
    urc_props_release(props);
}
END_TEST

START_TEST(known_set_prefix) {
    size_t len = 0;
    ck_assert_str_eq(urc_props_known_set("SYCL/host pipes/p", &len), "SYCL/host pipes");
    ck_assert_uint_eq(len, strlen("SYCL/host pipes"));
    ck_assert_ptr_null(urc_props_known_set("SYCL/host pipes", &len));
    ck_assert_ptr_null(urc_props_known_set("SYCL/host pipesX/p", &len));
    ck_assert_ptr_null(urc_props_known_set(NULL, &len));
}
END_TEST

// --- merge -----------------------------------------------------------------------------------

START_TEST(merge_union) {
    md_list_t l = {0};
    md_u32(&l, "SYCL/assert used/a", 1);
    md_u32(&l, "SYCL/misc properties/optLevel", 2);
    md_raw(&l, "test metadata", "x", 1);
    urc_props_t *a = md_parse(&l);
    md_u32(&l, "SYCL/assert used/a", 1);            // equal: kept once
    md_u32(&l, "SYCL/misc properties/optLevel", 3); // conflict: the first wins
    md_u32(&l, "SYCL/assert used/b", 1);
    md_raw(&l, "test metadata", "y", 1); // opaque names may repeat
    urc_props_t *b = md_parse(&l);
    const urc_props_t *in[3] = {a, NULL, b};
    urc_props_t *m = NULL;
    ck_assert_ur_ok(urc_props_merge(in, 3, &m));
    urc_props_release(a);
    urc_props_release(b);
    ck_assert_uint_eq(urc_props_count(m), 5);
    ck_assert_uint_eq(urc_props_find(m, URC_SET_MISC_PROPERTIES, "optLevel")->u32, 2);
    ck_assert_ptr_nonnull(urc_props_find(m, URC_SET_ASSERT_USED, "b"));
    ck_assert_uint_eq(urc_props_list(m, URC_SET_ASSERT_USED, NULL, 0), 2);
    ck_assert(urc_props_has_set(m, URC_SET_ASSERT_USED));
    ck_assert_uint_eq(urc_props_at(m, 4)->data[0], 'y');
    urc_props_release(m);
}
END_TEST

START_TEST(merge_nothing) {
    urc_props_t *m = NULL;
    ck_assert_ur_ok(urc_props_merge(NULL, 0, &m));
    ck_assert_uint_eq(urc_props_count(m), 0);
    urc_props_release(m);
    ck_assert_ur(urc_props_merge(NULL, 1, &m), UR_RESULT_ERROR_INVALID_NULL_POINTER);
}
END_TEST

// --- reference counting ----------------------------------------------------------------------

static void *retain_release_loop(void *arg) {
    urc_props_t *props = arg;
    for (int i = 0; i < 100000; ++i) {
        urc_props_retain(props);
        urc_props_release(props);
    }
    return NULL;
}

START_TEST(refcount_across_threads) {
    md_list_t l = {0};
    md_u32(&l, "SYCL/assert used/a", 1);
    urc_props_t *props = md_parse(&l);
    pthread_t t[4];
    for (int i = 0; i < 4; ++i)
        pthread_create(&t[i], NULL, retain_release_loop, props);
    for (int i = 0; i < 4; ++i)
        pthread_join(t[i], NULL);
    ck_assert_ptr_nonnull(urc_props_find(props, URC_SET_ASSERT_USED, "a"));
    ck_assert_ptr_eq(urc_props_retain(props), props);
    urc_props_release(props);
    urc_props_release(props);
    urc_props_release(NULL);
}
END_TEST

static Suite *props_suite(void) {
    Suite *s = suite_create("props");
    TCase *tc = tcase_create("urc_props_parse");
    tcase_add_test(tc, parse_empty);
    tcase_add_test(tc, parse_null_arguments);
    tcase_add_test(tc, parse_splits_known_sets);
    tcase_add_test(tc, parse_keeps_unknown_and_ur_entries);
    tcase_add_test(tc, parse_values);
    tcase_add_test(tc, parse_bit_count_rounds_up);
    tcase_add_test(tc, parse_owns_its_copy);
    tcase_add_test(tc, parse_accepts_ur_cts_metadata);
    tcase_add_test(tc, parse_accepts_ur_cts_global_id_mapping);
    tcase_add_test(tc, parse_many_entries_hash_lookup);
    tcase_add_test(tc, null_data_with_zero_size_is_empty);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_props_parse_malformed");
    tcase_add_test(tc, malformed_null_name);
    tcase_add_test(tc, malformed_empty_name);
    tcase_add_test(tc, malformed_set_without_property);
    tcase_add_test(tc, malformed_unknown_type);
    tcase_add_test(tc, malformed_truncated_header);
    tcase_add_test(tc, malformed_empty_byte_array);
    tcase_add_test(tc, malformed_bits_exceed_size);
    tcase_add_test(tc, malformed_bits_too_few_for_size);
    tcase_add_test(tc, malformed_zero_bits_outside_global_id_mapping);
    tcase_add_test(tc, malformed_huge_bit_count);
    tcase_add_test(tc, malformed_null_data);
    tcase_add_test(tc, malformed_null_string);
    tcase_add_test(tc, malformed_unterminated_string);
    tcase_add_test(tc, malformed_duplicate_name);
    tcase_add_test(tc, malformed_duplicate_ur_tag);
    tcase_add_test(tc, malformed_u32_arrays);
    tcase_add_test(tc, malformed_u32_array_bit_count);
    tcase_add_test(tc, malformed_u64_array);
    tcase_add_test(tc, malformed_message_truncates_safely);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_props_find");
    tcase_add_test(tc, list_in_input_order);
    tcase_add_test(tc, u32_array_views);
    tcase_add_test(tc, text_of_strings_and_byte_arrays);
    tcase_add_test(tc, global_symbol_mapping);
    tcase_add_test(tc, known_set_prefix);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_props_merge");
    tcase_add_test(tc, merge_union);
    tcase_add_test(tc, merge_nothing);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc_props_retain");
    tcase_add_test(tc, refcount_across_threads);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return urc_test_run(props_suite());
}
