// SPDX-License-Identifier: MIT
// Many threads on the same queue, context, kernel and program: enqueueing, launching with
// their own arguments, retaining and releasing shared handles, making and dropping events.
// Afterwards every result and every reference count must be exactly as if run serially.
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "oclt.h"

#define THREADS 8
#define ROUNDS  200
#define N       32

static ur_program_handle_t program;
static ur_kernel_handle_t kernel;
static ur_program_handle_t globals; // device_globals, where supported
static ur_event_handle_t shared_event;

typedef struct worker_t {
    int id;
    ur_mem_handle_t buffer;
    ur_result_t failure;
} worker_t;

#define STEP(expr)                                                                                 \
    do {                                                                                           \
        ur_result_t step_ = (expr);                                                                \
        if (step_ != UR_RESULT_SUCCESS && w->failure == UR_RESULT_SUCCESS)                         \
            w->failure = step_;                                                                    \
    } while (0)

static void *work(void *arg) {
    worker_t *w = arg;
    int zero[N] = {0};
    STEP(urEnqueueMemBufferWrite(T.queue, w->buffer, true, 0, sizeof zero, zero, 0, NULL, NULL));
    ur_exp_kernel_arg_properties_t karg = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                           NULL,
                                           UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ,
                                           0,
                                           sizeof w->buffer,
                                           {.memObjTuple = {w->buffer, UR_MEM_FLAG_READ_WRITE}}};
    size_t global = N;
    for (int r = 0; r < ROUNDS; ++r) {
        // Shared handles: retain and release from every thread at once.
        STEP(urQueueRetain(T.queue));
        STEP(urContextRetain(T.context));
        STEP(urEventRetain(shared_event));
        STEP(urKernelRetain(kernel));
        // The same kernel with this thread's argument: a launch must never see another's.
        ur_event_handle_t launched = NULL, marker = NULL;
        STEP(urEnqueueKernelLaunchWithArgsExp(T.queue, kernel, 1, NULL, &global, NULL, 1, &karg,
                                              NULL, 1, &shared_event, &launched));
        STEP(urEnqueueEventsWait(T.queue, 1, &launched, &marker));
        if (globals != NULL && r % 10 == 0) {
            int v = w->id, back = -1;
            char name[] = "uid_dev_arr";
            STEP(urEnqueueDeviceGlobalVariableRead(T.queue, globals, name, false, sizeof back,
                                                   (size_t)(w->id % 4) * sizeof(int), &back, 1,
                                                   &marker, NULL));
            STEP(urEnqueueDeviceGlobalVariableWrite(T.queue, globals, "uid_dev_var", true, sizeof v,
                                                    0, &v, 0, NULL, NULL));
        }
        if (launched != NULL)
            STEP(urEventRelease(launched));
        if (marker != NULL)
            STEP(urEventRelease(marker));
        STEP(urKernelRelease(kernel));
        STEP(urEventRelease(shared_event));
        STEP(urContextRelease(T.context));
        STEP(urQueueRelease(T.queue));
    }
    return NULL;
}

static uint32_t count(ur_result_t (*get)(void *, uint32_t, size_t, void *, size_t *), void *h,
                      uint32_t what) {
    uint32_t n = 0;
    ck_assert_ur_ok(get(h, what, sizeof n, &n, NULL));
    return n;
}

#define REFS(fn, h, what)                                                                          \
    count((ur_result_t(*)(void *, uint32_t, size_t, void *, size_t *))fn, h, what)

START_TEST(threads_share_queue_kernel_and_events) {
    program = oclt_built_program("add_one");
    ck_assert_ur_ok(urKernelCreate(program, "add_one", &kernel));
    globals = T.globals ? oclt_built_program("device_globals") : NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 0, NULL, &shared_event));

    uint32_t queue_refs = REFS(urQueueGetInfo, T.queue, UR_QUEUE_INFO_REFERENCE_COUNT);
    uint32_t context_refs = REFS(urContextGetInfo, T.context, UR_CONTEXT_INFO_REFERENCE_COUNT);
    uint32_t kernel_refs = REFS(urKernelGetInfo, kernel, UR_KERNEL_INFO_REFERENCE_COUNT);

    worker_t workers[THREADS];
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; ++i) {
        workers[i] = (worker_t){i, NULL, UR_RESULT_SUCCESS};
        ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, N * sizeof(int), NULL,
                                          &workers[i].buffer));
    }
    for (int i = 0; i < THREADS; ++i)
        ck_assert_int_eq(pthread_create(&threads[i], NULL, work, &workers[i]), 0);
    for (int i = 0; i < THREADS; ++i)
        pthread_join(threads[i], NULL);
    ck_assert_ur_ok(urQueueFinish(T.queue));

    for (int i = 0; i < THREADS; ++i) {
        ck_assert_msg(workers[i].failure == UR_RESULT_SUCCESS, "thread %d: %s", i,
                      urc_test_result_name(workers[i].failure));
        int out[N];
        ck_assert_ur_ok(urEnqueueMemBufferRead(T.queue, workers[i].buffer, true, 0, sizeof out, out,
                                               0, NULL, NULL));
        for (int j = 0; j < N; ++j)
            ck_assert_int_eq(out[j], ROUNDS);
        ck_assert_ur_ok(urMemRelease(workers[i].buffer));
    }
    ck_assert_uint_eq(REFS(urQueueGetInfo, T.queue, UR_QUEUE_INFO_REFERENCE_COUNT), queue_refs);
    ck_assert_uint_eq(REFS(urContextGetInfo, T.context, UR_CONTEXT_INFO_REFERENCE_COUNT),
                      context_refs);
    ck_assert_uint_eq(REFS(urKernelGetInfo, kernel, UR_KERNEL_INFO_REFERENCE_COUNT), kernel_refs);
    ck_assert_uint_eq(REFS(urEventGetInfo, shared_event, UR_EVENT_INFO_REFERENCE_COUNT), 1);
    ck_assert_ur_ok(urEventRelease(shared_event));
    ck_assert_ur_ok(urKernelRelease(kernel));
    ck_assert_ur_ok(urProgramRelease(program));
    if (globals != NULL)
        ck_assert_ur_ok(urProgramRelease(globals));
}
END_TEST

static void *create_destroy(void *arg) {
    worker_t *w = arg;
    for (int r = 0; r < ROUNDS; ++r) {
        ur_queue_handle_t q = NULL;
        ur_mem_handle_t m = NULL;
        ur_event_handle_t e = NULL;
        STEP(urQueueCreate(T.context, T.device, NULL, &q));
        STEP(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 64, NULL, &m));
        if (q != NULL && m != NULL) {
            uint32_t pattern = (uint32_t)r;
            STEP(urEnqueueMemBufferFill(q, m, &pattern, 4, 0, 64, 0, NULL, &e));
            if (e != NULL)
                STEP(urEventWait(1, &e));
        }
        if (e != NULL)
            STEP(urEventRelease(e));
        if (m != NULL)
            STEP(urMemRelease(m));
        if (q != NULL)
            STEP(urQueueRelease(q));
    }
    return NULL;
}

START_TEST(threads_create_and_destroy_objects) {
    uint32_t context_refs = REFS(urContextGetInfo, T.context, UR_CONTEXT_INFO_REFERENCE_COUNT);
    worker_t workers[THREADS];
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; ++i) {
        workers[i] = (worker_t){i, NULL, UR_RESULT_SUCCESS};
        ck_assert_int_eq(pthread_create(&threads[i], NULL, create_destroy, &workers[i]), 0);
    }
    for (int i = 0; i < THREADS; ++i)
        pthread_join(threads[i], NULL);
    for (int i = 0; i < THREADS; ++i)
        ck_assert_msg(workers[i].failure == UR_RESULT_SUCCESS, "thread %d: %s", i,
                      urc_test_result_name(workers[i].failure));
    ck_assert_uint_eq(REFS(urContextGetInfo, T.context, UR_CONTEXT_INFO_REFERENCE_COUNT),
                      context_refs);
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl stress");
    TCase *tc = oclt_tcase("threads");
    tcase_set_timeout(tc, 280);
    tcase_add_test(tc, threads_share_queue_kernel_and_events);
    tcase_add_test(tc, threads_create_and_destroy_objects);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
