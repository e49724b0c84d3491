// SPDX-License-Identifier: MIT
// Command buffers over cl_khr_command_buffer, updates over
// cl_khr_command_buffer_mutable_dispatch; on devices without a usable extension, over the
// recorder of command_buffer_replay.c. The state machine, sync points, kernel snapshots and
// UR's rules are common/queue/command_buffer.c; this file translates to OpenCL.
#include <stdlib.h>
#include <string.h>

#include "command_buffer_replay.h"
#include "core/alloc.h"
#include "core/release.h"
#include "env/env.h"
#include "memory/fill.h"
#include "ocl_internal.h"
#include "queue/command_append.h"
#include "queue/command_rules.h"

#ifndef CL_INCOMPATIBLE_COMMAND_QUEUE_KHR
#define CL_INCOMPATIBLE_COMMAND_QUEUE_KHR -1141
#endif

#define OCL_MAKE_VERSION(major, minor, patch) (((major) << 22) | ((minor) << 12) | (patch))

/// The version of extension `name` the device reports, or 0 (OpenCL 3.0's query; older
/// devices report none, and the adapter then trusts no version).
static cl_version extension_version(cl_device_id dev, const char *name) {
    size_t size = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &size) != CL_SUCCESS ||
        size == 0)
        return 0;
    cl_name_version *list = malloc(size);
    cl_version v = 0;
    if (list != NULL &&
        clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, list, NULL) == CL_SUCCESS)
        for (size_t i = 0; i < size / sizeof *list; ++i)
            if (strncmp(list[i].name, name, sizeof list[i].name) == 0)
                v = list[i].version;
    free(list);
    return v;
}

/// The native path: true when the device has a usable cl_khr_command_buffer.
static bool detect_native(ur_device_handle_t d, const char *extensions) {
    const ocl_cmdbuf_ext_t *e = &d->platform->ext.cb;
    // The entry points take their final parameters from version 0.9.5 on; PoCL 3.1 reports
    // 0.9.0, whose functions have other signatures (calling them as 1.0's crashes), so such a
    // device takes the replay path.
    if (!urc_device_info_word_listed(extensions, "cl_khr_command_buffer") ||
        extension_version(d->cl, "cl_khr_command_buffer") < OCL_MAKE_VERSION(0, 9, 5) ||
        e->create == NULL || e->finalize == NULL || e->retain == NULL || e->release == NULL ||
        e->enqueue == NULL || e->barrier == NULL || e->ndrange == NULL || e->copy == NULL ||
        e->copy_rect == NULL || e->fill == NULL)
        return false;
    cl_bitfield caps = 0;
    cl_command_queue_properties required = 0;
    if (clGetDeviceInfo(d->cl, OCL_DEVICE_COMMAND_BUFFER_CAPABILITIES, sizeof caps, &caps, NULL) !=
            CL_SUCCESS ||
        clGetDeviceInfo(d->cl, OCL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPS, sizeof required,
                        &required, NULL) != CL_SUCCESS)
        return false;
    d->cb_caps.supported = true;
    d->cb_simultaneous = (caps & OCL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE) != 0;
    d->cb_queue_properties = required;
    // OpenCL command buffers take no events: sync points only (EVENT_SUPPORT false).
    d->cb_caps.events = false;
    // Mutable dispatch 0.9.3 has the update function urc calls (num_configs, types, configs).
    cl_bitfield mutable_caps = 0;
    if (urc_device_info_word_listed(extensions, "cl_khr_command_buffer_mutable_dispatch") &&
        extension_version(d->cl, "cl_khr_command_buffer_mutable_dispatch") >=
            OCL_MAKE_VERSION(0, 9, 3) &&
        e->update != NULL &&
        clGetDeviceInfo(d->cl, OCL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES, sizeof mutable_caps,
                        &mutable_caps, NULL) == CL_SUCCESS) {
        uint32_t u = 0;
        if (mutable_caps & OCL_MUTABLE_DISPATCH_ARGUMENTS)
            u |= UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_ARGUMENTS;
        if (mutable_caps & OCL_MUTABLE_DISPATCH_LOCAL_SIZE)
            u |= UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_LOCAL_WORK_SIZE;
        if (mutable_caps & OCL_MUTABLE_DISPATCH_GLOBAL_SIZE)
            u |= UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_SIZE;
        if (mutable_caps & OCL_MUTABLE_DISPATCH_GLOBAL_OFFSET)
            u |= UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_OFFSET;
        // No kernel switch and no events: the extension has neither.
        d->cb_caps.update_caps = u;
    }
    return true;
}

void ocl_cb_detect(ur_device_handle_t d, const char *extensions) {
    memset(&d->cb_caps, 0, sizeof d->cb_caps);
    d->cb_replay = false;
    if (!urc_env_bool(URC_ENV_OPENCL_FORCE_COMMAND_BUFFER_REPLAY, false) &&
        detect_native(d, extensions))
        return;
    memset(&d->cb_caps, 0, sizeof d->cb_caps);
    if (!ocl_replay_possible(d))
        return;
    // Replayed buffers: sync points only (no events), nothing updatable, and each run after
    // the previous one as on the native path.
    d->cb_caps.supported = true;
    d->cb_replay = true;
    d->cb_simultaneous = false;
    d->cb_queue_properties = 0;
}

// ---- fill images ----------------------------------------------------------------------------
// OpenCL's fill commands take patterns of up to 128 bytes (SVM fills: a power of two, on a
// destination aligned to it), where urEnqueue*Fill takes any pattern that divides the size. As
// the eager fills write a host image of the range, such an append copies from the image, made
// at append in memory the command buffer holds (core.held) until it goes.

typedef struct fill_image_t {
    ur_context_handle_t context; // not retained: the command buffer holds it
    cl_mem buffer;               // for a buffer fill
    void *usm;                   // for a USM fill: host USM
} fill_image_t;

static void fill_image_free(void *image) {
    fill_image_t *f = image;
    if (f->buffer != NULL)
        clReleaseMemObject(f->buffer);
    if (f->usm != NULL)
        f->context->platform->ext.mem_blocking_free(f->context->cl, f->usm);
    free(f);
}

/// Makes the image of `size` bytes of `pattern`, in a buffer or in host USM, held by `cb`.
static cl_int fill_image(ur_exp_command_buffer_handle_t cb, const void *pattern,
                         size_t pattern_size, size_t size, bool usm, fill_image_t **out) {
    fill_image_t *f = urc_calloc(1, sizeof *f);
    if (f != NULL)
        f->context = cb->context;
    uint8_t *bytes = urc_fill2d_image(pattern, pattern_size, size, 1);
    cl_int err = f != NULL && bytes != NULL ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS && usm) {
        const ocl_ext_t *e = &cb->context->platform->ext;
        f->usm = e->host_mem_alloc(cb->context->cl, NULL, size, 0, &err);
        if (err == CL_SUCCESS)
            memcpy(f->usm, bytes, size);
    } else if (err == CL_SUCCESS) {
        f->buffer = clCreateBuffer(cb->context->cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, size,
                                   bytes, &err);
    }
    free(bytes);
    if (err == CL_SUCCESS && urc_cb_hold(&cb->core, f) != UR_RESULT_SUCCESS)
        err = CL_OUT_OF_HOST_MEMORY;
    if (err != CL_SUCCESS) {
        if (f != NULL)
            fill_image_free(f);
        return err;
    }
    *out = f;
    return CL_SUCCESS;
}

// ---- the buffer ------------------------------------------------------------------------------

static void release_kernel(void *kernel) {
    (void)ocl_kernel_release(kernel);
}

// What an OpenCL buffer holds are fill images (the native buffer retains its own kernels).
static const urc_cb_release_t records = {sizeof(struct ur_exp_command_buffer_command_handle_t_),
                                         release_kernel, fill_image_free, NULL, NULL};

static void cb_destroy(ur_exp_command_buffer_handle_t cb) {
    const ocl_cmdbuf_ext_t *e = &cb->device->platform->ext.cb;
    if (cb->last_run != NULL)
        clReleaseEvent(cb->last_run);
    ocl_replay_fini(cb);
    if (cb->cl != NULL)
        e->release(cb->cl);
    if (cb->queue != NULL)
        clReleaseCommandQueue(cb->queue);
    pthread_mutex_destroy(&cb->run_lock);
    urc_cb_release_records(&cb->core, &records);
    ocl_context_release_internal(cb->context);
    URC_OBJECT_FREE(cb);
}

ur_result_t ocl_command_buffer_create_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                          const ur_exp_command_buffer_desc_t *pCommandBufferDesc,
                                          ur_exp_command_buffer_handle_t *phCommandBuffer) {
    bool in_context = false;
    for (uint32_t i = 0; i < hContext->num_devices; ++i)
        in_context = in_context || hContext->devices[i] == hDevice;
    ur_exp_command_buffer_handle_t cb = NULL;
    OCL_TRY_UR(URC_CB_CREATE(struct ur_exp_command_buffer_handle_t_, in_context, pCommandBufferDesc,
                             &hDevice->cb_caps, hContext, &ocl_ddi, &cb));
    cb->context = hContext;
    cb->device = hDevice;
    ocl_rules(hContext, hDevice, &cb->core.rules);
    pthread_mutex_init(&cb->run_lock, NULL);
    ocl_context_retain_internal(hContext);
    cb->replay = hDevice->cb_replay;
    if (cb->replay) {
        *phCommandBuffer = cb;
        return UR_RESULT_SUCCESS;
    }
    // An in-order queue of the device records the commands, so they also run in append order
    // (a valid order for a buffer created out of order too: sync points then add nothing).
    cl_queue_properties qp[] = {
        CL_QUEUE_PROPERTIES,
        hDevice->cb_queue_properties |
            (pCommandBufferDesc->enableProfiling ? CL_QUEUE_PROFILING_ENABLE : 0),
        0};
    cl_int err = CL_SUCCESS;
    cb->queue = clCreateCommandQueueWithProperties(hContext->cl, hDevice->cl, qp, &err);
    if (err == CL_SUCCESS) {
        cl_command_buffer_properties_khr props[] = {OCL_COMMAND_BUFFER_FLAGS,
                                                    OCL_COMMAND_BUFFER_MUTABLE, 0};
        const ocl_cmdbuf_ext_t *e = &hDevice->platform->ext.cb;
        cb->cl = e->create(1, &cb->queue, pCommandBufferDesc->isUpdatable ? props : NULL, &err);
    }
    if (err != CL_SUCCESS) {
        cb_destroy(cb);
        return ocl_fail(err, "clCreateCommandBufferKHR");
    }
    *phCommandBuffer = cb;
    return UR_RESULT_SUCCESS;
}

// OpenCL keeps a pending buffer alive until its runs end, so a release need not wait.
URC_COMMAND_BUFFER_RETAIN_RELEASE(ocl, , cb_destroy)

static ur_result_t cb_close(ur_exp_command_buffer_handle_t cb) {
    if (cb->replay)
        return UR_RESULT_SUCCESS;
    cl_int err = cb->device->platform->ext.cb.finalize(cb->cl);
    return err == CL_SUCCESS ? UR_RESULT_SUCCESS : ocl_fail(err, "clFinalizeCommandBufferKHR");
}

URC_COMMAND_BUFFER_FINALIZE_INFO(ocl, , cb_close)

ur_result_t ocl_command_buffer_get_native_handle_exp(ur_exp_command_buffer_handle_t hCommandBuffer,
                                                     ur_native_handle_t *phNativeCommandBuffer) {
    if (hCommandBuffer->replay)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "a replayed command buffer has no OpenCL command buffer");
    *phNativeCommandBuffer = (ur_native_handle_t)hCommandBuffer->cl;
    return UR_RESULT_SUCCESS;
}

// ---- appends ---------------------------------------------------------------------------------

/// One append in flight: the buffer's lock is held between begin and end, and the wait list
/// is in OpenCL's sync points.
typedef struct append_t {
    ur_exp_command_buffer_handle_t cb;
    const ocl_cmdbuf_ext_t *e;
    cl_uint num_sync;
    ocl_sync_point_t *sync; // NULL when empty
    ocl_sync_point_t inline_sync[16];
    ocl_sync_point_t out; // the command's own sync point
} append_t;

static ur_result_t append_begin(append_t *a, ur_exp_command_buffer_handle_t cb, uint32_t n,
                                const ur_exp_command_buffer_sync_point_t *sync, bool want_command,
                                uint32_t num_events, ur_event_handle_t *phEvent) {
    a->cb = cb;
    a->e = &cb->device->platform->ext.cb;
    a->num_sync = 0;
    a->sync = NULL;
    a->out = 0;
    if (phEvent != NULL)
        *phEvent = NULL;
    ocl_sync_point_t *list = n <= 16 ? a->inline_sync : urc_calloc(n, sizeof *list);
    if (list == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ur_result_t r =
        urc_cb_append_begin(&cb->core, n, sync, want_command, num_events > 0 || phEvent != NULL);
    if (r != UR_RESULT_SUCCESS) {
        if (list != a->inline_sync)
            free(list);
        return r;
    }
    for (uint32_t i = 0; i < n; ++i)
        list[i] = (ocl_sync_point_t)urc_cb_native_sync(&cb->core, sync[i]);
    a->num_sync = n;
    a->sync = n > 0 ? list : NULL;
    if (n == 0 && list != a->inline_sync)
        free(list);
    return UR_RESULT_SUCCESS;
}

/// Ends an append with the OpenCL result of the recording call.
static ur_result_t append_end(append_t *a, cl_int err, const char *what, void *command,
                              ur_exp_command_buffer_sync_point_t *pSyncPoint) {
    if (a->sync != NULL && a->sync != a->inline_sync)
        free(a->sync);
    ur_result_t r = err == CL_SUCCESS ? UR_RESULT_SUCCESS : ocl_fail(err, what);
    return urc_cb_append_end(&a->cb->core, r, a->out, command, pSyncPoint);
}

/// Ends an append on the replay path: `c` is recorded after the append's sync points (the
/// buffer takes over its references, also on failure).
static ur_result_t append_record(append_t *a, const ocl_replay_cmd_t *c,
                                 ur_exp_command_buffer_sync_point_t *pSyncPoint) {
    cl_uint index = 0;
    ur_result_t r = ocl_replay_record(a->cb, c, a->num_sync, a->sync, &index);
    if (a->sync != NULL && a->sync != a->inline_sync)
        free(a->sync);
    return urc_cb_append_end(&a->cb->core, r, index, NULL, pSyncPoint);
}

/// A recorded memory command of `op` on buffers `src` and `dst` (either may be NULL), each
/// retained for the command.
static ocl_replay_cmd_t mem_command(ocl_replay_op_t op, ur_mem_handle_t src, ur_mem_handle_t dst) {
    ocl_replay_cmd_t c = {.op = op};
    if (src != NULL)
        clRetainMemObject(c.src = src->cl);
    if (dst != NULL)
        clRetainMemObject(c.dst = dst->cl);
    return c;
}

/// Ends an append that failed before reaching OpenCL.
static ur_result_t append_abort(append_t *a, ur_result_t r) {
    if (a->sync != NULL && a->sync != a->inline_sync)
        free(a->sync);
    return urc_cb_append_end(&a->cb->core, r, 0, NULL, NULL);
}

static ur_result_t check_mem(ur_exp_command_buffer_handle_t cb, ur_mem_handle_t m) {
    OCL_CHECK_HANDLE(m, URC_KIND_MEM, UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    if (m->context != cb->context)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "the buffer belongs to another context than the command buffer");
    return UR_RESULT_SUCCESS;
}

/// An OpenCL kernel belongs to one context, built for all its devices.
static bool kernel_context(ur_exp_command_buffer_handle_t cb, ur_kernel_handle_t k,
                           const void **context) {
    (void)cb;
    if (!ocl_is(k, URC_KIND_KERNEL))
        return false;
    *context = k->context;
    return true;
}

static ur_result_t append_kernel(ur_exp_command_buffer_handle_t cb, const urc_append_kernel_t *k,
                                 const urc_append_sync_t *s) {
    // Check the launch (and the kernels' contexts) once, into the command's snapshot.
    urc_cb_command_t snapshot;
    ur_result_t r = urc_append_kernel_record(&snapshot, &cb->core, cb, k, kernel_context);
    if (r != UR_RESULT_SUCCESS)
        return r;
    ur_exp_command_buffer_command_handle_t cmd = NULL;
    if (s->out_command != NULL && cb->core.updatable) {
        cmd = URC_NEW(struct ur_exp_command_buffer_command_handle_t_);
        if (cmd == NULL) {
            urc_cb_command_fini(&snapshot);
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
    }
    append_t a;
    r = append_begin(&a, cb, s->num_sync, s->sync, s->out_command != NULL, s->num_events,
                     s->out_event);
    if (r != UR_RESULT_SUCCESS) {
        urc_cb_command_fini(&snapshot);
        free(cmd);
        return r;
    }
    ur_kernel_handle_t kernel = k->kernel;
    // A kernel's compiled local size is used when none is given, as eager launches do.
    const size_t *local = k->local;
    size_t compiled[3] = {0, 0, 0};
    if (local == NULL &&
        clGetKernelWorkGroupInfo(kernel->cl, cb->device->cl, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                 sizeof compiled, compiled, NULL) == CL_SUCCESS &&
        compiled[0] != 0)
        local = compiled;
    if (cb->replay) {
        // Nothing is updatable here, so there is no command handle to make.
        ocl_replay_cmd_t c;
        urc_cb_command_fini(&snapshot);
        free(cmd);
        r = ocl_replay_kernel(cb, kernel, k->with_args, k->num_args, k->args, k->work_dim,
                              k->offset, k->global, local, &c);
        return r != UR_RESULT_SUCCESS ? append_abort(&a, r) : append_record(&a, &c, s->out_sync);
    }
    cl_uint fields = cb->core.updatable
                         ? OCL_MUTABLE_DISPATCH_GLOBAL_OFFSET | OCL_MUTABLE_DISPATCH_GLOBAL_SIZE |
                               OCL_MUTABLE_DISPATCH_LOCAL_SIZE | OCL_MUTABLE_DISPATCH_ARGUMENTS
                         : 0;
    ocl_command_properties_t props[] = {OCL_MUTABLE_DISPATCH_UPDATABLE_FIELDS, fields, 0};
    cl_mutable_command_khr mutable_cmd = NULL;
    // The arguments are captured when the command is recorded: set them and record under
    // the kernel's launch lock, as an eager launch does.
    pthread_mutex_lock(&kernel->launch_lock);
    r = k->with_args ? ocl_kernel_set_args(kernel, cb->device, k->num_args, k->args)
                     : UR_RESULT_SUCCESS;
    cl_int err = CL_SUCCESS;
    if (r == UR_RESULT_SUCCESS)
        err = a.e->ndrange(cb->cl, NULL, cb->core.updatable ? props : NULL, kernel->cl, k->work_dim,
                           k->offset, k->global, local, a.num_sync, a.sync, &a.out,
                           cmd != NULL ? &mutable_cmd : NULL);
    pthread_mutex_unlock(&kernel->launch_lock);
    if (r != UR_RESULT_SUCCESS || err != CL_SUCCESS) {
        urc_cb_command_fini(&snapshot);
        free(cmd);
        return r != UR_RESULT_SUCCESS
                   ? append_abort(&a, r)
                   : append_end(&a, err, "clCommandNDRangeKernelKHR", NULL, NULL);
    }
    if (cmd != NULL) {
        urc_object_init(&cmd->obj, &ocl_ddi, URC_KIND_COMMAND_BUFFER_COMMAND);
        cmd->core = snapshot;
        cmd->buffer = cb;
        cmd->cl = mutable_cmd;
        // The snapshot's kernels stay valid as long as the command can switch to them.
        for (uint32_t i = 0; i < snapshot.k.num_alternatives; ++i)
            ocl_kernel_retain((ur_kernel_handle_t)snapshot.k.alternatives[i]);
        *s->out_command = cmd;
    } else {
        urc_cb_command_fini(&snapshot);
    }
    return append_end(&a, CL_SUCCESS, "clCommandNDRangeKernelKHR", cmd, s->out_sync);
}

#define APPEND_KERNEL append_kernel
#define PREFIX        ocl
#include "queue/command_append_kernel.inc"

/// The rule of the command's urEnqueue* twin (common/queue/command_rules.h), checked before
/// the append begins.
#define APPEND_RULE(cb, rule, ...) OCL_TRY_UR(rule(&(cb)->core.rules, __VA_ARGS__))

/// The start of every append other than kernels: those commands cannot be updated, so a
/// command handle is only checked for (an updatable buffer gets none).
#define APPEND_BEGIN(a, cb)                                                                        \
    OCL_TRY_UR(append_begin(&(a), (cb), numSyncPointsInWaitList, pSyncPointWaitList,               \
                            phCommand != NULL, numEventsInWaitList, phEvent));                     \
    if (phCommand != NULL)                                                                         \
    *phCommand = NULL

ur_result_t ocl_command_buffer_append_usm_memcpy_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, void *pDst, const void *pSrc, size_t size,
    uint32_t numSyncPointsInWaitList, const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList,
    uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,
    ur_exp_command_buffer_sync_point_t *pSyncPoint, ur_event_handle_t *phEvent,
    ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)phEventWaitList;
    OCL_TRY_UR(ocl_usm_required(hCommandBuffer->device, "urCommandBufferAppendUSMMemcpyExp"));
    APPEND_RULE(hCommandBuffer, urc_rule_usm_memcpy, pDst, pSrc, size);
    append_t a;
    APPEND_BEGIN(a, hCommandBuffer);
    if (hCommandBuffer->replay) {
        if (hCommandBuffer->device->platform->ext.enqueue_memcpy == NULL)
            return append_abort(&a, urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                                                  "clEnqueueMemcpyINTEL is not available"));
        ocl_replay_cmd_t c = {
            .op = OCL_REPLAY_USM_COPY, .dst_ptr = pDst, .src_ptr = pSrc, .size = size};
        return append_record(&a, &c, pSyncPoint);
    }
    if (a.e->svm_memcpy == NULL)
        return append_abort(&a, urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                                              "clCommandSVMMemcpyKHR is not available"));
    cl_int err = a.e->svm_memcpy(hCommandBuffer->cl, NULL, NULL, pDst, pSrc, size, a.num_sync,
                                 a.sync, &a.out, NULL);
    return append_end(&a, err, "clCommandSVMMemcpyKHR", NULL, pSyncPoint);
}

ur_result_t ocl_command_buffer_append_usm_fill_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, void *pMemory, const void *pPattern,
    size_t patternSize, size_t size, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_exp_command_buffer_sync_point_t *pSyncPoint,
    ur_event_handle_t *phEvent, ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)phEventWaitList;
    OCL_TRY_UR(ocl_usm_required(hCommandBuffer->device, "urCommandBufferAppendUSMFillExp"));
    APPEND_RULE(hCommandBuffer, urc_rule_usm_fill, pMemory, patternSize, size);
    append_t a;
    APPEND_BEGIN(a, hCommandBuffer);
    if (hCommandBuffer->replay) {
        const ocl_ext_t *x = &hCommandBuffer->device->platform->ext;
        if (x->enqueue_mem_fill == NULL || x->enqueue_memcpy == NULL)
            return append_abort(&a, urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                                                  "clEnqueueMemFillINTEL is not available"));
        ocl_replay_cmd_t c = {.op = OCL_REPLAY_USM_FILL,
                              .dst_ptr = pMemory,
                              .size = size,
                              .pattern = urc_memdup(pPattern, patternSize),
                              .pattern_size = patternSize};
        if (c.pattern == NULL)
            return append_abort(&a, UR_RESULT_ERROR_OUT_OF_HOST_MEMORY);
        return append_record(&a, &c, pSyncPoint);
    }
    if (a.e->svm_fill == NULL || a.e->svm_memcpy == NULL)
        return append_abort(&a, urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                                              "clCommandSVMMemFillKHR is not available"));
    if (ocl_usm_fill_takes(pMemory, patternSize)) {
        cl_int err = a.e->svm_fill(hCommandBuffer->cl, NULL, NULL, pMemory, pPattern, patternSize,
                                   size, a.num_sync, a.sync, &a.out, NULL);
        return append_end(&a, err, "clCommandSVMMemFillKHR", NULL, pSyncPoint);
    }
    fill_image_t *image = NULL;
    cl_int err = fill_image(hCommandBuffer, pPattern, patternSize, size, true, &image);
    if (err == CL_SUCCESS)
        err = a.e->svm_memcpy(hCommandBuffer->cl, NULL, NULL, pMemory, image->usm, size, a.num_sync,
                              a.sync, &a.out, NULL);
    return append_end(&a, err, "clCommandSVMMemcpyKHR", NULL, pSyncPoint);
}

ur_result_t ocl_command_buffer_append_mem_buffer_copy_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, ur_mem_handle_t hSrcMem, ur_mem_handle_t hDstMem,
    size_t srcOffset, size_t dstOffset, size_t size, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_exp_command_buffer_sync_point_t *pSyncPoint,
    ur_event_handle_t *phEvent, ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)phEventWaitList;
    OCL_TRY_UR(check_mem(hCommandBuffer, hSrcMem));
    OCL_TRY_UR(check_mem(hCommandBuffer, hDstMem));
    OCL_TRY_UR(urc_rule_buffer_range(hSrcMem->size, srcOffset, size));
    OCL_TRY_UR(urc_rule_buffer_range(hDstMem->size, dstOffset, size));
    append_t a;
    APPEND_BEGIN(a, hCommandBuffer);
    if (hCommandBuffer->replay) {
        ocl_replay_cmd_t c = mem_command(OCL_REPLAY_COPY, hSrcMem, hDstMem);
        c.src_offset = srcOffset;
        c.dst_offset = dstOffset;
        c.size = size;
        return append_record(&a, &c, pSyncPoint);
    }
    cl_int err = a.e->copy(hCommandBuffer->cl, NULL, NULL, hSrcMem->cl, hDstMem->cl, srcOffset,
                           dstOffset, size, a.num_sync, a.sync, &a.out, NULL);
    return append_end(&a, err, "clCommandCopyBufferKHR", NULL, pSyncPoint);
}

ur_result_t ocl_command_buffer_append_mem_buffer_copy_rect_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, ur_mem_handle_t hSrcMem, ur_mem_handle_t hDstMem,
    ur_rect_offset_t srcOrigin, ur_rect_offset_t dstOrigin, ur_rect_region_t region,
    size_t srcRowPitch, size_t srcSlicePitch, size_t dstRowPitch, size_t dstSlicePitch,
    uint32_t numSyncPointsInWaitList, const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList,
    uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,
    ur_exp_command_buffer_sync_point_t *pSyncPoint, ur_event_handle_t *phEvent,
    ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)phEventWaitList;
    OCL_TRY_UR(check_mem(hCommandBuffer, hSrcMem));
    OCL_TRY_UR(check_mem(hCommandBuffer, hDstMem));
    urc_rect_side_t side;
    OCL_TRY_UR(urc_rule_rect(&side, srcOrigin, &region, srcRowPitch, srcSlicePitch, hSrcMem->size));
    OCL_TRY_UR(urc_rule_rect(&side, dstOrigin, &region, dstRowPitch, dstSlicePitch, hDstMem->size));
    const size_t so[3] = {srcOrigin.x, srcOrigin.y, srcOrigin.z};
    const size_t dO[3] = {dstOrigin.x, dstOrigin.y, dstOrigin.z};
    const size_t rg[3] = {region.width, region.height, region.depth};
    append_t a;
    APPEND_BEGIN(a, hCommandBuffer);
    if (hCommandBuffer->replay) {
        ocl_replay_cmd_t c = mem_command(OCL_REPLAY_COPY_RECT, hSrcMem, hDstMem);
        memcpy(c.src_origin, so, sizeof so);
        memcpy(c.dst_origin, dO, sizeof dO);
        memcpy(c.region, rg, sizeof rg);
        c.src_row = srcRowPitch;
        c.src_slice = srcSlicePitch;
        c.dst_row = dstRowPitch;
        c.dst_slice = dstSlicePitch;
        return append_record(&a, &c, pSyncPoint);
    }
    cl_int err = a.e->copy_rect(hCommandBuffer->cl, NULL, NULL, hSrcMem->cl, hDstMem->cl, so, dO,
                                rg, srcRowPitch, srcSlicePitch, dstRowPitch, dstSlicePitch,
                                a.num_sync, a.sync, &a.out, NULL);
    return append_end(&a, err, "clCommandCopyBufferRectKHR", NULL, pSyncPoint);
}

ur_result_t ocl_command_buffer_append_mem_buffer_fill_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, ur_mem_handle_t hBuffer, const void *pPattern,
    size_t patternSize, size_t offset, size_t size, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_exp_command_buffer_sync_point_t *pSyncPoint,
    ur_event_handle_t *phEvent, ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)phEventWaitList;
    OCL_TRY_UR(check_mem(hCommandBuffer, hBuffer));
    OCL_TRY_UR(urc_rule_buffer_fill(hBuffer->size, offset, patternSize, size));
    append_t a;
    APPEND_BEGIN(a, hCommandBuffer);
    if (hCommandBuffer->replay) {
        ocl_replay_cmd_t c = mem_command(OCL_REPLAY_FILL, NULL, hBuffer);
        c.dst_offset = offset;
        c.size = size;
        c.pattern_size = patternSize;
        c.pattern = urc_memdup(pPattern, patternSize);
        if (c.pattern == NULL) {
            clReleaseMemObject(c.dst);
            return append_abort(&a, UR_RESULT_ERROR_OUT_OF_HOST_MEMORY);
        }
        return append_record(&a, &c, pSyncPoint);
    }
    if (patternSize <= 128) {
        cl_int err = a.e->fill(hCommandBuffer->cl, NULL, NULL, hBuffer->cl, pPattern, patternSize,
                               offset, size, a.num_sync, a.sync, &a.out, NULL);
        return append_end(&a, err, "clCommandFillBufferKHR", NULL, pSyncPoint);
    }
    fill_image_t *image = NULL;
    cl_int err = fill_image(hCommandBuffer, pPattern, patternSize, size, false, &image);
    if (err == CL_SUCCESS)
        err = a.e->copy(hCommandBuffer->cl, NULL, NULL, image->buffer, hBuffer->cl, 0, offset, size,
                        a.num_sync, a.sync, &a.out, NULL);
    return append_end(&a, err, "clCommandCopyBufferKHR", NULL, pSyncPoint);
}

/// Prefetch and advice are hints OpenCL has no command for: they become a barrier over
/// their wait list, so their sync point still orders what depends on them.
static ur_result_t
append_hint(ur_exp_command_buffer_handle_t hCommandBuffer, uint32_t numSyncPointsInWaitList,
            const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList,
            uint32_t numEventsInWaitList, ur_exp_command_buffer_sync_point_t *pSyncPoint,
            ur_event_handle_t *phEvent, ur_exp_command_buffer_command_handle_t *phCommand) {
    append_t a;
    APPEND_BEGIN(a, hCommandBuffer);
    if (hCommandBuffer->replay) {
        ocl_replay_cmd_t c = {.op = OCL_REPLAY_BARRIER};
        return append_record(&a, &c, pSyncPoint);
    }
    cl_int err = a.e->barrier(hCommandBuffer->cl, NULL, NULL, a.num_sync, a.sync, &a.out, NULL);
    return append_end(&a, err, "clCommandBarrierWithWaitListKHR", NULL, pSyncPoint);
}

ur_result_t ocl_command_buffer_append_usm_prefetch_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, const void *pMemory, size_t size,
    ur_usm_migration_flags_t flags, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_exp_command_buffer_sync_point_t *pSyncPoint,
    ur_event_handle_t *phEvent, ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)flags, (void)phEventWaitList;
    OCL_TRY_UR(ocl_usm_required(hCommandBuffer->device, "urCommandBufferAppendUSMPrefetchExp"));
    APPEND_RULE(hCommandBuffer, urc_rule_usm_hint, pMemory, size);
    return append_hint(hCommandBuffer, numSyncPointsInWaitList, pSyncPointWaitList,
                       numEventsInWaitList, pSyncPoint, phEvent, phCommand);
}

ur_result_t ocl_command_buffer_append_usm_advise_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, const void *pMemory, size_t size,
    ur_usm_advice_flags_t advice, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, ur_exp_command_buffer_sync_point_t *pSyncPoint,
    ur_event_handle_t *phEvent, ur_exp_command_buffer_command_handle_t *phCommand) {
    (void)advice, (void)phEventWaitList;
    OCL_TRY_UR(ocl_usm_required(hCommandBuffer->device, "urCommandBufferAppendUSMAdviseExp"));
    APPEND_RULE(hCommandBuffer, urc_rule_usm_hint, pMemory, size);
    return append_hint(hCommandBuffer, numSyncPointsInWaitList, pSyncPointWaitList,
                       numEventsInWaitList, pSyncPoint, phEvent, phCommand);
}

ur_result_t ocl_command_buffer_append_native_command_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer,
    ur_exp_command_buffer_native_command_function_t pfnNativeCommand, void *pData,
    ur_exp_command_buffer_handle_t hChildCommandBuffer, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList,
    ur_exp_command_buffer_sync_point_t *pSyncPoint) {
    if (hChildCommandBuffer != NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "OpenCL command buffers take no child command buffers");
    if (hCommandBuffer->replay)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "a replayed command buffer has no OpenCL command buffer to record "
                             "native commands into");
    append_t a;
    OCL_TRY_UR(append_begin(&a, hCommandBuffer, numSyncPointsInWaitList, pSyncPointWaitList, false,
                            0, NULL));
    // The user's commands go between two barriers: the first waits for the wait list, the
    // second's sync point follows everything the callback recorded.
    cl_int err = a.e->barrier(hCommandBuffer->cl, NULL, NULL, a.num_sync, a.sync, NULL, NULL);
    if (err == CL_SUCCESS) {
        pfnNativeCommand(pData);
        err = a.e->barrier(hCommandBuffer->cl, NULL, NULL, 0, NULL, &a.out, NULL);
    }
    return append_end(&a, err, "clCommandBarrierWithWaitListKHR", NULL, pSyncPoint);
}

// ---- runs ------------------------------------------------------------------------------------

ur_result_t ocl_enqueue_command_buffer_exp(ur_queue_handle_t hQueue,
                                           ur_exp_command_buffer_handle_t hCommandBuffer,
                                           uint32_t numEventsInWaitList,
                                           const ur_event_handle_t *phEventWaitList,
                                           ur_event_handle_t *phEvent) {
    ur_exp_command_buffer_handle_t cb = hCommandBuffer;
    OCL_TRY_UR(urc_cb_check_enqueue(&cb->core, hQueue->context == cb->context &&
                                                   hQueue->device == cb->device));
    const ocl_cmdbuf_ext_t *e = &cb->device->platform->ext.cb;
    // Room for the caller's events and the previous run.
    ocl_wait_list_t wl;
    ur_event_handle_t *all = NULL;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList));
    cl_event *waits = wl.events;
    cl_uint num_waits = wl.count;
    cl_event extra[9];
    pthread_mutex_lock(&cb->run_lock);
    if (!cb->device->cb_simultaneous && cb->last_run != NULL) {
        // The device cannot run the buffer twice at once: this run waits for the last one.
        if (num_waits < 8) {
            if (num_waits > 0)
                memcpy(extra, waits, num_waits * sizeof *waits);
            waits = extra;
        } else {
            all = urc_calloc(num_waits + 1u, sizeof(cl_event));
            if (all == NULL) {
                pthread_mutex_unlock(&cb->run_lock);
                ocl_wait_list_fini(&wl);
                return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            }
            memcpy(all, waits, num_waits * sizeof *waits);
            waits = (cl_event *)all;
        }
        waits[num_waits++] = cb->last_run;
    }
    cl_event ev = NULL;
    cl_command_queue q = hQueue->cl;
    cl_int err = cb->replay ? ocl_replay_run(cb, hQueue, num_waits, waits, &ev)
                            : e->enqueue(1, &q, cb->cl, num_waits, waits, &ev);
    if (!cb->replay && err == CL_INCOMPATIBLE_COMMAND_QUEUE_KHR) {
        // The caller's queue differs from the recording queue in properties (out of order,
        // say): run on the recording queue, fenced by markers on the caller's queue.
        cl_event before = NULL, done = NULL;
        err = clEnqueueMarkerWithWaitList(q, num_waits, waits, &before);
        if (err == CL_SUCCESS)
            err = e->enqueue(0, NULL, cb->cl, 1, &before, &done);
        if (err == CL_SUCCESS)
            err = clEnqueueBarrierWithWaitList(q, 1, &done, &ev);
        if (before != NULL)
            clReleaseEvent(before);
        if (done != NULL)
            clReleaseEvent(done);
    }
    if (err == CL_SUCCESS) {
        if (cb->last_run != NULL)
            clReleaseEvent(cb->last_run);
        cb->last_run = ev;
        clRetainEvent(ev);
    }
    pthread_mutex_unlock(&cb->run_lock);
    free(all);
    ur_result_t r =
        ocl_enqueue_done(err, cb->replay ? "command buffer replay" : "clEnqueueCommandBufferKHR",
                         &wl, hQueue, UR_COMMAND_ENQUEUE_COMMAND_BUFFER_EXP, ev, phEvent);
    if (err == CL_SUCCESS && phEvent == NULL)
        clReleaseEvent(ev);
    return r;
}

// ---- updates ---------------------------------------------------------------------------------

static ur_exp_command_buffer_command_handle_t command_of(ur_exp_command_buffer_command_handle_t c) {
    return ocl_is(c, URC_KIND_COMMAND_BUFFER_COMMAND) ? c : NULL;
}

/// Translates one checked update into OpenCL's form; `args` has room for every argument.
static ur_result_t make_config(const ur_exp_command_buffer_update_kernel_launch_desc_t *u,
                               ocl_mutable_dispatch_config_t *cfg, ocl_mutable_arg_t *args,
                               ocl_mutable_arg_t *svm_args, cl_mem *mems, size_t *launch) {
    ur_exp_command_buffer_command_handle_t c = u->hCommand;
    memset(cfg, 0, sizeof *cfg);
    cfg->command = c->cl;
    cl_uint n = 0;
    for (uint32_t i = 0; i < u->numNewValueArgs; ++i) {
        const ur_exp_command_buffer_update_value_arg_desc_t *v = &u->pNewValueArgList[i];
        // A value argument without a value is local memory of argSize bytes.
        args[n++] = (ocl_mutable_arg_t){v->argIndex, v->argSize, v->pNewValueArg};
    }
    for (uint32_t i = 0; i < u->numNewMemObjArgs; ++i) {
        const ur_exp_command_buffer_update_memobj_arg_desc_t *m = &u->pNewMemObjArgList[i];
        if (m->hNewMemObjArg != NULL && !ocl_is(m->hNewMemObjArg, URC_KIND_MEM))
            return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                                 "argument %u is not an OpenCL adapter buffer", m->argIndex);
        mems[i] = m->hNewMemObjArg != NULL ? m->hNewMemObjArg->cl : NULL;
        args[n++] = (ocl_mutable_arg_t){m->argIndex, sizeof(cl_mem), &mems[i]};
    }
    for (uint32_t i = 0; i < u->numNewPointerArgs; ++i) {
        const ur_exp_command_buffer_update_pointer_arg_desc_t *p = &u->pNewPointerArgList[i];
        // UR passes the address of the new pointer; OpenCL wants the pointer itself.
        svm_args[i] = (ocl_mutable_arg_t){p->argIndex, 0, *(void *const *)p->pNewPointerArg};
    }
    cfg->num_args = n;
    cfg->arg_list = n > 0 ? args : NULL;
    cfg->num_svm_args = u->numNewPointerArgs;
    cfg->arg_svm_list = u->numNewPointerArgs > 0 ? svm_args : NULL;
    uint32_t dim = 0;
    bool has_local = false;
    urc_cb_update_launch(&c->core, u, &dim, launch, launch + 3, launch + 6, &has_local);
    cfg->work_dim = dim;
    cfg->global_work_offset = u->pNewGlobalWorkOffset != NULL ? launch : NULL;
    cfg->global_work_size = u->pNewGlobalWorkSize != NULL ? launch + 3 : NULL;
    cfg->local_work_size = u->pNewLocalWorkSize != NULL ? launch + 6 : NULL;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_command_buffer_update_kernel_launch_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, uint32_t numKernelUpdates,
    const ur_exp_command_buffer_update_kernel_launch_desc_t *pUpdateKernelLaunch) {
    urc_cb_t *core = &hCommandBuffer->core;
    OCL_TRY_UR(urc_cb_check_update_buffer(core));
    // Everything is checked before anything changes: an update applies whole or not at all.
    size_t num_args = 0;
    for (uint32_t i = 0; i < numKernelUpdates; ++i) {
        const ur_exp_command_buffer_update_kernel_launch_desc_t *u = &pUpdateKernelLaunch[i];
        ur_exp_command_buffer_command_handle_t c = command_of(u->hCommand);
        OCL_TRY_UR(urc_cb_check_update(core, c != NULL ? &c->core : NULL, u));
        OCL_TRY_UR(urc_rule_update(&core->rules, &c->core, u, ocl_kernel_arg_count));
        num_args += (size_t)u->numNewValueArgs + u->numNewMemObjArgs + u->numNewPointerArgs;
    }
    ocl_mutable_dispatch_config_t *cfgs = urc_calloc(numKernelUpdates, sizeof *cfgs);
    const void **cfg_ptrs = urc_calloc(numKernelUpdates, sizeof *cfg_ptrs);
    cl_uint *types = urc_calloc(numKernelUpdates, sizeof *types);
    ocl_mutable_arg_t *args = urc_calloc(num_args, sizeof *args);
    ocl_mutable_arg_t *svm_args = urc_calloc(num_args, sizeof *svm_args);
    cl_mem *mems = urc_calloc(num_args, sizeof *mems);
    size_t *launch = urc_calloc(numKernelUpdates, 9 * sizeof *launch);
    ur_result_t r = UR_RESULT_SUCCESS;
    if (cfgs == NULL || cfg_ptrs == NULL || types == NULL || args == NULL || svm_args == NULL ||
        mems == NULL || launch == NULL)
        r = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    size_t used = 0;
    for (uint32_t i = 0; i < numKernelUpdates && r == UR_RESULT_SUCCESS; ++i) {
        const ur_exp_command_buffer_update_kernel_launch_desc_t *u = &pUpdateKernelLaunch[i];
        r = make_config(u, &cfgs[i], args + used, svm_args + used, mems + used, launch + 9 * i);
        used += (size_t)u->numNewValueArgs + u->numNewMemObjArgs + u->numNewPointerArgs;
        types[i] = OCL_STRUCTURE_TYPE_MUTABLE_DISPATCH_CONFIG;
        cfg_ptrs[i] = &cfgs[i];
    }
    if (r == UR_RESULT_SUCCESS) {
        // One update at a time per buffer; OpenCL applies it to the runs enqueued after it.
        pthread_mutex_lock(&core->lock);
        cl_int err = hCommandBuffer->device->platform->ext.cb.update(
            hCommandBuffer->cl, numKernelUpdates, types, cfg_ptrs);
        if (err != CL_SUCCESS)
            r = ocl_fail(err, "clUpdateMutableCommandsKHR");
        for (uint32_t i = 0; i < numKernelUpdates && r == UR_RESULT_SUCCESS; ++i)
            urc_cb_apply_update(&pUpdateKernelLaunch[i].hCommand->core, &pUpdateKernelLaunch[i]);
        pthread_mutex_unlock(&core->lock);
    }
    free(cfgs);
    free(cfg_ptrs);
    free(types);
    free(args);
    free(svm_args);
    free(mems);
    free(launch);
    return r;
}

ur_result_t
ocl_command_buffer_update_signal_event_exp(ur_exp_command_buffer_command_handle_t hCommand,
                                           ur_event_handle_t *phSignalEvent) {
    OCL_CHECK_HANDLE(hCommand, URC_KIND_COMMAND_BUFFER_COMMAND,
                     UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP);
    *phSignalEvent = NULL;
    OCL_TRY_UR(urc_cb_check_event_update(&hCommand->core, true, UINT32_MAX));
    // Not reached: OpenCL devices report no EVENTS update capability.
    return UR_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

ur_result_t
ocl_command_buffer_update_wait_events_exp(ur_exp_command_buffer_command_handle_t hCommand,
                                          uint32_t numEventsInWaitList,
                                          const ur_event_handle_t *phEventWaitList) {
    (void)phEventWaitList;
    OCL_CHECK_HANDLE(hCommand, URC_KIND_COMMAND_BUFFER_COMMAND,
                     UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP);
    OCL_TRY_UR(urc_cb_check_event_update(&hCommand->core, false, numEventsInWaitList));
    return UR_RESULT_ERROR_UNSUPPORTED_FEATURE; // as above
}
