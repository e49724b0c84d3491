// SPDX-License-Identifier: MIT
// urCommandBuffer* and urEnqueueCommandBufferExp of the Level Zero adapter over the simulated
// driver (regular command lists; kernels are recorded, copies and fills run): chains replayed
// 1000 times with the data checked, kernel launches counted per run, runs back to back and
// chained by events, and UR's results for bad input. Runs with immediate and regular queues.
#include <string.h>

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
    uint32_t caps = 1;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_COMMAND_BUFFER_UPDATE_CAPABILITIES_EXP,
                                    sizeof caps, &caps, NULL));
    ck_assert_uint_eq(caps, 0);
    ur_exp_command_buffer_desc_t d = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, true, true,
                                      false};
    ur_exp_command_buffer_handle_t cb = NULL;
    ck_assert_ur(urCommandBufferCreateExp(T.context, T.device, &d, &cb),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
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
    ur_exp_kernel_arg_properties_t args[2] = {{UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                               NULL,
                                               UR_EXP_KERNEL_ARG_TYPE_POINTER,
                                               0,
                                               sizeof(void *),
                                               {.pointer = a}},
                                              {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                               NULL,
                                               UR_EXP_KERNEL_ARG_TYPE_VALUE,
                                               1,
                                               sizeof v,
                                               {.value = &v}}};
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
    ur_event_handle_t ev = NULL;
    ck_assert_ur(urCommandBufferAppendUSMFillExp(cb, a, &v, sizeof v, sizeof v, 0, NULL, 0, NULL,
                                                 NULL, &ev, NULL),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
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

int main(void) {
    Suite *s = suite_create("l0_command_buffer");
    TCase *tc = l0t_tcase("urCommandBuffer");
    tcase_add_test(tc, device_info);
    tcase_add_test(tc, chain_replayed_1000_times);
    tcase_add_test(tc, buffer_runs_back_to_back_and_chained);
    tcase_add_test(tc, buffer_keeps_its_kernels);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return l0t_main(s);
}
