// SPDX-License-Identifier: MIT
// Many threads on one context: shared in-order and out-of-order queues, one kernel launched
// from every thread, device-global copies through one program, events made and dropped in
// every order. Results are checked, every launch must be recorded, and the fixture's leak check
// then proves that every event, list and pool went back.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "l0t.h"

enum { THREADS = 8, ITERATIONS = 150 };

typedef struct shared_t {
    ur_queue_handle_t ooo;
    ur_program_handle_t globals;  // device_globals.spv
    ur_program_handle_t launches; // globals.spv
    ur_kernel_handle_t fill;
    void *dst;
    _Atomic int failures;
} shared_t;

typedef struct worker_t {
    shared_t *s;
    int id;
} worker_t;

#define CHECK(expr)                                                                                \
    do {                                                                                           \
        if ((expr) != UR_RESULT_SUCCESS)                                                           \
            ++w->s->failures;                                                                      \
    } while (0)

static void *work(void *arg) {
    worker_t *w = arg;
    shared_t *s = w->s;
    int *buf = NULL;
    CHECK(urUSMHostAlloc(T.context, NULL, NULL, 2 * ITERATIONS * sizeof(int), (void **)&buf));
    if (buf == NULL)
        return NULL;
    for (int i = 0; i < ITERATIONS; ++i) {
        buf[i] = w->id * 1000 + i;
        ur_queue_handle_t q = (i & 1) ? T.queue : s->ooo;
        ur_event_handle_t e = NULL;
        CHECK(
            urEnqueueUSMMemcpy(q, false, &buf[ITERATIONS + i], &buf[i], sizeof(int), 0, NULL, &e));
        // Every third event is waited for, the rest dropped unwaited (the queue keeps them).
        if (e != NULL && i % 3 == 0)
            CHECK(urEventWait(1, &e));
        if (e != NULL)
            CHECK(urEventRelease(e));

        // One kernel, many threads: arguments and group size are set under its lock.
        uint32_t n = (uint32_t)(w->id * ITERATIONS + i);
        ur_exp_kernel_arg_properties_t args[3] = {urc_test_arg_pointer(0, s->dst),
                                                  urc_test_arg_value(1, &n, sizeof n),
                                                  {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                                   NULL,
                                                   UR_EXP_KERNEL_ARG_TYPE_LOCAL,
                                                   2,
                                                   16,
                                                   {NULL}}};
        size_t global = 32, local = (i % 2) ? 8 : 16;
        CHECK(urEnqueueKernelLaunchWithArgsExp(q, s->fill, 1, NULL, &global, &local, 3, args, NULL,
                                               0, NULL, NULL));

        // Device globals: each thread its own slot of the array, through the shared cache.
        int v = w->id * 100 + i, got = -1;
        size_t offset = (size_t)(w->id % 4) * sizeof(int);
        if (w->id < 4) {
            CHECK(urEnqueueDeviceGlobalVariableWrite(q, s->globals, "uid_dev_arr", true, sizeof v,
                                                     offset, &v, 0, NULL, NULL));
            CHECK(urEnqueueDeviceGlobalVariableRead(q, s->globals, "uid_dev_arr", true, sizeof got,
                                                    offset, &got, 0, NULL, NULL));
            if (got != v)
                ++s->failures;
        } else {
            void *ptr = NULL;
            CHECK(
                urProgramGetGlobalVariablePointer(T.device, s->globals, "uid_dev_var", NULL, &ptr));
        }
    }
    CHECK(urQueueFinish(T.queue));
    CHECK(urQueueFinish(s->ooo));
    for (int i = 0; i < ITERATIONS; ++i)
        if (buf[ITERATIONS + i] != w->id * 1000 + i)
            ++s->failures;
    CHECK(urUSMFree(T.context, buf));
    return NULL;
}

START_TEST(threads_share_queues_kernels_and_programs) {
    shared_t s;
    memset(&s, 0, sizeof s);
    s.ooo = l0t_queue(UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    s.globals = l0t_built("device_globals.spv");
    s.launches = l0t_built("globals.spv");
    ck_assert_ur_ok(urKernelCreate(s.launches, "sim_fill", &s.fill));
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 64, &s.dst));
    uint64_t before = T.sim.GetLaunchCount();
    pthread_t threads[THREADS];
    worker_t workers[THREADS];
    for (int i = 0; i < THREADS; ++i) {
        workers[i] = (worker_t){&s, i};
        ck_assert_int_eq(pthread_create(&threads[i], NULL, work, &workers[i]), 0);
    }
    for (int i = 0; i < THREADS; ++i)
        pthread_join(threads[i], NULL);
    ck_assert_int_eq(s.failures, 0);
    ck_assert_uint_eq(T.sim.GetLaunchCount() - before, THREADS * ITERATIONS);
    ck_assert_ur_ok(urKernelRelease(s.fill));
    ck_assert_ur_ok(urProgramRelease(s.launches));
    ck_assert_ur_ok(urProgramRelease(s.globals));
    ck_assert_ur_ok(urQueueRelease(s.ooo));
    ck_assert_ur_ok(urUSMFree(T.context, s.dst));
}
END_TEST

// Programs and kernels made and dropped concurrently, and queues released while their last
// events are still held by other threads.
static void *churn(void *arg) {
    worker_t *w = arg;
    for (int i = 0; i < 20; ++i) {
        ur_program_handle_t p = NULL;
        size_t size = 0;
        void *spv = l0t_read("globals.spv", &size);
        CHECK(urProgramCreateWithIL(T.context, spv, size, NULL, &p));
        free(spv);
        if (p == NULL)
            continue;
        CHECK(urProgramBuild(T.context, p, NULL));
        ur_kernel_handle_t k = NULL;
        CHECK(urKernelCreate(p, "sim_reqd", &k));
        ur_queue_handle_t q = NULL;
        CHECK(urQueueCreate(T.context, T.device, NULL, &q));
        size_t global[2] = {16, 8};
        ur_event_handle_t e = NULL;
        if (k != NULL && q != NULL)
            CHECK(urEnqueueKernelLaunchWithArgsExp(q, k, 2, NULL, global, NULL, 0, NULL, NULL, 0,
                                                   NULL, &e));
        if (q != NULL)
            CHECK(urQueueRelease(q));
        if (e != NULL) {
            CHECK(urEventWait(1, &e));
            CHECK(urEventRelease(e));
        }
        if (k != NULL)
            CHECK(urKernelRelease(k));
        CHECK(urProgramRelease(p));
    }
    return NULL;
}

START_TEST(threads_make_and_drop_objects) {
    shared_t s;
    memset(&s, 0, sizeof s);
    pthread_t threads[THREADS];
    worker_t workers[THREADS];
    for (int i = 0; i < THREADS; ++i) {
        workers[i] = (worker_t){&s, i};
        ck_assert_int_eq(pthread_create(&threads[i], NULL, churn, &workers[i]), 0);
    }
    for (int i = 0; i < THREADS; ++i)
        pthread_join(threads[i], NULL);
    ck_assert_int_eq(s.failures, 0);
}
END_TEST

int main(void) {
    Suite *s = suite_create("level_zero_stress");
    TCase *tc = l0t_tcase("Threads");
    tcase_add_test(tc, threads_share_queues_kernels_and_programs);
    tcase_add_test(tc, threads_make_and_drop_objects);
    tcase_set_timeout(tc, 240);
    suite_add_tcase(s, tc);
    return l0t_main(s);
}
