// SPDX-License-Identifier: MIT
#include "core/enum_names.h"

#include <stdio.h>

#include "generated/ur_enum_tables.h"

const urc_enum_entry_t *urc_enum_find(const urc_enum_table_t *table, int64_t value) {
    for (size_t i = 0; i < table->count; ++i)
        if (table->entries[i].value == value)
            return &table->entries[i];
    return NULL;
}

const char *urc_enum_name(const urc_enum_table_t *table, int64_t value, char *buf, size_t size) {
    const urc_enum_entry_t *e = urc_enum_find(table, value);
    if (e != NULL)
        return e->name;
    snprintf(buf, size, "%s(%lld)", table->type_name, (long long)value);
    return buf;
}

const char *urc_result_name(int32_t result) {
    // Thread-local so concurrent callers formatting unknown codes do not race.
    static _Thread_local char buf[48];
    const urc_enum_entry_t *e = urc_enum_find(&urc_enum_ur_result_t, result);
    if (e != NULL)
        return e->name;
    snprintf(buf, sizeof buf, "UR_RESULT_%d", (int)result);
    return buf;
}
