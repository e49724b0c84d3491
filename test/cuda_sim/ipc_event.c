// SPDX-License-Identifier: MIT
// IPC event handles. The simulator's events are private to a process, and the real driver
// refuses to open a handle in the process that made it (CUDA_ERROR_INVALID_CONTEXT): so no
// handle opens here, and the adapter answers opens in the exporting process itself. Events must
// have been made with CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING, as the real driver
// requires; garbage handle data are CUDA_ERROR_INVALID_VALUE.
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "cuda_sim_internal.h"

#define SIM_IPC_EVENT_MAGIC 0x55524345u /* "URCE" */

typedef struct sim_ipc_event_t {
    uint32_t magic;
    uint32_t pid;
    uint64_t event;
} sim_ipc_event_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static CUevent exported[256];
static size_t nexported;

static bool is_exported_locked(CUevent e) {
    for (size_t i = 0; i < nexported; ++i)
        if (exported[i] == e)
            return true;
    return false;
}

// Under the registry's lock, so an open cannot take a reference to an event being destroyed.
bool sim_ipc_event_unref(CUevent e, atomic_int *refs) {
    pthread_mutex_lock(&lock);
    bool last = atomic_fetch_sub(refs, 1) == 1;
    for (size_t i = 0; last && i < nexported; ++i)
        if (exported[i] == e) {
            exported[i] = exported[--nexported];
            break;
        }
    pthread_mutex_unlock(&lock);
    return last;
}

SIM_EXPORT CUresult cuIpcGetEventHandle(CUipcEventHandle *handle, CUevent event) {
    sim_count_call();
    SIM_STICKY();
    const unsigned need = CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING;
    if (handle == NULL || event == NULL || (sim_event_flags(event) & need) != need)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    CUresult r = CUDA_SUCCESS;
    if (!is_exported_locked(event)) {
        if (nexported < sizeof exported / sizeof exported[0])
            exported[nexported++] = event;
        else
            r = CUDA_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_unlock(&lock);
    if (r != CUDA_SUCCESS)
        return r;
    sim_ipc_event_t h = {SIM_IPC_EVENT_MAGIC, (uint32_t)getpid(), (uint64_t)(uintptr_t)event};
    memset(handle, 0, sizeof *handle);
    memcpy(handle->reserved, &h, sizeof h);
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuIpcOpenEventHandle(CUevent *phEvent, CUipcEventHandle handle) {
    sim_count_call();
    SIM_STICKY();
    sim_ipc_event_t h;
    memcpy(&h, handle.reserved, sizeof h);
    if (phEvent == NULL || h.magic != SIM_IPC_EVENT_MAGIC)
        return CUDA_ERROR_INVALID_VALUE;
    // The real driver refuses to open a handle in the process that made it; another process's
    // event the simulator cannot reach.
    if (h.pid == (uint32_t)getpid())
        return CUDA_ERROR_INVALID_CONTEXT;
    return CUDA_ERROR_MAP_FAILED;
}
