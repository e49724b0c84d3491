// SPDX-License-Identifier: MIT
// URC_TRACE_FILE=<path>.json: a Chrome trace-event file (open it in Perfetto or
// chrome://tracing) with one slice per call through the loader, on the calling thread's track.
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
/// Writes the closing bracket and closes the file.
void urc_timeline_close(void);

#endif // URC_LOADER_TIMELINE_H
