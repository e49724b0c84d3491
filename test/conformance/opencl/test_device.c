// SPDX-License-Identifier: MIT
// urDevice* of the OpenCL adapter, through the loader.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "../common/platform_cases.h"
#include "oclt.h"

START_TEST(get_all_finds_the_device) {
    uint32_t n = 0;
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_ALL, 0, NULL, &n));
    ck_assert_uint_ge(n, 1);
}
END_TEST

START_TEST(get_cpu_finds_the_cpu) {
    uint32_t n = 0;
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_CPU, 0, NULL, &n));
    ck_assert_uint_ge(n, 1);
}
END_TEST

START_TEST(get_gpu_finds_none_on_cpu_platforms) {
    uint32_t n = 99;
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_GPU, 0, NULL, &n));
    ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(get_default_is_one_device) {
    uint32_t n = 0;
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_DEFAULT, 0, NULL, &n));
    ck_assert_uint_eq(n, 1);
}
END_TEST

START_TEST(get_writes_no_more_than_exist) {
    uint32_t n = 0;
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_ALL, 0, NULL, &n));
    ur_device_handle_t list[8];
    for (int i = 0; i < 8; ++i)
        list[i] = (ur_device_handle_t)(uintptr_t)0x5a5a;
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_ALL, 8, list, NULL));
    for (uint32_t i = n; i < 8; ++i)
        ck_assert_ptr_eq(list[i], (ur_device_handle_t)(uintptr_t)0x5a5a);
}
END_TEST

/// Every value of ur_device_info_t is answered, or refused with UNSUPPORTED_ENUMERATION; an
/// answer's size is consistent between the size query, the exact buffer and a larger one.
START_TEST(get_info_answers_every_query) {
    ck_assert_int_ge(urc_test_assert_device_info_sizes(T.device), 150);
}
END_TEST

START_TEST(get_info_answers_sycl_startup_queries) {
    urc_test_assert_device_answers(T.device, urc_test_sycl_startup_queries,
                                   urc_test_sycl_startup_query_count);
}
END_TEST

START_TEST(get_info_bool_is_one_byte) {
    size_t size = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_AVAILABLE, 0, NULL, &size));
    ck_assert_uint_eq(size, sizeof(ur_bool_t));
}
END_TEST

static bool extension_listed(const char *name) {
    size_t size = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_EXTENSIONS, 0, NULL, &size));
    char *list = malloc(size);
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_EXTENSIONS, size, list, NULL));
    bool found = false;
    for (char *w = strtok(list, " "); w != NULL && !found; w = strtok(NULL, " "))
        found = strcmp(w, name) == 0;
    free(list);
    return found;
}

START_TEST(native_assert_agrees_with_extensions) {
    ur_bool_t native = false;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_USE_NATIVE_ASSERT, sizeof native, &native, NULL));
    ck_assert_int_eq(native, extension_listed("cl_intel_devicelib_assert"));
    // Intel's CPU runtime lists the extension; PoCL does not.
    ck_assert_int_eq(native, T.intel);
}
END_TEST

START_TEST(global_variable_support_follows_the_runtime) {
    // Intel's runtime resolves the cl_intel_global_variable_access functions without listing
    // the extension: support is decided by resolution.
    ck_assert_int_eq(T.globals, T.intel);
    if (T.intel)
        ck_assert(!extension_listed("cl_intel_global_variable_access"));
}
END_TEST

START_TEST(usm_support_follows_the_extension) {
    ck_assert_int_eq(T.usm, extension_listed("cl_intel_unified_shared_memory"));
}
END_TEST

START_TEST(image_support_follows_the_driver) {
    ur_bool_t images = false;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_IMAGE_SUPPORT, sizeof images, &images, NULL));
    ck_assert(images); // both CPU runtimes have images
    size_t w = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_IMAGE2D_MAX_WIDTH, sizeof w, &w, NULL));
    ck_assert_uint_ge(w, 8192); // OpenCL's minimum for a device with images
}
END_TEST

START_TEST(sub_group_sizes_are_listed) {
    uint32_t sizes[16] = {0};
    size_t bytes = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_SUB_GROUP_SIZES_INTEL, sizeof sizes,
                                    sizes, &bytes));
    ck_assert_uint_ge(bytes, sizeof(uint32_t));
    if (T.intel) // 4, 8, 16, 32, 64 on Intel's CPU runtime
        ck_assert_uint_eq(bytes, 5 * sizeof(uint32_t));
    else
        ck_assert_uint_eq(sizes[0], 1);
}
END_TEST

// cl_intel_device_attribute_query's slices, sub-slices, EUs per sub-slice and threads per EU are
// answered on any device with the extension (UR's CTS SuccessIntelGPU* tests pass with UR's
// adapter on Intel's CPU runtime); the EU count only on a GPU. Without it, all five are
// unsupported (PoCL).
START_TEST(intel_device_attributes_follow_the_extension) {
    const ur_device_info_t queries[] = {
        UR_DEVICE_INFO_GPU_EU_SLICES, UR_DEVICE_INFO_GPU_SUBSLICES_PER_SLICE,
        UR_DEVICE_INFO_GPU_EU_COUNT_PER_SUBSLICE, UR_DEVICE_INFO_GPU_HW_THREADS_PER_EU};
    bool listed = extension_listed("cl_intel_device_attribute_query");
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; ++i) {
        uint32_t v = 0;
        size_t size = 0;
        ur_result_t r = urDeviceGetInfo(T.device, queries[i], sizeof v, &v, &size);
        if (listed) {
            ck_assert_ur_ok(r);
            ck_assert_uint_eq(size, sizeof v);
        } else {
            ck_assert_ur(r, UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
        }
    }
    uint32_t eus = 0;
    ck_assert_ur(urDeviceGetInfo(T.device, UR_DEVICE_INFO_GPU_EU_COUNT, sizeof eus, &eus, NULL),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION); // both runtimes here are CPUs
}
END_TEST

START_TEST(unanswerable_query_is_unsupported_enumeration) {
    uint64_t v = 0;
    ck_assert_ur(urDeviceGetInfo(T.device, UR_DEVICE_INFO_GLOBAL_MEM_FREE, sizeof v, &v, NULL),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
}
END_TEST

// Answered with what the runtime says, as UR does, also where it lists no IL (PoCL: "").
START_TEST(il_version_is_answered) {
    size_t size = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_IL_VERSION, 0, NULL, &size));
    ck_assert_uint_ge(size, 1);
    char *v = calloc(size, 1);
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_IL_VERSION, size, v, NULL));
    ck_assert_int_eq(v[size - 1], '\0');
    free(v);
}
END_TEST

START_TEST(platform_query_returns_the_platform) {
    ur_platform_handle_t p = NULL;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_PLATFORM, sizeof p, &p, NULL));
    ck_assert_ptr_eq(p, T.platform);
}
END_TEST

// Root devices are not reference-counted (OpenCL's and UR's OpenCL semantics): the count
// stays 1 through retains, releases and the objects made on the device.
START_TEST(root_retain_keeps_count_one) {
    ck_assert_uint_eq(oclt_device_u32(UR_DEVICE_INFO_REFERENCE_COUNT), 1);
    ck_assert_ur_ok(urDeviceRetain(T.device));
    ck_assert_uint_eq(oclt_device_u32(UR_DEVICE_INFO_REFERENCE_COUNT), 1);
    ck_assert_ur_ok(urDeviceRelease(T.device));
    ck_assert_uint_eq(oclt_device_u32(UR_DEVICE_INFO_REFERENCE_COUNT), 1);
}
END_TEST

START_TEST(sub_device_retain_and_release_count) {
    ur_device_partition_property_t prop = {UR_DEVICE_PARTITION_EQUALLY, {.equally = 1}};
    ur_device_partition_properties_t props = {UR_STRUCTURE_TYPE_DEVICE_PARTITION_PROPERTIES, NULL,
                                              &prop, 1};
    ur_device_handle_t sub = NULL;
    if (urDevicePartition(T.device, &props, 1, &sub, NULL) != UR_RESULT_SUCCESS)
        return; // not partitionable here (PoCL)
    uint32_t n = 0;
    ck_assert_ur_ok(urDeviceGetInfo(sub, UR_DEVICE_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 1);
    ck_assert_ur_ok(urDeviceRetain(sub));
    ck_assert_ur_ok(urDeviceGetInfo(sub, UR_DEVICE_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 2);
    ck_assert_ur_ok(urDeviceRelease(sub));
    ck_assert_ur_ok(urDeviceGetInfo(sub, UR_DEVICE_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 1);
    ck_assert_ur_ok(urDeviceRelease(sub));
}
END_TEST

START_TEST(root_device_survives_extra_release) {
    ck_assert_ur_ok(urDeviceRelease(T.device));
    ck_assert_ur_ok(urDeviceRelease(T.device));
    ck_assert_uint_eq(oclt_device_u32(UR_DEVICE_INFO_REFERENCE_COUNT), 1);
}
END_TEST

START_TEST(objects_on_root_device_keep_count_one) {
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &q));
    ck_assert_uint_eq(oclt_device_u32(UR_DEVICE_INFO_REFERENCE_COUNT), 1);
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_uint_eq(oclt_device_u32(UR_DEVICE_INFO_REFERENCE_COUNT), 1);
}
END_TEST

// The loader's urDeviceGetSelected releases the handles it does not return; a root device's
// count must not drop for that (it used to, one per call, until it stuck at 1).
START_TEST(get_selected_keeps_root_count) {
    for (int i = 0; i < 4; ++i) {
        uint32_t n = 0;
        ck_assert_ur_ok(urDeviceGetSelected(T.platform, UR_DEVICE_TYPE_ALL, 0, NULL, &n));
        ck_assert_uint_ge(n, 1);
        ur_device_handle_t d = NULL;
        ck_assert_ur_ok(urDeviceGetSelected(T.platform, UR_DEVICE_TYPE_ALL, 1, &d, NULL));
        ck_assert_ptr_eq(d, T.device);
        ck_assert_uint_eq(oclt_device_u32(UR_DEVICE_INFO_REFERENCE_COUNT), 1);
    }
}
END_TEST

START_TEST(partition_equally_makes_sub_devices) {
    ur_device_partition_property_t prop = {UR_DEVICE_PARTITION_EQUALLY, {.equally = 1}};
    ur_device_partition_properties_t props = {UR_STRUCTURE_TYPE_DEVICE_PARTITION_PROPERTIES, NULL,
                                              &prop, 1};
    uint32_t n = 0;
    ck_assert_ur_ok(urDevicePartition(T.device, &props, 0, NULL, &n));
    ck_assert_uint_ge(n, 1);
    ur_device_handle_t sub = NULL;
    ck_assert_ur_ok(urDevicePartition(T.device, &props, 1, &sub, NULL));
    ur_device_handle_t parent = NULL;
    ck_assert_ur_ok(
        urDeviceGetInfo(sub, UR_DEVICE_INFO_PARENT_DEVICE, sizeof parent, &parent, NULL));
    ck_assert_ptr_eq(parent, T.device);
    ur_device_partition_property_t type[4];
    size_t bytes = 0;
    ck_assert_ur_ok(urDeviceGetInfo(sub, UR_DEVICE_INFO_PARTITION_TYPE, sizeof type, type, &bytes));
    ck_assert_uint_eq(bytes, sizeof type[0]);
    ck_assert_int_eq(type[0].type, UR_DEVICE_PARTITION_EQUALLY);
    ck_assert_uint_eq(type[0].value.equally, 1);
    ck_assert_ur_ok(urDeviceRelease(sub));
}
END_TEST

START_TEST(partition_type_by_counts_keeps_list_end) {
    // Split 1 + 1 compute units: the sub-device's type lists its counts, then {BY_COUNTS, 0}
    // (OpenCL's CL_DEVICE_PARTITION_BY_COUNTS_LIST_END), as UR's OpenCL adapter answers.
    if (oclt_device_u32(UR_DEVICE_INFO_MAX_COMPUTE_UNITS) < 2 ||
        oclt_device_u32(UR_DEVICE_INFO_PARTITION_MAX_SUB_DEVICES) < 2)
        return;
    ur_device_partition_property_t prop[2] = {{UR_DEVICE_PARTITION_BY_COUNTS, {.count = 1}},
                                              {UR_DEVICE_PARTITION_BY_COUNTS, {.count = 1}}};
    ur_device_partition_properties_t props = {UR_STRUCTURE_TYPE_DEVICE_PARTITION_PROPERTIES, NULL,
                                              prop, 2};
    ur_device_handle_t sub[2] = {NULL, NULL};
    uint32_t n = 0;
    if (urDevicePartition(T.device, &props, 2, sub, &n) != UR_RESULT_SUCCESS)
        return; // this runtime cannot split by counts
    ck_assert_uint_eq(n, 2);
    ur_device_partition_property_t type[8];
    size_t bytes = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(sub[0], UR_DEVICE_INFO_PARTITION_TYPE, sizeof type, type, &bytes));
    ck_assert_uint_eq(bytes, 3 * sizeof type[0]);
    for (int i = 0; i < 3; ++i)
        ck_assert_int_eq(type[i].type, UR_DEVICE_PARTITION_BY_COUNTS);
    ck_assert_uint_eq(type[0].value.count, 1);
    ck_assert_uint_eq(type[1].value.count, 1);
    ck_assert_uint_eq(type[2].value.count, 0);
    ck_assert_ur_ok(urDeviceRelease(sub[0]));
    ck_assert_ur_ok(urDeviceRelease(sub[1]));
}
END_TEST

START_TEST(partition_type_of_root_is_empty) {
    size_t bytes = 99;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_PARTITION_TYPE, 0, NULL, &bytes));
    ck_assert_uint_eq(bytes, 0);
}
END_TEST

START_TEST(partition_unknown_type_is_unsupported) {
    ur_device_partition_property_t prop = {UR_DEVICE_PARTITION_BY_CSLICE, {.count = 1}};
    ur_device_partition_properties_t props = {UR_STRUCTURE_TYPE_DEVICE_PARTITION_PROPERTIES, NULL,
                                              &prop, 1};
    uint32_t n = 0;
    ck_assert_ur(urDevicePartition(T.device, &props, 0, NULL, &n),
                 UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
}
END_TEST

static const ur_device_binary_t binaries[] = {
    {UR_STRUCTURE_TYPE_DEVICE_BINARY, NULL, UR_DEVICE_BINARY_TARGET_NVPTX64},
    {UR_STRUCTURE_TYPE_DEVICE_BINARY, NULL, UR_DEVICE_BINARY_TARGET_SPIRV64},
    {UR_STRUCTURE_TYPE_DEVICE_BINARY, NULL, UR_DEVICE_BINARY_TARGET_SPIRV64_X86_64},
};

START_TEST(select_binary_prefers_x86_64) {
    uint32_t i = 99;
    ck_assert_ur_ok(urDeviceSelectBinary(T.device, binaries, 3, &i));
    ck_assert_uint_eq(i, 2);
}
END_TEST

START_TEST(select_binary_falls_back_to_spirv64) {
    uint32_t i = 99;
    ck_assert_ur_ok(urDeviceSelectBinary(T.device, binaries, 2, &i));
    ck_assert_uint_eq(i, 1);
}
END_TEST

START_TEST(select_binary_two_matches_takes_the_first) {
    // The specification names no order; urc takes the first match everywhere (UR's Level Zero
    // and CUDA adapters do; its OpenCL adapter takes the last generic one: docs/opencl.md).
    static const ur_device_binary_t two[] = {
        {UR_STRUCTURE_TYPE_DEVICE_BINARY, NULL, UR_DEVICE_BINARY_TARGET_SPIRV64},
        {UR_STRUCTURE_TYPE_DEVICE_BINARY, NULL, UR_DEVICE_BINARY_TARGET_SPIRV64},
        {UR_STRUCTURE_TYPE_DEVICE_BINARY, NULL, UR_DEVICE_BINARY_TARGET_SPIRV64_X86_64},
        {UR_STRUCTURE_TYPE_DEVICE_BINARY, NULL, UR_DEVICE_BINARY_TARGET_SPIRV64_X86_64},
    };
    uint32_t i = 99;
    ck_assert_ur_ok(urDeviceSelectBinary(T.device, two, 2, &i));
    ck_assert_uint_eq(i, 0);
    ck_assert_ur_ok(urDeviceSelectBinary(T.device, two, 4, &i));
    ck_assert_uint_eq(i, 2);
}
END_TEST

START_TEST(select_binary_without_match_is_invalid_binary) {
    uint32_t i = 0;
    ck_assert_ur(urDeviceSelectBinary(T.device, binaries, 1, &i), UR_RESULT_ERROR_INVALID_BINARY);
}
END_TEST

START_TEST(create_with_native_sub_device_finds_parent) {
    // A sub-device made outside UR gets a handle whose parent is the root device's handle.
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urDeviceGetNativeHandle(T.device, &native));
    cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id subs[64];
    cl_uint n = 0;
    ck_assert_int_eq(clCreateSubDevices((cl_device_id)native, props, 0, NULL, &n), CL_SUCCESS);
    ck_assert_uint_le(n, 64);
    ck_assert_int_eq(clCreateSubDevices((cl_device_id)native, props, n, subs, NULL), CL_SUCCESS);
    cl_device_id sub = subs[0];
    ur_device_handle_t wrapped = NULL;
    ck_assert_ur_ok(
        urDeviceCreateWithNativeHandle((ur_native_handle_t)sub, T.adapter, NULL, &wrapped));
    ur_device_handle_t parent = NULL;
    ck_assert_ur_ok(
        urDeviceGetInfo(wrapped, UR_DEVICE_INFO_PARENT_DEVICE, sizeof parent, &parent, NULL));
    ck_assert_ptr_eq(parent, T.device);
    ck_assert_ur_ok(urDeviceRelease(wrapped));
    for (cl_uint i = 0; i < n; ++i)
        clReleaseDevice(subs[i]);
}
END_TEST

START_TEST(global_timestamps) {
    uint64_t device_ts = 0, host_ts = 0, later = 0;
    ur_result_t r = urDeviceGetGlobalTimestamps(T.device, &device_ts, &host_ts);
    if (!T.intel) {
        // PoCL 3.1 has no device/host timer synchronisation.
        ck_assert_ur(r, UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        return;
    }
    ck_assert_ur_ok(r);
    ck_assert_ur_ok(urDeviceGetGlobalTimestamps(T.device, NULL, &later));
    ck_assert_uint_gt(device_ts, 0);
    ck_assert_uint_ge(later, host_ts);
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl device");
    TCase *tc = oclt_tcase("urDeviceGet");
    tcase_add_test(tc, get_all_finds_the_device);
    tcase_add_test(tc, get_cpu_finds_the_cpu);
    tcase_add_test(tc, get_gpu_finds_none_on_cpu_platforms);
    tcase_add_test(tc, get_default_is_one_device);
    tcase_add_test(tc, get_writes_no_more_than_exist);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urDeviceGetInfo");
    tcase_add_test(tc, get_info_answers_every_query);
    tcase_add_test(tc, get_info_answers_sycl_startup_queries);
    platform_cases_add_device_info(tc);
    tcase_add_test(tc, get_info_bool_is_one_byte);
    tcase_add_test(tc, native_assert_agrees_with_extensions);
    tcase_add_test(tc, global_variable_support_follows_the_runtime);
    tcase_add_test(tc, usm_support_follows_the_extension);
    tcase_add_test(tc, image_support_follows_the_driver);
    tcase_add_test(tc, sub_group_sizes_are_listed);
    tcase_add_test(tc, unanswerable_query_is_unsupported_enumeration);
    tcase_add_test(tc, intel_device_attributes_follow_the_extension);
    tcase_add_test(tc, il_version_is_answered);
    tcase_add_test(tc, platform_query_returns_the_platform);
    tcase_add_test(tc, partition_type_by_counts_keeps_list_end);
    tcase_add_test(tc, partition_type_of_root_is_empty);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urDeviceRetain");
    tcase_add_test(tc, root_retain_keeps_count_one);
    tcase_add_test(tc, sub_device_retain_and_release_count);
    tcase_add_test(tc, objects_on_root_device_keep_count_one);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urDeviceRelease");
    tcase_add_test(tc, root_device_survives_extra_release);
    tcase_add_test(tc, get_selected_keeps_root_count);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urDevicePartition");
    tcase_add_test(tc, partition_equally_makes_sub_devices);
    tcase_add_test(tc, partition_unknown_type_is_unsupported);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urDeviceSelectBinary");
    tcase_add_test(tc, select_binary_prefers_x86_64);
    tcase_add_test(tc, select_binary_falls_back_to_spirv64);
    tcase_add_test(tc, select_binary_two_matches_takes_the_first);
    tcase_add_test(tc, select_binary_without_match_is_invalid_binary);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urDeviceGetNativeHandle");
    platform_cases_add_device_native(tc);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urDeviceCreateWithNativeHandle");
    tcase_add_test(tc, create_with_native_sub_device_finds_parent);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urDeviceGetGlobalTimestamps");
    tcase_add_test(tc, global_timestamps);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
