// SPDX-License-Identifier: MIT
// urAdapter*, urPlatform* and urDevice* of the Level Zero adapter over the simulated driver.
#include <string.h>

#include "l0t.h"

START_TEST(adapter_backend_is_level_zero) {
    ur_backend_t backend = UR_BACKEND_UNKNOWN;
    ck_assert_ur_ok(
        urAdapterGetInfo(T.adapter, UR_ADAPTER_INFO_BACKEND, sizeof backend, &backend, NULL));
    ck_assert_int_eq(backend, UR_BACKEND_LEVEL_ZERO);
}
END_TEST

Suite *suite(void) {
    Suite *s = suite_create("level_zero_platform");
    TCase *tc = l0t_tcase("urAdapterGetInfo");
    tcase_add_test(tc, adapter_backend_is_level_zero);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return l0t_main(suite());
}
