// SPDX-License-Identifier: MIT
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>

// Per thread, per library: each adapter links its own copy, as UR's adapters keep their own.
static _Thread_local char last_message[2048];
static _Thread_local int32_t last_native;

ur_result_t urc_error_set(ur_result_t result, int32_t native_code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    last_native = native_code;
    return result;
}

void urc_error_get(const char **message, int32_t *native_code) {
    if (message != NULL)
        *message = last_message;
    if (native_code != NULL)
        *native_code = last_native;
}

void urc_error_clear(void) {
    last_message[0] = '\0';
    last_native = 0;
}

ur_result_t urc_error_released(ur_result_t result, const char *entry_point) {
    return urc_error_set(result, 0,
                         "%s: the handle has no reference left (released more often than "
                         "retained); nothing was changed",
                         entry_point);
}

ur_result_t urc_error_wrong_handle(ur_result_t result, const char *entry_point, const char *param) {
    return urc_error_set(result, 0, "%s: %s is not a handle of the kind it names from this adapter",
                         entry_point, param);
}

const char *urc_code_name(const urc_code_name_t *table, size_t count, int64_t code,
                          const char *unknown) {
    for (size_t i = 0; i < count; ++i)
        if (table[i].code == code)
            return table[i].name;
    return unknown;
}
