// SPDX-License-Identifier: MIT
// Finding adapters: UR_ADAPTERS_FORCE_LOAD, UR_ADAPTERS_SEARCH_PATH with the known library
// names, the ONEAPI_DEVICE_SELECTOR pre-filter, and libraries that cannot be used (missing,
// not a library, no getters, a failing getter), which are skipped with a warning naming the
// file while the other adapters keep working.
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader_test.h"

// A temporary folder, and the loader's log (level warning) written into it.
static char dir[512], log_path[700];

static void log_to_file(void) {
    lt_temp_dir(dir, sizeof dir);
    snprintf(log_path, sizeof log_path, "%s/loader.log", dir);
    char spec[800];
    snprintf(spec, sizeof spec, "level:warning;flush:warning;output:file,%s", log_path);
    lt_setenv("UR_LOG_LOADER", spec);
}

static void assert_logged(const char *a, const char *b) {
    const char *log = lt_read_file(log_path);
    const char *line = strstr(log, a);
    ck_assert_msg(line != NULL && strstr(line, b) != NULL,
                  "the loader log has no line with \"%s\" ... \"%s\":\n%s", a, b, log);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

// A folder holding the three known adapter names, each a link to a fake posing as it.
static void make_known_adapters(char *out, size_t size) {
    snprintf(out, size, "%s/adapters", dir);
    ck_assert_int_eq(mkdir(out, 0700), 0);
    static const char *const links[][2] = {{"libur_adapter_cuda.so.0", FAKE_B},
                                           {"libur_adapter_level_zero.so.0", FAKE_C},
                                           {"libur_adapter_opencl.so.0", FAKE_A}};
    for (size_t i = 0; i < 3; ++i) {
        char path[800];
        snprintf(path, sizeof path, "%s/%s", out, links[i][0]);
        ck_assert_int_eq(symlink(links[i][1], path), 0);
    }
}

// The backends loaded, as a string such as "cuda level_zero opencl".
static const char *loaded(void) {
    static char text[128];
    ur_backend_t backends[8];
    uint32_t n = lt_backends(backends, 8);
    text[0] = '\0';
    for (uint32_t i = 0; i < n; ++i) {
        const char *name = backends[i] == UR_BACKEND_CUDA         ? "cuda"
                           : backends[i] == UR_BACKEND_LEVEL_ZERO ? "level_zero"
                           : backends[i] == UR_BACKEND_OPENCL     ? "opencl"
                                                                  : "?";
        size_t len = strlen(text);
        snprintf(text + len, sizeof text - len, "%s%s", len ? " " : "", name);
    }
    return text;
}

START_TEST(force_load_keeps_its_order) {
    lt_init_forced(FAKE_B "," FAKE_C "," FAKE_A);
    ck_assert_str_eq(loaded(), "cuda level_zero opencl");
    ck_assert_ur_ok(urLoaderTearDown());
    lt_init_forced(FAKE_A "," FAKE_C);
    ck_assert_str_eq(loaded(), "opencl level_zero");
}
END_TEST

START_TEST(force_load_missing_file) {
    log_to_file();
    lt_init_forced("/no/such/libur_adapter_x.so," FAKE_A);
    ck_assert_str_eq(loaded(), "opencl");
    assert_logged(
        "<LOADER>[WARNING]: UR_ADAPTERS_FORCE_LOAD: skipping '/no/such/libur_adapter_x.so'",
        "no such file");
}
END_TEST

START_TEST(force_load_not_a_library) {
    log_to_file();
    char path[800], value[1700];
    snprintf(path, sizeof path, "%s/libur_adapter_text.so", dir);
    write_file(path, "not an ELF file\n");
    snprintf(value, sizeof value, "%s,%s", path, FAKE_B);
    lt_init_forced(value);
    ck_assert_str_eq(loaded(), "cuda");
    assert_logged("<LOADER>[WARNING]: skipping adapter '",
                  "libur_adapter_text.so': cannot load it");
}
END_TEST

START_TEST(force_load_static_library) {
    log_to_file();
    char path[800], value[1700];
    snprintf(path, sizeof path, "%s/libur_adapter_x.a", dir);
    write_file(path, "!<arch>\n");
    snprintf(value, sizeof value, "%s,%s", path, FAKE_A);
    lt_init_forced(value);
    ck_assert_str_eq(loaded(), "opencl");
    assert_logged("libur_adapter_x.a'", "a static library");
}
END_TEST

START_TEST(library_without_getters) {
    log_to_file();
    lt_init_forced(NO_GETTERS "," FAKE_A);
    ck_assert_str_eq(loaded(), "opencl");
    assert_logged("skipping adapter '" NO_GETTERS "'",
                  "it exports no urGetAdapterProcAddrTable (not a UR adapter)");
}
END_TEST

START_TEST(getter_that_fails) {
    log_to_file();
    fake_api_t b;
    ck_assert(fake_api_open(FAKE_B, &b));
    b.fail_getter("Queue", UR_RESULT_ERROR_UNSUPPORTED_VERSION);
    lt_init_forced(FAKE_A "," FAKE_B "," FAKE_C);
    ck_assert_str_eq(loaded(), "opencl level_zero");
    assert_logged("skipping adapter '" FAKE_B "'",
                  "urGetQueueProcAddrTable returned UR_RESULT_ERROR_UNSUPPORTED_VERSION");
    // The library the loader gave up on is closed again (only this test still holds it).
    fake_api_close(&b);
    ck_assert_ptr_null(dlopen(FAKE_B, RTLD_NOW | RTLD_NOLOAD));
}
END_TEST

START_TEST(adapter_getter_that_fails) {
    fake_api_t a;
    ck_assert(fake_api_open(FAKE_A, &a));
    a.fail_getter("Adapter", UR_RESULT_ERROR_OUT_OF_RESOURCES);
    lt_init_forced(FAKE_A "," FAKE_B);
    ck_assert_str_eq(loaded(), "cuda");
}
END_TEST

START_TEST(same_library_twice) {
    log_to_file();
    lt_init_forced(FAKE_A "," FAKE_A);
    ck_assert_str_eq(loaded(), "opencl");
    assert_logged("skipping adapter '" FAKE_A "'", "already loaded");
}
END_TEST

START_TEST(malformed_force_load_falls_back) {
    log_to_file();
    char adapters[800];
    make_known_adapters(adapters, sizeof adapters);
    lt_setenv("UR_ADAPTERS_SEARCH_PATH", adapters);
    lt_init_forced(FAKE_A ",," FAKE_B);
    ck_assert_str_eq(loaded(), "cuda level_zero opencl");
    assert_logged("<LOADER>[ERROR]: UR_ADAPTERS_FORCE_LOAD=", "ignored: an empty value");
}
END_TEST

START_TEST(force_load_replaces_search) {
    log_to_file();
    char adapters[800];
    make_known_adapters(adapters, sizeof adapters);
    lt_setenv("UR_ADAPTERS_SEARCH_PATH", adapters);
    lt_init_forced("/no/such/file.so");
    ck_assert_str_eq(loaded(), ""); // set and well formed: nothing else is searched
}
END_TEST

/// The file of the loader this test runs on (the real libur_loader.so.0).
static void own_loader(char *out, size_t size) {
    Dl_info info;
    ck_assert_int_ne(dladdr((void *)urLoaderInit, &info), 0);
    ck_assert_ptr_nonnull(info.dli_fname);
    ck_assert_uint_lt(strlen(info.dli_fname), size);
    strcpy(out, info.dli_fname);
}

START_TEST(force_load_naming_the_loader_falls_back) {
    // What libsycl's environment looks like when it adopts urc's loader: the variable is for
    // the outer loader. This one must not open itself (urAdapterGet would recurse) and finds
    // its adapters through the search path instead.
    log_to_file();
    char adapters[800], self[1024];
    make_known_adapters(adapters, sizeof adapters);
    lt_setenv("UR_ADAPTERS_SEARCH_PATH", adapters);
    own_loader(self, sizeof self);
    lt_init_forced(self);
    ck_assert_str_eq(loaded(), "cuda level_zero opencl");
    assert_logged("<LOADER>[WARNING]: UR_ADAPTERS_FORCE_LOAD=", "names this loader");
}
END_TEST

START_TEST(force_load_naming_a_link_to_the_loader) {
    // Identity, not name: a link elsewhere to the loader's file is the loader too, also when
    // it comes after a real adapter.
    log_to_file();
    char folder[700], self[1024], link[800], value[2000], adapters[800];
    lt_temp_dir(folder, sizeof folder);
    make_known_adapters(adapters, sizeof adapters);
    lt_setenv("UR_ADAPTERS_SEARCH_PATH", adapters);
    own_loader(self, sizeof self);
    snprintf(link, sizeof link, "%s/libur_adapter_other.so", folder);
    ck_assert_int_eq(symlink(self, link), 0);
    snprintf(value, sizeof value, "%s,%s", FAKE_B, link);
    lt_init_forced(value);
    // The whole variable is the outer loader's: not "cuda" (FAKE_B) but the search path's.
    ck_assert_str_eq(loaded(), "cuda level_zero opencl");
    assert_logged("<LOADER>[WARNING]: UR_ADAPTERS_FORCE_LOAD=", "names this loader");
}
END_TEST

START_TEST(search_path_finds_known_names) {
    log_to_file();
    char adapters[800], value[1700];
    make_known_adapters(adapters, sizeof adapters);
    snprintf(value, sizeof value, "/no/such/folder,%s", adapters);
    lt_setenv("UR_ADAPTERS_SEARCH_PATH", value);
    ck_assert_ur_ok(urLoaderInit(0, NULL));
    // Lexicographic by library name, which is UR's load order.
    ck_assert_str_eq(loaded(), "cuda level_zero opencl");
    assert_logged("UR_ADAPTERS_SEARCH_PATH: '/no/such/folder'", "does not exist");
}
END_TEST

START_TEST(search_path_quoted) {
    char adapters[800], value[1700];
    lt_temp_dir(dir, sizeof dir);
    make_known_adapters(adapters, sizeof adapters);
    snprintf(value, sizeof value, "'%s'", adapters);
    lt_setenv("UR_ADAPTERS_SEARCH_PATH", value);
    ck_assert_ur_ok(urLoaderInit(0, NULL));
    ck_assert_str_eq(loaded(), "cuda level_zero opencl");
}
END_TEST

START_TEST(known_adapter_candidates_in_order) {
    // Each known adapter is tried in every search folder, then by bare name, then in the
    // loader's own folder; the debug log shows each attempt.
    lt_temp_dir(dir, sizeof dir);
    snprintf(log_path, sizeof log_path, "%s/loader.log", dir);
    char spec[800], empty[800], loader_dir[PATH_MAX];
    snprintf(spec, sizeof spec, "level:debug;flush:debug;output:file,%s", log_path);
    lt_setenv("UR_LOG_LOADER", spec);
    snprintf(empty, sizeof empty, "%s/empty", dir);
    ck_assert_int_eq(mkdir(empty, 0700), 0);
    lt_setenv("UR_ADAPTERS_SEARCH_PATH", empty);
    lt_setenv("ONEAPI_DEVICE_SELECTOR", "opencl:*"); // only libur_adapter_opencl.so.0
    Dl_info info;
    ck_assert(dladdr((void *)urLoaderInit, &info) != 0);
    ck_assert_ptr_nonnull(realpath(info.dli_fname, loader_dir));
    *strrchr(loader_dir, '/') = '\0';
    ck_assert_ur_ok(urLoaderInit(0, NULL));
    char first[900], second[64], third[PATH_MAX + 64];
    snprintf(first, sizeof first, "'%s/libur_adapter_opencl.so.0'", empty);
    snprintf(second, sizeof second, "'libur_adapter_opencl.so.0'");
    snprintf(third, sizeof third, "adapter '%s/libur_adapter_opencl.so.0'", loader_dir);
    const char *log = lt_read_file(log_path);
    const char *a = strstr(log, first), *b = strstr(log, second), *c = strstr(log, third);
    ck_assert_msg(a != NULL && b != NULL && c != NULL && a < b && b < c,
                  "expected %s, then %s, then %s in:\n%s", first, second, third, log);
    // The others were left out by the pre-filter, and never tried.
    ck_assert_ptr_nonnull(
        strstr(log, "libur_adapter_cuda.so.0 not loaded: ONEAPI_DEVICE_SELECTOR"));
    ck_assert_ptr_null(strstr(log, "'libur_adapter_cuda.so.0'"));
}
END_TEST

// The pre-filter: which of the three known adapters a selector lets the loader open.
typedef struct prefilter_case_t {
    const char *selector;
    const char *filter; // UR_LOADER_PRELOAD_FILTER
    const char *expected;
} prefilter_case_t;

static const prefilter_case_t prefilter_cases[] = {
    {NULL, NULL, "cuda level_zero opencl"},
    {"opencl:*", NULL, "opencl"},
    {"level_zero:*", NULL, "level_zero"},
    {"!level_zero:*", NULL, "cuda opencl"},
    {"cuda:gpu", NULL, "cuda"},
    {"cuda:cpu", NULL, ""},
    {"*:cpu", NULL, "level_zero opencl"},
    {"*:fpga", NULL, "level_zero opencl"},
    {"*:gpu", NULL, "cuda level_zero opencl"},
    {"opencl:0;cuda:1.0", NULL, "cuda opencl"},
    {"!*:*", NULL, ""},
    {"level_zero:*;!*:*", NULL, ""},
    {"!level_zero:0", NULL, "cuda level_zero opencl"}, // an index cannot exclude a backend
    {"!*:gpu", NULL, "level_zero opencl"},
    {"LEVEL_ZERO:GPU", NULL, "level_zero"},
    {"garbage:0", NULL, "cuda level_zero opencl"}, // malformed: load everything
    {":garbage", NULL, "cuda level_zero opencl"},
    {"opencl:*", "0", "cuda level_zero opencl"},
    {"opencl:*", "false", "cuda level_zero opencl"},
    {"opencl:*", "1", "opencl"},
};

START_TEST(prefilter) {
    const prefilter_case_t *c = &prefilter_cases[_i];
    char adapters[800];
    lt_temp_dir(dir, sizeof dir);
    make_known_adapters(adapters, sizeof adapters);
    lt_setenv("UR_ADAPTERS_SEARCH_PATH", adapters);
    lt_setenv("ONEAPI_DEVICE_SELECTOR", c->selector);
    lt_setenv("UR_LOADER_PRELOAD_FILTER", c->filter);
    ck_assert_ur_ok(urLoaderInit(0, NULL));
    ck_assert_msg(strcmp(loaded(), c->expected) == 0,
                  "ONEAPI_DEVICE_SELECTOR=\"%s\" UR_LOADER_PRELOAD_FILTER=%s loaded \"%s\", "
                  "expected \"%s\"",
                  c->selector ? c->selector : "(unset)", c->filter ? c->filter : "(unset)",
                  loaded(), c->expected);
}
END_TEST

START_TEST(prefilter_off_under_force_load) {
    lt_setenv("ONEAPI_DEVICE_SELECTOR", "opencl:*");
    lt_init_forced(FAKE_B "," FAKE_A);
    ck_assert_str_eq(loaded(), "cuda opencl");
}
END_TEST

START_TEST(deep_bind) {
    lt_setenv("UR_ADAPTERS_DEEP_BIND", "1");
    lt_init_forced(FAKE_A "," FAKE_B);
    ck_assert_str_eq(loaded(), "opencl cuda");
}
END_TEST

int main(void) {
    Suite *s = suite_create("adapter discovery");
    TCase *tc = lt_tcase("UR_ADAPTERS_FORCE_LOAD");
    tcase_add_test(tc, force_load_keeps_its_order);
    tcase_add_test(tc, force_load_missing_file);
    tcase_add_test(tc, force_load_not_a_library);
    tcase_add_test(tc, force_load_static_library);
    tcase_add_test(tc, same_library_twice);
    tcase_add_test(tc, malformed_force_load_falls_back);
    tcase_add_test(tc, force_load_replaces_search);
    tcase_add_test(tc, deep_bind);
    tcase_add_test(tc, force_load_naming_the_loader_falls_back);
    tcase_add_test(tc, force_load_naming_a_link_to_the_loader);
    suite_add_tcase(s, tc);
    tc = lt_tcase("unusable libraries");
    tcase_add_test(tc, library_without_getters);
    tcase_add_test(tc, getter_that_fails);
    tcase_add_test(tc, adapter_getter_that_fails);
    suite_add_tcase(s, tc);
    tc = lt_tcase("UR_ADAPTERS_SEARCH_PATH");
    tcase_add_test(tc, search_path_finds_known_names);
    tcase_add_test(tc, search_path_quoted);
    tcase_add_test(tc, known_adapter_candidates_in_order);
    suite_add_tcase(s, tc);
    tc = lt_tcase("pre-filter");
    tcase_add_loop_test(tc, prefilter, 0,
                        (int)(sizeof prefilter_cases / sizeof prefilter_cases[0]));
    tcase_add_test(tc, prefilter_off_under_force_load);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
