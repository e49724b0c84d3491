// SPDX-License-Identifier: MIT
#include "urc_test.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/enum_names.h"

const char *urc_test_result_name(ur_result_t result) {
    return urc_result_name((int32_t)result);
}

// Temporary folders live in URC_TEST_TMP_ROOT/run-<pid of the process that ran the suite>/:
// Check runs each test in a forked child, and a child that fails or crashes never gets to
// clean up, so the suite's process removes the whole run folder at the end.
static pid_t run_owner;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    if (remove(path) != 0 && errno != ENOENT)
        fprintf(stderr, "urc_test: could not remove %s: %s\n", path, strerror(errno));
    return 0;
}

static void remove_tree(const char *path) {
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

// The build tree's test-tmp/. A build folder carried to another machine (scripts/gpu-check)
// has another path there: then test-tmp/ beside the bin/ folder that holds this program.
static const char *tmp_root(void) {
    static char root[900];
    if (root[0] == '\0') {
        char parent[sizeof root];
        snprintf(parent, sizeof parent, "%s", URC_TEST_TMP_ROOT);
        char *slash = strrchr(parent, '/');
        if (slash != NULL)
            *slash = '\0';
        char exe[sizeof root - sizeof "/test-tmp"];
        ssize_t n = -1;
        if (access(parent, W_OK) != 0)
            n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n > 0) {
            exe[n] = '\0';
            for (int up = 0; up < 2 && (slash = strrchr(exe, '/')) != NULL; ++up)
                *slash = '\0'; // <build>/bin/<program> -> <build>
            snprintf(root, sizeof root, "%s/test-tmp", exe);
        } else {
            snprintf(root, sizeof root, "%s", URC_TEST_TMP_ROOT);
        }
    }
    return root;
}

static void run_folder(char *out, size_t size, pid_t owner) {
    snprintf(out, size, "%s/run-%ld", tmp_root(), (long)owner);
}

static void remove_run_folder(void) {
    // Only the process that made the folder: a forked child inherits the atexit handler.
    if (run_owner == getpid()) {
        char path[1024];
        run_folder(path, sizeof path, run_owner);
        remove_tree(path);
    }
}

void urc_test_temp_dir(char *out, size_t size) {
    char run[1024];
    if (run_owner == 0) { // not under urc_test_run: this process owns its folders
        run_owner = getpid();
        atexit(remove_run_folder);
    }
    run_folder(run, sizeof run, run_owner);
    ck_assert_msg(mkdir(tmp_root(), 0700) == 0 || errno == EEXIST, "mkdir %s: %s", tmp_root(),
                  strerror(errno));
    ck_assert_msg(mkdir(run, 0700) == 0 || errno == EEXIST, "mkdir %s: %s", run, strerror(errno));
    int n = snprintf(out, size, "%s/XXXXXX", run);
    ck_assert_msg(n > 0 && (size_t)n < size, "no room for a temporary folder's path");
    ck_assert_msg(mkdtemp(out) != NULL, "mkdtemp %s: %s", out, strerror(errno));
}

int urc_test_run(Suite *suite) {
    if (run_owner == 0) {
        run_owner = getpid();
        atexit(remove_run_folder);
    }
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    remove_run_folder();
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
