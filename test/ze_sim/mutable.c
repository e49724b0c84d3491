// SPDX-License-Identifier: MIT
// Mutable command lists (ZE_experimental_mutable_command_list 1.1). A regular list created with
// ze_mutable_command_list_exp_desc_t hands out command ids; the next append takes the pending
// id, and updates change that recorded command in place. Executions copy the list's commands
// (sim_cmdlist_clone_commands), so an update reaches every later execution and none already
// submitted. The entry points have no DDI slot in API 1.4: callers look them up by name.
#include "ze_sim_internal.h"

#include <stdlib.h>
#include <string.h>

#include "../../adapters/level_zero/ze_mutable_exp.h"

// What the simulated device lets an update change.
#define SIM_MUTABLE_FLAGS                                                                          \
    (ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS | ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_COUNT |      \
     ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_SIZE | ZE_MUTABLE_COMMAND_EXP_FLAG_GLOBAL_OFFSET |          \
     ZE_MUTABLE_COMMAND_EXP_FLAG_SIGNAL_EVENT | ZE_MUTABLE_COMMAND_EXP_FLAG_WAIT_EVENTS |          \
     ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_INSTRUCTION)
// Longest pNext chain an update may carry (a bound against cycles).
#define SIM_MUTABLE_MAX_CHAIN 4096u

typedef struct sim_mutable_cmd {
    uint64_t id;
    ze_mutable_command_exp_flags_t flags;
    sim_cmd_t *cmd;       // NULL until the append after the id was handed out
    uint32_t num_waits;   // the wait list's length at append (updates keep it)
    uint32_t num_kernels; // kernels a KERNEL_INSTRUCTION update may switch to
    ze_kernel_handle_t *kernels;
} sim_mutable_cmd_t;

struct sim_mutable {
    uint64_t next_id;
    uint32_t count, cap;
    sim_mutable_cmd_t *cmds;
};

void sim_mutable_device_properties(void *pnext) {
    ze_mutable_command_list_exp_properties_t *p =
        sim_find_ext(pnext, ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_PROPERTIES);
    if (p) {
        p->mutableCommandListFlags = 0;
        p->mutableCommandFlags = SIM_MUTABLE_FLAGS;
    }
}

ze_result_t sim_mutable_list_init(sim_cmdlist_t *l, const void *pnext) {
    if (!sim_find_ext_const(pnext, ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC))
        return ZE_RESULT_SUCCESS;
    if (!(l->mut = calloc(1, sizeof(*l->mut))))
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    l->mut->next_id = 1;
    return ZE_RESULT_SUCCESS;
}

void sim_mutable_forget(sim_cmdlist_t *l, int destroy) {
    if (!l->mut)
        return;
    for (uint32_t i = 0; i < l->mut->count; ++i)
        free(l->mut->cmds[i].kernels);
    l->mut->count = 0;
    if (destroy) {
        free(l->mut->cmds);
        free(l->mut);
        l->mut = NULL;
    }
}

void sim_mutable_on_append(sim_cmdlist_t *l, sim_cmd_t *c) {
    if (!l->mut || l->mut->count == 0)
        return;
    sim_mutable_cmd_t *m = &l->mut->cmds[l->mut->count - 1];
    if (m->cmd)
        return; // no id pending
    m->cmd = c;
    m->num_waits = c->num_waits;
}

// A mutable list of the caller; *res says why not.
static sim_cmdlist_t *mutable_list(ze_command_list_handle_t h, ze_result_t *res) {
    sim_cmdlist_t *l = sim_obj(h, SIM_KIND_CMDLIST, res);
    if (l && !l->mut) {
        *res = ZE_RESULT_ERROR_INVALID_ARGUMENT;
        return NULL;
    }
    return l;
}

static ze_result_t ZE_APICALL next_command_id_with_kernels(
    ze_command_list_handle_t hCommandList, const ze_mutable_command_id_exp_desc_t *desc,
    uint32_t numKernels, ze_kernel_handle_t *phKernels, uint64_t *pCommandId) {
    ze_result_t r;
    sim_cmdlist_t *l = mutable_list(hCommandList, &r);
    if (!l)
        return r;
    if (!desc || !pCommandId || (numKernels && !phKernels))
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->flags > 0xff)
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    for (uint32_t i = 0; i < numKernels; ++i)
        if (!sim_obj(phKernels[i], SIM_KIND_KERNEL, &r))
            return r;
    ze_kernel_handle_t *kernels = NULL;
    if (numKernels && !(kernels = malloc(numKernels * sizeof(*kernels))))
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (numKernels)
        memcpy(kernels, phKernels, numKernels * sizeof(*kernels));
    pthread_mutex_lock(&l->lock);
    sim_mutable_t *mu = l->mut;
    r = ZE_RESULT_SUCCESS;
    if (l->closed) {
        r = ZE_RESULT_ERROR_INVALID_ARGUMENT; // ids are for commands still to be appended
    } else if (mu->count == mu->cap) {
        uint32_t cap = mu->cap ? 2 * mu->cap : 8;
        sim_mutable_cmd_t *grown = realloc(mu->cmds, cap * sizeof(*grown));
        if (grown) {
            mu->cmds = grown;
            mu->cap = cap;
        } else {
            r = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
    }
    if (r == ZE_RESULT_SUCCESS) {
        // An id nobody appended a command for is simply replaced.
        if (mu->count && !mu->cmds[mu->count - 1].cmd)
            free(mu->cmds[--mu->count].kernels);
        // Flags 0 mean everything but the kernel, as the specification says.
        ze_mutable_command_exp_flags_t f =
            desc->flags ? desc->flags
                        : (SIM_MUTABLE_FLAGS & ~ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_INSTRUCTION);
        mu->cmds[mu->count++] = (sim_mutable_cmd_t){mu->next_id, f, NULL, 0, numKernels, kernels};
        *pCommandId = mu->next_id++;
        kernels = NULL;
    }
    pthread_mutex_unlock(&l->lock);
    free(kernels);
    return r;
}

static ze_result_t ZE_APICALL next_command_id(ze_command_list_handle_t hCommandList,
                                              const ze_mutable_command_id_exp_desc_t *desc,
                                              uint64_t *pCommandId) {
    return next_command_id_with_kernels(hCommandList, desc, 0, NULL, pCommandId);
}

// The recorded command of an id; list lock held.
static sim_mutable_cmd_t *find(sim_cmdlist_t *l, uint64_t id) {
    for (uint32_t i = 0; i < l->mut->count; ++i)
        if (l->mut->cmds[i].id == id && l->mut->cmds[i].cmd)
            return &l->mut->cmds[i];
    return NULL;
}

// Checks one update descriptor (apply == 0) or applies it (apply == 1); list lock held.
static ze_result_t update_one(sim_cmdlist_t *l, const ze_base_desc_t *d, int apply) {
    uint64_t id;
    ze_mutable_command_exp_flags_t need;
    switch ((uint32_t)d->stype) {
    case ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC:
        id = ((const ze_mutable_kernel_argument_exp_desc_t *)d)->commandId;
        need = ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS;
        break;
    case ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC:
        id = ((const ze_mutable_group_count_exp_desc_t *)d)->commandId;
        need = ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_COUNT;
        break;
    case ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC:
        id = ((const ze_mutable_group_size_exp_desc_t *)d)->commandId;
        need = ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_SIZE;
        break;
    case ZE_STRUCTURE_TYPE_MUTABLE_GLOBAL_OFFSET_EXP_DESC:
        id = ((const ze_mutable_global_offset_exp_desc_t *)d)->commandId;
        need = ZE_MUTABLE_COMMAND_EXP_FLAG_GLOBAL_OFFSET;
        break;
    default:
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    sim_mutable_cmd_t *m = find(l, id);
    if (!m || !(m->flags & need) || m->cmd->kind != SIM_CMD_LAUNCH ||
        m->cmd->u.launch.num_kernels != 1)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    sim_launch_t *k = &m->cmd->u.launch.kernels[0];
    switch ((uint32_t)d->stype) {
    case ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC: {
        const ze_mutable_kernel_argument_exp_desc_t *a = (const void *)d;
        if (a->argIndex >= k->num_args)
            return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
        sim_arg_t *arg = &k->args[a->argIndex];
        // A value argument keeps its size (local memory may change its size).
        if (arg->set && !arg->is_null && a->pArgValue && a->argSize != arg->size)
            return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
        if (!apply)
            return ZE_RESULT_SUCCESS;
        unsigned char *copy = NULL;
        if (a->pArgValue) {
            if (!(copy = malloc(a->argSize ? a->argSize : 1)))
                return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
            memcpy(copy, a->pArgValue, a->argSize);
        }
        free(arg->value);
        *arg = (sim_arg_t){1, a->pArgValue == NULL, a->argSize, copy};
        return ZE_RESULT_SUCCESS;
    }
    case ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC: {
        const ze_group_count_t *g = ((const ze_mutable_group_count_exp_desc_t *)d)->pGroupCount;
        if (!g)
            return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
        if (apply)
            m->cmd->u.launch.counts = *g;
        return ZE_RESULT_SUCCESS;
    }
    case ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC: {
        const ze_mutable_group_size_exp_desc_t *s = (const void *)d;
        if (!s->groupSizeX || !s->groupSizeY || !s->groupSizeZ ||
            s->groupSizeZ > SIM_MAX_GROUP_SIZE_Z ||
            (uint64_t)s->groupSizeX * s->groupSizeY * s->groupSizeZ > SIM_MAX_GROUP_SIZE)
            return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
        if (apply) {
            k->group_size[0] = s->groupSizeX;
            k->group_size[1] = s->groupSizeY;
            k->group_size[2] = s->groupSizeZ;
        }
        return ZE_RESULT_SUCCESS;
    }
    default: {
        const ze_mutable_global_offset_exp_desc_t *o = (const void *)d;
        if (apply) {
            k->global_offset[0] = o->offsetX;
            k->global_offset[1] = o->offsetY;
            k->global_offset[2] = o->offsetZ;
        }
        return ZE_RESULT_SUCCESS;
    }
    }
}

// Every descriptor is checked before any is applied, so an update is whole or nothing.
static ze_result_t ZE_APICALL update_commands(ze_command_list_handle_t hCommandList,
                                              const ze_mutable_commands_exp_desc_t *desc) {
    ze_result_t r;
    sim_cmdlist_t *l = mutable_list(hCommandList, &r);
    if (!l)
        return r;
    if (!desc)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (desc->stype != ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC || desc->flags)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    pthread_mutex_lock(&l->lock);
    r = ZE_RESULT_SUCCESS;
    for (int apply = 0; apply < 2 && r == ZE_RESULT_SUCCESS; ++apply) {
        uint32_t n = 0;
        for (const ze_base_desc_t *d = desc->pNext; d && r == ZE_RESULT_SUCCESS; d = d->pNext)
            r = ++n > SIM_MUTABLE_MAX_CHAIN ? ZE_RESULT_ERROR_INVALID_ARGUMENT
                                            : update_one(l, d, apply);
    }
    pthread_mutex_unlock(&l->lock);
    return r;
}

static ze_result_t ZE_APICALL update_signal_event(ze_command_list_handle_t hCommandList,
                                                  uint64_t commandId,
                                                  ze_event_handle_t hSignalEvent) {
    ze_result_t r;
    sim_cmdlist_t *l = mutable_list(hCommandList, &r);
    if (!l)
        return r;
    sim_event_t *ev = NULL;
    if (hSignalEvent && !(ev = sim_obj(hSignalEvent, SIM_KIND_EVENT, &r)))
        return r;
    pthread_mutex_lock(&l->lock);
    sim_mutable_cmd_t *m = find(l, commandId);
    r = m && (m->flags & ZE_MUTABLE_COMMAND_EXP_FLAG_SIGNAL_EVENT)
            ? ZE_RESULT_SUCCESS
            : ZE_RESULT_ERROR_INVALID_ARGUMENT;
    if (r == ZE_RESULT_SUCCESS) {
        sim_engine_lock();
        if (ev)
            sim_event_retain(ev);
        if (m->cmd->signal)
            sim_event_release(m->cmd->signal);
        m->cmd->signal = ev;
        sim_engine_unlock();
    }
    pthread_mutex_unlock(&l->lock);
    return r;
}

// A NULL entry drops that dependency; the count stays the append's for later updates.
static ze_result_t ZE_APICALL update_wait_events(ze_command_list_handle_t hCommandList,
                                                 uint64_t commandId, uint32_t numWaitEvents,
                                                 ze_event_handle_t *phWaitEvents) {
    ze_result_t r;
    sim_cmdlist_t *l = mutable_list(hCommandList, &r);
    if (!l)
        return r;
    for (uint32_t i = 0; phWaitEvents && i < numWaitEvents; ++i)
        if (phWaitEvents[i] && !sim_obj(phWaitEvents[i], SIM_KIND_EVENT, &r))
            return r;
    pthread_mutex_lock(&l->lock);
    sim_mutable_cmd_t *m = find(l, commandId);
    r = m && (m->flags & ZE_MUTABLE_COMMAND_EXP_FLAG_WAIT_EVENTS)
            ? ZE_RESULT_SUCCESS
            : ZE_RESULT_ERROR_INVALID_ARGUMENT;
    if (r == ZE_RESULT_SUCCESS && numWaitEvents != m->num_waits)
        r = ZE_RESULT_ERROR_INVALID_SIZE;
    sim_event_t **waits = NULL;
    if (r == ZE_RESULT_SUCCESS && numWaitEvents && !(waits = calloc(numWaitEvents, sizeof(*waits))))
        r = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (r == ZE_RESULT_SUCCESS) {
        uint32_t n = 0;
        sim_engine_lock();
        for (uint32_t i = 0; phWaitEvents && i < numWaitEvents; ++i)
            if (phWaitEvents[i]) {
                waits[n] = (sim_event_t *)phWaitEvents[i];
                sim_event_retain(waits[n++]);
            }
        for (uint32_t i = 0; i < m->cmd->num_waits; ++i)
            sim_event_release(m->cmd->waits[i]);
        sim_engine_unlock();
        free(m->cmd->waits);
        m->cmd->waits = waits;
        m->cmd->num_waits = n;
    }
    pthread_mutex_unlock(&l->lock);
    return r;
}

// The new kernel's snapshot replaces the launch; its arguments start unset, since the
// specification makes the caller set every argument, group size and count again.
static ze_result_t ZE_APICALL update_kernels(ze_command_list_handle_t hCommandList,
                                             uint32_t numKernels, uint64_t *pCommandId,
                                             ze_kernel_handle_t *phKernels) {
    ze_result_t r;
    sim_cmdlist_t *l = mutable_list(hCommandList, &r);
    if (!l)
        return r;
    if (!pCommandId || !phKernels)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    pthread_mutex_lock(&l->lock);
    r = ZE_RESULT_SUCCESS;
    for (uint32_t i = 0; i < numKernels && r == ZE_RESULT_SUCCESS; ++i) {
        sim_mutable_cmd_t *m = find(l, pCommandId[i]);
        int listed = 0;
        for (uint32_t j = 0; m && j < m->num_kernels; ++j)
            listed = listed || m->kernels[j] == phKernels[i];
        if (!m || !(m->flags & ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_INSTRUCTION) || !listed ||
            m->cmd->kind != SIM_CMD_LAUNCH || m->cmd->u.launch.num_kernels != 1)
            r = ZE_RESULT_ERROR_INVALID_ARGUMENT; // 1.4 has no INVALID_KERNEL_HANDLE
    }
    for (uint32_t i = 0; i < numKernels && r == ZE_RESULT_SUCCESS; ++i) {
        sim_mutable_cmd_t *m = find(l, pCommandId[i]);
        sim_launch_t fresh;
        r = sim_kernel_snapshot(phKernels[i], &fresh);
        if (r != ZE_RESULT_SUCCESS)
            break;
        for (uint32_t a = 0; a < fresh.num_args; ++a) {
            free(fresh.args[a].value);
            fresh.args[a] = (sim_arg_t){0, 0, 0, NULL};
        }
        sim_launch_fini(&m->cmd->u.launch.kernels[0]);
        m->cmd->u.launch.kernels[0] = fresh;
    }
    pthread_mutex_unlock(&l->lock);
    return r;
}

sim_fn_t sim_mutable_function(const char *name) {
    static const struct {
        const char *name;
        sim_fn_t fn;
    } table[] = {
        {"zeCommandListGetNextCommandIdExp", (sim_fn_t)next_command_id},
        {"zeCommandListGetNextCommandIdWithKernelsExp", (sim_fn_t)next_command_id_with_kernels},
        {"zeCommandListUpdateMutableCommandsExp", (sim_fn_t)update_commands},
        {"zeCommandListUpdateMutableCommandSignalEventExp", (sim_fn_t)update_signal_event},
        {"zeCommandListUpdateMutableCommandWaitEventsExp", (sim_fn_t)update_wait_events},
        {"zeCommandListUpdateMutableCommandKernelsExp", (sim_fn_t)update_kernels},
    };
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); ++i)
        if (strcmp(name, table[i].name) == 0)
            return table[i].fn;
    return NULL;
}
