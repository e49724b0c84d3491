// SPDX-License-Identifier: MIT
// common/memory/vm_map: the record of reservations and mapped pieces. Addresses are numbers
// here: the record never reads through them.
#include <stdint.h>

#include "urc_test.h"
#include "ipc/mem_export.h"
#include "memory/vm_map.h"

#define G     ((uintptr_t)1 << 21)
#define AT(n) ((void *)((uintptr_t)0x7f0000000000 + (uintptr_t)(n)*G))

START_TEST(free_refused_while_mapped) {
    bool known = false;
    ck_assert_ur(urc_vm_reserve_note(AT(0), 4 * G), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_vm_map_claim(AT(1), 2 * G, &known), UR_RESULT_SUCCESS);
    ck_assert(known);
    ck_assert_ur(urc_vm_free_claim(AT(0), 4 * G, &known), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_vm_unmap_claim(AT(1), 2 * G, &known), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_vm_free_claim(AT(0), 4 * G, &known), UR_RESULT_SUCCESS);
    ck_assert(known);
    // Gone: a second free is the driver's to answer.
    ck_assert_ur(urc_vm_free_claim(AT(0), 4 * G, &known), UR_RESULT_SUCCESS);
    ck_assert(!known);
}
END_TEST

START_TEST(unmap_twice_and_overlapping_maps_refused) {
    bool known = false;
    ck_assert_ur(urc_vm_reserve_note(AT(10), 4 * G), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_vm_map_claim(AT(10), G, &known), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_vm_map_claim(AT(10), 2 * G, &known), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_vm_unmap_claim(AT(10), G, &known), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_vm_unmap_claim(AT(10), G, &known), UR_RESULT_ERROR_INVALID_VALUE);
    // Outside every reservation: the driver's.
    ck_assert_ur(urc_vm_unmap_claim(AT(100), G, &known), UR_RESULT_SUCCESS);
    ck_assert(!known);
    ck_assert_ur(urc_vm_free_claim(AT(10), 4 * G, &known), UR_RESULT_SUCCESS);
}
END_TEST

START_TEST(pieces_side_by_side_are_one_run) {
    bool known = false;
    const void *base = NULL;
    size_t size = 0;
    ck_assert_ur(urc_vm_reserve_note(AT(20), 4 * G), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_vm_map_claim(AT(20), G, &known), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_vm_map_claim(AT(22), G, &known), UR_RESULT_SUCCESS);
    ck_assert(urc_vm_mapped_run((char *)AT(20) + 5, &base, &size));
    ck_assert_ptr_eq(base, AT(20));
    ck_assert_uint_eq(size, G);
    ck_assert(!urc_vm_mapped_run(AT(21), &base, &size)); // the hole
    ck_assert(urc_vm_holds(AT(21)));
    ck_assert_ur(urc_vm_map_claim(AT(21), G, &known), UR_RESULT_SUCCESS); // fills it
    ck_assert(urc_vm_mapped_run(AT(22), &base, &size));
    ck_assert_ptr_eq(base, AT(20));
    ck_assert_uint_eq(size, 3 * G);
    // Unmapping the middle splits the run; a failed map given back leaves it as it was.
    ck_assert_ur(urc_vm_unmap_claim(AT(21), G, &known), UR_RESULT_SUCCESS);
    ck_assert(urc_vm_mapped_run(AT(22), &base, &size));
    ck_assert_ptr_eq(base, AT(22));
    ck_assert_uint_eq(size, G);
    ck_assert_ur(urc_vm_map_claim(AT(23), G, &known), UR_RESULT_SUCCESS);
    urc_vm_unmap_note(AT(23), G);
    ck_assert(urc_vm_mapped_run(AT(22), &base, &size));
    ck_assert_uint_eq(size, G);
    ck_assert_ur(urc_vm_unmap_claim(AT(20), G, &known), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_vm_unmap_claim(AT(22), G, &known), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_vm_free_claim(AT(20), 4 * G, &known), UR_RESULT_SUCCESS);
    ck_assert(!urc_vm_holds(AT(21)));
}
END_TEST

START_TEST(usm_free_refuses_virtual_and_exportable_memory) {
    ck_assert_ur(urc_vm_reserve_note(AT(30), 2 * G), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_usm_free_not_virtual(AT(30)), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urc_usm_free_not_virtual((char *)AT(31) + 7), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urc_usm_free_not_virtual(AT(32)), UR_RESULT_SUCCESS);
    bool known = false;
    ck_assert_ur(urc_vm_free_claim(AT(30), 2 * G, &known), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_usm_free_not_virtual(AT(30)), UR_RESULT_SUCCESS);
    urc_mem_export_t r = {AT(40), 4096, NULL, NULL, UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, 0, 0};
    ck_assert_ur(urc_mem_export_add(&r), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_usm_free_not_virtual((char *)AT(40) + 100),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urc_usm_free_not_virtual((char *)AT(40) + 4096), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_mem_export_find(NULL, NULL, AT(40), true, &r), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_usm_free_not_virtual(AT(40)), UR_RESULT_SUCCESS);
}
END_TEST

int main(void) {
    Suite *s = suite_create("vm_map");
    TCase *tc = tcase_create("urc_vm");
    tcase_add_test(tc, free_refused_while_mapped);
    tcase_add_test(tc, unmap_twice_and_overlapping_maps_refused);
    tcase_add_test(tc, pieces_side_by_side_are_one_run);
    tcase_add_test(tc, usm_free_refuses_virtual_and_exportable_memory);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
