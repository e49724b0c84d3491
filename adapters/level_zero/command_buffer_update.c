// SPDX-License-Identifier: MIT
// Command-buffer updates over ZE_experimental_mutable_command_list: what a device can update
// (its mutable command flags), the command id each kernel command of an updatable buffer
// takes, and urCommandBufferUpdateKernelLaunchExp / UpdateSignalEventExp / UpdateWaitEventsExp
// as zeCommandListUpdateMutableCommands/Kernels/SignalEvent/WaitEventsExp. Every update waits
// for the buffer's last run (Level Zero forbids changing a list while it executes) and closes
// the list again, as the extension requires.
#include <stdlib.h>
#include <string.h>

#include "l0_internal.h"

void l0_mutable_init(l0_platform_t *p, uint32_t version) {
    l0_mutable_fns_t *f = &p->mutable_fns;
    // Function and object pointers share a representation on every platform Level Zero runs on.
#define L0_LOOKUP(field, name)                                                                     \
    do {                                                                                           \
        void *fn_ = NULL;                                                                          \
        if (zeDriverGetExtensionFunctionAddress(p->ze, name, &fn_) == ZE_RESULT_SUCCESS)           \
            memcpy(&f->field, &fn_, sizeof fn_);                                                   \
    } while (0)
    L0_LOOKUP(GetNextCommandId, "zeCommandListGetNextCommandIdExp");
    L0_LOOKUP(UpdateMutableCommands, "zeCommandListUpdateMutableCommandsExp");
    L0_LOOKUP(UpdateSignalEvent, "zeCommandListUpdateMutableCommandSignalEventExp");
    L0_LOOKUP(UpdateWaitEvents, "zeCommandListUpdateMutableCommandWaitEventsExp");
    if (version >= ZE_MUTABLE_COMMAND_LIST_EXP_VERSION_1_1) {
        L0_LOOKUP(GetNextCommandIdWithKernels, "zeCommandListGetNextCommandIdWithKernelsExp");
        L0_LOOKUP(UpdateKernels, "zeCommandListUpdateMutableCommandKernelsExp");
    }
#undef L0_LOOKUP
    // Without these two nothing can be updated at all.
    if (f->GetNextCommandId == NULL || f->UpdateMutableCommands == NULL)
        memset(f, 0, sizeof *f);
}

ze_mutable_command_exp_flags_t l0_mutable_device_flags(const l0_device_t *dev) {
    if (dev->platform->mutable_fns.GetNextCommandId == NULL)
        return 0;
    ze_mutable_command_list_exp_properties_t mp = {
        ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_PROPERTIES, NULL, 0, 0};
    ze_device_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, .pNext = &mp};
    if (zeDeviceGetProperties(dev->ze, &props) != ZE_RESULT_SUCCESS)
        return 0;
    return mp.mutableCommandFlags;
}

void l0_cb_caps(const l0_device_t *dev, urc_cb_caps_t *caps) {
    memset(caps, 0, sizeof *caps);
    caps->supported = true;
    caps->events = true; // commands signal and wait for events in the list (append_begin_events)
    const l0_mutable_fns_t *f = &dev->platform->mutable_fns;
    ze_mutable_command_exp_flags_t m = dev->mutable_flags;
    if (f->GetNextCommandId == NULL)
        return;
    // A new global or local size changes both the group count and (chosen or given) group size.
    const ze_mutable_command_exp_flags_t sizes =
        ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_COUNT | ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_SIZE;
    if (m & ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS)
        caps->update_caps |= UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_ARGUMENTS;
    if ((m & sizes) == sizes)
        caps->update_caps |= UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_LOCAL_WORK_SIZE |
                             UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_SIZE;
    if ((m & ZE_MUTABLE_COMMAND_EXP_FLAG_GLOBAL_OFFSET) && dev->platform->ext_global_offset)
        caps->update_caps |= UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_OFFSET;
    // A new kernel needs every argument and both sizes set again.
    const ze_mutable_command_exp_flags_t all = ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_INSTRUCTION |
                                               ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS | sizes;
    if ((m & all) == all && f->GetNextCommandIdWithKernels != NULL && f->UpdateKernels != NULL)
        caps->update_caps |= UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_HANDLE;
    const ze_mutable_command_exp_flags_t events =
        ZE_MUTABLE_COMMAND_EXP_FLAG_SIGNAL_EVENT | ZE_MUTABLE_COMMAND_EXP_FLAG_WAIT_EVENTS;
    if ((m & events) == events && f->UpdateSignalEvent != NULL && f->UpdateWaitEvents != NULL)
        caps->update_caps |= UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_EVENTS;
}

ur_result_t l0_cb_next_command_id(l0_cb_t *cb, ur_kernel_handle_t hKernel, uint32_t numAlt,
                                  ur_kernel_handle_t *phAlt, uint64_t *id) {
    const l0_mutable_fns_t *f = &cb->dev->platform->mutable_fns;
    ze_mutable_command_id_exp_desc_t d = {
        ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC, NULL,
        ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS | ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_COUNT |
            ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_SIZE | ZE_MUTABLE_COMMAND_EXP_FLAG_GLOBAL_OFFSET |
            ZE_MUTABLE_COMMAND_EXP_FLAG_SIGNAL_EVENT | ZE_MUTABLE_COMMAND_EXP_FLAG_WAIT_EVENTS};
    d.flags &= cb->dev->mutable_flags;
    if (numAlt == 0)
        return l0_ok(f->GetNextCommandId(cb->list, &d, id), "zeCommandListGetNextCommandIdExp");
    d.flags |= ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_INSTRUCTION;
    ze_kernel_handle_t *zk = urc_calloc(numAlt + 1u, sizeof *zk);
    if (zk == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i <= numAlt; ++i)
        zk[i] = l0_kernel_native(i == 0 ? hKernel : phAlt[i - 1], cb->dev);
    ur_result_t res = l0_ok(f->GetNextCommandIdWithKernels(cb->list, &d, numAlt + 1, zk, id),
                            "zeCommandListGetNextCommandIdWithKernelsExp");
    free(zk);
    return res;
}

// ---- updates ---------------------------------------------------------------------------------

// Every update waits for the buffer's last run and ends with the list closed again. The caller
// holds core.lock; quiesce returns with run_lock held, reclose releases it.
static ur_result_t quiesce(l0_cb_t *cb) {
    pthread_mutex_lock(&cb->run_lock);
    return cb->ran ? l0_ok(zeFenceHostSynchronize(cb->fence, UINT64_MAX), "zeFenceHostSynchronize")
                   : UR_RESULT_SUCCESS;
}

static ur_result_t reclose(l0_cb_t *cb, ur_result_t res) {
    ur_result_t closed = l0_ok(zeCommandListClose(cb->list), "zeCommandListClose");
    pthread_mutex_unlock(&cb->run_lock);
    return res != UR_RESULT_SUCCESS ? res : closed;
}

/// One kernel command's update, laid out before anything changes: the whole argument list
/// (each argument's bytes), group size and count, offset, and the new kernel if any.
typedef struct prepared_t {
    l0_cb_cmd_t *cmd;
    urc_cb_args_t args;
    ze_mutable_kernel_argument_exp_desc_t *arg_descs;
    void **slots; // pointer values the argument descriptors point at
    uint32_t wg[3];
    ze_group_count_t groups;
    uint32_t offset[3];
    ze_kernel_handle_t new_kernel; // NULL: the kernel stays
} prepared_t;

static void prepared_fini(prepared_t *p) {
    urc_cb_args_fini(&p->args);
    free(p->arg_descs);
    free(p->slots);
}

static ur_result_t prepare(l0_cb_t *cb, const ur_exp_command_buffer_update_kernel_launch_desc_t *u,
                           prepared_t *p) {
    l0_cb_cmd_t *c = (l0_cb_cmd_t *)u->hCommand;
    p->cmd = c;
    ur_result_t res = urc_cb_args_merge(&c->core.args, u, &p->args);
    if (res != UR_RESULT_SUCCESS)
        return res;
    uint32_t dim;
    size_t offset[3], global[3], local[3];
    bool has_local;
    urc_cb_update_launch(&c->core, u, &dim, offset, global, local, &has_local);
    ur_kernel_handle_t k =
        u->hNewKernel != NULL ? u->hNewKernel : (ur_kernel_handle_t)c->core.k.kernel;
    if (u->hNewKernel != NULL)
        p->new_kernel = l0_kernel_native(u->hNewKernel, cb->dev);
    for (uint32_t i = 0; i < 3; ++i) {
        if (offset[i] > UINT32_MAX)
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "global offsets are 32-bit in Level Zero");
        p->offset[i] = (uint32_t)offset[i];
    }
    res = l0_kernel_geometry(k, cb->dev, dim, global, has_local ? local : NULL, p->wg, &p->groups);
    if (res != UR_RESULT_SUCCESS)
        return res;
    uint32_t n = p->args.count;
    p->arg_descs = urc_calloc(n + 1u, sizeof *p->arg_descs);
    p->slots = urc_calloc(n + 1u, sizeof *p->slots);
    if (p->arg_descs == NULL || p->slots == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < n && res == UR_RESULT_SUCCESS; ++i) {
        ze_mutable_kernel_argument_exp_desc_t *d = &p->arg_descs[i];
        d->stype = ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC;
        d->commandId = c->id;
        d->argIndex = p->args.args[i].index;
        res = l0_kernel_arg_native(cb->ctx, cb->dev, &p->args.args[i], &d->argSize, &d->pArgValue,
                                   &p->slots[i]);
    }
    return res;
}

// Applies one prepared update through the mutable command list.
static ur_result_t apply(l0_cb_t *cb, prepared_t *p) {
    const l0_mutable_fns_t *f = &cb->dev->platform->mutable_fns;
    uint64_t id = p->cmd->id;
    ur_result_t res = UR_RESULT_SUCCESS;
    if (p->new_kernel != NULL)
        res = l0_ok(f->UpdateKernels(cb->list, 1, &id, &p->new_kernel),
                    "zeCommandListUpdateMutableCommandKernelsExp");
    if (res != UR_RESULT_SUCCESS)
        return res;
    // Every argument, both sizes and the offset go again: after a kernel switch Level Zero
    // requires it, and otherwise it costs one descriptor per argument.
    ze_mutable_group_count_exp_desc_t gc = {ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC, NULL,
                                            id, &p->groups};
    ze_mutable_group_size_exp_desc_t gs = {
        ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC, &gc, id, p->wg[0], p->wg[1], p->wg[2]};
    ze_mutable_global_offset_exp_desc_t go = {ZE_STRUCTURE_TYPE_MUTABLE_GLOBAL_OFFSET_EXP_DESC,
                                              &gs,
                                              id,
                                              p->offset[0],
                                              p->offset[1],
                                              p->offset[2]};
    const void *head = cb->dev->platform->ext_global_offset &&
                               (cb->dev->mutable_flags & ZE_MUTABLE_COMMAND_EXP_FLAG_GLOBAL_OFFSET)
                           ? (const void *)&go
                           : (const void *)&gs;
    for (uint32_t i = p->args.count; i-- > 0;) {
        p->arg_descs[i].pNext = head;
        head = &p->arg_descs[i];
    }
    ze_mutable_commands_exp_desc_t all = {ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC, head, 0};
    return l0_ok(f->UpdateMutableCommands(cb->list, &all), "zeCommandListUpdateMutableCommandsExp");
}

/// A kernel's argument count for the rule table's index checks.
static uint32_t kernel_arg_count(const void *kernel) {
    return l0_is(kernel, URC_KIND_KERNEL)
               ? L0_KERNEL((ur_kernel_handle_t)kernel)->props.numKernelArgs
               : UINT32_MAX;
}

ur_result_t l0_command_buffer_update_kernel_launch_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, uint32_t numKernelUpdates,
    const ur_exp_command_buffer_update_kernel_launch_desc_t *pUpdateKernelLaunch) {
    l0_cb_t *cb = (l0_cb_t *)hCommandBuffer;
    ur_result_t res = urc_cb_check_update_buffer(&cb->core);
    for (uint32_t i = 0; i < numKernelUpdates && res == UR_RESULT_SUCCESS; ++i) {
        const ur_exp_command_buffer_update_kernel_launch_desc_t *u = &pUpdateKernelLaunch[i];
        l0_cb_cmd_t *c =
            l0_is(u->hCommand, URC_KIND_COMMAND_BUFFER_COMMAND) ? (l0_cb_cmd_t *)u->hCommand : NULL;
        res = urc_cb_check_update(&cb->core, c != NULL ? &c->core : NULL, u);
        if (res == UR_RESULT_SUCCESS)
            res = urc_rule_update(&cb->core.rules, &c->core, u, kernel_arg_count);
    }
    if (res != UR_RESULT_SUCCESS)
        return res;
    prepared_t *prep = urc_calloc(numKernelUpdates + 1u, sizeof *prep);
    if (prep == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    pthread_mutex_lock(&cb->core.lock);
    // Everything that can fail on bad input fails here, before the list changes.
    for (uint32_t i = 0; i < numKernelUpdates && res == UR_RESULT_SUCCESS; ++i)
        res = prepare(cb, &pUpdateKernelLaunch[i], &prep[i]);
    if (res == UR_RESULT_SUCCESS) {
        res = quiesce(cb);
        for (uint32_t i = 0; i < numKernelUpdates && res == UR_RESULT_SUCCESS; ++i) {
            res = apply(cb, &prep[i]);
            if (res == UR_RESULT_SUCCESS) {
                urc_cb_args_fini(&prep[i].cmd->core.args);
                prep[i].cmd->core.args = prep[i].args;
                prep[i].args = (urc_cb_args_t){0};
                urc_cb_apply_update(&prep[i].cmd->core, &pUpdateKernelLaunch[i]);
            }
        }
        res = reclose(cb, res);
    }
    pthread_mutex_unlock(&cb->core.lock);
    for (uint32_t i = 0; i < numKernelUpdates; ++i)
        prepared_fini(&prep[i]);
    free(prep);
    return res;
}

// Replaces one held event of `arr` by another (the buffer's hold moves with it).
static void replace_held(l0_event_t **arr, uint32_t n, l0_event_t *old, l0_event_t *new_event) {
    for (uint32_t i = 0; i < n; ++i)
        if (arr[i] == old) {
            l0_event_retain_internal(new_event);
            arr[i] = new_event;
            l0_event_release_internal(old);
            return;
        }
}

/// A new event for the command (zeCommandListUpdateMutableCommandSignalEventExp); the old one is
/// no longer signalled and stays the caller's.
ur_result_t
l0_command_buffer_update_signal_event_exp(ur_exp_command_buffer_command_handle_t hCommand,
                                          ur_event_handle_t *phSignalEvent) {
    if (!l0_is(hCommand, URC_KIND_COMMAND_BUFFER_COMMAND))
        return UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP;
    *phSignalEvent = NULL;
    l0_cb_cmd_t *c = (l0_cb_cmd_t *)hCommand;
    l0_cb_t *cb = c->buffer;
    ur_result_t res = urc_cb_check_event_update(&c->core, true, UINT32_MAX);
    l0_event_t *e = NULL;
    if (res == UR_RESULT_SUCCESS)
        res = l0_cb_event_new(cb, &e);
    if (res != UR_RESULT_SUCCESS)
        return res;
    pthread_mutex_lock(&cb->core.lock);
    res = quiesce(cb);
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(cb->dev->platform->mutable_fns.UpdateSignalEvent(cb->list, c->id, e->ze),
                    "zeCommandListUpdateMutableCommandSignalEventExp");
    if (res == UR_RESULT_SUCCESS) {
        replace_held(cb->signals, cb->nsignals, c->signal, e);
        c->signal = e;
    }
    res = reclose(cb, res);
    pthread_mutex_unlock(&cb->core.lock);
    if (res == UR_RESULT_SUCCESS)
        *phSignalEvent = (ur_event_handle_t)e;
    else if (c->signal != e)
        l0_event_release_created(e);
    return res;
}

/// A new wait list as long as the append's (zeCommandListUpdateMutableCommandWaitEventsExp).
ur_result_t
l0_command_buffer_update_wait_events_exp(ur_exp_command_buffer_command_handle_t hCommand,
                                         uint32_t numEventsInWaitList,
                                         const ur_event_handle_t *phEventWaitList) {
    if (!l0_is(hCommand, URC_KIND_COMMAND_BUFFER_COMMAND))
        return UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP;
    l0_cb_cmd_t *c = (l0_cb_cmd_t *)hCommand;
    l0_cb_t *cb = c->buffer;
    ur_result_t res = urc_cb_check_event_update(&c->core, false, numEventsInWaitList);
    ze_event_handle_t *ze = NULL;
    if (res == UR_RESULT_SUCCESS)
        res = l0_cb_wait_list(cb, numEventsInWaitList, phEventWaitList, &ze);
    if (res != UR_RESULT_SUCCESS)
        return res;
    pthread_mutex_lock(&cb->core.lock);
    res = quiesce(cb);
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(cb->dev->platform->mutable_fns.UpdateWaitEvents(cb->list, c->id,
                                                                    numEventsInWaitList, ze),
                    "zeCommandListUpdateMutableCommandWaitEventsExp");
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < numEventsInWaitList; ++i) {
        l0_event_t *w = L0_EVENT(phEventWaitList[i]);
        replace_held(cb->waits, cb->nwaits, c->core.wait_events[i], w);
        c->core.wait_events[i] = w;
    }
    res = reclose(cb, res);
    pthread_mutex_unlock(&cb->core.lock);
    free(ze);
    return res;
}
