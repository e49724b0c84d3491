// SPDX-License-Identifier: MIT
// Recording and replay of command buffers on devices without a usable cl_khr_command_buffer
// (command_buffer_replay.h says how). Replays submit with the same OpenCL calls as the
// urEnqueue* twins, fills through their shared helpers.
#include <stdlib.h>
#include <string.h>

#include "command_buffer_replay.h"
#include "core/alloc.h"
#include "ocl_internal.h"

bool ocl_replay_possible(ur_device_handle_t d) {
    return d->version >= 21 && d->platform->version >= 21;
}

static void cmd_fini(ocl_replay_cmd_t *c) {
    if (c->src != NULL)
        clReleaseMemObject(c->src);
    if (c->dst != NULL)
        clReleaseMemObject(c->dst);
    if (c->kernel != NULL)
        clReleaseKernel(c->kernel);
    if (c->owner != NULL)
        ocl_kernel_release(c->owner);
    for (uint32_t i = 0; i < c->num_mems; ++i)
        clReleaseMemObject(c->mems[i]);
    free(c->mems);
    free(c->pattern);
    free(c->deps);
}

ur_result_t ocl_replay_record(ur_exp_command_buffer_handle_t cb, const ocl_replay_cmd_t *c,
                              uint32_t num_deps, const cl_uint *deps, cl_uint *index) {
    ocl_replay_cmd_t cmd = *c;
    cmd.deps = NULL;
    cmd.num_deps = 0;
    // An in-order buffer runs in append order: each command also follows the previous one.
    bool chain = cb->core.in_order && cb->num_recorded > 0;
    uint32_t n = num_deps + (chain ? 1u : 0u);
    if (n > 0) {
        cmd.deps = urc_calloc(n, sizeof *cmd.deps);
        if (cmd.deps == NULL)
            goto fail;
        for (uint32_t i = 0; i < num_deps; ++i)
            cmd.deps[i] = deps[i];
        if (chain)
            cmd.deps[num_deps] = cb->num_recorded - 1;
        cmd.num_deps = n;
    }
    if (cb->num_recorded == cb->recorded_capacity) {
        uint32_t capacity = cb->recorded_capacity == 0 ? 8 : 2 * cb->recorded_capacity;
        ocl_replay_cmd_t *grown = realloc(cb->recorded, (size_t)capacity * sizeof *grown);
        if (grown == NULL)
            goto fail;
        cb->recorded = grown;
        cb->recorded_capacity = capacity;
    }
    *index = cb->num_recorded;
    cb->recorded[cb->num_recorded++] = cmd;
    return UR_RESULT_SUCCESS;
fail:
    cmd_fini(&cmd);
    return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
}

ur_result_t ocl_replay_kernel(ur_exp_command_buffer_handle_t cb, ur_kernel_handle_t k,
                              bool with_args, uint32_t num_args,
                              const ur_exp_kernel_arg_properties_t *args, uint32_t work_dim,
                              const size_t *offset, const size_t *global, const size_t *local,
                              ocl_replay_cmd_t *out) {
    memset(out, 0, sizeof *out);
    out->op = OCL_REPLAY_KERNEL;
    out->work_dim = work_dim;
    for (uint32_t i = 0; i < work_dim; ++i) {
        out->offset[i] = offset != NULL ? offset[i] : 0;
        out->global[i] = global[i];
        out->local[i] = local != NULL ? local[i] : 0;
    }
    out->has_local = local != NULL;
    // The clone copies the arguments the kernel has now, so later urKernelSetArg* calls and
    // launches do not change what the command runs.
    cl_int err = CL_SUCCESS;
    pthread_mutex_lock(&k->launch_lock);
    ur_result_t r =
        with_args ? ocl_kernel_set_args(k, cb->device, num_args, args) : UR_RESULT_SUCCESS;
    if (r == UR_RESULT_SUCCESS)
        out->kernel = clCloneKernel(k->cl, &err);
    pthread_mutex_unlock(&k->launch_lock);
    if (r != UR_RESULT_SUCCESS)
        return r;
    if (err != CL_SUCCESS)
        return ocl_fail(err, "clCloneKernel");
    ocl_kernel_retain(k);
    out->owner = k;
    // ocl_kernel_set_args accepted every buffer argument as one of the adapter's.
    uint32_t n = 0;
    for (uint32_t i = 0; with_args && i < num_args; ++i)
        n += args[i].type == UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ &&
             args[i].value.memObjTuple.hMem != NULL;
    if (n > 0) {
        out->mems = urc_calloc(n, sizeof *out->mems);
        if (out->mems == NULL) {
            cmd_fini(out);
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        for (uint32_t i = 0; i < num_args; ++i) {
            ur_mem_handle_t m = args[i].value.memObjTuple.hMem;
            if (args[i].type == UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ && m != NULL) {
                clRetainMemObject(m->cl);
                out->mems[out->num_mems++] = m->cl;
            }
        }
    }
    return UR_RESULT_SUCCESS;
}

/// Submits command `c` after `n` events.
static cl_int submit(ur_exp_command_buffer_handle_t cb, ur_queue_handle_t queue,
                     const ocl_replay_cmd_t *c, cl_uint n, const cl_event *waits, cl_event *ev) {
    cl_command_queue q = queue->cl;
    const ocl_ext_t *e = &cb->device->platform->ext;
    switch (c->op) {
    case OCL_REPLAY_KERNEL:
        return clEnqueueNDRangeKernel(q, c->kernel, c->work_dim, c->offset, c->global,
                                      c->has_local ? c->local : NULL, n, waits, ev);
    case OCL_REPLAY_COPY:
        return clEnqueueCopyBuffer(q, c->src, c->dst, c->src_offset, c->dst_offset, c->size, n,
                                   waits, ev);
    case OCL_REPLAY_COPY_RECT:
        return clEnqueueCopyBufferRect(q, c->src, c->dst, c->src_origin, c->dst_origin, c->region,
                                       c->src_row, c->src_slice, c->dst_row, c->dst_slice, n, waits,
                                       ev);
    case OCL_REPLAY_FILL:
        return ocl_fill_buffer_cl(q, c->dst, c->pattern, c->pattern_size, c->dst_offset, c->size, n,
                                  waits, ev);
    case OCL_REPLAY_USM_COPY:
        return e->enqueue_memcpy(q, CL_FALSE, c->dst_ptr, c->src_ptr, c->size, n, waits, ev);
    case OCL_REPLAY_USM_FILL:
        return ocl_usm_fill_cl(cb->context, q, c->dst_ptr, c->pattern, c->pattern_size, c->size, n,
                               waits, ev);
    case OCL_REPLAY_BARRIER:
        return clEnqueueMarkerWithWaitList(q, n, waits, ev);
    }
    return CL_INVALID_OPERATION;
}

cl_int ocl_replay_run(ur_exp_command_buffer_handle_t cb, ur_queue_handle_t q, cl_uint num_waits,
                      const cl_event *waits, cl_event *out) {
    uint32_t count = cb->num_recorded;
    // Per run: the event of each command, then one wait list reused for every command (the
    // run's waits, then the events of the command's dependencies).
    size_t most = 0;
    for (uint32_t i = 0; i < count; ++i)
        if (cb->recorded[i].num_deps > most)
            most = cb->recorded[i].num_deps;
    cl_event *events = urc_calloc((size_t)count + 1, sizeof *events);
    cl_event *list = urc_calloc(num_waits + most + 1, sizeof *list);
    cl_int err = events != NULL && list != NULL ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (num_waits > 0 && list != NULL)
        memcpy(list, waits, num_waits * sizeof *list);
    uint32_t done = 0;
    for (; done < count && err == CL_SUCCESS; ++done) {
        const ocl_replay_cmd_t *c = &cb->recorded[done];
        for (uint32_t d = 0; d < c->num_deps; ++d)
            list[num_waits + d] = events[c->deps[d]];
        cl_uint n = num_waits + c->num_deps;
        err = submit(cb, q, c, n, n > 0 ? list : NULL, &events[done]);
        // A kernel that may assert on a device that cannot assert natively is tracked like
        // an eager launch of it (assert.c).
        if (err == CL_SUCCESS && c->op == OCL_REPLAY_KERNEL && c->owner->may_assert &&
            !cb->device->native_assert &&
            ocl_assert_track(q, c->owner->program, events[done]) != UR_RESULT_SUCCESS)
            err = CL_OUT_OF_HOST_MEMORY;
    }
    if (err == CL_SUCCESS) {
        // The run's event completes with every command (and, for an empty buffer, with the
        // run's wait list).
        err = count > 0 ? clEnqueueMarkerWithWaitList(q->cl, count, events, out)
                        : clEnqueueMarkerWithWaitList(q->cl, num_waits,
                                                      num_waits > 0 ? waits : NULL, out);
    }
    // Commands already submitted by a failed run still run; their events go all the same.
    for (uint32_t i = 0; events != NULL && i < done; ++i)
        if (events[i] != NULL)
            clReleaseEvent(events[i]);
    free(events);
    free(list);
    return err;
}

void ocl_replay_fini(ur_exp_command_buffer_handle_t cb) {
    for (uint32_t i = 0; i < cb->num_recorded; ++i)
        cmd_fini(&cb->recorded[i]);
    URC_FREE(cb->recorded);
    cb->num_recorded = cb->recorded_capacity = 0;
}
