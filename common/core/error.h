// SPDX-License-Identifier: MIT
// The calling thread's last adapter error, behind urAdapterGetLastError: a message and the
// native error code of the call that failed.
#ifndef URC_COMMON_CORE_ERROR_H
#define URC_COMMON_CORE_ERROR_H

#include <stddef.h>
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

/// A native result code and its spelling: one entry of an adapter's table of code names.
typedef struct urc_code_name_t {
    int64_t code;
    const char *name;
} urc_code_name_t;

/// A table entry for `code`, named as it is spelled.
#define URC_CODE_NAME(code)                                                                        \
    { (int64_t)(code), #code }

/// The name of `code` in `table` (`count` entries), or `unknown` when the table lacks it.
const char *urc_code_name(const urc_code_name_t *table, size_t count, int64_t code,
                          const char *unknown);

/// Defines `const char *fn(type code)`: the name of `code` among the URC_CODE_NAME entries that
/// follow, or `unknown`.
#define URC_CODE_NAMES(fn, type, unknown, ...)                                                     \
    const char *fn(type code) {                                                                    \
        static const urc_code_name_t names[] = {__VA_ARGS__};                                      \
        return urc_code_name(names, sizeof names / sizeof *names, (int64_t)code, unknown);         \
    }

#endif // URC_COMMON_CORE_ERROR_H
