// SPDX-License-Identifier: MIT
// common/memory/mapping: a buffer's live mappings.
#include "memory/mapping.h"
#include "urc_test.h"

static char buffer[64];

START_TEST(in_place_mapping_is_not_staged) {
    urc_mapping_t *m = urc_mapping_new(8, 16, UR_MAP_FLAG_WRITE, buffer + 8, false);
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_eq(m->ptr, buffer + 8);
    ck_assert(!m->staged && !m->owned);
    ck_assert(!urc_mapping_reads_in(m));
    ck_assert(!urc_mapping_writes_back(m));
    urc_mapping_free(m);
}
END_TEST

START_TEST(staging_buffer_is_owned) {
    urc_mapping_t *m = urc_mapping_new(0, 0, UR_MAP_FLAG_READ, NULL, false);
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_nonnull(m->ptr);
    ck_assert(m->staged && m->owned);
    ck_assert(urc_mapping_reads_in(m));
    ck_assert(!urc_mapping_writes_back(m));
    urc_mapping_free(m);
}
END_TEST

START_TEST(callers_copy_is_staged_not_owned) {
    urc_mapping_t *m = urc_mapping_new(0, 8, UR_MAP_FLAG_WRITE_INVALIDATE_REGION, buffer, true);
    ck_assert(m->staged && !m->owned);
    ck_assert(!urc_mapping_reads_in(m));
    ck_assert(urc_mapping_writes_back(m));
    urc_mapping_free(m);
}
END_TEST

START_TEST(take_finds_by_pointer) {
    urc_mappings_t list;
    urc_mappings_init(&list);
    urc_mapping_t *a = urc_mapping_new(0, 8, UR_MAP_FLAG_READ, buffer, false);
    urc_mapping_t *b = urc_mapping_new(8, 8, UR_MAP_FLAG_READ, NULL, false);
    urc_mappings_add(&list, a);
    urc_mappings_add(&list, b);
    ck_assert_ptr_null(urc_mappings_take(&list, buffer + 1));
    ck_assert_ptr_eq(urc_mappings_take(&list, buffer), a);
    ck_assert_ptr_null(urc_mappings_take(&list, buffer));
    urc_mapping_free(a);
    // b, never unmapped, goes with the list (its staging buffer too: LSan would tell).
    urc_mappings_destroy(&list);
}
END_TEST

int main(void) {
    Suite *s = suite_create("mapping");
    TCase *tc = tcase_create("urc_mapping_new");
    tcase_add_test(tc, in_place_mapping_is_not_staged);
    tcase_add_test(tc, staging_buffer_is_owned);
    tcase_add_test(tc, callers_copy_is_staged_not_owned);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_mappings_take");
    tcase_add_test(tc, take_finds_by_pointer);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
