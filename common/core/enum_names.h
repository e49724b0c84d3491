// SPDX-License-Identifier: MIT
// Enumerator names and info-query value types, for messages and tools (urinfo).
#ifndef URC_COMMON_CORE_ENUM_NAMES_H
#define URC_COMMON_CORE_ENUM_NAMES_H

#include <stddef.h>
#include <stdint.h>

typedef struct urc_enum_entry_t {
    int64_t value;
    const char *name;      // e.g. "UR_DEVICE_INFO_TYPE"
    const char *info_type; // the value type of an info query ("ur_bool_t", "char[]"), or ""
} urc_enum_entry_t;

typedef struct urc_enum_table_t {
    const char *type_name;
    const urc_enum_entry_t *entries;
    size_t count;
} urc_enum_table_t;

/// The entry for `value`, or NULL when the enum declares no such value.
const urc_enum_entry_t *urc_enum_find(const urc_enum_table_t *table, int64_t value);

/// The enumerator's name, or "<type>(<value>)" written into `buf` when it has none.
const char *urc_enum_name(const urc_enum_table_t *table, int64_t value, char *buf, size_t size);

/// "UR_RESULT_ERROR_INVALID_VALUE" for 4; never NULL (unknown values read "UR_RESULT_<n>").
const char *urc_result_name(int32_t result);

#endif // URC_COMMON_CORE_ENUM_NAMES_H
