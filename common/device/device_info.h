// SPDX-License-Identifier: MIT
// Device queries every adapter answers alike, whatever its backend.
#ifndef URC_COMMON_DEVICE_DEVICE_INFO_H
#define URC_COMMON_DEVICE_DEVICE_INFO_H

#include <stdbool.h>

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

#endif // URC_COMMON_DEVICE_DEVICE_INFO_H
