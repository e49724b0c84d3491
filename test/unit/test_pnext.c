// SPDX-License-Identifier: MIT
// common/core/pnext: extension chains end, loops and endless chains are refused.
#include "core/pnext.h"
#include "urc_test.h"

static ur_base_properties_t chain[URC_PNEXT_MAX_CHAIN + 1];

static void link_chain(size_t n) {
    for (size_t i = 0; i < n; ++i)
        chain[i].pNext = i + 1 < n ? &chain[i + 1] : NULL;
}

START_TEST(ended_chains_pass) {
    ck_assert_ur(urc_pnext_check(NULL), UR_RESULT_SUCCESS);
    link_chain(1);
    ck_assert_ur(urc_pnext_check(chain), UR_RESULT_SUCCESS);
    link_chain(2);
    ck_assert_ur(urc_pnext_check(chain), UR_RESULT_SUCCESS);
    link_chain(URC_PNEXT_MAX_CHAIN);
    ck_assert_ur(urc_pnext_check(chain), UR_RESULT_SUCCESS);
}
END_TEST

START_TEST(loops_are_invalid_values) {
    link_chain(1);
    chain[0].pNext = &chain[0]; // a struct naming itself
    ck_assert_ur(urc_pnext_check(chain), UR_RESULT_ERROR_INVALID_VALUE);
    link_chain(2);
    chain[1].pNext = &chain[0];
    ck_assert_ur(urc_pnext_check(chain), UR_RESULT_ERROR_INVALID_VALUE);
    // A tail that leads into a loop further on.
    for (size_t tail = 0; tail < 8; ++tail)
        for (size_t loop = 1; loop < 9; ++loop) {
            link_chain(tail + loop);
            chain[tail + loop - 1].pNext = &chain[tail];
            ck_assert_ur(urc_pnext_check(chain), UR_RESULT_ERROR_INVALID_VALUE);
        }
}
END_TEST

START_TEST(overlong_chains_are_invalid_values) {
    link_chain(URC_PNEXT_MAX_CHAIN + 1);
    ck_assert_ur(urc_pnext_check(chain), UR_RESULT_ERROR_INVALID_VALUE);
    // A loop longer than the bound ends at the bound.
    chain[URC_PNEXT_MAX_CHAIN].pNext = &chain[0];
    ck_assert_ur(urc_pnext_check(chain), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

int main(void) {
    Suite *s = suite_create("pnext");
    TCase *tc = tcase_create("urc_pnext_check");
    tcase_add_test(tc, ended_chains_pass);
    tcase_add_test(tc, loops_are_invalid_values);
    tcase_add_test(tc, overlong_chains_are_invalid_values);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
