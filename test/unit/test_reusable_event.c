// SPDX-License-Identifier: MIT
// common/queue/reusable_event and ptrset: descriptor checks, the registry of live reusable events
// (claims never read through a stranger's value, the user's last release ends them), and the
// pointer set under threads. IPC handle data (events' included) are test_ipc_handle.c.
#include <pthread.h>
#include <stdint.h>

#include "core/ptrset.h"
#include "queue/reusable_event.h"
#include "urc_test.h"

static const ur_dditable_t table;

START_TEST(descriptor_checks) {
    ur_exp_event_desc_t d = {UR_STRUCTURE_TYPE_EXP_EVENT_DESC, NULL, 0};
    ck_assert_ur_ok(urc_reusable_check_desc(&d, false));
    d.flags = UR_EXP_EVENT_FLAG_IPC_EXP;
    ck_assert_ur_ok(urc_reusable_check_desc(&d, false));
    d.flags = UR_EXP_EVENT_FLAG_ENABLE_PROFILING;
    ck_assert_ur_ok(urc_reusable_check_desc(&d, true));
    ck_assert_ur(urc_reusable_check_desc(&d, false), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    d.flags |= UR_EXP_EVENT_FLAG_IPC_EXP;
    ck_assert_ur(urc_reusable_check_desc(&d, true), UR_RESULT_ERROR_INVALID_VALUE);
    d.flags = 1u << 5;
    ck_assert_ur(urc_reusable_check_desc(&d, true), UR_RESULT_ERROR_INVALID_ENUMERATION);
    ur_base_desc_t loop = {UR_STRUCTURE_TYPE_EXP_EVENT_DESC, NULL};
    loop.pNext = &loop;
    d.flags = 0;
    d.pNext = &loop;
    ck_assert_ur(urc_reusable_check_desc(&d, true), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(claims_find_only_live_events) {
    urc_object_t obj;
    urc_object_init(&obj, &table, URC_KIND_EVENT);
    urc_reusable_t r;
    size_t before = urc_reusable_live();
    ck_assert_ptr_null(urc_reusable_claim(&obj));
    ck_assert_ur_ok(urc_reusable_start(&r, &obj, 0, (void *)1, (void *)2));
    ck_assert_uint_eq(urc_reusable_live(), before + 1);
    // Garbage and NULL are answered without being read.
    ck_assert_ptr_null(urc_reusable_claim((void *)(uintptr_t)0xdead0000beefull));
    ck_assert_ptr_null(urc_reusable_claim(NULL));
    ck_assert_ptr_eq(urc_reusable_claim(&obj), &obj);
    ck_assert_uint_eq(atomic_load(&obj.holds), 2); // the claim's hold
    ck_assert(!urc_unhold(&obj));
    // Signals: the event's own context and device only.
    ck_assert_ur_ok(urc_reusable_check_signal(&r, (void *)1, (void *)2));
    ck_assert_ur(urc_reusable_check_signal(&r, (void *)3, (void *)2),
                 UR_RESULT_ERROR_INVALID_EVENT);
    ck_assert_ur(urc_reusable_check_signal(&r, (void *)1, (void *)3),
                 UR_RESULT_ERROR_INVALID_EVENT);
    // A held event outlives its user's last release, but is not claimed any more.
    urc_user_retain(&obj);
    ck_assert_int_eq(urc_reusable_user_release(&r), URC_RELEASE_KEPT);
    ck_assert_ptr_eq(urc_reusable_claim(&obj), &obj);
    ck_assert(!urc_unhold(&obj));
    urc_hold(&obj);
    ck_assert_int_eq(urc_reusable_user_release(&r), URC_RELEASE_KEPT);
    ck_assert_ptr_null(urc_reusable_claim(&obj));
    ck_assert_uint_eq(urc_reusable_live(), before);
    ck_assert_int_eq(urc_reusable_user_release(&r), URC_RELEASE_REFUSED);
    ck_assert(urc_unhold(&obj));
    urc_reusable_fini(&r);
}
END_TEST

// Many threads add, claim and remove their own pointers at once.
static urc_ptrset_t shared_set;

static void *churn(void *arg) {
    char *base = arg;
    for (int round = 0; round < 200; ++round) {
        for (int i = 0; i < 16; ++i)
            if (!urc_ptrset_add(&shared_set, base + i))
                return (void *)1;
        for (int i = 0; i < 16; ++i)
            if (!urc_ptrset_claim(&shared_set, base + i, NULL) ||
                !urc_ptrset_remove(&shared_set, base + i) ||
                urc_ptrset_claim(&shared_set, base + i, NULL))
                return (void *)1;
    }
    return NULL;
}

START_TEST(pointer_set_under_threads) {
    static char spaces[4][16];
    pthread_t t[4];
    for (int i = 0; i < 4; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, churn, spaces[i]), 0);
    for (int i = 0; i < 4; ++i) {
        void *failed = NULL;
        pthread_join(t[i], &failed);
        ck_assert_ptr_null(failed);
    }
    ck_assert_uint_eq(urc_ptrset_size(&shared_set), 0);
    ck_assert(!urc_ptrset_remove(&shared_set, spaces[0]));
}
END_TEST

int main(void) {
    Suite *s = suite_create("reusable_event");
    TCase *tc = tcase_create("urc_reusable");
    tcase_add_test(tc, descriptor_checks);
    tcase_add_test(tc, claims_find_only_live_events);
    tcase_add_test(tc, pointer_set_under_threads);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
