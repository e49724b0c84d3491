// SPDX-License-Identifier: MIT
// urAdapter*: the adapter is one static object (common/core/static_adapter.h). As in UR, the
// last release tears it down: the platform and its devices go, and every handle made from them
// is invalid from then on.
#include "core/static_adapter.h"
#include "cuda_internal.h"

// The last release frees the handles released before it, then tears the platform down.
static void teardown(void) {
    urc_quarantine_drain(); // released handles are freed at last
    cuda_platform_teardown();
}

URC_STATIC_ADAPTER(cuda, UR_BACKEND_CUDA, cuda_log, teardown)
