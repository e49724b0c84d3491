// SPDX-License-Identifier: MIT
// URC_TRACE_FILE on a real CPU OpenCL device: each enqueued command becomes a slice on its
// queue's track, timed from event profiling (the timeline turns profiling on for the queues
// it draws, and gives an event to enqueues that ask for none), joined by a flow to its enqueue
// call and inside its submission window; call slices nest per thread.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oclt.h"
#include "urc_trace_check.h"

static char trace_path[512];

// Ends the loader here so the file is complete; the fixture's teardown then has nothing left.
static void close_everything(void) {
    ck_assert_ur_ok(urQueueRelease(T.queue));
    ck_assert_ur_ok(urContextRelease(T.context));
    urAdapterRelease(T.adapter);
    T.queue = NULL;
    T.context = NULL;
    T.adapter = NULL;
    ck_assert_ur_ok(urLoaderTearDown());
}

START_TEST(commands_on_the_queue_track) {
    ur_mem_handle_t buffer;
    char data[4096];
    memset(data, 7, sizeof data);
    ck_assert_ur_ok(
        urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, sizeof data, NULL, &buffer));
    ur_event_handle_t write = NULL;
    // One command with the caller's event, two without one.
    ck_assert_ur_ok(
        urEnqueueMemBufferWrite(T.queue, buffer, false, 0, sizeof data, data, 0, NULL, &write));
    ck_assert_ur_ok(
        urEnqueueMemBufferRead(T.queue, buffer, false, 0, sizeof data, data, 1, &write, NULL));
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    // The caller's event is still the caller's: usable after the timeline took its slice.
    ur_event_status_t status;
    ck_assert_ur_ok(urEventGetInfo(write, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof status,
                                   &status, NULL));
    ck_assert_int_eq(status, UR_EVENT_STATUS_COMPLETE);
    ck_assert_ur_ok(urEventRelease(write));
    ck_assert_ur_ok(urMemRelease(buffer));
    close_everything();
    urc_trace_counts_t counts = urc_check_trace(trace_path);
    ck_assert_uint_eq(counts.devices, 3);
    ck_assert_uint_eq(counts.flows, 3);
    ck_assert_uint_ge(counts.calls, 6);
    unlink(trace_path);
}
END_TEST

int main(void) {
    // Every forked test starts the loader from this environment.
    snprintf(trace_path, sizeof trace_path, "%s/timeline-%d.json", TIMELINE_DIR, (int)getpid());
    setenv("URC_TRACE_FILE", trace_path, 1);
    Suite *s = suite_create("opencl timeline");
    TCase *tc = oclt_tcase("URC_TRACE_FILE");
    tcase_add_test(tc, commands_on_the_queue_track);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
