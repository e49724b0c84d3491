// SPDX-License-Identifier: MIT
// common/core/quarantine: released objects parked per kind, the oldest freed first, the window
// each kind keeps, the released table's answers, draining; parks from many threads at once.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/quarantine.h"
#include "urc_test.h"

#if defined(__SANITIZE_ADDRESS__)
#define ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN 1
#endif
#endif
#ifdef ASAN
#include <sanitizer/asan_interface.h>
#endif

static const ur_dditable_t live_table;

static urc_object_t *object(urc_kind_t kind, size_t size) {
    urc_object_t *obj = calloc(1, size);
    ck_assert_ptr_nonnull(obj);
    urc_object_init(obj, &live_table, kind);
    return obj;
}

START_TEST(window_follows_the_object_size) {
    ck_assert_uint_eq(urc_quarantine_window(URC_KIND_QUEUE - URC_KIND_ADAPTER, 256),
                      URC_QUARANTINE_MAX_OBJECTS);
    ck_assert_uint_eq(urc_quarantine_window(URC_KIND_EVENT - URC_KIND_ADAPTER, 4096),
                      URC_QUARANTINE_MAX_BYTES / 4096);
    ck_assert_uint_eq(urc_quarantine_window(URC_KIND_MEM - URC_KIND_ADAPTER, 8 << 20), 16);
    // Fixed by the first object of the kind.
    ck_assert_uint_eq(urc_quarantine_window(URC_KIND_EVENT - URC_KIND_ADAPTER, 64),
                      URC_QUARANTINE_MAX_BYTES / 4096);
}
END_TEST

START_TEST(released_object_answers_and_fails_the_own_check) {
    urc_object_t *q = object(URC_KIND_QUEUE, 128);
    ck_assert(urc_is_own(q, URC_KIND_QUEUE, &live_table));
    urc_object_free(q, 128);
    ck_assert(urc_quarantine_holds(q));
    ck_assert_ptr_eq(q->ddi, &urc_released_ddi);
    ck_assert(!urc_is_own(q, URC_KIND_QUEUE, &live_table));
    // Every slot answers its routing handle's error.
    ck_assert_int_eq(q->ddi->Queue.pfnRelease((ur_queue_handle_t)q), UR_RESULT_ERROR_INVALID_QUEUE);
    ck_assert_int_eq(q->ddi->Enqueue.pfnEventsWait((ur_queue_handle_t)q, 0, NULL, NULL),
                     UR_RESULT_ERROR_INVALID_QUEUE);
    ck_assert_int_eq(q->ddi->Context.pfnRetain((ur_context_handle_t)q),
                     UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_int_eq(q->ddi->USM.pfnPoolRelease((ur_usm_pool_handle_t)q),
                     UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    const char *msg = NULL;
    urc_error_get(&msg, NULL);
    ck_assert_ptr_nonnull(strstr(msg, "urUSMPoolRelease"));
    urc_quarantine_drain();
    ck_assert(!urc_quarantine_holds(q));
}
END_TEST

START_TEST(asan_sees_the_body_poisoned_and_the_header_readable) {
#ifdef ASAN
    urc_object_t *m = object(URC_KIND_MEM, 200);
    urc_object_free(m, 200);
    ck_assert(!__asan_address_is_poisoned(m));
    ck_assert(!__asan_address_is_poisoned((char *)m + sizeof *m - 1));
    ck_assert(__asan_address_is_poisoned((char *)m + sizeof *m));
    ck_assert(__asan_address_is_poisoned((char *)m + 199));
    urc_quarantine_drain(); // unpoisoned, then freed: ASan's own free poisoning takes over
#endif
}
END_TEST

START_TEST(the_window_plus_one_recycles_the_oldest) {
    const size_t size = 2048; // a window of 2048 objects
    const unsigned cls = URC_KIND_SAMPLER - URC_KIND_ADAPTER;
    size_t window = urc_quarantine_window(cls, size);
    ck_assert_uint_eq(window, URC_QUARANTINE_MAX_BYTES / size);
    urc_object_t **objs = calloc(window + 2, sizeof *objs);
    for (size_t i = 0; i < window; ++i) {
        objs[i] = object(URC_KIND_SAMPLER, size);
        urc_object_free(objs[i], size);
    }
    ck_assert(urc_quarantine_holds(objs[0]));
    ck_assert(urc_quarantine_holds(objs[window - 1]));
    objs[window] = object(URC_KIND_SAMPLER, size);
    urc_object_free(objs[window], size);
    ck_assert(!urc_quarantine_holds(objs[0])); // the oldest went
    ck_assert(urc_quarantine_holds(objs[1]));
    ck_assert(urc_quarantine_holds(objs[window]));
    objs[window + 1] = object(URC_KIND_SAMPLER, size);
    urc_object_free(objs[window + 1], size);
    ck_assert(!urc_quarantine_holds(objs[1]));
    ck_assert(urc_quarantine_holds(objs[2]));
    // Other kinds keep their own windows.
    urc_object_t *k = object(URC_KIND_KERNEL, size);
    urc_object_free(k, size);
    ck_assert(urc_quarantine_holds(objs[2]));
    urc_quarantine_drain();
    ck_assert(!urc_quarantine_holds(objs[window + 1]));
    ck_assert(!urc_quarantine_holds(k));
    free(objs);
}
END_TEST

START_TEST(memory_that_is_not_an_object) {
    struct {
        unsigned long magic;
        char body[56];
    } *cfg = malloc(64);
    cfg->magic = 0;
    urc_quarantine_park(URC_QUARANTINE_OTHER, cfg, sizeof *cfg, sizeof cfg->magic);
    ck_assert(urc_quarantine_holds(cfg));
    ck_assert_uint_eq(cfg->magic, 0);    // stays readable
    urc_quarantine_park(99, NULL, 0, 0); // nothing, and no class 99
    urc_quarantine_drain();
    ck_assert(!urc_quarantine_holds(cfg));
}
END_TEST

enum { THREADS = 8, PER_THREAD = 20000 };

static void *parker(void *arg) {
    (void)arg;
    for (int i = 0; i < PER_THREAD; ++i)
        urc_object_free(object(URC_KIND_EVENT, 96), 96);
    return NULL;
}

START_TEST(parks_from_many_threads) {
    // Every block is freed once: by a later park or the drain (ASan and LSan tell otherwise).
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, parker, NULL), 0);
    for (int i = 0; i < THREADS; ++i)
        pthread_join(t[i], NULL);
    urc_quarantine_drain();
}
END_TEST

int main(void) {
    Suite *s = suite_create("quarantine");
    TCase *tc = urc_test_tcase("quarantine", NULL, NULL);
    tcase_add_test(tc, window_follows_the_object_size);
    tcase_add_test(tc, released_object_answers_and_fails_the_own_check);
    tcase_add_test(tc, asan_sees_the_body_poisoned_and_the_header_readable);
    tcase_add_test(tc, the_window_plus_one_recycles_the_oldest);
    tcase_add_test(tc, memory_that_is_not_an_object);
    tcase_add_test(tc, parks_from_many_threads);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
