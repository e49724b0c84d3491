// SPDX-License-Identifier: MIT
// Optional kernel features (seed 002): the SYCL aspects a device has, and the check of a
// program's "SYCL/device requirements" against them, with the seed's messages.
#ifndef URC_COMMON_REQUIREMENTS_H
#define URC_COMMON_REQUIREMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "props.h"
#include "ur_api.h"

/// Values of SYCL's `enum class aspect` (intel/llvm sycl/include/sycl/info/aspects.def).
/// Only those adapters derive are named here; any value up to URC_ASPECT_LIMIT can be stored.
enum {
    URC_ASPECT_HOST = 0,
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
    URC_ASPECT_ATOMIC64 = 28,
    URC_ASPECT_EXT_ONEAPI_NATIVE_ASSERT = 31,
    URC_ASPECT_LIMIT = 256
};

/// What a device offers, as the requirement check sees it.
typedef struct urc_device_caps_t {
    uint64_t aspects[URC_ASPECT_LIMIT / 64]; // bit n = aspect n
    uint32_t sub_group_sizes[32];
    uint32_t num_sub_group_sizes;
    size_t max_work_group_size;
    size_t max_work_item_sizes[3];
} urc_device_caps_t;

void urc_caps_add_aspect(urc_device_caps_t *caps, uint32_t aspect);
bool urc_caps_has_aspect(const urc_device_caps_t *caps, uint32_t aspect);

/// Removes the aspects named in URC_MASK_ASPECTS ("fp64,fp16" or numbers; bad entries are
/// logged and ignored), so tests can pretend a device lacks a feature.
void urc_caps_apply_mask(urc_device_caps_t *caps);

/// "fp16" for 5; NULL for values SYCL does not define.
const char *urc_aspect_name(uint32_t aspect);

/// Checks a program's "SYCL/device requirements" (aspects, reqd_sub_group_size,
/// reqd_work_group_size, fixed_target) against a device. On failure returns
/// UR_RESULT_ERROR_UNSUPPORTED_FEATURE with the seed's message in `msg`, e.g.
/// "Kernel uses optional feature corresponding to 'aspect::fp16' but device does not
/// support this aspect."; malformed properties give UR_RESULT_ERROR_INVALID_VALUE.
ur_result_t urc_check_requirements(const urc_props_t *props, const urc_device_caps_t *caps,
                                   char *msg, size_t msg_size);

#endif // URC_COMMON_REQUIREMENTS_H
