// SPDX-License-Identifier: MIT
// sycl-post-link's text property files (.prop): "[Set name]" lines, then "key=<type>|<value>"
// with type 1 a decimal uint32 and type 2 a byte array in SYCL's own base64. Read into the
// ur_program_metadata_t array a SYCL runtime would pass to urProgramCreateWithIL, so the same
// parser (urc_props_parse) and checks (urc_check_requirements) apply.
#ifndef URC_TOOLS_DEVICE_CONFIG_PROP_FILE_H
#define URC_TOOLS_DEVICE_CONFIG_PROP_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ur_api.h"

typedef struct prop_file_t {
    ur_program_metadata_t *entries; // names "<set>/<key>"; values owned by the file
    uint32_t count;
    void **owned;
    size_t num_owned;
} prop_file_t;

/// Decodes SYCL's base64: standard alphabet, no padding, bits packed least significant first
/// (out0 = c0 | c1 << 6, ...). Writes up to `cap` bytes and returns how many the text holds;
/// false in `*ok` on a character outside the alphabet.
size_t sycl_base64_decode(const char *text, size_t len, uint8_t *out, size_t cap, bool *ok);

/// Parses .prop text; on failure returns false (nothing left to free) with "line N: why" in
/// `err`.
bool prop_file_parse(const char *text, size_t len, prop_file_t *file, char *err, size_t err_size);

/// Reads and parses a .prop file; on failure returns false with "<path>: ..." in `err`.
bool prop_file_read(const char *path, prop_file_t *file, char *err, size_t err_size);

void prop_file_free(prop_file_t *file);

#endif // URC_TOOLS_DEVICE_CONFIG_PROP_FILE_H
