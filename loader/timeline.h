// SPDX-License-Identifier: MIT
// URC_TRACE_FILE=<path>.json: a Chrome trace-event file (open it in Perfetto or
// chrome://tracing). Every call through the loader is a slice on its thread's track; every
// enqueued command is a slice on its queue's track, timed from event profiling and placed on
// the host clock through urDeviceGetGlobalTimestamps; a flow arrow joins each enqueue call to
// its command. Queues are created with profiling on while the timeline is recorded, and
// enqueues that ask for no event get one the timeline owns.
#ifndef URC_LOADER_TIMELINE_H
#define URC_LOADER_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "ur_api.h"

/// Opens the file URC_TRACE_FILE names (true), or does nothing (false: unset or unwritable,
/// the latter with a warning).
bool urc_timeline_open(void);
/// Records one call, [start_ns, end_ns) on CLOCK_MONOTONIC.
void urc_timeline_call(const char *name, uint64_t start_ns, uint64_t end_ns, ur_result_t result);
/// urQueueCreate's properties with UR_QUEUE_FLAG_PROFILING_ENABLE added (in `room`).
const ur_queue_properties_t *urc_timeline_queue_properties(const ur_queue_properties_t *given,
                                                           ur_queue_properties_t *room);
/// One enqueued command: its event (the timeline's own reference when `owned`, else it takes
/// one), and when the enqueue call began.
void urc_timeline_command(const char *name, ur_queue_handle_t queue, ur_event_handle_t event,
                          bool owned, uint64_t submit_ns);
/// The queue has finished: its commands' slices are written and their events released.
void urc_timeline_queue_done(ur_queue_handle_t queue);
/// Writes what is left and closes the file. With `adapters_alive` false (process exit) the
/// adapters are not asked about events any more.
void urc_timeline_close(bool adapters_alive);

#endif // URC_LOADER_TIMELINE_H
