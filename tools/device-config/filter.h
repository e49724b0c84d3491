// SPDX-License-Identifier: MIT
// The aspect filter of seed 002: which device images a target can take, decided from each
// image's "SYCL/device requirements" with urc_check_requirements, and the file-table I/O.
#ifndef URC_TOOLS_DEVICE_CONFIG_FILTER_H
#define URC_TOOLS_DEVICE_CONFIG_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "program/requirements.h"

typedef enum filter_verdict_t {
    FILTER_KEEP,
    FILTER_DROP,  // `why` holds the requirement message
    FILTER_ERROR, // `why` holds what is wrong with the file
} filter_verdict_t;

/// Decides one image from its .prop file. Without "SYCL/device requirements" it is kept; else
/// aspects must be among the target's, required sub-group sizes among its sizes, and a
/// fixed_target list must name one of its aspects.
filter_verdict_t filter_image(const char *prop_path, const urc_device_caps_t *caps, char *why,
                              size_t why_size);

/// Filters `text`: a file table ("[Code|Properties|...]" then "a.spv|a.prop|..." rows) or a
/// list of .prop paths, one a line. Kept rows (or paths) go to `out`; a table without a
/// Properties column is copied unchanged. With `log`, each dropped image is reported there.
/// Returns false with a message in `err` on a malformed table or property file.
bool filter_text(const char *text, size_t len, const urc_device_caps_t *caps, FILE *out, FILE *log,
                 char *err, size_t err_size);

#endif // URC_TOOLS_DEVICE_CONFIG_FILTER_H
