// SPDX-License-Identifier: MIT
// Extension chains (`pNext`) come from the caller: a chain that loops or never ends would
// spin any walk over it. Every walk in urc checks its chain here first.
#ifndef URC_COMMON_CORE_PNEXT_H
#define URC_COMMON_CORE_PNEXT_H

#include "ur_api.h"

/// The most structs a chain may hold, its head included. UR defines a handful of extension
/// structs per descriptor, so a longer chain is a mistake, not a use.
#define URC_PNEXT_MAX_CHAIN 64

/// Whether the chain that starts at `head` (a struct that begins with `stype` and `pNext`, or
/// NULL) ends within URC_PNEXT_MAX_CHAIN structs. UR_RESULT_ERROR_INVALID_VALUE, with a
/// message for urAdapterGetLastError, when it loops (Floyd's cycle detection: no memory, and a
/// loop is named as such whatever its length) or is too long.
ur_result_t urc_pnext_check(const void *head);

#endif // URC_COMMON_CORE_PNEXT_H
