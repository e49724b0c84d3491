// SPDX-License-Identifier: MIT
// The backend-neutral half of command buffers (command_buffer.h).
#include "queue/command_buffer.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/object.h"
#include "core/quarantine.h"

ur_result_t urc_cb_check_create(const ur_exp_command_buffer_desc_t *desc,
                                const urc_cb_caps_t *caps) {
    if (desc->stype != UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "command-buffer descriptor: stype %d", (int)desc->stype);
    if (!caps->supported)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the device has no command buffers");
    if (desc->isUpdatable && caps->update_caps == 0)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the device cannot update command-buffer commands");
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_cb_init(urc_cb_t *cb, const ur_exp_command_buffer_desc_t *desc,
                        const urc_cb_caps_t *caps, const void *context) {
    memset(cb, 0, sizeof *cb);
    cb->updatable = desc->isUpdatable;
    cb->in_order = desc->isInOrder;
    cb->profiling = desc->enableProfiling;
    cb->caps = *caps;
    cb->context = context;
    atomic_init(&cb->state, URC_CB_RECORDING);
    atomic_init(&cb->enqueues, 0);
    if (pthread_mutex_init(&cb->lock, NULL) != 0)
        return UR_RESULT_ERROR_OUT_OF_RESOURCES;
    return UR_RESULT_SUCCESS;
}

void urc_cb_fini(urc_cb_t *cb) {
    pthread_mutex_destroy(&cb->lock);
    URC_FREE(cb->native_sync);
    URC_FREE(cb->commands);
    URC_FREE(cb->held);
    URC_FREE(cb->events);
}

void urc_cb_release_records(urc_cb_t *cb, const urc_cb_release_t *ops) {
    for (uint32_t i = 0; i < cb->num_commands; ++i) {
        urc_cb_command_head_t *c = cb->commands[i];
        for (uint32_t k = 0; k < c->core.k.num_alternatives; ++k)
            ops->kernel((void *)c->core.k.alternatives[k]);
        urc_cb_command_fini(&c->core);
        if (ops->command != NULL)
            ops->command(c);
        urc_object_free(&c->obj, ops->command_size);
    }
    for (uint32_t i = 0; i < cb->num_held; ++i)
        ops->held(cb->held[i]);
    for (uint32_t i = 0; ops->event != NULL && i < cb->num_events; ++i)
        ops->event(cb->events[i]);
    urc_cb_fini(cb);
}

ur_result_t urc_cb_create(bool in_context, const ur_exp_command_buffer_desc_t *desc,
                          const urc_cb_caps_t *caps, const void *context, const ur_dditable_t *ddi,
                          size_t size, size_t core_offset, void **out) {
    if (!in_context)
        return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0, "the device is not in the context");
    ur_result_t res = urc_cb_check_create(desc, caps);
    if (res != UR_RESULT_SUCCESS)
        return res;
    unsigned char *object = urc_calloc(1, size);
    if (object == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    res = urc_cb_init((urc_cb_t *)(object + core_offset), desc, caps, context);
    if (res != UR_RESULT_SUCCESS) {
        free(object);
        return res;
    }
    urc_object_init((urc_object_t *)object, ddi, URC_KIND_COMMAND_BUFFER);
    *out = object;
    return UR_RESULT_SUCCESS;
}

/// Makes room for one more entry in an array that doubles (overflow-safe).
static bool grow(void **array, uint32_t *capacity, uint32_t used, size_t elem) {
    if (used < *capacity)
        return true;
    if (*capacity > UINT32_MAX / 2)
        return false;
    uint32_t cap = *capacity ? *capacity * 2 : 16;
    if ((size_t)cap > SIZE_MAX / elem)
        return false;
    void *p = realloc(*array, (size_t)cap * elem);
    if (p == NULL)
        return false;
    *array = p;
    *capacity = cap;
    return true;
}

ur_result_t urc_cb_append_begin(urc_cb_t *cb, uint32_t num_sync,
                                const ur_exp_command_buffer_sync_point_t *sync, bool want_command,
                                bool uses_events) {
    pthread_mutex_lock(&cb->lock);
    ur_result_t r = UR_RESULT_SUCCESS;
    if (atomic_load_explicit(&cb->state, memory_order_relaxed) != URC_CB_RECORDING) {
        r = urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                          "the command buffer is finalized: nothing can be appended");
    } else if (want_command && !cb->updatable) {
        r = urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                          "command handles are for updatable command buffers only");
    } else if (uses_events && !cb->caps.events) {
        r = urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                          "the device has no events in command buffers");
    } else {
        for (uint32_t i = 0; i < num_sync && r == UR_RESULT_SUCCESS; ++i)
            if (sync[i] >= cb->num_sync_points)
                r = urc_error_set(UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_SYNC_POINT_EXP, 0,
                                  "sync point %u was not issued by this command buffer", sync[i]);
    }
    // Room for the new sync point and command now, so nothing fails after the native append.
    if (r == UR_RESULT_SUCCESS && (!grow((void **)&cb->native_sync, &cb->sync_capacity,
                                         cb->num_sync_points, sizeof *cb->native_sync) ||
                                   !grow((void **)&cb->commands, &cb->command_capacity,
                                         cb->num_commands, sizeof *cb->commands)))
        r = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (r != UR_RESULT_SUCCESS)
        pthread_mutex_unlock(&cb->lock);
    return r;
}

ur_result_t urc_cb_append_end(urc_cb_t *cb, ur_result_t result, uint64_t native_token,
                              void *command, ur_exp_command_buffer_sync_point_t *out) {
    if (result == UR_RESULT_SUCCESS) {
        ur_exp_command_buffer_sync_point_t sp = cb->num_sync_points++;
        cb->native_sync[sp] = native_token;
        if (command != NULL)
            cb->commands[cb->num_commands++] = command;
        if (out != NULL)
            *out = sp;
    }
    pthread_mutex_unlock(&cb->lock);
    return result;
}

ur_result_t urc_cb_hold(urc_cb_t *cb, void *object) {
    if (!grow((void **)&cb->held, &cb->held_capacity, cb->num_held, sizeof *cb->held))
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    cb->held[cb->num_held++] = object;
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_cb_reserve_events(urc_cb_t *cb, uint32_t more) {
    // One doubling step per missing slot at worst; `more` is a wait list's length.
    while (more > cb->events_capacity - cb->num_events)
        if (!grow((void **)&cb->events, &cb->events_capacity, cb->events_capacity,
                  sizeof *cb->events))
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    return UR_RESULT_SUCCESS;
}

void urc_cb_hold_event(urc_cb_t *cb, void *event) {
    cb->events[cb->num_events++] = event;
}

bool urc_cb_replace_event(urc_cb_t *cb, const void *old, void *replacement) {
    for (uint32_t i = 0; i < cb->num_events; ++i)
        if (cb->events[i] == old) {
            cb->events[i] = replacement;
            return true;
        }
    return false;
}

ur_result_t urc_cb_check_wait_list(const urc_cb_t *cb, uint32_t n, const ur_event_handle_t *events,
                                   urc_cb_event_context_fn context_of) {
    if (n > 0 && events == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST, 0,
                             "a wait list of %u events is NULL", n);
    for (uint32_t i = 0; i < n; ++i) {
        const void *ctx = context_of(events[i]);
        if (ctx == NULL)
            return urc_error_set(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST, 0,
                                 "entry %u of the wait list is not an event", i);
        if (ctx != cb->context)
            return urc_error_set(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST, 0,
                                 "event %u of the wait list is of another context", i);
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_cb_finalize_begin(urc_cb_t *cb) {
    pthread_mutex_lock(&cb->lock);
    if (atomic_load_explicit(&cb->state, memory_order_relaxed) != URC_CB_RECORDING) {
        pthread_mutex_unlock(&cb->lock);
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                             "the command buffer is already finalized");
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_cb_finalize_end(urc_cb_t *cb, ur_result_t result) {
    if (result == UR_RESULT_SUCCESS)
        atomic_store_explicit(&cb->state, URC_CB_FINALIZED, memory_order_release);
    pthread_mutex_unlock(&cb->lock);
    return result;
}

ur_result_t urc_cb_check_enqueue(urc_cb_t *cb, bool queue_matches) {
    if (!queue_matches)
        return urc_error_set(UR_RESULT_ERROR_INVALID_QUEUE, 0,
                             "the queue is not of the command buffer's context and device");
    if (!urc_cb_is_finalized(cb))
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                             "the command buffer is not finalized");
    atomic_fetch_add_explicit(&cb->enqueues, 1, memory_order_relaxed);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_cb_kernel_record(urc_cb_command_t *cmd, urc_cb_t *cb, const void *kernel,
                                 uint32_t work_dim, const size_t *offset, const size_t *global,
                                 const size_t *local, uint32_t num_alternatives,
                                 const void *const *alternatives,
                                 const void *const *kernel_contexts) {
    ur_result_t res = urc_rule_launch(&cb->rules, work_dim, offset, global, local);
    if (res != UR_RESULT_SUCCESS)
        return res;
    for (uint32_t i = 0; i < num_alternatives; ++i) {
        if (alternatives[i] == kernel)
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "the kernel alternatives repeat the command's kernel");
        if (alternatives[i] == NULL)
            return urc_error_set(UR_RESULT_ERROR_INVALID_NULL_HANDLE, 0,
                                 "kernel alternative %u is NULL", i);
    }
    if (kernel_contexts != NULL)
        for (uint32_t i = 0; i <= num_alternatives; ++i)
            if (kernel_contexts[i] != cb->context)
                return urc_error_set(UR_RESULT_ERROR_INVALID_KERNEL, 0,
                                     "a kernel of another context than the command buffer's");
    memset(cmd, 0, sizeof *cmd);
    cmd->owner = cb;
    cmd->is_kernel = true;
    urc_cb_kernel_t *k = &cmd->k;
    k->alternatives = urc_calloc(num_alternatives + 1u, sizeof *k->alternatives);
    if (k->alternatives == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    k->alternatives[0] = kernel;
    for (uint32_t i = 0; i < num_alternatives; ++i)
        k->alternatives[i + 1] = alternatives[i];
    k->num_alternatives = num_alternatives + 1;
    k->kernel = kernel;
    k->work_dim = work_dim;
    for (uint32_t d = 0; d < 3; ++d) {
        bool in = d < work_dim;
        k->offset[d] = in && offset != NULL ? offset[d] : 0;
        k->global[d] = in ? global[d] : 1;
        k->local[d] = in && local != NULL ? local[d] : 1;
    }
    k->has_local = local != NULL;
    return UR_RESULT_SUCCESS;
}

void urc_cb_command_fini(urc_cb_command_t *cmd) {
    URC_FREE(cmd->k.alternatives);
    urc_cb_args_fini(&cmd->args);
    URC_FREE(cmd->wait_events);
}

/// Bytes of an argument's value kept in the copy (8-byte slots keep each value aligned).
static size_t value_bytes(const ur_exp_kernel_arg_properties_t *a) {
    size_t n = a->type == UR_EXP_KERNEL_ARG_TYPE_VALUE && a->value.value != NULL ? a->size : 0;
    return (n + 7u) & ~(size_t)7u;
}

/// Copies `n` arguments from `src` (plus `extra` more slots of room) into `out`.
static ur_result_t args_copy(urc_cb_args_t *out, uint32_t n,
                             const ur_exp_kernel_arg_properties_t *src, uint32_t extra,
                             size_t extra_bytes) {
    memset(out, 0, sizeof *out);
    size_t bytes = extra_bytes;
    for (uint32_t i = 0; i < n; ++i) {
        size_t v = value_bytes(&src[i]);
        if ((v != 0 && v < src[i].size) || bytes > SIZE_MAX - v)
            return UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE; // wrapped while rounding
        bytes += v;
    }
    out->args = urc_calloc((size_t)n + extra, sizeof *out->args);
    out->values = urc_calloc(1, bytes);
    if (out->args == NULL || out->values == NULL) {
        urc_cb_args_fini(out);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    size_t used = 0;
    for (uint32_t i = 0; i < n; ++i) {
        out->args[i] = src[i];
        out->args[i].pNext = NULL;
        size_t v = value_bytes(&src[i]);
        if (v != 0) {
            memcpy(out->values + used, src[i].value.value, src[i].size);
            out->args[i].value.value = out->values + used;
            used += v;
        }
    }
    out->count = n;
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_cb_args_copy(urc_cb_args_t *out, uint32_t n,
                             const ur_exp_kernel_arg_properties_t *args) {
    return args_copy(out, n, args, 0, 0);
}

/// The slot of argument `index` in `a`, added at the end when absent.
static ur_exp_kernel_arg_properties_t *arg_slot(urc_cb_args_t *a, uint32_t index) {
    for (uint32_t i = 0; i < a->count; ++i)
        if (a->args[i].index == index)
            return &a->args[i];
    ur_exp_kernel_arg_properties_t *s = &a->args[a->count++];
    memset(s, 0, sizeof *s);
    s->stype = UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES;
    s->index = index;
    return s;
}

ur_result_t urc_cb_args_merge(const urc_cb_args_t *cur,
                              const ur_exp_command_buffer_update_kernel_launch_desc_t *u,
                              urc_cb_args_t *out) {
    uint32_t added = u->numNewValueArgs + u->numNewMemObjArgs + u->numNewPointerArgs;
    size_t bytes = 0;
    for (uint32_t i = 0; i < u->numNewValueArgs; ++i) {
        size_t v = (u->pNewValueArgList[i].argSize + 7u) & ~(size_t)7u;
        if (v < u->pNewValueArgList[i].argSize || bytes > SIZE_MAX - v)
            return UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
        bytes += v;
    }
    ur_result_t r = args_copy(out, cur->count, cur->args, added, bytes);
    if (r != UR_RESULT_SUCCESS)
        return r;
    size_t used = 0;
    for (uint32_t i = 0; i < cur->count; ++i)
        used += value_bytes(&cur->args[i]);
    for (uint32_t i = 0; i < u->numNewValueArgs; ++i) {
        const ur_exp_command_buffer_update_value_arg_desc_t *v = &u->pNewValueArgList[i];
        ur_exp_kernel_arg_properties_t *s = arg_slot(out, v->argIndex);
        s->size = v->argSize;
        if (v->pNewValueArg == NULL) {
            s->type = UR_EXP_KERNEL_ARG_TYPE_LOCAL;
            s->value.value = NULL;
            continue;
        }
        s->type = UR_EXP_KERNEL_ARG_TYPE_VALUE;
        memcpy(out->values + used, v->pNewValueArg, v->argSize);
        s->value.value = out->values + used;
        used += (v->argSize + 7u) & ~(size_t)7u;
    }
    for (uint32_t i = 0; i < u->numNewMemObjArgs; ++i) {
        const ur_exp_command_buffer_update_memobj_arg_desc_t *m = &u->pNewMemObjArgList[i];
        ur_exp_kernel_arg_properties_t *s = arg_slot(out, m->argIndex);
        s->type = UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ;
        s->size = sizeof(ur_mem_handle_t);
        s->value.memObjTuple.hMem = m->hNewMemObjArg;
        s->value.memObjTuple.flags = 0;
    }
    for (uint32_t i = 0; i < u->numNewPointerArgs; ++i) {
        const ur_exp_command_buffer_update_pointer_arg_desc_t *p = &u->pNewPointerArgList[i];
        ur_exp_kernel_arg_properties_t *s = arg_slot(out, p->argIndex);
        s->type = UR_EXP_KERNEL_ARG_TYPE_POINTER;
        s->size = sizeof(void *);
        // UR passes the address of the new pointer.
        s->value.pointer = *(void *const *)p->pNewPointerArg;
    }
    return UR_RESULT_SUCCESS;
}

void urc_cb_args_fini(urc_cb_args_t *a) {
    URC_FREE(a->args);
    URC_FREE(a->values);
    a->count = 0;
}

ur_result_t urc_cb_check_update_buffer(urc_cb_t *cb) {
    if (!cb->updatable)
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                             "the command buffer was not created updatable");
    if (!urc_cb_is_finalized(cb))
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                             "the command buffer is not finalized");
    return UR_RESULT_SUCCESS;
}

static bool is_alternative(const urc_cb_kernel_t *k, const void *kernel) {
    for (uint32_t i = 0; i < k->num_alternatives; ++i)
        if (k->alternatives[i] == kernel)
            return true;
    return false;
}

ur_result_t urc_cb_check_update(urc_cb_t *cb, const urc_cb_command_t *cmd,
                                const ur_exp_command_buffer_update_kernel_launch_desc_t *u) {
    if (u->hCommand == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_NULL_HANDLE, 0,
                             "an update's hCommand is NULL");
    if (cmd == NULL || cmd->owner != cb || !cmd->is_kernel)
        return urc_error_set(UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP, 0,
                             "hCommand is not a kernel command of this command buffer");
    if (u->stype != UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_KERNEL_LAUNCH_DESC)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0, "update descriptor: stype %d",
                             (int)u->stype);
    uint32_t caps = cb->caps.update_caps;
    bool args = u->numNewMemObjArgs || u->numNewPointerArgs || u->numNewValueArgs;
    const char *missing = NULL;
    if (args && !(caps & UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_ARGUMENTS))
        missing = "kernel arguments";
    else if ((u->pNewLocalWorkSize != NULL || u->pNewGlobalWorkSize != NULL) &&
             !(caps & UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_LOCAL_WORK_SIZE))
        missing = "the local size"; // a new global size without local size changes it too
    else if (u->pNewGlobalWorkSize != NULL &&
             !(caps & UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_SIZE))
        missing = "the global size";
    else if (u->pNewGlobalWorkOffset != NULL &&
             !(caps & UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_OFFSET))
        missing = "the global offset";
    else if (u->hNewKernel != NULL && u->hNewKernel != cmd->k.kernel &&
             !(caps & UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_HANDLE))
        missing = "the kernel";
    if (missing != NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the device cannot update %s of a command", missing);
    if (u->newWorkDim < 1 || u->newWorkDim > 3)
        return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_DIMENSION, 0,
                             "new work dimension %u (1 to 3)", u->newWorkDim);
    if (u->newWorkDim != cmd->k.work_dim &&
        (u->pNewGlobalWorkSize == NULL || u->pNewGlobalWorkOffset == NULL))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "a new work dimension needs a new global size and offset");
    if (u->hNewKernel != NULL && !is_alternative(&cmd->k, u->hNewKernel))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "hNewKernel was not given to the command at append");
    if ((u->numNewMemObjArgs && u->pNewMemObjArgList == NULL) ||
        (u->numNewPointerArgs && u->pNewPointerArgList == NULL) ||
        (u->numNewValueArgs && u->pNewValueArgList == NULL))
        return urc_error_set(UR_RESULT_ERROR_INVALID_NULL_POINTER, 0,
                             "an update's argument list is NULL");
    for (uint32_t i = 0; i < u->numNewValueArgs; ++i)
        if (u->pNewValueArgList[i].pNewValueArg == NULL && u->pNewValueArgList[i].argSize != 0)
            return urc_error_set(UR_RESULT_ERROR_INVALID_NULL_POINTER, 0,
                                 "value argument %u has no value", u->pNewValueArgList[i].argIndex);
    for (uint32_t i = 0; i < u->numNewPointerArgs; ++i)
        if (u->pNewPointerArgList[i].pNewPointerArg == NULL)
            return urc_error_set(UR_RESULT_ERROR_INVALID_NULL_POINTER, 0,
                                 "pointer argument %u has no pointer",
                                 u->pNewPointerArgList[i].argIndex);
    for (uint32_t d = 0; u->pNewLocalWorkSize != NULL && d < u->newWorkDim; ++d)
        if (u->pNewLocalWorkSize[d] == 0)
            return urc_error_set(UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE, 0,
                                 "new local size 0 in dimension %u", d);
    return UR_RESULT_SUCCESS;
}

void urc_cb_update_launch(const urc_cb_command_t *cmd,
                          const ur_exp_command_buffer_update_kernel_launch_desc_t *u,
                          uint32_t *work_dim, size_t offset[3], size_t global[3], size_t local[3],
                          bool *has_local) {
    const urc_cb_kernel_t *k = &cmd->k;
    *work_dim = u->newWorkDim;
    for (uint32_t d = 0; d < 3; ++d) {
        bool in = d < u->newWorkDim;
        offset[d] =
            u->pNewGlobalWorkOffset != NULL ? (in ? u->pNewGlobalWorkOffset[d] : 0) : k->offset[d];
        global[d] =
            u->pNewGlobalWorkSize != NULL ? (in ? u->pNewGlobalWorkSize[d] : 1) : k->global[d];
        local[d] = u->pNewLocalWorkSize != NULL ? (in ? u->pNewLocalWorkSize[d] : 1) : k->local[d];
    }
    // A new global size without a local size lets the implementation choose the local size.
    if (u->pNewLocalWorkSize != NULL)
        *has_local = true;
    else if (u->pNewGlobalWorkSize != NULL)
        *has_local = false;
    else
        *has_local = k->has_local;
}

void urc_cb_apply_update(urc_cb_command_t *cmd,
                         const ur_exp_command_buffer_update_kernel_launch_desc_t *u) {
    urc_cb_kernel_t *k = &cmd->k;
    urc_cb_update_launch(cmd, u, &k->work_dim, k->offset, k->global, k->local, &k->has_local);
    if (u->hNewKernel != NULL)
        k->kernel = u->hNewKernel;
}

ur_result_t urc_cb_check_event_update(const urc_cb_command_t *cmd, bool signal,
                                      uint32_t num_wait_events) {
    const urc_cb_t *cb = cmd->owner;
    if (!(cb->caps.update_caps & UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_EVENTS))
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the device cannot update the events of a command");
    if (!cb->updatable)
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                             "the command buffer was not created updatable");
    if (atomic_load_explicit(&((urc_cb_t *)cb)->state, memory_order_acquire) != URC_CB_FINALIZED)
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                             "the command buffer is not finalized");
    if (signal && !cmd->has_event)
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0,
                             "the command was appended without an event");
    if (!signal && num_wait_events != cmd->num_wait_events)
        return urc_error_set(UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST, 0,
                             "the command waits for %u events, not %u", cmd->num_wait_events,
                             num_wait_events);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_cb_get_info(urc_cb_t *cb, uint32_t refcount, ur_exp_command_buffer_info_t prop,
                            const urc_info_t *out) {
    switch (prop) {
    case UR_EXP_COMMAND_BUFFER_INFO_REFERENCE_COUNT:
        return urc_info_u32(out, refcount);
    case UR_EXP_COMMAND_BUFFER_INFO_DESCRIPTOR: {
        ur_exp_command_buffer_desc_t d = {.stype = UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC,
                                          .pNext = NULL,
                                          .isUpdatable = cb->updatable,
                                          .isInOrder = cb->in_order,
                                          .enableProfiling = cb->profiling};
        return urc_info_bytes(out, &d, sizeof d);
    }
    default:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
}
