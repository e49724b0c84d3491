// SPDX-License-Identifier: MIT
// Command buffers on devices without a usable cl_khr_command_buffer: each append is recorded
// as a description of the OpenCL command it stands for, and urEnqueueCommandBufferExp submits
// the recorded commands to the caller's queue, each after the events of its sync points from
// the same run and the run's wait list. The checks, state machine and sync points are the
// shared ones (command_buffer.c and common/queue/command_buffer.h); this is the native half.
#ifndef URC_OCL_COMMAND_BUFFER_REPLAY_H
#define URC_OCL_COMMAND_BUFFER_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ocl_objects.h"

typedef enum ocl_replay_op_t {
    OCL_REPLAY_KERNEL,
    OCL_REPLAY_COPY,      // clEnqueueCopyBuffer
    OCL_REPLAY_COPY_RECT, // clEnqueueCopyBufferRect
    OCL_REPLAY_FILL,      // ocl_fill_buffer_cl
    OCL_REPLAY_USM_COPY,  // clEnqueueMemcpyINTEL
    OCL_REPLAY_USM_FILL,  // ocl_usm_fill_cl
    OCL_REPLAY_BARRIER,   // prefetch and advice: a marker over the command's dependencies
} ocl_replay_op_t;

/// One recorded command. What it names it holds: buffers and the kernel are retained, the
/// fill pattern is copied, and a kernel command launches a clone of the kernel made at append,
/// which keeps the arguments set then (the buffers among the append's arguments are retained
/// too; an append without arguments uses the kernel's, which the caller keeps alive).
typedef struct ocl_replay_cmd_t {
    ocl_replay_op_t op;
    cl_mem src, dst;     // retained
    const void *src_ptr; // USM copies
    void *dst_ptr;       // USM copies and fills
    size_t src_offset, dst_offset, size;
    size_t src_origin[3], dst_origin[3], region[3];
    size_t src_row, src_slice, dst_row, dst_slice;
    void *pattern; // owned copy
    size_t pattern_size;
    cl_kernel kernel;         // the clone (owned)
    ur_kernel_handle_t owner; // retained: the program a fallback-assert check reads
    uint32_t num_mems;        // the buffers among the append's arguments, retained
    cl_mem *mems;
    cl_uint work_dim;
    size_t offset[3], global[3], local[3];
    bool has_local;
    uint32_t num_deps;
    uint32_t *deps; // indices of earlier commands
} ocl_replay_cmd_t;

/// Whether a device without the extension can replay: clCloneKernel is OpenCL 2.1.
bool ocl_replay_possible(ur_device_handle_t d);

/// Records `c` (whose references the buffer takes over, also on failure) after the commands
/// `deps` (sync-point tokens, i.e. indices) and, in an in-order buffer, after the previous one.
/// `*index` is the command's token. Called with the buffer's append lock held.
ur_result_t ocl_replay_record(ur_exp_command_buffer_handle_t cb, const ocl_replay_cmd_t *c,
                              uint32_t num_deps, const cl_uint *deps, cl_uint *index);

/// A kernel command: the launch and a clone of `k` with `args` applied (when `with_args`),
/// made under the kernel's launch lock.
ur_result_t ocl_replay_kernel(ur_exp_command_buffer_handle_t cb, ur_kernel_handle_t k,
                              bool with_args, uint32_t num_args,
                              const ur_exp_kernel_arg_properties_t *args, uint32_t work_dim,
                              const size_t *offset, const size_t *global, const size_t *local,
                              ocl_replay_cmd_t *out);

/// Submits one run to `q` after `waits`; `*out` is a marker over the run's commands.
cl_int ocl_replay_run(ur_exp_command_buffer_handle_t cb, ur_queue_handle_t q, cl_uint num_waits,
                      const cl_event *waits, cl_event *out);

/// Releases what the recorded commands hold.
void ocl_replay_fini(ur_exp_command_buffer_handle_t cb);

#endif // URC_OCL_COMMAND_BUFFER_REPLAY_H
