// SPDX-License-Identifier: MIT
// urCommandBuffer* and urEnqueueCommandBufferExp of the OpenCL adapter: chains of kernels and
// copies replayed many times, updates between replays, sync points, runs that overlap, and
// UR's results for bad input, and the rule table's shared cases (appends and updates answer as
// their urEnqueue* twins). Intel's runtime records natively (cl_khr_command_buffer 1.0); PoCL
// 3.1 (a provisional 0.9.0) and Intel's runtime with URC_OPENCL_FORCE_COMMAND_BUFFER_REPLAY=1
// take the replay path, which runs every case but updates and native commands.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "../common/command_rules_cases.h"
#include "oclt.h"

enum { N = 64 };

static bool supported(void) {
    ur_bool_t b = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP, sizeof b, &b, NULL));
    return b;
}

/// The replay path: any runtime but Intel's, or Intel's when the test asks for it.
static bool replaying(void) {
    const char *v = getenv("URC_OPENCL_FORCE_COMMAND_BUFFER_REPLAY");
    return !T.intel || (v != NULL && strcmp(v, "1") == 0);
}

static uint32_t update_caps(void) {
    return oclt_device_u32(UR_DEVICE_INFO_COMMAND_BUFFER_UPDATE_CAPABILITIES_EXP);
}

static ur_exp_command_buffer_handle_t make_cb(bool updatable, bool in_order) {
    ur_exp_command_buffer_desc_t d = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, updatable,
                                      in_order, false};
    ur_exp_command_buffer_handle_t cb = NULL;
    ck_assert_ur_ok(urCommandBufferCreateExp(T.context, T.device, &d, &cb));
    ck_assert_ptr_nonnull(cb);
    return cb;
}

static ur_mem_handle_t make_buffer(size_t size) {
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, size, NULL, &m));
    return m;
}

static ur_program_handle_t program;

static ur_kernel_handle_t kernel(const char *name) {
    if (program == NULL)
        program = oclt_built_program("cb_kernels");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(program, name, &k));
    return k;
}

static ur_exp_kernel_arg_properties_t mem_arg(uint32_t index, ur_mem_handle_t m) {
    ur_exp_kernel_arg_properties_t a = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                        NULL,
                                        UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ,
                                        index,
                                        sizeof m,
                                        {.memObjTuple = {m, 0}}};
    return a;
}

static ur_exp_kernel_arg_properties_t value_arg(uint32_t index, const int *v) {
    ur_exp_kernel_arg_properties_t a = urc_test_arg_value(index, v, sizeof *v);
    return a;
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

/// Appends add_value(m, *v) over N items.
static ur_result_t append_add(ur_exp_command_buffer_handle_t cb, ur_kernel_handle_t k,
                              ur_mem_handle_t m, const int *v, uint32_t nsync,
                              const ur_exp_command_buffer_sync_point_t *sync,
                              ur_exp_command_buffer_sync_point_t *sp,
                              ur_exp_command_buffer_command_handle_t *cmd) {
    ur_exp_kernel_arg_properties_t args[2] = {mem_arg(0, m), value_arg(1, v)};
    size_t global = N;
    return urCommandBufferAppendKernelLaunchWithArgsExp(cb, k, 1, NULL, &global, NULL, 2, args, 0,
                                                        NULL, nsync, nsync ? sync : NULL, 0, NULL,
                                                        sp, NULL, cmd);
}

static void read_ints(ur_mem_handle_t m, int *out) {
    ck_assert_ur_ok(
        urEnqueueMemBufferRead(T.queue, m, true, 0, N * sizeof(int), out, 0, NULL, NULL));
}

static void expect_all(const int *data, int value, int run) {
    for (int i = 0; i < N; ++i)
        if (data[i] != value)
            ck_abort_msg("run %d: item %d is %d, expected %d", run, i, data[i], value);
}

static void release_all(ur_exp_command_buffer_handle_t cb, ur_kernel_handle_t k) {
    if (cb != NULL)
        ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    if (k != NULL)
        ck_assert_ur_ok(urKernelRelease(k));
    if (program != NULL)
        ck_assert_ur_ok(urProgramRelease(program));
    program = NULL;
}

// ---- device info and creation ----------------------------------------------------------------

START_TEST(device_info_matches_the_runtime) {
    ur_bool_t events = 1, subgraph = 1;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_COMMAND_BUFFER_EVENT_SUPPORT_EXP,
                                    sizeof events, &events, NULL));
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_COMMAND_BUFFER_SUBGRAPH_SUPPORT_EXP,
                                    sizeof subgraph, &subgraph, NULL));
    ck_assert_int_eq(events, 0); // OpenCL command buffers take sync points only
    ck_assert_int_eq(subgraph, 0);
    if (replaying()) {
        // Recorded and replayed where OpenCL 2.1's clCloneKernel exists: nothing updatable.
        ck_assert(supported());
        ck_assert_uint_eq(update_caps(), 0);
    } else if (T.intel) {
        // Intel's CPU runtime 2026.2: cl_khr_command_buffer 1.0.0, mutable dispatch 0.9.3.
        ck_assert(supported());
        uint32_t want = UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_ARGUMENTS |
                        UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_LOCAL_WORK_SIZE |
                        UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_SIZE |
                        UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_OFFSET;
        ck_assert_uint_eq(update_caps(), want);
    } else if (!supported()) {
        ck_assert_uint_eq(update_caps(), 0);
    }
}
END_TEST

START_TEST(create_without_support_is_unsupported) {
    if (supported())
        return;
    ur_exp_command_buffer_desc_t d = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, false, true,
                                      false};
    ur_exp_command_buffer_handle_t cb = NULL;
    ck_assert_ur(urCommandBufferCreateExp(T.context, T.device, &d, &cb),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
}
END_TEST

START_TEST(create_bad_stype_is_invalid_value) {
    ur_exp_command_buffer_desc_t d = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL, false, true, false};
    ur_exp_command_buffer_handle_t cb = NULL;
    ck_assert_ur(urCommandBufferCreateExp(T.context, T.device, &d, &cb),
                 UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(info_retain_release_native) {
    if (!supported())
        return;
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    uint32_t n = 0;
    ck_assert_ur_ok(urCommandBufferRetainExp(cb));
    ck_assert_ur_ok(urCommandBufferGetInfoExp(cb, UR_EXP_COMMAND_BUFFER_INFO_REFERENCE_COUNT,
                                              sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 2);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ur_exp_command_buffer_desc_t d;
    size_t size = 0;
    ck_assert_ur_ok(
        urCommandBufferGetInfoExp(cb, UR_EXP_COMMAND_BUFFER_INFO_DESCRIPTOR, 0, NULL, &size));
    ck_assert_uint_eq(size, sizeof d);
    ck_assert_ur_ok(
        urCommandBufferGetInfoExp(cb, UR_EXP_COMMAND_BUFFER_INFO_DESCRIPTOR, sizeof d, &d, NULL));
    ck_assert_int_eq(d.stype, UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC);
    ck_assert_int_eq(d.isUpdatable, 0);
    ck_assert_int_eq(d.isInOrder, 1);
    ur_native_handle_t native = 0;
    if (replaying()) {
        // No cl_command_buffer_khr stands behind a replayed buffer.
        ck_assert_ur(urCommandBufferGetNativeHandleExp(cb, &native),
                     UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    } else {
        ck_assert_ur_ok(urCommandBufferGetNativeHandleExp(cb, &native));
        ck_assert_uint_ne(native, 0);
    }
    ck_assert_ur(
        urCommandBufferGetInfoExp(cb, UR_EXP_COMMAND_BUFFER_INFO_REFERENCE_COUNT, 1, &n, NULL),
        UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
}
END_TEST

// ---- replays ---------------------------------------------------------------------------------

// fill a = 5; a += v; copy a -> b; b += 1 (fill, kernel, copy, kernel): b == 6 + v.
START_TEST(chain_replayed_1000_times) {
    if (!supported())
        return;
    ur_kernel_handle_t k = kernel("add_value");
    ur_mem_handle_t a = make_buffer(N * sizeof(int)), b = make_buffer(N * sizeof(int));
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    int five = 5, v = 3, one = 1;
    ur_exp_command_buffer_sync_point_t sp[4];
    ck_assert_ur_ok(urCommandBufferAppendMemBufferFillExp(
        cb, a, &five, sizeof five, 0, N * sizeof(int), 0, NULL, 0, NULL, &sp[0], NULL, NULL));
    ck_assert_ur_ok(append_add(cb, k, a, &v, 1, &sp[0], &sp[1], NULL));
    v = 1000; // arguments were captured at append
    ck_assert_ur_ok(urCommandBufferAppendMemBufferCopyExp(cb, a, b, 0, 0, N * sizeof(int), 1,
                                                          &sp[1], 0, NULL, &sp[2], NULL, NULL));
    ck_assert_ur_ok(append_add(cb, k, b, &one, 1, &sp[2], &sp[3], NULL));
    ck_assert_uint_eq(sp[0], 0);
    ck_assert_uint_eq(sp[3], 3);
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    int out[N];
    for (int run = 0; run < 1000; ++run) {
        ur_event_handle_t ev = NULL;
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, &ev));
        memset(out, 0, sizeof out);
        read_ints(b, out);
        expect_all(out, 9, run);
        ck_assert_ur_ok(urEventRelease(ev));
    }
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
    release_all(cb, k);
}
END_TEST

// The same chain over USM: USM fill, kernel with a pointer argument, USM copy.
START_TEST(usm_chain_replayed_1000_times) {
    if (!supported() || !T.usm)
        return;
    ur_kernel_handle_t k = kernel("add_value");
    int *a = NULL, *b = NULL;
    ck_assert_ur_ok(
        urUSMDeviceAlloc(T.context, T.device, NULL, NULL, N * sizeof(int), (void **)&a));
    ck_assert_ur_ok(
        urUSMSharedAlloc(T.context, T.device, NULL, NULL, N * sizeof(int), (void **)&b));
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    int seven = 7, v = 2;
    ck_assert_ur_ok(urCommandBufferAppendUSMFillExp(cb, a, &seven, sizeof seven, N * sizeof(int), 0,
                                                    NULL, 0, NULL, NULL, NULL, NULL));
    ur_exp_kernel_arg_properties_t args[2] = {pointer_arg(0, a), value_arg(1, &v)};
    size_t global = N;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        cb, k, 1, NULL, &global, NULL, 2, args, 0, NULL, 0, NULL, 0, NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendUSMMemcpyExp(cb, b, a, N * sizeof(int), 0, NULL, 0, NULL,
                                                      NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendUSMPrefetchExp(cb, b, N * sizeof(int), 0, 0, NULL, 0, NULL,
                                                        NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    for (int run = 0; run < 1000; ++run) {
        memset(b, 0, N * sizeof(int));
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        ck_assert_ur_ok(urQueueFinish(T.queue));
        expect_all(b, 9, run);
    }
    ck_assert_ur_ok(urUSMFree(T.context, a));
    ck_assert_ur_ok(urUSMFree(T.context, b));
    release_all(cb, k);
}
END_TEST

// USM fill patterns OpenCL's fill commands do not take (12 bytes, not a power of two; 256,
// past 128) are written as urEnqueueUSMFill writes them, run after run.
START_TEST(usm_fill_any_pattern) {
    if (!supported() || !T.usm)
        return;
    enum { BYTES = 3 * 256 * 4 };
    uint8_t *a = NULL;
    ck_assert_ur_ok(urUSMSharedAlloc(T.context, T.device, NULL, NULL, BYTES, (void **)&a));
    uint8_t pattern[256];
    for (int i = 0; i < 256; ++i)
        pattern[i] = (uint8_t)(i * 7 + 1);
    static const size_t sizes[] = {12, 256};
    for (size_t s = 0; s < 2; ++s) {
        ur_exp_command_buffer_handle_t cb = make_cb(false, true);
        ck_assert_ur_ok(urCommandBufferAppendUSMFillExp(cb, a, pattern, sizes[s], BYTES, 0, NULL, 0,
                                                        NULL, NULL, NULL, NULL));
        ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
        for (int run = 0; run < 3; ++run) {
            memset(a, 0, BYTES);
            ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
            ck_assert_ur_ok(urQueueFinish(T.queue));
            for (size_t i = 0; i < BYTES; ++i)
                ck_assert_uint_eq(a[i], pattern[i % sizes[s]]);
        }
        ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    }
    ck_assert_ur_ok(urUSMFree(T.context, a));
}
END_TEST

// A run enqueued while the previous runs are still pending: 200 runs back to back, each
// adding 2, on the in-order queue and, chained by events, on an out-of-order one.
START_TEST(runs_enqueued_while_previous_run_pending) {
    if (!supported())
        return;
    ur_kernel_handle_t k = kernel("add_value");
    ur_mem_handle_t a = make_buffer(N * sizeof(int));
    int zero = 0, two = 2;
    ck_assert_ur_ok(
        urEnqueueMemBufferFill(T.queue, a, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL));
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    ck_assert_ur_ok(append_add(cb, k, a, &two, 0, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    for (int run = 0; run < 200; ++run)
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    int out[N];
    read_ints(a, out);
    expect_all(out, 400, 200);
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_handle_t ooo = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &ooo));
    ur_event_handle_t prev = NULL;
    for (int run = 0; run < 100; ++run) {
        ur_event_handle_t ev = NULL;
        ck_assert_ur_ok(urEnqueueCommandBufferExp(ooo, cb, prev != NULL, prev ? &prev : NULL, &ev));
        ur_command_t type = 0;
        ck_assert_ur_ok(urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_TYPE, sizeof type, &type, NULL));
        ck_assert_int_eq(type, UR_COMMAND_ENQUEUE_COMMAND_BUFFER_EXP);
        if (prev != NULL)
            ck_assert_ur_ok(urEventRelease(prev));
        prev = ev;
    }
    ck_assert_ur_ok(urEventWait(1, &prev));
    ck_assert_ur_ok(urEventRelease(prev));
    read_ints(a, out);
    expect_all(out, 600, 300);
    ck_assert_ur_ok(urQueueRelease(ooo));
    ck_assert_ur_ok(urMemRelease(a));
    release_all(cb, k);
}
END_TEST

// Out-of-order buffer: fill (sp0), a += 2 after sp0 (sp1), a += 3 after sp1 (sp2), copy to b
// after sp2; the result needs every edge.
START_TEST(sync_points_order_an_out_of_order_buffer) {
    if (!supported())
        return;
    ur_kernel_handle_t k = kernel("add_value");
    ur_mem_handle_t a = make_buffer(N * sizeof(int)), b = make_buffer(N * sizeof(int));
    ur_exp_command_buffer_handle_t cb = make_cb(false, false);
    int one = 1, two = 2, three = 3;
    ur_exp_command_buffer_sync_point_t sp[3];
    ck_assert_ur_ok(urCommandBufferAppendMemBufferFillExp(
        cb, a, &one, sizeof one, 0, N * sizeof(int), 0, NULL, 0, NULL, &sp[0], NULL, NULL));
    ck_assert_ur_ok(append_add(cb, k, a, &two, 1, &sp[0], &sp[1], NULL));
    ck_assert_ur_ok(append_add(cb, k, a, &three, 2, sp, &sp[2], NULL));
    ck_assert_ur_ok(urCommandBufferAppendMemBufferCopyExp(cb, a, b, 0, 0, N * sizeof(int), 1,
                                                          &sp[2], 0, NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    int out[N];
    for (int run = 0; run < 50; ++run) {
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        read_ints(b, out);
        expect_all(out, 6, run);
    }
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
    release_all(cb, k);
}
END_TEST

/// An eager add_value(m, *v) over N items.
static void launch_add(ur_kernel_handle_t k, ur_mem_handle_t m, const int *v) {
    ur_exp_kernel_arg_properties_t args[2] = {mem_arg(0, m), value_arg(1, v)};
    size_t global = N;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL, 2, args,
                                                     NULL, 0, NULL, NULL));
}

// A command keeps the arguments it was appended with: those of the append, or for an append
// without arguments those the kernel had then (from its last launch), whatever launches give
// the kernel afterwards (the replay path launches a clone made at append).
START_TEST(arguments_are_captured_at_append) {
    if (!supported())
        return;
    ur_kernel_handle_t k = kernel("add_value");
    ur_mem_handle_t a = make_buffer(N * sizeof(int)), b = make_buffer(N * sizeof(int));
    int zero = 0, three = 3, hundred = 100, out[N];
    ck_assert_ur_ok(
        urEnqueueMemBufferFill(T.queue, a, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL));
    ck_assert_ur_ok(
        urEnqueueMemBufferFill(T.queue, b, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL));
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    ck_assert_ur_ok(append_add(cb, k, a, &three, 0, NULL, NULL, NULL)); // a += 3
    launch_add(k, b, &hundred);                                         // b += 100 once
    size_t global = N;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchExp(cb, k, 1, NULL, &global, NULL, 0, NULL, 0,
                                                         NULL, 0, NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb)); // each run: a += 3, b += 100
    for (int run = 0; run < 3; ++run) {
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        launch_add(k, a, &zero); // the kernel's arguments change between runs
    }
    read_ints(a, out);
    expect_all(out, 9, 0);
    read_ints(b, out);
    expect_all(out, 400, 0);
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
    release_all(cb, k);
}
END_TEST

// The buffer, its kernel and program released while 100 runs are pending: the runs complete
// with the arguments recorded.
START_TEST(release_while_runs_pending) {
    if (!supported())
        return;
    ur_kernel_handle_t k = kernel("add_value");
    ur_mem_handle_t a = make_buffer(N * sizeof(int));
    int zero = 0, five = 5, out[N];
    ck_assert_ur_ok(
        urEnqueueMemBufferFill(T.queue, a, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL));
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    ck_assert_ur_ok(append_add(cb, k, a, &five, 0, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ur_event_handle_t last = NULL;
    for (int run = 0; run < 100; ++run) {
        if (last != NULL)
            ck_assert_ur_ok(urEventRelease(last));
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, &last));
    }
    release_all(cb, k);
    ck_assert_ur_ok(urEventWait(1, &last));
    ck_assert_ur_ok(urEventRelease(last));
    read_ints(a, out);
    expect_all(out, 500, 0);
    ck_assert_ur_ok(urMemRelease(a));
}
END_TEST

// Replayed: a kernel command holds the buffers among its arguments, so the caller may release
// its handle after the append (a copy then takes the result to a buffer it still has).
START_TEST(replayed_kernel_holds_its_buffer_arguments) {
    if (!supported() || !replaying())
        return;
    ur_kernel_handle_t k = kernel("add_value");
    ur_mem_handle_t a = make_buffer(N * sizeof(int)), b = make_buffer(N * sizeof(int));
    int four = 4, zero = 0, out[N];
    ck_assert_ur_ok(
        urEnqueueMemBufferFill(T.queue, a, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    ck_assert_ur_ok(append_add(cb, k, a, &four, 0, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferAppendMemBufferCopyExp(cb, a, b, 0, 0, N * sizeof(int), 0, NULL,
                                                          0, NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ck_assert_ur_ok(urMemRelease(a));
    for (int run = 1; run <= 5; ++run) {
        ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
        read_ints(b, out);
        expect_all(out, 4 * run, run);
    }
    ck_assert_ur_ok(urMemRelease(b));
    release_all(cb, k);
}
END_TEST

// On an out-of-order queue: the run waits for its wait list (an eager fill), its two
// independent commands both finish before the run's event, and a fill pattern of 256 bytes,
// past OpenCL's 128, is written as urEnqueueMemBufferFill writes it.
START_TEST(run_event_and_wait_list_on_out_of_order_queue) {
    if (!supported())
        return;
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_handle_t ooo = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &ooo));
    ur_kernel_handle_t k = kernel("add_value");
    ur_mem_handle_t a = make_buffer(N * sizeof(int)), b = make_buffer(N * sizeof(int));
    int big[64], out[N], seven = 7, two = 2;
    for (int i = 0; i < 64; ++i)
        big[i] = 1000 + i;
    ur_exp_command_buffer_handle_t cb = make_cb(false, false);
    ck_assert_ur_ok(append_add(cb, k, a, &two, 0, NULL, NULL, NULL));
    size_t pattern = sizeof big;
    ck_assert_ur_ok(urCommandBufferAppendMemBufferFillExp(cb, b, big, pattern, 0, N * sizeof(int),
                                                          0, NULL, 0, NULL, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    for (int run = 1; run <= 20; ++run) {
        ur_event_handle_t filled = NULL, done = NULL;
        ck_assert_ur_ok(urEnqueueMemBufferFill(ooo, a, &seven, sizeof seven, 0, N * sizeof(int), 0,
                                               NULL, &filled));
        ck_assert_ur_ok(urEnqueueCommandBufferExp(ooo, cb, 1, &filled, &done));
        ck_assert_ur_ok(urEventWait(1, &done));
        ur_event_status_t st = UR_EVENT_STATUS_QUEUED;
        ck_assert_ur_ok(
            urEventGetInfo(done, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
        ck_assert_int_eq(st, UR_EVENT_STATUS_COMPLETE);
        ck_assert_ur_ok(urEnqueueMemBufferRead(ooo, a, true, 0, sizeof out, out, 0, NULL, NULL));
        expect_all(out, 9, run);
        ck_assert_ur_ok(urEnqueueMemBufferRead(ooo, b, true, 0, sizeof out, out, 0, NULL, NULL));
        for (int i = 0; i < N; ++i)
            ck_assert_int_eq(out[i], 1000 + i % (int)(pattern / sizeof(int)));
        ck_assert_ur_ok(urEventRelease(filled));
        ck_assert_ur_ok(urEventRelease(done));
    }
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
    ck_assert_ur_ok(urQueueRelease(ooo));
    release_all(cb, k);
}
END_TEST

// A rectangular copy and an empty buffer: the copy moves a 4 x 4 block of ints, and an empty
// buffer's run completes after its wait list.
START_TEST(copy_rect_and_empty_buffer) {
    if (!supported())
        return;
    ur_mem_handle_t a = make_buffer(N * sizeof(int)), b = make_buffer(N * sizeof(int));
    int in[N], out[N], zero = 0;
    for (int i = 0; i < N; ++i)
        in[i] = i;
    ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, a, true, 0, sizeof in, in, 0, NULL, NULL));
    ck_assert_ur_ok(
        urEnqueueMemBufferFill(T.queue, b, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL));
    ur_exp_command_buffer_handle_t cb = make_cb(false, true), empty = make_cb(false, true);
    // Rows of 8 ints: the block at (2, 1) of a goes to (0, 0) of b.
    ur_rect_offset_t src = {2 * sizeof(int), 1, 0}, dst = {0, 0, 0};
    ur_rect_region_t region = {4 * sizeof(int), 4, 1};
    ck_assert_ur_ok(urCommandBufferAppendMemBufferCopyRectExp(
        cb, a, b, src, dst, region, 8 * sizeof(int), 0, 8 * sizeof(int), 0, 0, NULL, 0, NULL, NULL,
        NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(empty));
    ur_event_handle_t ev = NULL, ev2 = NULL;
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, &ev));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, empty, 1, &ev, &ev2));
    ck_assert_ur_ok(urEventWait(1, &ev2));
    read_ints(b, out);
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c)
            ck_assert_int_eq(out[r * 8 + c], r < 4 && c < 4 ? (r + 1) * 8 + c + 2 : 0);
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(urEventRelease(ev2));
    ck_assert_ur_ok(urCommandBufferReleaseExp(empty));
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
    release_all(cb, NULL);
}
END_TEST

// ---- updates ---------------------------------------------------------------------------------

// Between replays: the value argument, then the buffer argument, then global size and offset.
START_TEST(updates_between_replays) {
    if (!supported() || update_caps() == 0)
        return;
    ur_kernel_handle_t k = kernel("add_value");
    ur_mem_handle_t a = make_buffer(N * sizeof(int)), b = make_buffer(N * sizeof(int));
    int zero = 0, v = 1;
    ck_assert_ur_ok(
        urEnqueueMemBufferFill(T.queue, a, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL));
    ck_assert_ur_ok(
        urEnqueueMemBufferFill(T.queue, b, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL));
    ur_exp_command_buffer_handle_t cb = make_cb(true, true);
    ur_exp_command_buffer_command_handle_t cmd = NULL;
    ck_assert_ur_ok(append_add(cb, k, a, &v, 0, NULL, NULL, &cmd));
    ck_assert_ptr_nonnull(cmd);
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    int out[N];
    // 100 replays, the added value changing each time: a == sum of 1..100.
    int sum = 0;
    for (int run = 1; run <= 100; ++run) {
        urc_test_update_value_and_replay(cb, cmd, 1, sizeof run, &run, T.queue);
        sum += run;
        read_ints(a, out);
        expect_all(out, sum, run);
    }
    // The buffer argument: now b gets the last value (100).
    ur_exp_command_buffer_update_memobj_arg_desc_t mem = {
        UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_MEMOBJ_ARG_DESC, NULL, 0, NULL, b};
    ur_exp_command_buffer_update_kernel_launch_desc_t u = urc_test_update_of(cmd);
    u.numNewMemObjArgs = 1;
    u.pNewMemObjArgList = &mem;
    ck_assert_ur_ok(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    read_ints(b, out);
    expect_all(out, 100, 0);
    read_ints(a, out);
    expect_all(out, sum, 0);
    // Global size 16 at offset 8: only items 8..23 of b change.
    size_t offset = 8, global = 16;
    u = urc_test_update_of(cmd);
    u.pNewGlobalWorkOffset = &offset;
    u.pNewGlobalWorkSize = &global;
    ck_assert_ur_ok(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    read_ints(b, out);
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], i >= 8 && i < 24 ? 200 : 100);
    ck_assert_ur_ok(urMemRelease(a));
    ck_assert_ur_ok(urMemRelease(b));
    release_all(cb, k);
}
END_TEST

// Global and local size together, and back: 32 items in groups of 16, then all 64 in groups of 8.
START_TEST(update_local_and_global_size) {
    if (!supported() ||
        !(update_caps() & UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_LOCAL_WORK_SIZE))
        return;
    ur_kernel_handle_t k = kernel("add_value");
    ur_mem_handle_t a = make_buffer(N * sizeof(int));
    int zero = 0, v = 1, out[N];
    ck_assert_ur_ok(
        urEnqueueMemBufferFill(T.queue, a, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL));
    ur_exp_command_buffer_handle_t cb = make_cb(true, true);
    ur_exp_kernel_arg_properties_t args[2] = {mem_arg(0, a), value_arg(1, &v)};
    size_t global = N, local = 8;
    ur_exp_command_buffer_command_handle_t cmd = NULL;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        cb, k, 1, NULL, &global, &local, 2, args, 0, NULL, 0, NULL, 0, NULL, NULL, NULL, &cmd));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    size_t g2 = 32, l2 = 16;
    ur_exp_command_buffer_update_kernel_launch_desc_t u = urc_test_update_of(cmd);
    u.pNewGlobalWorkSize = &g2;
    u.pNewLocalWorkSize = &l2;
    ck_assert_ur_ok(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    read_ints(a, out);
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], i < 32 ? 1 : 0);
    u.pNewGlobalWorkSize = &global;
    u.pNewLocalWorkSize = &local;
    ck_assert_ur_ok(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    read_ints(a, out);
    for (int i = 0; i < N; ++i)
        ck_assert_int_eq(out[i], i < 32 ? 2 : 1);
    ck_assert_ur_ok(urMemRelease(a));
    release_all(cb, k);
}
END_TEST

START_TEST(update_pointer_argument) {
    if (!supported() || !T.usm || update_caps() == 0)
        return;
    ur_kernel_handle_t k = kernel("add_value");
    int *p = NULL, *q = NULL;
    ck_assert_ur_ok(
        urUSMSharedAlloc(T.context, T.device, NULL, NULL, N * sizeof(int), (void **)&p));
    ck_assert_ur_ok(
        urUSMSharedAlloc(T.context, T.device, NULL, NULL, N * sizeof(int), (void **)&q));
    memset(p, 0, N * sizeof(int));
    memset(q, 0, N * sizeof(int));
    ur_exp_command_buffer_handle_t cb = make_cb(true, true);
    int v = 4;
    ur_exp_kernel_arg_properties_t args[2] = {pointer_arg(0, p), value_arg(1, &v)};
    size_t global = N;
    ur_exp_command_buffer_command_handle_t cmd = NULL;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        cb, k, 1, NULL, &global, NULL, 2, args, 0, NULL, 0, NULL, 0, NULL, NULL, NULL, &cmd));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ur_exp_command_buffer_update_pointer_arg_desc_t ptr = {
        UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_POINTER_ARG_DESC, NULL, 0, NULL, &q};
    ur_exp_command_buffer_update_kernel_launch_desc_t u = urc_test_update_of(cmd);
    u.numNewPointerArgs = 1;
    u.pNewPointerArgList = &ptr;
    ck_assert_ur_ok(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    expect_all(p, 4, 0);
    expect_all(q, 4, 1);
    ck_assert_ur_ok(urUSMFree(T.context, p));
    ck_assert_ur_ok(urUSMFree(T.context, q));
    release_all(cb, k);
}
END_TEST

// ---- bad input -------------------------------------------------------------------------------

START_TEST(append_after_finalize_is_invalid_operation) {
    if (!supported())
        return;
    ur_kernel_handle_t k = kernel("add_value");
    ur_mem_handle_t a = make_buffer(N * sizeof(int));
    int v = 1;
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    ck_assert_ur(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_OPERATION); // not finalized yet
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ck_assert_ur(urCommandBufferFinalizeExp(cb), UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur(append_add(cb, k, a, &v, 0, NULL, NULL, NULL), UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur(urCommandBufferAppendMemBufferFillExp(cb, a, &v, sizeof v, 0, sizeof v, 0, NULL, 0,
                                                       NULL, NULL, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur_ok(urMemRelease(a));
    release_all(cb, k);
}
END_TEST

START_TEST(foreign_and_unissued_sync_points_are_refused) {
    if (!supported())
        return;
    ur_kernel_handle_t k = kernel("add_value");
    ur_mem_handle_t a = make_buffer(N * sizeof(int));
    int v = 1;
    ur_exp_command_buffer_handle_t cb = make_cb(false, true), other = make_cb(false, true);
    ur_exp_command_buffer_sync_point_t sp = 0, theirs = 0;
    ck_assert_ur_ok(append_add(other, k, a, &v, 0, NULL, NULL, NULL));
    ck_assert_ur_ok(append_add(other, k, a, &v, 0, NULL, &theirs, NULL));
    ck_assert_uint_eq(theirs, 1);
    // Sync point 1 was issued by `other`; this buffer has issued none (then only 0).
    ck_assert_ur(append_add(cb, k, a, &v, 1, &theirs, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_SYNC_POINT_EXP);
    ck_assert_ur_ok(append_add(cb, k, a, &v, 0, NULL, &sp, NULL));
    ck_assert_uint_eq(sp, 0);
    ck_assert_ur(append_add(cb, k, a, &v, 1, &theirs, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_SYNC_POINT_EXP);
    ur_exp_command_buffer_sync_point_t huge = 0xffffffffu;
    ck_assert_ur(urCommandBufferAppendMemBufferCopyExp(cb, a, a, 0, 128, 64, 1, &huge, 0, NULL,
                                                       NULL, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_SYNC_POINT_EXP);
    ck_assert_ur(append_add(cb, k, a, &v, 1, NULL, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_SYNC_POINT_WAIT_LIST_EXP);
    // A failed append issues no sync point.
    ck_assert_ur_ok(append_add(cb, k, a, &v, 1, &sp, &sp, NULL));
    ck_assert_uint_eq(sp, 1);
    ck_assert_ur_ok(urCommandBufferReleaseExp(other));
    ck_assert_ur_ok(urMemRelease(a));
    release_all(cb, k);
}
END_TEST

START_TEST(kernel_of_another_context_is_invalid_kernel) {
    if (!supported())
        return;
    ur_context_handle_t mine = T.context, theirs = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &theirs));
    T.context = theirs; // build the program in the other context
    ur_kernel_handle_t k = kernel("empty_kernel");
    T.context = mine;
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    size_t global = 1;
    ck_assert_ur(urCommandBufferAppendKernelLaunchExp(cb, k, 1, NULL, &global, NULL, 0, NULL, 0,
                                                      NULL, 0, NULL, NULL, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_KERNEL);
    release_all(cb, k);
    ck_assert_ur_ok(urContextRelease(theirs));
}
END_TEST

START_TEST(launch_checks) {
    if (!supported())
        return;
    ur_kernel_handle_t k = kernel("empty_kernel");
    ur_exp_command_buffer_handle_t cb = make_cb(false, true);
    size_t global[3] = {4, 4, 4}, local0[3] = {0, 1, 1};
    ck_assert_ur(urCommandBufferAppendKernelLaunchExp(cb, k, 4, NULL, global, NULL, 0, NULL, 0,
                                                      NULL, 0, NULL, NULL, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_WORK_DIMENSION);
    ck_assert_ur(urCommandBufferAppendKernelLaunchExp(cb, k, 1, NULL, global, local0, 0, NULL, 0,
                                                      NULL, 0, NULL, NULL, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
    ck_assert_ur(urCommandBufferAppendKernelLaunchExp(cb, k, 1, NULL, global, NULL, 1, &k, 0, NULL,
                                                      0, NULL, NULL, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE); // alternatives repeat the kernel
    // A command handle from a buffer that is not updatable.
    ur_exp_command_buffer_command_handle_t cmd = NULL;
    ck_assert_ur(urCommandBufferAppendKernelLaunchExp(cb, k, 1, NULL, global, NULL, 0, NULL, 0,
                                                      NULL, 0, NULL, NULL, NULL, &cmd),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    // Events: OpenCL command buffers have none.
    ur_event_handle_t ev = NULL;
    ck_assert_ur(urCommandBufferAppendKernelLaunchExp(cb, k, 1, NULL, global, NULL, 0, NULL, 0,
                                                      NULL, 0, NULL, NULL, &ev, NULL),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ptr_null(ev);
    // Host reads and writes have no cl_khr_command_buffer command.
    ur_mem_handle_t a = make_buffer(64);
    char host[64];
    ck_assert_ur(urCommandBufferAppendMemBufferReadExp(cb, a, 0, 64, host, 0, NULL, 0, NULL, NULL,
                                                       NULL, NULL),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur(urCommandBufferAppendMemBufferFillExp(cb, a, host, 4, 32, 64, 0, NULL, 0, NULL,
                                                       NULL, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urMemRelease(a));
    if (!T.usm) {
        // USM commands are UNSUPPORTED_FEATURE without USM, as their urEnqueueUSM* twins.
        int x = 0, y = 0;
        ck_assert_ur(urCommandBufferAppendUSMMemcpyExp(cb, &x, &y, sizeof x, 0, NULL, 0, NULL, NULL,
                                                       NULL, NULL),
                     UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        ck_assert_ur(urCommandBufferAppendUSMPrefetchExp(cb, &x, SIZE_MAX / 2 + 1, 0, 0, NULL, 0,
                                                         NULL, NULL, NULL, NULL),
                     UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    }
    // Handles of the wrong kind.
    ck_assert_ur(urCommandBufferFinalizeExp((ur_exp_command_buffer_handle_t)T.queue),
                 UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP);
    ck_assert_ur(
        urEnqueueCommandBufferExp(T.queue, (ur_exp_command_buffer_handle_t)k, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP);
    release_all(cb, k);
}
END_TEST

START_TEST(update_rules) {
    if (!supported())
        return;
    ur_kernel_handle_t k = kernel("add_value");
    ur_kernel_handle_t other_k = kernel("add_value");
    ur_mem_handle_t a = make_buffer(N * sizeof(int));
    int v = 1;
    ur_exp_command_buffer_handle_t plain = make_cb(false, true);
    ck_assert_ur_ok(append_add(plain, k, a, &v, 0, NULL, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(plain));
    if (update_caps() == 0) {
        ur_exp_command_buffer_desc_t d = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, true,
                                          true, false};
        ur_exp_command_buffer_handle_t cb = NULL;
        ck_assert_ur(urCommandBufferCreateExp(T.context, T.device, &d, &cb),
                     UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        ck_assert_ur_ok(urKernelRelease(other_k));
        ck_assert_ur_ok(urMemRelease(a));
        release_all(plain, k);
        return;
    }
    ur_exp_command_buffer_handle_t cb = make_cb(true, true), cb2 = make_cb(true, true);
    ur_exp_command_buffer_command_handle_t cmd = NULL, cmd2 = NULL;
    ck_assert_ur_ok(append_add(cb, k, a, &v, 0, NULL, NULL, &cmd));
    ck_assert_ur_ok(append_add(cb2, k, a, &v, 0, NULL, NULL, &cmd2));
    ur_exp_command_buffer_update_kernel_launch_desc_t u = urc_test_update_of(cmd);
    // Before finalisation, and on a buffer that is not updatable.
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(plain, 1, &u),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb2));
    ck_assert_ur_ok(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u)); // no change at all
    // A command of another buffer.
    u = urc_test_update_of(cmd2);
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u),
                 UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP);
    // A NULL command in the second description (the generated check sees the first only).
    ur_exp_command_buffer_update_kernel_launch_desc_t two[2] = {urc_test_update_of(cmd),
                                                                urc_test_update_of(NULL)};
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(cb, 2, two),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    // A new dimension needs a new global size and offset.
    size_t sizes[2] = {8, 8};
    u = urc_test_update_of(cmd);
    u.newWorkDim = 2;
    u.pNewGlobalWorkSize = sizes;
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u), UR_RESULT_ERROR_INVALID_VALUE);
    u.newWorkDim = 4;
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u),
                 UR_RESULT_ERROR_INVALID_WORK_DIMENSION);
    // A kernel switch: OpenCL cannot make one.
    u = urc_test_update_of(cmd);
    u.hNewKernel = other_k;
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    u.hNewKernel = k; // the command's own kernel is no switch
    ck_assert_ur_ok(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u));
    // An argument list missing.
    u = urc_test_update_of(cmd);
    u.numNewValueArgs = 1;
    ck_assert_ur(urCommandBufferUpdateKernelLaunchExp(cb, 1, &u),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    // Events cannot be updated on OpenCL.
    ur_event_handle_t ev = NULL;
    ck_assert_ur(urCommandBufferUpdateSignalEventExp(cmd, &ev),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur(urCommandBufferUpdateWaitEventsExp(cmd, 0, NULL),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur(
        urCommandBufferUpdateWaitEventsExp((ur_exp_command_buffer_command_handle_t)cb, 0, NULL),
        UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP);
    // A failed update changed nothing: the buffer still adds 1.
    int zero = 0, out[N];
    ck_assert_ur_ok(
        urEnqueueMemBufferFill(T.queue, a, &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL));
    read_ints(a, out);
    expect_all(out, 1, 0);
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb2));
    ck_assert_ur_ok(urCommandBufferReleaseExp(plain));
    ck_assert_ur_ok(urKernelRelease(other_k));
    ck_assert_ur_ok(urMemRelease(a));
    release_all(cb, k);
}
END_TEST

// ---- native commands -------------------------------------------------------------------------

typedef cl_int(CL_API_CALL *fill_fn)(void *, cl_command_queue, const cl_properties *, cl_mem,
                                     const void *, size_t, size_t, size_t, cl_uint, const cl_uint *,
                                     cl_uint *, void *);

typedef struct native_ctx_t {
    ur_exp_command_buffer_handle_t cb;
    ur_mem_handle_t mem;
    fill_fn fill;
    cl_int err;
} native_ctx_t;

static void record_fill(void *data) {
    native_ctx_t *c = data;
    ur_native_handle_t ncb = 0, nmem = 0;
    urCommandBufferGetNativeHandleExp(c->cb, &ncb);
    urMemGetNativeHandle(c->mem, T.device, &nmem);
    int pattern = 40;
    c->err = c->fill((void *)ncb, NULL, NULL, (cl_mem)nmem, &pattern, sizeof pattern, 0,
                     N * sizeof(int), 0, NULL, NULL, NULL);
}

// A native fill recorded by the callback, then a UR kernel after its sync point: 40 + 2.
START_TEST(native_command_records_into_the_buffer) {
    if (!supported())
        return;
    if (replaying()) {
        ur_exp_command_buffer_handle_t cb = make_cb(false, true);
        ck_assert_ur(
            urCommandBufferAppendNativeCommandExp(cb, record_fill, NULL, NULL, 0, NULL, NULL),
            UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
        return;
    }
    ur_native_handle_t platform = 0;
    ck_assert_ur_ok(urPlatformGetNativeHandle(T.platform, &platform));
    native_ctx_t ctx = {make_cb(false, true), make_buffer(N * sizeof(int)), NULL, -1};
    ctx.fill = (fill_fn)clGetExtensionFunctionAddressForPlatform((cl_platform_id)platform,
                                                                 "clCommandFillBufferKHR");
    ck_assert_ptr_nonnull(ctx.fill);
    ur_kernel_handle_t k = kernel("add_value");
    ur_exp_command_buffer_sync_point_t sp = 0;
    ck_assert_ur_ok(
        urCommandBufferAppendNativeCommandExp(ctx.cb, record_fill, &ctx, NULL, 0, NULL, &sp));
    ck_assert_int_eq(ctx.err, CL_SUCCESS);
    int two = 2, out[N];
    ck_assert_ur_ok(append_add(ctx.cb, k, ctx.mem, &two, 1, &sp, NULL, NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(ctx.cb));
    ck_assert_ur_ok(urEnqueueCommandBufferExp(T.queue, ctx.cb, 0, NULL, NULL));
    read_ints(ctx.mem, out);
    expect_all(out, 42, 0);
    ck_assert_ur_ok(urMemRelease(ctx.mem));
    release_all(ctx.cb, k);
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

int main(void) {
    Suite *s = suite_create("opencl_command_buffer");
    TCase *tc = oclt_tcase("urCommandBufferCreateExp");
    tcase_add_test(tc, device_info_matches_the_runtime);
    tcase_add_test(tc, create_without_support_is_unsupported);
    tcase_add_test(tc, create_bad_stype_is_invalid_value);
    tcase_add_test(tc, info_retain_release_native);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueCommandBufferExp");
    tcase_add_test(tc, chain_replayed_1000_times);
    tcase_add_test(tc, usm_chain_replayed_1000_times);
    tcase_add_test(tc, usm_fill_any_pattern);
    tcase_add_test(tc, runs_enqueued_while_previous_run_pending);
    tcase_add_test(tc, sync_points_order_an_out_of_order_buffer);
    tcase_add_test(tc, arguments_are_captured_at_append);
    tcase_add_test(tc, release_while_runs_pending);
    tcase_add_test(tc, replayed_kernel_holds_its_buffer_arguments);
    tcase_add_test(tc, run_event_and_wait_list_on_out_of_order_queue);
    tcase_add_test(tc, copy_rect_and_empty_buffer);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urCommandBufferUpdateKernelLaunchExp");
    tcase_add_test(tc, updates_between_replays);
    tcase_add_test(tc, update_local_and_global_size);
    tcase_add_test(tc, update_pointer_argument);
    tcase_add_test(tc, update_rules);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urCommandBufferAppend");
    tcase_add_test(tc, append_after_finalize_is_invalid_operation);
    tcase_add_test(tc, foreign_and_unissued_sync_points_are_refused);
    tcase_add_test(tc, kernel_of_another_context_is_invalid_kernel);
    tcase_add_test(tc, launch_checks);
    tcase_add_test(tc, native_command_records_into_the_buffer);
    suite_add_tcase(s, tc);
    // The rule table's cases every adapter shares (test/conformance/common).
    tc = oclt_tcase("command rules");
    tcase_add_checked_fixture(tc, rules_bind, rules_unbind);
    command_rules_cases_add(tc);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
