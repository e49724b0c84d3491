// SPDX-License-Identifier: MIT
// The calling thread's last adapter error, behind urAdapterGetLastError: a message and the
// native error code of the call that failed.
#ifndef URC_COMMON_CORE_ERROR_H
#define URC_COMMON_CORE_ERROR_H

#include <stdint.h>

#include "ur_api.h"

/// Records a message and native code for this thread and returns `result`, so an adapter can
/// write `return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0, "...", ...);`.
ur_result_t urc_error_set(ur_result_t result, int32_t native_code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/// The last message (never NULL; "" when none) and native code of this thread.
void urc_error_get(const char **message, int32_t *native_code);

void urc_error_clear(void);

/// The answer to urXRetain / urXRelease of a handle whose user references are all gone
/// (common/core/object.h refused it): `result` (the handle's INVALID_<KIND>) with a message naming
/// `entry_point`.
ur_result_t urc_error_released(ur_result_t result, const char *entry_point);

/// The answer of the generated handle checks: `param` of `entry_point` is not a handle of the
/// kind it names, or was made by another adapter.
ur_result_t urc_error_wrong_handle(ur_result_t result, const char *entry_point, const char *param);

#endif // URC_COMMON_CORE_ERROR_H
