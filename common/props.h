// SPDX-License-Identifier: MIT
// SYCL property sets carried as program metadata, read with explicit bounds.
//
// Convention (README "Device images"): a SYCL runtime passes each property of a device image
// as one ur_program_metadata_t on urProgramCreateWithIL/WithBinary, named
// "<property set>/<property>", e.g. "SYCL/virtual functions/virtual-functions-set".
//   UINT32 property     -> UR_PROGRAM_METADATA_TYPE_UINT32, value.data32
//   BYTE_ARRAY property -> UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY, value.pData = 8-byte
//                          little-endian payload size in bits, then the payload; size = bytes
//                          of header + payload
//   STRING property     -> UR_PROGRAM_METADATA_TYPE_STRING, value.pString (NUL-terminated)
// UR's own "<name>@<tag>" entries (e.g. "<id>@global_id_mapping") are kept as they are.
// Entries urc does not know are kept and ignored.
#ifndef URC_COMMON_PROPS_H
#define URC_COMMON_PROPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ur_api.h"

/// Property sets urc understands (names as SYCL writes them).
#define URC_SET_DEVICE_REQUIREMENTS "SYCL/device requirements"
#define URC_SET_VIRTUAL_FUNCTIONS "SYCL/virtual functions"
#define URC_SET_DEVICE_GLOBALS "SYCL/device globals"
#define URC_SET_ASSERT_USED "SYCL/assert used"
#define URC_SET_PROGRAM_METADATA "SYCL/program metadata"

/// One property, its value already validated. For BYTE_ARRAY, `data`/`size` are the payload
/// (header removed) and `bits` the header's bit count.
typedef struct urc_prop_t {
    const char *set;  // e.g. "SYCL/device globals"; "" for UR-style "<name>@<tag>" entries
    const char *name; // e.g. the device global's unique id
    ur_program_metadata_type_t type;
    uint32_t u32;
    uint64_t u64;
    const uint8_t *data;
    size_t size;
    uint64_t bits;
    const char *string;
} urc_prop_t;

/// The properties of one program (an owned copy; inputs may be freed after parsing).
typedef struct urc_props_t urc_props_t;

/// Parses `count` metadata entries. Malformed entries (truncated header, bit count that does
/// not fit the size, NULL name or data, unterminated string, duplicate name) give
/// UR_RESULT_ERROR_INVALID_VALUE and a message naming the entry and the reason in `err`.
/// `count == 0` gives an empty set.
ur_result_t urc_props_parse(const ur_program_metadata_t *entries, uint32_t count,
                            urc_props_t **out, char *err, size_t err_size);

/// The union of several programs' properties (for urProgramLink); duplicates with the same
/// value are kept once, conflicting duplicates keep the first.
ur_result_t urc_props_merge(const urc_props_t *const *inputs, size_t n, urc_props_t **out);

urc_props_t *urc_props_retain(urc_props_t *props);
void urc_props_release(urc_props_t *props);

/// One property, or NULL.
const urc_prop_t *urc_props_find(const urc_props_t *props, const char *set, const char *name);

/// Every property of a set, in input order; returns how many (0 when the set is absent).
size_t urc_props_list(const urc_props_t *props, const char *set, const urc_prop_t **out,
                      size_t max);

/// True when the program carries any property of `set`.
bool urc_props_has_set(const urc_props_t *props, const char *set);

/// A BYTE_ARRAY payload read as uint32 values; false when its size is not a multiple of 4.
bool urc_prop_u32_array(const urc_prop_t *prop, const uint8_t **data, size_t *count);
uint32_t urc_prop_u32_at(const uint8_t *data, size_t index);

/// A property's text: STRING as is, BYTE_ARRAY payload bounded by its size (copied into buf,
/// NUL-terminated); NULL when it does not fit.
const char *urc_prop_text(const urc_prop_t *prop, char *buf, size_t size);

/// UR's "<name>@global_id_mapping": the backend symbol for a device global, or NULL.
const char *urc_props_global_symbol(const urc_props_t *props, const char *name, char *buf,
                                    size_t size);

#endif // URC_COMMON_PROPS_H
