// SPDX-License-Identifier: MIT
// urLoaderInit / urLoaderTearDown counting, the loader configuration object, urAdapterGet and
// the adapters' reference counts, through the real loader with the fake adapters.
#include <string.h>

#include "loader_test.h"
#include "ur_ddi.h"

START_TEST(teardown_counts_inits) {
    lt_setenv("UR_ADAPTERS_FORCE_LOAD", FAKE_A);
    for (int i = 0; i < 3; ++i)
        ck_assert_ur_ok(urLoaderInit(0, NULL));
    for (int i = 0; i < 3; ++i)
        ck_assert_ur_ok(urLoaderTearDown());
    ck_assert_ur(urLoaderTearDown(), UR_RESULT_ERROR_UNINITIALIZED);
}
END_TEST

START_TEST(teardown_before_init) {
    ck_assert_ur(urLoaderTearDown(), UR_RESULT_ERROR_UNINITIALIZED);
}
END_TEST

START_TEST(init_checks_device_flags) {
    ck_assert_ur(urLoaderInit(UR_BIT(5), NULL), UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_ur(urLoaderTearDown(), UR_RESULT_ERROR_UNINITIALIZED);
    lt_setenv("UR_ADAPTERS_FORCE_LOAD", FAKE_A);
    ck_assert_ur_ok(urLoaderInit(UR_DEVICE_INIT_FLAG_GPU | UR_DEVICE_INIT_FLAG_CPU |
                                     UR_DEVICE_INIT_FLAG_FPGA | UR_DEVICE_INIT_FLAG_MCA |
                                     UR_DEVICE_INIT_FLAG_VPU,
                                 NULL));
    ck_assert_ur_ok(urLoaderTearDown());
}
END_TEST

START_TEST(adapter_get_needs_init) {
    uint32_t count = 7;
    ck_assert_ur(urAdapterGet(0, NULL, &count), UR_RESULT_ERROR_UNINITIALIZED);
    lt_init_forced(FAKE_A);
    ck_assert_ur_ok(urAdapterGet(0, NULL, &count));
    ck_assert_uint_eq(count, 1);
    ck_assert_ur_ok(urLoaderTearDown());
    ck_assert_ur(urAdapterGet(0, NULL, &count), UR_RESULT_ERROR_UNINITIALIZED);
}
END_TEST

START_TEST(adopted_loader_initialises_on_first_use) {
    // Another loader (libsycl's) adopts this one as an adapter: it asks for the tables, then
    // calls urAdapterGet, never urLoaderInit. The loader initialises itself once.
    lt_setenv("UR_ADAPTERS_FORCE_LOAD", FAKE_A);
    ur_adapter_dditable_t table = {0};
    ck_assert_ur_ok(urGetAdapterProcAddrTable(UR_API_VERSION_CURRENT, &table));
    ck_assert_ptr_eq(table.pfnGet, urAdapterGet);
    uint32_t count = 0;
    ck_assert_ur_ok(table.pfnGet(0, NULL, &count));
    ck_assert_uint_eq(count, 1);
    ur_adapter_handle_t adapter = NULL;
    ck_assert_ur_ok(table.pfnGet(1, &adapter, &count));
    ck_assert_ptr_nonnull(adapter);
    ck_assert_ur_ok(urAdapterRelease(adapter));
    // The environment was read once: a change is not seen, and the outer loader's own
    // urLoaderInit/TearDown pairs (if any) nest on top.
    lt_setenv("UR_ADAPTERS_FORCE_LOAD", FAKE_A "," FAKE_B);
    ck_assert_ur_ok(urLoaderInit(0, NULL));
    ck_assert_ur_ok(urLoaderTearDown());
    ck_assert_ur_ok(urAdapterGet(0, NULL, &count));
    ck_assert_uint_eq(count, 1);
}
END_TEST

START_TEST(getters_after_init_do_not_adopt) {
    // An ordinary client: init, tables, teardown; then urAdapterGet is UNINITIALIZED again.
    lt_init_forced(FAKE_A);
    ur_adapter_dditable_t table = {0};
    ck_assert_ur_ok(urGetAdapterProcAddrTable(UR_API_VERSION_CURRENT, &table));
    ck_assert_ur_ok(urLoaderTearDown());
    uint32_t count = 7;
    ck_assert_ur(table.pfnGet(0, NULL, &count), UR_RESULT_ERROR_UNINITIALIZED);
}
END_TEST

START_TEST(reinit_reads_environment_again) {
    lt_init_forced(FAKE_A);
    ur_backend_t backends[4];
    ck_assert_uint_eq(lt_backends(backends, 4), 1);
    // While initialised, the environment is not read again.
    lt_init_forced(FAKE_A "," FAKE_B);
    ck_assert_uint_eq(lt_backends(backends, 4), 1);
    ck_assert_ur_ok(urLoaderTearDown());
    ck_assert_ur_ok(urLoaderTearDown());
    lt_init_forced(FAKE_B "," FAKE_A);
    ck_assert_uint_eq(lt_backends(backends, 4), 2);
    ck_assert_int_eq(backends[0], UR_BACKEND_CUDA);
    ck_assert_int_eq(backends[1], UR_BACKEND_OPENCL);
    ck_assert_ur_ok(urLoaderTearDown());
}
END_TEST

START_TEST(teardown_unloads_adapters) {
    lt_init_forced(FAKE_A);
    void *lib = dlopen(FAKE_A, RTLD_NOW | RTLD_NOLOAD);
    ck_assert_ptr_nonnull(lib);
    dlclose(lib);
    ck_assert_ur_ok(urLoaderTearDown());
    ck_assert_ptr_null(dlopen(FAKE_A, RTLD_NOW | RTLD_NOLOAD));
}
END_TEST

START_TEST(adapter_get_counts_and_fills) {
    fake_api_t a, b;
    lt_init_two(&a, &b);
    uint32_t count = 0;
    ck_assert_ur_ok(urAdapterGet(0, NULL, &count));
    ck_assert_uint_eq(count, 2);
    ck_assert_uint_eq(a.adapter_refcount() + b.adapter_refcount(), 0); // counting takes none
    ur_adapter_handle_t adapters[3] = {NULL, NULL, NULL};
    ck_assert_ur_ok(urAdapterGet(1, adapters, &count));
    ck_assert_uint_eq(count, 2);
    ck_assert_ptr_nonnull(adapters[0]);
    ck_assert_ptr_null(adapters[1]);
    ck_assert_uint_eq(a.adapter_refcount(), 1);
    ck_assert_uint_eq(b.adapter_refcount(), 0);
    ck_assert_ur_ok(urAdapterGet(3, adapters, NULL));
    ck_assert_ptr_nonnull(adapters[1]);
    ck_assert_ptr_null(adapters[2]);
    ck_assert_ptr_ne(adapters[0], adapters[1]);
}
END_TEST

START_TEST(adapter_reference_counts) {
    fake_api_t a, b;
    lt_init_two(&a, &b);
    ur_adapter_handle_t first, again;
    uint32_t total = 0;
    ck_assert_ur_ok(urAdapterGet(1, &first, &total));
    ck_assert_uint_eq(total, 2);
    ck_assert_ur_ok(urAdapterGet(1, &again, NULL));
    ck_assert_ptr_eq(first, again);
    ck_assert_ur_ok(urAdapterRetain(first));
    uint32_t count = 0;
    ck_assert_ur_ok(
        urAdapterGetInfo(first, UR_ADAPTER_INFO_REFERENCE_COUNT, sizeof count, &count, NULL));
    ck_assert_uint_eq(count, 3);
    ck_assert_uint_eq(a.adapter_refcount(), 3);
    for (int i = 0; i < 3; ++i)
        ck_assert_ur_ok(urAdapterRelease(first));
    ck_assert_uint_eq(a.adapter_refcount(), 0);
    ck_assert_uint_eq(b.adapter_refcount(), 0);
}
END_TEST

START_TEST(config_reference_count) {
    ur_loader_config_handle_t config;
    ck_assert_ur_ok(urLoaderConfigCreate(&config));
    ck_assert_ur_ok(urLoaderConfigRetain(config));
    uint32_t count = 0;
    size_t size = 0;
    ck_assert_ur_ok(urLoaderConfigGetInfo(config, UR_LOADER_CONFIG_INFO_REFERENCE_COUNT,
                                          sizeof count, &count, &size));
    ck_assert_uint_eq(count, 2);
    ck_assert_uint_eq(size, sizeof(uint32_t));
    ck_assert_ur(
        urLoaderConfigGetInfo(config, UR_LOADER_CONFIG_INFO_REFERENCE_COUNT, 8, &count, NULL),
        UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urLoaderConfigRelease(config));
    ck_assert_ur_ok(urLoaderConfigRelease(config));
}
END_TEST

START_TEST(config_has_only_builtin_validation) {
    ur_loader_config_handle_t config;
    ck_assert_ur_ok(urLoaderConfigCreate(&config));
    const char expected[] = "UR_LAYER_PARAMETER_VALIDATION;UR_LAYER_TRACING;UR_LAYER_LEAK_CHECKING;"
                            "UR_LAYER_LIFETIME_VALIDATION;UR_LAYER_FULL_VALIDATION";
    size_t size = 0;
    ck_assert_ur_ok(
        urLoaderConfigGetInfo(config, UR_LOADER_CONFIG_INFO_AVAILABLE_LAYERS, 0, NULL, &size));
    ck_assert_uint_eq(size, sizeof expected);
    char layers[160] = "x";
    ck_assert_ur_ok(
        urLoaderConfigGetInfo(config, UR_LOADER_CONFIG_INFO_AVAILABLE_LAYERS, size, layers, NULL));
    ck_assert_str_eq(layers, expected);
    ck_assert_ur(
        urLoaderConfigGetInfo(config, UR_LOADER_CONFIG_INFO_AVAILABLE_LAYERS, 4, layers, NULL),
        UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urLoaderConfigGetInfo(config, (ur_loader_config_info_t)2, 4, layers, NULL),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    // Validation is built in; full validation adds leak checking; tracing is a layer.
    ck_assert_ur_ok(urLoaderConfigEnableLayer(config, "UR_LAYER_PARAMETER_VALIDATION"));
    ck_assert_ur_ok(urLoaderConfigEnableLayer(config, "UR_LAYER_FULL_VALIDATION"));
    ck_assert_ur_ok(urLoaderConfigEnableLayer(config, "UR_LAYER_TRACING"));
    ck_assert_ur(urLoaderConfigEnableLayer(config, "UR_LAYER_BOUNDS_CHECKING"),
                 UR_RESULT_ERROR_LAYER_NOT_PRESENT);
    ck_assert_ur(urLoaderConfigEnableLayer(config, "VALIDATION"),
                 UR_RESULT_ERROR_LAYER_NOT_PRESENT);
    ck_assert_ur(urLoaderConfigEnableLayer(config, ""), UR_RESULT_ERROR_LAYER_NOT_PRESENT);
    ck_assert_ur_ok(urLoaderConfigRelease(config));
}
END_TEST

static ur_code_location_t where(void *data) {
    (void)data;
    return (ur_code_location_t){"f", "file.c", 1, 1};
}

START_TEST(config_is_read_at_first_init_only) {
    ur_loader_config_handle_t config;
    ck_assert_ur_ok(urLoaderConfigCreate(&config));
    ck_assert_ur_ok(urLoaderConfigSetCodeLocationCallback(config, where, NULL));
    ck_assert_ur_ok(urLoaderConfigSetMockingEnabled(config, 0));
    lt_setenv("UR_ADAPTERS_FORCE_LOAD", FAKE_A);
    ck_assert_ur_ok(urLoaderInit(0, config));
    ck_assert_ur_ok(urLoaderConfigRelease(config)); // the loader keeps no reference
    ur_backend_t backends[2];
    ck_assert_uint_eq(lt_backends(backends, 2), 1);
    ck_assert_ur_ok(urLoaderTearDown());
}
END_TEST

START_TEST(mocking_replaces_discovery) {
    // No libur_adapter_mock.so.0 exists here, so mocking leaves no adapter at all, even
    // though UR_ADAPTERS_FORCE_LOAD names one.
    ur_loader_config_handle_t config;
    ck_assert_ur_ok(urLoaderConfigCreate(&config));
    ck_assert_ur_ok(urLoaderConfigSetMockingEnabled(config, 1));
    lt_setenv("UR_ADAPTERS_FORCE_LOAD", FAKE_A);
    ck_assert_ur_ok(urLoaderInit(0, config));
    uint32_t count = 9;
    ck_assert_ur_ok(urAdapterGet(0, NULL, &count));
    ck_assert_uint_eq(count, 0);
    ck_assert_ur_ok(urLoaderTearDown());
    ck_assert_ur_ok(urLoaderConfigRelease(config));
}
END_TEST

START_TEST(layers_variable_is_ignored) {
    lt_setenv("UR_ENABLE_LAYERS", "UR_LAYER_FULL_VALIDATION");
    lt_init_forced(FAKE_A);
    ur_backend_t backends[2];
    ck_assert_uint_eq(lt_backends(backends, 2), 1);
    ck_assert_ur_ok(urLoaderTearDown());
}
END_TEST

int main(void) {
    Suite *s = suite_create("loader lifecycle");
    TCase *tc = lt_tcase("urLoaderInit and urLoaderTearDown");
    tcase_add_test(tc, teardown_counts_inits);
    tcase_add_test(tc, teardown_before_init);
    tcase_add_test(tc, init_checks_device_flags);
    tcase_add_test(tc, reinit_reads_environment_again);
    tcase_add_test(tc, teardown_unloads_adapters);
    tcase_add_test(tc, layers_variable_is_ignored);
    suite_add_tcase(s, tc);
    tc = lt_tcase("urAdapterGet");
    tcase_add_test(tc, adapter_get_needs_init);
    tcase_add_test(tc, adopted_loader_initialises_on_first_use);
    tcase_add_test(tc, getters_after_init_do_not_adopt);
    tcase_add_test(tc, adapter_get_counts_and_fills);
    suite_add_tcase(s, tc);
    tc = lt_tcase("urAdapterRetain and urAdapterRelease");
    tcase_add_test(tc, adapter_reference_counts);
    suite_add_tcase(s, tc);
    tc = lt_tcase("urLoaderConfig");
    tcase_add_test(tc, config_reference_count);
    tcase_add_test(tc, config_has_only_builtin_validation);
    tcase_add_test(tc, config_is_read_at_first_init_only);
    tcase_add_test(tc, mocking_replaces_discovery);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
