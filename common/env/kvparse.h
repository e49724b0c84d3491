// SPDX-License-Identifier: MIT
// UR's two grammars for structured environment values, as pure functions on a string:
//   list  "a,b,'c:d'"                     (UR_ADAPTERS_FORCE_LOAD, UR_ADAPTERS_SEARCH_PATH)
//   map   "key:v1,v2;key2:v3"             (UR_LOG_<NAME>, ONEAPI_DEVICE_SELECTOR)
// A value holding ':' (or, in a list, ';') must be quoted with '...' or "..."; the quotes are
// removed. An empty element is an error, a trailing separator is ignored, nothing is trimmed.
#ifndef URC_COMMON_ENV_KVPARSE_H
#define URC_COMMON_ENV_KVPARSE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct urc_kv_list_t {
    char **items;
    size_t count;
} urc_kv_list_t;

typedef struct urc_kv_entry_t {
    char *key;
    char **values;
    size_t count;
} urc_kv_entry_t;

/// Entries in the order their keys first appear.
typedef struct urc_kv_map_t {
    urc_kv_entry_t *entries;
    size_t count;
} urc_kv_map_t;

typedef struct urc_kv_options_t {
    bool reject_empty;    // "key:" (no values) is an error
    bool allow_duplicate; // a repeated key appends its values instead of being an error
    bool lower;           // keys are lower-cased (before duplicates are looked for)
} urc_kv_options_t;

/// Splits a list. On error returns false, leaves `out` empty and writes a one-line reason
/// naming the bad element into `err`.
bool urc_kv_parse_list(const char *text, urc_kv_list_t *out, char *err, size_t err_size);

/// Splits a map; errors as for urc_kv_parse_list. Out of memory is reported as an error too.
bool urc_kv_parse_map(const char *text, urc_kv_options_t options, urc_kv_map_t *out, char *err,
                      size_t err_size);

/// The entry for `key`, or NULL.
const urc_kv_entry_t *urc_kv_find(const urc_kv_map_t *map, const char *key);

void urc_kv_list_free(urc_kv_list_t *list);
void urc_kv_map_free(urc_kv_map_t *map);

#endif // URC_COMMON_ENV_KVPARSE_H
