// SPDX-License-Identifier: MIT
// The CUDA adapter's objects and the helpers its files share. Every handle starts with
// urc_object_t (the table pointer UR's loader reads, then the reference count).
#ifndef URC_CUDA_CUDA_INTERNAL_H
#define URC_CUDA_CUDA_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/alloc.h"
#include "core/deleters.h"
#include "memory/buffer.h"
#include "queue/command_buffer.h"
#include "cuda_driver.h"
#include "cuda_entry_points.h"
// Casts of the public handles to the structs below, and cuda_is.
#include "cuda_handles.h"
#include "program/devglobal.h"
#include "device/device_info.h"
#include "core/error.h"
#include "image/image.h"
#include "core/info.h"
#include "env/log.h"
#include "memory/mapping.h"
#include "core/object.h"
#include "core/quarantine.h"
#include "program/props.h"
#include "program/spirv_scan.h"
#include "spirv.h"
#include "memory/ranges.h"
#include "program/requirements.h"
#include "queue/reusable_event.h"
#include "memory/usm_range.h"

/// Streams of an out-of-order queue; an in-order queue has one.
#define CUDA_OOO_STREAMS 4
/// Idle streams a device keeps from released queues, for the next queues to use.
#define CUDA_STREAM_POOL 32
/// Idle CUevents a device keeps for the next commands' events, per kind (timing or not).
#define CUDA_EVENT_POOL 64
/// Bytes of each JIT log (info and error) a build or link captures.
#define CUDA_JIT_LOG_SIZE 16384

typedef struct cuda_platform_t cuda_platform_t;

/// CUevents of one kind (with timing or without) that released UR events gave back (event.c).
typedef struct cuda_event_pool_t {
    pthread_mutex_t lock;
    uint32_t count;
    CUevent events[CUDA_EVENT_POOL];
} cuda_event_pool_t;

typedef struct cuda_device_t {
    urc_object_t obj;
    cuda_platform_t *platform;
    CUdevice cu;
    uint32_t index;
    CUcontext ctx; // the primary context, retained for the life of the process
    int cc_major, cc_minor;
    int warp_size;
    int sm_count;
    int max_threads_per_block;
    int max_block[3];
    int max_grid[3];
    int max_regs_per_block;
    int max_shared_optin; // shared ("local") memory a block may opt into
    bool managed, concurrent_managed, unified_addressing;
    size_t total_mem;
    // Profiling timeline: base_event completed at host time base_host_ns.
    CUevent base_event;
    uint64_t base_host_ns;
    char name[256];
    urc_device_caps_t caps; // what requirement checks see (URC_MASK_ASPECTS applied)
    // Idle non-blocking streams of default priority, synchronised, from released queues.
    pthread_mutex_t stream_pool_lock;
    CUstream stream_pool[CUDA_STREAM_POOL];
    uint32_t stream_pool_count;
    cuda_event_pool_t event_pool[2]; // [0] CU_EVENT_DISABLE_TIMING, [1] with timing
} cuda_device_t;

struct cuda_platform_t {
    urc_object_t obj;
    uint32_t ndevices;
    cuda_device_t *devices;
    int driver_version; // e.g. 13000
};

typedef struct cuda_context_t {
    urc_object_t obj;
    uint32_t ndevices;
    cuda_device_t **devices;
    pthread_mutex_t lock; // guards deleters
    urc_deleter_t *deleters;
} cuda_context_t;

typedef struct cuda_queue_t {
    urc_object_t obj;
    cuda_context_t *ctx; // retained
    cuda_device_t *dev;
    ur_queue_flags_t flags;
    bool in_order;
    bool profiling;
    bool owns_streams;
    // Streams are made on first use (queue.c): creating a queue calls no driver function.
    uint32_t nstreams;                           // how many the queue spreads over (1 in order)
    _Atomic(CUstream) streams[CUDA_OOO_STREAMS]; // NULL until made
    unsigned stream_flags;                       // CU_STREAM_* for the streams to make
    pthread_mutex_t stream_lock;                 // serialises making streams
    atomic_uint next_stream;
    // An out-of-order queue stays on its last stream while everything sent there is known to
    // have finished (a host wait saw it): a new stream would only cost a cross-stream hop.
    atomic_uint last_stream;
    _Atomic uint64_t sent[CUDA_OOO_STREAMS];     // commands sent to each stream
    _Atomic uint64_t finished[CUDA_OOO_STREAMS]; // of those, how many a host wait saw finish
    pthread_mutex_t barrier_lock;                // serialises barriers; guards the two events below
    CUevent barrier_tmp;
    CUevent barrier_event;
    struct cuda_graph_t *capture; // the graph being captured into (graph.c), or NULL
} cuda_queue_t;

/// A graph a queue captured into (urGraphCreateExp, urQueueBeginGraphCaptureExp).
typedef struct cuda_graph_destruction_t {
    ur_exp_graph_destruction_callback_t fn;
    void *data;
    struct cuda_graph_destruction_t *next;
} cuda_graph_destruction_t;

typedef struct cuda_graph_t {
    urc_object_t obj;
    cuda_context_t *ctx; // retained
    CUgraph graph;
    uint64_t id;
    pthread_mutex_t lock; // guards the callbacks
    cuda_graph_destruction_t *callbacks;
} cuda_graph_t;

typedef struct cuda_exec_graph_t {
    urc_object_t obj;
    cuda_context_t *ctx; // retained
    CUgraphExec exec;
} cuda_exec_graph_t;

typedef struct cuda_event_t {
    urc_object_t obj;
    cuda_context_t *ctx; // retained
    cuda_queue_t *queue; // retained; NULL for an event made from a native handle
    cuda_device_t *dev;
    ur_command_t command;
    CUstream stream;
    uint32_t stream_index; // in the queue's streams
    uint64_t ticket;       // the command's number on that stream (out-of-order queues)
    bool pooled;           // the CUevents came from, and go back to, the device's pool
    CUevent end;
    CUevent start;      // only with profiling
    uint64_t queued_ns; // host clock at enqueue, only with profiling
    bool profiling;
    bool owns_native;
    // urEventCreateExp's events (reusable_event.c): `end` (and `start`) are recorded again at
    // each signal; `queue` and `stream` stay NULL. NULL for every other event.
    urc_reusable_t *reusable;
    struct cuda_queue_t *signalled_by; // reusable: the latest signal's queue (retained)
    // An event opened from IPC handle data in the process that exported it: the exporter, held,
    // whose CUevent this one shares (CUDA refuses such opens).
    struct cuda_event_t *shares;
} cuda_event_t;

typedef enum cuda_mem_kind_t {
    CUDA_MEM_DEVICE,     // cuMemAlloc
    CUDA_MEM_USE_HOST,   // the caller's memory, registered and mapped
    CUDA_MEM_ALLOC_HOST, // cuMemAllocHost, mapped
    CUDA_MEM_NATIVE,     // a CUdeviceptr handed in
} cuda_mem_kind_t;

typedef struct cuda_mem_t {
    urc_object_t obj;
    cuda_context_t *ctx;       // retained
    struct cuda_mem_t *parent; // retained, for a sub-buffer
    ur_mem_flags_t flags;
    cuda_mem_kind_t kind;
    size_t size;
    size_t origin; // offset in the parent
    CUdeviceptr ptr;
    void *host;       // host view of the same memory (USE_HOST / ALLOC_HOST), or NULL
    bool registered;  // we called cuMemHostRegister on `host`
    bool owns_native; // NATIVE: free at release
    urc_mappings_t maps;
    // Images (image.c): a CUDA array and the surface object kernels reach it through.
    bool is_image;
    CUarray array;
    CUsurfObject surf;
    urc_image_t img;
} cuda_mem_t;

/// A sampler: what its descriptor asked for, and the 32-bit word kernels receive for it.
typedef struct cuda_sampler_t {
    urc_object_t obj;
    cuda_context_t *ctx; // retained
    urc_sampler_t desc;
    uint32_t props;
} cuda_sampler_t;

typedef enum cuda_image_kind_t {
    CUDA_IMAGE_NONE, // made from a native module: nothing to link
    CUDA_IMAGE_PTX,
    CUDA_IMAGE_CUBIN,
    CUDA_IMAGE_FATBIN,
    CUDA_IMAGE_SPIRV, // translated to PTX at build, compile or link (spirv.h)
} cuda_image_kind_t;

/// What urKernelCreate learns of one kernel of a program: the driver's functions, attributes
/// and parameter sizes, and the program's metadata. Made by the first urKernelCreate of a name
/// and kept, immutable, by the program (kernel.c), so later ones call no driver function.
typedef struct cuda_kernel_info_t {
    struct cuda_kernel_info_t *next;
    uint64_t hash; // of the name
    CUmodule module;
    CUfunction fn, fn_offset;
    uint32_t reqd_wg[3], max_wg[3];
    uint64_t max_linear_wg;
    uint32_t reqd_sg;
    int regs_per_thread, max_threads, static_shared;
    bool params_known;
    uint32_t nparams;
    size_t *param_sizes;
    size_t frame_bytes;
    char name[]; // NUL-terminated
} cuda_kernel_info_t;

typedef struct cuda_program_t {
    urc_object_t obj;
    cuda_context_t *ctx; // retained
    cuda_device_t *dev;
    uint8_t *binary; // NUL-terminated copy (PTX needs it)
    size_t size;     // without the NUL
    cuda_image_kind_t kind;
    urc_props_t *props;   // metadata; never NULL
    pthread_mutex_t lock; // guards the build state below
    CUmodule module;
    bool has_module;
    bool owns_module;
    ur_program_build_status_t status;
    ur_program_binary_type_t binary_type;
    char *options; // of the last build, compile or link
    char *log;     // info log, then error log, of the last JIT
    urc_dg_cache_t *dg_cache;
    _Atomic(cuda_kernel_info_t *) kernel_infos; // pushed, never removed, until destruction
    // Programs from SPIR-V: the module as given, its scanned facts (kernels, work-group sizes)
    // and the specialization constants the next translation applies.
    uint8_t *il;
    size_t il_size;
    urc_spirv_info_t *spirv; // NULL for programs made from PTX, cubin or fatbin
    cuda_spec_const_t *spec;
    uint32_t spec_count;
} cuda_program_t;

typedef struct cuda_kernel_t {
    urc_object_t obj;
    cuda_program_t *program; // retained
    CUfunction fn;
    CUfunction fn_offset;         // "<name>_with_offset", DPC++'s variant taking the global offset
    const char *name;             // the info's
    cuda_kernel_info_t *own_info; // a native kernel's info, not in the program's list; or NULL
    uint32_t reqd_wg[3];          // from "<name>@reqd_work_group_size"; 0 = none
    uint32_t max_wg[3];           // from "<name>@max_work_group_size"
    uint64_t max_linear_wg;
    uint32_t reqd_sg;
    int regs_per_thread;
    int max_threads;
    int static_shared; // bytes of __shared__ the kernel declares itself
    // Parameter sizes from cuFuncGetParamInfo (CUDA 12.4 drivers); params_known is false
    // without it, and then arguments cannot be checked against the signature.
    bool params_known;
    uint32_t nparams;
    size_t *param_sizes;
    // Bytes of a launch's argument frame (a pointer per parameter plus one, then each argument
    // in an 8-byte slot) when every parameter size is known, else 0: a launch whose arguments
    // come in index order then lays them out in one pass, without measuring them first.
    size_t frame_bytes;
    // A frame too large for the stack, kept for the next launch that needs one; one launch at
    // a time holds it (big_frame_busy), another allocates its own.
    uint8_t *big_frame;
    size_t big_frame_size;
    atomic_flag big_frame_busy;
    pthread_mutex_t lock;       // serialises raising the dynamic shared memory limit
    size_t dyn_shared_limit;    // the largest dynamic shared size opted into so far
    atomic_int occupancy_block; // cached occupancy block size without dynamic shared memory
} cuda_kernel_t;

/// A command buffer: a CUDA graph recorded by appends, instantiated at finalisation.
typedef struct cuda_cb_t {
    urc_object_t obj;
    urc_cb_t core;
    cuda_context_t *ctx; // retained
    cuda_device_t *dev;
    CUgraph graph;
    CUgraphExec exec; // after finalisation
    CUgraphNode last; // the node appended last (in-order buffers depend on it)
    // A CUevent never recorded, waited for in place of events that have no CUevent (made from
    // native handle 0, complete from the start): waiting for it passes at once.
    CUevent ready;
} cuda_cb_t;

/// A command handle: its node and the launch an update starts from.
typedef struct cuda_cb_cmd_t {
    urc_object_t obj;
    urc_cb_command_t core;
    cuda_cb_t *buffer; // not retained: commands live as long as it
    CUgraphNode node;
    // Events (held by the buffer, see urc_cb_t.events): the event-record node after the
    // command and its event, and one event-wait node before it per event of its wait list
    // (the events are core.wait_events).
    CUgraphNode signal_node;
    cuda_event_t *signal;
    CUgraphNode *wait_nodes;
} cuda_cb_cmd_t;

urc_logger_t *cuda_log(void);
/// The adapter's one handle.
ur_adapter_handle_t cuda_adapter_handle(void);

// ---- cuda_error.c ----
/// Maps a failed driver call to a UR result, logs it and records it for urAdapterGetLastError.
/// CUDA_ERROR_ASSERT (a device assert fired) aborts the process, or with URC_ASSERT_MODE=report
/// gives UR_RESULT_ERROR_ADAPTER_SPECIFIC with native code URC_ERROR_DEVICE_ASSERT.
ur_result_t cuda_error(CUresult result, const char *call);

static inline ur_result_t cuda_ok(CUresult result, const char *call) {
    return result == CUDA_SUCCESS ? UR_RESULT_SUCCESS : cuda_error(result, call);
}

// ---- platform.c ----
/// The platform, its devices initialised; NULL when there is no usable driver or device.
cuda_platform_t *cuda_platform(void);
/// Releases the devices' primary contexts and forgets the platform (the adapter's last
/// reference is gone); the next cuda_platform() starts again.
void cuda_platform_teardown(void);
/// The device with native ordinal `cu_device`, or NULL.
cuda_device_t *cuda_device_by_native(CUdevice cu_device);
uint64_t cuda_host_ns(void);

// ---- device.c ----
/// Makes the device's primary context current on this thread (skipped when it already is).
ur_result_t cuda_activate(const cuda_device_t *dev);
/// The context this thread's last cuda_activate found or made current.
extern _Thread_local CUcontext cuda_thread_ctx;
/// cuda_activate without asking the driver when this thread's last cuda_activate left the
/// device's context current. The application may have switched contexts since, so only a
/// command that creates nothing in the current context may rely on it, and it must retry once
/// when cuda_activate_recheck says the context was wrong.
static inline ur_result_t cuda_activate_cached(const cuda_device_t *dev) {
    return cuda_thread_ctx == dev->ctx ? UR_RESULT_SUCCESS : cuda_activate(dev);
}
/// After a driver call failed with `failure` on a cuda_activate_cached context: true when the
/// failure is one a wrong current context causes and the context was indeed wrong (it is now
/// right, so the caller retries); false when the failure stands.
bool cuda_activate_recheck(const cuda_device_t *dev, CUresult failure);
/// Fills the cached attributes and the capabilities of a device (platform start-up).
ur_result_t cuda_device_init(cuda_device_t *dev);

// ---- enqueue.c ----
/// urEnqueueEventsWaitWithBarrier's command with another command type (stream-ordered USM).
ur_result_t cuda_enqueue_barrier(cuda_queue_t *q, ur_command_t command, uint32_t n,
                                 const ur_event_handle_t *events, ur_event_handle_t *phEvent);

// ---- usm_pool.c ----
/// The USM pools' view of this adapter.
extern const struct urc_usm_pool_adapter_t cuda_pool_adapter;

// ---- context.c ----
bool cuda_context_has_device(const cuda_context_t *ctx, const cuda_device_t *dev);
void cuda_context_retain_internal(cuda_context_t *ctx);
void cuda_context_release_internal(cuda_context_t *ctx);

// ---- queue.c ----
/// Makes stream `i` of `q` (or takes one from the device's pool), unless another thread has.
ur_result_t cuda_queue_make_stream(cuda_queue_t *q, uint32_t i, CUstream *out);
/// Makes every stream of `q` (barriers of out-of-order queues, native handles).
ur_result_t cuda_queue_make_all_streams(cuda_queue_t *q);
/// Destroys the streams in the device's pool (platform teardown).
void cuda_queue_pool_drain(cuda_device_t *dev);
/// Which stream of `q` the next command goes to, and its ticket there (0 in order). An
/// out-of-order queue keeps to its last stream while that is known idle, else goes round robin.
static inline uint32_t cuda_queue_pick(cuda_queue_t *q, uint64_t *ticket) {
    *ticket = 0;
    if (q->nstreams == 1)
        return 0;
    uint32_t i = atomic_load_explicit(&q->last_stream, memory_order_relaxed);
    if (atomic_load_explicit(&q->finished[i], memory_order_relaxed) !=
        atomic_load_explicit(&q->sent[i], memory_order_relaxed)) {
        uint32_t next =
            atomic_fetch_add_explicit(&q->next_stream, 1, memory_order_relaxed) % q->nstreams;
        i = next != i ? next : (next + 1) % q->nstreams; // not the busy one again
        atomic_store_explicit(&q->last_stream, i, memory_order_relaxed);
    }
    *ticket = atomic_fetch_add_explicit(&q->sent[i], 1, memory_order_relaxed) + 1;
    return i;
}
/// Stream `i` of `q`, made on first use. The caller has made the device's context current.
static inline ur_result_t cuda_queue_stream_at(cuda_queue_t *q, uint32_t i, CUstream *out) {
    CUstream s = atomic_load_explicit(&q->streams[i], memory_order_acquire);
    if (s == NULL)
        return cuda_queue_make_stream(q, i, out);
    *out = s;
    return UR_RESULT_SUCCESS;
}
/// The stream the next command of `q` goes to (cuda_queue_pick), made on first use.
static inline ur_result_t cuda_queue_stream(cuda_queue_t *q, CUstream *out) {
    uint64_t ticket;
    return cuda_queue_stream_at(q, cuda_queue_pick(q, &ticket), out);
}
/// A host wait saw command `ticket` of stream `i` of `q` finish, and with it every earlier one.
void cuda_queue_finished(cuda_queue_t *q, uint32_t i, uint64_t ticket);
void cuda_queue_retain_internal(cuda_queue_t *q);
void cuda_queue_release_internal(cuda_queue_t *q);

// ---- event.c ----
/// One enqueued command: the stream it runs on and its event, if the caller asked for one.
typedef struct cuda_op_t {
    cuda_queue_t *queue;
    CUstream stream;
    uint32_t stream_index;
    uint64_t ticket; // cuda_queue_pick's
    cuda_event_t *event;
} cuda_op_t;

/// Starts a command: makes the context current, picks a stream, makes it wait for the wait list
/// (cross-queue waits through cuStreamWaitEvent) and, when phEvent is not NULL, creates the
/// command's event and records its start. Nothing is left behind on failure.
ur_result_t cuda_op_begin(cuda_queue_t *q, ur_command_t command, uint32_t num_events,
                          const ur_event_handle_t *events, ur_event_handle_t *phEvent,
                          cuda_op_t *op);
/// Ends a command begun with cuda_op_begin. With `result` a success: records the event's end,
/// waits for the stream when `blocking`, and hands the event out. With a failure (or a failure
/// on the way) the event is destroyed and *phEvent left alone, so no event exists for a failed
/// command. Returns the first failure.
ur_result_t cuda_op_end(cuda_op_t *op, ur_result_t result, bool blocking,
                        ur_event_handle_t *phEvent);
/// Makes `stream` wait for the events (skipping those already ordered before it).
ur_result_t cuda_wait_events(CUstream stream, uint32_t num_events, const ur_event_handle_t *events);
/// A new event for a command of `q` on `stream` (its CUevents made, nothing recorded yet).
ur_result_t cuda_event_create(cuda_queue_t *q, CUstream stream, ur_command_t command,
                              cuda_event_t **out);
/// Drops one reference (the event is destroyed with the last).
void cuda_event_free(cuda_event_t *e);
/// Prepares the device's CUevent pools (device start-up).
void cuda_event_pool_init(cuda_device_t *dev);
/// Destroys the pooled CUevents (platform teardown; the device's context is current).
void cuda_event_pool_drain(cuda_device_t *dev);
/// Stops the thread behind urEventSetCallback, if it runs: with `drain`, after every pending
/// callback has run (their events complete on their own).
void cuda_callbacks_stop(bool drain);
/// Drops an adapter reference to an event (destroyed after the last).
void cuda_event_release_internal(cuda_event_t *e);
/// Takes an adapter reference to an event.
void cuda_event_retain_internal(cuda_event_t *e);
/// An event of no queue around a CUevent of its own, without timing (the signal event of a
/// command-buffer command, recorded by the graph). The caller has the user's reference.
ur_result_t cuda_event_create_unqueued(cuda_context_t *ctx, cuda_device_t *dev,
                                       ur_command_t command, cuda_event_t **out);

// ---- reusable_event.c / ipc_event.c ----
/// A reusable event of `ctx` for `dev` around CUevents the event then owns (`start` only with
/// profiling), known to urc_reusable_claim; `imported` for one opened from IPC handle data.
ur_result_t cuda_reusable_make(cuda_context_t *ctx, cuda_device_t *dev, ur_exp_event_flags_t flags,
                               CUevent end, CUevent start, bool imported, cuda_event_t **out);
/// urEnqueueEventsWaitWithBarrierExt signalling the reusable event `e` (claimed by the caller).
ur_result_t cuda_event_signal(cuda_event_t *e, cuda_queue_t *q, uint32_t n,
                              const ur_event_handle_t *waits);
/// True when the driver has cuIpcGetEventHandle and cuIpcOpenEventHandle.
bool cuda_ipc_events_available(void);

// ---- memory.c ----
void cuda_mem_retain_internal(cuda_mem_t *mem);
void cuda_mem_release_internal(cuda_mem_t *mem);
/// A new memory object of the context (reference count 1; the caller retains the context).
cuda_mem_t *cuda_mem_new(cuda_context_t *ctx, ur_mem_flags_t flags, size_t size,
                         cuda_mem_kind_t kind);

// ---- image.c / sampler.c / device.c ----
/// True when the driver has what images need (arrays and surface objects).
bool cuda_images_available(void);
/// The device's image limits from its texture and surface attributes.
void cuda_device_image_limits(const cuda_device_t *dev, urc_image_limits_t *limits);
/// Frees an image's surface object and array (at its last release; context current).
void cuda_image_free(cuda_mem_t *m);
/// The CUDA array format and channel count of a UR format (R, RG, RGBA of unpacked types; the
/// normalised types share the integer storage); false for what CUDA arrays cannot hold.
bool cuda_array_format(const ur_image_format_t *f, CUarray_format *format, unsigned *channels);

// ---- usm.c ----
/// What the driver knows of a pointer (all zero for memory it did not allocate or register).
typedef struct cuda_pointer_t {
    unsigned memory_type; // CUmemorytype, 0 when unknown
    unsigned managed;
    int ordinal; // device the memory belongs to
    CUdeviceptr base;
    size_t range;
} cuda_pointer_t;
ur_result_t cuda_pointer_query(const void *ptr, cuda_pointer_t *info);

/// The lookup behind every USM range check: cuda_pointer_query, remembered per thread until
/// the adapter changes the driver's map of allocations (usm_lookup.c).
extern urc_usm_lookup_cache_t cuda_usm_lookups;

/// The rule table's facts for commands on `dev` (queue/command_rules.h): the lookup above and
/// the device's launch limits.
void cuda_rules(const cuda_device_t *dev, urc_rules_t *out);

// ---- program.c ----
void cuda_program_retain_internal(cuda_program_t *p);
void cuda_program_release_internal(cuda_program_t *p);
/// The program's module, read under its lock; false when it has none (not built or linked).
bool cuda_program_module(cuda_program_t *p, CUmodule *module);
/// A SPIR-V program's required work-group size for kernel `name` (ExecutionMode LocalSize);
/// false when the program is not from SPIR-V or the kernel has none.
bool cuda_program_spirv_local_size(const cuda_program_t *p, const char *name, uint32_t dims[3]);

// ---- kernel.c ----
/// Frees the program's kernel infos (program destruction).
void cuda_kernel_infos_free(cuda_program_t *p);
/// A work-group size for `global` when the caller gave none: the kernel's required size, or
/// per dimension the largest divisor of the global size the occupancy calculator allows.
void cuda_kernel_guess_local(cuda_kernel_t *k, const cuda_device_t *dev, uint32_t dims,
                             const size_t *global, size_t dyn_shared, size_t local[3]);

// ---- launch.c ----
/// What makes or changes a graph kernel node from the parameters of a launch.
typedef CUresult (*cuda_node_params_fn)(const CUDA_KERNEL_NODE_PARAMS *params, void *ctx);
/// Lays out a launch as urEnqueueKernelLaunchWithArgsExp would (the same argument, geometry and
/// shared-memory rules) and hands the kernel-node parameters to `apply`.
ur_result_t cuda_launch_node_params(cuda_kernel_t *k, const cuda_device_t *dev, uint32_t workDim,
                                    const size_t *pGlobalWorkOffset, const size_t *pGlobalWorkSize,
                                    const size_t *pLocalWorkSize, uint32_t numArgs,
                                    const ur_exp_kernel_arg_properties_t *pArgs,
                                    cuda_node_params_fn apply, void *ctx);

// ---- graph.c ----
/// Whether stream capture into graphs works with this driver (cuStreamBeginCaptureToGraph).
bool cuda_graph_capture_available(void);

// ---- command_buffer.c ----
/// What the device can do with command buffers (graphs need CUDA 12 driver entry points).
void cuda_cb_caps(const cuda_device_t *dev, urc_cb_caps_t *caps);

// ---- device_global.c ----
/// Resolves a device global of a built program: the `@global_id_mapping` symbol (or the name
/// itself), cached per program. INVALID_VALUE for an unknown name, INVALID_PROGRAM_EXECUTABLE
/// for a program without a module.
ur_result_t cuda_program_global(cuda_program_t *p, const char *name, CUdeviceptr *address,
                                size_t *size);

/// usm_pool.c: forgets which of the driver pool's allocations a context being destroyed made.
void cuda_usm_async_context_destroyed(const cuda_context_t *ctx);

#endif // URC_CUDA_CUDA_INTERNAL_H
