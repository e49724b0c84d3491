// SPDX-License-Identifier: MIT
// Platforms and devices as SYCL sees them through urc: ONEAPI_DEVICE_SELECTOR per backend
// (read by libsycl at start-up, so each test sets it before SYCL starts), device information
// cross-checked against urc's own answers, aspects, and sub-devices.
#include <stdio.h>
#include <string.h>

#include "sycl_test.h"

/// Starts SYCL under `selector` and returns the number of devices of the backend it lists.
static size_t devices_under(const char *selector) {
    st_setenv("ONEAPI_DEVICE_SELECTOR", selector);
    size_t n = st_device_count((int)st_dpctl_backend() | DPCTL_ALL);
    st_require_urc_mapped();
    return n;
}

static char selector_buf[64];
static const char *sel(const char *filter) {
    snprintf(selector_buf, sizeof selector_buf, "%s:%s", st_backend_name(), filter);
    return selector_buf;
}

START_TEST(selector_all_devices) {
    size_t n = devices_under(sel("*"));
    ck_assert_uint_ge(n, 1);
    // The same devices as with no selector at all (a fresh process).
    ck_assert_uint_eq(n, st_device_count(DPCTL_ALL_BACKENDS | DPCTL_ALL));
}
END_TEST

START_TEST(selector_first_device) {
    ck_assert_uint_eq(devices_under(sel("0")), 1);
}
END_TEST

START_TEST(selector_discards_backend) {
    char s[64];
    snprintf(s, sizeof s, "!%s:*", st_backend_name());
    ck_assert_uint_eq(devices_under(s), 0);
}
END_TEST

START_TEST(selector_device_type) {
    // The backend's own type selects its devices; the other type none.
    bool on_cpu = st_backend() == ST_OPENCL;
    ck_assert_uint_ge(devices_under(sel(on_cpu ? "cpu" : "gpu")), 1);
}
END_TEST

START_TEST(selector_other_type) {
    bool on_cpu = st_backend() == ST_OPENCL;
    ck_assert_uint_eq(devices_under(sel(on_cpu ? "gpu" : "cpu")), 0);
}
END_TEST

START_TEST(selector_other_backend) {
    ck_assert_uint_eq(devices_under("level_zero:*"), 0);
}
END_TEST

START_TEST(selector_index_out_of_range) {
    ck_assert_uint_eq(devices_under(sel("99")), 0);
}
END_TEST

/// urc's own answer to a device query, through urc's loader in this same process (it loads
/// the same adapter file, so both see the same devices).
static void ur_first_device(ur_device_handle_t *out) {
    ck_assert_ur_ok(urLoaderInit(0, NULL));
    ur_adapter_handle_t adapter;
    uint32_t n = 0;
    ck_assert_ur_ok(urAdapterGet(1, &adapter, &n));
    ck_assert_uint_ge(n, 1);
    ur_platform_handle_t platform;
    ck_assert_ur_ok(urPlatformGet(adapter, 1, &platform, &n));
    ck_assert_ur_ok(urDeviceGet(platform, UR_DEVICE_TYPE_ALL, 1, out, &n));
}

START_TEST(device_info_matches_urc) {
    DPCTLSyclDeviceRef d = st_device();
    ur_device_handle_t ud;
    ur_first_device(&ud);
    char name[512] = "";
    ck_assert_ur_ok(urDeviceGetInfo(ud, UR_DEVICE_INFO_NAME, sizeof name, name, NULL));
    const char *sycl_name = DPCTLDevice_GetName(d);
    ck_assert_str_eq(sycl_name, name);
    DPCTLCString_Delete(sycl_name);
    uint32_t units = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(ud, UR_DEVICE_INFO_MAX_COMPUTE_UNITS, sizeof units, &units, NULL));
    ck_assert_uint_eq(DPCTLDevice_GetMaxComputeUnits(d), units);
    uint64_t global = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(ud, UR_DEVICE_INFO_GLOBAL_MEM_SIZE, sizeof global, &global, NULL));
    ck_assert_uint_eq(DPCTLDevice_GetGlobalMemSize(d), global);
    size_t wg = 0;
    ck_assert_ur_ok(urDeviceGetInfo(ud, UR_DEVICE_INFO_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    ck_assert_uint_eq(DPCTLDevice_GetMaxWorkGroupSize(d), wg);
    ck_assert_uint_eq(DPCTLDevice_GetMaxWorkItemDims(d), 3);
    size_t *sizes = DPCTLDevice_GetMaxWorkItemSizes3d(d);
    ck_assert_ptr_nonnull(sizes);
    ck_assert_uint_ge(sizes[0], 1);
    DPCTLSize_t_Array_Delete(sizes);
    ck_assert_int_eq(DPCTLDevice_GetBackend(d), st_dpctl_backend());
    ck_assert(st_backend() == ST_OPENCL ? DPCTLDevice_IsCPU(d) : DPCTLDevice_IsGPU(d));
    ck_assert_ur_ok(urDeviceRelease(ud));
    ck_assert_ur_ok(urLoaderTearDown());
    DPCTLDevice_Delete(d);
}
END_TEST

START_TEST(device_aspects) {
    DPCTLSyclDeviceRef d = st_device();
    ck_assert(DPCTLDevice_HasAspect(d, usm_device_allocations));
    ck_assert(DPCTLDevice_HasAspect(d, usm_host_allocations));
    ck_assert(DPCTLDevice_HasAspect(d, usm_shared_allocations));
    ck_assert(DPCTLDevice_HasAspect(d, queue_profiling));
    ck_assert(!DPCTLDevice_HasAspect(d, host));
    ck_assert(DPCTLDevice_HasAspect(d, st_backend() == ST_OPENCL ? cpu : gpu));
    ck_assert(!DPCTLDevice_HasAspect(d, st_backend() == ST_OPENCL ? gpu : cpu));
    // fp64 as urc reports it.
    ur_device_handle_t ud;
    ur_first_device(&ud);
    ur_device_fp_capability_flags_t doubles = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(ud, UR_DEVICE_INFO_DOUBLE_FP_CONFIG, sizeof doubles, &doubles, NULL));
    ck_assert_int_eq(DPCTLDevice_HasAspect(d, fp64), doubles != 0);
    ck_assert_ur_ok(urDeviceRelease(ud));
    ck_assert_ur_ok(urLoaderTearDown());
    DPCTLDevice_Delete(d);
}
END_TEST

START_TEST(platform_info) {
    DPCTLSyclDeviceRef d = st_device();
    DPCTLSyclPlatformRef p = DPCTLDevice_GetPlatform(d);
    ck_assert_int_eq(DPCTLPlatform_GetBackend(p), st_dpctl_backend());
    const char *name = DPCTLPlatform_GetName(p);
    ck_assert_uint_gt(strlen(name), 0);
    ur_device_handle_t ud;
    ur_first_device(&ud);
    ur_platform_handle_t up;
    ck_assert_ur_ok(urDeviceGetInfo(ud, UR_DEVICE_INFO_PLATFORM, sizeof up, &up, NULL));
    char ur_name[256] = "";
    ck_assert_ur_ok(urPlatformGetInfo(up, UR_PLATFORM_INFO_NAME, sizeof ur_name, ur_name, NULL));
    ck_assert_str_eq(name, ur_name);
    DPCTLCString_Delete(name);
    ck_assert_ur_ok(urDeviceRelease(ud));
    ck_assert_ur_ok(urLoaderTearDown());
    DPCTLDeviceVectorRef devices = DPCTLPlatform_GetDevices(p, DPCTL_ALL);
    ck_assert_uint_ge(DPCTLDeviceVector_Size(devices), 1);
    DPCTLDeviceVector_Delete(devices);
    DPCTLPlatform_Delete(p);
    DPCTLDevice_Delete(d);
}
END_TEST

START_TEST(sub_devices_by_counts) {
    DPCTLSyclDeviceRef d = st_device();
    uint32_t units = DPCTLDevice_GetMaxComputeUnits(d);
    if (DPCTLDevice_GetPartitionMaxSubDevices(d) < 2 || units < 2) {
        DPCTLDevice_Delete(d);
        return; // CUDA devices do not partition; a one-core CPU cannot.
    }
    size_t counts[2] = {units / 2, units - units / 2};
    DPCTLDeviceVectorRef subs = DPCTLDevice_CreateSubDevicesByCounts(d, counts, 2);
    ck_assert_ptr_nonnull(subs);
    ck_assert_uint_eq(DPCTLDeviceVector_Size(subs), 2);
    for (size_t i = 0; i < 2; i++) {
        DPCTLSyclDeviceRef s = DPCTLDeviceVector_GetAt(subs, i);
        ck_assert_uint_eq(DPCTLDevice_GetMaxComputeUnits(s), counts[i]);
        DPCTLSyclDeviceRef parent = DPCTLDevice_GetParentDevice(s);
        ck_assert_ptr_nonnull(parent);
        ck_assert(DPCTLDevice_AreEq(parent, d));
        DPCTLDevice_Delete(parent);
        DPCTLDevice_Delete(s);
    }
    DPCTLDeviceVector_Delete(subs);
    subs = DPCTLDevice_CreateSubDevicesEqually(d, 1);
    ck_assert_ptr_nonnull(subs);
    ck_assert_uint_eq(DPCTLDeviceVector_Size(subs), units);
    DPCTLDeviceVector_Delete(subs);
    DPCTLDevice_Delete(d);
}
END_TEST

int main(void) {
    Suite *s = suite_create("sycl_devices");
    // The selector tests start SYCL themselves, after setting the variable.
    TCase *tc = urc_test_tcase("selector", NULL, NULL);
    tcase_add_test(tc, selector_all_devices);
    tcase_add_test(tc, selector_first_device);
    tcase_add_test(tc, selector_discards_backend);
    tcase_add_test(tc, selector_device_type);
    tcase_add_test(tc, selector_other_type);
    tcase_add_test(tc, selector_other_backend);
    tcase_add_test(tc, selector_index_out_of_range);
    suite_add_tcase(s, tc);
    tc = st_tcase("info");
    tcase_add_test(tc, device_info_matches_urc);
    tcase_add_test(tc, device_aspects);
    tcase_add_test(tc, platform_info);
    tcase_add_test(tc, sub_devices_by_counts);
    suite_add_tcase(s, tc);
    return st_main(s);
}
