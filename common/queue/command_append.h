// SPDX-License-Identifier: MIT
// The memory appends of command buffers (urCommandBufferAppendUSM*Exp and
// urCommandBufferAppendMemBuffer*Exp) for adapters whose buffers are plain device memory (CUDA,
// Level Zero): each entry point checks its command against the rule table (queue/command_rules.h)
// once, turns buffers and offsets into pointers, and hands the adapter one of four native
// operations (copy, fill, rectangular copy, ordering-only hint). The adapter keeps only what
// differs: how it records a node or a command-list entry. Kernel appends, on every adapter,
// share their checks (urc_append_kernel_record) and their entry points
// (command_append_kernel.inc).
#ifndef URC_COMMON_QUEUE_COMMAND_APPEND_H
#define URC_COMMON_QUEUE_COMMAND_APPEND_H

#include <stdbool.h>
#include <stddef.h>

#include "memory/ranges.h"
#include "queue/command_buffer.h"
#include "ur_api.h"

/// The ordering parameters every memory append ends with, as UR passes them.
typedef struct urc_append_sync_t {
    uint32_t num_sync;
    const ur_exp_command_buffer_sync_point_t *sync;
    uint32_t num_events;
    const ur_event_handle_t *events;
    ur_exp_command_buffer_sync_point_t *out_sync;
    ur_event_handle_t *out_event;
    ur_exp_command_buffer_command_handle_t *out_command;
} urc_append_sync_t;

/// Builds a urc_append_sync_t from the parameter names of UR's append entry points.
#define URC_APPEND_SYNC                                                                            \
    (&(const urc_append_sync_t){numSyncPointsInWaitList, pSyncPointWaitList, numEventsInWaitList,  \
                                phEventWaitList, pSyncPoint, phEvent, phCommand})

/// One side of a rectangular copy: its base (a buffer's device address or host memory), the
/// side as urc_rule_rect checked it, and which of the two it is.
typedef struct urc_append_rect_t {
    void *base;
    urc_rect_side_t side;
    ur_rect_offset_t origin;
    bool host;
} urc_append_rect_t;

/// What an adapter provides. `buffer` answers the command buffer's core, or NULL when the
/// handle is not one of the adapter's command buffers (INVALID_COMMAND_BUFFER_EXP); `mem` gives
/// a memory object's device address, size and context, false when it is not one of the
/// adapter's buffers (INVALID_MEM_OBJECT; so is a buffer of another context than the command
/// buffer's). Each native operation records one command after the sync points and events of
/// `s`, answering what the append answers.
typedef struct urc_append_ops_t {
    urc_cb_t *(*buffer)(ur_exp_command_buffer_handle_t h);
    /// Called before the rules look up USM allocations (CUDA makes its context current), or NULL.
    ur_result_t (*prepare)(ur_exp_command_buffer_handle_t h);
    bool (*mem)(ur_mem_handle_t m, void **base, size_t *size, const void **context);
    ur_result_t (*copy)(ur_exp_command_buffer_handle_t h, void *dst, const void *src, size_t size,
                        const urc_append_sync_t *s);
    ur_result_t (*fill)(ur_exp_command_buffer_handle_t h, void *dst, const void *pattern,
                        size_t pattern_size, size_t size, const urc_append_sync_t *s);
    ur_result_t (*rect)(ur_exp_command_buffer_handle_t h, const urc_append_rect_t *dst,
                        const urc_append_rect_t *src, const ur_rect_region_t *region,
                        const urc_append_sync_t *s);
    /// Prefetch and advice: a command with no effect but its place in the order.
    ur_result_t (*hint)(ur_exp_command_buffer_handle_t h, const urc_append_sync_t *s);
} urc_append_ops_t;

ur_result_t urc_append_usm_memcpy(const urc_append_ops_t *ops, ur_exp_command_buffer_handle_t h,
                                  void *dst, const void *src, size_t size,
                                  const urc_append_sync_t *s);
ur_result_t urc_append_usm_fill(const urc_append_ops_t *ops, ur_exp_command_buffer_handle_t h,
                                void *ptr, const void *pattern, size_t pattern_size, size_t size,
                                const urc_append_sync_t *s);
/// urCommandBufferAppendUSMPrefetchExp and urCommandBufferAppendUSMAdviseExp.
ur_result_t urc_append_usm_hint(const urc_append_ops_t *ops, ur_exp_command_buffer_handle_t h,
                                const void *ptr, size_t size, const urc_append_sync_t *s);
ur_result_t urc_append_buffer_copy(const urc_append_ops_t *ops, ur_exp_command_buffer_handle_t h,
                                   ur_mem_handle_t src, ur_mem_handle_t dst, size_t src_offset,
                                   size_t dst_offset, size_t size, const urc_append_sync_t *s);
/// urCommandBufferAppendMemBufferWriteExp (`write`) and ReadExp between a buffer and `host`.
ur_result_t urc_append_buffer_transfer(const urc_append_ops_t *ops,
                                       ur_exp_command_buffer_handle_t h, bool write,
                                       ur_mem_handle_t buffer, size_t offset, size_t size,
                                       void *host, const urc_append_sync_t *s);
ur_result_t urc_append_buffer_fill(const urc_append_ops_t *ops, ur_exp_command_buffer_handle_t h,
                                   ur_mem_handle_t buffer, const void *pattern, size_t pattern_size,
                                   size_t offset, size_t size, const urc_append_sync_t *s);
ur_result_t urc_append_buffer_copy_rect(const urc_append_ops_t *ops,
                                        ur_exp_command_buffer_handle_t h, ur_mem_handle_t src,
                                        ur_mem_handle_t dst, ur_rect_offset_t src_origin,
                                        ur_rect_offset_t dst_origin, ur_rect_region_t region,
                                        size_t src_row, size_t src_slice, size_t dst_row,
                                        size_t dst_slice, const urc_append_sync_t *s);
/// urCommandBufferAppendMemBufferWriteRectExp (`write`) and ReadRectExp.
ur_result_t urc_append_buffer_transfer_rect(const urc_append_ops_t *ops,
                                            ur_exp_command_buffer_handle_t h, bool write,
                                            ur_mem_handle_t buffer, ur_rect_offset_t buffer_origin,
                                            ur_rect_offset_t host_origin, ur_rect_region_t region,
                                            size_t buffer_row, size_t buffer_slice, size_t host_row,
                                            size_t host_slice, void *host,
                                            const urc_append_sync_t *s);

/// A kernel append as UR passes it (urCommandBufferAppendKernelLaunchExp and
/// urCommandBufferAppendKernelLaunchWithArgsExp).
typedef struct urc_append_kernel_t {
    ur_kernel_handle_t kernel;
    uint32_t work_dim;
    const size_t *offset;
    const size_t *global;
    const size_t *local;
    bool with_args; // the WithArgs form: `args` are the command's, even when there are none
    uint32_t num_args;
    const ur_exp_kernel_arg_properties_t *args;
    uint32_t num_alternatives;
    ur_kernel_handle_t *alternatives;
} urc_append_kernel_t;

/// An adapter's answer about a kernel given to a kernel append: false when `kernel` is not one
/// of its kernels, else true with `*context` the kernel's context where it can run on the
/// device of the command buffer `h`, NULL where it cannot.
typedef bool (*urc_kernel_context_fn)(ur_exp_command_buffer_handle_t h, ur_kernel_handle_t kernel,
                                      const void **context);

/// The checks of a kernel append and the command's snapshot (urc_cb_kernel_record): the
/// command's kernel and every alternative must be the adapter's (INVALID_KERNEL), of the
/// buffer's context and built for its device.
ur_result_t urc_append_kernel_record(urc_cb_command_t *cmd, urc_cb_t *cb,
                                     ur_exp_command_buffer_handle_t h, const urc_append_kernel_t *k,
                                     urc_kernel_context_fn context_of);

/// The handle of a kernel append's command where the buffer is updatable and `s` asks for one
/// (else `*out` stays NULL): a zeroed object of `size` bytes that the adapter fills in once the
/// command is recorded. `snap` (from urc_append_kernel_record) keeps the launch's arguments and
/// the wait list's events for updates.
ur_result_t urc_append_command_new(urc_cb_command_t *snap, const urc_cb_t *cb,
                                   const urc_append_kernel_t *k, const urc_append_sync_t *s,
                                   size_t size, void **out);

/// Ends a kernel append that failed before its command was made: frees `cmd` (NULL when there
/// is none) and what `snap` holds, and answers `res`.
ur_result_t urc_append_command_discard(void *cmd, urc_cb_command_t *snap, ur_result_t res);

#endif // URC_COMMON_QUEUE_COMMAND_APPEND_H
