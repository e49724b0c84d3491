// SPDX-License-Identifier: MIT
// Object lifetimes (docs/shared-code.md, "Object lifetimes") and handle checks of the OpenCL
// adapter: the cases every adapter shares (../common/lifetime_cases.c), and callbacks racing a
// release, routes of the wrong kind, foreign and cross-context handles.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "../common/lifetime_cases.h"
#include "oclt.h"

// ---- callbacks racing the user's release ----

typedef struct seen_t {
    atomic_int calls;
    ur_result_t query;
    ur_event_status_t status;
} seen_t;

// Queries the event it is given: a freed handle would be a use-after-free (ASan) or a failed
// kind check (freed memory no longer reads as an event).
static void query_in_callback(ur_event_handle_t e, ur_execution_info_t info, void *user) {
    (void)info;
    seen_t *seen = user;
    seen->query = urEventGetInfo(e, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof seen->status,
                                 &seen->status, NULL);
    atomic_fetch_add(&seen->calls, 1);
}

static cl_event gate(ur_event_handle_t *wrapped) {
    ur_native_handle_t ctx = 0;
    ck_assert_ur_ok(urContextGetNativeHandle(T.context, &ctx));
    cl_int err = CL_SUCCESS;
    cl_event user = clCreateUserEvent((cl_context)ctx, &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    ck_assert_ur_ok(
        urEventCreateWithNativeHandle((ur_native_handle_t)user, T.context, NULL, wrapped));
    return user;
}

static void wait_calls(seen_t *seen, int n) {
    for (int i = 0; i < 100000 && atomic_load(&seen->calls) < n; ++i)
        usleep(100);
    ck_assert_int_eq(atomic_load(&seen->calls), n);
}

START_TEST(callback_gets_a_live_event_after_the_users_release) {
    ur_event_handle_t g = NULL;
    cl_event user = gate(&g);
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 1, &g, &e));
    static seen_t seen;
    memset(&seen, 0, sizeof seen);
    ck_assert_ur_ok(urEventSetCallback(e, UR_EXECUTION_INFO_COMPLETE, query_in_callback, &seen));
    ck_assert_ur_ok(urEventRelease(e)); // before the command can run
    clSetUserEventStatus(user, CL_COMPLETE);
    wait_calls(&seen, 1);
    ck_assert_ur_ok(seen.query);
    ck_assert_int_eq(seen.status, UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urEventRelease(g));
    clReleaseEvent(user);
}
END_TEST

enum { RACERS = 64 };

START_TEST(releases_race_callbacks) {
    ur_event_handle_t g = NULL;
    cl_event user = gate(&g);
    static seen_t seen;
    memset(&seen, 0, sizeof seen);
    ur_event_handle_t e[RACERS];
    for (int i = 0; i < RACERS; ++i) {
        ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 1, &g, &e[i]));
        ck_assert_ur_ok(
            urEventSetCallback(e[i], UR_EXECUTION_INFO_COMPLETE, query_in_callback, &seen));
    }
    // Half released before completion, half while the callbacks run.
    for (int i = 0; i < RACERS / 2; ++i)
        ck_assert_ur_ok(urEventRelease(e[i]));
    clSetUserEventStatus(user, CL_COMPLETE);
    for (int i = RACERS / 2; i < RACERS; ++i)
        ck_assert_ur_ok(urEventRelease(e[i]));
    wait_calls(&seen, RACERS);
    ck_assert_ur_ok(seen.query);
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urEventRelease(g));
    clReleaseEvent(user);
}
END_TEST

// ---- wrong-kind, foreign and cross-context handles ----

// The route itself of the wrong kind (its table is the same adapter's), and the argument
// checks of sampler creation before the kind checks.
START_TEST(routes_of_the_wrong_kind_get_the_kinds_result) {
    ur_context_handle_t not_context = (ur_context_handle_t)T.queue;
    ur_mem_handle_t m = NULL;
    ck_assert_ur(urMemBufferCreate(not_context, UR_MEM_FLAG_READ_WRITE, 64, NULL, &m),
                 UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur(urMemRetain((ur_mem_handle_t)T.queue), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urProgramRelease((ur_program_handle_t)T.queue), UR_RESULT_ERROR_INVALID_PROGRAM);
    ur_sampler_handle_t s = NULL;
    ck_assert_ur(urSamplerCreate(not_context, NULL, &s), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ur_sampler_desc_t desc = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, false,
                              (ur_sampler_addressing_mode_t)99, UR_SAMPLER_FILTER_MODE_NEAREST};
    ck_assert_ur(urSamplerCreate(T.context, &desc, &s), UR_RESULT_ERROR_INVALID_ENUMERATION);
}
END_TEST

// A handle of another adapter: same kind, another table.
START_TEST(foreign_handles_are_refused) {
    static const int other;
    struct {
        const void *ddi;
        uint32_t words[7];
    } foreign;
    memcpy(&foreign, T.device, sizeof foreign);
    foreign.ddi = &other;
    ur_queue_handle_t q = NULL;
    ck_assert_ur(urQueueCreate(T.context, (ur_device_handle_t)&foreign, NULL, &q),
                 UR_RESULT_ERROR_INVALID_DEVICE);
}
END_TEST

START_TEST(program_of_another_context_is_refused) {
    ur_context_handle_t other = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &other));
    ur_program_handle_t p = oclt_program("add_one", NULL);
    ck_assert_ur(urProgramBuild(other, p, NULL), UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur(urProgramCompile(other, p, NULL), UR_RESULT_ERROR_INVALID_CONTEXT);
    ur_program_handle_t linked = NULL;
    ck_assert_ur(urProgramLink(other, 1, &p, NULL, &linked), UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ptr_null(linked);
    ck_assert_ur_ok(urProgramRelease(p));
    // A kernel built in the other context, launched on the fixture's queue.
    ur_context_handle_t mine = T.context;
    T.context = other;
    ur_program_handle_t theirs = oclt_built_program("add_one");
    T.context = mine;
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(theirs, "add_one", &k));
    size_t one = 1;
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &one, &one, 0, NULL, NULL, 0,
                                                  NULL, NULL),
                 UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(theirs));
    ck_assert_ur_ok(urContextRelease(other));
}
END_TEST

START_TEST(queue_device_outside_the_context_is_refused) {
    uint32_t n = 0;
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_ALL, 0, NULL, &n));
    // A sub-device is a device the context was not made with.
    ur_device_partition_property_t prop = {UR_DEVICE_PARTITION_EQUALLY, {.equally = 1}};
    ur_device_partition_properties_t props = {UR_STRUCTURE_TYPE_DEVICE_PARTITION_PROPERTIES, NULL,
                                              &prop, 1};
    ur_device_handle_t sub = NULL;
    uint32_t made = 0;
    if (urDevicePartition(T.device, &props, 1, &sub, &made) != UR_RESULT_SUCCESS || made == 0)
        return; // no partitioning on this runtime: nothing to combine
    ur_queue_handle_t q = NULL;
    ck_assert_ur(urQueueCreate(T.context, sub, NULL, &q), UR_RESULT_ERROR_INVALID_DEVICE);
    ck_assert_ur_ok(urDeviceRelease(sub));
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl lifetimes");
    TCase *tc = oclt_tcase("over-release");
    lifetime_cases_add_counts(tc);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("threads");
    lifetime_cases_add_threads(tc);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEventSetCallback");
    tcase_add_test(tc, callback_gets_a_live_event_after_the_users_release);
    tcase_add_test(tc, releases_race_callbacks);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("handles");
    lifetime_cases_add_handles(tc);
    tcase_add_test(tc, routes_of_the_wrong_kind_get_the_kinds_result);
    tcase_add_test(tc, foreign_handles_are_refused);
    tcase_add_test(tc, program_of_another_context_is_refused);
    tcase_add_test(tc, queue_device_outside_the_context_is_refused);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
