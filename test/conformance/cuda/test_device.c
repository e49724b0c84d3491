// SPDX-License-Identifier: MIT
// urPlatform* and urDevice* of the CUDA adapter, through the loader.
#include <stdlib.h>
#include <string.h>

#include "../common/platform_cases.h"
#include "cudat.h"

START_TEST(platform_get_info_name_and_version) {
    char name[256] = "", version[64] = "";
    ck_assert_ur_ok(urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_NAME, sizeof name, name, NULL));
    ck_assert_str_eq(name, "NVIDIA CUDA BACKEND");
    ck_assert_ur_ok(
        urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_VERSION, sizeof version, version, NULL));
    ck_assert_int_eq(strncmp(version, "CUDA ", 5), 0);
}
END_TEST

START_TEST(platform_get_backend_option) {
    const char *out = NULL;
    ck_assert_ur_ok(urPlatformGetBackendOption(T.platform, "-O3", &out));
    ck_assert_str_eq(out, "");
    ck_assert_ur(urPlatformGetBackendOption(T.platform, "-fbogus", &out),
                 UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(device_get_gpu_only) {
    uint32_t gpus = 0, cpus = 7;
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_GPU, 0, NULL, &gpus));
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_CPU, 0, NULL, &cpus));
    ck_assert_uint_ge(gpus, 1);
    ck_assert_uint_eq(cpus, 0);
}
END_TEST

static bool info_bool(ur_device_info_t what) {
    ur_bool_t v = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, what, sizeof v, &v, NULL));
    return v != 0;
}

static char *info_string(ur_device_info_t what) {
    size_t size = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, what, 0, NULL, &size));
    char *s = malloc(size);
    ck_assert_ur_ok(urDeviceGetInfo(T.device, what, size, s, NULL));
    ck_assert_uint_eq(strlen(s) + 1, size);
    return s;
}

START_TEST(device_get_info_basics) {
    ur_device_type_t type = UR_DEVICE_TYPE_ALL;
    size_t wg = 0, sizes[3] = {0};
    uint32_t vendor = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_TYPE, sizeof type, &type, NULL));
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, NULL));
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_VENDOR_ID, sizeof vendor, &vendor, NULL));
    ck_assert_int_eq(type, UR_DEVICE_TYPE_GPU);
    ck_assert_uint_ge(wg, 256);
    ck_assert_uint_ge(sizes[0], 256);
    ck_assert_uint_eq(vendor, 0x10de);
    char *name = info_string(UR_DEVICE_INFO_NAME);
    ck_assert_uint_gt(strlen(name), 0);
    free(name);
}
END_TEST

START_TEST(device_get_info_sub_group_size_is_warp) {
    uint32_t sizes[4] = {0};
    size_t size = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_SUB_GROUP_SIZES_INTEL, sizeof sizes,
                                    sizes, &size));
    ck_assert_uint_eq(size, sizeof(uint32_t));
    ck_assert_uint_eq(sizes[0], 32);
}
END_TEST

// Both ways SYCL asks about native asserts agree.
START_TEST(device_get_info_native_assert_in_both_queries) {
    ck_assert(info_bool(UR_DEVICE_INFO_USE_NATIVE_ASSERT));
    char *ext = info_string(UR_DEVICE_INFO_EXTENSIONS);
    ck_assert_ptr_nonnull(strstr(ext, "cl_intel_devicelib_assert"));
    free(ext);
}
END_TEST

START_TEST(device_get_info_features_present_and_absent) {
    ck_assert(info_bool(UR_DEVICE_INFO_GLOBAL_VARIABLE_SUPPORT));
    ck_assert(info_bool(UR_DEVICE_INFO_IMAGE_SUPPORT)); // CUDA arrays and surface objects
    ck_assert(info_bool(UR_DEVICE_INFO_USM_POOL_SUPPORT));
    ck_assert(info_bool(UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP));  // explicit CUDA graphs
    ck_assert(info_bool(UR_DEVICE_INFO_BINDLESS_IMAGES_SUPPORT_EXP)); // bindless.c
    uint32_t usm = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_USM_DEVICE_SUPPORT, sizeof usm, &usm, NULL));
    ck_assert_uint_ne(usm, 0);
}
END_TEST

START_TEST(device_get_info_unknown_is_unsupported_enumeration) {
    uint32_t v = 0;
    ck_assert_ur(urDeviceGetInfo(T.device, UR_DEVICE_INFO_GPU_EU_COUNT, sizeof v, &v, NULL),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
}
END_TEST

// What the driver knows about pitched images; answered although urc creates no such image.
START_TEST(device_get_info_linear_image_limits) {
    uint32_t align = 0, aniso = 0;
    size_t width = 0, height = 0, pitch = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_IMAGE_PITCH_ALIGN_EXP, sizeof align,
                                    &align, NULL));
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_MAX_IMAGE_LINEAR_WIDTH_EXP,
                                    sizeof width, &width, NULL));
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_MAX_IMAGE_LINEAR_HEIGHT_EXP,
                                    sizeof height, &height, NULL));
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_MAX_IMAGE_LINEAR_PITCH_EXP,
                                    sizeof pitch, &pitch, NULL));
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_MIPMAP_MAX_ANISOTROPY_EXP,
                                    sizeof aniso, &aniso, NULL));
    ck_assert_uint_gt(align, 0);
    ck_assert_uint_eq(align & (align - 1), 0);
    ck_assert_uint_gt(width, 0);
    ck_assert_uint_gt(height, 0);
    ck_assert_uint_ge(pitch, width);
    ck_assert_uint_eq(aniso, 16);
}
END_TEST

// NVML's answers, or unsupported without NVML. CUDAT_NVML says what to expect: "absent", "sim"
// (test/cuda_sim's library: fixed values), or unset (a real GPU: plausible values if any).
START_TEST(device_get_info_power_and_throttling) {
    const char *mode = getenv("CUDAT_NVML");
    int32_t lo = 0, hi = 0, fan = 0;
    uint32_t reasons = 0;
    ur_result_t r_lo =
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_MIN_POWER_LIMIT, sizeof lo, &lo, NULL);
    ur_result_t r_hi =
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_MAX_POWER_LIMIT, sizeof hi, &hi, NULL);
    ur_result_t r_reasons = urDeviceGetInfo(T.device, UR_DEVICE_INFO_CURRENT_CLOCK_THROTTLE_REASONS,
                                            sizeof reasons, &reasons, NULL);
    ur_result_t r_fan = urDeviceGetInfo(T.device, UR_DEVICE_INFO_FAN_SPEED, sizeof fan, &fan, NULL);
    if (mode != NULL && strcmp(mode, "absent") == 0) {
        ck_assert_int_eq(r_lo, UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
        ck_assert_int_eq(r_hi, UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
        ck_assert_int_eq(r_reasons, UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
        ck_assert_int_eq(r_fan, UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
        return;
    }
    if (mode != NULL && strcmp(mode, "sim") == 0) {
        ck_assert_ur_ok(r_lo);
        ck_assert_ur_ok(r_hi);
        ck_assert_ur_ok(r_reasons);
        ck_assert_ur_ok(r_fan);
        ck_assert_int_eq(lo, 200000);
        ck_assert_int_eq(hi, 700000);
        // SW power cap and GPU idle: POWER_CAP, and OTHER for the reason UR has no bit for.
        ck_assert_uint_eq(reasons, UR_DEVICE_THROTTLE_REASONS_FLAG_POWER_CAP |
                                       UR_DEVICE_THROTTLE_REASONS_FLAG_OTHER);
        ck_assert_int_eq(fan, 30);
        return;
    }
    if (r_lo == UR_RESULT_SUCCESS && r_hi == UR_RESULT_SUCCESS)
        ck_assert_int_ge(hi, lo);
    if (r_reasons == UR_RESULT_SUCCESS)
        ck_assert_uint_eq(reasons & UR_DEVICE_THROTTLE_REASONS_FLAGS_MASK, 0);
}
END_TEST

// URC_MASK_ASPECTS=fp64 (set for this test binary's masked case below) removes fp64 from
// every query that reports it.
START_TEST(device_get_info_masked_fp64) {
    setenv("URC_MASK_ASPECTS", "fp64", 1);
    cudat_setup();
    uint32_t fp = 1;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL));
    ck_assert_uint_eq(fp, 0);
    char *ext = info_string(UR_DEVICE_INFO_EXTENSIONS);
    ck_assert_ptr_null(strstr(ext, "cl_khr_fp64"));
    free(ext);
    cudat_teardown();
}
END_TEST

static uint32_t info_u32(ur_device_info_t what) {
    uint32_t v = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, what, sizeof v, &v, NULL));
    return v;
}

// Every query that reports fp16, fp64, 64-bit atomics or the native assert gives the same
// answer; returns which of them the device has (bit 0 fp16, 1 fp64, 2 atomic64, 3 assert).
static unsigned capabilities_agree(void) {
    char *ext = info_string(UR_DEVICE_INFO_EXTENSIONS);
    bool fp16 = strstr(ext, "cl_khr_fp16") != NULL, fp64 = strstr(ext, "cl_khr_fp64") != NULL;
    bool atomic64 = strstr(ext, "cl_khr_int64_base_atomics") != NULL;
    bool native_assert = strstr(ext, "cl_intel_devicelib_assert") != NULL;
    free(ext);
    ck_assert_int_eq(info_u32(UR_DEVICE_INFO_HALF_FP_CONFIG) != 0, fp16);
    ck_assert_int_eq(info_u32(UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_HALF) != 0, fp16);
    ck_assert_int_eq(info_u32(UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_HALF) != 0, fp16);
    ck_assert_int_eq(info_u32(UR_DEVICE_INFO_DOUBLE_FP_CONFIG) != 0, fp64);
    ck_assert_int_eq(info_u32(UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_DOUBLE) != 0, fp64);
    ck_assert_int_eq(info_u32(UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_DOUBLE) != 0, fp64);
    ck_assert_int_eq(info_bool(UR_DEVICE_INFO_ATOMIC_64), atomic64);
    ck_assert_int_eq(info_bool(UR_DEVICE_INFO_USE_NATIVE_ASSERT), native_assert);
    return (unsigned)fp16 | (unsigned)fp64 << 1 | (unsigned)atomic64 << 2 |
           (unsigned)native_assert << 3;
}

// fp16 from sm_53 and 64-bit atomics from sm_60 (every GPU CUDA 13 supports has both).
START_TEST(device_get_info_capabilities_agree) {
    uint32_t half = info_u32(UR_DEVICE_INFO_HALF_FP_CONFIG);
    ck_assert_uint_eq(capabilities_agree(), 0xf);
    ck_assert(half & UR_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_NEAREST);
    ck_assert(half & UR_DEVICE_FP_CAPABILITY_FLAG_INF_NAN);
    ck_assert_uint_eq(info_u32(UR_DEVICE_INFO_PREFERRED_VECTOR_WIDTH_HALF), 1);
    ck_assert_uint_eq(info_u32(UR_DEVICE_INFO_NATIVE_VECTOR_WIDTH_HALF), 1);
}
END_TEST

// Masking the four aspects removes them from every query at once.
START_TEST(device_get_info_masked_capabilities_agree) {
    setenv("URC_MASK_ASPECTS", "fp16,fp64,atomic64,ext_oneapi_native_assert", 1);
    cudat_setup();
    ck_assert_uint_eq(capabilities_agree(), 0);
    cudat_teardown();
}
END_TEST

START_TEST(device_global_timestamps_ordered) {
    uint64_t dev = 0, host = 0;
    ck_assert_ur_ok(urDeviceGetGlobalTimestamps(T.device, &dev, &host));
    ck_assert_uint_gt(dev, 0);
    ck_assert_uint_ge(host, dev);
}
END_TEST

START_TEST(device_select_binary_picks_nvptx) {
    ur_device_binary_t bins[2] = {{UR_STRUCTURE_TYPE_DEVICE_BINARY, NULL, "spir64"},
                                  {UR_STRUCTURE_TYPE_DEVICE_BINARY, NULL, "nvptx64"}};
    uint32_t which = 9;
    ck_assert_ur_ok(urDeviceSelectBinary(T.device, bins, 2, &which));
    ck_assert_uint_eq(which, 1);
    ck_assert_ur(urDeviceSelectBinary(T.device, bins, 1, &which), UR_RESULT_ERROR_INVALID_BINARY);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda platform and device");
    TCase *tc = cudat_tcase("urPlatformGetInfo");
    tcase_add_test(tc, platform_get_info_name_and_version);
    platform_cases_add_backend(tc, UR_BACKEND_CUDA);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urPlatformGetBackendOption");
    tcase_add_test(tc, platform_get_backend_option);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urDeviceGet");
    tcase_add_test(tc, device_get_gpu_only);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urDeviceGetInfo");
    tcase_add_test(tc, device_get_info_basics);
    tcase_add_test(tc, device_get_info_sub_group_size_is_warp);
    tcase_add_test(tc, device_get_info_native_assert_in_both_queries);
    tcase_add_test(tc, device_get_info_capabilities_agree);
    tcase_add_test(tc, device_get_info_features_present_and_absent);
    tcase_add_test(tc, device_get_info_unknown_is_unsupported_enumeration);
    platform_cases_add_device_info(tc);
    tcase_add_test(tc, device_get_info_linear_image_limits);
    tcase_add_test(tc, device_get_info_power_and_throttling);
    suite_add_tcase(s, tc);
    tc = tcase_create("urDeviceGetInfo masked");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, device_get_info_masked_fp64);
    tcase_add_test(tc, device_get_info_masked_capabilities_agree);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urDeviceGetNativeHandle");
    platform_cases_add_device_native(tc);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urDeviceGetGlobalTimestamps");
    tcase_add_test(tc, device_global_timestamps_ordered);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urDeviceSelectBinary");
    tcase_add_test(tc, device_select_binary_picks_nvptx);
    suite_add_tcase(s, tc);
    return cudat_main(s, false);
}
