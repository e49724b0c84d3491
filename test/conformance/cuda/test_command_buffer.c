// SPDX-License-Identifier: MIT
// urCommandBuffer* and urEnqueueCommandBufferExp of the CUDA adapter (explicit CUDA graphs):
// chains of fills, kernels and copies replayed 1000 times, the rule table's shared cases
// (appends and updates answer as their urEnqueue* twins), copy nodes past an allocation
// refused by the simulated driver, updates of arguments, sizes,
// offsets and kernels between replays, sync points, overlapping runs, native commands (stream
// work captured into a child buffer's graph), command events (signalled by each run, waited for
// by queues and other buffers, updated between runs), and UR's results for bad input. Runs on a
// GPU and on the simulated driver.
#include <dlfcn.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

#include "../common/command_rules_cases.h"
#include "cudat.h"

enum { N = 256 };

static ur_kernel_handle_t kernel(const char *name) {
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(T.program, name, &k));
    return k;
}

static int *device_ints(size_t n) {
    void *p = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, n * sizeof(int), &p));
    return p;
}

static void read_ints(int *out, const int *dev, size_t n) {
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, out, dev, n * sizeof(int), 0, NULL, NULL));
}

static void expect_all(const int *data, size_t n, int value, int run) {
    for (size_t i = 0; i < n; ++i)
        if (data[i] != value)
            ck_abort_msg("run %d: item %zu is %d, expected %d", run, i, data[i], value);
}

static ur_exp_command_buffer_handle_t make_cb(bool updatable, bool in_order) {
    ur_exp_command_buffer_desc_t d = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, updatable,
                                      in_order, false};
    ur_exp_command_buffer_handle_t cb = NULL;
    ck_assert_ur_ok(urCommandBufferCreateExp(T.context, T.device, &d, &cb));
    return cb;
}

/// Appends add_value(data, *v) over N items, 64 a group.
static ur_result_t append_add(ur_exp_command_buffer_handle_t cb, ur_kernel_handle_t k, int *data,
                              const int *v, uint32_t nsync,
                              const ur_exp_command_buffer_sync_point_t *sync,
                              ur_exp_command_buffer_sync_point_t *sp,
                              ur_exp_command_buffer_command_handle_t *cmd) {
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, data),
                                              cudat_arg_value(1, v, sizeof *v)};
    size_t global = N, local = 64;
    return urCommandBufferAppendKernelLaunchWithArgsExp(cb, k, 1, NULL, &global, &local, 2, args, 0,
                                                        NULL, nsync, nsync ? sync : NULL, 0, NULL,
                                                        sp, NULL, cmd);
}

/// append_add with a wait list of events and the command's own event.
static ur_result_t append_add_events(ur_exp_command_buffer_handle_t cb, ur_kernel_handle_t k,
                                     int *data, const int *v, uint32_t nwaits,
                                     const ur_event_handle_t *waits, ur_event_handle_t *event,
                                     ur_exp_command_buffer_command_handle_t *cmd) {
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, data),
                                              cudat_arg_value(1, v, sizeof *v)};
    size_t global = N, local = 64;
    return urCommandBufferAppendKernelLaunchWithArgsExp(cb, k, 1, NULL, &global, &local, 2, args, 0,
                                                        NULL, 0, NULL, nwaits, waits, NULL, event,
                                                        cmd);
}

START_TEST(device_info) {
    ur_bool_t b = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP, sizeof b, &b, NULL));
    ck_assert_int_eq(b, 1);
    uint32_t caps = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_COMMAND_BUFFER_UPDATE_CAPABILITIES_EXP,
                                    sizeof caps, &caps, NULL));
    ck_assert_uint_eq(caps, 0x3f); // everything, events included
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_COMMAND_BUFFER_EVENT_SUPPORT_EXP,
                                    sizeof b, &b, NULL));
    ck_assert_int_eq(b, 1);
}
END_TEST

// USM fill a = 5; a += 3; copy a -> b; b += 1; copy b -> host: 9 everywhere, 1000 times.
START_TEST(chain_replayed_1000_times) {
    ur_kernel_handle_t k = kernel("add_value");
    int *a = device_ints(N), *b = device_ints(N);
    int host[N];
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    int five = 5, three = 3, one = 1;
    ur_exp_command_buffer_sync_point_t sp[5];
    ck_assert_ur_ok(urCommandBufferAppendUSMFillExp(cb, a, &five, sizeof five, N * sizeof(int), 0,
                                                    NULL, 0, NULL, &sp[0], NULL, NULL));
    ck_assert_ur_ok(append_add(cb, k, a, &three, 1, &sp[0], &sp[1], NULL));
    three = 100; // the argument was copied at append
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(cb, b, a, N * sizeof(int), 1, &sp[1], 0, NULL,
                                                      &sp[2], NULL, NULL));
    ck_assert_ur_ok(append_add(cb, k, b, &one, 1, &sp[2], &sp[3], NULL));
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(cb, host, b, sizeof host, 1, &sp[3], 0, NULL,
                                                      &sp[4], NULL, NULL));
    ck_assert_uint_eq(sp[4], 4);
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    for (int run = 0; run < 1000; ++run) {
        memset(host, 0, sizeof host);
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        ck_assert_ur_ok(urQueueFinish(T.queue));
        expect_all(host, N, 9, run);
    }
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_ur_ok(urUSMFree(T.context, b));
}
END_TEST

// Buffers: fill, write from the host, copy, read back into the host, all in the buffer.
START_TEST(buffer_commands) {
    ur_mem_handle_t a = NULL, b = NULL;
    ck_assert_ur_ok(
        urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, N * sizeof(int), NULL, &a));
    ck_assert_ur_ok(
        urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, N * sizeof(int), NULL, &b));
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    int in[N], out[N];
    for (int i = 0; i < N; ++i)
        in[i] = i;
    uint64_t pattern = 0x0000000700000006ull; // 6, 7, 6, 7...
    ck_assert_ur_ok(urCommandBufferAppendMemBufferFillExp(
        cb, a, &pattern, sizeof pattern, 0, N * sizeof(int), 0, NULL, 0, NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendMemBufferWriteExp(cb, a, 0, 16 * sizeof(int), in, 0, NULL,
                                                           0, NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendMemBufferCopyExp(cb, a, b, 0, 0, N * sizeof(int), 0, NULL,
                                                          0, NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendMemBufferReadExp(cb, b, 0, N * sizeof(int), out, 0, NULL,
                                                          0, NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    for (int run = 0; run < 20; ++run) {
        memset(out, 0xff, sizeof out);
        in[3] = run;
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        ck_assert_ur_ok(urQueueFinish(T.queue));
        for (int i = 0; i < N; ++i)
            ck_assert_int_eq(out[i], i == 3 ? run : i < 16 ? i : 6 + (i & 1));
    }
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
}
END_TEST

// 200 runs enqueued back to back, then 100 on a second queue chained by events.
START_TEST(runs_enqueued_while_previous_run_pending) {
    ur_kernel_handle_t k = kernel("add_value");
    int *a = device_ints(N);
    int zero = 0, two = 2, out[N];
    ck_assert_ur_ok(
        urEnqueueUSMFill(T.queue, a, sizeof zero, &zero, N * sizeof(int), 0, NULL, NULL));
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    ck_assert_ur_ok(append_add(cb, k, a, &two, 0, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    for (int run = 0; run < 200; ++run)
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    read_ints(out, a, N);
    expect_all(out, N, 400, 200);
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_handle_t ooo = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &ooo));
    ur_event_handle_t prev = NULL;
    for (int run = 0; run < 100; ++run) {
        ur_event_handle_t ev = NULL;
        ck_assert_ur_ok(urEnqueueCommandBufferExp(ooo, cb, prev != NULL, prev ? &prev : NULL, &ev));
        ck_assert_int_eq(cudat_event_command(ev), UR_COMMAND_ENQUEUE_COMMAND_BUFFER_EXP);
        if (prev != NULL)
            ck_assert_ur_ok(urEventRelease(prev));
        prev = ev;
    }
    ck_assert_ur_ok(urEventWait(1, &prev));
    ck_assert_ur_ok(urEventRelease(prev));
    read_ints(out, a, N);
    expect_all(out, N, 600, 300);
    ck_assert_ur_ok(urQueueRelease(ooo));
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, a));
}
END_TEST

// An out-of-order buffer whose result needs every sync-point edge.
START_TEST(sync_points_order_an_out_of_order_buffer) {
    ur_kernel_handle_t k = kernel("add_value");
    int *a = device_ints(N), *b = device_ints(N);
    ur_exp_command_buffer_handle_t cb = make_cb(false, false);
    int one = 1, two = 2, three = 3, out[N];
    ur_exp_command_buffer_sync_point_t sp[3];
    ck_assert_ur_ok(urCommandBufferAppendUSMFillExp(cb, a, &one, sizeof one, N * sizeof(int), 0,
                                                    NULL, 0, NULL, &sp[0], NULL, NULL));
    ck_assert_ur_ok(append_add(cb, k, a, &two, 1, &sp[0], &sp[1], NULL));
    ck_assert_ur_ok(append_add(cb, k, a, &three, 2, sp, &sp[2], NULL));
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(cb, b, a, N * sizeof(int), 1, &sp[2], 0, NULL,
                                                      NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    for (int run = 0; run < 50; ++run) {
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        read_ints(out, b, N);
        expect_all(out, N, 6, run);
    }
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_ur_ok(urUSMFree(T.context, b));
}
END_TEST

// Value and pointer arguments, then size and kernel, changed between replays.
START_TEST(updates_between_replays) {
    ur_kernel_handle_t k = kernel("add_value"), fill = kernel("fill_value");
    int *a = device_ints(N), *b = device_ints(N);
    int zero = 0, v = 1, out[N];
    ck_assert_ur_ok(
        urEnqueueUSMFill(T.queue, a, sizeof zero, &zero, N * sizeof(int), 0, NULL, NULL));
    ck_assert_ur_ok(
        urEnqueueUSMFill(T.queue, b, sizeof zero, &zero, N * sizeof(int), 0, NULL, NULL));
    ur_exp_command_buffer_handle_t cb = make_cb(true, true);
    ur_exp_command_buffer_command_handle_t cmd = NULL;
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, a),
                                              cudat_arg_value(1, &v, sizeof v)};
    size_t global = N, local = 64;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        cb, k, 1, NULL, &global, &local, 2, args, 1, &fill, 0, NULL, 0, NULL, NULL, NULL, &cmd));
    ck_assert_ptr_nonnull(cmd);
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    int sum = 0;
    for (int run = 1; run <= 100; ++run) {
        urc_test_update_value_and_replay(cb, cmd, 1, sizeof run, &run, T.queue);
        sum += run;
        read_ints(out, a, N);
        expect_all(out, N, sum, run);
    }
    // The pointer argument and a smaller global size: b[0..63] += 100.
    ur_exp_command_buffer_update_pointer_arg_desc_t ptr = {
        UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_POINTER_ARG_DESC, NULL, 0, NULL, &b};
    size_t small = 64;
    ur_exp_command_buffer_update_kernel_launch_desc_t u = urc_test_update_of(cmd);
    u.numNewPointerArgs = 1;
    u.pNewPointerArgList = &ptr;
    u.pNewGlobalWorkSize = &small;
    u.pNewLocalWorkSize = &small;
    ck_assert_ur_ok(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    read_ints(out, b, N);
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], i < 64 ? 100 : 0);
    // The kernel alternative: fill_value(b, 100) takes the same arguments, over all of b.
    u = urc_test_update_of(cmd);
    u.hNewKernel = fill;
    u.pNewGlobalWorkSize = &global;
    u.pNewLocalWorkSize = &local;
    ck_assert_ur_ok(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    read_ints(out, b, N);
    expect_all(out, N, 100, 0);
    read_ints(out, a, N);
    expect_all(out, N, sum, 0);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urKernelRelease(fill));
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_ur_ok(urUSMFree(T.context, b));
}
END_TEST

// A global offset needs DPC++'s "_with_offset" variant: global_id has one.
START_TEST(update_global_offset) {
    ur_kernel_handle_t k = kernel("global_id");
    int *a = device_ints(N), out[N];
    ur_exp_command_buffer_handle_t cb = make_cb(true, true);
    ur_exp_command_buffer_command_handle_t cmd = NULL;
    ur_exp_kernel_arg_properties_t arg = cudat_arg_pointer(0, a);
    size_t global = N, local = 64, offset = 10;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        cb, k, 1, NULL, &global, &local, 1, &arg, 0, NULL, 0, NULL, 0, NULL, NULL, NULL, &cmd));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ur_exp_command_buffer_update_kernel_launch_desc_t u = urc_test_update_of(cmd);
    u.pNewGlobalWorkOffset = &offset;
    ck_assert_ur_ok(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    read_ints(out, a, N);
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], i + 10);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, a));
}
END_TEST

START_TEST(bad_input) {
    ur_kernel_handle_t k = kernel("add_value"), other = kernel("fill_value");
    int *a = device_ints(N);
    int v = 1;
    ur_exp_command_buffer_handle_t cb = make_cb(false, true), up = make_cb(true, true),
                                   up2 = make_cb(true, true);
    ur_exp_command_buffer_sync_point_t sp = 0, theirs = 0;
    // Sync points of another buffer, or never issued.
    ck_assert_ur_ok(append_add(up2, k, a, &v, 0, NULL, NULL, NULL));
    ck_assert_ur_ok(append_add(up2, k, a, &v, 0, NULL, &theirs, NULL));
    ck_assert_ur(append_add(cb, k, a, &v, 1, &theirs, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_SYNC_POINT_EXP);
    ck_assert_ur_ok(append_add(cb, k, a, &v, 0, NULL, &sp, NULL));
    // A command handle of a buffer that is not updatable; an event from one that is not is fine.
    ur_exp_command_buffer_command_handle_t cmd = NULL, cmd2 = NULL;
    ck_assert_ur(append_add(cb, k, a, &v, 0, NULL, NULL, &cmd), UR_RESULT_ERROR_INVALID_OPERATION);
    ur_event_handle_t ev = NULL;
    size_t global = N;
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, a),
                                              cudat_arg_value(1, &v, sizeof v)};
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        cb, k, 1, NULL, &global, NULL, 2, args, 0, NULL, 0, NULL, 0, NULL, NULL, &ev, NULL));
    ck_assert_ptr_nonnull(ev);
    ck_assert_ur_ok(urEventRelease(ev));
    ev = NULL;
    // Enqueue before finalisation, append after it, finalize twice.
    ck_assert_ur(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ck_assert_ur(urCommandBufferFinalizeExp(cb), UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur(append_add(cb, k, a, &v, 0, NULL, NULL, NULL), UR_RESULT_ERROR_INVALID_OPERATION);
    // Updates: not finalized, not updatable, a command of another buffer, a kernel not given.
    ck_assert_ur_ok(append_add(up, k, a, &v, 0, NULL, NULL, &cmd));
    ur_exp_command_buffer_update_kernel_launch_desc_t u = urc_test_update_of(cmd);
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(up, 1, &u),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur_ok(urCommandBufferFinalizeExp(up));
    ck_assert_ur_ok(urCommandBufferUpdateKernelLaunchExp(up, 1, &u));
    ck_assert_ur_ok(append_add(up2, k, a, &v, 0, NULL, NULL, &cmd2));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(up2));
    u = urc_test_update_of(cmd2);
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(up, 1, &u),
                 UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP);
    u = urc_test_update_of(cmd);
    u.hNewKernel = other;
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(up, 1, &u), UR_RESULT_ERROR_INVALID_VALUE);
    // The command was appended without an event.
    ck_assert_ur(urCommandBufferUpdateSignalEventExp(cmd, &ev), UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur(
        urCommandBufferUpdateKernelLaunchExp((ur_exp_command_buffer_handle_t)T.queue, 1, &u),
        UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urCommandBufferReleaseExp(up));
    ck_assert_ur_ok(urCommandBufferReleaseExp(up2));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urKernelRelease(other));
    ck_assert_ur_ok(urUSMFree(T.context, a));
}
END_TEST

// Rectangles: a 3 x 4-int box of an 8 x 8 host grid written into buffer a (rows of 16 ints,
// slices of 70 ints: not whole rows, so one node per slice), copied into b, read back into a
// host grid with rows of 5 ints; two slices deep.
START_TEST(rect_commands) {
    enum {
        HOST_ROW = 8,
        HOST_SLICE = 64,
        BUF_ROW = 16,
        BUF_SLICE = 70,
        OUT_ROW = 5,
        OUT_SLICE = 20
    };
    ur_mem_handle_t a = NULL, b = NULL;
    size_t bytes = 2 * BUF_SLICE * sizeof(int);
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, bytes, NULL, &a));
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, bytes, NULL, &b));
    static int in[2 * HOST_SLICE], out[2 * OUT_SLICE];
    for (int i = 0; i < 2 * HOST_SLICE; ++i)
        in[i] = i;
    ur_rect_region_t region = {4 * sizeof(int), 3, 2};
    ur_rect_offset_t host_at = {1 * sizeof(int), 2, 0}, buf_at = {5 * sizeof(int), 1, 0},
                     out_at = {0, 0, 0};
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    ck_assert_ur_ok(urCommandBufferAppendMemBufferWriteRectExp(
        cb, a, buf_at, host_at, region, BUF_ROW * sizeof(int), BUF_SLICE * sizeof(int),
        HOST_ROW * sizeof(int), HOST_SLICE * sizeof(int), in, 0, NULL, 0, NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendMemBufferCopyRectExp(
        cb, a, b, buf_at, buf_at, region, BUF_ROW * sizeof(int), BUF_SLICE * sizeof(int),
        BUF_ROW * sizeof(int), BUF_SLICE * sizeof(int), 0, NULL, 0, NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendMemBufferReadRectExp(
        cb, b, buf_at, out_at, region, BUF_ROW * sizeof(int), BUF_SLICE * sizeof(int),
        OUT_ROW * sizeof(int), OUT_SLICE * sizeof(int), out, 0, NULL, 0, NULL, NULL, NULL, NULL));
    ur_rect_region_t empty = {0, 1, 1};
    ck_assert_ur(urCommandBufferAppendMemBufferCopyRectExp(cb, a, b, buf_at, buf_at, empty, 0, 0, 0,
                                                           0, 0, NULL, 0, NULL, NULL, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    for (int run = 0; run < 3; ++run) {
        memset(out, 0, sizeof out);
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        ck_assert_ur_ok(urQueueFinish(T.queue));
        for (int z = 0; z < 2; ++z)
            for (int y = 0; y < 3; ++y)
                for (int x = 0; x < 4; ++x)
                    ck_assert_int_eq(out[z * OUT_SLICE + y * OUT_ROW + x],
                                     in[z * HOST_SLICE + (y + 2) * HOST_ROW + x + 1]);
    }
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
}
END_TEST

// The buffer keeps the kernels its nodes run: released after the append, the kernel still runs.
START_TEST(buffer_keeps_its_kernels) {
    ur_kernel_handle_t k = kernel("add_value");
    int *a = device_ints(N), zero = 0, five = 5, out[N];
    ck_assert_ur_ok(
        urEnqueueUSMFill(T.queue, a, sizeof zero, &zero, N * sizeof(int), 0, NULL, NULL));
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    ck_assert_ur_ok(append_add(cb, k, a, &five, 0, NULL, NULL, NULL));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    read_ints(out, a, N);
    expect_all(out, N, 5, 0);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urUSMFree(T.context, a));
}
END_TEST

START_TEST(info_and_native_handle) {
    ur_exp_command_buffer_handle_t cb = make_cb(true, false);
    ur_exp_command_buffer_desc_t d;
    ck_assert_ur_ok(
        urCommandBufferGetInfoExp(cb, UR_EXP_COMMAND_BUFFER_INFO_DESCRIPTOR, sizeof d, &d, NULL));
    ck_assert_int_eq(d.isUpdatable, 1);
    ck_assert_int_eq(d.isInOrder, 0);
    ck_assert_ur_ok(urCommandBufferRetainExp(cb));
    uint32_t n = 0;
    ck_assert_ur_ok(urCommandBufferGetInfoExp(cb, UR_EXP_COMMAND_BUFFER_INFO_REFERENCE_COUNT,
                                              sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 2);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ur_native_handle_t graph = 0;
    ck_assert_ur_ok(urCommandBufferGetNativeHandleExp(cb, &graph));
    ck_assert_uint_ne(graph, 0);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
}
END_TEST

/// The CUDA calls a native command makes, from the driver the adapter uses.
typedef struct native_cuda_t {
    CUresult (*StreamCreate)(CUstream *, unsigned);
    CUresult (*StreamDestroy)(CUstream);
    CUresult (*BeginCaptureToGraph)(CUstream, CUgraph, const CUgraphNode *, const CUgraphEdgeData *,
                                    size_t, CUstreamCaptureMode);
    CUresult (*EndCapture)(CUstream, CUgraph *);
    CUresult (*MemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
} native_cuda_t;

typedef struct native_fill_t {
    const native_cuda_t *cu;
    ur_exp_command_buffer_handle_t child;
    int *dst;
    unsigned value;
    CUresult r;
} native_fill_t;

// What SYCL's interop_handle::getNativeGraph() users do: capture stream work into the graph
// of the child command buffer.
static void capture_fill(void *p) {
    native_fill_t *n = p;
    ur_native_handle_t h = 0;
    ck_assert_ur_ok(urCommandBufferGetNativeHandleExp(n->child, &h));
    CUstream s = NULL;
    CUgraph out = NULL;
    n->r = n->cu->StreamCreate(&s, CU_STREAM_NON_BLOCKING);
    if (n->r == CUDA_SUCCESS)
        n->r = n->cu->BeginCaptureToGraph(s, (CUgraph)h, NULL, NULL, 0,
                                          CU_STREAM_CAPTURE_MODE_RELAXED);
    if (n->r == CUDA_SUCCESS)
        n->r = n->cu->MemsetD32Async((CUdeviceptr)(uintptr_t)n->dst, n->value, N, s);
    CUresult end = n->cu->EndCapture(s, &out);
    if (n->r == CUDA_SUCCESS)
        n->r = end;
    if (s != NULL)
        n->cu->StreamDestroy(s);
}

// fill a = 0; native: a = 7 (captured into a child graph); add_value(a, 1); copy a -> b, in an
// out-of-order buffer whose sync points alone order the four. Replayed 100 times with a and b
// spoiled between runs; the child is released before the parent runs (CUDA copies it).
START_TEST(native_command_in_child_graph) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    ck_assert_ptr_nonnull(lib);
    native_cuda_t cu;
    void *sym[5] = {dlsym(lib, "cuStreamCreate"), dlsym(lib, "cuStreamDestroy_v2"),
                    dlsym(lib, "cuStreamBeginCaptureToGraph"), dlsym(lib, "cuStreamEndCapture"),
                    dlsym(lib, "cuMemsetD32Async")};
    for (int i = 0; i < 5; ++i)
        ck_assert_ptr_nonnull(sym[i]);
    memcpy(&cu.StreamCreate, &sym[0], sizeof sym[0]);
    memcpy(&cu.StreamDestroy, &sym[1], sizeof sym[1]);
    memcpy(&cu.BeginCaptureToGraph, &sym[2], sizeof sym[2]);
    memcpy(&cu.EndCapture, &sym[3], sizeof sym[3]);
    memcpy(&cu.MemsetD32Async, &sym[4], sizeof sym[4]);
    ur_kernel_handle_t k = kernel("add_value");
    int *a = device_ints(N), *b = device_ints(N);
    int zero = 0, one = 1, out[N];
    ur_exp_command_buffer_handle_t cb = make_cb(false, false), child = make_cb(false, true);
    ur_exp_command_buffer_sync_point_t sp[4];
    ck_assert_ur_ok(urCommandBufferAppendUSMFillExp(cb, a, &zero, sizeof zero, N * sizeof(int), 0,
                                                    NULL, 0, NULL, &sp[0], NULL, NULL));
    native_fill_t n = {&cu, child, a, 7, CUDA_ERROR_UNKNOWN};
    ck_assert_ur_ok(
        urCommandBufferAppendNativeCommandExp(cb, capture_fill, &n, child, 1, &sp[0], &sp[1]));
    ck_assert_int_eq(n.r, CUDA_SUCCESS);
    ck_assert_ur_ok(urCommandBufferReleaseExp(child));
    ck_assert_ur_ok(append_add(cb, k, a, &one, 1, &sp[1], &sp[2], NULL));
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(cb, b, a, N * sizeof(int), 1, &sp[2], 0, NULL,
                                                      &sp[3], NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    for (int run = 0; run < 100; ++run) {
        int spoil = -run;
        ck_assert_ur_ok(
            urEnqueueUSMFill(T.queue, a, sizeof spoil, &spoil, N * sizeof(int), 0, NULL, NULL));
        ck_assert_ur_ok(
            urEnqueueUSMFill(T.queue, b, sizeof spoil, &spoil, N * sizeof(int), 0, NULL, NULL));
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        read_ints(out, b, N);
        expect_all(out, N, 8, run);
    }
    // Bad input: no child (the callback would have nowhere to record), the buffer as its own
    // child, a handle that is no command buffer, and an append after finalisation.
    ur_exp_command_buffer_handle_t cb2 = make_cb(false, true);
    ck_assert_ur(urCommandBufferAppendNativeCommandExp(cb2, capture_fill, &n, NULL, 0, NULL, NULL),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur(urCommandBufferAppendNativeCommandExp(cb2, capture_fill, &n, cb2, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urCommandBufferAppendNativeCommandExp(
                     cb2, capture_fill, &n, (ur_exp_command_buffer_handle_t)T.queue, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP);
    ck_assert_ur(urCommandBufferAppendNativeCommandExp(cb, capture_fill, &n, cb2, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb2));
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_ur_ok(urUSMFree(T.context, b));
    ck_assert_ur_ok(urKernelRelease(k));
    dlclose(lib);
}
END_TEST

// A kernel command's event, signalled by every run: a copy on a second queue and a copy of
// another buffer (run on a third queue) wait for it, 100 runs, the copied data checked each time.
START_TEST(command_event_signalled_by_each_run) {
    ur_kernel_handle_t k = kernel("add_value");
    int *a = device_ints(N), *b = device_ints(N), *c = device_ints(N);
    int zero = 0, one = 1, out[N];
    ck_assert_ur_ok(
        urEnqueueUSMFill(T.queue, a, sizeof zero, &zero, N * sizeof(int), 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ur_queue_handle_t q2 = NULL, q3 = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &q2));
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &q3));
    ur_exp_command_buffer_handle_t cb = make_cb(false, true), other = make_cb(false, true);
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(append_add_events(cb, k, a, &one, 0, NULL, &ev, NULL));
    ck_assert_ptr_nonnull(ev);
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(other, c, a, N * sizeof(int), 0, NULL, 1, &ev,
                                                      NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(other));
    for (int run = 1; run <= 100; ++run) {
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        ck_assert_ur_ok(urEnqueueUSMMemcpy(q2, false, b, a, N * sizeof(int), 1, &ev, NULL));
        ck_assert_ur_ok(urEnqueueCommandBufferExp(q3, other, 0, NULL, NULL));
        ck_assert_ur_ok(urQueueFinish(q2));
        ck_assert_ur_ok(urQueueFinish(q3));
        read_ints(out, b, N);
        expect_all(out, N, run, run);
        read_ints(out, c, N);
        expect_all(out, N, run, run);
    }
    ck_assert_ur_ok(urEventWait(1, &ev));
    ur_event_status_t st = UR_EVENT_STATUS_QUEUED;
    ck_assert_ur_ok(
        urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    ck_assert_int_eq(st, UR_EVENT_STATUS_COMPLETE);
    ur_queue_handle_t q = T.queue;
    ck_assert_ur_ok(urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_QUEUE, sizeof q, &q, NULL));
    ck_assert_ptr_null(q); // the buffer's event belongs to no queue
    // The event outlives the caller's reference while its buffer runs.
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    read_ints(out, a, N);
    expect_all(out, N, 101, 101);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urCommandBufferReleaseExp(other));
    ck_assert_ur_ok(urQueueRelease(q2));
    ck_assert_ur_ok(urQueueRelease(q3));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_ur_ok(urUSMFree(T.context, b));
    ck_assert_ur_ok(urUSMFree(T.context, c));
}
END_TEST

/// A host task that holds its queue until `open`, then sets the N ints of `data` to `value`.
typedef struct gate_t {
    atomic_int open;
    int *data;
    int value;
} gate_t;

static void gate_task(void *p) {
    gate_t *g = p;
    while (!atomic_load(&g->open))
        sched_yield();
    for (int i = 0; i < N; ++i)
        g->data[i] = g->value;
}

// A kernel command waits for a gate (a host task on another queue that writes the data when
// opened) and an event complete from the start, and signals an event a copy on a third queue
// waits for. Before each of 10 runs after the first, the wait list gets a new gate and the
// command a new signal event. The kernel adds 1 to what the gate wrote only if it waited.
START_TEST(event_updates_between_replays) {
    enum { RUNS = 10 };
    ur_kernel_handle_t k = kernel("add_value");
    int *a = NULL, *b = device_ints(N), out[N], one = 1;
    ck_assert_ur_ok(
        urUSMSharedAlloc(T.context, T.device, NULL, NULL, N * sizeof(int), (void **)&a));
    memset(a, 0, N * sizeof(int));
    ur_queue_handle_t gates_q = NULL, reader = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &gates_q));
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &reader));
    ur_event_handle_t ready = NULL;
    ck_assert_ur_ok(urEventCreateWithNativeHandle(0, T.context, NULL, &ready));
    static gate_t gates[RUNS];
    ur_event_handle_t gate_ev[RUNS] = {NULL}, signal[RUNS] = {NULL};
    ur_exp_command_buffer_handle_t cb = make_cb(true, true);
    ur_exp_command_buffer_command_handle_t cmd = NULL;
    for (int run = 0; run < RUNS; ++run) {
        gates[run].data = a;
        gates[run].value = 100 * (run + 1);
        atomic_init(&gates[run].open, 0);
        ck_assert_ur_ok(
            urEnqueueHostTaskExp(gates_q, gate_task, &gates[run], NULL, 0, NULL, &gate_ev[run]));
        ur_event_handle_t waits[2] = {gate_ev[run], ready};
        if (run == 0) {
            ck_assert_ur_ok(append_add_events(cb, k, a, &one, 2, waits, &signal[0], &cmd));
            ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
        } else {
            ck_assert_ur_ok(urCommandBufferUpdateWaitEventsExp(cmd, 2, waits));
            ck_assert_ur_ok(urCommandBufferUpdateSignalEventExp(cmd, &signal[run]));
            ck_assert_ptr_ne(signal[run], signal[run - 1]);
        }
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        ck_assert_ur_ok(
            urEnqueueUSMMemcpy(reader, false, b, a, N * sizeof(int), 1, &signal[run], NULL));
        atomic_store(&gates[run].open, 1);
        ck_assert_ur_ok(urQueueFinish(reader));
        read_ints(out, b, N);
        expect_all(out, N, 100 * (run + 1) + 1, run);
    }
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urQueueFinish(gates_q));
    // The replaced events stay valid, the caller's to release; the buffer holds the new ones.
    for (int run = 0; run < RUNS; ++run) {
        ck_assert_ur_ok(urEventRelease(signal[run]));
        ck_assert_ur_ok(urEventRelease(gate_ev[run]));
    }
    ck_assert_ur_ok(urEventRelease(ready));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_int_eq(a[0], 100 * RUNS + 2);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urQueueRelease(gates_q));
    ck_assert_ur_ok(urQueueRelease(reader));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_ur_ok(urUSMFree(T.context, b));
}
END_TEST

// A memory command of an updatable buffer has a handle whose wait and signal events update
// like a kernel's (UR's CTS CommandEventSyncUpdateTest); its kernel update is refused.
START_TEST(memory_command_event_updates) {
    int *src = device_ints(N), *dst = device_ints(N), out[N];
    ur_event_handle_t filled[2] = {NULL, NULL}, signal[2] = {NULL, NULL};
    int value[2] = {42, 43};
    ck_assert_ur_ok(urEnqueueUSMFill(T.queue, src, sizeof value[0], &value[0], N * sizeof(int), 0,
                                     NULL, &filled[0]));
    ur_exp_command_buffer_handle_t cb = make_cb(true, false);
    ur_exp_command_buffer_command_handle_t cmd = NULL;
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(cb, dst, src, N * sizeof(int), 0, NULL, 1,
                                                      &filled[0], NULL, &signal[0], &cmd));
    ck_assert_ptr_nonnull(cmd);
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ur_exp_command_buffer_update_kernel_launch_desc_t update = {
        .stype = UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_KERNEL_LAUNCH_DESC, .hCommand = cmd};
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(cb, 1, &update),
                 UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP);
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    ck_assert_ur_ok(urEventWait(1, &signal[0]));
    read_ints(out, dst, N);
    expect_all(out, N, 42, 0);
    ck_assert_ur_ok(urEnqueueUSMFill(T.queue, src, sizeof value[1], &value[1], N * sizeof(int), 0,
                                     NULL, &filled[1]));
    ck_assert_ur_ok(urCommandBufferUpdateWaitEventsExp(cmd, 1, &filled[1]));
    ck_assert_ur_ok(urCommandBufferUpdateSignalEventExp(cmd, &signal[1]));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    ck_assert_ur_ok(urEventWait(1, &signal[1]));
    read_ints(out, dst, N);
    expect_all(out, N, 43, 1);
    ck_assert_ur_ok(urQueueFinish(T.queue));
    for (int run = 0; run < 2; ++run) {
        ck_assert_ur_ok(urEventRelease(filled[run]));
        ck_assert_ur_ok(urEventRelease(signal[run]));
    }
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urUSMFree(T.context, src));
    ck_assert_ur_ok(urUSMFree(T.context, dst));
}
END_TEST

START_TEST(event_bad_input) {
    ur_kernel_handle_t k = kernel("add_value");
    int *a = device_ints(N), one = 1, out[N], zero = 0;
    ck_assert_ur_ok(
        urEnqueueUSMFill(T.queue, a, sizeof zero, &zero, N * sizeof(int), 0, NULL, NULL));
    ur_context_handle_t ctx2 = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &ctx2));
    ur_event_handle_t foreign = NULL, ready = NULL, ev = NULL, sig = NULL;
    ck_assert_ur_ok(urEventCreateWithNativeHandle(0, ctx2, NULL, &foreign));
    ck_assert_ur_ok(urEventCreateWithNativeHandle(0, T.context, NULL, &ready));
    ur_exp_command_buffer_handle_t cb = make_cb(true, true), fixed = make_cb(false, true);
    ur_exp_command_buffer_command_handle_t cmd = NULL, plain = NULL;
    // Wait lists: an event of another context, something not an event, NULL with a count.
    ck_assert_ur(append_add_events(cb, k, a, &one, 1, &foreign, &ev, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ptr_null(ev);
    ur_event_handle_t not_event = (ur_event_handle_t)T.queue;
    ck_assert_ur(append_add_events(cb, k, a, &one, 1, &not_event, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur(append_add_events(cb, k, a, &one, 1, NULL, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur(
        urCommandBufferAppendUSMMemcpyExp(cb, a, a, 4, 0, NULL, 1, &foreign, NULL, NULL, NULL),
        UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    // A buffer that is not updatable gives events but no command handle to update them by.
    ck_assert_ur(append_add_events(fixed, k, a, &one, 1, &ready, &ev, &cmd),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ptr_null(ev);
    ck_assert_ptr_null(cmd);
    // Failed appends issued no sync point.
    ur_exp_command_buffer_sync_point_t sp = 99;
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, a),
                                              cudat_arg_value(1, &one, sizeof one)};
    size_t global = N;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        cb, k, 1, NULL, &global, NULL, 2, args, 0, NULL, 0, NULL, 1, &ready, &sp, &sig, &cmd));
    ck_assert_uint_eq(sp, 0);
    ck_assert_ur_ok(append_add_events(cb, k, a, &one, 0, NULL, NULL, &plain));
    // Event updates before finalisation.
    ck_assert_ur(urCommandBufferUpdateSignalEventExp(cmd, &ev), UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur(urCommandBufferUpdateWaitEventsExp(cmd, 1, &ready),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    // Wait lists of another length, or with an event of another context or no event.
    ur_event_handle_t two[2] = {ready, ready};
    ck_assert_ur(urCommandBufferUpdateWaitEventsExp(cmd, 2, two),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur(urCommandBufferUpdateWaitEventsExp(cmd, 0, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur(urCommandBufferUpdateWaitEventsExp(plain, 1, &ready),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur(urCommandBufferUpdateWaitEventsExp(cmd, 1, &foreign),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur(urCommandBufferUpdateWaitEventsExp(cmd, 1, &not_event),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur(urCommandBufferUpdateWaitEventsExp(cmd, 1, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    // Signal updates: a command without an event, not a command, no output.
    ck_assert_ur(urCommandBufferUpdateSignalEventExp(plain, &ev),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ptr_null(ev);
    ck_assert_ur(
        urCommandBufferUpdateSignalEventExp((ur_exp_command_buffer_command_handle_t)T.queue, &ev),
        UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP);
    ck_assert_ur(urCommandBufferUpdateSignalEventExp(cmd, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urCommandBufferUpdateSignalEventExp(NULL, &ev),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urCommandBufferUpdateWaitEventsExp(NULL, 0, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    // After all that the buffer runs as recorded: two adds, its event signalled.
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    ck_assert_ur_ok(urEventWait(1, &sig));
    read_ints(out, a, N);
    expect_all(out, N, 2, 0);
    ck_assert_ur_ok(urEventRelease(sig));
    ck_assert_ur_ok(urEventRelease(ready));
    ck_assert_ur_ok(urEventRelease(foreign));
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urCommandBufferReleaseExp(fixed));
    ck_assert_ur_ok(urContextRelease(ctx2));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, a));
}
END_TEST

static ur_kernel_handle_t rules_kernel;

static void rules_bind(void) {
    rules_kernel = kernel("add_value");
    command_rules_cases_bind(T.context, T.device, T.queue, rules_kernel);
}

static void rules_unbind(void) {
    urKernelRelease(rules_kernel);
}

typedef CUresult (*graph_add_memcpy_fn)(CUgraphNode *, CUgraph, const CUgraphNode *, size_t,
                                        const CUDA_MEMCPY3D *, CUcontext);

// What the real driver records without a word and runs past the allocation's end, the
// simulated driver refuses: a copy node 4097 bytes long between two 4096-byte allocations,
// added behind the adapter's back, makes the run fail instead of overflowing.
START_TEST(simulator_refuses_a_copy_node_past_an_allocation) {
    if (!urc_test_device_simulated(T.device))
        return; // on a GPU the node would really corrupt memory
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    ck_assert_ptr_nonnull(lib);
    void *sym = dlsym(lib, "cuGraphAddMemcpyNode");
    ck_assert_ptr_nonnull(sym);
    graph_add_memcpy_fn add_memcpy;
    memcpy(&add_memcpy, &sym, sizeof sym);
    char *a = NULL, *b = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 4096, (void **)&a));
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 4096, (void **)&b));
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urCommandBufferGetNativeHandleExp(cb, &native));
    CUDA_MEMCPY3D p;
    memset(&p, 0, sizeof p);
    p.srcMemoryType = p.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
    p.srcDevice = (CUdeviceptr)(uintptr_t)a;
    p.dstDevice = (CUdeviceptr)(uintptr_t)b;
    p.WidthInBytes = p.srcPitch = p.dstPitch = 4097;
    p.Height = p.Depth = p.srcHeight = p.dstHeight = 1;
    CUgraphNode node = NULL;
    ck_assert_int_eq(add_memcpy(&node, (CUgraph)native, NULL, 0, &p, NULL), CUDA_SUCCESS);
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ck_assert_ur(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    p.WidthInBytes = p.srcPitch = p.dstPitch = 4096; // the same node in bounds runs
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    cb = make_cb(false, true);
    ck_assert_ur_ok(urCommandBufferGetNativeHandleExp(cb, &native));
    ck_assert_int_eq(add_memcpy(&node, (CUgraph)native, NULL, 0, &p, NULL), CUDA_SUCCESS);
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_ur_ok(urUSMFree(T.context, b));
    dlclose(lib);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda_command_buffer");
    TCase *tc = cudat_program_tcase("urCommandBuffer");
    tcase_add_test(tc, device_info);
    tcase_add_test(tc, chain_replayed_1000_times);
    tcase_add_test(tc, buffer_commands);
    tcase_add_test(tc, rect_commands);
    tcase_add_test(tc, buffer_keeps_its_kernels);
    tcase_add_test(tc, runs_enqueued_while_previous_run_pending);
    tcase_add_test(tc, sync_points_order_an_out_of_order_buffer);
    tcase_add_test(tc, updates_between_replays);
    tcase_add_test(tc, update_global_offset);
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, info_and_native_handle);
    tcase_add_test(tc, native_command_in_child_graph);
    tcase_add_test(tc, command_event_signalled_by_each_run);
    tcase_add_test(tc, event_updates_between_replays);
    tcase_add_test(tc, memory_command_event_updates);
    tcase_add_test(tc, event_bad_input);
    tcase_add_test(tc, simulator_refuses_a_copy_node_past_an_allocation);
    suite_add_tcase(s, tc);
    // The rule table's cases every adapter shares (test/conformance/common).
    tc = cudat_program_tcase("command rules");
    tcase_add_checked_fixture(tc, rules_bind, rules_unbind);
    command_rules_cases_add(tc);
    suite_add_tcase(s, tc);
    return cudat_main(s, true);
}
