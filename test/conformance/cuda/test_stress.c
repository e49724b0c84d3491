// SPDX-License-Identifier: MIT
// Many threads on one context, program and kernel: device-global copies to their own slot,
// kernel launches of one shared kernel with per-thread arguments, USM copies, retain/release.
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "cudat.h"

#define THREADS 8
#define ROUNDS  200
#define N       1024

static ur_program_handle_t program;
static ur_kernel_handle_t add_one;
static atomic_int failures;

static void note(bool ok) {
    if (!ok)
        atomic_fetch_add(&failures, 1);
}

static void *worker(void *arg) {
    int t = (int)(intptr_t)arg;
    ur_queue_handle_t q = NULL;
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   t % 2 ? UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0};
    note(urQueueCreate(T.context, T.device, &props, &q) == UR_RESULT_SUCCESS);
    int *din = NULL, *dout = NULL, host[N], back[N];
    note(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, sizeof host, (void **)&din) ==
         UR_RESULT_SUCCESS);
    note(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, sizeof host, (void **)&dout) ==
         UR_RESULT_SUCCESS);
    const int n = N;
    for (int r = 0; r < ROUNDS && atomic_load(&failures) == 0; ++r) {
        int value = t * 100000 + r, got = -1;
        ur_event_handle_t w = NULL;
        note(urEnqueueDeviceGlobalVariableWrite(q, program, "dev_array", false, sizeof value,
                                                (size_t)t * sizeof(int), &value, 0, NULL,
                                                &w) == UR_RESULT_SUCCESS);
        note(urEnqueueDeviceGlobalVariableRead(q, program, "dev_array", true, sizeof got,
                                               (size_t)t * sizeof(int), &got, 1, &w,
                                               NULL) == UR_RESULT_SUCCESS);
        note(got == value);
        urEventRelease(w);

        for (int i = 0; i < N; ++i)
            host[i] = value + i;
        ur_event_handle_t in = NULL, k = NULL;
        ur_exp_kernel_arg_properties_t args[3] = {cudat_arg_pointer(0, dout),
                                                  cudat_arg_pointer(1, din),
                                                  cudat_arg_value(2, &n, sizeof n)};
        size_t local = 128;
        note(urEnqueueUSMMemcpy(q, false, din, host, sizeof host, 0, NULL, &in) ==
             UR_RESULT_SUCCESS);
        note(cudat_launch(q, add_one, N, &local, 3, args, 1, &in, &k) == UR_RESULT_SUCCESS);
        note(urEnqueueUSMMemcpy(q, true, back, dout, sizeof back, 1, &k, NULL) ==
             UR_RESULT_SUCCESS);
        for (int i = 0; i < N; i += 97)
            note(back[i] == host[i] + 1);
        urEventRelease(in);
        urEventRelease(k);

        note(urProgramRetain(program) == UR_RESULT_SUCCESS);
        note(urProgramRelease(program) == UR_RESULT_SUCCESS);
    }
    urUSMFree(T.context, din);
    urUSMFree(T.context, dout);
    note(urQueueRelease(q) == UR_RESULT_SUCCESS);
    return NULL;
}

START_TEST(threads_share_program_and_kernel) {
    program = cudat_built_program("globals.ptx", NULL);
    ck_assert_ur_ok(urKernelCreate(program, "add_one", &add_one));
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; ++t)
        ck_assert_int_eq(pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t), 0);
    for (int t = 0; t < THREADS; ++t)
        pthread_join(threads[t], NULL);
    ck_assert_int_eq(atomic_load(&failures), 0);
    ck_assert_ur_ok(urKernelRelease(add_one));
    ck_assert_ur_ok(urProgramRelease(program));
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda stress");
    TCase *tc = cudat_tcase("threads");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, threads_share_program_and_kernel);
    suite_add_tcase(s, tc);
    return cudat_main(s, true);
}
