// SPDX-License-Identifier: MIT
// common/env/kvparse: UR's list ("a,b") and map ("k:v1,v2;k2:v3") value grammars.
#include <string.h>

#include "env/kvparse.h"
#include "urc_test.h"

static char err[256];

// The list as "a|b|c", or "!" when it does not parse.
static const char *list(const char *text) {
    static char out[512];
    urc_kv_list_t l;
    if (!urc_kv_parse_list(text, &l, err, sizeof err))
        return "!";
    out[0] = '\0';
    for (size_t i = 0; i < l.count; ++i) {
        strcat(out, i ? "|" : "");
        strcat(out, l.items[i]);
    }
    urc_kv_list_free(&l);
    return out;
}

// The map as "k=a,b k2=c" in key order of appearance, or "!" when it does not parse.
static const char *map(const char *text, urc_kv_options_t opt) {
    static char out[512];
    urc_kv_map_t m;
    if (!urc_kv_parse_map(text, opt, &m, err, sizeof err))
        return "!";
    out[0] = '\0';
    for (size_t i = 0; i < m.count; ++i) {
        strcat(out, i ? " " : "");
        strcat(out, m.entries[i].key);
        strcat(out, "=");
        for (size_t j = 0; j < m.entries[i].count; ++j) {
            strcat(out, j ? "," : "");
            strcat(out, m.entries[i].values[j]);
        }
    }
    urc_kv_map_free(&m);
    return out;
}

static const urc_kv_options_t strict = {.reject_empty = true};

START_TEST(list_values) {
    ck_assert_str_eq(list("a"), "a");
    ck_assert_str_eq(list("a,b,c"), "a|b|c");
    ck_assert_str_eq(list("/x/libA.so,/y/libB.so"), "/x/libA.so|/y/libB.so");
    ck_assert_str_eq(list("a,"), "a"); // a trailing comma is not an element
    ck_assert_str_eq(list(""), "");
    ck_assert_str_eq(list("'c:/x',\"a;b\""), "c:/x|a;b");
    ck_assert_str_eq(list("' x '"), " x ");
    ck_assert_str_eq(list("'a"), "'a"); // an unmatched quote is not a quote
}
END_TEST

START_TEST(list_errors) {
    ck_assert_str_eq(list(","), "!");
    ck_assert_str_eq(list("a,,b"), "!");
    ck_assert_str_eq(err, "an empty value");
    ck_assert_str_eq(list(",a"), "!");
    ck_assert_str_eq(list("c:/x"), "!");
    ck_assert_str_eq(err, "'c:/x' holds ':' and must be quoted");
    ck_assert_str_eq(list("a;b"), "!");
}
END_TEST

START_TEST(map_values) {
    ck_assert_str_eq(map("level:debug", strict), "level=debug");
    ck_assert_str_eq(map("level:debug;output:file,/tmp/x", strict),
                     "level=debug output=file,/tmp/x");
    ck_assert_str_eq(map("output:file,'/a:b'", strict), "output=file,/a:b");
    ck_assert_str_eq(map("k:a,;", strict), "k=a");
    ck_assert_str_eq(map("", strict), "");
    urc_kv_options_t loose = {.reject_empty = false};
    ck_assert_str_eq(map("opencl:", loose), "opencl=");
    urc_kv_options_t lower = {.lower = true};
    ck_assert_str_eq(map("OpenCL:GPU", lower), "opencl=GPU");
    urc_kv_options_t dup = {.allow_duplicate = true};
    ck_assert_str_eq(map("a:1;b:2;a:3", dup), "a=1,3 b=2");
}
END_TEST

START_TEST(map_errors) {
    ck_assert_str_eq(map("level", strict), "!");
    ck_assert_str_eq(err, "'level' is not key:value");
    ck_assert_str_eq(map(":x", strict), "!");
    ck_assert_str_eq(err, "':x' has no key");
    ck_assert_str_eq(map("level:", strict), "!");
    ck_assert_str_eq(err, "'level:' has no value");
    ck_assert_str_eq(map("a:1;a:2", strict), "!");
    ck_assert_str_eq(err, "key 'a' appears twice");
    urc_kv_options_t lower = {.lower = true};
    ck_assert_str_eq(map("A:1;a:2", lower), "!");
    ck_assert_str_eq(map("a:1;;b:2", strict), "!");
    ck_assert_str_eq(map(";a:1", strict), "!");
    ck_assert_str_eq(map("a:1,,2", strict), "!");
    ck_assert_str_eq(map("a:x:y", strict), "!");
    ck_assert_str_eq(err, "'x:y' holds ':' and must be quoted");
}
END_TEST

int main(void) {
    Suite *s = suite_create("kvparse");
    TCase *tc = tcase_create("urc_kv_parse_list");
    tcase_add_test(tc, list_values);
    tcase_add_test(tc, list_errors);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_kv_parse_map");
    tcase_add_test(tc, map_values);
    tcase_add_test(tc, map_errors);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
