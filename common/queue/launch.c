// SPDX-License-Identifier: MIT
#include "queue/launch.h"

#include "core/error.h"

static ur_result_t check_local(uint32_t dims, const size_t *local,
                               const urc_launch_limits_t *limits) {
    size_t items = 1;
    for (uint32_t d = 0; d < dims; ++d) {
        if (local[d] == 0)
            return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE, 0,
                                 "work-group size 0 in dimension %u", d);
        if (limits != NULL && limits->max_group[d] != 0 && local[d] > limits->max_group[d])
            return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE, 0,
                                 "work-group size %zu in dimension %u exceeds the device's %zu",
                                 local[d], d, limits->max_group[d]);
        if (items > SIZE_MAX / local[d])
            return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE, 0,
                                 "the work-group's item count overflows a size_t");
        items *= local[d];
    }
    if (limits != NULL && limits->max_group_items != 0 && items > limits->max_group_items)
        return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE, 0,
                             "%zu work-items per group exceed the device's %zu", items,
                             limits->max_group_items);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_launch_check(uint32_t dims, const size_t *offset, const size_t *global,
                             const size_t *local, const urc_launch_limits_t *limits) {
    if (dims < 1 || dims > 3)
        return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_DIMENSION, 0,
                             "work dimension %u (1 to 3)", dims);
    size_t items = 1;
    for (uint32_t d = 0; d < dims; ++d) {
        if (global[d] == 0)
            return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_DIMENSION, 0,
                                 "global size 0 in dimension %u", d);
        if (items > SIZE_MAX / global[d])
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "the global sizes' work-item count overflows a size_t");
        items *= global[d];
        if (offset != NULL && offset[d] > SIZE_MAX - global[d])
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "global offset %zu + size %zu overflows in dimension %u",
                                 offset[d], global[d], d);
    }
    if (local != NULL) {
        ur_result_t res = check_local(dims, local, limits);
        if (res != UR_RESULT_SUCCESS)
            return res;
    }
    if (limits == NULL)
        return UR_RESULT_SUCCESS;
    for (uint32_t d = 0; d < dims; ++d) {
        // Without a local size the runtime picks one no larger than the device's limit, so
        // the fewest groups it could need are global / that limit.
        size_t group = local != NULL ? local[d] : limits->max_group[d];
        if (limits->max_groups[d] == 0 || group == 0)
            continue;
        uint64_t groups = global[d] / group + (global[d] % group != 0);
        if (groups > limits->max_groups[d])
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "global size %zu needs %llu work-groups in dimension %u; the "
                                 "device runs %llu",
                                 global[d], (unsigned long long)groups, d,
                                 (unsigned long long)limits->max_groups[d]);
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_launch_check_arg_index(uint32_t index, uint32_t count) {
    if (count != UINT32_MAX && index >= count)
        return urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX, 0,
                             "kernel argument index %u; the kernel takes %u", index, count);
    return UR_RESULT_SUCCESS;
}
