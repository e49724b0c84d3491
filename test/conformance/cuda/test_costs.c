// SPDX-License-Identifier: MIT
// What everyday commands cost in driver calls: counted by the simulated driver (skipped on a
// real one, where the data checks still run). Not timed: a call count does not vary by machine.
#include <dlfcn.h>
#include <string.h>

#include "cudat.h"

typedef int (*ctx_set_fn)(void *ctx);

// A function of the driver the adapter loaded (NULL when absent).
static void *driver_symbol(const char *name) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    void *fn = lib != NULL ? dlsym(lib, name) : NULL;
    if (lib != NULL)
        dlclose(lib); // still loaded by the adapter
    return fn;
}

// The simulated driver's count of driver calls so far; -1 on a real driver.
static long driver_calls(void) {
    size_t (*count)(void) = (size_t(*)(void))driver_symbol("urc_cuda_sim_driver_calls");
    return count != NULL ? (long)count() : -1;
}

// What libsycl does for a blocking USM copy: a non-blocking copy with an event, a wait for the
// event and its release.
static void sycl_copy(ur_queue_handle_t q, void *dst, const void *src, size_t size) {
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, false, dst, src, size, 0, NULL, &e));
    ck_assert_ur_ok(urEventWait(1, &e));
    ck_assert_ur_ok(urEventRelease(e));
}

// Copies host -> device -> host `rounds` times, checking the data; returns the driver calls
// of the last round (-1 on a real driver). The first rounds make the stream, the thread's
// current context and the pooled CUevent, which later rounds reuse.
static long copy_rounds(ur_queue_handle_t q, int rounds) {
    uint32_t *dev = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, sizeof *dev, (void **)&dev));
    long calls = -1;
    for (int i = 0; i < rounds; ++i) {
        uint32_t in = 0xc0de0000u + (uint32_t)i, out = 0;
        sycl_copy(q, dev, &in, sizeof in);
        long before = driver_calls();
        sycl_copy(q, &out, dev, sizeof out);
        calls = before < 0 ? -1 : driver_calls() - before;
        ck_assert_uint_eq(out, in);
    }
    ck_assert_ur_ok(urUSMFree(T.context, dev));
    return calls;
}

// Copy, record, synchronise: no context query, no event creation or destruction, and no
// pointer query for the range check once the same buffers have been checked before.
#define SYCL_COPY_MAX_CALLS 3

START_TEST(sycl_copy_in_order) {
    long calls = copy_rounds(T.queue, 4);
    if (calls >= 0)
        ck_assert_int_le(calls, SYCL_COPY_MAX_CALLS);
}
END_TEST

START_TEST(sycl_copy_out_of_order) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    long calls = copy_rounds(q, 8);
    if (calls >= 0)
        ck_assert_int_le(calls, SYCL_COPY_MAX_CALLS);
    // Every copy was waited for before the next, so all went to one stream: finishing the
    // queue synchronises that one (and makes the context current), not four.
    long before = driver_calls();
    ck_assert_ur_ok(urQueueFinish(q));
    if (before >= 0)
        ck_assert_int_le(driver_calls() - before, 2);
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

// Independent commands without host waits between them still spread over the streams.
START_TEST(out_of_order_spreads_busy_work) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    uint32_t *dev = NULL;
    ck_assert_ur_ok(
        urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 4 * sizeof *dev, (void **)&dev));
    uint32_t in[4] = {1, 2, 3, 4}, out[4] = {0};
    ur_event_handle_t e[4];
    for (int i = 0; i < 4; ++i)
        ck_assert_ur_ok(urEnqueueUSMMemcpy(q, false, dev + i, in + i, sizeof *dev, 0, NULL, &e[i]));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, true, out, dev, sizeof out, 4, e, NULL));
    ck_assert_mem_eq(out, in, sizeof in);
    for (int i = 0; i < 4; ++i)
        ck_assert_ur_ok(urEventRelease(e[i]));
    // Four streams were used: finishing synchronises each.
    long before = driver_calls();
    ck_assert_ur_ok(urQueueFinish(q));
    if (before >= 0)
        ck_assert_int_eq(driver_calls() - before, 1 + 4);
    ck_assert_ur_ok(urUSMFree(T.context, dev));
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

// The adapter trusts its own record of the thread's current context; when the application
// changes it behind the adapter's back, copies and waits still work (made once more in the
// device's context).
START_TEST(copy_after_the_application_clears_the_context) {
    ctx_set_fn set = (ctx_set_fn)driver_symbol("cuCtxSetCurrent");
    ck_assert_ptr_nonnull(set);
    copy_rounds(T.queue, 1); // the thread's record now says "current"
    ck_assert_int_eq(set(NULL), 0);
    uint32_t *dev = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, sizeof *dev, (void **)&dev));
    ck_assert_int_eq(set(NULL), 0);
    uint32_t in = 0xfeedu, out = 0;
    sycl_copy(T.queue, dev, &in, sizeof in);
    ck_assert_int_eq(set(NULL), 0);
    sycl_copy(T.queue, &out, dev, sizeof out);
    ck_assert_uint_eq(out, in);
    ck_assert_int_eq(set(NULL), 0);
    ck_assert_ur_ok(urUSMFree(T.context, dev));
}
END_TEST

// A released event's CUevent serves the next command's event, on any thread.
START_TEST(events_are_reused) {
    ur_event_handle_t a = NULL, b = NULL;
    ur_native_handle_t na = 0, nb = 0;
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 0, NULL, &a));
    ck_assert_ur_ok(urEventGetNativeHandle(a, &na));
    ck_assert_ur_ok(urEventWait(1, &a));
    ck_assert_ur_ok(urEventRelease(a));
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 0, NULL, &b));
    ck_assert_ur_ok(urEventGetNativeHandle(b, &nb));
    ck_assert_uint_eq(na, nb);
    ck_assert_ur_ok(urEventWait(1, &b));
    ck_assert_ur_ok(urEventRelease(b));
}
END_TEST

// Profiling events keep timing (their pool is separate) and still measure.
START_TEST(profiling_events_from_their_own_pool) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                   UR_QUEUE_FLAG_PROFILING_ENABLE};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    for (int i = 0; i < 3; ++i) {
        ur_event_handle_t plain = NULL, timed = NULL;
        ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 0, NULL, &plain));
        ck_assert_ur_ok(urEnqueueEventsWait(q, 0, NULL, &timed));
        ck_assert_ur_ok(urEventWait(1, &timed));
        uint64_t start = 0, end = 0;
        ck_assert_ur_ok(urEventGetProfilingInfo(timed, UR_PROFILING_INFO_COMMAND_START,
                                                sizeof start, &start, NULL));
        ck_assert_ur_ok(
            urEventGetProfilingInfo(timed, UR_PROFILING_INFO_COMMAND_END, sizeof end, &end, NULL));
        ck_assert_uint_le(start, end);
        ck_assert_ur_ok(urEventRelease(timed));
        ck_assert_ur_ok(urEventWait(1, &plain));
        ck_assert_ur_ok(urEventRelease(plain));
    }
    ck_assert_ur_ok(urQueueRelease(q));
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda costs");
    TCase *tc = cudat_tcase("driver calls per command");
    tcase_add_test(tc, sycl_copy_in_order);
    tcase_add_test(tc, sycl_copy_out_of_order);
    tcase_add_test(tc, out_of_order_spreads_busy_work);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("reuse stays correct");
    tcase_add_test(tc, copy_after_the_application_clears_the_context);
    tcase_add_test(tc, events_are_reused);
    tcase_add_test(tc, profiling_events_from_their_own_pool);
    suite_add_tcase(s, tc);
    return cudat_main(s, false);
}
