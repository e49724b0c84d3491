// SPDX-License-Identifier: MIT
// The YAML device configuration of seed 002: one top-level key per target (device
// architecture), each with `aspects:` (numbers or sycl::aspect names) and `sub-group-sizes:`.
// Other keys of an entry are allowed and ignored.
#ifndef URC_TOOLS_DEVICE_CONFIG_DEVICE_CONFIG_H
#define URC_TOOLS_DEVICE_CONFIG_DEVICE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "program/requirements.h"

typedef struct device_entry_t {
    char *target;
    urc_device_caps_t caps; // aspects and sub-group sizes; no work-group limits
} device_entry_t;

typedef struct device_config_t {
    device_entry_t *entries;
    size_t count;
} device_config_t;

/// Loads a configuration; on failure returns false with "<path>:<line>: why" in `err`.
bool device_config_load(const char *path, device_config_t *config, char *err, size_t err_size);

/// Parses configuration text (`name` is used in messages).
bool device_config_parse(const char *text, size_t len, const char *name, device_config_t *config,
                         char *err, size_t err_size);

/// The entry for a target, or NULL.
const device_entry_t *device_config_find(const device_config_t *config, const char *target);

void device_config_free(device_config_t *config);

#endif // URC_TOOLS_DEVICE_CONFIG_DEVICE_CONFIG_H
