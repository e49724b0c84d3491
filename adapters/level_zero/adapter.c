// SPDX-License-Identifier: MIT
// urAdapter*: the adapter is one static object (common/core/static_adapter.h); its version
// answer is 1, the v1 semantics, as UR's legacy adapter reports.
#include "core/static_adapter.h"
#include "l0_internal.h"

urc_logger_t *l0_log(void) {
    return urc_logger(URC_ENV_LOG_LEVEL_ZERO);
}

// Platforms and devices live as long as the process (SYCL keeps their handles in static
// caches, and the Level Zero loader cannot be initialised twice), so the last release only
// waits for the pending host tasks and event callbacks, as the CUDA adapter's does, and stops
// their threads (host tasks first: an event callback may wait for one).
static void teardown(void) {
    l0_host_tasks_stop(true);
    l0_callbacks_stop(true);
    urc_quarantine_drain(); // released handles are freed at last
}

URC_STATIC_ADAPTER(l0, UR_BACKEND_LEVEL_ZERO, l0_log, teardown)
