// SPDX-License-Identifier: MIT
// tools/device-config: SYCL base64, .prop files, the YAML configuration, the filter and the
// urc-aspect-filter command against the fixtures in tools/device-config/test/.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device_config.h"
#include "filter.h"
#include "prop_file.h"
#include "program/props.h"
#include "urc_test.h"

// --- sycl_base64_decode ----------------------------------------------------------------------

START_TEST(base64_worked_example) {
    // anchor-behaviour §4.1: 104 bits, then "intel_gpu_pvc".
    const char *text = "oBAAAAAAAAQauRXZs91ZwV3XwZ3Y";
    uint8_t out[32];
    bool ok;
    size_t n = sycl_base64_decode(text, strlen(text), out, sizeof(out), &ok);
    ck_assert(ok);
    ck_assert_uint_eq(n, 21);
    ck_assert_uint_eq(out[0], 0x68);
    for (int i = 1; i < 8; ++i)
        ck_assert_uint_eq(out[i], 0);
    ck_assert_mem_eq(out + 8, "intel_gpu_pvc", 13);
}
END_TEST

START_TEST(base64_lsb_first_packing) {
    // "BA" is c0 = 1, c1 = 0: the first byte is c0 | c1 << 6 = 1, not RFC 4648's 0x04.
    uint8_t out[4];
    bool ok;
    ck_assert_uint_eq(sycl_base64_decode("BA", 2, out, sizeof(out), &ok), 1);
    ck_assert(ok);
    ck_assert_uint_eq(out[0], 1);
    // "/" is 63: bits 0-5 of byte 0; "B" then adds bit 6.
    ck_assert_uint_eq(sycl_base64_decode("/B", 2, out, sizeof(out), &ok), 1);
    ck_assert_uint_eq(out[0], 0x7f);
}
END_TEST

START_TEST(base64_rejects_other_characters) {
    uint8_t out[4];
    bool ok;
    sycl_base64_decode("AB=C", 4, out, sizeof(out), &ok);
    ck_assert(!ok);
    // Counting without a buffer.
    ck_assert_uint_eq(sycl_base64_decode("AAAAAAAA", 8, NULL, 0, &ok), 6);
    ck_assert(ok);
}
END_TEST

// --- prop_file_parse -------------------------------------------------------------------------

static void expect_prop_error(const char *text, const char *want) {
    prop_file_t file;
    char err[256] = "";
    ck_assert(!prop_file_parse(text, strlen(text), &file, err, sizeof(err)));
    ck_assert_str_eq(err, want);
}

START_TEST(prop_file_sets_and_types) {
    const char *text = "[SYCL/kernel names]\r\n_ZTS1K=1|1\n\n[SYCL/device requirements]\n"
                       "aspects=2|gAAAAAAAAAQBAAAA\nreqd_sub_group_size=1|4294967295\n"
                       "odd=name=1|7\n";
    prop_file_t file;
    char err[256] = "";
    ck_assert_msg(prop_file_parse(text, strlen(text), &file, err, sizeof(err)), "%s", err);
    ck_assert_uint_eq(file.count, 4);
    ck_assert_str_eq(file.entries[0].pName, "SYCL/kernel names/_ZTS1K");
    ck_assert_str_eq(file.entries[1].pName, "SYCL/device requirements/aspects");
    ck_assert_int_eq(file.entries[1].type, UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY);
    ck_assert_uint_eq(file.entries[1].size, 12);
    ck_assert_uint_eq(file.entries[2].value.data32, UINT32_MAX);
    ck_assert_str_eq(file.entries[3].pName, "SYCL/device requirements/odd=name");
    // The result is what urc_props_parse expects.
    urc_props_t *props = NULL;
    ck_assert_ur_ok(urc_props_parse(file.entries, file.count, &props, err, sizeof(err)));
    const urc_prop_t *p = urc_props_find(props, URC_SET_DEVICE_REQUIREMENTS, "aspects");
    ck_assert_uint_eq(urc_prop_u32_at(p->data, 0), 5);
    urc_props_release(props);
    prop_file_free(&file);
}
END_TEST

START_TEST(prop_file_errors) {
    expect_prop_error("a=1|1\n", "line 1: a property before any '[<set name>]' line");
    expect_prop_error("[S]\nno separator\n", "line 2: expected '<key>=<type>|<value>'");
    expect_prop_error("[S]\n\n=1|1\n", "line 3: an empty property name");
    expect_prop_error("[S]\na=1|x\n", "line 2: a type 1 value must be a decimal uint32");
    expect_prop_error("[S]\na=1|4294967296\n", "line 2: a type 1 value must be a decimal uint32");
    expect_prop_error("[S]\na=2|ab$\n", "line 2: a type 2 value must be SYCL base64");
    expect_prop_error("[S]\na=3|abc\n", "line 2: unknown property type (1: uint32, 2: byte array)");
    expect_prop_error("[S\n", "line 1: a set line must be '[<set name>]'");
}
END_TEST

// --- device_config_parse ---------------------------------------------------------------------

static void expect_config_error(const char *text, const char *want) {
    device_config_t config;
    char err[256] = "";
    ck_assert(!device_config_parse(text, strlen(text), "cfg.yaml", &config, err, sizeof(err)));
    ck_assert_str_eq(err, want);
}

START_TEST(config_names_and_numbers) {
    device_config_t config;
    char err[256] = "";
    ck_assert_msg(
        device_config_load(URC_DC_FIXTURES "/test-devices.yaml", &config, err, sizeof(err)), "%s",
        err);
    ck_assert_uint_eq(config.count, 3);
    const device_entry_t *e = device_config_find(&config, "no_fp64");
    ck_assert_ptr_nonnull(e);
    ck_assert(urc_caps_has_aspect(&e->caps, URC_ASPECT_CPU));
    ck_assert(urc_caps_has_aspect(&e->caps, URC_ASPECT_FP16));
    ck_assert(!urc_caps_has_aspect(&e->caps, URC_ASPECT_FP64));
    ck_assert_uint_eq(e->caps.num_sub_group_sizes, 2);
    ck_assert_uint_eq(e->caps.sub_group_sizes[1], 16);
    e = device_config_find(&config, "gpu_all");
    ck_assert(urc_caps_has_aspect(&e->caps, URC_ASPECT_FP64));
    ck_assert(urc_caps_has_aspect(&e->caps, 34));
    e = device_config_find(&config, "bare");
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->caps.num_sub_group_sizes, 0);
    ck_assert_ptr_null(device_config_find(&config, "missing"));
    device_config_free(&config);
}
END_TEST

START_TEST(config_default_file) {
    device_config_t config;
    char err[256] = "";
    ck_assert_msg(device_config_load(URC_DC_DEFAULT_CONFIG, &config, err, sizeof(err)), "%s", err);
    const char *targets[] = {"x86_64", "nvidia_gpu_sm_90", "urc_ze_sim"};
    for (int i = 0; i < 3; ++i)
        ck_assert_msg(device_config_find(&config, targets[i]) != NULL, "%s", targets[i]);
    const device_entry_t *e = device_config_find(&config, "nvidia_gpu_sm_90");
    ck_assert_uint_eq(e->caps.num_sub_group_sizes, 1);
    ck_assert_uint_eq(e->caps.sub_group_sizes[0], 32);
    device_config_free(&config);
}
END_TEST

START_TEST(config_errors) {
    expect_config_error("t:\n  aspects: [fp64, warp_drive]\n",
                        "cfg.yaml:2: 'warp_drive' is not a SYCL aspect name or number");
    expect_config_error("t:\n  sub-group-sizes: [8, -1]\n", "cfg.yaml:2: '-1' is not a sub-group "
                                                            "size");
    expect_config_error("t:\n  aspects: fp64\n", "cfg.yaml:2: 'aspects' must be a list");
    expect_config_error("- a\n- b\n", "cfg.yaml:1: the configuration must map target names to "
                                      "entries");
    expect_config_error("t:\n  aspects: [1]\nt:\n  aspects: [2]\n",
                        "cfg.yaml:3: target 't' appears twice");
    expect_config_error("t: [1, 2]\n", "cfg.yaml:1: the entry of 't' must be a mapping");
    expect_config_error("t:\n  aspects: [1\n", "cfg.yaml:3: did not find expected ',' or ']'");
}
END_TEST

START_TEST(config_empty_file) {
    device_config_t config;
    char err[64];
    ck_assert(device_config_parse("", 0, "empty.yaml", &config, err, sizeof(err)));
    ck_assert_uint_eq(config.count, 0);
    device_config_free(&config);
}
END_TEST

// --- filter ----------------------------------------------------------------------------------

static urc_device_caps_t target_caps(const char *config_path, const char *target) {
    device_config_t config;
    char err[256] = "";
    ck_assert_msg(device_config_load(config_path, &config, err, sizeof(err)), "%s", err);
    const device_entry_t *e = device_config_find(&config, target);
    ck_assert_ptr_nonnull(e);
    urc_device_caps_t caps = e->caps;
    device_config_free(&config);
    return caps;
}

static void expect_verdict(const char *prop, const urc_device_caps_t *caps, filter_verdict_t want,
                           const char *why_want) {
    char why[512] = "";
    ck_assert_int_eq(filter_image(prop, caps, why, sizeof(why)), want);
    if (why_want != NULL)
        ck_assert_str_eq(why, why_want);
}

START_TEST(filter_image_verdicts) {
    ck_assert_int_eq(chdir(URC_DC_FIXTURES), 0);
    urc_device_caps_t caps = target_caps("test-devices.yaml", "no_fp64");
    expect_verdict("plain.prop", &caps, FILTER_KEEP, NULL);
    expect_verdict("fp16_sg16.prop", &caps, FILTER_KEEP, NULL);
    expect_verdict("fixed_cpu.prop", &caps, FILTER_KEEP, NULL);
    expect_verdict("fp64.prop", &caps, FILTER_DROP,
                   "fp64.prop: Kernel uses optional feature corresponding to 'aspect::fp64' but "
                   "device does not support this aspect.");
    expect_verdict("sg64.prop", &caps, FILTER_DROP,
                   "sg64.prop: Kernel has a required sub-group size of '64' but device does not "
                   "support this sub-group size.");
    caps = target_caps("test-devices.yaml", "gpu_all");
    expect_verdict("fixed_cpu.prop", &caps, FILTER_DROP,
                   "fixed_cpu.prop: Kernel was compiled with '-fsycl-fixed-targets=cpu' but was "
                   "submitted to a different device.");
    expect_verdict("cuda_barrier.prop", &caps, FILTER_KEEP, NULL);
}
END_TEST

START_TEST(filter_image_errors) {
    ck_assert_int_eq(chdir(URC_DC_FIXTURES), 0);
    urc_device_caps_t caps = target_caps("test-devices.yaml", "gpu_all");
    expect_verdict("bad_type.prop", &caps, FILTER_ERROR,
                   "bad_type.prop: line 2: unknown property type (1: uint32, 2: byte array)");
    expect_verdict("bad_array.prop", &caps, FILTER_ERROR,
                   "bad_array.prop: metadata entry 0 ('SYCL/device requirements/aspects'): a "
                   "payload of 48 bits is not a whole number of uint32 values");
    expect_verdict("missing.prop", &caps, FILTER_ERROR, "missing.prop: No such file or directory");
}
END_TEST

// Runs filter_text over `text` for a target and returns what it wrote (caller frees).
static char *filter_to_string(const char *text, const char *config, const char *target,
                              bool expect_ok, char *err, size_t err_size) {
    urc_device_caps_t caps = target_caps(config, target);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    bool ok = filter_text(text, strlen(text), &caps, f, NULL, err, err_size);
    fclose(f);
    ck_assert(ok == expect_ok);
    return out;
}

static char *read_fixture(const char *name) {
    FILE *f = fopen(name, "rb");
    ck_assert_ptr_nonnull(f);
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

START_TEST(filter_table_per_target) {
    ck_assert_int_eq(chdir(URC_DC_FIXTURES), 0);
    const char *table = read_fixture("table.txt");
    const char *header = "[Code|Properties|Symbols]\n";
    struct {
        const char *config, *target, *rows;
    } cases[] = {
        {"test-devices.yaml", "no_fp64",
         "fp16_sg16.spv|fp16_sg16.prop|fp16_sg16.sym\nfixed_cpu.spv|fixed_cpu.prop|fixed_cpu.sym\n"
         "plain.spv|plain.prop|plain.sym\n"},
        {"test-devices.yaml", "gpu_all",
         "fp64.spv|fp64.prop|fp64.sym\nfp16_sg16.spv|fp16_sg16.prop|fp16_sg16.sym\n"
         "sg64.spv|sg64.prop|sg64.sym\nplain.spv|plain.prop|plain.sym\n"
         "cuda_barrier.spv|cuda_barrier.prop|cuda_barrier.sym\npvc.spv|pvc.prop|pvc.sym\n"},
        {URC_DC_DEFAULT_CONFIG, "x86_64",
         "fp64.spv|fp64.prop|fp64.sym\nfp16_sg16.spv|fp16_sg16.prop|fp16_sg16.sym\n"
         "sg64.spv|sg64.prop|sg64.sym\nfixed_cpu.spv|fixed_cpu.prop|fixed_cpu.sym\n"
         "plain.spv|plain.prop|plain.sym\n"},
        {URC_DC_DEFAULT_CONFIG, "nvidia_gpu_sm_90",
         "fp64.spv|fp64.prop|fp64.sym\nplain.spv|plain.prop|plain.sym\n"
         "cuda_barrier.spv|cuda_barrier.prop|cuda_barrier.sym\npvc.spv|pvc.prop|pvc.sym\n"},
        {URC_DC_DEFAULT_CONFIG, "urc_ze_sim",
         "fp64.spv|fp64.prop|fp64.sym\nfp16_sg16.spv|fp16_sg16.prop|fp16_sg16.sym\n"
         "plain.spv|plain.prop|plain.sym\npvc.spv|pvc.prop|pvc.sym\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        char err[256] = "";
        char *out =
            filter_to_string(table, cases[i].config, cases[i].target, true, err, sizeof(err));
        char want[1024];
        snprintf(want, sizeof(want), "%s%s", header, cases[i].rows);
        ck_assert_msg(strcmp(out, want) == 0, "target %s:\n%s", cases[i].target, out);
        free(out);
    }
}
END_TEST

START_TEST(filter_plain_list) {
    ck_assert_int_eq(chdir(URC_DC_FIXTURES), 0);
    char err[256] = "";
    char *out = filter_to_string("fp64.prop\n\nplain.prop\nsg64.prop\n", "test-devices.yaml",
                                 "no_fp64", true, err, sizeof(err));
    ck_assert_str_eq(out, "plain.prop\n");
    free(out);
}
END_TEST

START_TEST(filter_table_without_properties) {
    char err[256] = "";
    const char *table = "[Code|Symbols]\na.spv|a.sym\n";
    char *out = filter_to_string(table, URC_DC_FIXTURES "/test-devices.yaml", "no_fp64", true, err,
                                 sizeof(err));
    ck_assert_str_eq(out, table);
    free(out);
}
END_TEST

START_TEST(filter_table_errors) {
    ck_assert_int_eq(chdir(URC_DC_FIXTURES), 0);
    char err[256] = "";
    char *out = filter_to_string("[Code|Properties]\nplain.spv|plain.prop\nbroken\n",
                                 "test-devices.yaml", "no_fp64", false, err, sizeof(err));
    ck_assert_str_eq(err, "line 3: 1 columns where the header has 2");
    free(out);
    out = filter_to_string("[Code|Properties]\nx.spv|bad_type.prop\n", "test-devices.yaml",
                           "no_fp64", false, err, sizeof(err));
    ck_assert_str_eq(err, "bad_type.prop: line 2: unknown property type (1: uint32, 2: byte "
                          "array)");
    free(out);
}
END_TEST

// --- the command -----------------------------------------------------------------------------

// Runs urc-aspect-filter in the fixtures folder; returns its exit status and its stdout.
static int run_tool(const char *args, char *out, size_t size) {
    char cmd[1024];
    snprintf(cmd, sizeof(cmd), "cd '%s' && { '%s' %s ; } 2>&1", URC_DC_FIXTURES, URC_DC_TOOL, args);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

START_TEST(tool_filters_table) {
    char out[2048];
    ck_assert_int_eq(run_tool("-target=nvidia_gpu_sm_90 -device-config-file=" URC_DC_DEFAULT_CONFIG
                              " table.txt",
                              out, sizeof(out)),
                     0);
    ck_assert_str_eq(out, "[Code|Properties|Symbols]\nfp64.spv|fp64.prop|fp64.sym\n"
                          "plain.spv|plain.prop|plain.sym\n"
                          "cuda_barrier.spv|cuda_barrier.prop|cuda_barrier.sym\n"
                          "pvc.spv|pvc.prop|pvc.sym\n");
}
END_TEST

START_TEST(tool_prop_arguments_and_stdin) {
    char out[2048];
    ck_assert_int_eq(run_tool("-target=no_fp64 -device-config-file=test-devices.yaml "
                              "fp64.prop plain.prop fixed_cpu.prop",
                              out, sizeof(out)),
                     0);
    ck_assert_str_eq(out, "plain.prop\nfixed_cpu.prop\n");
    ck_assert_int_eq(run_tool("--target=no_fp64 --device-config-file=test-devices.yaml - "
                              "< table.txt",
                              out, sizeof(out)),
                     0);
    ck_assert_str_eq(out, "[Code|Properties|Symbols]\n"
                          "fp16_sg16.spv|fp16_sg16.prop|fp16_sg16.sym\n"
                          "fixed_cpu.spv|fixed_cpu.prop|fixed_cpu.sym\n"
                          "plain.spv|plain.prop|plain.sym\n");
    // -v reports each dropped image on stderr.
    ck_assert_int_eq(run_tool("-target=gpu_all -device-config-file=test-devices.yaml -v table.txt "
                              "2>&1 >/dev/null",
                              out, sizeof(out)),
                     0);
    ck_assert_str_eq(out, "dropped fixed_cpu.prop: Kernel was compiled with "
                          "'-fsycl-fixed-targets=cpu' but was submitted to a different device.\n");
}
END_TEST

START_TEST(tool_unknown_target) {
    char out[2048];
    ck_assert_int_eq(run_tool("-target=sm_1000 -device-config-file=test-devices.yaml table.txt",
                              out, sizeof(out)),
                     1);
    ck_assert_str_eq(out, "urc-aspect-filter: target 'sm_1000' is not in test-devices.yaml (it "
                          "has: no_fp64 gpu_all bare)\n");
}
END_TEST

START_TEST(tool_usage_errors) {
    char out[2048];
    ck_assert_int_eq(run_tool("table.txt", out, sizeof(out)), 2);
    ck_assert_int_eq(run_tool("-target=x86_64 -bogus", out, sizeof(out)), 2);
    ck_assert_int_eq(run_tool("-target=x86_64 -device-config-file=nope.yaml", out, sizeof(out)), 1);
    ck_assert_str_eq(out, "urc-aspect-filter: nope.yaml: No such file or directory\n");
}
END_TEST

static Suite *device_config_suite(void) {
    Suite *s = suite_create("device_config");
    TCase *tc = tcase_create("sycl_base64_decode");
    tcase_add_test(tc, base64_worked_example);
    tcase_add_test(tc, base64_lsb_first_packing);
    tcase_add_test(tc, base64_rejects_other_characters);
    suite_add_tcase(s, tc);

    tc = tcase_create("prop_file_parse");
    tcase_add_test(tc, prop_file_sets_and_types);
    tcase_add_test(tc, prop_file_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("device_config_parse");
    tcase_add_test(tc, config_names_and_numbers);
    tcase_add_test(tc, config_default_file);
    tcase_add_test(tc, config_errors);
    tcase_add_test(tc, config_empty_file);
    suite_add_tcase(s, tc);

    tc = tcase_create("filter");
    tcase_add_test(tc, filter_image_verdicts);
    tcase_add_test(tc, filter_image_errors);
    tcase_add_test(tc, filter_table_per_target);
    tcase_add_test(tc, filter_plain_list);
    tcase_add_test(tc, filter_table_without_properties);
    tcase_add_test(tc, filter_table_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("urc-aspect-filter");
    tcase_add_test(tc, tool_filters_table);
    tcase_add_test(tc, tool_prop_arguments_and_stdin);
    tcase_add_test(tc, tool_unknown_target);
    tcase_add_test(tc, tool_usage_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return urc_test_run(device_config_suite());
}
