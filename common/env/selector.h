// SPDX-License-Identifier: MIT
// ONEAPI_DEVICE_SELECTOR, parsed strictly and without side effects, so the loader's pre-filter,
// urDeviceGetSelected and the unit tests share one reading of it:
//
//   selector := term (';' term)*              terms with the same backend may not repeat
//   term     := ['!'] backend ':' filter (',' filter)*
//   backend  := '*' | level_zero | opencl | cuda | hip | native_cpu | offload   (any case)
//   filter   := root ['.' sub ['.' subsub]]
//   root     := '*' | <uint> | cpu | gpu | fpga  (any case; a type name stands alone)
//   sub, subsub := '*' | <uint>                 (after a '*' only '*' may follow)
//
// '!' marks a discard term. Anything else is malformed and is reported with the bad term.
#ifndef URC_COMMON_ENV_SELECTOR_H
#define URC_COMMON_ENV_SELECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ur_api.h"

/// A '*' index.
#define URC_ODS_ANY UINT32_MAX

typedef enum urc_ods_level_t {
    URC_ODS_ROOT,   // "N", "*", "gpu"
    URC_ODS_SUB,    // "N.M", "N.*", "*.*"
    URC_ODS_SUBSUB, // "N.M.K", "N.M.*", "N.*.*", "*.*.*"
} urc_ods_level_t;

typedef struct urc_ods_filter_t {
    urc_ods_level_t level;
    ur_device_type_t type;      // UR_DEVICE_TYPE_ALL, or CPU/GPU/FPGA for a type-name root
    uint32_t root, sub, subsub; // URC_ODS_ANY for '*'; unused levels are URC_ODS_ANY
} urc_ods_filter_t;

typedef struct urc_ods_term_t {
    char *key;        // lower-cased, with its '!': terms are kept in key order, as UR's map
    bool discard;     // a '!' term
    bool any_backend; // '*'
    ur_backend_t backend;
    urc_ods_filter_t *filters;
    size_t count;
} urc_ods_term_t;

typedef struct urc_ods_t {
    urc_ods_term_t *terms;
    size_t count;
} urc_ods_t;

/// Parses a selector; NULL (unset) reads as "*:*". On error returns false, leaves `out` empty
/// and writes a reason naming the bad term into `err`.
bool urc_ods_parse(const char *text, urc_ods_t *out, char *err, size_t err_size);
void urc_ods_free(urc_ods_t *ods);

/// True when the term is about `backend` ('*' is about every backend).
bool urc_ods_term_applies(const urc_ods_term_t *term, ur_backend_t backend);

/// True when `filter` selects a device of its own level with type `type` and indices
/// root.sub.subsub (indices below the device's level are ignored).
bool urc_ods_filter_matches(const urc_ods_filter_t *filter, ur_device_type_t type, uint32_t root,
                            uint32_t sub, uint32_t subsub);

/// The load-time pre-filter: may an adapter for `backend` whose devices can be of the given
/// types have a device the selector keeps? Indices and sub-devices cannot be known before
/// loading, so they count as "maybe"; only a discard of a whole type excludes it.
bool urc_ods_backend_wanted(const urc_ods_t *ods, ur_backend_t backend,
                            const ur_device_type_t *types, size_t type_count);

/// "opencl" for UR_BACKEND_OPENCL, "*" for UR_BACKEND_UNKNOWN, NULL for others.
const char *urc_ods_backend_name(ur_backend_t backend);

#endif // URC_COMMON_ENV_SELECTOR_H
