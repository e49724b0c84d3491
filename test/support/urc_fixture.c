// SPDX-License-Identifier: MIT
#include "urc_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static uint32_t count_platforms(void) {
    if (urLoaderInit(0, NULL) != UR_RESULT_SUCCESS)
        return 0;
    ur_adapter_handle_t adapter = NULL;
    uint32_t n = 0, platforms = 0;
    if (urAdapterGet(1, &adapter, &n) != UR_RESULT_SUCCESS || n == 0)
        return 0;
    if (urPlatformGet(adapter, 0, NULL, &platforms) != UR_RESULT_SUCCESS)
        platforms = 0;
    return platforms;
}

int urc_test_probe_platform(void) {
    // A runtime started here could not be used by Check's forked children (CUDA cannot be used
    // after fork(); OpenCL runtimes start threads): the child probes and exits.
    pid_t pid = fork();
    if (pid == 0)
        _exit(count_platforms() > 0 ? 0 : URC_TEST_SKIP);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status) == URC_TEST_SKIP ? 0 : 1;
}

int urc_test_main_with_platform(Suite *suite, const char *why) {
    int found = urc_test_probe_platform();
    if (found < 0) {
        srunner_free(srunner_create(suite));
        return EXIT_FAILURE;
    }
    return found == 0 ? urc_test_skip(suite, why) : urc_test_run(suite);
}

urc_test_handles_t urc_test_opened;

void urc_test_open(ur_adapter_handle_t *adapter, ur_platform_handle_t *platform,
                   ur_device_handle_t *device, ur_context_handle_t *context,
                   ur_queue_handle_t *queue) {
    ck_assert_ur_ok(urLoaderInit(0, NULL));
    ck_assert_ur_ok(urAdapterGet(1, adapter, NULL));
    ck_assert_ur_ok(urPlatformGet(*adapter, 1, platform, NULL));
    ck_assert_ur_ok(urDeviceGet(*platform, UR_DEVICE_TYPE_ALL, 1, device, NULL));
    ck_assert_ur_ok(urContextCreate(1, device, NULL, context));
    ck_assert_ur_ok(urQueueCreate(*context, *device, NULL, queue));
    urc_test_opened = (urc_test_handles_t){*adapter, *platform, *device, *context, *queue};
}

void urc_test_handles_open(urc_test_handles_t *h) {
    memset(h, 0, sizeof *h);
    urc_test_open(&h->adapter, &h->platform, &h->device, &h->context, &h->queue);
}

void urc_test_handles_close(urc_test_handles_t *h) {
    if (h->queue != NULL)
        ck_assert_ur_ok(urQueueRelease(h->queue));
    if (h->context != NULL)
        ck_assert_ur_ok(urContextRelease(h->context));
    if (h->adapter != NULL)
        urAdapterRelease(h->adapter);
    urLoaderTearDown();
}

bool urc_test_device_says(ur_device_handle_t device, ur_device_info_t what) {
    ur_bool_t b = false;
    ck_assert_ur_ok(urDeviceGetInfo(device, what, sizeof b, &b, NULL));
    return b;
}

bool urc_test_device_simulated(ur_device_handle_t device) {
    char name[256] = "";
    ck_assert_ur_ok(urDeviceGetInfo(device, UR_DEVICE_INFO_NAME, sizeof name, name, NULL));
    return strstr(name, "simulated") != NULL;
}

int urc_test_assert_device_info_sizes(ur_device_handle_t device) {
    int answered = 0;
    for (uint32_t q = 0; q <= 0x9000; ++q) {
        size_t size = 0;
        ur_result_t r = urDeviceGetInfo(device, (ur_device_info_t)q, 0, NULL, &size);
        if (r == UR_RESULT_ERROR_INVALID_ENUMERATION ||
            r == UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION)
            continue;
        ck_assert_msg(r == UR_RESULT_SUCCESS, "query 0x%x: %s", q, urc_test_result_name(r));
        // Extra room must not change the answer's size.
        uint8_t *buf = calloc(size + 16, 1);
        size_t again = 0;
        ck_assert_ur_ok(urDeviceGetInfo(device, (ur_device_info_t)q, size + 16, buf, &again));
        ck_assert_uint_eq(again, size);
        if (size > 0)
            ck_assert_ur_ok(urDeviceGetInfo(device, (ur_device_info_t)q, size, buf, NULL));
        free(buf);
        ++answered;
    }
    return answered;
}

const ur_device_info_t urc_test_sycl_startup_queries[] = {
    UR_DEVICE_INFO_TYPE,
    UR_DEVICE_INFO_VENDOR_ID,
    UR_DEVICE_INFO_MAX_COMPUTE_UNITS,
    UR_DEVICE_INFO_MAX_WORK_ITEM_DIMENSIONS,
    UR_DEVICE_INFO_MAX_WORK_ITEM_SIZES,
    UR_DEVICE_INFO_MAX_WORK_GROUP_SIZE,
    UR_DEVICE_INFO_SINGLE_FP_CONFIG,
    UR_DEVICE_INFO_HALF_FP_CONFIG,
    UR_DEVICE_INFO_DOUBLE_FP_CONFIG,
    UR_DEVICE_INFO_MAX_MEM_ALLOC_SIZE,
    UR_DEVICE_INFO_GLOBAL_MEM_SIZE,
    UR_DEVICE_INFO_LOCAL_MEM_SIZE,
    UR_DEVICE_INFO_IMAGE_SUPPORT,
    UR_DEVICE_INFO_PLATFORM,
    UR_DEVICE_INFO_PARENT_DEVICE,
    UR_DEVICE_INFO_NAME,
    UR_DEVICE_INFO_VENDOR,
    UR_DEVICE_INFO_DRIVER_VERSION,
    UR_DEVICE_INFO_VERSION,
    UR_DEVICE_INFO_BACKEND_RUNTIME_VERSION,
    UR_DEVICE_INFO_EXTENSIONS,
    UR_DEVICE_INFO_ATOMIC_64,
    UR_DEVICE_INFO_ATOMIC_MEMORY_ORDER_CAPABILITIES,
    UR_DEVICE_INFO_ATOMIC_MEMORY_SCOPE_CAPABILITIES,
    UR_DEVICE_INFO_ATOMIC_FENCE_ORDER_CAPABILITIES,
    UR_DEVICE_INFO_ATOMIC_FENCE_SCOPE_CAPABILITIES,
    UR_DEVICE_INFO_USM_HOST_SUPPORT,
    UR_DEVICE_INFO_USM_DEVICE_SUPPORT,
    UR_DEVICE_INFO_USM_SINGLE_SHARED_SUPPORT,
    UR_DEVICE_INFO_USM_CROSS_SHARED_SUPPORT,
    UR_DEVICE_INFO_USM_SYSTEM_SHARED_SUPPORT,
    UR_DEVICE_INFO_SUB_GROUP_SIZES_INTEL,
    UR_DEVICE_INFO_MAX_NUM_SUB_GROUPS,
    UR_DEVICE_INFO_USE_NATIVE_ASSERT,
    UR_DEVICE_INFO_GLOBAL_VARIABLE_SUPPORT,
    UR_DEVICE_INFO_HOST_PIPE_READ_WRITE_SUPPORT,
    UR_DEVICE_INFO_BUILD_ON_SUBDEVICE,
    UR_DEVICE_INFO_COMPILER_AVAILABLE,
    UR_DEVICE_INFO_LINKER_AVAILABLE,
    UR_DEVICE_INFO_QUEUE_PROPERTIES,
    UR_DEVICE_INFO_PROFILING_TIMER_RESOLUTION,
    UR_DEVICE_INFO_MAX_WORK_GROUPS_3D,
    UR_DEVICE_INFO_KERNEL_LAUNCH_CAPABILITIES,
    UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP,
    UR_DEVICE_INFO_BINDLESS_IMAGES_SUPPORT_EXP,
    UR_DEVICE_INFO_ENQUEUE_NATIVE_COMMAND_SUPPORT_EXP,
    UR_DEVICE_INFO_PROGRAM_SET_SPECIALIZATION_CONSTANTS,
};
const size_t urc_test_sycl_startup_query_count =
    sizeof urc_test_sycl_startup_queries / sizeof urc_test_sycl_startup_queries[0];

void urc_test_assert_device_answers(ur_device_handle_t device, const ur_device_info_t *queries,
                                    size_t n) {
    for (size_t i = 0; i < n; ++i) {
        size_t size = 0;
        ur_result_t r = urDeviceGetInfo(device, queries[i], 0, NULL, &size);
        ck_assert_msg(r == UR_RESULT_SUCCESS, "query %d: %s", (int)queries[i],
                      urc_test_result_name(r));
    }
}

void urc_test_update_value_and_replay(ur_exp_command_buffer_handle_t cb,
                                      ur_exp_command_buffer_command_handle_t cmd, uint32_t index,
                                      size_t size, const void *value, ur_queue_handle_t queue) {
    ur_exp_command_buffer_update_value_arg_desc_t val = urc_test_update_value(index, size, value);
    ur_exp_command_buffer_update_kernel_launch_desc_t u = urc_test_update_of(cmd);
    u.numNewValueArgs = 1;
    u.pNewValueArgList = &val;
    ck_assert_ur_ok(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(queue, cb, 0, NULL, NULL));
}

ur_exp_image_mem_native_handle_t urc_test_image_alloc(ur_context_handle_t context,
                                                      ur_device_handle_t device,
                                                      const ur_image_format_t *f,
                                                      const ur_image_desc_t *d) {
    ur_exp_image_mem_native_handle_t m = 0;
    ck_assert_ur_ok(urBindlessImagesImageAllocateExp(context, device, f, d, &m));
    ck_assert(m != 0);
    return m;
}

ur_program_build_status_t urc_test_build_status(ur_program_handle_t program,
                                                ur_device_handle_t device) {
    ur_program_build_status_t s = UR_PROGRAM_BUILD_STATUS_FORCE_UINT32;
    ck_assert_ur_ok(
        urProgramGetBuildInfo(program, device, UR_PROGRAM_BUILD_INFO_STATUS, sizeof s, &s, NULL));
    return s;
}

ur_program_binary_type_t urc_test_binary_type(ur_program_handle_t program,
                                              ur_device_handle_t device) {
    ur_program_binary_type_t t = UR_PROGRAM_BINARY_TYPE_FORCE_UINT32;
    ck_assert_ur_ok(urProgramGetBuildInfo(program, device, UR_PROGRAM_BUILD_INFO_BINARY_TYPE,
                                          sizeof t, &t, NULL));
    return t;
}
