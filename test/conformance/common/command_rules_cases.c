// SPDX-License-Identifier: MIT
// The rule-table cases every adapter shares (command_rules_cases.h).
#include "command_rules_cases.h"

#include <stdint.h>
#include <string.h>

static struct {
    ur_context_handle_t context;
    ur_device_handle_t device;
    ur_queue_handle_t queue;
    ur_kernel_handle_t kernel;
} H;

void command_rules_cases_bind(ur_context_handle_t context, ur_device_handle_t device,
                              ur_queue_handle_t queue, ur_kernel_handle_t add_value) {
    H.context = context;
    H.device = device;
    H.queue = queue;
    H.kernel = add_value;
}

static ur_bool_t device_bool(ur_device_info_t name) {
    ur_bool_t b = 0;
    if (urDeviceGetInfo(H.device, name, sizeof b, &b, NULL) != UR_RESULT_SUCCESS)
        return 0;
    return b;
}

static bool has_usm(void) {
    ur_device_usm_access_capability_flags_t caps = 0;
    return urDeviceGetInfo(H.device, UR_DEVICE_INFO_USM_DEVICE_SUPPORT, sizeof caps, &caps, NULL) ==
               UR_RESULT_SUCCESS &&
           caps != 0;
}

static uint32_t update_caps(void) {
    uint32_t caps = 0;
    if (urDeviceGetInfo(H.device, UR_DEVICE_INFO_COMMAND_BUFFER_UPDATE_CAPABILITIES_EXP,
                        sizeof caps, &caps, NULL) != UR_RESULT_SUCCESS)
        return 0;
    return caps;
}

static ur_exp_command_buffer_handle_t make_cb(bool updatable) {
    ur_exp_command_buffer_desc_t d = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, updatable,
                                      true, false};
    ur_exp_command_buffer_handle_t cb = NULL;
    ck_assert_ur_ok(urCommandBufferCreateExp(H.context, H.device, &d, &cb));
    return cb;
}

static char *usm(size_t size) {
    void *p = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(H.context, H.device, NULL, NULL, size, &p));
    return p;
}

static size_t max_work_group(void) {
    size_t n = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(H.device, UR_DEVICE_INFO_MAX_WORK_GROUP_SIZE, sizeof n, &n, NULL));
    return n;
}

static ur_exp_kernel_arg_properties_t pointer_arg(uint32_t index, void *p) {
    ur_exp_kernel_arg_properties_t a = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                        NULL,
                                        UR_EXP_KERNEL_ARG_TYPE_POINTER,
                                        index,
                                        sizeof p,
                                        {.pointer = p}};
    return a;
}

// USM copies, fills, prefetches and advice past a 4096-byte allocation (4097 bytes, 200 bytes
// at offset 4000, SIZE_MAX), of 0 bytes, and fills whose pattern does not divide the size: the
// append answers what the enqueue answers, INVALID_SIZE.
START_TEST(usm_appends_answer_as_enqueue) {
    if (!has_usm() || !device_bool(UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP))
        return;
    char *a = usm(4096), *b = usm(4096);
    ur_exp_command_buffer_handle_t cb = make_cb(false);
    const struct {
        char *dst, *src;
        size_t size;
    } copies[] = {
        {b, a, 4097}, {b, a + 4000, 200}, {b + 4000, a, 200}, {b, a, SIZE_MAX}, {b, a, 0}};
    for (size_t i = 0; i < sizeof copies / sizeof copies[0]; ++i) {
        ur_result_t eager = urEnqueueUSMMemcpy(H.queue, true, copies[i].dst, copies[i].src,
                                               copies[i].size, 0, NULL, NULL);
        ck_assert_ur(eager, UR_RESULT_ERROR_INVALID_SIZE);
        ck_assert_ur(urCommandBufferAppendUSMMemcpyExp(cb, copies[i].dst, copies[i].src,
                                                       copies[i].size, 0, NULL, 0, NULL, NULL, NULL,
                                                       NULL),
                     eager);
    }
    uint32_t pattern = 7;
    const struct {
        char *ptr;
        size_t psize, size;
    } fills[] = {{a, 4, 4100}, {a + 4000, 4, 200}, {a, 4, SIZE_MAX - 3}, {a, 8, 12}, {a, 4, 0}};
    for (size_t i = 0; i < sizeof fills / sizeof fills[0]; ++i) {
        ur_result_t eager = urEnqueueUSMFill(H.queue, fills[i].ptr, fills[i].psize, &pattern,
                                             fills[i].size, 0, NULL, NULL);
        ck_assert_ur(eager, UR_RESULT_ERROR_INVALID_SIZE);
        ck_assert_ur(urCommandBufferAppendUSMFillExp(cb, fills[i].ptr, &pattern, fills[i].psize,
                                                     fills[i].size, 0, NULL, 0, NULL, NULL, NULL,
                                                     NULL),
                     eager);
    }
    const struct {
        char *ptr;
        size_t size;
    } hints[] = {{a, 4097}, {a + 4000, 200}, {a, SIZE_MAX}, {a, 0}};
    for (size_t i = 0; i < sizeof hints / sizeof hints[0]; ++i) {
        ur_result_t eager =
            urEnqueueUSMPrefetch(H.queue, hints[i].ptr, hints[i].size,
                                 UR_USM_MIGRATION_FLAG_HOST_TO_DEVICE, 0, NULL, NULL);
        ck_assert_ur(eager, UR_RESULT_ERROR_INVALID_SIZE);
        ck_assert_ur(urCommandBufferAppendUSMPrefetchExp(cb, hints[i].ptr, hints[i].size,
                                                         UR_USM_MIGRATION_FLAG_HOST_TO_DEVICE, 0,
                                                         NULL, 0, NULL, NULL, NULL, NULL),
                     eager);
        eager = urEnqueueUSMAdvise(H.queue, hints[i].ptr, hints[i].size, UR_USM_ADVICE_FLAG_DEFAULT,
                                   NULL);
        ck_assert_ur(eager, UR_RESULT_ERROR_INVALID_SIZE);
        ck_assert_ur(urCommandBufferAppendUSMAdviseExp(cb, hints[i].ptr, hints[i].size,
                                                       UR_USM_ADVICE_FLAG_DEFAULT, 0, NULL, 0, NULL,
                                                       NULL, NULL, NULL),
                     eager);
    }
    // Nothing was recorded: the buffer finalizes and runs.
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(H.queue, cb, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(H.queue));
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urUSMFree(H.context, a));
    ck_assert_ur_ok(urUSMFree(H.context, b));
}
END_TEST

// A global size of 0, a local size past the device's, an offset whose sum with the size
// overflows, an argument index past the kernel's: the append answers what the enqueue answers.
START_TEST(launch_appends_answer_as_enqueue) {
    if (!has_usm())
        return;
    char *a = usm(4096);
    int v = 1;
    ur_exp_kernel_arg_properties_t args[2] = {pointer_arg(0, a),
                                              urc_test_arg_value(1, &v, sizeof v)};
    size_t zero = 0, g = 64, big = max_work_group() * 2, far = SIZE_MAX;
    const struct {
        const size_t *offset, *global, *local;
        uint32_t index;
        ur_result_t expected;
    } launches[] = {{NULL, &zero, NULL, 1, UR_RESULT_ERROR_INVALID_WORK_DIMENSION},
                    {NULL, &big, &big, 1, UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE},
                    {&far, &g, NULL, 1, UR_RESULT_ERROR_INVALID_VALUE},
                    {NULL, &g, NULL, UINT32_MAX, UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX},
                    {NULL, &g, NULL, 2, UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX}};
    bool cbs = device_bool(UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP);
    ur_exp_command_buffer_handle_t cb = cbs ? make_cb(false) : NULL;
    for (size_t i = 0; i < sizeof launches / sizeof launches[0]; ++i) {
        args[1].index = launches[i].index;
        ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(H.queue, H.kernel, 1, launches[i].offset,
                                                      launches[i].global, launches[i].local, 2,
                                                      args, NULL, 0, NULL, NULL),
                     launches[i].expected);
        if (cb != NULL)
            ck_assert_ur(urCommandBufferAppendKernelLaunchWithArgsExp(
                             cb, H.kernel, 1, launches[i].offset, launches[i].global,
                             launches[i].local, 2, args, 0, NULL, 0, NULL, 0, NULL, NULL, NULL,
                             NULL),
                         launches[i].expected);
    }
    // The suggested local size takes arguments too, with the same index rule.
    size_t suggested[3] = {0, 0, 0}, origin = 0;
    args[1].index = UINT32_MAX;
    ur_result_t r = urKernelGetSuggestedLocalWorkSizeWithArgs(H.kernel, H.queue, 1, &origin, &g, 2,
                                                              args, suggested);
    if (r != UR_RESULT_ERROR_UNSUPPORTED_FEATURE)
        ck_assert_ur(r, UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    ck_assert_ur_ok(urQueueFinish(H.queue));
    if (cb != NULL)
        ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urUSMFree(H.context, a));
}
END_TEST

// An update's new launch follows the launch rule (a global size of 0, a local size past the
// device's, an offset of SIZE_MAX) and its arguments the kernel's count (a pointer argument at
// index UINT32_MAX crashed Intel's OpenCL runtime).
START_TEST(updates_follow_the_launch_rule) {
    uint32_t caps = update_caps();
    const uint32_t needed = UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_ARGUMENTS |
                            UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_LOCAL_WORK_SIZE |
                            UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_SIZE |
                            UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_OFFSET;
    if (!has_usm() || !device_bool(UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP) ||
        (caps & needed) != needed)
        return;
    enum { N = 64 };
    int *a = (int *)usm(N * sizeof(int)), *b = (int *)usm(N * sizeof(int));
    int v = 1;
    ur_exp_kernel_arg_properties_t args[2] = {pointer_arg(0, a),
                                              urc_test_arg_value(1, &v, sizeof v)};
    size_t g = N, l = 16;
    ur_exp_command_buffer_handle_t cb = make_cb(true);
    ur_exp_command_buffer_command_handle_t cmd = NULL;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        cb, H.kernel, 1, NULL, &g, &l, 2, args, 0, NULL, 0, NULL, 0, NULL, NULL, NULL, &cmd));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    size_t zero = 0, big = max_work_group() * 2, far = SIZE_MAX;
    ur_exp_command_buffer_update_pointer_arg_desc_t p = {
        UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_POINTER_ARG_DESC, NULL, UINT32_MAX, NULL, &b};
    const struct {
        size_t *offset, *global, *local;
        uint32_t pointers;
        ur_result_t expected;
    } updates[] = {{NULL, &zero, NULL, 0, UR_RESULT_ERROR_INVALID_WORK_DIMENSION},
                   {NULL, &big, &big, 0, UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE},
                   {&far, &g, NULL, 0, UR_RESULT_ERROR_INVALID_VALUE},
                   {NULL, NULL, NULL, 1, UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX}};
    for (size_t i = 0; i < sizeof updates / sizeof updates[0]; ++i) {
        ur_exp_command_buffer_update_kernel_launch_desc_t u;
        memset(&u, 0, sizeof u);
        u.stype = UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_KERNEL_LAUNCH_DESC;
        u.hCommand = cmd;
        u.newWorkDim = 1;
        u.pNewGlobalWorkOffset = updates[i].offset;
        u.pNewGlobalWorkSize = updates[i].global;
        u.pNewLocalWorkSize = updates[i].local;
        u.numNewPointerArgs = updates[i].pointers;
        u.pNewPointerArgList = updates[i].pointers ? &p : NULL;
        ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u), updates[i].expected);
    }
    // The buffer still runs (the simulated Level Zero driver records kernels without running
    // them, so the data are each adapter's own suite's to check).
    ck_assert_ur_ok(urEnqueueCommandBufferExp(H.queue, cb, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(H.queue));
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urUSMFree(H.context, a));
    ck_assert_ur_ok(urUSMFree(H.context, b));
}
END_TEST

// urUSMContextMemcpyExp follows urEnqueueUSMMemcpy's rule (SIZE_MAX crashed Intel's runtime).
START_TEST(context_copy_answers_as_enqueue) {
    if (!has_usm() || !device_bool(UR_DEVICE_INFO_USM_CONTEXT_MEMCPY_SUPPORT_EXP))
        return;
    char *a = usm(4096), *b = usm(4096);
    const struct {
        char *dst, *src;
        size_t size;
    } copies[] = {{b, a, SIZE_MAX}, {b, a, 4097}, {b, a + 4000, 200}, {b + 4000, a, 200}};
    for (size_t i = 0; i < sizeof copies / sizeof copies[0]; ++i)
        ck_assert_ur(urUSMContextMemcpyExp(H.context, copies[i].dst, copies[i].src, copies[i].size),
                     UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urUSMContextMemcpyExp(H.context, b, a, 4096));
    ck_assert_ur_ok(urUSMFree(H.context, a));
    ck_assert_ur_ok(urUSMFree(H.context, b));
}
END_TEST

// UR's conformance rule for 2D USM commands: pitch * height must fit the allocation, so a
// destination pitch of width + 1 over a one-row allocation is INVALID_SIZE, and so is a 2D
// fill whose rows pass the end.
START_TEST(usm_2d_rows_must_fit) {
    if (!has_usm())
        return;
    enum { W = 256 };
    char *dst = usm(W), *src = usm(W);
    ck_assert_ur(urEnqueueUSMMemcpy2D(H.queue, true, dst, W + 1, src, W, W, 1, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueUSMMemcpy2D(H.queue, true, dst, W, src, W + 1, W, 1, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urEnqueueUSMMemcpy2D(H.queue, true, dst, W, src, W, W, 1, 0, NULL, NULL));
    uint32_t pattern = 1;
    ck_assert_ur(
        urEnqueueUSMFill2D(H.queue, dst, W + 4, sizeof pattern, &pattern, W, 1, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(
        urEnqueueUSMFill2D(H.queue, dst, W / 2, sizeof pattern, &pattern, W / 2, 3, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(
        urEnqueueUSMFill2D(H.queue, dst, W / 2, sizeof pattern, &pattern, W / 2, 2, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(H.queue));
    ck_assert_ur_ok(urUSMFree(H.context, dst));
    ck_assert_ur_ok(urUSMFree(H.context, src));
}
END_TEST

void command_rules_cases_add(TCase *tc) {
    tcase_add_test(tc, usm_appends_answer_as_enqueue);
    tcase_add_test(tc, launch_appends_answer_as_enqueue);
    tcase_add_test(tc, updates_follow_the_launch_rule);
    tcase_add_test(tc, context_copy_answers_as_enqueue);
    tcase_add_test(tc, usm_2d_rows_must_fit);
}
