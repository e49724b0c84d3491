// SPDX-License-Identifier: MIT
// The ABI test: every size, alignment, offset and enumerator value in urc's generated headers
// must equal the fact measured from UR's own headers at snapshot 578c2a84, and every fact must
// have a counterpart here.
#include <stdio.h>
#include <string.h>

#include "abi_values.h"
#include "ur_ddi.h"
#include "urc_test.h"

typedef struct fact_t {
    char label[160];
    long long value;
    int matched;
} fact_t;

static fact_t facts[4096];
static size_t fact_count;

static void load_facts(void) {
    FILE *f = fopen(URC_ABI_FACTS, "r");
    ck_assert_msg(f != NULL, "cannot open %s", URC_ABI_FACTS);
    char line[256];
    fact_count = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        ck_assert_uint_lt(fact_count, sizeof facts / sizeof facts[0]);
        fact_t *ft = &facts[fact_count++];
        ck_assert_int_eq(sscanf(line, "%159s %lld", ft->label, &ft->value), 2);
        ft->matched = 0;
    }
    fclose(f);
}

static fact_t *find_fact(const char *label) {
    for (size_t i = 0; i < fact_count; ++i)
        if (strcmp(facts[i].label, label) == 0)
            return &facts[i];
    return NULL;
}

START_TEST(dditable_is_1928_bytes) {
    ck_assert_uint_eq(sizeof(ur_dditable_t), 1928);
    ck_assert_uint_eq(offsetof(ur_dditable_t, Enqueue), 744);
    ck_assert_uint_eq(offsetof(ur_dditable_t, DeviceExp), 1920);
}
END_TEST

START_TEST(every_value_matches_ur) {
    load_facts();
    int mismatches = 0;
    for (size_t i = 0; i < abi_value_count; ++i) {
        fact_t *ft = find_fact(abi_values[i].label);
        if (ft == NULL) {
            fprintf(stderr, "urc declares %s, which UR does not\n", abi_values[i].label);
            ++mismatches;
            continue;
        }
        ft->matched = 1;
        if (ft->value != abi_values[i].value) {
            fprintf(stderr, "%s: urc %lld, UR %lld\n", ft->label, abi_values[i].value, ft->value);
            ++mismatches;
        }
    }
    ck_assert_int_eq(mismatches, 0);
}
END_TEST

START_TEST(every_ur_fact_is_declared) {
    load_facts();
    for (size_t i = 0; i < abi_value_count; ++i) {
        fact_t *ft = find_fact(abi_values[i].label);
        if (ft != NULL)
            ft->matched = 1;
    }
    int missing = 0;
    for (size_t i = 0; i < fact_count; ++i) {
        if (!facts[i].matched) {
            fprintf(stderr, "UR has %s, urc does not declare it\n", facts[i].label);
            ++missing;
        }
    }
    ck_assert_int_eq(missing, 0);
}
END_TEST

START_TEST(result_codes_have_ur_values) {
    ck_assert_int_eq(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 44);
    ck_assert_int_eq(UR_RESULT_ERROR_INVALID_NULL_HANDLE, 46);
    ck_assert_int_eq(UR_RESULT_ERROR_GRAPH_INTERNAL_EVENT, 77);
    ck_assert_int_eq(UR_RESULT_ERROR_UNKNOWN, 0x7ffffffe);
    ck_assert_int_eq(UR_API_VERSION_CURRENT, 0xC);
}
END_TEST

int main(void) {
    Suite *s = suite_create("abi");
    TCase *tc = tcase_create("layout");
    tcase_add_test(tc, dditable_is_1928_bytes);
    tcase_add_test(tc, every_value_matches_ur);
    tcase_add_test(tc, every_ur_fact_is_declared);
    tcase_add_test(tc, result_codes_have_ur_values);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
