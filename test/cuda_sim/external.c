// SPDX-License-Identifier: MIT
// External memory and semaphores, for the adapter's bindless interop: an opaque (or dma-buf)
// file descriptor is mapped shared, so a buffer mapped from it (cuExternalMemoryGetMappedBuffer)
// aliases what the exporter sees, and is device memory for copies until cuMemFree; a mipmapped
// array mapped from it is a fresh one of the asked shape (no aliasing: enough for the adapter's
// bookkeeping). Semaphores are counters: a signal sets a timeline value (or makes a binary one
// signalled), a wait blocks its stream until the value is reached (or consumes the signal). The
// driver owns an imported descriptor and closes it, as CUDA does.
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuda_sim_internal.h"

#define SIM_EXTMEM_MAGIC 0x45584d4du /* "EXMM" */
#define SIM_EXTSEM_MAGIC 0x45585353u /* "EXSS" */
#define SIM_MAX_MAPPED   64

typedef struct sim_extmem_t {
    uint32_t magic;
    uint8_t *base;
    size_t size;
} sim_extmem_t;

typedef struct sim_extsem_t {
    uint32_t magic;
    bool timeline;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    uint64_t value;
} sim_extsem_t;

// Buffers mapped out of external memory, which cuMemFree releases (memory.c asks).
static pthread_mutex_t mapped_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t mapped[SIM_MAX_MAPPED];

static sim_extmem_t *extmem_of(CUexternalMemory h) {
    sim_extmem_t *m = (sim_extmem_t *)h;
    return m != NULL && m->magic == SIM_EXTMEM_MAGIC ? m : NULL;
}

static sim_extsem_t *extsem_of(CUexternalSemaphore h) {
    sim_extsem_t *s = (sim_extsem_t *)h;
    return s != NULL && s->magic == SIM_EXTSEM_MAGIC ? s : NULL;
}

SIM_EXPORT CUresult cuImportExternalMemory(CUexternalMemory *out,
                                           const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *d) {
    sim_count_call();
    SIM_STICKY();
    if (out == NULL || d == NULL || d->size == 0 ||
        (d->type != CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD &&
         d->type != CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD))
        return CUDA_ERROR_INVALID_VALUE;
    struct stat st;
    if (fstat(d->handle.fd, &st) != 0 || (unsigned long long)st.st_size < d->size)
        return CUDA_ERROR_INVALID_HANDLE;
    void *base = mmap(NULL, d->size, PROT_READ | PROT_WRITE, MAP_SHARED, d->handle.fd, 0);
    if (base == MAP_FAILED)
        return CUDA_ERROR_INVALID_HANDLE;
    sim_extmem_t *m = calloc(1, sizeof *m);
    if (m == NULL) {
        munmap(base, d->size);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *m = (sim_extmem_t){SIM_EXTMEM_MAGIC, base, d->size};
    close(d->handle.fd); // the driver owns it now
    *out = (CUexternalMemory)m;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDestroyExternalMemory(CUexternalMemory h) {
    sim_count_call();
    sim_extmem_t *m = extmem_of(h);
    if (m == NULL)
        return CUDA_ERROR_INVALID_HANDLE;
    m->magic = 0;
    munmap(m->base, m->size);
    free(m);
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuExternalMemoryGetMappedBuffer(CUdeviceptr *out, CUexternalMemory h,
                                                    const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *d) {
    sim_count_call();
    SIM_STICKY();
    sim_extmem_t *m = extmem_of(h);
    if (out == NULL || d == NULL || m == NULL || d->size == 0 || d->offset > m->size ||
        d->size > m->size - d->offset)
        return CUDA_ERROR_INVALID_VALUE;
    uint8_t *p = m->base + d->offset;
    pthread_mutex_lock(&mapped_lock);
    size_t i = 0;
    while (i < SIM_MAX_MAPPED && mapped[i] != 0)
        ++i;
    if (i < SIM_MAX_MAPPED)
        mapped[i] = (uintptr_t)p;
    pthread_mutex_unlock(&mapped_lock);
    if (i == SIM_MAX_MAPPED)
        return CUDA_ERROR_OUT_OF_MEMORY;
    sim_track_global(p, d->size); // device memory to copies and pointer queries
    *out = (CUdeviceptr)p;
    return CUDA_SUCCESS;
}

bool sim_external_unmap(CUdeviceptr p) {
    bool found = false;
    pthread_mutex_lock(&mapped_lock);
    for (size_t i = 0; i < SIM_MAX_MAPPED; ++i)
        if (p != 0 && mapped[i] == p) {
            mapped[i] = 0;
            found = true;
            break;
        }
    pthread_mutex_unlock(&mapped_lock);
    if (found)
        sim_untrack_global((void *)p);
    return found;
}

SIM_EXPORT CUresult cuExternalMemoryGetMappedMipmappedArray(
    CUmipmappedArray *out, CUexternalMemory h, const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *d) {
    sim_count_call();
    SIM_STICKY();
    if (out == NULL || d == NULL || extmem_of(h) == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    return cuMipmappedArrayCreate(out, &d->arrayDesc, d->numLevels);
}

SIM_EXPORT CUresult cuImportExternalSemaphore(CUexternalSemaphore *out,
                                              const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *d) {
    sim_count_call();
    SIM_STICKY();
    if (out == NULL || d == NULL ||
        (d->type != CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD &&
         d->type != CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD))
        return CUDA_ERROR_INVALID_VALUE;
    struct stat st;
    if (fstat(d->handle.fd, &st) != 0)
        return CUDA_ERROR_INVALID_HANDLE;
    sim_extsem_t *s = calloc(1, sizeof *s);
    if (s == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    s->magic = SIM_EXTSEM_MAGIC;
    s->timeline = d->type == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->changed, NULL);
    close(d->handle.fd);
    *out = (CUexternalSemaphore)s;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDestroyExternalSemaphore(CUexternalSemaphore h) {
    sim_count_call();
    sim_extsem_t *s = extsem_of(h);
    if (s == NULL)
        return CUDA_ERROR_INVALID_HANDLE;
    sim_streams_drain_all(); // no pending wait or signal may still use it
    s->magic = 0;
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->changed);
    free(s);
    return CUDA_SUCCESS;
}

typedef struct sem_op_t {
    sim_extsem_t *sem;
    uint64_t value;
} sem_op_t;

static void run_signal(sim_op_t *op) {
    sem_op_t *o = op->data;
    pthread_mutex_lock(&o->sem->lock);
    o->sem->value = o->sem->timeline ? o->value : 1;
    pthread_cond_broadcast(&o->sem->changed);
    pthread_mutex_unlock(&o->sem->lock);
}

static void run_wait(sim_op_t *op) {
    sem_op_t *o = op->data;
    pthread_mutex_lock(&o->sem->lock);
    uint64_t want = o->sem->timeline ? o->value : 1;
    while (o->sem->value < want && atomic_load(&sim_sticky) == 0)
        pthread_cond_wait(&o->sem->changed, &o->sem->lock);
    if (!o->sem->timeline)
        o->sem->value = 0; // a binary wait consumes the signal
    pthread_mutex_unlock(&o->sem->lock);
}

static CUresult sem_ops(const CUexternalSemaphore *sems, unsigned n, bool signal,
                        const unsigned long long *values, size_t stride, CUstream stream) {
    SIM_STICKY();
    if (sems == NULL || values == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < n; ++i) {
        sim_extsem_t *s = extsem_of(sems[i]);
        sem_op_t *o = s != NULL ? malloc(sizeof *o) : NULL;
        if (o == NULL)
            return s == NULL ? CUDA_ERROR_INVALID_HANDLE : CUDA_ERROR_OUT_OF_MEMORY;
        o->sem = s;
        o->value = *(const unsigned long long *)(const void *)((const char *)values + i * stride);
        CUresult r = sim_enqueue(stream, signal ? run_signal : run_wait, o);
        if (r != CUDA_SUCCESS)
            return r;
    }
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuSignalExternalSemaphoresAsync(
    const CUexternalSemaphore *sems, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *params,
    unsigned n, CUstream stream) {
    sim_count_call();
    return sem_ops(sems, n, true, params ? &params->params.fence.value : NULL, sizeof *params,
                   stream);
}

SIM_EXPORT CUresult cuWaitExternalSemaphoresAsync(const CUexternalSemaphore *sems,
                                                  const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *params,
                                                  unsigned n, CUstream stream) {
    sim_count_call();
    return sem_ops(sems, n, false, params ? &params->params.fence.value : NULL, sizeof *params,
                   stream);
}
