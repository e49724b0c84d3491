// SPDX-License-Identifier: MIT
// common/queue/queue_registry: the queues of a device behind urDeviceWaitExp, over fake queues.
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "queue/queue_registry.h"
#include "urc_test.h"

typedef struct fake_queue_t {
    urc_object_t obj; // first: the registry's pointers are the fake queues'
    atomic_bool removed;
    atomic_int finished;
    ur_result_t result; // what finishing it answers
} fake_queue_t;

static atomic_int order[16];
static atomic_int norder;

static ur_result_t fake_finish(urc_object_t *q) {
    fake_queue_t *f = (fake_queue_t *)q;
    atomic_fetch_add(&f->finished, 1);
    // Held while finished: the registry's reference on top of the creator's.
    ck_assert_uint_ge(atomic_load(&q->holds), 2);
    int at = atomic_fetch_add(&norder, 1);
    if (at < 16)
        atomic_store(&order[at], (int)(intptr_t)f->result);
    return f->result;
}

static void fake_release(urc_object_t *q) {
    ck_assert(!urc_unhold(q)); // the test keeps its own reference
}

static const urc_queue_wait_ops_t ops = {fake_finish, fake_release};

static void fake_init(fake_queue_t *f, ur_result_t result) {
    urc_object_init(&f->obj, NULL, URC_KIND_QUEUE);
    atomic_init(&f->removed, false);
    atomic_init(&f->finished, 0);
    f->result = result;
}

START_TEST(waits_for_every_registered_queue_in_order) {
    urc_queue_registry_t reg;
    urc_queue_registry_init(&reg);
    fake_queue_t q[3];
    atomic_init(&norder, 0);
    for (int i = 0; i < 3; ++i) {
        fake_init(&q[i], (ur_result_t)0);
        q[i].result = UR_RESULT_SUCCESS;
        ck_assert_int_eq(urc_queue_registry_add(&reg, &q[i].obj), UR_RESULT_SUCCESS);
    }
    ck_assert_uint_eq(urc_queue_registry_count(&reg), 3);
    ck_assert_int_eq(urc_queue_registry_wait(&reg, &ops), UR_RESULT_SUCCESS);
    for (int i = 0; i < 3; ++i) {
        ck_assert_int_eq(atomic_load(&q[i].finished), 1);
        ck_assert_uint_eq(atomic_load(&q[i].obj.holds), 1); // the registry's hold is gone
    }
    urc_queue_registry_remove(&reg, &q[1].obj);
    urc_queue_registry_remove(&reg, &q[1].obj); // a second removal changes nothing
    ck_assert_uint_eq(urc_queue_registry_count(&reg), 2);
    ck_assert_int_eq(urc_queue_registry_wait(&reg, &ops), UR_RESULT_SUCCESS);
    ck_assert_int_eq(atomic_load(&q[0].finished), 2);
    ck_assert_int_eq(atomic_load(&q[1].finished), 1);
    ck_assert_int_eq(atomic_load(&q[2].finished), 2);
    urc_queue_registry_remove(&reg, &q[0].obj);
    urc_queue_registry_remove(&reg, &q[2].obj);
    ck_assert_int_eq(urc_queue_registry_wait(&reg, &ops), UR_RESULT_SUCCESS); // empty
    urc_queue_registry_fini(&reg);
}
END_TEST

// Every queue is finished even after one fails; the first failure is the answer.
START_TEST(first_failure_is_returned_after_all_finish) {
    urc_queue_registry_t reg;
    urc_queue_registry_init(&reg);
    fake_queue_t q[3];
    atomic_init(&norder, 0);
    fake_init(&q[0], UR_RESULT_SUCCESS);
    fake_init(&q[1], UR_RESULT_ERROR_DEVICE_LOST);
    fake_init(&q[2], UR_RESULT_ERROR_OUT_OF_RESOURCES);
    for (int i = 0; i < 3; ++i)
        ck_assert_int_eq(urc_queue_registry_add(&reg, &q[i].obj), UR_RESULT_SUCCESS);
    ck_assert_int_eq(urc_queue_registry_wait(&reg, &ops), UR_RESULT_ERROR_DEVICE_LOST);
    for (int i = 0; i < 3; ++i)
        ck_assert_int_eq(atomic_load(&q[i].finished), 1);
    ck_assert_int_eq(atomic_load(&order[1]), UR_RESULT_ERROR_DEVICE_LOST);
    for (int i = 0; i < 3; ++i)
        urc_queue_registry_remove(&reg, &q[i].obj);
    urc_queue_registry_fini(&reg);
}
END_TEST

// A queue whose last reference is gone (its destructor about to remove it) is skipped.
START_TEST(queue_being_destroyed_is_skipped) {
    urc_queue_registry_t reg;
    urc_queue_registry_init(&reg);
    fake_queue_t live, dying;
    fake_init(&live, UR_RESULT_SUCCESS);
    fake_init(&dying, UR_RESULT_SUCCESS);
    atomic_store(&dying.obj.holds, 0);
    ck_assert_int_eq(urc_queue_registry_add(&reg, &dying.obj), UR_RESULT_SUCCESS);
    ck_assert_int_eq(urc_queue_registry_add(&reg, &live.obj), UR_RESULT_SUCCESS);
    ck_assert_int_eq(urc_queue_registry_wait(&reg, &ops), UR_RESULT_SUCCESS);
    ck_assert_int_eq(atomic_load(&dying.finished), 0);
    ck_assert_int_eq(atomic_load(&live.finished), 1);
    urc_queue_registry_remove(&reg, &dying.obj);
    urc_queue_registry_remove(&reg, &live.obj);
    urc_queue_registry_fini(&reg);
}
END_TEST

enum { THREADS = 4, ROUNDS = 2000 };

static urc_queue_registry_t shared;
static atomic_bool stop;

static void *churn(void *arg) {
    (void)arg;
    fake_queue_t q;
    for (int i = 0; i < ROUNDS; ++i) {
        fake_init(&q, UR_RESULT_SUCCESS);
        ck_assert_int_eq(urc_queue_registry_add(&shared, &q.obj), UR_RESULT_SUCCESS);
        // The creator's reference goes; whoever drops the last one removes the queue (its
        // destructor). A wait holding it keeps it registered until that wait lets go.
        if (urc_unhold(&q.obj)) {
            urc_queue_registry_remove(&shared, &q.obj);
            atomic_store(&q.removed, true);
        }
        while (!atomic_load(&q.removed))
            sched_yield();
    }
    return NULL;
}

static ur_result_t churn_finish(urc_object_t *q) {
    (void)q;
    return UR_RESULT_SUCCESS;
}

// The waiter drops the last reference of a queue its creator let go meanwhile: it removes it.
static void churn_release(urc_object_t *q) {
    if (urc_unhold(q)) {
        urc_queue_registry_remove(&shared, q);
        atomic_store(&((fake_queue_t *)q)->removed, true);
    }
}

static const urc_queue_wait_ops_t churn_ops = {churn_finish, churn_release};

static void *waiter(void *arg) {
    (void)arg;
    while (!atomic_load(&stop))
        ck_assert_int_eq(urc_queue_registry_wait(&shared, &churn_ops), UR_RESULT_SUCCESS);
    return NULL;
}

// Queues made and destroyed on four threads while another waits for the device over and over.
START_TEST(waits_race_with_queues_coming_and_going) {
    urc_queue_registry_init(&shared);
    atomic_init(&stop, false);
    pthread_t w, t[THREADS];
    ck_assert_int_eq(pthread_create(&w, NULL, waiter, NULL), 0);
    for (int i = 0; i < THREADS; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, churn, NULL), 0);
    for (int i = 0; i < THREADS; ++i)
        pthread_join(t[i], NULL);
    atomic_store(&stop, true);
    pthread_join(w, NULL);
    ck_assert_uint_eq(urc_queue_registry_count(&shared), 0);
    urc_queue_registry_fini(&shared);
}
END_TEST

int main(void) {
    Suite *s = suite_create("queue_registry");
    TCase *tc = tcase_create("urc_queue_registry_wait");
    tcase_add_test(tc, waits_for_every_registered_queue_in_order);
    tcase_add_test(tc, first_failure_is_returned_after_all_finish);
    tcase_add_test(tc, queue_being_destroyed_is_skipped);
    tcase_add_test(tc, waits_race_with_queues_coming_and_going);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
