// SPDX-License-Identifier: MIT
// Stream-ordered allocation from the device's default memory pool: cuMemAllocFromPoolAsync
// takes the memory at once (so it is ready whenever the stream gets there), cuMemFreeAsync
// frees it when the stream reaches the free. Only memory from the pool may be freed this way.
#include <stdlib.h>

#include "cuda_sim_internal.h"

// The one device's default pool; its handle is this object's address.
static struct {
    pthread_mutex_t lock;
    uintptr_t *live; // allocations made from the pool and not yet freed (or queued for freeing)
    size_t n, cap;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER};

static bool take(uintptr_t p) {
    bool found = false;
    pthread_mutex_lock(&pool.lock);
    for (size_t i = 0; i < pool.n && !found; ++i)
        if (pool.live[i] == p) {
            pool.live[i] = pool.live[--pool.n];
            found = true;
        }
    pthread_mutex_unlock(&pool.lock);
    return found;
}

CUmemoryPool sim_mempool_of(uintptr_t base) {
    bool found = false;
    pthread_mutex_lock(&pool.lock);
    for (size_t i = 0; i < pool.n && !found; ++i)
        found = pool.live[i] == base;
    pthread_mutex_unlock(&pool.lock);
    return found ? (CUmemoryPool)&pool : NULL;
}

SIM_EXPORT CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev) {
    if (pool_out == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *pool_out = (CUmemoryPool)&pool;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t size, CUmemoryPool mp,
                                            CUstream s) {
    (void)s;
    if (mp != (CUmemoryPool)&pool || dptr == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cuMemAlloc_v2(dptr, size);
    if (r != CUDA_SUCCESS)
        return r;
    pthread_mutex_lock(&pool.lock);
    if (pool.n == pool.cap) {
        size_t cap = pool.cap ? pool.cap * 2 : 64;
        uintptr_t *v = realloc(pool.live, cap * sizeof *v);
        if (v == NULL) {
            pthread_mutex_unlock(&pool.lock);
            cuMemFree_v2(*dptr);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        pool.live = v;
        pool.cap = cap;
    }
    pool.live[pool.n++] = (uintptr_t)*dptr;
    pthread_mutex_unlock(&pool.lock);
    return CUDA_SUCCESS;
}

static void run_free(sim_op_t *op) {
    // In stream order already: draining the streams here would wait for this very op.
    (void)sim_mem_free_now((CUdeviceptr)(uintptr_t)op->data);
    op->data = NULL; // not the worker's to free
}

SIM_EXPORT CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream s) {
    SIM_STICKY();
    if (!take((uintptr_t)dptr))
        return CUDA_ERROR_INVALID_VALUE;
    return sim_enqueue(s, run_free, (void *)(uintptr_t)dptr);
}

SIM_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t size, CUstream s) {
    return cuMemAllocFromPoolAsync(dptr, size, (CUmemoryPool)&pool, s);
}
