// SPDX-License-Identifier: MIT
// Graph capture on the CUDA adapter (stream capture): commands enqueued while capturing are
// recorded, not run; the graph replays them; capture into an existing graph; ids, destruction
// callbacks, dumps, native handles; and UR's results for bad input. GPU and simulated driver.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudat.h"

enum { N = 256 };

static void times_two(void *p) {
    int *host = p;
    for (int i = 0; i < N; ++i)
        host[i] *= 2;
}

static void count_call(void *p) {
    ++*(int *)p;
}

// fill d = 3; d += 4; copy d -> host; host *= 2 (a host task): 14, in every replay, and
// nothing runs during the capture.
START_TEST(capture_and_replay) {
    ur_bool_t b = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_GRAPH_RECORD_AND_REPLAY_SUPPORT_EXP,
                                    sizeof b, &b, NULL));
    ck_assert_int_eq(b, 1);
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(T.program, "add_value", &k));
    int *d = NULL;
    ck_assert_ur_ok(
        urUSMDeviceAlloc(T.context, T.device, NULL, NULL, N * sizeof(int), (void **)&d));
    // Pinned host memory: CUDA captures no copy into pageable memory.
    int *host = NULL;
    ck_assert_ur_ok(urUSMHostAlloc(T.context, NULL, NULL, N * sizeof(int), (void **)&host));
    for (int i = 0; i < N; ++i)
        host[i] = -1;
    bool on = true;
    ck_assert_ur_ok(urQueueIsGraphCaptureEnabledExp(T.queue, &on));
    ck_assert(!on);
    ck_assert_ur_ok(urQueueBeginGraphCaptureExp(T.queue));
    ck_assert_ur_ok(urQueueIsGraphCaptureEnabledExp(T.queue, &on));
    ck_assert(on);
    ur_exp_graph_handle_t during = NULL, g = NULL;
    ck_assert_ur_ok(urQueueGetGraphExp(T.queue, &during));
    int three = 3, four = 4;
    ck_assert_ur_ok(
        urEnqueueUSMFill(T.queue, d, sizeof three, &three, N * sizeof(int), 0, NULL, NULL));
    ur_exp_kernel_arg_properties_t args[2] = {cudat_arg_pointer(0, d),
                                              cudat_arg_value(1, &four, sizeof four)};
    size_t local = 64;
    ck_assert_ur_ok(cudat_launch(T.queue, k, N, &local, 2, args, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, false, host, d, N * sizeof(int), 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueHostTaskExp(T.queue, times_two, host, NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueEndGraphCaptureExp(T.queue, &g));
    ck_assert_ptr_eq(g, during);
    ck_assert_ur_ok(urQueueIsGraphCaptureEnabledExp(T.queue, &on));
    ck_assert(!on);
    ck_assert_int_eq(host[0], -1); // captured, not run
    bool empty = true;
    ck_assert_ur_ok(urGraphIsEmptyExp(g, &empty));
    ck_assert(!empty);
    ur_exp_executable_graph_handle_t exec = NULL;
    ck_assert_ur_ok(urGraphInstantiateGraphExp(g, &exec));
    for (int run = 0; run < 100; ++run) {
        memset(host, 0, N * sizeof(int));
        ur_event_handle_t ev = NULL;
        ck_assert_ur_ok(urEnqueueGraphExp(T.queue, exec, 0, NULL, &ev));
        ck_assert_int_eq(cudat_event_command(ev), UR_COMMAND_ENQUEUE_GRAPH_EXP);
        ck_assert_ur_ok(urEventWait(1, &ev));
        ck_assert_ur_ok(urEventRelease(ev));
        for (int i = 0; i < N; ++i)
            if (host[i] != 14)
                ck_abort_msg("run %d: item %d is %d", run, i, host[i]);
    }
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urGraphGetNativeHandleExp(g, &native));
    ck_assert_uint_ne(native, 0);
    ck_assert_ur_ok(urGraphExecutableGraphGetNativeHandleExp(exec, &native));
    ck_assert_uint_ne(native, 0);
    ck_assert_ur_ok(urGraphExecutableGraphDestroyExp(exec));
    ck_assert_ur_ok(urGraphDestroyExp(g));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urUSMFree(T.context, d));
    ck_assert_ur_ok(urUSMFree(T.context, host));
}
END_TEST

// Capture into a graph made beforehand, twice: the second capture adds after the first.
START_TEST(capture_into_existing_graph) {
    ur_exp_graph_handle_t g = NULL, out = NULL, other = NULL;
    ck_assert_ur_ok(urGraphCreateExp(T.context, &g));
    ck_assert_ur_ok(urGraphCreateExp(T.context, &other));
    uint64_t id1 = 0, id2 = 0;
    ck_assert_ur_ok(urGraphGetIdExp(g, &id1));
    ck_assert_ur_ok(urGraphGetIdExp(other, &id2));
    ck_assert_uint_gt(id2, id1);
    bool empty = false;
    ck_assert_ur_ok(urGraphIsEmptyExp(g, &empty));
    ck_assert(empty);
    static int calls;
    calls = 0;
    for (int i = 0; i < 2; ++i) {
        ck_assert_ur_ok(urQueueBeginCaptureIntoGraphExp(T.queue, g));
        ck_assert_ur(urQueueBeginCaptureIntoGraphExp(T.queue, other),
                     UR_RESULT_ERROR_INVALID_OPERATION);
        ck_assert_ur_ok(urEnqueueHostTaskExp(T.queue, count_call, &calls, NULL, 0, NULL, NULL));
        ck_assert_ur_ok(urQueueEndGraphCaptureExp(T.queue, &out));
        ck_assert_ptr_eq(out, g);
    }
    ck_assert_int_eq(calls, 0);
    ur_exp_executable_graph_handle_t exec = NULL;
    ck_assert_ur_ok(urGraphInstantiateGraphExp(g, &exec));
    ck_assert_ur_ok(urEnqueueGraphExp(T.queue, exec, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_int_eq(calls, 2);
    // A dump names the graph's nodes.
    char dir[1024], path[1100];
    urc_test_temp_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/graph.dot", dir);
    ck_assert_ur_ok(urGraphDumpContentsExp(g, path));
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char text[64] = "";
    ck_assert_uint_gt(fread(text, 1, sizeof text - 1, f), 0);
    fclose(f);
    unlink(path);
    ck_assert_ur_ok(urGraphExecutableGraphDestroyExp(exec));
    static int destroyed;
    destroyed = 0;
    ck_assert_ur_ok(urGraphSetDestructionCallbackExp(g, count_call, &destroyed));
    ck_assert_ur_ok(urGraphSetDestructionCallbackExp(g, count_call, &destroyed));
    ck_assert_ur_ok(urGraphDestroyExp(g));
    ck_assert_int_eq(destroyed, 2);
    ck_assert_ur_ok(urGraphDestroyExp(other));
}
END_TEST

START_TEST(capture_bad_input) {
    ur_exp_graph_handle_t g = NULL;
    ck_assert_ur(urQueueGetGraphExp(T.queue, &g), UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur(urQueueEndGraphCaptureExp(T.queue, &g), UR_RESULT_ERROR_INVALID_OPERATION);
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_handle_t ooo = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &ooo));
    ck_assert_ur(urQueueBeginGraphCaptureExp(ooo), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur_ok(urQueueRelease(ooo));
    ck_assert_ur(
        urEnqueueGraphExp(T.queue, (ur_exp_executable_graph_handle_t)T.queue, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_GRAPH);
    ck_assert_ur(urGraphDestroyExp((ur_exp_graph_handle_t)T.context),
                 UR_RESULT_ERROR_INVALID_GRAPH);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda_graph");
    TCase *tc = cudat_program_tcase("urQueueBeginGraphCaptureExp");
    tcase_add_test(tc, capture_and_replay);
    tcase_add_test(tc, capture_into_existing_graph);
    tcase_add_test(tc, capture_bad_input);
    suite_add_tcase(s, tc);
    return cudat_main(s, true);
}
