// SPDX-License-Identifier: MIT
// urc's loader exports exactly the urPrint* functions UR's loader exports at snapshot
// 578c2a84 (test/abi/ur_print_exports.txt): each resolves in the built library, and the
// generated export map names no other printer.
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "urc_test.h"

static char names[512][96];
static size_t name_count;

static void load_names(void) {
    FILE *f = fopen(URC_PRINT_FACTS, "r");
    ck_assert_msg(f != NULL, "cannot open %s", URC_PRINT_FACTS);
    char line[160];
    name_count = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        ck_assert_uint_lt(name_count, sizeof names / sizeof names[0]);
        ck_assert_int_eq(sscanf(line, "%95s", names[name_count]), 1);
        ++name_count;
    }
    fclose(f);
}

static int listed(const char *name) {
    for (size_t i = 0; i < name_count; ++i)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

START_TEST(every_ur_printer_resolves) {
    load_names();
    ck_assert_uint_eq(name_count, 409);
    void *lib = dlopen(URC_LOADER_PATH, RTLD_NOW | RTLD_LOCAL);
    ck_assert_msg(lib != NULL, "dlopen %s: %s", URC_LOADER_PATH, dlerror());
    int missing = 0;
    for (size_t i = 0; i < name_count; ++i) {
        if (dlsym(lib, names[i]) == NULL) {
            fprintf(stderr, "libur_loader.so.0 lacks %s\n", names[i]);
            ++missing;
        }
    }
    dlclose(lib);
    ck_assert_int_eq(missing, 0);
}
END_TEST

START_TEST(no_printer_beyond_urs) {
    load_names();
    FILE *f = fopen(URC_LOADER_MAP, "r");
    ck_assert_msg(f != NULL, "cannot open %s", URC_LOADER_MAP);
    char line[256];
    size_t printers = 0;
    int extra = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        char name[128];
        if (sscanf(line, " %127[A-Za-z0-9_];", name) != 1 || strncmp(name, "urPrint", 7) != 0)
            continue;
        ++printers;
        if (!listed(name)) {
            fprintf(stderr, "urc exports %s, which UR does not\n", name);
            ++extra;
        }
    }
    fclose(f);
    ck_assert_int_eq(extra, 0);
    ck_assert_uint_eq(printers, name_count);
}
END_TEST

int main(void) {
    Suite *s = suite_create("print_exports");
    TCase *tc = tcase_create("exports");
    tcase_add_test(tc, every_ur_printer_resolves);
    tcase_add_test(tc, no_printer_beyond_urs);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
