// SPDX-License-Identifier: MIT
#include "urc_test.h"

#include "enum_names.h"

const char *urc_test_result_name(ur_result_t result) {
    return urc_result_name((int32_t)result);
}

int urc_test_run(Suite *suite) {
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
