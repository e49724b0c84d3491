// SPDX-License-Identifier: MIT
// common/env/selector: ONEAPI_DEVICE_SELECTOR parsed as a pure function, filter matching, and
// the load-time pre-filter decision.
#include <stdio.h>
#include <string.h>

#include "env/selector.h"
#include "urc_test.h"

static char err[400];

// A parsed selector written back as "key:filter,filter;..." with each filter as
// "<level>/<type>/<root>.<sub>.<subsub>" ('*' for any), or "!" + the error.
static const char *show(const char *text) {
    static char out[1024];
    urc_ods_t ods;
    if (!urc_ods_parse(text, &ods, err, sizeof err)) {
        snprintf(out, sizeof out, "!%s", err);
        return out;
    }
    out[0] = '\0';
    for (size_t t = 0; t < ods.count; ++t) {
        const urc_ods_term_t *term = &ods.terms[t];
        size_t n = strlen(out);
        snprintf(out + n, sizeof out - n, "%s%s:", t ? ";" : "", term->key);
        for (size_t i = 0; i < term->count; ++i) {
            const urc_ods_filter_t *f = &term->filters[i];
            char idx[3][12];
            const uint32_t v[3] = {f->root, f->sub, f->subsub};
            for (int k = 0; k < 3; ++k) {
                if (v[k] == URC_ODS_ANY)
                    snprintf(idx[k], sizeof idx[k], "*");
                else
                    snprintf(idx[k], sizeof idx[k], "%u", v[k]);
            }
            n = strlen(out);
            snprintf(out + n, sizeof out - n, "%s%d/%d/%s.%s.%s", i ? "," : "", (int)f->level,
                     (int)f->type, idx[0], idx[1], idx[2]);
        }
    }
    urc_ods_free(&ods);
    return out;
}

START_TEST(parse_forms) {
    ck_assert_str_eq(show(NULL), "*:0/2/*.*.*"); // unset reads as "*:*"
    ck_assert_str_eq(show("opencl:*"), "opencl:0/2/*.*.*");
    ck_assert_str_eq(show("opencl:gpu,CPU,Fpga"), "opencl:0/3/*.*.*,0/4/*.*.*,0/5/*.*.*");
    ck_assert_str_eq(show("cuda:3"), "cuda:0/2/3.*.*");
    ck_assert_str_eq(show("cuda:3.1,3.*,*.*"), "cuda:1/2/3.1.*,1/2/3.*.*,1/2/*.*.*");
    ck_assert_str_eq(show("cuda:1.2.3,1.2.*,1.*.*,*.*.*"),
                     "cuda:2/2/1.2.3,2/2/1.2.*,2/2/1.*.*,2/2/*.*.*");
    ck_assert_str_eq(show("!Level_Zero:0"), "!level_zero:0/2/0.*.*");
    ck_assert_str_eq(show("hip:0;native_cpu:0;offload:0"),
                     "hip:0/2/0.*.*;native_cpu:0/2/0.*.*;offload:0/2/0.*.*");
    ck_assert_str_eq(show("cuda:4294967294"), "cuda:0/2/4294967294.*.*");
}
END_TEST

START_TEST(parse_orders_terms_by_key) {
    // UR keeps the terms in a std::map, so '!' terms come first, then '*', then names.
    ck_assert_str_eq(show("opencl:1;*:0;!cuda:*"), "!cuda:0/2/*.*.*;*:0/2/0.*.*;opencl:0/2/1.*.*");
}
END_TEST

START_TEST(parse_errors) {
    static const char *const bad[][2] = {
        {"", "no terms"},
        {"opencl", "'opencl' is not key:value"},
        {"opencl:", "term 'opencl:': no device filter after ':'"},
        {"opencl:0;OPENCL:1", "key 'opencl' appears twice"},
        {"foo:0", "term 'foo:0': unknown backend 'foo'"},
        {"level_zero_v2:0", "unknown backend 'level_zero_v2'"},
        {"opencl:*.1", "filter '*.1': only '*' may follow a '*'"},
        {"opencl:*.*.1", "only '*' may follow a '*'"},
        {"opencl:1.*.2", "only '*' may follow a '*'"},
        {"opencl:*.", "filter '*.': an empty part"},
        {"opencl:.1", "an empty part"},
        {"opencl:1..2", "an empty part"},
        {"opencl:1.2.3.4", "more than two '.'"},
        {"opencl:gpu.*", "a device type has no sub-devices"},
        {"opencl:0.gpu", "'gpu' is not '*', an index"},
        {"opencl:foo", "'foo' is not '*', an index, cpu, gpu or fpga"},
        {"opencl:4294967295", "'4294967295' is not"},
        {"opencl:+1", "'+1' is not"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        const char *got = show(bad[i][0]);
        ck_assert_msg(got[0] == '!' && strstr(got, bad[i][1]) != NULL,
                      "\"%s\" gave \"%s\", expected an error with \"%s\"", bad[i][0], got,
                      bad[i][1]);
    }
}
END_TEST

START_TEST(filter_matching) {
    urc_ods_t ods;
    ck_assert(urc_ods_parse("opencl:gpu,2,1.*,1.0.1,*.*", &ods, err, sizeof err));
    const urc_ods_filter_t *f = ods.terms[0].filters;
    const uint32_t any = URC_ODS_ANY;
    ck_assert(urc_ods_filter_matches(&f[0], UR_DEVICE_TYPE_GPU, 5, any, any));
    ck_assert(!urc_ods_filter_matches(&f[0], UR_DEVICE_TYPE_CPU, 5, any, any));
    ck_assert(urc_ods_filter_matches(&f[1], UR_DEVICE_TYPE_CPU, 2, any, any));
    ck_assert(!urc_ods_filter_matches(&f[1], UR_DEVICE_TYPE_CPU, 3, any, any));
    ck_assert(urc_ods_filter_matches(&f[2], UR_DEVICE_TYPE_CPU, 1, 7, any));
    ck_assert(!urc_ods_filter_matches(&f[2], UR_DEVICE_TYPE_CPU, 2, 0, any));
    ck_assert(urc_ods_filter_matches(&f[3], UR_DEVICE_TYPE_CPU, 1, 0, 1));
    ck_assert(!urc_ods_filter_matches(&f[3], UR_DEVICE_TYPE_CPU, 1, 1, 1)); // UR ignores the sub
    ck_assert(!urc_ods_filter_matches(&f[3], UR_DEVICE_TYPE_CPU, 1, 0, 0));
    ck_assert(urc_ods_filter_matches(&f[4], UR_DEVICE_TYPE_FPGA, 9, 9, any));
    ck_assert(urc_ods_term_applies(&ods.terms[0], UR_BACKEND_OPENCL));
    ck_assert(!urc_ods_term_applies(&ods.terms[0], UR_BACKEND_CUDA));
    urc_ods_free(&ods);
}
END_TEST

// Would the pre-filter load an adapter for `backend` whose devices are GPUs and CPUs?
static bool wanted(const char *selector, ur_backend_t backend) {
    static const ur_device_type_t types[] = {UR_DEVICE_TYPE_GPU, UR_DEVICE_TYPE_CPU};
    urc_ods_t ods;
    ck_assert_msg(urc_ods_parse(selector, &ods, err, sizeof err), "%s: %s", selector, err);
    bool w = urc_ods_backend_wanted(&ods, backend, types, 2);
    urc_ods_free(&ods);
    return w;
}

START_TEST(prefilter_decision) {
    ck_assert(wanted("*:*", UR_BACKEND_CUDA));
    ck_assert(wanted("cuda:*", UR_BACKEND_CUDA));
    ck_assert(!wanted("cuda:*", UR_BACKEND_OPENCL));
    ck_assert(wanted("!cuda:*", UR_BACKEND_OPENCL)); // only discards: "*:*" is implied
    ck_assert(!wanted("!cuda:*", UR_BACKEND_CUDA));
    ck_assert(wanted("!cuda:gpu", UR_BACKEND_CUDA)); // its CPUs may still be picked
    ck_assert(!wanted("!cuda:gpu,cpu", UR_BACKEND_CUDA));
    ck_assert(wanted("!cuda:0", UR_BACKEND_CUDA));
    ck_assert(wanted("!cuda:*.*", UR_BACKEND_CUDA));
    ck_assert(wanted("cuda:fpga,3", UR_BACKEND_CUDA));
    ck_assert(!wanted("cuda:fpga", UR_BACKEND_CUDA));
    ck_assert(wanted("*:cpu", UR_BACKEND_LEVEL_ZERO));
    ck_assert(!wanted("!*:*;*:*", UR_BACKEND_OPENCL));
}
END_TEST

START_TEST(backend_names) {
    ck_assert_str_eq(urc_ods_backend_name(UR_BACKEND_LEVEL_ZERO), "level_zero");
    ck_assert_str_eq(urc_ods_backend_name(UR_BACKEND_OFFLOAD), "offload");
    ck_assert_str_eq(urc_ods_backend_name(UR_BACKEND_UNKNOWN), "*");
    ck_assert_ptr_null(urc_ods_backend_name((ur_backend_t)77));
}
END_TEST

int main(void) {
    Suite *s = suite_create("selector");
    TCase *tc = tcase_create("urc_ods_parse");
    tcase_add_test(tc, parse_forms);
    tcase_add_test(tc, parse_orders_terms_by_key);
    tcase_add_test(tc, parse_errors);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_ods_filter_matches");
    tcase_add_test(tc, filter_matching);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_ods_backend_wanted");
    tcase_add_test(tc, prefilter_decision);
    tcase_add_test(tc, backend_names);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
