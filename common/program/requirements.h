// SPDX-License-Identifier: MIT
// Optional kernel features (seed 002): the SYCL aspects a device has, and the check of a
// program's "SYCL/device requirements" against them, with the seed's messages.
#ifndef URC_COMMON_PROGRAM_REQUIREMENTS_H
#define URC_COMMON_PROGRAM_REQUIREMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "env/log.h"
#include "program/props.h"
#include "ur_api.h"

/// Values of SYCL's `enum class aspect` (intel/llvm sycl/include/sycl/info/aspects.def and
/// aspects_deprecated.def). Only those adapters derive are named here; urc_aspect_name knows
/// them all, and any value below URC_ASPECT_LIMIT can be stored.
enum {
    URC_ASPECT_HOST = 0, // deprecated
    URC_ASPECT_CPU = 1,
    URC_ASPECT_GPU = 2,
    URC_ASPECT_ACCELERATOR = 3,
    URC_ASPECT_CUSTOM = 4,
    URC_ASPECT_FP16 = 5,
    URC_ASPECT_FP64 = 6,
    URC_ASPECT_IMAGE = 9,
    URC_ASPECT_ONLINE_COMPILER = 10,
    URC_ASPECT_ONLINE_LINKER = 11,
    URC_ASPECT_QUEUE_PROFILING = 12,
    URC_ASPECT_USM_DEVICE_ALLOCATIONS = 13,
    URC_ASPECT_USM_HOST_ALLOCATIONS = 14,
    URC_ASPECT_USM_SHARED_ALLOCATIONS = 15,
    URC_ASPECT_USM_SYSTEM_ALLOCATIONS = 17,
    URC_ASPECT_USM_ATOMIC_HOST_ALLOCATIONS = 26,
    URC_ASPECT_USM_ATOMIC_SHARED_ALLOCATIONS = 27,
    URC_ASPECT_ATOMIC64 = 28,
    URC_ASPECT_EXT_ONEAPI_NATIVE_ASSERT = 31,
    URC_ASPECT_EXT_ONEAPI_VIRTUAL_FUNCTIONS = 81,
    URC_ASPECT_LIMIT = 256
};

/// What a device offers, as the requirement check sees it. Zero-initialise, then fill in.
typedef struct urc_device_caps_t {
    uint64_t aspects[URC_ASPECT_LIMIT / 64]; // bit n = aspect n
    uint32_t sub_group_sizes[32];
    uint32_t num_sub_group_sizes;
    size_t max_work_group_size;    // 0: unknown, not checked
    size_t max_work_item_sizes[3]; // UR order (UR_DEVICE_INFO_MAX_WORK_ITEM_SIZES); 0: unknown
} urc_device_caps_t;

/// Values >= URC_ASPECT_LIMIT are ignored by add/remove and never present.
void urc_caps_add_aspect(urc_device_caps_t *caps, uint32_t aspect);
void urc_caps_remove_aspect(urc_device_caps_t *caps, uint32_t aspect);
bool urc_caps_has_aspect(const urc_device_caps_t *caps, uint32_t aspect);

/// Removes the aspects named in URC_MASK_ASPECTS ("fp64,fp16", "aspect::fp64" or numbers, comma
/// separated), so tests can pretend a device lacks a feature. Bad entries are logged as
/// warnings to `logger` (may be NULL) and ignored.
void urc_caps_apply_mask(urc_device_caps_t *caps, urc_logger_t *logger);

/// The same with an explicit list (the variable's value), for tests and tools.
void urc_caps_apply_mask_list(urc_device_caps_t *caps, const char *list, urc_logger_t *logger);

/// Fills `caps` for a device from UR queries made through the handle's own table (the
/// urDeviceGetInfo of the adapter that owns it): the aspects DPC++'s device_impl::has derives
/// (device type; cl_khr_fp16/cl_khr_fp64 in UR_DEVICE_INFO_EXTENSIONS; USM capabilities;
/// boolean and optional queries; the platform's backend), the sub-group sizes and the
/// work-group limits; then applies URC_MASK_ASPECTS (bad entries logged to `logger`, may be
/// NULL). A query that fails counts as "not supported". About 40 queries: call it once per
/// device and keep the result.
/// @returns UR_RESULT_ERROR_INVALID_NULL_POINTER for NULL arguments,
///          UR_RESULT_ERROR_INVALID_DEVICE for a handle without a device table.
ur_result_t urc_caps_from_device(ur_device_handle_t device, urc_device_caps_t *caps,
                                 urc_logger_t *logger);

/// "fp16" for 5; NULL for values SYCL does not define.
const char *urc_aspect_name(uint32_t aspect);

/// Reads an aspect from `len` bytes of text: a name ("fp64", optionally "aspect::fp64") or a
/// decimal number below URC_ASPECT_LIMIT. False when it is neither.
bool urc_aspect_parse(const char *text, size_t len, uint32_t *aspect);

/// Checks a program's "SYCL/device requirements" against a device, in the seed's order:
///   fixed_target (uint32 aspects; the device must have one of them),
///   aspects (uint32 array; also accepted under the seed's name "aspect"),
///   reqd_sub_group_size (UINT32 as DPC++ writes it, or a uint32 array as the seed says),
///   reqd_work_group_size (uint32: DPC++'s padded dims, or the seed's <dim_count> <dims...>;
///   see docs/device-images.md) or reqd_work_group_size_uint64_t (uint64 dims).
/// Without the set, or with `props` NULL, everything passes. On a failure returns
/// UR_RESULT_ERROR_UNSUPPORTED_FEATURE with the seed's message in `msg`, e.g.
/// "Kernel uses optional feature corresponding to 'aspect::fp16' but device does not
/// support this aspect."; malformed properties give UR_RESULT_ERROR_INVALID_VALUE and say why.
ur_result_t urc_check_requirements(const urc_props_t *props, const urc_device_caps_t *caps,
                                   char *msg, size_t msg_size);

#endif // URC_COMMON_PROGRAM_REQUIREMENTS_H
