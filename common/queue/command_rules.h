// SPDX-License-Identifier: MIT
// The rule table of queue commands: what a command's sizes, pattern, ranges and launch
// geometry must satisfy, as UR specifies it for the urEnqueue* entry point. The command-buffer
// appends (urCommandBufferAppend*Exp), the kernel-launch updates and the context copies call
// the same function as their urEnqueue* twin, so the eager and the recorded path answer the
// same input with the same result and can never drift apart: one check, never two.
//
// Every rule runs after the generated argument checks (NULL pointers and handles, wait lists)
// and before anything reaches the driver. Failures leave a message for urAdapterGetLastError.
#ifndef URC_COMMON_QUEUE_COMMAND_RULES_H
#define URC_COMMON_QUEUE_COMMAND_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "memory/ranges.h"
#include "memory/usm_range.h"
#include "queue/launch.h"
#include "ur_api.h"

/// What the rules need to know of the adapter and device a command runs on.
typedef struct urc_rules_t {
    urc_usm_lookup_fn lookup;   ///< the allocation holding a pointer (NULL: USM ranges unchecked)
    void *backend;              ///< the lookup's first argument
    urc_launch_limits_t limits; ///< the device's launch limits (zeros: not checked)
} urc_rules_t;

// ---- USM commands (urEnqueueUSM*, urCommandBufferAppendUSM*Exp, urUSMContextMemcpyExp) ----

/// urEnqueueUSMMemcpy: size 0, or either side past the end of its allocation, INVALID_SIZE.
ur_result_t urc_rule_usm_memcpy(const urc_rules_t *r, const void *dst, const void *src,
                                size_t size);

/// urEnqueueUSMFill: pattern or size 0, a pattern longer than the fill or not dividing it, or
/// the range past the end of its allocation, INVALID_SIZE.
ur_result_t urc_rule_usm_fill(const urc_rules_t *r, const void *ptr, size_t pattern_size,
                              size_t size);

/// urEnqueueUSMPrefetch and urEnqueueUSMAdvise: size 0 or the range past the end of its
/// allocation, INVALID_SIZE.
ur_result_t urc_rule_usm_hint(const urc_rules_t *r, const void *ptr, size_t size);

/// urEnqueueUSMMemcpy2D: a pitch of 0 or below the width, a height of 0, or pitch * height
/// past the end of either side's allocation (UR's rule: whole rows, the last one included),
/// INVALID_SIZE.
ur_result_t urc_rule_usm_memcpy_2d(const urc_rules_t *r, const void *dst, size_t dst_pitch,
                                   const void *src, size_t src_pitch, size_t width, size_t height);

/// urEnqueueUSMFill2D: pitch 0 or below the width, width or height 0, a pattern of 0 bytes,
/// not a power of two, longer than the region or not dividing width * height, or pitch *
/// height past the end of the allocation, INVALID_SIZE.
ur_result_t urc_rule_usm_fill_2d(const urc_rules_t *r, const void *ptr, size_t pitch,
                                 size_t pattern_size, size_t width, size_t height);

// ---- buffer commands -------------------------------------------------------------------------

/// urEnqueueMemBufferRead / Write and one side of a copy: offset + size inside the buffer's
/// `total` bytes without wrapping, INVALID_SIZE otherwise.
ur_result_t urc_rule_buffer_range(size_t total, size_t offset, size_t size);

/// urEnqueueMemBufferFill: pattern or size 0, a pattern longer than the fill, not a power of
/// two, not dividing the size or the offset, or the range outside the buffer, INVALID_SIZE.
ur_result_t urc_rule_buffer_fill(size_t total, size_t offset, size_t pattern_size, size_t size);

/// One side of urEnqueueMemBufferReadRect / WriteRect / CopyRect: an empty region (a width,
/// height or depth of 0) INVALID_SIZE, then urc_rect_check's pitches and bounds within
/// `limit` bytes (SIZE_MAX for host memory).
ur_result_t urc_rule_rect(urc_rect_side_t *side, ur_rect_offset_t origin,
                          const ur_rect_region_t *region, size_t row, size_t slice, size_t limit);

// ---- kernel launches -------------------------------------------------------------------------

/// urEnqueueKernelLaunch and its append: urc_launch_check with the device's limits.
ur_result_t urc_rule_launch(const urc_rules_t *r, uint32_t dims, const size_t *offset,
                            const size_t *global, const size_t *local);

/// Every argument index of a launch with arguments (urEnqueueKernelLaunchWithArgsExp and its
/// append) against the kernel's `count` of arguments (UINT32_MAX: unknown), INVALID_KERNEL_
/// ARGUMENT_INDEX otherwise.
ur_result_t urc_rule_arg_indices(uint32_t n, const ur_exp_kernel_arg_properties_t *args,
                                 uint32_t count);

/// The number of arguments of one of the adapter's kernels (UINT32_MAX when unknown).
typedef uint32_t (*urc_rules_arg_count_fn)(const void *kernel);

/// One urCommandBufferUpdateKernelLaunchExp description, after urc_cb_check_update: the launch
/// the command will make (what the update leaves unchanged taken from the command) follows
/// urc_rule_launch (a new global size 0, a local size above the device's limits, an offset
/// whose sum with the size overflows), and every new argument's index is below the argument
/// count of the kernel the command will run.
struct urc_cb_command_t;
ur_result_t urc_rule_update(const urc_rules_t *r, const struct urc_cb_command_t *cmd,
                            const ur_exp_command_buffer_update_kernel_launch_desc_t *u,
                            urc_rules_arg_count_fn arg_count);

#endif // URC_COMMON_QUEUE_COMMAND_RULES_H
