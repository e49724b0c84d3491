// SPDX-License-Identifier: MIT
// A simulated CUDA driver (libcuda.so.1) for running the CUDA adapter's suites without a GPU.
// See README.md for the model: one device, device memory in host memory, a worker thread per
// stream running its commands in order, modules parsed from PTX (or a cubin's ELF symbols),
// and the test kernels of test/conformance/cuda/kernels executed as C functions.
#ifndef URC_TEST_CUDA_SIM_INTERNAL_H
#define URC_TEST_CUDA_SIM_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#define SIM_EXPORT __attribute__((visibility("default")))

// ---- driver.c ----
/// The error every call returns once a device assert fired (0 while none did).
extern atomic_int sim_sticky;
/// Returns the sticky error when set, for the calls that touch the context.
#define SIM_STICKY()                                                                               \
    do {                                                                                           \
        int sticky_ = atomic_load(&sim_sticky);                                                    \
        if (sticky_ != 0)                                                                          \
            return (CUresult)sticky_;                                                              \
    } while (0)
/// Counts one call of a CUDA function (each exported cu* function calls it first).
void sim_count_call(void);

/// Events (stream.c) as IPC event handles need them (ipc_event.c): creation flags, one more
/// reference for an open; sim_ipc_event_unref drops one (`refs` is the event's count) and is
/// true at the last, when the event has left the export registry and may be freed.
unsigned sim_event_flags(CUevent e);
void sim_event_ref(CUevent e);
bool sim_ipc_event_unref(CUevent e, atomic_int *refs);
bool sim_initialised(void);
/// True when the calling thread has a current context (cuCtxSetCurrent).
bool sim_has_context(void);
double sim_now_ms(void);

// ---- memory.c ----
/// cuMemFree without waiting for pending work, for frees that already run in stream order.
CUresult sim_mem_free_now(CUdeviceptr dptr);
typedef enum sim_mem_kind_t {
    SIM_MEM_DEVICE = 1,
    SIM_MEM_HOST,      // cuMemAllocHost / cuMemHostAlloc: pinned
    SIM_MEM_MANAGED,   // cuMemAllocManaged
    SIM_MEM_REGISTERED // cuMemHostRegister'ed user memory
} sim_mem_kind_t;

typedef struct sim_alloc_t {
    uintptr_t base;
    size_t size;
    sim_mem_kind_t kind;
    struct sim_alloc_t *next;
} sim_alloc_t;

/// The allocation holding `p`, copied to `out`; false for memory the driver does not know.
bool sim_find_alloc(uintptr_t p, sim_alloc_t *out);
/// True when `p` is pageable host memory (not allocated or registered by the driver).
bool sim_is_pageable(const void *p);
size_t sim_device_bytes_in_use(void);
/// Module globals are device memory too: copies must see them as such.
void sim_track_global(void *p, size_t size);
void sim_untrack_global(void *p);
#define SIM_TOTAL_MEMORY    ((size_t)80 << 30)
#define SIM_RESERVED_MEMORY ((size_t)512 << 20)

// ---- vmm.c ----
#define SIM_GRANULARITY ((size_t)2 << 20)
/// True when `p` lies in a cuMemAddressReserve range: cuMemFree refuses such addresses.
bool sim_vmm_reserved(uintptr_t p);
/// Physical memory (cuMemCreate, cuMemImportFromShareableHandle): a memfd of `size` bytes.
typedef struct sim_physical_t {
    int fd;
    size_t size;
    unsigned handle_types; // CUmemAllocationHandleType bits it may be exported as
} sim_physical_t;

// ---- array.c ----
#define SIM_ARRAY_MAGIC 0x41525259u /* "ARRY" */
typedef struct sim_array_t {
    uint32_t magic;
    CUDA_ARRAY3D_DESCRIPTOR desc;
    size_t element; // bytes per element
    size_t pitch;   // bytes per row
    size_t rows;    // rows per slice (1 for 1D arrays)
    uint8_t *bytes;
} sim_array_t;
/// The array behind a CUarray or surface object, or NULL.
sim_array_t *sim_array(const void *handle);
// ---- mempool.c ----
/// The default memory pool when `base` came from cuMemAllocFromPoolAsync, else NULL.
CUmemoryPool sim_mempool_of(uintptr_t base);

// ---- stream.c ----
typedef struct sim_op_t sim_op_t;
typedef void (*sim_op_fn_t)(sim_op_t *op);

/// One command of a stream. `run` executes it on the stream's worker; `data` is freed after.
struct sim_op_t {
    sim_op_fn_t run;
    void *data;
    struct sim_op_t *next;
};

/// Queues `run(data)` on the stream (NULL: the legacy stream); the worker frees `data`.
CUresult sim_enqueue(CUstream stream, sim_op_fn_t run, void *data);
/// Waits until everything queued so far on the stream has run.
void sim_stream_drain(CUstream stream);
/// Waits for every stream's pending commands (cuCtxSynchronize, and the frees, which the real
/// driver also makes wait for work still using the memory).
void sim_streams_drain_all(void);
void sim_streams_init(void);

/// Where a capturing stream's commands go (stream.c owns it, graph.c fills it).
typedef struct sim_capture_t {
    CUgraph graph;    // NULL: the stream is not capturing
    CUgraphNode last; // the newest captured node, which the next depends on
    bool owns_graph;  // made by cuStreamBeginCapture (handed out by cuStreamEndCapture)
} sim_capture_t;
/// The capture state of a stream (the legacy stream for NULL).
sim_capture_t *sim_stream_capture(CUstream stream);

// ---- graph.c ----
/// When `s` is capturing, adds the command as a node of its graph and returns true with the
/// result in *r; false when the stream runs commands normally.
bool sim_capture_kernel(CUstream s, CUfunction f, const unsigned grid[3], const unsigned block[3],
                        unsigned shared, void **params, CUresult *r);
bool sim_capture_copy(CUstream s, const CUDA_MEMCPY3D *p, CUresult *r);
bool sim_capture_fill(CUstream s, CUdeviceptr dst, size_t pitch, uint32_t value, unsigned element,
                      size_t width, size_t height, CUresult *r);
bool sim_capture_host(CUstream s, CUhostFn fn, void *data, CUresult *r);

// ---- module.c ----
typedef struct sim_global_t {
    char *name;
    void *ptr;
    size_t size;
} sim_global_t;

typedef struct sim_module_t sim_module_t;
typedef struct sim_func_t sim_func_t;

/// How a kernel runs on the host: all blocks, one after another.
typedef struct sim_launch_t {
    const sim_func_t *func;
    unsigned grid[3], block[3];
    size_t shared;
    uint8_t *args; // parameter bytes, in order
    size_t arg_offset[32];
    unsigned nargs;
} sim_launch_t;

typedef void (*sim_kernel_fn_t)(const sim_launch_t *launch);

struct sim_func_t {
    char *name;
    sim_module_t *module;
    unsigned nparams; // 0 and params_known false for cubin functions
    bool params_known;
    size_t param_size[32];
    sim_kernel_fn_t impl; // NULL: the launch does nothing
};

struct sim_module_t {
    char *text; // the PTX of every input (linked modules), for kernels that look at it
    sim_global_t *globals;
    size_t nglobals;
    sim_func_t *funcs;
    size_t nfuncs;
};

/// The global named `name` of the module, or NULL.
sim_global_t *sim_module_global(sim_module_t *m, const char *name);

// ---- texture.c ----
/// images.cu's texture_sample: 2D RGBA float textures through the host reference sampler.
void sim_texture_sample(const sim_launch_t *launch);
/// bindless.cu's mip_sample and fetch3d_uint: R8 mipmaps at a level of detail, 3D byte arrays.
void sim_mip_sample(const sim_launch_t *launch);
void sim_fetch3d_uint(const sim_launch_t *launch);

// ---- external.c ----
/// Forgets a buffer cuExternalMemoryGetMappedBuffer handed out (cuMemFree); false for others.
bool sim_external_unmap(CUdeviceptr p);

// ---- kernels.c ----
/// The host implementation of a test kernel, or NULL.
sim_kernel_fn_t sim_kernel_impl(const char *name);

#endif // URC_TEST_CUDA_SIM_INTERNAL_H
