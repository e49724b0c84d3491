// SPDX-License-Identifier: MIT
// urAdapter*: the adapter is one static object (common/core/static_adapter.h). As in UR, the
// last release tears it down: the platform and its devices go, and every handle made from them
// is invalid from then on.
#include "core/static_adapter.h"
#include "cuda_internal.h"

URC_STATIC_ADAPTER(cuda, UR_BACKEND_CUDA, cuda_log, cuda_platform_teardown)
