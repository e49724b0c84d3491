// SPDX-License-Identifier: MIT
// common/object: the user's reference count apart from the adapter's, and when an object goes.
#include <pthread.h>

#include "core/object.h"
#include "urc_test.h"

static const ur_dditable_t table;

static urc_object_t fresh(void) {
    urc_object_t obj;
    urc_object_init(&obj, &table, URC_KIND_EVENT);
    return obj;
}

START_TEST(last_user_release_destroys_an_unheld_object) {
    urc_object_t obj = fresh();
    ck_assert_uint_eq(urc_refcount(&obj), 1);
    ck_assert_int_eq(urc_user_release(&obj), URC_RELEASE_DESTROY);
}
END_TEST

START_TEST(adapter_references_are_not_reported) {
    urc_object_t obj = fresh();
    urc_hold(&obj);
    urc_hold(&obj);
    ck_assert_uint_eq(urc_refcount(&obj), 1);
    urc_user_retain(&obj);
    ck_assert_uint_eq(urc_refcount(&obj), 2);
}
END_TEST

START_TEST(held_object_outlives_the_users_last_release) {
    urc_object_t obj = fresh();
    urc_hold(&obj); // e.g. an event holding its queue
    ck_assert_int_eq(urc_user_release(&obj), URC_RELEASE_KEPT);
    ck_assert_uint_eq(urc_refcount(&obj), 0);
    ck_assert(urc_unhold(&obj)); // the holder's drop destroys it
}
END_TEST

START_TEST(release_past_zero_is_refused) {
    urc_object_t obj = fresh();
    urc_hold(&obj);
    ck_assert_int_eq(urc_user_release(&obj), URC_RELEASE_KEPT);
    // Under one shared count this would have freed the object the holder still uses.
    ck_assert_int_eq(urc_user_release(&obj), URC_RELEASE_REFUSED);
    ck_assert_int_eq(urc_user_release(&obj), URC_RELEASE_REFUSED);
    ck_assert_uint_eq(urc_refcount(&obj), 0);
    ck_assert(urc_unhold(&obj));
}
END_TEST

START_TEST(retain_after_the_users_last_release_revives) {
    urc_object_t obj = fresh();
    urc_hold(&obj);
    ck_assert_int_eq(urc_user_release(&obj), URC_RELEASE_KEPT);
    urc_user_retain(&obj); // a handle handed out again by a query (a kernel's program)
    ck_assert_uint_eq(urc_refcount(&obj), 1);
    ck_assert(!urc_unhold(&obj)); // the user's reference keeps it now
    ck_assert_int_eq(urc_user_release(&obj), URC_RELEASE_DESTROY);
}
END_TEST

START_TEST(user_drop_leaves_the_users_hold_to_the_caller) {
    urc_object_t obj = fresh();
    urc_user_retain(&obj);
    ck_assert_int_eq(urc_user_drop(&obj), URC_RELEASE_KEPT);
    ck_assert_int_eq(urc_user_drop(&obj), URC_RELEASE_LAST_USER);
    ck_assert_int_eq(urc_user_drop(&obj), URC_RELEASE_REFUSED);
    ck_assert(urc_unhold(&obj));
}
END_TEST

START_TEST(user_to_hold_keeps_the_object_for_the_adapter) {
    urc_object_t obj = fresh();
    urc_user_to_hold(&obj);
    ck_assert_uint_eq(urc_refcount(&obj), 0);
    ck_assert_int_eq(urc_user_release(&obj), URC_RELEASE_REFUSED);
    ck_assert(urc_unhold(&obj));
}
END_TEST

START_TEST(kind_checks_tell_kind_and_adapter_apart) {
    static const ur_dditable_t other;
    urc_object_t obj = fresh();
    ck_assert(urc_is_own(&obj, URC_KIND_EVENT, &table));
    ck_assert(!urc_is_own(&obj, URC_KIND_QUEUE, &table));
    ck_assert(!urc_is_own(&obj, URC_KIND_EVENT, &other));
    ck_assert(urc_is_own(NULL, URC_KIND_EVENT, &table)); // NULL is the argument checks' call
    ck_assert(urc_is_kind_or_null(&obj, URC_KIND_EVENT));
    ck_assert(!urc_is_kind_or_null(&obj, URC_KIND_MEM));
}
END_TEST

// ---- many threads on one object ----

enum { THREADS = 8, ROUNDS = 20000 };

typedef struct storm_t {
    urc_object_t obj;
    atomic_int destroyed;
    atomic_int refused;
} storm_t;

static void storm_release(storm_t *s) {
    switch (urc_user_release(&s->obj)) {
    case URC_RELEASE_DESTROY:
        atomic_fetch_add(&s->destroyed, 1);
        break;
    case URC_RELEASE_REFUSED:
        atomic_fetch_add(&s->refused, 1);
        break;
    default:
        break;
    }
}

static void *retain_release_storm(void *arg) {
    storm_t *s = arg;
    for (int i = 0; i < ROUNDS; ++i) {
        urc_user_retain(&s->obj);
        urc_hold(&s->obj);
        storm_release(s);
        if (urc_unhold(&s->obj))
            atomic_fetch_add(&s->destroyed, 1);
    }
    return NULL;
}

START_TEST(retain_release_storm_keeps_the_counts) {
    storm_t s = {.destroyed = 0, .refused = 0};
    urc_object_init(&s.obj, &table, URC_KIND_QUEUE);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, retain_release_storm, &s), 0);
    for (int i = 0; i < THREADS; ++i)
        pthread_join(t[i], NULL);
    ck_assert_uint_eq(urc_refcount(&s.obj), 1);
    ck_assert_int_eq(atomic_load(&s.destroyed), 0);
    ck_assert_int_eq(atomic_load(&s.refused), 0);
    storm_release(&s);
    ck_assert_int_eq(atomic_load(&s.destroyed), 1);
}
END_TEST

// Every thread over-releases: exactly the references that exist are taken, the rest refused,
// and the object is destroyed once, by whichever drop came last.
static void *over_release(void *arg) {
    storm_t *s = arg;
    for (int i = 0; i < ROUNDS; ++i)
        storm_release(s);
    return NULL;
}

START_TEST(over_release_storm_destroys_once) {
    storm_t s = {.destroyed = 0, .refused = 0};
    urc_object_init(&s.obj, &table, URC_KIND_QUEUE);
    for (int i = 1; i < ROUNDS; ++i)
        urc_user_retain(&s.obj);
    urc_hold(&s.obj); // an adapter holder outlives the storm
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, over_release, &s), 0);
    for (int i = 0; i < THREADS; ++i)
        pthread_join(t[i], NULL);
    ck_assert_int_eq(atomic_load(&s.refused), THREADS * ROUNDS - ROUNDS);
    ck_assert_int_eq(atomic_load(&s.destroyed), 0);
    ck_assert(urc_unhold(&s.obj));
}
END_TEST

int main(void) {
    Suite *s = suite_create("object");
    TCase *tc = tcase_create("urc_user_release");
    tcase_add_test(tc, last_user_release_destroys_an_unheld_object);
    tcase_add_test(tc, adapter_references_are_not_reported);
    tcase_add_test(tc, held_object_outlives_the_users_last_release);
    tcase_add_test(tc, release_past_zero_is_refused);
    tcase_add_test(tc, retain_after_the_users_last_release_revives);
    tcase_add_test(tc, user_drop_leaves_the_users_hold_to_the_caller);
    tcase_add_test(tc, user_to_hold_keeps_the_object_for_the_adapter);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_is_own");
    tcase_add_test(tc, kind_checks_tell_kind_and_adapter_apart);
    suite_add_tcase(s, tc);
    tc = tcase_create("threads");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, retain_release_storm_keeps_the_counts);
    tcase_add_test(tc, over_release_storm_destroys_once);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
