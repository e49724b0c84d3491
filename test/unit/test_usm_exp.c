// SPDX-License-Identifier: MIT
// common/memory/usm_import_peer: the shared checks of host registration and import, and the one
// wording of registered-already / not-registered and peer-access refusals.
#include <stdint.h>

#include "urc_test.h"
#include "memory/usm_import_peer.h"

START_TEST(host_registration_checks) {
    char buf[64] = {0};
    bool ro = true;
    ck_assert_ur(urc_usm_host_register_check(buf, sizeof buf, NULL, &ro), UR_RESULT_SUCCESS);
    ck_assert(!ro);
    ur_exp_usm_host_alloc_register_properties_t props = {
        UR_STRUCTURE_TYPE_EXP_USM_HOST_ALLOC_REGISTER_PROPERTIES, NULL,
        UR_EXP_USM_HOST_ALLOC_REGISTER_FLAG_READ_ONLY};
    ck_assert_ur(urc_usm_host_register_check(buf, sizeof buf, &props, &ro), UR_RESULT_SUCCESS);
    ck_assert(ro);
    props.flags = 0x10;
    ck_assert_ur(urc_usm_host_register_check(buf, sizeof buf, &props, &ro),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_ur(urc_usm_host_register_check(buf, 0, NULL, &ro), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_usm_host_register_check((void *)(UINTPTR_MAX - 8), 16, NULL, &ro),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_usm_import_check(buf, sizeof buf), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_usm_import_check(buf, 0), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_usm_import_check((void *)(UINTPTR_MAX - 8), 16), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_usm_host_registered_already(buf, 0), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_usm_host_not_registered(buf, 0), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_peer_unreachable(0, 2, 0), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur(urc_peer_state_wrong(true, 0), UR_RESULT_ERROR_INVALID_OPERATION);
}
END_TEST

int main(void) {
    Suite *s = suite_create("usm_exp");
    TCase *tc = tcase_create("urc_usm_exp");
    tcase_add_test(tc, host_registration_checks);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
