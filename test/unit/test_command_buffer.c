// SPDX-License-Identifier: MIT
// common/queue/command_buffer: the state machine, sync points, kernel snapshots and update rules,
// over fake kernel and context handles (the module compares them, never dereferences them).
#include <pthread.h>

#include "queue/command_buffer.h"
#include "urc_test.h"

static const int ctx_a = 0, ctx_b = 0;
static int kernel_1, kernel_2, kernel_3;
#define CTX_A ((const void *)&ctx_a)
#define CTX_B ((const void *)&ctx_b)
#define K1    ((ur_kernel_handle_t)&kernel_1)
#define K2    ((ur_kernel_handle_t)&kernel_2)
#define K3    ((ur_kernel_handle_t)&kernel_3)

static const urc_cb_caps_t all_caps = {true, true, 0x3f};

static void init(urc_cb_t *cb, bool updatable, const urc_cb_caps_t *caps) {
    ur_exp_command_buffer_desc_t d = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, updatable,
                                      true, false};
    ck_assert_int_eq(urc_cb_check_create(&d, caps), UR_RESULT_SUCCESS);
    ck_assert_int_eq(urc_cb_init(cb, &d, caps, CTX_A), UR_RESULT_SUCCESS);
}

/// Appends one command with backend token `token`; returns the append's result.
static ur_result_t append(urc_cb_t *cb, uint32_t n, const ur_exp_command_buffer_sync_point_t *w,
                          uint64_t token, ur_exp_command_buffer_sync_point_t *out) {
    ur_result_t r = urc_cb_append_begin(cb, n, w, false, false);
    if (r != UR_RESULT_SUCCESS)
        return r;
    return urc_cb_append_end(cb, UR_RESULT_SUCCESS, token, NULL, out);
}

START_TEST(create_checks) {
    ur_exp_command_buffer_desc_t d = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, true, true,
                                      false};
    urc_cb_caps_t none = {false, false, 0}, no_update = {true, false, 0};
    ck_assert_int_eq(urc_cb_check_create(&d, &none), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_int_eq(urc_cb_check_create(&d, &no_update), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    d.isUpdatable = false;
    ck_assert_int_eq(urc_cb_check_create(&d, &no_update), UR_RESULT_SUCCESS);
    d.stype = UR_STRUCTURE_TYPE_QUEUE_PROPERTIES;
    ck_assert_int_eq(urc_cb_check_create(&d, &all_caps), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(sync_points_are_numbered_and_resolved) {
    urc_cb_t cb;
    init(&cb, false, &all_caps);
    ur_exp_command_buffer_sync_point_t sp = 99;
    for (uint32_t i = 0; i < 100; ++i) {
        ck_assert_int_eq(append(&cb, 0, NULL, 1000 + i, &sp), UR_RESULT_SUCCESS);
        ck_assert_uint_eq(sp, i);
    }
    ur_exp_command_buffer_sync_point_t w[2] = {3, 99};
    ck_assert_int_eq(urc_cb_append_begin(&cb, 2, w, false, false), UR_RESULT_SUCCESS);
    ck_assert_uint_eq(urc_cb_native_sync(&cb, w[0]), 1003);
    ck_assert_uint_eq(urc_cb_native_sync(&cb, w[1]), 1099);
    // A failed native step issues no sync point.
    ck_assert_int_eq(urc_cb_append_end(&cb, UR_RESULT_ERROR_OUT_OF_RESOURCES, 0, NULL, &sp),
                     UR_RESULT_ERROR_OUT_OF_RESOURCES);
    ck_assert_uint_eq(cb.num_sync_points, 100);
    w[1] = 100; // not issued yet
    ck_assert_int_eq(urc_cb_append_begin(&cb, 2, w, false, false),
                     UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_SYNC_POINT_EXP);
    urc_cb_fini(&cb);
}
END_TEST

START_TEST(state_machine) {
    urc_cb_t cb;
    init(&cb, false, &all_caps);
    ck_assert_int_eq(urc_cb_check_enqueue(&cb, true), UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_int_eq(urc_cb_finalize_begin(&cb), UR_RESULT_SUCCESS);
    ck_assert_int_eq(urc_cb_finalize_end(&cb, UR_RESULT_ERROR_OUT_OF_RESOURCES),
                     UR_RESULT_ERROR_OUT_OF_RESOURCES);
    ck_assert(!urc_cb_is_finalized(&cb)); // a failed native finalize keeps it recording
    ck_assert_int_eq(urc_cb_finalize_begin(&cb), UR_RESULT_SUCCESS);
    ck_assert_int_eq(urc_cb_finalize_end(&cb, UR_RESULT_SUCCESS), UR_RESULT_SUCCESS);
    ck_assert_int_eq(urc_cb_finalize_begin(&cb), UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_int_eq(append(&cb, 0, NULL, 0, NULL), UR_RESULT_ERROR_INVALID_OPERATION);
    // A queue of another context or device is refused before the run is counted.
    ck_assert_int_eq(urc_cb_check_enqueue(&cb, false), UR_RESULT_ERROR_INVALID_QUEUE);
    for (int i = 0; i < 3; ++i)
        ck_assert_int_eq(urc_cb_check_enqueue(&cb, true), UR_RESULT_SUCCESS);
    ck_assert_uint_eq(cb.enqueues, 3);
    urc_cb_fini(&cb);
}
END_TEST

START_TEST(append_rules) {
    urc_cb_t cb;
    urc_cb_caps_t no_events = {true, false, 1};
    init(&cb, false, &no_events);
    ck_assert_int_eq(urc_cb_append_begin(&cb, 0, NULL, true, false),
                     UR_RESULT_ERROR_INVALID_OPERATION); // handle of a non-updatable buffer
    ck_assert_int_eq(urc_cb_append_begin(&cb, 0, NULL, false, true),
                     UR_RESULT_ERROR_UNSUPPORTED_FEATURE); // events without event support
    urc_cb_fini(&cb);
}
END_TEST

START_TEST(kernel_record_rules) {
    urc_cb_t cb;
    init(&cb, true, &all_caps);
    urc_cb_command_t c;
    size_t g[3] = {8, 4, 2}, l0[3] = {1, 0, 1};
    const void *alts[2] = {K2, K1};
    const void *ctx_ok[3] = {CTX_A, CTX_A, CTX_A}, *ctx_bad[3] = {CTX_A, CTX_B, CTX_A};
    ck_assert_int_eq(urc_cb_kernel_record(&c, &cb, K1, 0, NULL, g, NULL, 0, NULL, NULL),
                     UR_RESULT_ERROR_INVALID_WORK_DIMENSION);
    ck_assert_int_eq(urc_cb_kernel_record(&c, &cb, K1, 2, NULL, g, l0, 0, NULL, NULL),
                     UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
    ck_assert_int_eq(urc_cb_kernel_record(&c, &cb, K1, 1, NULL, g, NULL, 2, alts, NULL),
                     UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_int_eq(urc_cb_kernel_record(&c, &cb, K1, 1, NULL, g, NULL, 1, alts, ctx_bad),
                     UR_RESULT_ERROR_INVALID_KERNEL);
    ck_assert_int_eq(urc_cb_kernel_record(&c, &cb, K1, 2, NULL, g, NULL, 1, alts, ctx_ok),
                     UR_RESULT_SUCCESS);
    ck_assert_uint_eq(c.k.num_alternatives, 2);
    ck_assert_ptr_eq(c.k.alternatives[0], K1);
    ck_assert_uint_eq(c.k.global[1], 4);
    ck_assert_uint_eq(c.k.global[2], 1); // unused dimensions are 1
    ck_assert(!c.k.has_local);
    urc_cb_command_fini(&c);
    urc_cb_fini(&cb);
}
END_TEST

static ur_exp_command_buffer_update_kernel_launch_desc_t desc(const urc_cb_command_t *c) {
    ur_exp_command_buffer_update_kernel_launch_desc_t u = {
        UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_KERNEL_LAUNCH_DESC,
        NULL,
        (ur_exp_command_buffer_command_handle_t)c,
        NULL,
        0,
        0,
        0,
        1,
        NULL,
        NULL,
        NULL,
        NULL,
        NULL,
        NULL};
    return u;
}

START_TEST(update_rules) {
    urc_cb_t cb, other;
    init(&cb, true, &all_caps);
    init(&other, true, &all_caps);
    urc_cb_command_t c, theirs;
    size_t g[1] = {64};
    const void *alts[1] = {K2};
    ck_assert_int_eq(urc_cb_kernel_record(&c, &cb, K1, 1, NULL, g, NULL, 1, alts, NULL),
                     UR_RESULT_SUCCESS);
    ck_assert_int_eq(urc_cb_kernel_record(&theirs, &other, K1, 1, NULL, g, NULL, 0, NULL, NULL),
                     UR_RESULT_SUCCESS);
    ur_exp_command_buffer_update_kernel_launch_desc_t u = desc(&c);
    ck_assert_int_eq(urc_cb_check_update_buffer(&cb), UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_int_eq(urc_cb_finalize_begin(&cb), UR_RESULT_SUCCESS);
    urc_cb_finalize_end(&cb, UR_RESULT_SUCCESS);
    ck_assert_int_eq(urc_cb_check_update_buffer(&cb), UR_RESULT_SUCCESS);
    ck_assert_int_eq(urc_cb_check_update(&cb, &c, &u), UR_RESULT_SUCCESS);
    ck_assert_int_eq(urc_cb_check_update(&cb, &theirs, &u),
                     UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP);
    ck_assert_int_eq(urc_cb_check_update(&cb, NULL, &u),
                     UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP);
    u.hNewKernel = K3;
    ck_assert_int_eq(urc_cb_check_update(&cb, &c, &u), UR_RESULT_ERROR_INVALID_VALUE);
    u.hNewKernel = K2;
    ck_assert_int_eq(urc_cb_check_update(&cb, &c, &u), UR_RESULT_SUCCESS);
    // Two dimensions with a global size but no offset.
    size_t g2[2] = {8, 8}, o2[2] = {0, 0}, l2[2] = {2, 2};
    u = desc(&c);
    u.newWorkDim = 2;
    u.pNewGlobalWorkSize = g2;
    ck_assert_int_eq(urc_cb_check_update(&cb, &c, &u), UR_RESULT_ERROR_INVALID_VALUE);
    u.pNewGlobalWorkOffset = o2;
    ck_assert_int_eq(urc_cb_check_update(&cb, &c, &u), UR_RESULT_SUCCESS);
    urc_cb_apply_update(&c, &u);
    ck_assert_uint_eq(c.k.work_dim, 2);
    ck_assert_uint_eq(c.k.global[1], 8);
    ck_assert(!c.k.has_local); // a new global size without local: the implementation's choice
    u = desc(&c);
    u.newWorkDim = 2;
    u.pNewLocalWorkSize = l2;
    urc_cb_apply_update(&c, &u);
    ck_assert(c.k.has_local);
    ck_assert_uint_eq(c.k.global[0], 8); // unchanged
    // A device that can update nothing but arguments.
    urc_cb_caps_t args_only = {true, false,
                               UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_ARGUMENTS};
    cb.caps = args_only;
    u = desc(&c);
    u.newWorkDim = 2;
    u.pNewGlobalWorkSize = g2;
    ck_assert_int_eq(urc_cb_check_update(&cb, &c, &u), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    u = desc(&c);
    u.newWorkDim = 2;
    u.hNewKernel = K2;
    ck_assert_int_eq(urc_cb_check_update(&cb, &c, &u), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    u.hNewKernel = K1; // the current kernel is no switch
    ck_assert_int_eq(urc_cb_check_update(&cb, &c, &u), UR_RESULT_SUCCESS);
    u.numNewValueArgs = 1;
    ck_assert_int_eq(urc_cb_check_update(&cb, &c, &u), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    // Event updates.
    ck_assert_int_eq(urc_cb_check_event_update(&c, true, UINT32_MAX),
                     UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    cb.caps = all_caps;
    ck_assert_int_eq(urc_cb_check_event_update(&c, true, UINT32_MAX),
                     UR_RESULT_ERROR_INVALID_OPERATION); // no event asked for at append
    c.has_event = true;
    c.num_wait_events = 2;
    ck_assert_int_eq(urc_cb_check_event_update(&c, true, UINT32_MAX), UR_RESULT_SUCCESS);
    ck_assert_int_eq(urc_cb_check_event_update(&c, false, 1),
                     UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_int_eq(urc_cb_check_event_update(&c, false, 2), UR_RESULT_SUCCESS);
    urc_cb_command_fini(&c);
    urc_cb_command_fini(&theirs);
    urc_cb_fini(&cb);
    urc_cb_fini(&other);
}
END_TEST

// Whole-list argument merges (CUDA's updates): values replaced and copied, a local-memory
// value, buffers and pointers by index, new indices added.
START_TEST(argument_lists_merge) {
    int v0 = 7;
    long long v1 = 9;
    int mem_dummy = 0;
    ur_mem_handle_t mem = (ur_mem_handle_t)&mem_dummy;
    ur_exp_kernel_arg_properties_t args[3] = {urc_test_arg_value(0, &v0, sizeof v0),
                                              urc_test_arg_value(1, &v1, sizeof v1),
                                              urc_test_arg_pointer(2, &v0)};
    urc_cb_args_t cur, next;
    ck_assert_int_eq(urc_cb_args_copy(&cur, 3, args), UR_RESULT_SUCCESS);
    v0 = 0; // the copy keeps the value given at append
    ck_assert_int_eq(*(const int *)cur.args[0].value.value, 7);
    int nv = 42;
    void *np = &nv;
    ur_exp_command_buffer_update_value_arg_desc_t vals[2] = {
        {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_VALUE_ARG_DESC, NULL, 0, sizeof nv, NULL, &nv},
        {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_VALUE_ARG_DESC, NULL, 4, 256, NULL, NULL}};
    ur_exp_command_buffer_update_pointer_arg_desc_t ptr = {
        UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_POINTER_ARG_DESC, NULL, 2, NULL, &np};
    ur_exp_command_buffer_update_memobj_arg_desc_t m = {
        UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_MEMOBJ_ARG_DESC, NULL, 3, NULL, mem};
    ur_exp_command_buffer_update_kernel_launch_desc_t u = {
        UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_KERNEL_LAUNCH_DESC,
        NULL,
        NULL,
        NULL,
        1,
        1,
        2,
        1,
        &m,
        &ptr,
        vals,
        NULL,
        NULL,
        NULL};
    ck_assert_int_eq(urc_cb_args_merge(&cur, &u, &next), UR_RESULT_SUCCESS);
    ck_assert_uint_eq(next.count, 5);
    ck_assert_int_eq(*(const int *)next.args[0].value.value, 42);
    ck_assert_int_eq(*(const long long *)next.args[1].value.value, 9);
    ck_assert_ptr_eq(next.args[2].value.pointer, &nv);
    // New indices are added in the update's order: values, then buffers, then pointers.
    ck_assert_uint_eq(next.args[3].index, 4);
    ck_assert_int_eq(next.args[3].type, UR_EXP_KERNEL_ARG_TYPE_LOCAL);
    ck_assert_uint_eq(next.args[3].size, 256);
    ck_assert_uint_eq(next.args[4].index, 3);
    ck_assert_int_eq(next.args[4].type, UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ);
    ck_assert_ptr_eq(next.args[4].value.memObjTuple.hMem, mem);
    nv = 1; // merged values are copies too
    ck_assert_int_eq(*(const int *)next.args[0].value.value, 42);
    urc_cb_args_fini(&cur);
    urc_cb_args_fini(&next);
}
END_TEST

START_TEST(held_objects_are_kept) {
    urc_cb_t cb;
    init(&cb, false, &all_caps);
    int objects[40];
    for (int i = 0; i < 40; ++i)
        ck_assert_int_eq(urc_cb_hold(&cb, &objects[i]), UR_RESULT_SUCCESS);
    ck_assert_uint_eq(cb.num_held, 40);
    ck_assert_ptr_eq(cb.held[39], &objects[39]);
    urc_cb_fini(&cb);
}
END_TEST

// Fake events: the first two of context A, the third of context B; anything else is no event.
static int events[3];
static const void *fake_event_context(const void *e) {
    if (e == &events[0] || e == &events[1])
        return CTX_A;
    return e == &events[2] ? CTX_B : NULL;
}

START_TEST(held_events_and_wait_lists) {
    urc_cb_t cb;
    init(&cb, true, &all_caps);
    // Room made in one step for a long wait list, then held without failing.
    ck_assert_int_eq(urc_cb_reserve_events(&cb, 40), UR_RESULT_SUCCESS);
    ck_assert_uint_ge(cb.events_capacity, 40);
    for (int i = 0; i < 40; ++i)
        urc_cb_hold_event(&cb, &events[i % 2]);
    ck_assert_uint_eq(cb.num_events, 40);
    // A replacement moves one hold.
    ck_assert(urc_cb_replace_event(&cb, &events[1], &events[0]));
    ck_assert_ptr_eq(cb.events[1], &events[0]);
    ck_assert_ptr_eq(cb.events[3], &events[1]);
    ck_assert(!urc_cb_replace_event(&cb, &events[2], &events[0]));
    ur_event_handle_t ok[2] = {(ur_event_handle_t)&events[0], (ur_event_handle_t)&events[1]};
    ur_event_handle_t foreign = (ur_event_handle_t)&events[2];
    ur_event_handle_t bogus = (ur_event_handle_t)&kernel_1;
    ck_assert_int_eq(urc_cb_check_wait_list(&cb, 2, ok, fake_event_context), UR_RESULT_SUCCESS);
    ck_assert_int_eq(urc_cb_check_wait_list(&cb, 0, NULL, fake_event_context), UR_RESULT_SUCCESS);
    ck_assert_int_eq(urc_cb_check_wait_list(&cb, 1, &foreign, fake_event_context),
                     UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_int_eq(urc_cb_check_wait_list(&cb, 1, &bogus, fake_event_context),
                     UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_int_eq(urc_cb_check_wait_list(&cb, 1, NULL, fake_event_context),
                     UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    urc_cb_fini(&cb);
}
END_TEST

static void *appender(void *arg) {
    urc_cb_t *cb = arg;
    for (int i = 0; i < 1000; ++i) {
        ur_exp_command_buffer_sync_point_t sp = 0;
        ck_assert_int_eq(append(cb, 0, NULL, 7, &sp), UR_RESULT_SUCCESS);
    }
    return NULL;
}

START_TEST(concurrent_appends_get_distinct_sync_points) {
    urc_cb_t cb;
    init(&cb, false, &all_caps);
    pthread_t t[4];
    for (int i = 0; i < 4; ++i)
        pthread_create(&t[i], NULL, appender, &cb);
    for (int i = 0; i < 4; ++i)
        pthread_join(t[i], NULL);
    ck_assert_uint_eq(cb.num_sync_points, 4000);
    urc_cb_fini(&cb);
}
END_TEST

START_TEST(info_answers) {
    urc_cb_t cb;
    init(&cb, true, &all_caps);
    ur_exp_command_buffer_desc_t d;
    urc_info_t out = {sizeof d, &d, NULL};
    ck_assert_int_eq(urc_cb_get_info(&cb, 1, UR_EXP_COMMAND_BUFFER_INFO_DESCRIPTOR, &out),
                     UR_RESULT_SUCCESS);
    ck_assert_int_eq(d.isUpdatable, 1);
    ck_assert_int_eq(d.isInOrder, 1);
    uint32_t n = 0;
    out = (urc_info_t){sizeof n, &n, NULL};
    ck_assert_int_eq(urc_cb_get_info(&cb, 5, UR_EXP_COMMAND_BUFFER_INFO_REFERENCE_COUNT, &out),
                     UR_RESULT_SUCCESS);
    ck_assert_uint_eq(n, 5);
    ck_assert_int_eq(urc_cb_get_info(&cb, 5, (ur_exp_command_buffer_info_t)7, &out),
                     UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
    urc_cb_fini(&cb);
}
END_TEST

int main(void) {
    Suite *s = suite_create("command_buffer");
    TCase *tc = tcase_create("urc_cb");
    tcase_add_test(tc, create_checks);
    tcase_add_test(tc, sync_points_are_numbered_and_resolved);
    tcase_add_test(tc, state_machine);
    tcase_add_test(tc, append_rules);
    tcase_add_test(tc, kernel_record_rules);
    tcase_add_test(tc, update_rules);
    tcase_add_test(tc, concurrent_appends_get_distinct_sync_points);
    tcase_add_test(tc, argument_lists_merge);
    tcase_add_test(tc, held_objects_are_kept);
    tcase_add_test(tc, held_events_and_wait_lists);
    tcase_add_test(tc, info_answers);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
