// SPDX-License-Identifier: MIT
// urCommandBuffer* and urEnqueueCommandBufferExp of the Level Zero adapter over the simulated
// driver (regular command lists; kernels are recorded, copies and fills run): chains replayed
// 1000 times with the data checked, kernel launches counted per run, runs back to back and
// chained by events, updates through mutable command lists between replays (each launch's
// recorded arguments, sizes and offset checked), rectangles, native commands, and UR's results
// for bad input; the rule table's shared cases (appends and updates answer as their urEnqueue*
// twins). Runs with immediate and regular queues.
#include <string.h>

#include "../common/command_rules_cases.h"
#include "l0t.h"

enum { N = 64 };

static ur_exp_command_buffer_handle_t make_cb(void) {
    ur_exp_command_buffer_desc_t d = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, false, true,
                                      false};
    ur_exp_command_buffer_handle_t cb = NULL;
    ck_assert_ur_ok(urCommandBufferCreateExp(T.context, T.device, &d, &cb));
    return cb;
}

static int *device_ints(void) {
    void *p = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, N * sizeof(int), &p));
    return p;
}

START_TEST(device_info) {
    ur_bool_t b = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP, sizeof b, &b, NULL));
    ck_assert_int_eq(b, 1);
    // The simulated driver's mutable command lists change everything.
    uint32_t caps = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_COMMAND_BUFFER_UPDATE_CAPABILITIES_EXP,
                                    sizeof caps, &caps, NULL));
    ck_assert_uint_eq(caps, UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_ARGUMENTS |
                                UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_LOCAL_WORK_SIZE |
                                UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_SIZE |
                                UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_OFFSET |
                                UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_HANDLE |
                                UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_EVENTS);
    b = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_COMMAND_BUFFER_EVENT_SUPPORT_EXP,
                                    sizeof b, &b, NULL));
    ck_assert_int_eq(b, 1);
    ur_exp_command_buffer_desc_t d = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, true, true,
                                      false};
    ur_exp_command_buffer_handle_t cb = NULL;
    ck_assert_ur_ok(urCommandBufferCreateExp(T.context, T.device, &d, &cb));
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
}
END_TEST

// fill a = run; kernel(a); copy a -> b; kernel(b); copy b -> host; checked 1000 times, with
// two launches recorded per run.
START_TEST(chain_replayed_1000_times) {
    ur_program_handle_t p = l0t_built("cb_kernels.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_value", &k));
    int *a = device_ints(), *b = device_ints();
    int host[N], pattern = 0, v = 1;
    ur_exp_command_buffer_handle_t cb = make_cb();
    ur_exp_command_buffer_sync_point_t sp[5];
    ck_assert_ur_ok(urCommandBufferAppendUSMFillExp(
        cb, a, &pattern, sizeof pattern, N * sizeof(int), 0, NULL, 0, NULL, &sp[0], NULL, NULL));
    ur_exp_kernel_arg_properties_t args[2] = {urc_test_arg_pointer(0, a),
                                              urc_test_arg_value(1, &v, sizeof v)};
    size_t global = N, local = 16;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        cb, k, 1, NULL, &global, &local, 2, args, 0, NULL, 1, &sp[0], 0, NULL, &sp[1], NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(cb, b, a, N * sizeof(int), 1, &sp[1], 0, NULL,
                                                      &sp[2], NULL, NULL));
    args[0].value.pointer = b;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        cb, k, 1, NULL, &global, &local, 2, args, 0, NULL, 1, &sp[2], 0, NULL, &sp[3], NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(cb, host, b, sizeof host, 1, &sp[3], 0, NULL,
                                                      &sp[4], NULL, NULL));
    ck_assert_uint_eq(sp[4], 4);
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    for (int run = 0; run < 1000; ++run) {
        pattern = run; // the fill's pattern was captured at append: it stays 0
        memset(host, 0xff, sizeof host);
        uint64_t before = T.sim.GetLaunchCount();
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        ck_assert_ur_ok(urQueueFinish(T.queue));
        ck_assert_uint_eq(T.sim.GetLaunchCount() - before, 2);
        for (int i = 0; i < N; ++i)
            ck_assert_int_eq(host[i], 0);
    }
    ze_sim_launch_t l;
    ck_assert_int_eq(T.sim.GetLaunch(0, &l), ZE_RESULT_SUCCESS);
    ck_assert_str_eq(l.kernel_name, "add_value");
    ck_assert_uint_eq(l.group_size[0], 16);
    ck_assert_uint_eq(l.group_count[0], N / 16);
    ck_assert_uint_eq(l.num_args_set, 2);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_ur_ok(urUSMFree(T.context, b));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// Buffers: write from the host, copy, fill part, read back; runs chained by events on a
// second queue, and back to back.
START_TEST(buffer_runs_back_to_back_and_chained) {
    ur_mem_handle_t m1 = NULL, m2 = NULL;
    ck_assert_ur_ok(
        urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, N * sizeof(int), NULL, &m1));
    ck_assert_ur_ok(
        urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, N * sizeof(int), NULL, &m2));
    int in[N], out[N], nine = 9;
    for (int i = 0; i < N; ++i)
        in[i] = i;
    ur_exp_command_buffer_handle_t cb = make_cb();
    ck_assert_ur_ok(urCommandBufferAppendMemBufferWriteExp(cb, m1, 0, sizeof in, in, 0, NULL, 0,
                                                           NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendMemBufferCopyExp(cb, m1, m2, 0, 0, sizeof in, 0, NULL, 0,
                                                          NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendMemBufferFillExp(
        cb, m2, &nine, sizeof nine, 0, 8 * sizeof(int), 0, NULL, 0, NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendMemBufferReadExp(cb, m2, 0, sizeof out, out, 0, NULL, 0,
                                                          NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    for (int run = 0; run < 50; ++run)
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], i < 8 ? 9 : i);
    ur_queue_handle_t q2 = l0t_queue(UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    ur_event_handle_t prev = NULL;
    for (int run = 0; run < 20; ++run) {
        ur_event_handle_t ev = NULL;
        in[20] = run;
        ck_assert_ur_ok(urEnqueueCommandBufferExp(run % 2 ? q2 : T.queue, cb, prev != NULL,
                                                  prev ? &prev : NULL, &ev));
        ck_assert_int_eq(l0t_command(ev), UR_COMMAND_ENQUEUE_COMMAND_BUFFER_EXP);
        ck_assert_ur_ok(urEventWait(1, &ev));
        ck_assert_int_eq(out[20], run);
        if (prev != NULL)
            ck_assert_ur_ok(urEventRelease(prev));
        prev = ev;
    }
    ck_assert_ur_ok(urEventRelease(prev));
    ck_assert_ur_ok(urQueueRelease(q2));
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urMemRelease(m1));
    ck_assert_ur_ok(urMemRelease(m2));
}
END_TEST

// The buffer keeps the kernels its list runs: kernel and program released after the append.
START_TEST(buffer_keeps_its_kernels) {
    ur_program_handle_t p = l0t_built("cb_kernels.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "empty_kernel", &k));
    ur_exp_command_buffer_handle_t cb = make_cb();
    size_t global = 8;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchExp(cb, k, 1, NULL, &global, NULL, 0, NULL, 0,
                                                         NULL, 0, NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    uint64_t before = T.sim.GetLaunchCount();
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_uint_eq(T.sim.GetLaunchCount() - before, 1);
    ze_sim_launch_t l;
    ck_assert_int_eq(T.sim.GetLaunch(0, &l), ZE_RESULT_SUCCESS);
    ck_assert_str_eq(l.kernel_name, "empty_kernel");
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
}
END_TEST

START_TEST(bad_input) {
    int *a = device_ints();
    int v = 1;
    ur_exp_command_buffer_handle_t cb = make_cb(), other = make_cb();
    ur_exp_command_buffer_sync_point_t sp = 0, theirs = 0;
    ck_assert_ur_ok(urCommandBufferAppendUSMFillExp(other, a, &v, sizeof v, sizeof v, 0, NULL, 0,
                                                    NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendUSMFillExp(other, a, &v, sizeof v, sizeof v, 0, NULL, 0,
                                                    NULL, &theirs, NULL, NULL));
    ck_assert_ur(urCommandBufferAppendUSMFillExp(cb, a, &v, sizeof v, sizeof v, 1, &theirs, 0, NULL,
                                                 NULL, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_SYNC_POINT_EXP);
    ck_assert_ur_ok(urCommandBufferAppendUSMFillExp(cb, a, &v, sizeof v, sizeof v, 0, NULL, 0, NULL,
                                                    &sp, NULL, NULL));
    ck_assert_uint_eq(sp, 0);
    ur_exp_command_buffer_command_handle_t cmd = NULL;
    ck_assert_ur(urCommandBufferAppendUSMFillExp(cb, a, &v, sizeof v, sizeof v, 0, NULL, 0, NULL,
                                                 NULL, NULL, &cmd),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    // A wait list naming something that is no event.
    ur_event_handle_t ev = NULL;
    ck_assert_ur(urCommandBufferAppendUSMFillExp(cb, a, &v, sizeof v, sizeof v, 0, NULL, 1,
                                                 (ur_event_handle_t *)&cb, NULL, &ev, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ptr_null(ev);
    ck_assert_ur(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ck_assert_ur(urCommandBufferFinalizeExp(cb), UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur(urCommandBufferAppendUSMFillExp(cb, a, &v, sizeof v, sizeof v, 0, NULL, 0, NULL,
                                                 NULL, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur(urCommandBufferFinalizeExp((ur_exp_command_buffer_handle_t)T.queue),
                 UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP);
    uint32_t n = 0;
    ck_assert_ur_ok(urCommandBufferGetInfoExp(cb, UR_EXP_COMMAND_BUFFER_INFO_REFERENCE_COUNT,
                                              sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 1);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urCommandBufferReleaseExp(other));
    ck_assert_ur_ok(urUSMFree(T.context, a));
}
END_TEST

static ur_exp_command_buffer_handle_t make_updatable_cb(void) {
    ur_exp_command_buffer_desc_t d = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, true, true,
                                      false};
    ur_exp_command_buffer_handle_t cb = NULL;
    ck_assert_ur_ok(urCommandBufferCreateExp(T.context, T.device, &d, &cb));
    return cb;
}

// What the newest recorded launch must show.
typedef struct expected_t {
    const char *kernel;
    void *ptr;
    int value;
    uint32_t group_size, group_count, offset;
} expected_t;

static void check_launch(const expected_t *e) {
    ze_sim_launch_t l;
    ck_assert_int_eq(T.sim.GetLaunch(0, &l), ZE_RESULT_SUCCESS);
    ck_assert_str_eq(l.kernel_name, e->kernel);
    ck_assert_uint_eq(l.num_args_set, 2);
    ck_assert_uint_eq(l.group_size[0], e->group_size);
    ck_assert_uint_eq(l.group_count[0], e->group_count);
    ck_assert_uint_eq(l.global_offset[0], e->offset);
    void *ptr = NULL;
    int value = 0;
    size_t size = sizeof ptr;
    ck_assert_int_eq(T.sim.GetLaunchArg(0, 0, &size, &ptr, NULL), ZE_RESULT_SUCCESS);
    ck_assert_ptr_eq(ptr, e->ptr);
    size = sizeof value;
    ck_assert_int_eq(T.sim.GetLaunchArg(0, 1, &size, &value, NULL), ZE_RESULT_SUCCESS);
    ck_assert_int_eq(value, e->value);
}

// fill a; add_value(a, v) with sub_value as alternative; copy a -> host. Replayed 200 times
// with one kind of update before each run (value, pointer, sizes, offset, kernel), the copied
// data and the recorded launch checked after every run.
START_TEST(updates_between_replays) {
    ur_program_handle_t p = l0t_built("cb_kernels.spv");
    ur_kernel_handle_t k = NULL, alt = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_value", &k));
    ck_assert_ur_ok(urKernelCreate(p, "sub_value", &alt));
    int *a = device_ints(), *b = device_ints();
    int host[N], pattern = 7, v = 1;
    ur_exp_command_buffer_handle_t cb = make_updatable_cb();
    ur_exp_command_buffer_sync_point_t sp[3];
    ck_assert_ur_ok(urCommandBufferAppendUSMFillExp(
        cb, a, &pattern, sizeof pattern, N * sizeof(int), 0, NULL, 0, NULL, &sp[0], NULL, NULL));
    ur_exp_kernel_arg_properties_t args[2] = {urc_test_arg_pointer(0, a),
                                              urc_test_arg_value(1, &v, sizeof v)};
    size_t global = N, local = 16;
    ur_exp_command_buffer_command_handle_t cmd = NULL;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        cb, k, 1, NULL, &global, &local, 2, args, 1, &alt, 1, &sp[0], 0, NULL, &sp[1], NULL, &cmd));
    ck_assert_ptr_nonnull(cmd);
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(cb, host, a, sizeof host, 1, &sp[1], 0, NULL,
                                                      &sp[2], NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    expected_t e = {"add_value", a, 1, 16, N / 16, 0};
    for (int run = 0; run < 200; ++run) {
        ur_exp_command_buffer_update_kernel_launch_desc_t u = urc_test_update_of(cmd);
        int nv = run;
        void *np = run % 2 ? b : a;
        size_t ng = run % 3 ? N / 2 : N, nl = run % 3 ? 8 : 32, noff = (size_t)run;
        ur_exp_command_buffer_update_value_arg_desc_t val =
            urc_test_update_value(1, sizeof nv, &nv);
        ur_exp_command_buffer_update_pointer_arg_desc_t ptr = {
            UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_POINTER_ARG_DESC, NULL, 0, NULL, &np};
        switch (run % 5) {
        case 0:
            u.numNewValueArgs = 1;
            u.pNewValueArgList = &val;
            e.value = nv;
            break;
        case 1:
            u.numNewPointerArgs = 1;
            u.pNewPointerArgList = &ptr;
            e.ptr = np;
            break;
        case 2:
            u.pNewGlobalWorkSize = &ng;
            u.pNewLocalWorkSize = &nl;
            e.group_size = (uint32_t)nl;
            e.group_count = (uint32_t)(ng / nl);
            break;
        case 3:
            u.pNewGlobalWorkOffset = &noff;
            e.offset = (uint32_t)noff;
            break;
        default:
            // Switch kernels (and back): the arguments, sizes and offset go with the command.
            u.hNewKernel = run % 2 ? alt : k;
            e.kernel = run % 2 ? "sub_value" : "add_value";
            break;
        }
        ck_assert_ur_ok(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u));
        memset(host, 0xff, sizeof host);
        uint64_t before = T.sim.GetLaunchCount();
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        ck_assert_ur_ok(urQueueFinish(T.queue));
        ck_assert_uint_eq(T.sim.GetLaunchCount() - before, 1);
        check_launch(&e);
        for (int i = 0; i < N; ++i)
            ck_assert_int_eq(host[i], 7);
    }
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_ur_ok(urUSMFree(T.context, b));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urKernelRelease(alt));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// Updates of several commands in one call apply whole or not at all, and reach only later runs.
START_TEST(update_is_whole_or_nothing) {
    ur_program_handle_t p = l0t_built("cb_kernels.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_value", &k));
    int *a = device_ints();
    int v = 3;
    ur_exp_kernel_arg_properties_t args[2] = {urc_test_arg_pointer(0, a),
                                              urc_test_arg_value(1, &v, sizeof v)};
    size_t global = N, local = 16;
    ur_exp_command_buffer_handle_t cb = make_updatable_cb();
    ur_exp_command_buffer_command_handle_t c1 = NULL, c2 = NULL;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        cb, k, 1, NULL, &global, &local, 2, args, 0, NULL, 0, NULL, 0, NULL, NULL, NULL, &c1));
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        cb, k, 1, NULL, &global, &local, 2, args, 0, NULL, 0, NULL, 0, NULL, NULL, NULL, &c2));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    // The second description asks for a local size that does not divide the global size.
    int nv = 40;
    size_t bad_local = 7;
    ur_exp_command_buffer_update_value_arg_desc_t val = urc_test_update_value(1, sizeof nv, &nv);
    ur_exp_command_buffer_update_kernel_launch_desc_t u[2] = {urc_test_update_of(c1),
                                                              urc_test_update_of(c2)};
    u[0].numNewValueArgs = 1;
    u[0].pNewValueArgList = &val;
    u[1].pNewGlobalWorkSize = &global;
    u[1].pNewLocalWorkSize = &bad_local;
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(cb, 2, u),
                 UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    expected_t e = {"add_value", a, 3, 16, N / 16, 0};
    check_launch(&e);
    // A run enqueued before an update keeps the old launch; later runs get the new one.
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    u[1].pNewLocalWorkSize = &local;
    ck_assert_ur_ok(urCommandBufferUpdateKernelLaunchExp(cb, 2, u));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ze_sim_launch_t l;
    int value = 0;
    size_t size = sizeof value;
    ck_assert_int_eq(T.sim.GetLaunchArg(1, 1, &size, &value, NULL), ZE_RESULT_SUCCESS);
    ck_assert_int_eq(value, 40); // c1, updated
    check_launch(&e);            // c2: only its sizes were given again
    ck_assert_int_eq(T.sim.GetLaunch(2, &l), ZE_RESULT_SUCCESS);
    size = sizeof value;
    ck_assert_int_eq(T.sim.GetLaunchArg(2, 1, &size, &value, NULL), ZE_RESULT_SUCCESS);
    ck_assert_int_eq(value, 3); // c2 of the run before the update
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// Buffer rectangles: a 4x4 block written from the host into an 8x8 int buffer, copied to a
// second buffer at another origin, read back into a host rectangle; replayed with new data.
START_TEST(rectangles_replayed) {
    enum { W = 8 };
    ur_mem_handle_t m1 = NULL, m2 = NULL;
    ck_assert_ur_ok(
        urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, W * W * sizeof(int), NULL, &m1));
    ck_assert_ur_ok(
        urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, W * W * sizeof(int), NULL, &m2));
    int src[4 * 4], dst[W * W], zero = 0;
    ur_exp_command_buffer_handle_t cb = make_cb();
    ur_exp_command_buffer_sync_point_t sp[5];
    ck_assert_ur_ok(urCommandBufferAppendMemBufferFillExp(
        cb, m1, &zero, sizeof zero, 0, W * W * sizeof(int), 0, NULL, 0, NULL, &sp[0], NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendMemBufferFillExp(
        cb, m2, &zero, sizeof zero, 0, W * W * sizeof(int), 0, NULL, 0, NULL, &sp[1], NULL, NULL));
    ur_rect_region_t region = {4 * sizeof(int), 4, 1};
    ur_rect_offset_t at_1_2 = {1 * sizeof(int), 2, 0}, origin = {0, 0, 0},
                     at_3_4 = {3 * sizeof(int), 4, 0};
    ck_assert_ur_ok(urCommandBufferAppendMemBufferWriteRectExp(
        cb, m1, at_1_2, origin, region, W * sizeof(int), 0, 4 * sizeof(int), 0, src, 1, &sp[0], 0,
        NULL, &sp[2], NULL, NULL));
    ur_exp_command_buffer_sync_point_t deps[2] = {sp[1], sp[2]};
    ck_assert_ur_ok(urCommandBufferAppendMemBufferCopyRectExp(
        cb, m1, m2, at_1_2, at_3_4, region, W * sizeof(int), 0, W * sizeof(int), 0, 2, deps, 0,
        NULL, &sp[3], NULL, NULL));
    ur_rect_region_t whole = {W * sizeof(int), W, 1};
    ck_assert_ur_ok(urCommandBufferAppendMemBufferReadRectExp(
        cb, m2, origin, origin, whole, W * sizeof(int), 0, W * sizeof(int), 0, dst, 1, &sp[3], 0,
        NULL, &sp[4], NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    for (int run = 0; run < 50; ++run) {
        for (int i = 0; i < 16; ++i)
            src[i] = run * 100 + i + 1;
        memset(dst, 0xff, sizeof dst);
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        ck_assert_ur_ok(urQueueFinish(T.queue));
        for (int y = 0; y < W; ++y)
            for (int x = 0; x < W; ++x) {
                bool inside = x >= 3 && x < 7 && y >= 4 && y < 8;
                int want = inside ? run * 100 + (y - 4) * 4 + (x - 3) + 1 : 0;
                ck_assert_int_eq(dst[y * W + x], want);
            }
    }
    // A rectangle outside the buffer is refused at append.
    ur_exp_command_buffer_handle_t cb2 = make_cb();
    ur_rect_offset_t far = {0, 6, 0};
    ck_assert_ur(urCommandBufferAppendMemBufferCopyRectExp(cb2, m1, m2, far, origin, region,
                                                           W * sizeof(int), 0, W * sizeof(int), 0,
                                                           0, NULL, 0, NULL, NULL, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb2));
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urMemRelease(m1));
    ck_assert_ur_ok(urMemRelease(m2));
}
END_TEST

typedef struct native_data_t {
    ur_exp_command_buffer_handle_t cb;
    int *dst;
    const int *src;
    ze_result_t result;
} native_data_t;

// Records a copy straight into the buffer's command list.
static void record_native_copy(void *data) {
    native_data_t *d = data;
    ur_native_handle_t h = 0;
    ck_assert_ur_ok(urCommandBufferGetNativeHandleExp(d->cb, &h));
    d->result = zeCommandListAppendMemoryCopy((ze_command_list_handle_t)h, d->dst, d->src,
                                              N * sizeof(int), NULL, 0, NULL);
}

// A native command between a fill and a copy: its copy runs in sync-point order on every run.
START_TEST(native_command_replayed) {
    int *a = device_ints(), *b = device_ints();
    int host[N];
    ur_exp_command_buffer_handle_t cb = make_cb();
    ur_exp_command_buffer_sync_point_t sp[3];
    int pattern = 0;
    ck_assert_ur_ok(urCommandBufferAppendUSMFillExp(
        cb, a, &pattern, sizeof pattern, N * sizeof(int), 0, NULL, 0, NULL, &sp[0], NULL, NULL));
    native_data_t d = {cb, b, a, ZE_RESULT_ERROR_UNKNOWN};
    ck_assert_ur_ok(
        urCommandBufferAppendNativeCommandExp(cb, record_native_copy, &d, NULL, 1, &sp[0], &sp[1]));
    ck_assert_int_eq(d.result, ZE_RESULT_SUCCESS);
    ck_assert_uint_eq(sp[1], 1);
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(cb, host, b, sizeof host, 1, &sp[1], 0, NULL,
                                                      &sp[2], NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    // The pattern was captured at append; the memory is set to something else between runs.
    for (int run = 0; run < 100; ++run) {
        ck_assert_ur_ok(
            urEnqueueUSMFill(T.queue, b, sizeof run, &run, N * sizeof(int), 0, NULL, NULL));
        memset(host, 0xff, sizeof host);
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        ck_assert_ur_ok(urQueueFinish(T.queue));
        for (int i = 0; i < N; ++i)
            ck_assert_int_eq(host[i], 0);
    }
    // After finalisation a native command is refused like any append.
    ck_assert_ur(
        urCommandBufferAppendNativeCommandExp(cb, record_native_copy, &d, NULL, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_ur_ok(urUSMFree(T.context, b));
}
END_TEST

// UR's results for updates that cannot be made.
START_TEST(update_bad_input) {
    ur_program_handle_t p = l0t_built("cb_kernels.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_value", &k));
    int *a = device_ints();
    int v = 3;
    ur_exp_kernel_arg_properties_t args[2] = {urc_test_arg_pointer(0, a),
                                              urc_test_arg_value(1, &v, sizeof v)};
    size_t global = N;
    ur_exp_command_buffer_handle_t cb = make_updatable_cb(), other = make_updatable_cb(),
                                   fixed = make_cb();
    ur_exp_command_buffer_command_handle_t cmd = NULL, theirs = NULL;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        cb, k, 1, NULL, &global, NULL, 2, args, 0, NULL, 0, NULL, 0, NULL, NULL, NULL, &cmd));
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        other, k, 1, NULL, &global, NULL, 2, args, 0, NULL, 0, NULL, 0, NULL, NULL, NULL, &theirs));
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        fixed, k, 1, NULL, &global, NULL, 2, args, 0, NULL, 0, NULL, 0, NULL, NULL, NULL, NULL));
    ur_exp_command_buffer_update_kernel_launch_desc_t u = urc_test_update_of(cmd);
    // Not finalized yet.
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(other));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(fixed));
    // A buffer that is not updatable.
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(fixed, 1, &u),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    // A command of another buffer.
    ur_exp_command_buffer_update_kernel_launch_desc_t w = urc_test_update_of(theirs);
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(cb, 1, &w),
                 UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP);
    // A kernel not given as an alternative at append.
    ur_kernel_handle_t k2 = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "sub_value", &k2));
    u.hNewKernel = k2;
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u), UR_RESULT_ERROR_INVALID_VALUE);
    u.hNewKernel = NULL;
    // An argument index the kernel does not have.
    ur_exp_command_buffer_update_value_arg_desc_t val = urc_test_update_value(5, sizeof v, &v);
    u.numNewValueArgs = 1;
    u.pNewValueArgList = &val;
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u),
                 UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    // Events: the command was appended without one and with an empty wait list.
    ur_event_handle_t ev = (ur_event_handle_t)1;
    ck_assert_ur(urCommandBufferUpdateSignalEventExp(cmd, &ev), UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ptr_null(ev);
    ze_event_handle_t ze = NULL;
    ur_event_handle_t user = l0t_user_event(&ze);
    ck_assert_ur(urCommandBufferUpdateWaitEventsExp(cmd, 1, &user),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur_ok(urCommandBufferUpdateWaitEventsExp(cmd, 0, NULL));
    ck_assert_ur_ok(urEventRelease(user));
    // Appends after finalisation.
    ck_assert_ur(urCommandBufferAppendKernelLaunchWithArgsExp(cb, k, 1, NULL, &global, NULL, 2,
                                                              args, 0, NULL, 0, NULL, 0, NULL, NULL,
                                                              NULL, NULL),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    // Nothing was changed by the refused updates.
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    int value = 0;
    size_t size = sizeof value;
    ck_assert_int_eq(T.sim.GetLaunchArg(0, 1, &size, &value, NULL), ZE_RESULT_SUCCESS);
    ck_assert_int_eq(value, 3);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urCommandBufferReleaseExp(other));
    ck_assert_ur_ok(urCommandBufferReleaseExp(fixed));
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urKernelRelease(k2));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// An out-of-order buffer whose result needs every sync-point edge: two fills, two copies into
// the halves of c (each after its fill), and a copy of c to the host after both.
START_TEST(sync_points_order_an_out_of_order_buffer) {
    ur_exp_command_buffer_desc_t d = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, false, false,
                                      false};
    ur_exp_command_buffer_handle_t cb = NULL;
    ck_assert_ur_ok(urCommandBufferCreateExp(T.context, T.device, &d, &cb));
    int *a = device_ints(), *b = device_ints(), *c = device_ints();
    int host[N], one = 1, two = 2;
    ur_exp_command_buffer_sync_point_t sp[5];
    ck_assert_ur_ok(urCommandBufferAppendUSMFillExp(cb, a, &one, sizeof one, N * sizeof(int), 0,
                                                    NULL, 0, NULL, &sp[0], NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendUSMFillExp(cb, b, &two, sizeof two, N * sizeof(int), 0,
                                                    NULL, 0, NULL, &sp[1], NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(cb, c, a, N / 2 * sizeof(int), 1, &sp[0], 0,
                                                      NULL, &sp[2], NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(cb, c + N / 2, b, N / 2 * sizeof(int), 1,
                                                      &sp[1], 0, NULL, &sp[3], NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(cb, host, c, sizeof host, 2, &sp[2], 0, NULL,
                                                      &sp[4], NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    for (int run = 0; run < 100; ++run) {
        int spoil = -run;
        ck_assert_ur_ok(
            urEnqueueUSMFill(T.queue, c, sizeof spoil, &spoil, N * sizeof(int), 0, NULL, NULL));
        memset(host, 0xff, sizeof host);
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        ck_assert_ur_ok(urQueueFinish(T.queue));
        for (int i = 0; i < N; ++i)
            ck_assert_int_eq(host[i], i < N / 2 ? 1 : 2);
    }
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_ur_ok(urUSMFree(T.context, b));
    ck_assert_ur_ok(urUSMFree(T.context, c));
}
END_TEST

// Events between command buffers: A copies host memory into x and signals evx; B, run on
// another queue with no other order, waits for evx and copies x back. Then a kernel command's
// signal event and wait list are updated between runs.
START_TEST(events_between_buffers_and_their_updates) {
    int *x = device_ints();
    int src[N], dst[N];
    ur_exp_command_buffer_handle_t a = make_cb(), b = make_cb();
    ur_event_handle_t evx = NULL;
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(a, x, src, sizeof src, 0, NULL, 0, NULL, NULL,
                                                      &evx, NULL));
    ck_assert_ptr_nonnull(evx);
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(b, dst, x, sizeof dst, 0, NULL, 1, &evx, NULL,
                                                      NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(a));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(b));
    ur_queue_handle_t q2 = l0t_queue(UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    for (int run = 0; run < 100; ++run) {
        for (int i = 0; i < N; ++i)
            src[i] = run * 1000 + i;
        memset(dst, 0xff, sizeof dst);
        ur_event_handle_t done = NULL;
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, a, 0, NULL, NULL));
        ck_assert_ur_ok(urEnqueueCommandBufferExp(q2, b, 0, NULL, &done));
        ck_assert_ur_ok(urEventWait(1, &done));
        ck_assert_ur_ok(urEventWait(1, &evx));
        ck_assert_int_eq(l0t_status(evx), UR_EVENT_STATUS_COMPLETE);
        for (int i = 0; i < N; ++i)
            ck_assert_int_eq(dst[i], run * 1000 + i);
        ck_assert_ur_ok(urEventRelease(done));
    }
    ck_assert_ur_ok(urQueueFinish(T.queue));

    // An updatable buffer: a kernel that signals ek and waits for evx.
    ur_program_handle_t p = l0t_built("cb_kernels.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_value", &k));
    int v = 5;
    ur_exp_kernel_arg_properties_t args[2] = {urc_test_arg_pointer(0, x),
                                              urc_test_arg_value(1, &v, sizeof v)};
    size_t global = N;
    ur_exp_command_buffer_handle_t c = make_updatable_cb();
    ur_exp_command_buffer_command_handle_t cmd = NULL;
    ur_event_handle_t ek = NULL;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        c, k, 1, NULL, &global, NULL, 2, args, 0, NULL, 0, NULL, 1, &evx, NULL, &ek, &cmd));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(c));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, c, 0, NULL, NULL));
    ck_assert_ur_ok(urEventWait(1, &ek));
    // A new signal event: the next run signals it (the old one is the caller's to release).
    ur_event_handle_t ek2 = NULL;
    ck_assert_ur_ok(urCommandBufferUpdateSignalEventExp(cmd, &ek2));
    ck_assert_ptr_nonnull(ek2);
    ck_assert_ptr_ne(ek2, ek);
    ck_assert_ur_ok(urEventRelease(ek));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, c, 0, NULL, NULL));
    ck_assert_ur_ok(urEventWait(1, &ek2));
    // A new wait list: an event nobody has signalled holds the kernel back until it is.
    ze_event_handle_t ze = NULL;
    ur_event_handle_t user = l0t_user_event(&ze);
    ck_assert_ur_ok(urCommandBufferUpdateWaitEventsExp(cmd, 1, &user));
    uint64_t before = T.sim.GetLaunchCount();
    ur_event_handle_t run = NULL;
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, c, 0, NULL, &run));
    ck_assert_int_ne(l0t_status(ek2), UR_EVENT_STATUS_COMPLETE);
    ck_assert_int_ne(l0t_status(run), UR_EVENT_STATUS_COMPLETE);
    ck_assert_uint_eq(T.sim.GetLaunchCount(), before);
    ck_assert_int_eq(zeEventHostSignal(ze), ZE_RESULT_SUCCESS);
    ck_assert_ur_ok(urEventWait(1, &run));
    ck_assert_ur_ok(urEventWait(1, &ek2));
    ck_assert_uint_eq(T.sim.GetLaunchCount(), before + 1);
    // Wait lists of another length are refused.
    ur_event_handle_t two[2] = {user, evx};
    ck_assert_ur(urCommandBufferUpdateWaitEventsExp(cmd, 2, two),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur_ok(urEventRelease(run));
    ck_assert_ur_ok(urEventRelease(user));
    ck_assert_ur_ok(urEventRelease(ek2));
    ck_assert_ur_ok(urEventRelease(evx));
    ck_assert_ur_ok(urCommandBufferReleaseExp(c));
    ck_assert_ur_ok(urCommandBufferReleaseExp(a));
    ck_assert_ur_ok(urCommandBufferReleaseExp(b));
    ck_assert_ur_ok(urQueueRelease(q2));
    ck_assert_ur_ok(urUSMFree(T.context, x));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

static ur_program_handle_t rules_program;
static ur_kernel_handle_t rules_kernel;

static void rules_bind(void) {
    rules_program = l0t_built("cb_kernels.spv");
    ck_assert_ur_ok(urKernelCreate(rules_program, "add_value", &rules_kernel));
    command_rules_cases_bind(T.context, T.device, T.queue, rules_kernel);
}

static void rules_unbind(void) {
    urKernelRelease(rules_kernel);
    urProgramRelease(rules_program);
}

int main(void) {
    Suite *s = suite_create("l0_command_buffer");
    TCase *tc = l0t_tcase("urCommandBuffer");
    tcase_add_test(tc, device_info);
    tcase_add_test(tc, chain_replayed_1000_times);
    tcase_add_test(tc, buffer_runs_back_to_back_and_chained);
    tcase_add_test(tc, buffer_keeps_its_kernels);
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, updates_between_replays);
    tcase_add_test(tc, update_is_whole_or_nothing);
    tcase_add_test(tc, rectangles_replayed);
    tcase_add_test(tc, native_command_replayed);
    tcase_add_test(tc, update_bad_input);
    tcase_add_test(tc, sync_points_order_an_out_of_order_buffer);
    tcase_add_test(tc, events_between_buffers_and_their_updates);
    suite_add_tcase(s, tc);
    // The rule table's cases every adapter shares (test/conformance/common).
    tc = l0t_tcase("command rules");
    tcase_add_checked_fixture(tc, rules_bind, rules_unbind);
    command_rules_cases_add(tc);
    suite_add_tcase(s, tc);
    return l0t_main(s);
}
