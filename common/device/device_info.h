// SPDX-License-Identifier: MIT
// Device queries every adapter answers alike, whatever its backend.
#ifndef URC_COMMON_DEVICE_DEVICE_INFO_H
#define URC_COMMON_DEVICE_DEVICE_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/info.h"
#include "ur_api.h"

/// True for the urDeviceGetInfo queries that ask whether an optional feature is there, where
/// the feature is one no urc adapter implements (command buffers, bindless images, virtual
/// memory, IPC, ...: their entry points answer UNSUPPORTED_FEATURE). Adapters answer these
/// `false`, so a SYCL runtime probing at start-up gets a definite "no" rather than an error.
/// An adapter that implements one of them answers it before asking (the CUDA adapter's
/// bindless image queries, adapters/cuda/bindless.c).
bool urc_device_info_unimplemented_feature(ur_device_info_t propName);

/// True when `name` is one of the space-separated words of `list` (an extension string): a
/// whole word, so "cl_khr_fp16" does not match "cl_khr_fp16_foo". False for a NULL list.
bool urc_device_info_word_listed(const char *list, const char *name);

/// One urDeviceGetInfo answer an adapter gives for every device it has: a boolean or a
/// uint32_t (flags and enumerations included). The list is the adapter's data; the rule of
/// answering from it is urc_device_info_fixed.
typedef struct urc_device_fixed_t {
    ur_device_info_t name;
    bool is_bool;
    uint32_t value;
} urc_device_fixed_t;

#define URC_FIXED_TRUE(name)                                                                       \
    { (name), true, 1 }
#define URC_FIXED_FALSE(name)                                                                      \
    { (name), true, 0 }
#define URC_FIXED_U32(name, value)                                                                 \
    { (name), false, (uint32_t)(value) }

/// Answers `propName` when it is an unimplemented feature (false, as
/// urc_device_info_unimplemented_feature says) or one of the `count` entries of `table`:
/// returns true and leaves the answer's result in `*result`. False when neither: the adapter
/// answers the query itself.
bool urc_device_info_fixed(const urc_device_fixed_t *table, size_t count, ur_device_info_t propName,
                           const urc_info_t *out, ur_result_t *result);

/// urc_device_info_fixed over an adapter's array.
#define URC_DEVICE_INFO_FIXED(table, propName, out, result)                                        \
    urc_device_info_fixed((table), sizeof(table) / sizeof *(table), (propName), (out), (result))

#endif // URC_COMMON_DEVICE_DEVICE_INFO_H
