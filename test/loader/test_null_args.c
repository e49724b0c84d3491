// SPDX-License-Identifier: MIT
// The NULL-argument rules through the real loader: a NULL routing handle is
// UR_RESULT_ERROR_INVALID_NULL_HANDLE and a NULL required pointer
// UR_RESULT_ERROR_INVALID_NULL_POINTER, for every entry point, before any adapter is touched
// (and before the loader is even initialised).
#include "dispatch_calls.h"
#include "loader_test.h"
#include "ur_ddi.h"

static uint32_t total_calls(const fake_api_t *f) {
    uint32_t n = 0;
    for (uint32_t s = 0; s < URC_SLOT_COUNT; ++s)
        n += f->calls(s);
    return n;
}

START_TEST(null_handle_before_init) {
    const urc_dispatch_call_t *c = &urc_dispatch_calls[_i];
    if (c->call == NULL)
        return;
    ck_assert_ur(c->call(NULL), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
}
END_TEST

START_TEST(null_handle_reaches_no_adapter) {
    const urc_dispatch_call_t *c = &urc_dispatch_calls[_i];
    if (c->call == NULL)
        return;
    fake_api_t a, b;
    lt_init_two(&a, &b);
    a.reset_calls();
    b.reset_calls();
    ck_assert_ur(c->call(NULL), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_uint_eq(total_calls(&a) + total_calls(&b), 0);
}
END_TEST

START_TEST(null_pointer_reaches_no_adapter) {
    const urc_dispatch_call_t *c = &urc_dispatch_calls[_i];
    if (c->call_null_pointer == NULL)
        return;
    fake_api_t a, b;
    lt_init_two(&a, &b);
    a.reset_calls();
    ur_result_t result = c->call_null_pointer(a.generic_handle());
    ck_assert_msg(result == UR_RESULT_ERROR_INVALID_NULL_POINTER, "%s with %s NULL returned %s",
                  c->name, c->null_pointer, urc_test_result_name(result));
    ck_assert_uint_eq(total_calls(&a), 0);
}
END_TEST

// The entry points the loader implements itself.
START_TEST(loader_functions) {
    ck_assert_ur(urLoaderConfigCreate(NULL), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urLoaderConfigRetain(NULL), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urLoaderConfigRelease(NULL), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    size_t size = 0;
    ck_assert_ur(urLoaderConfigGetInfo(NULL, UR_LOADER_CONFIG_INFO_REFERENCE_COUNT, 0, NULL, &size),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urLoaderConfigEnableLayer(NULL, "x"), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urLoaderConfigSetCodeLocationCallback(NULL, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urLoaderConfigSetMockingEnabled(NULL, 1), UR_RESULT_ERROR_INVALID_NULL_HANDLE);

    ur_loader_config_handle_t config;
    ck_assert_ur_ok(urLoaderConfigCreate(&config));
    ck_assert_ur(
        urLoaderConfigGetInfo(config, UR_LOADER_CONFIG_INFO_REFERENCE_COUNT, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urLoaderConfigEnableLayer(config, NULL), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urLoaderConfigSetCodeLocationCallback(config, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur_ok(urLoaderConfigRelease(config));

    uint32_t count;
    ur_adapter_handle_t adapter;
    ck_assert_ur(urAdapterGet(0, &adapter, &count), UR_RESULT_ERROR_INVALID_SIZE);
    ur_device_handle_t device;
    ck_assert_ur(urDeviceGetSelected(NULL, UR_DEVICE_TYPE_ALL, 1, &device, &count),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
}
END_TEST

START_TEST(device_get_selected_arguments) {
    fake_api_t a, b;
    lt_init_two(&a, &b);
    ur_platform_handle_t platform = lt_platform_of(UR_BACKEND_OPENCL);
    ck_assert_ptr_nonnull(platform);
    uint32_t count;
    ck_assert_ur(urDeviceGetSelected(platform, UR_DEVICE_TYPE_ALL, 1, NULL, &count),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urDeviceGetSelected(platform, UR_DEVICE_TYPE_ALL, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urDeviceGetSelected(platform, UR_DEVICE_TYPE_VPU, 0, NULL, &count),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_ur(urDeviceGetSelected(platform, (ur_device_type_t)99, 0, NULL, &count),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
}
END_TEST

START_TEST(loader_table_getters) {
    ur_adapter_dditable_t table;
    ck_assert_ur(urGetAdapterProcAddrTable(UR_API_VERSION_CURRENT, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urGetAdapterProcAddrTable(UR_MAKE_VERSION(0, 13), &table),
                 UR_RESULT_ERROR_UNSUPPORTED_VERSION);
    ck_assert_ur_ok(urGetAdapterProcAddrTable(UR_API_VERSION_CURRENT, &table));
    ck_assert_ptr_eq((void *)table.pfnGet, (void *)urAdapterGet);
}
END_TEST

int main(void) {
    Suite *s = suite_create("loader NULL arguments");
    TCase *tc = lt_tcase("routing handle");
    tcase_add_loop_test(tc, null_handle_before_init, 0, URC_SLOT_COUNT);
    tcase_add_loop_test(tc, null_handle_reaches_no_adapter, 0, URC_SLOT_COUNT);
    suite_add_tcase(s, tc);
    tc = lt_tcase("required pointer");
    tcase_add_loop_test(tc, null_pointer_reaches_no_adapter, 0, URC_SLOT_COUNT);
    suite_add_tcase(s, tc);
    tc = lt_tcase("loader entry points");
    tcase_add_test(tc, loader_functions);
    tcase_add_test(tc, device_get_selected_arguments);
    tcase_add_test(tc, loader_table_getters);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
