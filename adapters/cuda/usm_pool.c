// SPDX-License-Identifier: MIT
// USM pools (common/pool/pool_handle) over cuMemAlloc, cuMemAllocManaged and cuMemHostAlloc.
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "memory/usm_async.h"
#include "pool/pool_handle.h"

static ur_result_t native_alloc(void *native, size_t size, size_t align, bool zero, void **out) {
    (void)align; // at most what the driver gives anyway (caps below)
    const urc_usm_target_t *t = native;
    const cuda_context_t *ctx = t->context;
    const cuda_device_t *dev = t->device != NULL ? t->device : ctx->devices[0];
    // As urUSM*Alloc: more than a device holds is INVALID_USM_SIZE, not a driver's attempt
    // (pinned host memory is mapped into the device too).
    if (size > dev->total_mem)
        return urc_error_set(UR_RESULT_ERROR_INVALID_USM_SIZE, 0,
                             "%zu bytes exceed the device's %zu", size, dev->total_mem);
    ur_result_t res = cuda_activate(dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    void *p = NULL;
    CUdeviceptr d = 0;
    if (t->type == UR_USM_TYPE_HOST) {
        CUresult r =
            cu.MemHostAlloc(&p, size, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP);
        if (r == CUDA_ERROR_OUT_OF_MEMORY)
            return urc_error_set(UR_RESULT_ERROR_OUT_OF_HOST_MEMORY, (int32_t)r,
                                 "cuMemHostAlloc could not pin a %zu-byte pool slab", size);
        res = cuda_ok(r, "cuMemHostAlloc");
    } else if (t->type == UR_USM_TYPE_DEVICE) {
        res = cuda_ok(cu.MemAlloc(&d, size), "cuMemAlloc");
        p = (void *)(uintptr_t)d;
    } else {
        res = cuda_ok(cu.MemAllocManaged(&d, size, CU_MEM_ATTACH_GLOBAL), "cuMemAllocManaged");
        p = (void *)(uintptr_t)d;
    }
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (zero && t->type != UR_USM_TYPE_DEVICE) {
        memset(p, 0, size);
    } else if (zero) {
        res = cuda_ok(cu.MemsetD8Async(d, 0, size, NULL), "cuMemsetD8Async");
        if (res == UR_RESULT_SUCCESS)
            res = cuda_ok(cu.CtxSynchronize(), "cuCtxSynchronize");
        if (res != UR_RESULT_SUCCESS) {
            (void)cu.MemFree(d);
            return res;
        }
    }
    *out = p;
    return UR_RESULT_SUCCESS;
}

static ur_result_t native_free(void *native, void *ptr) {
    const urc_usm_target_t *t = native;
    const cuda_context_t *ctx = t->context;
    ur_result_t res = cuda_activate(t->device != NULL ? t->device : ctx->devices[0]);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (t->type == UR_USM_TYPE_HOST)
        return cuda_ok(cu.MemFreeHost(ptr), "cuMemFreeHost");
    return cuda_ok(cu.MemFree((CUdeviceptr)(uintptr_t)ptr), "cuMemFree");
}

// cuMemAlloc guarantees 256 bytes, cuMemHostAlloc a page. Shared slabs need managed memory,
// which every device urc supports has (a device without it refuses the pool allocation).
URC_USM_POOL_ADAPTER(cuda, CUDA_CONTEXT, native_alloc, native_free,
                     {.host_align = 4096, .device_align = 256, .host = true, .shared = true});

// ---- stream-ordered allocation: the pool plus the queue's order ----

URC_USM_ASYNC_ADAPTER(cuda, CUDA_QUEUE, cuda_enqueue_barrier);

// Device memory for the device's default pool comes from the driver's own stream-ordered
// allocator (cuMemAllocFromPoolAsync on the device's default memory pool, cuMemFreeAsync);
// host and shared memory, and any pool the program made or set, take common/memory/usm_async.
// The driver's pool is the device's, shared by every context: which context each of its
// allocations was made in is urc's record, so a free through another context's queue is
// refused. Sharded by address; each shard's lock is held for one short scan.
#define ASYNC_SHARDS 32
static struct async_shard_t {
    pthread_mutex_t lock;
    struct async_entry_t {
        CUdeviceptr ptr;
        const cuda_context_t *ctx;
    } * items;
    size_t count, cap;
} async_shards[ASYNC_SHARDS];
static pthread_once_t async_once = PTHREAD_ONCE_INIT;

static void async_init(void) {
    for (size_t i = 0; i < ASYNC_SHARDS; ++i)
        pthread_mutex_init(&async_shards[i].lock, NULL);
}

static struct async_shard_t *async_shard(CUdeviceptr p) {
    pthread_once(&async_once, async_init);
    return &async_shards[(p >> 8) % ASYNC_SHARDS];
}

static bool async_note(CUdeviceptr p, const cuda_context_t *ctx) {
    struct async_shard_t *sh = async_shard(p);
    bool ok = true;
    pthread_mutex_lock(&sh->lock);
    // An address handed out again was freed in between by a call urc does not watch
    // (urUSMFree, the native API): the newer record replaces the older.
    for (size_t i = 0; i < sh->count; ++i)
        if (sh->items[i].ptr == p) {
            sh->items[i].ctx = ctx;
            pthread_mutex_unlock(&sh->lock);
            return true;
        }
    if (sh->count == sh->cap) {
        size_t cap = sh->cap ? 2 * sh->cap : 16;
        struct async_entry_t *grown = realloc(sh->items, cap * sizeof *grown);
        if (grown == NULL)
            ok = false;
        else {
            sh->items = grown;
            sh->cap = cap;
        }
    }
    if (ok)
        sh->items[sh->count++] = (struct async_entry_t){p, ctx};
    pthread_mutex_unlock(&sh->lock);
    return ok;
}

// Takes `p` out of the record when `ctx` made it: SUCCESS; INVALID_MEM_OBJECT when another
// context did. Memory the record does not know (made before it, or by the native API) is left
// to the driver's answer.
static ur_result_t async_take(CUdeviceptr p, const cuda_context_t *ctx, bool *found) {
    struct async_shard_t *sh = async_shard(p);
    ur_result_t res = UR_RESULT_SUCCESS;
    *found = false;
    pthread_mutex_lock(&sh->lock);
    for (size_t i = 0; i < sh->count; ++i) {
        if (sh->items[i].ptr != p)
            continue;
        if (sh->items[i].ctx != ctx)
            res = urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                                "%p was allocated through a queue of another context",
                                (void *)(uintptr_t)p);
        else {
            sh->items[i] = sh->items[--sh->count];
            *found = true;
        }
        break;
    }
    if (sh->count == 0) { // nothing kept while nothing is recorded (the library may be unloaded)
        free(sh->items);
        sh->items = NULL;
        sh->cap = 0;
    }
    pthread_mutex_unlock(&sh->lock);
    return res;
}

static bool async_of_context(const void *entry, const void *ctx) {
    return ((const struct async_entry_t *)entry)->ctx == ctx;
}

void cuda_usm_async_context_destroyed(const cuda_context_t *ctx) {
    for (size_t i = 0; i < ASYNC_SHARDS; ++i) {
        struct async_shard_t *sh = async_shard((CUdeviceptr)i << 8);
        pthread_mutex_lock(&sh->lock);
        sh->items = urc_array_remove_if(sh->items, &sh->count, &sh->cap, sizeof *sh->items,
                                        async_of_context, ctx);
        pthread_mutex_unlock(&sh->lock);
    }
}

static bool native_async(cuda_queue_t *q, ur_usm_pool_handle_t pool) {
    if (pool != NULL || cu.DeviceGetDefaultMemPool == NULL || cu.MemAllocFromPoolAsync == NULL ||
        cu.MemFreeAsync == NULL)
        return false;
    ur_usm_pool_handle_t current = NULL;
    return urc_usm_pool_get_device_pool_exp(&cuda_pool_adapter, (ur_context_handle_t)q->ctx,
                                            (ur_device_handle_t)q->dev,
                                            &current) == UR_RESULT_SUCCESS &&
           ((urc_usm_pool_t *)current)->context_owned;
}

ur_result_t cuda_enqueue_usm_device_alloc_exp(
    ur_queue_handle_t hQueue, ur_usm_pool_handle_t pPool, const size_t size,
    const ur_exp_async_usm_alloc_properties_t *pProperties, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, void **ppMem, ur_event_handle_t *phEvent) {
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    if (!native_async(q, pPool))
        return urc_usm_enqueue_alloc(&cuda_async_adapter, hQueue, pPool, UR_USM_TYPE_DEVICE, size,
                                     pProperties, numEventsInWaitList, phEventWaitList, ppMem,
                                     phEvent);
    if (pProperties != NULL && (pProperties->flags & UR_EXP_ASYNC_USM_ALLOC_FLAGS_MASK))
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    if (size == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_USM_SIZE, 0,
                             "an enqueued USM allocation of 0 bytes");
    cuda_op_t op;
    ur_result_t res = cuda_op_begin(q, UR_COMMAND_ENQUEUE_USM_DEVICE_ALLOC_EXP, numEventsInWaitList,
                                    phEventWaitList, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUmemoryPool mp = NULL;
    CUdeviceptr d = 0;
    res = cuda_ok(cu.DeviceGetDefaultMemPool(&mp, q->dev->cu), "cuDeviceGetDefaultMemPool");
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.MemAllocFromPoolAsync(&d, size, mp, op.stream), "cuMemAllocFromPoolAsync");
    if (res == UR_RESULT_SUCCESS && !async_note(d, q->ctx)) {
        (void)cu.MemFreeAsync(d, op.stream);
        res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    res = cuda_op_end(&op, res, false, phEvent);
    if (res == UR_RESULT_SUCCESS)
        *ppMem = (void *)(uintptr_t)d;
    return res;
}

ur_result_t cuda_enqueue_usm_free_exp(ur_queue_handle_t hQueue, ur_usm_pool_handle_t pPool,
                                      void *pMem, uint32_t numEventsInWaitList,
                                      const ur_event_handle_t *phEventWaitList,
                                      ur_event_handle_t *phEvent) {
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    // Memory of a common pool goes back there; the rest came from the driver's pool.
    if (pPool != NULL || urc_usm_pool_of(pMem, NULL, NULL, NULL) != NULL || cu.MemFreeAsync == NULL)
        return urc_usm_enqueue_free(&cuda_async_adapter, hQueue, pPool, pMem, numEventsInWaitList,
                                    phEventWaitList, phEvent);
    // Only the driver pool's memory is freed this way: a plain allocation is refused, not freed.
    ur_result_t res = cuda_activate(q->dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUmemoryPool owner = NULL;
    if (cu.PointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE,
                               (CUdeviceptr)(uintptr_t)pMem) != CUDA_SUCCESS ||
        owner == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "%p is not an enqueued USM allocation", pMem);
    CUdeviceptr d = (CUdeviceptr)(uintptr_t)pMem;
    bool recorded = false;
    if ((res = async_take(d, q->ctx, &recorded)) != UR_RESULT_SUCCESS)
        return res;
    cuda_op_t op;
    res = cuda_op_begin(q, UR_COMMAND_ENQUEUE_USM_FREE_EXP, numEventsInWaitList, phEventWaitList,
                        phEvent, &op);
    if (res == UR_RESULT_SUCCESS) {
        res = cuda_ok(cu.MemFreeAsync(d, op.stream), "cuMemFreeAsync");
        res = cuda_op_end(&op, res, false, phEvent);
    }
    if (res != UR_RESULT_SUCCESS && recorded)
        (void)async_note(d, q->ctx); // the driver refused the free: the memory lives on
    return res;
}

ur_result_t cuda_enqueue_usm_shared_alloc_exp(
    ur_queue_handle_t hQueue, ur_usm_pool_handle_t pPool, const size_t size,
    const ur_exp_async_usm_alloc_properties_t *pProperties, uint32_t numEventsInWaitList,
    const ur_event_handle_t *phEventWaitList, void **ppMem, ur_event_handle_t *phEvent) {
    return urc_usm_enqueue_alloc(&cuda_async_adapter, hQueue, pPool, UR_USM_TYPE_SHARED, size,
                                 pProperties, numEventsInWaitList, phEventWaitList, ppMem, phEvent);
}

ur_result_t cuda_enqueue_usm_host_alloc_exp(ur_queue_handle_t hQueue, ur_usm_pool_handle_t pPool,
                                            const size_t size,
                                            const ur_exp_async_usm_alloc_properties_t *pProperties,
                                            uint32_t numEventsInWaitList,
                                            const ur_event_handle_t *phEventWaitList, void **ppMem,
                                            ur_event_handle_t *phEvent) {
    return urc_usm_enqueue_alloc(&cuda_async_adapter, hQueue, pPool, UR_USM_TYPE_HOST, size,
                                 pProperties, numEventsInWaitList, phEventWaitList, ppMem, phEvent);
}

#define A      (&cuda_pool_adapter)
#define PREFIX cuda
#include "pool/pool_entry_points.inc"
