// SPDX-License-Identifier: MIT
#include "loader_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lt_clean_env(void) {
    static const char *const names[] = {"UR_ADAPTERS_FORCE_LOAD",
                                        "UR_ADAPTERS_SEARCH_PATH",
                                        "UR_ADAPTERS_DEEP_BIND",
                                        "UR_LOADER_PRELOAD_FILTER",
                                        "UR_ENABLE_LAYERS",
                                        "ONEAPI_DEVICE_SELECTOR",
                                        "UR_LOG_LOADER",
                                        "UR_LOG_OPENCL",
                                        "UR_LOG_CUDA",
                                        "UR_LOG_LEVEL_ZERO",
                                        "UR_SUPPRESS_ERROR_MESSAGE",
                                        "UR_LOG_TRACING",
                                        "URC_TRACE_FILE"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        unsetenv(names[i]);
}

void lt_setenv(const char *name, const char *value) {
    if (value != NULL)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

void lt_init_forced(const char *force_load) {
    lt_setenv("UR_ADAPTERS_FORCE_LOAD", force_load);
    ck_assert_ur_ok(urLoaderInit(0, NULL));
}

void lt_init_two(fake_api_t *a, fake_api_t *b) {
    lt_init_forced(FAKE_A "," FAKE_B);
    ck_assert_msg(fake_api_open(FAKE_A, a), "cannot open %s: %s", FAKE_A, dlerror());
    ck_assert_msg(fake_api_open(FAKE_B, b), "cannot open %s: %s", FAKE_B, dlerror());
}

uint32_t lt_adapters(ur_adapter_handle_t *out, uint32_t max) {
    uint32_t count = 0;
    ck_assert_ur_ok(urAdapterGet(max, out, &count));
    return count < max ? count : max;
}

uint32_t lt_backends(ur_backend_t *out, uint32_t max) {
    ur_adapter_handle_t adapters[8];
    uint32_t n = lt_adapters(adapters, 8);
    for (uint32_t i = 0; i < n && i < max; ++i) {
        ck_assert_ur_ok(
            urAdapterGetInfo(adapters[i], UR_ADAPTER_INFO_BACKEND, sizeof out[i], &out[i], NULL));
        ck_assert_ur_ok(urAdapterRelease(adapters[i]));
    }
    return n < max ? n : max;
}

uint32_t lt_platforms(ur_adapter_handle_t adapter, ur_platform_handle_t *out, uint32_t max) {
    uint32_t count = 0;
    ck_assert_ur_ok(urPlatformGet(adapter, max, out, &count));
    return count < max ? count : max;
}

ur_platform_handle_t lt_platform_of(ur_backend_t backend) {
    ur_adapter_handle_t adapters[8];
    uint32_t n = lt_adapters(adapters, 8);
    ur_platform_handle_t found = NULL;
    for (uint32_t i = 0; i < n; ++i) {
        ur_backend_t b;
        ck_assert_ur_ok(urAdapterGetInfo(adapters[i], UR_ADAPTER_INFO_BACKEND, sizeof b, &b, NULL));
        if (b == backend && found == NULL)
            ck_assert_uint_ge(lt_platforms(adapters[i], &found, 1), 1);
    }
    // The adapters stay referenced: a fake adapter's objects live as long as its library.
    return found;
}

void lt_temp_dir(char *out, size_t size) {
    urc_test_temp_dir(out, size);
}

const char *lt_read_file(const char *path) {
    static char text[16384];
    text[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return text;
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

TCase *lt_tcase(const char *name) {
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, lt_clean_env, NULL);
    return tc;
}
