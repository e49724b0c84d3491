// SPDX-License-Identifier: MIT
#include "urc_test.h"

#include <stdio.h>
#include <string.h>

#include "core/enum_names.h"

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

TCase *urc_test_tcase(const char *name, void (*setup)(void), void (*teardown)(void)) {
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    return tc;
}

int urc_test_skip(Suite *suite, const char *why) {
    fprintf(stderr, "%s: skipped\n", why);
    srunner_free(srunner_create(suite)); // frees the suite and its test cases
    return URC_TEST_SKIP;
}

void *urc_test_read_file(const char *dir, const char *file, size_t *size) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *data = malloc(n > 0 ? (size_t)n : 1);
    if (data != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

void urc_test_add_cases(Suite *suite, TCase *(*make)(const char *name),
                        const urc_test_case_t *cases, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        TCase *tc = make(cases[i].name);
        for (size_t j = 0; j < 8 && cases[i].tests[j] != NULL; ++j)
            tcase_add_test(tc, cases[i].tests[j]);
        suite_add_tcase(suite, tc);
    }
}

ur_exp_kernel_arg_properties_t urc_test_arg_pointer(uint32_t index, const void *ptr) {
    ur_exp_kernel_arg_properties_t a;
    memset(&a, 0, sizeof a);
    a.stype = UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES;
    a.type = UR_EXP_KERNEL_ARG_TYPE_POINTER;
    a.index = index;
    a.size = sizeof(void *);
    a.value.pointer = ptr;
    return a;
}

ur_exp_kernel_arg_properties_t urc_test_arg_value(uint32_t index, const void *value, size_t size) {
    ur_exp_kernel_arg_properties_t a;
    memset(&a, 0, sizeof a);
    a.stype = UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES;
    a.type = UR_EXP_KERNEL_ARG_TYPE_VALUE;
    a.index = index;
    a.size = size;
    a.value.value = value;
    return a;
}

ur_exp_kernel_arg_properties_t urc_test_arg_local(uint32_t index, size_t size) {
    ur_exp_kernel_arg_properties_t a;
    memset(&a, 0, sizeof a);
    a.stype = UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES;
    a.type = UR_EXP_KERNEL_ARG_TYPE_LOCAL;
    a.index = index;
    a.size = size;
    return a;
}

ur_exp_command_buffer_update_kernel_launch_desc_t
urc_test_update_of(ur_exp_command_buffer_command_handle_t cmd) {
    ur_exp_command_buffer_update_kernel_launch_desc_t u;
    memset(&u, 0, sizeof u);
    u.stype = UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_KERNEL_LAUNCH_DESC;
    u.hCommand = cmd;
    u.newWorkDim = 1;
    return u;
}

ur_exp_command_buffer_update_value_arg_desc_t urc_test_update_value(uint32_t index, size_t size,
                                                                    const void *value) {
    ur_exp_command_buffer_update_value_arg_desc_t v = {
        UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_VALUE_ARG_DESC, NULL, index, size, NULL, value};
    return v;
}

ur_exp_image_copy_region_t urc_test_copy_region(size_t sx, size_t sy, size_t sz, size_t dx,
                                                size_t dy, size_t dz, size_t w, size_t h,
                                                size_t d) {
    ur_exp_image_copy_region_t r = {
        UR_STRUCTURE_TYPE_EXP_IMAGE_COPY_REGION, NULL, {sx, sy, sz}, {dx, dy, dz}, {w, h, d}};
    return r;
}
