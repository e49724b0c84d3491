// SPDX-License-Identifier: MIT
// Behaviours UR's users rely on, checked the same way on every adapter (issue 13): the suite
// runs on each CPU OpenCL runtime, the simulated CUDA and Level Zero drivers, and a real GPU.
// Native handle 0 events, waits across contexts, handle identity, argument checks before
// feature checks, bindless images as the device query says, and USM 2D fills against a host
// reference.
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "urc_fixture.h"

static struct {
    ur_adapter_handle_t adapter;
    ur_platform_handle_t platform;
    ur_device_handle_t device;
    ur_context_handle_t context;
    ur_queue_handle_t queue;
} T;

static void setup(void) {
    // The native runtimes (OpenCL's ICD loader, Level Zero's loader and the simulated driver
    // behind it) keep their tables until the process ends. Held open here, as the adapter
    // suites hold them by linking them, they stay reachable after the adapter is unloaded.
    const char *ze_sim = getenv("ZE_ENABLE_ALT_DRIVERS");
    if (ze_sim != NULL)
        (void)dlopen(ze_sim, RTLD_NOW | RTLD_LOCAL);
    urc_test_open(&T.adapter, &T.platform, &T.device, &T.context, &T.queue);
    (void)dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_NOLOAD);
    (void)dlopen("libze_loader.so.1", RTLD_NOW | RTLD_NOLOAD);
}

static void teardown(void) {
    urQueueRelease(T.queue);
    urContextRelease(T.context);
    urDeviceRelease(T.device);
    // The adapter's last reference: it frees what it holds (an unloaded library's memory
    // would show as a leak).
    urAdapterRelease(T.adapter);
    urLoaderTearDown();
}

static bool device_usm(void) {
    ur_device_usm_access_capability_flags_t caps = 0;
    return urDeviceGetInfo(T.device, UR_DEVICE_INFO_USM_DEVICE_SUPPORT, sizeof caps, &caps, NULL) ==
               UR_RESULT_SUCCESS &&
           caps != 0;
}

// ---- urEventCreateWithNativeHandle(0) ----

START_TEST(native_zero_event_is_complete) {
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEventCreateWithNativeHandle(0, T.context, NULL, &e));
    ck_assert_ptr_nonnull(e);
    ur_event_status_t status = UR_EVENT_STATUS_QUEUED;
    ck_assert_ur_ok(
        urEventGetInfo(e, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    ck_assert_int_eq(status, UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventWait(1, &e));
    // As a wait-list entry, the way SYCL uses it.
    ur_event_handle_t after = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 1, &e, &after));
    ck_assert_ur_ok(urEventWait(1, &after));
    ck_assert_ur_ok(urEventRelease(after));
    ur_mem_handle_t buf = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 64, NULL, &buf));
    uint8_t in[64], out[64];
    memset(in, 0x5a, sizeof in);
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, buf, true, 0, 64, in, 1, &e, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, buf, true, 0, 64, out, 1, &e, NULL));
    ck_assert_mem_eq(in, out, sizeof in);
    ck_assert_ur_ok(urMemRelease(buf));
    ck_assert_ur_ok(urEventRetain(e));
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur_ok(urEventRelease(e));
}
END_TEST

// ---- wait lists across contexts ----

// An event of a queue in context A waited for by a command on a queue of context B (same
// device), and both awaited together by urEventWait.
START_TEST(wait_list_across_contexts) {
    ur_context_handle_t other = NULL;
    ur_queue_handle_t other_queue = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    ck_assert_ur_ok(urQueueCreate(other, T.device, NULL, &other_queue));
    enum { N = 4096 };
    ur_mem_handle_t a = NULL, b = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, N, NULL, &a));
    ck_assert_ur_ok(urMemBufferCreate(other, UR_MEM_FLAG_READ_WRITE, N, NULL, &b));
    static uint8_t in[N], out_a[N], out_b[N];
    for (int i = 0; i < N; ++i)
        in[i] = (uint8_t)(i * 13);
    ur_event_handle_t wrote = NULL, copied = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, a, false, 0, N, in, 0, NULL, &wrote));
    ck_assert_ur_ok(urEnqueueMemBufferWrite(other_queue, b, false, 0, N, in, 1, &wrote, &copied));
    ur_event_handle_t both[2] = {wrote, copied};
    ck_assert_ur_ok(urEventWait(2, both));
    ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, a, true, 0, N, out_a, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemBufferRead(other_queue, b, true, 0, N, out_b, 1, &wrote, NULL));
    ck_assert_mem_eq(in, out_a, N);
    ck_assert_mem_eq(in, out_b, N);
    ck_assert_ur_ok(urEventRelease(wrote));
    ck_assert_ur_ok(urEventRelease(copied));
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
    ck_assert_ur_ok(urQueueRelease(other_queue));
    ck_assert_ur_ok(urContextRelease(other));
}
END_TEST

static void set_flag(void *data) {
    *(volatile int *)data = 1;
}

// Every enqueue path takes foreign waits, not only the classic commands: a host task on a queue
// of context B waits for a write on a queue of context A.
START_TEST(host_task_waits_across_contexts) {
    ur_context_handle_t other = NULL;
    ur_queue_handle_t other_queue = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    ck_assert_ur_ok(urQueueCreate(other, T.device, NULL, &other_queue));
    enum { N = 256 };
    ur_mem_handle_t a = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, N, NULL, &a));
    static uint8_t in[N];
    ur_event_handle_t wrote = NULL, ran = NULL;
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, a, false, 0, N, in, 0, NULL, &wrote));
    static volatile int flag;
    flag = 0;
    ur_result_t r =
        urEnqueueHostTaskExp(other_queue, set_flag, (void *)&flag, NULL, 1, &wrote, &ran);
    if (r != UR_RESULT_ERROR_UNSUPPORTED_FEATURE) {
        ck_assert_ur_ok(r);
        ck_assert_ur_ok(urEventWait(1, &ran));
        ck_assert_int_eq(flag, 1);
        ck_assert_ur_ok(urEventRelease(ran));
    }
    ck_assert_ur_ok(urEventWait(1, &wrote));
    ck_assert_ur_ok(urEventRelease(wrote));
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urQueueRelease(other_queue));
    ck_assert_ur_ok(urContextRelease(other));
}
END_TEST

// ---- handle identity ----

START_TEST(device_from_native_twice_is_one_handle) {
    ur_native_handle_t native = 0;
    ur_result_t r = urDeviceGetNativeHandle(T.device, &native);
    if (r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE)
        return;
    ck_assert_ur_ok(r);
    ur_device_handle_t first = NULL, second = NULL;
    ck_assert_ur_ok(urDeviceCreateWithNativeHandle(native, T.adapter, NULL, &first));
    ck_assert_ur_ok(urDeviceCreateWithNativeHandle(native, T.adapter, NULL, &second));
    ck_assert_ptr_eq(first, T.device);
    ck_assert_ptr_eq(second, T.device);
    ck_assert_ur_ok(urDeviceRelease(first));
    ck_assert_ur_ok(urDeviceRelease(second));
}
END_TEST

START_TEST(sub_device_from_native_twice_is_one_handle) {
    uint32_t max_subs = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_PARTITION_MAX_SUB_DEVICES,
                                    sizeof max_subs, &max_subs, NULL));
    if (max_subs < 2)
        return; // nothing to partition here
    ur_device_partition_property_t prop = {.type = UR_DEVICE_PARTITION_EQUALLY};
    prop.value.equally = 1;
    ur_device_partition_properties_t props = {UR_STRUCTURE_TYPE_DEVICE_PARTITION_PROPERTIES, NULL,
                                              &prop, 1};
    ur_device_handle_t sub = NULL;
    ur_result_t r = urDevicePartition(T.device, &props, 1, &sub, NULL);
    if (r != UR_RESULT_SUCCESS) {
        prop.type = UR_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
        prop.value.affinity_domain = UR_DEVICE_AFFINITY_DOMAIN_FLAG_NEXT_PARTITIONABLE;
        r = urDevicePartition(T.device, &props, 1, &sub, NULL);
    }
    if (r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE || r == UR_RESULT_ERROR_DEVICE_PARTITION_FAILED ||
        r == UR_RESULT_ERROR_INVALID_VALUE)
        return;
    ck_assert_ur_ok(r);
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urDeviceGetNativeHandle(sub, &native));
    ur_device_handle_t first = NULL, second = NULL;
    ck_assert_ur_ok(urDeviceCreateWithNativeHandle(native, T.adapter, NULL, &first));
    ck_assert_ur_ok(urDeviceCreateWithNativeHandle(native, T.adapter, NULL, &second));
    ck_assert_ptr_eq(first, sub);
    ck_assert_ptr_eq(second, sub);
    ck_assert_ur_ok(urDeviceRelease(first));
    ck_assert_ur_ok(urDeviceRelease(second));
    ck_assert_ur_ok(urDeviceRelease(sub));
}
END_TEST

START_TEST(platform_from_native_twice_is_one_handle) {
    ur_native_handle_t native = 0;
    ur_result_t r = urPlatformGetNativeHandle(T.platform, &native);
    if (r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE)
        return;
    ck_assert_ur_ok(r);
    ur_platform_handle_t first = NULL, second = NULL;
    ck_assert_ur_ok(urPlatformCreateWithNativeHandle(native, T.adapter, NULL, &first));
    ck_assert_ur_ok(urPlatformCreateWithNativeHandle(native, T.adapter, NULL, &second));
    ck_assert_ptr_eq(first, T.platform);
    ck_assert_ptr_eq(second, T.platform);
}
END_TEST

// ---- argument checks come before feature checks ----

START_TEST(sampler_bad_addressing_mode_is_invalid_enumeration) {
    ur_sampler_desc_t desc = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, false,
                              (ur_sampler_addressing_mode_t)0x7fff, UR_SAMPLER_FILTER_MODE_NEAREST};
    ur_sampler_handle_t s = NULL;
    ck_assert_ur(urSamplerCreate(T.context, &desc, &s), UR_RESULT_ERROR_INVALID_ENUMERATION);
    desc.addressingMode = UR_SAMPLER_ADDRESSING_MODE_CLAMP;
    desc.filterMode = (ur_sampler_filter_mode_t)0x7fff;
    ck_assert_ur(urSamplerCreate(T.context, &desc, &s), UR_RESULT_ERROR_INVALID_ENUMERATION);
}
END_TEST

START_TEST(context_flags_outside_the_mask_are_invalid_enumeration) {
    ur_context_properties_t props = {UR_STRUCTURE_TYPE_CONTEXT_PROPERTIES, NULL, 0x80000000u};
    ur_context_handle_t c = NULL;
    ck_assert_ur(urContextCreate(1, &T.device, &props, &c), UR_RESULT_ERROR_INVALID_ENUMERATION);
}
END_TEST

START_TEST(queue_high_and_low_priority_are_invalid_properties) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_PRIORITY_HIGH | UR_QUEUE_FLAG_PRIORITY_LOW};
    ur_queue_handle_t q = NULL;
    ck_assert_ur(urQueueCreate(T.context, T.device, &props, &q),
                 UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES);
    props.flags = UR_QUEUE_FLAG_SUBMISSION_BATCHED | UR_QUEUE_FLAG_SUBMISSION_IMMEDIATE;
    ck_assert_ur(urQueueCreate(T.context, T.device, &props, &q),
                 UR_RESULT_ERROR_INVALID_QUEUE_PROPERTIES);
    props.flags = 0x80000000u;
    ck_assert_ur(urQueueCreate(T.context, T.device, &props, &q),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
}
END_TEST

// ---- urEnqueueUSMFill2D against a host reference ----

// pitch, width, height, pattern size: UR's conformance shapes, and patterns that span rows or
// do not divide a row.
static const size_t fill_shapes[][4] = {
    {1, 1, 1, 1},        {1024, 256, 1, 256},   {1024, 256, 1, 4},
    {1024, 57, 1, 1},    {1024, 1024, 1, 256},  {1024, 1024, 1, 1024},
    {1024, 256, 256, 1}, {1024, 256, 256, 256}, {1024, 256, 256, 65536},
    {234, 233, 1, 1},    {234, 233, 35, 1},     {1024, 256, 35, 128},
    {64, 16, 8, 32},     {64, 16, 8, 128},      {40, 12, 4, 16},
    {40, 6, 8, 4},       {512, 256, 4, 2},      {512, 256, 4, 8},
    {512, 256, 4, 16},   {512, 256, 4, 64},     {512, 256, 4, 512},
    {512, 256, 4, 1024}, {16, 2, 4, 8},
};
#define FILL_SHAPES ((int)(sizeof fill_shapes / sizeof fill_shapes[0]))

START_TEST(usm_fill_2d_matches_the_host_reference) {
    bool supported = false;
    ck_assert_ur_ok(urContextGetInfo(T.context, UR_CONTEXT_INFO_USM_FILL2D_SUPPORT,
                                     sizeof supported, &supported, NULL));
    if (!supported || !device_usm())
        return;
    size_t pitch = fill_shapes[_i][0], width = fill_shapes[_i][1], height = fill_shapes[_i][2],
           psize = fill_shapes[_i][3];
    size_t total = pitch * height;
    uint8_t *pattern = malloc(psize), *host = malloc(total), *want = malloc(total);
    ck_assert(pattern != NULL && host != NULL && want != NULL);
    for (size_t i = 0; i < psize; ++i)
        pattern[i] = (uint8_t)(i * 31 + i / 256 + 7);
    // The padding keeps what was there before the fill.
    memset(want, 0xee, total);
    for (size_t r = 0; r < height; ++r)
        for (size_t c = 0; c < width; ++c)
            want[r * pitch + c] = pattern[(r * width + c) % psize];
    void *mem = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, total, &mem));
    uint8_t ee = 0xee;
    ck_assert_ur_ok(urEnqueueUSMFill(T.queue, mem, 1, &ee, total, 0, NULL, NULL));
    ur_event_handle_t done = NULL;
    ck_assert_ur_ok(
        urEnqueueUSMFill2D(T.queue, mem, pitch, psize, pattern, width, height, 0, NULL, &done));
    ck_assert_ur_ok(urEventWait(1, &done));
    ck_assert_ur_ok(urEventRelease(done));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, host, mem, total, 0, NULL, NULL));
    for (size_t i = 0; i < total; ++i)
        ck_assert_msg(
            host[i] == want[i],
            "pitch %zu width %zu height %zu pattern %zu: byte %zu (row %zu) is %u, not %u", pitch,
            width, height, psize, i, i / pitch, host[i], want[i]);
    ck_assert_ur_ok(urUSMFree(T.context, mem));
    free(pattern);
    free(host);
    free(want);
}
END_TEST

// ---- bindless images: the device query and the entry points agree ----

START_TEST(bindless_images_follow_the_device_query) {
    static const ur_device_info_t queries[] = {
        UR_DEVICE_INFO_BINDLESS_IMAGES_SUPPORT_EXP, UR_DEVICE_INFO_MIPMAP_SUPPORT_EXP,
        UR_DEVICE_INFO_EXTERNAL_MEMORY_IMPORT_SUPPORT_EXP, UR_DEVICE_INFO_IMAGE_ARRAY_SUPPORT_EXP,
        UR_DEVICE_INFO_BINDLESS_SAMPLE_2D_USM_SUPPORT_EXP};
    ur_bool_t on = false;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, queries[0], sizeof on, &on, NULL));
    ur_image_format_t f = {UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_FLOAT};
    ur_image_desc_t d = {
        UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, UR_MEM_TYPE_IMAGE2D, 4, 4, 0, 0, 0, 0, 0, 0};
    ur_exp_image_mem_native_handle_t m = 0;
    // Arguments are checked first, whatever the answer.
    ck_assert_ur(urBindlessImagesImageAllocateExp(T.context, T.device, NULL, &d, &m),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ur_result_t r = urBindlessImagesImageAllocateExp(T.context, T.device, &f, &d, &m);
    if (!on) {
        // No bindless images: every related query says no, and the entry points say so.
        for (size_t i = 1; i < sizeof queries / sizeof queries[0]; ++i) {
            ur_bool_t b = true;
            ck_assert_ur_ok(urDeviceGetInfo(T.device, queries[i], sizeof b, &b, NULL));
            ck_assert_msg(!b, "device info %#x is true without bindless images",
                          (unsigned)queries[i]);
        }
        ck_assert_ur(r, UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        return;
    }
    ck_assert_ur_ok(r);
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, m));
}
END_TEST

int main(void) {
    Suite *s = suite_create("behaviour");
    TCase *tc = urc_test_tcase("urEventCreateWithNativeHandle", setup, teardown);
    tcase_add_test(tc, native_zero_event_is_complete);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("cross-context waits", setup, teardown);
    tcase_add_test(tc, wait_list_across_contexts);
    tcase_add_test(tc, host_task_waits_across_contexts);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("handle identity", setup, teardown);
    tcase_add_test(tc, device_from_native_twice_is_one_handle);
    tcase_add_test(tc, sub_device_from_native_twice_is_one_handle);
    tcase_add_test(tc, platform_from_native_twice_is_one_handle);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("argument checks first", setup, teardown);
    tcase_add_test(tc, sampler_bad_addressing_mode_is_invalid_enumeration);
    tcase_add_test(tc, context_flags_outside_the_mask_are_invalid_enumeration);
    tcase_add_test(tc, queue_high_and_low_priority_are_invalid_properties);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("urBindlessImagesImageAllocateExp", setup, teardown);
    tcase_add_test(tc, bindless_images_follow_the_device_query);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("urEnqueueUSMFill2D", setup, teardown);
    tcase_add_loop_test(tc, usm_fill_2d_matches_the_host_reference, 0, FILL_SHAPES);
    suite_add_tcase(s, tc);
    return urc_test_main_with_platform(s, "no platform");
}
