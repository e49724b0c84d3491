// SPDX-License-Identifier: MIT
// IPC event pools. The simulated device lives in one process, so a pool's IPC handle opens only
// there (another process's handle is ZE_RESULT_ERROR_INVALID_ARGUMENT); what the model keeps is
// the sharing: an event of an exported pool and the events at the same index of pools opened
// from its handle are one event, so a signal or reset through any handle is seen through all.
// Handles name exported pools only; garbage or a destroyed pool's handle is refused.
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ze_sim_entry.h"
#include "ze_sim_internal.h"

#define SIM_IPC_POOL_MAGIC 0x55524350u /* "URCP" */

typedef struct sim_ipc_pool_handle_t {
    uint32_t magic;
    uint32_t pid;
    uint64_t pool;
} sim_ipc_pool_handle_t;

// Exported pools, and the shared event of each (exported pool, index). Engine lock held.
static sim_event_pool_t *exported[64];
static size_t nexported;

typedef struct shared_t {
    sim_event_pool_t *origin;
    uint32_t index;
    sim_event_t *event;
} shared_t;
static shared_t shared[256];
static size_t nshared;

static sim_event_pool_t *origin_of(sim_event_pool_t *pool) {
    return pool->origin != NULL ? pool->origin : pool;
}

sim_event_t *sim_ipc_event_share(sim_event_pool_t *pool, uint32_t index) {
    sim_event_pool_t *o = origin_of(pool);
    for (size_t i = 0; i < nshared; ++i)
        if (shared[i].origin == o && shared[i].index == index) {
            shared[i].event->ipc_handles++;
            return shared[i].event;
        }
    return NULL;
}

void sim_ipc_event_shared(sim_event_pool_t *pool, sim_event_t *ev) {
    ev->ipc_handles = 1;
    if (nshared < sizeof shared / sizeof shared[0])
        shared[nshared++] = (shared_t){origin_of(pool), ev->index, ev};
}

int sim_ipc_event_unshare(sim_event_t *ev) {
    if (ev->ipc_handles > 1) {
        ev->ipc_handles--;
        return 1;
    }
    for (size_t i = 0; i < nshared; ++i)
        if (shared[i].event == ev) {
            shared[i] = shared[--nshared];
            break;
        }
    return 0;
}

void sim_ipc_pool_forget(sim_event_pool_t *pool) {
    for (size_t i = 0; i < nexported; ++i)
        if (exported[i] == pool) {
            exported[i] = exported[--nexported];
            break;
        }
    // Events already made keep their state; new ones of this pool start afresh.
    for (size_t i = 0; i < nshared;)
        if (shared[i].origin == pool)
            shared[i] = shared[--nshared];
        else
            ++i;
}

ze_result_t sim_event_pool_get_ipc_handle(ze_event_pool_handle_t hEventPool,
                                          ze_ipc_event_pool_handle_t *phIpc) {
    ze_result_t r;
    sim_event_pool_t *pool = sim_obj(hEventPool, SIM_KIND_EVENT_POOL, &r);
    if (!pool)
        return r;
    if (!phIpc)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (!(pool->flags & ZE_EVENT_POOL_FLAG_IPC) || pool->origin != NULL)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    sim_engine_lock();
    int known = 0;
    for (size_t i = 0; i < nexported; ++i)
        known = known || exported[i] == pool;
    r = ZE_RESULT_SUCCESS;
    if (!known && nexported < sizeof exported / sizeof exported[0])
        exported[nexported++] = pool;
    else if (!known)
        r = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    sim_engine_unlock();
    if (r != ZE_RESULT_SUCCESS)
        return r;
    sim_ipc_pool_handle_t h = {SIM_IPC_POOL_MAGIC, (uint32_t)getpid(), (uint64_t)(uintptr_t)pool};
    memset(phIpc, 0, sizeof *phIpc);
    memcpy(phIpc->data, &h, sizeof h);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_event_pool_open_ipc_handle(ze_context_handle_t hContext,
                                           ze_ipc_event_pool_handle_t hIpc,
                                           ze_event_pool_handle_t *phEventPool) {
    ze_result_t r;
    if (!sim_obj(hContext, SIM_KIND_CONTEXT, &r))
        return r;
    if (!phEventPool)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    sim_ipc_pool_handle_t h;
    memcpy(&h, hIpc.data, sizeof h);
    if (h.magic != SIM_IPC_POOL_MAGIC || h.pid != (uint32_t)getpid())
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    sim_event_pool_t *origin = (sim_event_pool_t *)(uintptr_t)h.pool;
    sim_engine_lock();
    int known = 0;
    for (size_t i = 0; i < nexported; ++i)
        known = known || exported[i] == origin;
    ze_event_pool_flags_t flags = known ? origin->flags : 0;
    uint32_t count = known ? origin->count : 0;
    sim_engine_unlock();
    if (!known)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    sim_event_pool_t *pool = calloc(1, sizeof(*pool));
    if (!pool)
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    sim_obj_init(&pool->hdr, SIM_KIND_EVENT_POOL);
    pool->flags = flags;
    pool->count = count;
    pool->origin = origin;
    *phEventPool = (ze_event_pool_handle_t)pool;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_event_pool_close_ipc_handle(ze_event_pool_handle_t hEventPool) {
    ze_result_t r;
    sim_event_pool_t *pool = sim_obj(hEventPool, SIM_KIND_EVENT_POOL, &r);
    if (!pool)
        return r;
    if (pool->origin == NULL)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT; // not opened from a handle
    sim_obj_fini(&pool->hdr);
    free(pool);
    return ZE_RESULT_SUCCESS;
}
