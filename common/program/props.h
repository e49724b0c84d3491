// SPDX-License-Identifier: MIT
// SYCL property sets carried as program metadata, read with explicit bounds.
//
// Convention (docs/device-images.md): a SYCL runtime passes each property of a device image
// as one ur_program_metadata_t on urProgramCreateWithIL/WithBinary, named
// "<property set>/<property>", e.g. "SYCL/virtual functions/virtual-functions-set".
//   UINT32 property     -> UR_PROGRAM_METADATA_TYPE_UINT32, value.data32
//   BYTE_ARRAY property -> UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY, value.pData = 8-byte
//                          little-endian payload size in bits, then the payload; size = bytes
//                          of header + payload
//   STRING property     -> UR_PROGRAM_METADATA_TYPE_STRING, value.pString (NUL-terminated)
// Set names contain '/', so a name is split after the longest *known* set name it starts with.
//
// Two kinds of entries:
//   - strict: a known SYCL set, or UR's "<name>@<tag>" with a tag UR's adapters read
//     (reqd_work_group_size, max_work_group_size, global_id_mapping, ...). These are fully
//     validated: byte-array headers, uint32 arrays, duplicates. UR-tag entries are stored
//     under set "" whether given bare or as "SYCL/program metadata/<name>@<tag>".
//   - opaque: any other name (set ""). Kept and ignored; byte arrays are kept as given (`raw`),
//     and repeated names are allowed (lookups find the first). UR's own conformance tests pass
//     four entries all named "test metadata" with a header-less byte array, and must succeed.
#ifndef URC_COMMON_PROGRAM_PROPS_H
#define URC_COMMON_PROGRAM_PROPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ur_api.h"

/// Property sets urc knows (names as SYCL writes them). Every set of anchor-behaviour §4.1 is
/// recognised by urc_props_parse; these are the ones urc reads.
#define URC_SET_DEVICE_REQUIREMENTS "SYCL/device requirements"
#define URC_SET_VIRTUAL_FUNCTIONS   "SYCL/virtual functions"
#define URC_SET_DEVICE_GLOBALS      "SYCL/device globals"
#define URC_SET_ASSERT_USED         "SYCL/assert used"
#define URC_SET_PROGRAM_METADATA    "SYCL/program metadata"
#define URC_SET_MISC_PROPERTIES     "SYCL/misc properties"
#define URC_SET_EXPORTED_SYMBOLS    "SYCL/exported symbols"
#define URC_SET_IMPORTED_SYMBOLS    "SYCL/imported symbols"

/// One property, its value already validated.
typedef struct urc_prop_t {
    const char *set;  // a known set name, or "" for opaque and UR-style "<name>@<tag>" entries
    const char *name; // the property, e.g. the device global's unique id; for set "" the full name
    ur_program_metadata_type_t type;
    uint32_t u32;        // UINT32 value
    uint64_t u64;        // UINT64 value (UINT32 values too, widened)
    const uint8_t *data; // BYTE_ARRAY payload (header removed unless `raw`), followed by a NUL
    size_t size;         // payload bytes
    uint64_t bits;       // the header's bit count (size * 8 when `raw`)
    const char *string;  // STRING value
    bool raw;            // opaque BYTE_ARRAY kept as given: no size header was read
} urc_prop_t;

/// The properties of one program (an owned copy; inputs may be freed after parsing).
typedef struct urc_props_t urc_props_t;

/// Parses `count` metadata entries into an owned, reference-counted copy (refcount 1).
/// `entries` may be NULL when `count` is 0 (an empty set of properties).
/// @returns
///   - UR_RESULT_ERROR_INVALID_NULL_POINTER: `out` is NULL, or `entries` is NULL and count > 0
///   - UR_RESULT_ERROR_INVALID_VALUE: a malformed entry; `err` names it ("metadata entry 3
///     ('SYCL/device requirements/aspects'): ...") and the reason. Any entry: NULL or empty
///     pName, unknown type, NULL pData with size > 0, NULL pString, a string without its NUL
///     within size + 1 bytes (UR passes size = strlen). Strict entries also: byte array shorter
///     than its 8-byte header, a bit count that disagrees with the size (except UR's own form
///     of "<id>@global_id_mapping": a zero bit count before a non-empty payload, which is then
///     the rest of the entry, as UR's CTS passes it), a repeated name, and a
///     payload that is not whole uint32 values where the property is a uint32 array
///     ("SYCL/device requirements": aspects, fixed_target, reqd_sub_group_size,
///     reqd_work_group_size; UR's @reqd_work_group_size and @max_work_group_size) or uint64
///     values (reqd_work_group_size_uint64_t).
///   - UR_RESULT_ERROR_OUT_OF_HOST_MEMORY
ur_result_t urc_props_parse(const ur_program_metadata_t *entries, uint32_t count, urc_props_t **out,
                            char *err, size_t err_size);

/// urc_props_parse of a program's creation properties (NULL: none): a count without entries
/// is UR_RESULT_ERROR_INVALID_NULL_POINTER, entries without a count
/// UR_RESULT_ERROR_INVALID_SIZE, a parse error its result with the parser's message.
ur_result_t urc_props_from_program_properties(const ur_program_properties_t *props,
                                              urc_props_t **out);

/// The union of several programs' properties (for urProgramLink), in input order; NULL inputs
/// are skipped. Entries with the same set, name and value are kept once; for conflicting
/// values of one strict name the first is kept.
ur_result_t urc_props_merge(const urc_props_t *const *inputs, size_t n, urc_props_t **out);

/// Thread-safe reference counting; release with NULL does nothing.
urc_props_t *urc_props_retain(urc_props_t *props);
void urc_props_release(urc_props_t *props);

/// Number of properties.
size_t urc_props_count(const urc_props_t *props);

/// The i-th property in input order, or NULL past the end.
const urc_prop_t *urc_props_at(const urc_props_t *props, size_t i);

/// One property, or NULL (hash lookup). `props` may be NULL.
const urc_prop_t *urc_props_find(const urc_props_t *props, const char *set, const char *name);

/// Every property of a set, in input order: writes up to `max` of them to `out` and returns how
/// many the set has (0 when absent), so a call with max 0 counts.
size_t urc_props_list(const urc_props_t *props, const char *set, const urc_prop_t **out,
                      size_t max);

/// True when the program carries any property of `set`.
bool urc_props_has_set(const urc_props_t *props, const char *set);

/// A BYTE_ARRAY payload read as uint32 values; false when it is another type or its size is
/// not a multiple of 4.
bool urc_prop_u32_array(const urc_prop_t *prop, const uint8_t **data, size_t *count);
/// The index-th little-endian uint32 of `data` (no alignment needed).
uint32_t urc_prop_u32_at(const uint8_t *data, size_t index);
/// The index-th little-endian uint64 of `data`.
uint64_t urc_prop_u64_at(const uint8_t *data, size_t index);

/// A property's text: a STRING as is, or a BYTE_ARRAY payload up to its first NUL (payloads
/// built from strings carry no terminator; urc stores one after every payload). With `buf`
/// the text is copied there and NULL is returned when it does not fit; with `buf` NULL a
/// pointer into `prop` is returned. NULL for other types.
const char *urc_prop_text(const urc_prop_t *prop, char *buf, size_t size);

/// UR's "<name>@global_id_mapping" (bare, or given inside "SYCL/program metadata"): the backend
/// symbol for a device global, copied into `buf`, or NULL when absent or too long.
const char *urc_props_global_symbol(const urc_props_t *props, const char *name, char *buf,
                                    size_t size);

/// The known set `name` starts with (followed by '/'), longest first, or NULL. Exposed for the
/// device-config tool and tests.
const char *urc_props_known_set(const char *name, size_t *set_len);

#endif // URC_COMMON_PROGRAM_PROPS_H
