// SPDX-License-Identifier: MIT
// urDeviceGetSelected through the real loader: ONEAPI_DEVICE_SELECTOR strings, valid and
// malformed, against fake topologies. Fake A (OpenCL) has one platform with root devices
// GPU, CPU, GPU, each with two sub-devices of two sub-sub-devices; fake B (CUDA) has two
// platforms of two GPUs with two sub-devices each. Devices are named
// "<fake>:<platform>:<root>[.<sub>[.<subsub>]]".
#include <stdio.h>
#include <string.h>

#include "loader_test.h"

typedef struct selector_case_t {
    const char *selector;  // NULL: unset
    ur_backend_t backend;  // which fake's platform
    uint32_t platform;     // its index
    ur_device_type_t type; // the DeviceType argument
    const char *expected;  // the names, space-separated; NULL: UR_RESULT_ERROR_INVALID_VALUE
    const char *log;       // for malformed selectors: text the loader's error line holds
} selector_case_t;

#define ALL   UR_DEVICE_TYPE_ALL
#define CL    UR_BACKEND_OPENCL
#define CU    UR_BACKEND_CUDA
#define ROOTS "a:0:0 a:0:1 a:0:2"
#define SUBS  "a:0:0.0 a:0:0.1 a:0:1.0 a:0:1.1 a:0:2.0 a:0:2.1"

static const selector_case_t cases[] = {
    // Whole backends and device types.
    {NULL, CL, 0, ALL, ROOTS, NULL},
    {"*:*", CL, 0, ALL, ROOTS, NULL},
    {"opencl:*", CL, 0, ALL, ROOTS, NULL},
    {"opencl:gpu", CL, 0, ALL, "a:0:0 a:0:2", NULL},
    {"opencl:cpu", CL, 0, ALL, "a:0:1", NULL},
    {"opencl:fpga", CL, 0, ALL, "", NULL},
    {"OPENCL:GPU", CL, 0, ALL, "a:0:0 a:0:2", NULL},
    {"opencl:gpu,1", CL, 0, ALL, "a:0:0 a:0:2 a:0:1", NULL},
    {"opencl:*", CL, 0, UR_DEVICE_TYPE_GPU, "a:0:0 a:0:2", NULL},
    {"opencl:0", CL, 0, UR_DEVICE_TYPE_CPU, "", NULL},
    {"opencl:2", CL, 0, UR_DEVICE_TYPE_GPU, "a:0:2", NULL},
    {"opencl:*", CL, 0, UR_DEVICE_TYPE_DEFAULT, ROOTS, NULL},
    // Indices, in the order the filters give them, each device once.
    {"opencl:1", CL, 0, ALL, "a:0:1", NULL},
    {"opencl:2,0", CL, 0, ALL, "a:0:2 a:0:0", NULL},
    {"opencl:0,0", CL, 0, ALL, "a:0:0", NULL},
    {"opencl:7", CL, 0, ALL, "", NULL},
    {"opencl:0;", CL, 0, ALL, "a:0:0", NULL},
    // Sub-devices and sub-sub-devices.
    {"opencl:0.1", CL, 0, ALL, "a:0:0.1", NULL},
    {"opencl:0.*", CL, 0, ALL, "a:0:0.0 a:0:0.1", NULL},
    {"opencl:*.*", CL, 0, ALL, SUBS, NULL},
    {"opencl:1.0.1", CL, 0, ALL, "a:0:1.0.1", NULL},
    {"opencl:1.1.*", CL, 0, ALL, "a:0:1.1.0 a:0:1.1.1", NULL},
    {"opencl:2.*.*", CL, 0, ALL, "a:0:2.0.0 a:0:2.0.1 a:0:2.1.0 a:0:2.1.1", NULL},
    {"opencl:0,0.0,0.0.0", CL, 0, ALL, "a:0:0 a:0:0.0 a:0:0.0.0", NULL},
    {"opencl:*.*;!opencl:0.1", CL, 0, ALL, "a:0:0.0 a:0:1.0 a:0:1.1 a:0:2.0 a:0:2.1", NULL},
    {"opencl:*.*;!opencl:*.*", CL, 0, ALL, "", NULL},
    // Discards, and the accept-all they imply when nothing is accepted anywhere.
    {"!opencl:1", CL, 0, ALL, "a:0:0 a:0:2", NULL},
    {"!opencl:gpu", CL, 0, ALL, "a:0:1", NULL},
    {"!opencl:*", CL, 0, ALL, "", NULL},
    {"opencl:*;!opencl:0", CL, 0, ALL, "a:0:1 a:0:2", NULL},
    {"!opencl:0;opencl:*", CL, 0, ALL, "a:0:1 a:0:2", NULL},
    {"!cuda:*", CL, 0, ALL, ROOTS, NULL},
    {"cuda:*", CL, 0, ALL, "", NULL},
    {"cuda:*;!opencl:0", CL, 0, ALL, "", NULL},
    // Terms are taken in key order ('*' before names), as UR's std::map orders them.
    {"*:0;opencl:2", CL, 0, ALL, "a:0:0 a:0:2", NULL},
    {"opencl:2;*:0", CL, 0, ALL, "a:0:0 a:0:2", NULL},
    // Root indices count across the platforms of one adapter.
    {"cuda:0", CU, 0, ALL, "b:0:0", NULL},
    {"cuda:2", CU, 1, ALL, "b:1:0", NULL},
    {"cuda:0", CU, 1, ALL, "", NULL},
    {"cuda:*", CU, 1, ALL, "b:1:0 b:1:1", NULL},
    {"cuda:3.1", CU, 1, ALL, "b:1:1.1", NULL},
    {"cuda:*.*", CU, 0, ALL, "b:0:0.0 b:0:0.1 b:0:1.0 b:0:1.1", NULL},
    {"cuda:0.0.0", CU, 0, ALL, "", NULL}, // B's sub-devices cannot be partitioned
    // Malformed: INVALID_VALUE and an error line naming the term.
    {"opencl:0;opencl:1", CL, 0, ALL, NULL, "appears twice"},
    {"opencl", CL, 0, ALL, NULL, "'opencl' is not key:value"},
    {"opencl:", CL, 0, ALL, NULL, "term 'opencl:': no device filter"},
    {"foo:*", CL, 0, ALL, NULL, "term 'foo:*': unknown backend 'foo'"},
    {"level_zero_v2:*", CL, 0, ALL, NULL, "unknown backend 'level_zero_v2'"},
    {"cuda:*;foo:0", CL, 0, ALL, NULL, "term 'foo:0'"},
    {"opencl:*.1", CL, 0, ALL, NULL, "term 'opencl:*.1': filter '*.1'"},
    {"opencl:*.", CL, 0, ALL, NULL, "filter '*.': an empty part"},
    {"opencl:0.1.2.3", CL, 0, ALL, NULL, "more than two '.'"},
    {"opencl:gpu.0", CL, 0, ALL, NULL, "a device type has no sub-devices"},
    {"opencl:foo", CL, 0, ALL, NULL, "'foo' is not '*', an index, cpu, gpu or fpga"},
    {"opencl:0.gpu", CL, 0, ALL, NULL, "'gpu' is not '*', an index"},
    {"opencl:-1", CL, 0, ALL, NULL, "'-1'"},
    {"opencl:99999999999", CL, 0, ALL, NULL, "'99999999999'"},
    {"opencl: gpu", CL, 0, ALL, NULL, "' gpu'"},
    {":*", CL, 0, ALL, NULL, "has no key"},
    {"opencl:0,,1", CL, 0, ALL, NULL, "an empty value"},
    {";opencl:0", CL, 0, ALL, NULL, "is not key:value"},
    {"!:*", CL, 0, ALL, NULL, "unknown backend ''"},
    {"opencl:0:1", CL, 0, ALL, NULL, "must be quoted"},
};
#define CASE_COUNT ((int)(sizeof cases / sizeof cases[0]))

static void configure_fakes(fake_api_t *a, fake_api_t *b) {
    ck_assert(fake_api_open(FAKE_A, a));
    ck_assert(fake_api_open(FAKE_B, b));
    fake_topology_t ta = {1, 3, {UR_DEVICE_TYPE_GPU, UR_DEVICE_TYPE_CPU, UR_DEVICE_TYPE_GPU}, 2, 2};
    fake_topology_t tb = {2, 2, {UR_DEVICE_TYPE_GPU, UR_DEVICE_TYPE_GPU}, 2, 0};
    a->configure(&ta);
    b->configure(&tb);
}

static ur_platform_handle_t platform_of(ur_backend_t backend, uint32_t index) {
    ur_adapter_handle_t adapters[2];
    ck_assert_uint_eq(lt_adapters(adapters, 2), 2);
    for (int i = 0; i < 2; ++i) {
        ur_backend_t b;
        ck_assert_ur_ok(urAdapterGetInfo(adapters[i], UR_ADAPTER_INFO_BACKEND, sizeof b, &b, NULL));
        ur_platform_handle_t platforms[FAKE_MAX_PLATFORMS];
        if (b == backend && lt_platforms(adapters[i], platforms, FAKE_MAX_PLATFORMS) > index)
            return platforms[index];
    }
    ck_abort_msg("no platform %u of backend %d", index, backend);
    return NULL;
}

static void append_name(char *out, size_t size, ur_device_handle_t device) {
    char name[64];
    ck_assert_ur_ok(urDeviceGetInfo(device, UR_DEVICE_INFO_NAME, sizeof name, name, NULL));
    size_t n = strlen(out);
    snprintf(out + n, size - n, "%s%s", n ? " " : "", name);
}

START_TEST(selector_string) {
    const selector_case_t *c = &cases[_i];
    char dir[512], log_path[600], spec[700];
    lt_temp_dir(dir, sizeof dir);
    snprintf(log_path, sizeof log_path, "%s/loader.log", dir);
    snprintf(spec, sizeof spec, "level:error;output:file,%s", log_path);
    lt_setenv("UR_LOG_LOADER", spec);
    lt_setenv("ONEAPI_DEVICE_SELECTOR", c->selector);
    lt_setenv("UR_LOADER_PRELOAD_FILTER", "0"); // FORCE_LOAD skips it anyway
    fake_api_t a, b;
    configure_fakes(&a, &b);
    lt_init_forced(FAKE_A "," FAKE_B);
    ur_platform_handle_t platform = platform_of(c->backend, c->platform);

    uint32_t count = 12345;
    ur_result_t result = urDeviceGetSelected(platform, c->type, 0, NULL, &count);
    if (c->expected == NULL) {
        ck_assert_msg(result == UR_RESULT_ERROR_INVALID_VALUE, "\"%s\": %s, not INVALID_VALUE",
                      c->selector, urc_test_result_name(result));
        ck_assert_ur_ok(urLoaderTearDown()); // flushes nothing, but closes the adapters
        const char *log = lt_read_file(log_path);
        ck_assert_msg(strstr(log, "<LOADER>[ERROR]: ONEAPI_DEVICE_SELECTOR=") != NULL &&
                          strstr(log, c->log) != NULL,
                      "\"%s\": the log does not say \"%s\": %s", c->selector, c->log, log);
        return;
    }
    ck_assert_msg(result == UR_RESULT_SUCCESS, "\"%s\": %s", c->selector,
                  urc_test_result_name(result));
    ur_device_handle_t devices[32];
    ck_assert_uint_le(count, 32);
    uint32_t again = 0;
    if (count > 0)
        ck_assert_ur_ok(urDeviceGetSelected(platform, c->type, count, devices, &again));
    ck_assert_uint_eq(again, count);
    char names[1024] = "";
    for (uint32_t i = 0; i < count; ++i)
        append_name(names, sizeof names, devices[i]);
    ck_assert_msg(strcmp(names, c->expected) == 0, "\"%s\" selected \"%s\", expected \"%s\"",
                  c->selector ? c->selector : "(unset)", names, c->expected);
    // Every device the loader obtained went back, except those handed to us.
    ck_assert_int_eq(a.outstanding_refs() + b.outstanding_refs(), (int32_t)count);
    for (uint32_t i = 0; i < count; ++i)
        ck_assert_ur_ok(urDeviceRelease(devices[i]));
    ck_assert_int_eq(a.outstanding_refs() + b.outstanding_refs(), 0);
}
END_TEST

START_TEST(fewer_entries_than_selected) {
    fake_api_t a, b;
    configure_fakes(&a, &b);
    lt_init_forced(FAKE_A "," FAKE_B);
    ur_platform_handle_t platform = platform_of(CL, 0);
    ur_device_handle_t device = NULL;
    uint32_t count = 0;
    // UR's loader answers ADAPTER_SPECIFIC and the number copied here; urc follows the spec.
    ck_assert_ur_ok(urDeviceGetSelected(platform, ALL, 1, &device, &count));
    ck_assert_uint_eq(count, 3);
    ck_assert_ptr_nonnull(device);
    ck_assert_int_eq(a.outstanding_refs(), 1);
    ck_assert_ur_ok(urDeviceGetSelected(platform, ALL, 1, &device, NULL));
    ck_assert_int_eq(a.outstanding_refs(), 2);
    ck_assert_ur_ok(urDeviceRelease(device));
    ck_assert_ur_ok(urDeviceRelease(device));
    ck_assert_int_eq(a.outstanding_refs(), 0);
}
END_TEST

START_TEST(same_handles_every_time) {
    lt_setenv("ONEAPI_DEVICE_SELECTOR", "opencl:*.*");
    fake_api_t a, b;
    configure_fakes(&a, &b);
    lt_init_forced(FAKE_A "," FAKE_B);
    ur_platform_handle_t platform = platform_of(CL, 0);
    ur_device_handle_t first[6], second[6];
    ck_assert_ur_ok(urDeviceGetSelected(platform, ALL, 6, first, NULL));
    ck_assert_ur_ok(urDeviceGetSelected(platform, ALL, 6, second, NULL));
    ck_assert_mem_eq(first, second, sizeof first);
    for (int i = 0; i < 6; ++i) {
        ck_assert_ur_ok(urDeviceRelease(first[i]));
        ck_assert_ur_ok(urDeviceRelease(second[i]));
    }
}
END_TEST

// UR reads the selector at every call; harnesses narrow it, or break it, with setenv between
// calls and expect the next call to see the new value.
START_TEST(selector_read_at_each_call) {
    lt_setenv("ONEAPI_DEVICE_SELECTOR", "opencl:*");
    fake_api_t a, b;
    configure_fakes(&a, &b);
    lt_init_forced(FAKE_A "," FAKE_B);
    ur_platform_handle_t platform = platform_of(CL, 0);
    uint32_t count = 0;
    ck_assert_ur_ok(urDeviceGetSelected(platform, ALL, 0, NULL, &count));
    ck_assert_uint_eq(count, 3);
    lt_setenv("ONEAPI_DEVICE_SELECTOR", "opencl:1");
    ck_assert_ur_ok(urDeviceGetSelected(platform, ALL, 0, NULL, &count));
    ck_assert_uint_eq(count, 1);
    lt_setenv("ONEAPI_DEVICE_SELECTOR", "opencl:*.1.");
    ck_assert_int_eq(urDeviceGetSelected(platform, ALL, 0, NULL, &count),
                     UR_RESULT_ERROR_INVALID_VALUE);
    lt_setenv("ONEAPI_DEVICE_SELECTOR", "cuda:*");
    ck_assert_ur_ok(urDeviceGetSelected(platform, ALL, 0, NULL, &count));
    ck_assert_uint_eq(count, 0);
    unsetenv("ONEAPI_DEVICE_SELECTOR");
    ck_assert_ur_ok(urDeviceGetSelected(platform, ALL, 0, NULL, &count));
    ck_assert_uint_eq(count, 3);
    ck_assert_int_eq(a.outstanding_refs() + b.outstanding_refs(), 0);
}
END_TEST

int main(void) {
    Suite *s = suite_create("urDeviceGetSelected");
    TCase *tc = lt_tcase("ONEAPI_DEVICE_SELECTOR");
    tcase_add_loop_test(tc, selector_string, 0, CASE_COUNT);
    suite_add_tcase(s, tc);
    tc = lt_tcase("outputs");
    tcase_add_test(tc, fewer_entries_than_selected);
    tcase_add_test(tc, same_handles_every_time);
    tcase_add_test(tc, selector_read_at_each_call);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
