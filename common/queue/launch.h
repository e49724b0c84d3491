// SPDX-License-Identifier: MIT
// The launch geometry checks every adapter makes before its native launch: UR's results for
// bad work dimensions and zero sizes, and sizes no device can run (a global size whose
// work-item count overflows, or that passes the device's limits) refused before a runtime
// tries to schedule them.
#ifndef URC_COMMON_QUEUE_LAUNCH_H
#define URC_COMMON_QUEUE_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "ur_api.h"

/// What an adapter knows of its device's limits; a 0 means "not known, not checked".
typedef struct urc_launch_limits_t {
    size_t max_group_items; // work-items in one work-group
    size_t max_group[3];    // work-group size per dimension
    uint64_t max_groups[3]; // work-groups per dimension (CUDA's grid, Level Zero's 32 bits)
} urc_launch_limits_t;

/// Checks a launch of `dims` dimensions:
/// - INVALID_WORK_DIMENSION: `dims` not 1 to 3, or a global size of 0 (UR's rule);
/// - INVALID_WORK_GROUP_SIZE: a local size of 0 (UR's rule), a local size above the device's
///   per-dimension or total limit;
/// - INVALID_VALUE: global sizes whose work-item count, or whose offset + size, overflows
///   a size_t, or that need more work-groups than the device runs in a dimension.
/// `offset` and `local` may be NULL; `limits` may be NULL (nothing device-specific checked).
/// Leaves a message for urAdapterGetLastError on failure.
ur_result_t urc_launch_check(uint32_t dims, const size_t *offset, const size_t *global,
                             const size_t *local, const urc_launch_limits_t *limits);

/// INVALID_KERNEL_ARGUMENT_INDEX when an argument's index is at or past the kernel's `count`
/// of arguments (a `count` of UINT32_MAX means unknown: nothing checked).
ur_result_t urc_launch_check_arg_index(uint32_t index, uint32_t count);

#endif // URC_COMMON_QUEUE_LAUNCH_H
