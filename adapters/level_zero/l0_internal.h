// SPDX-License-Identifier: MIT
// The Level Zero adapter's objects and the helpers its files share. Every handle starts with
// urc_object_t (the table pointer UR's loader reads, then the reference count).
//
// Commands: every enqueue goes through l0_op_begin/l0_op_end (event.c, queue.c). Each command
// gets an event from the context's pool cache, whether or not the caller asked for one: the
// queue keeps it until the device has signalled it, so that in-order chaining, barriers,
// queue-wide waits and event recycling all work from one list. An event keeps the events it
// waited for until it completes, so no Level Zero event is reset while a command may still
// wait on it.
#ifndef URC_L0_L0_INTERNAL_H
#define URC_L0_L0_INTERNAL_H

#include <level_zero/ze_api.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/deleters.h"
#include "memory/buffer.h"
#include "queue/command_buffer.h"
#include "program/devglobal.h"
#include "device/device_info.h"
#include "core/error.h"
#include "core/info.h"
#include "l0_entry_points.h"
// Casts of the public handles to the structs below, and l0_is.
#include "l0_handles.h"
#include "env/log.h"
#include "image/image.h"
#include "memory/mapping.h"
#include "core/object.h"
#include "core/quarantine.h"
#include "program/props.h"
#include "queue/queue_registry.h"
#include "memory/ranges.h"
#include "program/requirements.h"
#include "queue/reusable_event.h"
#include "ze_bindless_exp.h"
#include "ze_mutable_exp.h"

/// Events per Level Zero event pool; a context makes pools of this size as it needs them.
#define L0_EVENTS_PER_POOL 256
/// Commands a regular command list collects before it is executed without being asked.
#define L0_BATCH_LIMIT 16
/// Pending commands a queue tolerates before it looks for completed ones on each enqueue.
#define L0_REAP_THRESHOLD 32
/// OpenCL extensions every Level Zero device has (UR's ZE_SUPPORTED_EXTENSIONS); the platform
/// reports these, devices add their own.
#define L0_BASE_EXTENSIONS                                                                         \
    "cl_khr_il_program cl_khr_subgroups cl_intel_subgroups cl_intel_subgroups_short "              \
    "cl_intel_required_subgroup_size "

typedef struct l0_platform_t l0_platform_t;

/// ZE_experimental_mutable_command_list's entry points, looked up by name (no DDI slot in API
/// 1.4); NULL where the driver lacks the extension (1.1 for the kernel ones).
typedef struct l0_mutable_fns_t {
    urc_zeCommandListGetNextCommandIdExp_fn GetNextCommandId;
    urc_zeCommandListGetNextCommandIdWithKernelsExp_fn GetNextCommandIdWithKernels;
    urc_zeCommandListUpdateMutableCommandsExp_fn UpdateMutableCommands;
    urc_zeCommandListUpdateMutableCommandSignalEventExp_fn UpdateSignalEvent;
    urc_zeCommandListUpdateMutableCommandWaitEventsExp_fn UpdateWaitEvents;
    urc_zeCommandListUpdateMutableCommandKernelsExp_fn UpdateKernels;
} l0_mutable_fns_t;

typedef struct l0_device_t {
    urc_object_t obj;
    l0_platform_t *platform;
    struct l0_device_t *parent; // NULL for a root device
    ze_device_handle_t ze;
    ze_device_properties_t props; // the 1.2 structure: timerResolution in cycles per second
    ze_device_compute_properties_t compute;
    ze_device_module_properties_t module;
    ze_device_memory_access_properties_t access;
    ze_device_image_properties_t image;
    ze_device_cache_properties_t cache;
    uint64_t global_mem;     // sum of the memory modules' sizes
    uint32_t mem_clock_mhz;  // slowest module
    uint32_t mem_bus_width;  // narrowest module
    double ns_per_tick;      // profiling timer
    uint64_t kernel_ts_mask; // valid bits of kernel timestamps
    uint32_t compute_ordinal;
    uint32_t compute_queues;
    size_t max_fill_pattern; // of the compute group
    uint32_t nsub;
    struct l0_device_t *subs;                     // sub-devices, made with the root device
    ze_mutable_command_exp_flags_t mutable_flags; // what mutable command lists may update
    urc_device_caps_t caps;      // what requirement checks see (URC_MASK_ASPECTS applied)
    urc_queue_registry_t queues; // live queues of this device, for urDeviceWaitExp
} l0_device_t;

struct l0_platform_t {
    urc_object_t obj;
    ze_driver_handle_t ze;
    ze_api_version_t api_version;
    char version[32];        // "<major>.<minor>" of the driver's API version
    char driver_version[48]; // ze_driver_properties_t.driverVersion, decoded
    bool ext_module_program; // ZE_experimental_module_program 1.0: static linking
    bool ext_global_offset;  // ZE_experimental_global_offset 1.0
    bool ext_linkage_inspection;
    bool ext_free_policies;       // ZE_extension_memory_free_policies: zeMemFreeExt, blocking free
    l0_mutable_fns_t mutable_fns; // command-buffer updates (command_buffer_update.c)
    // ZE_experimental_bindless_image's entry points (bindless.c); NULL without the extension.
    urc_zeImageGetDeviceOffsetExp_fn image_device_offset;
    urc_zeMemGetPitchFor2dImage_fn pitch_for_2d_image;
    uint32_t ndevices;
    l0_device_t *devices;
};

/// The Level Zero events of one kind (plain, or with kernel timestamps) of a context: pools
/// made on demand, events made once and recycled after a host reset.
typedef struct l0_event_cache_t {
    pthread_mutex_t lock;
    ze_event_pool_flags_t flags;
    ze_event_pool_handle_t *pools;
    uint32_t npools, pools_cap;
    uint32_t next_index; // next unused index in the newest pool
    ze_event_handle_t *free;
    uint32_t nfree, free_cap;
} l0_event_cache_t;

typedef struct l0_context_t {
    urc_object_t obj;
    ze_context_handle_t ze;
    bool owns_native;
    uint32_t ndevices;
    l0_device_t **devices;
    l0_event_cache_t events[2]; // [0] plain, [1] with kernel timestamps (profiling queues)
    pthread_mutex_t lock;       // guards deleters
    urc_deleter_t *deleters;
} l0_context_t;

typedef struct l0_event_t l0_event_t;

/// A regular command list and the fence of its last execution.
typedef struct l0_batch_t {
    ze_command_list_handle_t list;
    ze_fence_handle_t fence;
} l0_batch_t;

typedef struct l0_queue_t {
    urc_object_t obj;  // every event made on the queue holds it
    l0_context_t *ctx; // retained
    l0_device_t *dev;
    ur_queue_flags_t flags;
    bool in_order;
    bool profiling;
    bool immediate;
    bool owns_native;
    pthread_mutex_t lock;         // guards everything below; held while a command is appended
    ze_command_list_handle_t imm; // immediate mode
    ze_command_queue_handle_t zq; // regular mode
    l0_batch_t open;              // regular mode: the list being recorded (list NULL: none)
    uint32_t open_count;          // commands in it
    l0_batch_t *flight;           // executed lists, fences not yet seen signalled
    uint32_t nflight, flight_cap;
    l0_batch_t *spare; // reset lists ready to record again
    uint32_t nspare, spare_cap;
    uint64_t batch;            // number of the open batch (starts at 1)
    atomic_uint_fast64_t sent; // batches executed: an event of batch b is submitted if b <= sent
    l0_event_t *last;          // in-order: the newest command's event (retained)
    l0_event_t *barrier;       // out-of-order: the newest barrier not known complete (retained)
    l0_event_t **pending;      // commands not known complete (retained)
    uint32_t npending, pending_cap;
    // Set while a native command's callback runs on `native_thread` (host_task.c): the command
    // list urQueueGetNativeHandle hands to that callback.
    _Atomic(ze_command_list_handle_t) native_list;
    _Atomic(pthread_t) native_thread;
} l0_queue_t;

struct l0_event_t {
    urc_object_t obj;
    l0_context_t *ctx; // retained
    l0_queue_t *queue; // retained (obj); NULL for an event made from a native handle
    ur_command_t command;
    ze_event_handle_t ze;
    int cache;        // index into ctx->events, or -1 for a native event
    bool owns_native; // a native event destroyed with this one
    bool profiling;
    uint64_t batch;        // regular mode: the batch holding the command (0: submitted)
    atomic_bool done;      // the device has signalled it
    uint64_t queued_ticks; // device timer at enqueue (profiling)
    pthread_mutex_t lock;  // guards deps
    l0_event_t **deps;     // events the command waits for, kept until it completes
    uint32_t ndeps;
    void *free_when_done; // a staging buffer the command reads or writes
    // Objects the command uses, kept (retained) until it completes: Level Zero must not destroy
    // a kernel or module a queued command still refers to.
    struct l0_kernel_t *kernel;
    struct l0_program_t *program;
    // urEventCreateExp's events (reusable_event.c): `inner` is the event of the latest signal's
    // barrier (NULL before the first: complete), replaced under reusable->lock; every use of
    // the event goes to it. NULL for every other event.
    urc_reusable_t *reusable;
    l0_event_t *inner;
    // IPC reusable events: a Level Zero event of an IPC pool of its own (exported) or opened
    // from a handle (imported), reset and signalled after each signal's barrier; waits use it
    // while this process has not signalled the event itself.
    ze_event_pool_handle_t ipc_pool;
    ze_event_handle_t ipc_ze;
};

typedef enum l0_mem_kind_t {
    L0_MEM_DEVICE, // device USM on the context's only device
    L0_MEM_HOST,   // host USM, reachable by every device of the context
} l0_mem_kind_t;

typedef struct l0_mem_t {
    urc_object_t obj;
    l0_context_t *ctx;       // retained
    struct l0_mem_t *parent; // retained, for a sub-buffer
    ur_mem_flags_t flags;
    l0_mem_kind_t kind;
    size_t size;
    size_t origin; // offset in the parent
    void *ptr;     // USM allocation (or the parent's, plus origin)
    void *user;    // UR_MEM_FLAG_USE_HOST_POINTER: the caller's memory, kept in step on map
    bool owns_ptr;
    urc_mappings_t maps;
    // Images (image.c): the driver's image, destroyed with the object when owned.
    bool is_image;
    ze_image_handle_t image;
    urc_image_t img;
} l0_mem_t;

/// A sampler: the descriptor read once, one Level Zero sampler per device of the context.
typedef struct l0_sampler_t {
    urc_object_t obj;
    l0_context_t *ctx; // retained
    urc_sampler_t desc;
    ze_sampler_handle_t *ze; // [ctx->ndevices]
    bool owns_native;
} l0_sampler_t;

/// Per-device state of a program (UR v1's state machine).
typedef enum l0_state_t {
    L0_STATE_IL,      // SPIR-V, not built
    L0_STATE_NATIVE,  // a device binary, not built
    L0_STATE_OBJECT,  // compiled: options stored, compilation deferred to link
    L0_STATE_EXE,     // a module exists
    L0_STATE_INVALID, // a build, compile or link failed; the log says why
} l0_state_t;

typedef struct l0_program_dev_t {
    l0_device_t *dev;
    l0_state_t state;
    ze_module_handle_t module;
    char *options; // of the last build or compile (used again at link)
    char *log;     // copied once from the driver, so it can be read any number of times
    uint8_t *native;
    size_t native_size;
    urc_dg_cache_t *dg; // device globals resolved on this device
} l0_program_dev_t;

typedef struct l0_spec_t {
    uint32_t id;
    size_t size;
    void *value;
} l0_spec_t;

typedef struct l0_program_t {
    urc_object_t obj;
    l0_context_t *ctx; // retained
    pthread_mutex_t lock;
    uint8_t *il; // SPIR-V of a program made from IL
    size_t il_size;
    urc_props_t *props; // metadata; never NULL
    l0_spec_t *specs;   // specialisation constants (urProgramSetSpecializationConstants)
    uint32_t nspecs;
    uint32_t ndevs;
    l0_program_dev_t *devs;
    bool interop;     // made from a native module (shared by all its devices)
    bool owns_native; // ... which the program destroys
} l0_program_t;

typedef struct l0_kernel_t {
    urc_object_t obj;
    l0_program_t *program; // retained
    char *name;
    uint32_t ndevs;
    l0_device_t **devs;
    ze_kernel_handle_t *ze; // per device (NULL where the program is not built)
    ze_kernel_properties_t props;
    bool interop;         // made from a native kernel
    bool owns_native;     // ... which the kernel destroys
    pthread_mutex_t lock; // arguments and group size are kernel state in Level Zero
} l0_kernel_t;

/// A command buffer: a regular command list recorded in order between a start and a done event,
/// executed on the buffer's own command queue, fenced into the caller's queue by barriers.
typedef struct l0_cb_t {
    urc_object_t obj;
    urc_cb_t core;
    l0_context_t *ctx; // retained
    l0_device_t *dev;
    ze_command_list_handle_t list;
    ze_command_queue_handle_t zq;
    ze_fence_handle_t fence;
    ze_event_handle_t start, done; // from the context's plain cache
    pthread_mutex_t run_lock;      // one run set up at a time; guards `ran`
    bool ran;                      // executed at least once (the fence and events are in use)
    // Events of commands (held): those the list signals, reset before each run, and those it
    // waits for, whose batches are submitted before each run. Guarded by core.lock.
    struct l0_event_t **signals, **waits;
    uint32_t nsignals, signals_cap, nwaits, waits_cap;
    // The append in progress (core.lock held): its event and where it goes, its wait list, and
    // whether the command itself (a launch) signals and waits rather than barriers around it.
    struct l0_event_t *pending_signal;
    ur_event_handle_t *pending_out;
    const ur_event_handle_t *pending_waits;
    ze_event_handle_t *pending_ze_waits;
    uint32_t pending_nwaits;
    bool events_on_command;
} l0_cb_t;

urc_logger_t *l0_log(void);
ur_adapter_handle_t l0_adapter_handle(void);

// ---- l0_error.c ----
/// Maps a failed driver call to a UR result, logs it and records it for urAdapterGetLastError.
/// Codes with no UR meaning give UR_RESULT_ERROR_ADAPTER_SPECIFIC with the native code.
ur_result_t l0_error(ze_result_t result, const char *call);

static inline ur_result_t l0_ok(ze_result_t result, const char *call) {
    return result == ZE_RESULT_SUCCESS ? UR_RESULT_SUCCESS : l0_error(result, call);
}

/// The name of a ze_result_t, e.g. "ZE_RESULT_ERROR_DEVICE_LOST".
const char *l0_result_name(ze_result_t result);

// ---- platform.c ----
/// Discovers drivers and devices once (zeInit, zeDriverGet); *count is 0 without a driver.
l0_platform_t *l0_platforms(uint32_t *count);
/// The device (root or sub-device) with this native handle, or NULL.
l0_device_t *l0_device_by_native(ze_device_handle_t ze);

// ---- device.c ----
/// Reads a device's properties and capabilities (platform start-up).
ur_result_t l0_device_init(l0_device_t *dev, l0_platform_t *platform, l0_device_t *parent,
                           ze_device_handle_t ze);
/// The device timer now, in ticks (zeDeviceGetGlobalTimestamps).
ur_result_t l0_device_ticks(const l0_device_t *dev, uint64_t *ticks);

// ---- ipc.c, usm_exp.c ----
/// Whether the driver shares memory between processes (zeDriverGetIpcProperties).
bool l0_ipc_memory_supported(const l0_device_t *dev);
/// Whether the driver has Intel's host-pointer import functions.
bool l0_host_import_supported(const l0_device_t *dev);

// ---- context.c ----
bool l0_context_has_device(const l0_context_t *ctx, const l0_device_t *dev);
void l0_context_retain_internal(l0_context_t *ctx);
void l0_context_release_internal(l0_context_t *ctx);
/// A reset Level Zero event from the context's cache (cache 1: kernel timestamps).
ur_result_t l0_context_take_event(l0_context_t *ctx, int cache, ze_event_handle_t *out);
/// Resets an event and returns it to its cache (destroys it if the reset fails).
void l0_context_give_event(l0_context_t *ctx, int cache, ze_event_handle_t ze);

// ---- command_buffer.c, command_buffer_update.c ----
/// A kernel command of an updatable buffer: its mutable command id, the launch updates start
/// from (every argument kept: a kernel switch must set them all again) and its events.
typedef struct l0_cb_cmd_t {
    urc_object_t obj;
    urc_cb_command_t core;
    l0_cb_t *buffer; // not retained: commands live as long as it
    uint64_t id;
    struct l0_event_t *signal; // the event the command signals now (held by the buffer), or NULL
    // The events it waits for now are core.wait_events.
} l0_cb_cmd_t;

/// A command's event: signalled by the command in every run, reset before the next (a Level
/// Zero event of the context's plain cache; no queue).
ur_result_t l0_cb_event_new(l0_cb_t *cb, struct l0_event_t **out);
/// Checks a wait list of UR events for a command of `cb` (events of its context) and gives
/// their Level Zero events (NULL for an empty list; the caller frees).
ur_result_t l0_cb_wait_list(l0_cb_t *cb, uint32_t n, const ur_event_handle_t *events,
                            ze_event_handle_t **out);
/// The mutable command id of the launch about to be appended to cb's list; with alternatives,
/// the Level Zero kernels an update may switch to (the launched one first).
ur_result_t l0_cb_next_command_id(l0_cb_t *cb, ur_kernel_handle_t hKernel, uint32_t numAlt,
                                  ur_kernel_handle_t *phAlt, uint64_t *id);
/// What a device can do with command buffers: run them; update kernel commands where the
/// driver has mutable command lists; no events.
void l0_cb_caps(const l0_device_t *dev, urc_cb_caps_t *caps);
/// Looks up the mutable command list entry points of a driver with the extension.
void l0_mutable_init(l0_platform_t *p, uint32_t version);
/// The update flags mutable command lists of the device offer (0 without the extension).
ze_mutable_command_exp_flags_t l0_mutable_device_flags(const l0_device_t *dev);

// ---- kernel.c ----
/// Appends a launch with UR's argument and geometry checks to a command list, signalling
/// `signal` and waiting for `waits` (command buffers order their commands with barriers).
ur_result_t l0_kernel_append_launch(ur_kernel_handle_t hKernel, l0_context_t *ctx,
                                    const l0_device_t *dev, uint32_t workDim,
                                    const size_t *pGlobalWorkOffset, const size_t *pGlobalWorkSize,
                                    const size_t *pLocalWorkSize, uint32_t numArgs,
                                    const ur_exp_kernel_arg_properties_t *pArgs,
                                    ze_command_list_handle_t list, ze_event_handle_t signal,
                                    uint32_t nwaits, ze_event_handle_t *waits);
/// A launch argument as Level Zero takes it: `*size` bytes at `*value`, which may point at
/// `*slot` (pointers, buffers, samplers). Checks what set_arg checks.
ur_result_t l0_kernel_arg_native(const l0_context_t *ctx, const l0_device_t *dev,
                                 const ur_exp_kernel_arg_properties_t *a, size_t *size,
                                 const void **value, void **slot);
/// Group size and counts of a launch, with the eager launch's checks.
ur_result_t l0_kernel_geometry(ur_kernel_handle_t hKernel, const l0_device_t *dev, uint32_t dims,
                               const size_t *global, const size_t *local, uint32_t wg[3],
                               ze_group_count_t *groups);
/// The kernel's Level Zero kernel on dev, NULL where its program is not built.
ze_kernel_handle_t l0_kernel_native(ur_kernel_handle_t hKernel, const l0_device_t *dev);

// ---- queue.c ----
/// One command being enqueued: the queue (locked between begin and end), the command list it
/// goes to, the Level Zero events it waits for and its own event.
typedef struct l0_op_t {
    l0_queue_t *queue;
    ze_command_list_handle_t list;
    l0_event_t *event;
    ze_event_handle_t *waits;
    uint32_t nwaits;
    ze_event_handle_t stack[16];
    bool submit; // regular mode: execute the batch at l0_op_end even when not blocking
} l0_op_t;

/// Starts a command: validates the wait list, submits other queues' batches that hold its
/// events, locks the queue, picks the command list and makes the command's event (retaining
/// what it waits for: the wait list, the in-order predecessor, the last barrier). Nothing is
/// left locked or allocated on failure.
ur_result_t l0_op_begin(l0_queue_t *q, ur_command_t command, uint32_t nwait,
                        const ur_event_handle_t *wait, l0_op_t *op);
/// Ends a command. On success (`result`): records the event as the queue's newest, submits the
/// batch when blocking or full, unlocks, waits when `blocking`, and hands the event out through
/// phEvent (optional). On failure the event is destroyed and *phEvent left alone: no event
/// exists for a failed command. Returns the first failure.
ur_result_t l0_op_end(l0_op_t *op, ur_result_t result, bool blocking, ur_event_handle_t *phEvent);
/// Executes the queue's open batch (regular mode); the caller holds q->lock.
ur_result_t l0_queue_submit_locked(l0_queue_t *q);
/// Executes the batch holding `e` if it has not been executed yet.
ur_result_t l0_event_submit(l0_event_t *e);
/// Waits until every command enqueued so far on q has completed.
ur_result_t l0_queue_sync(l0_queue_t *q);
void l0_queue_retain_internal(l0_queue_t *q);
void l0_queue_release_internal(l0_queue_t *q);

// ---- event.c ----
/// A new event for a command of q (a Level Zero event taken from the context's cache).
ur_result_t l0_event_create(l0_queue_t *q, ur_command_t command, l0_event_t **out);
/// Keeps `dep` alive until `e` completes.
ur_result_t l0_event_add_dep(l0_event_t *e, l0_event_t *dep);
/// True when the device has signalled e (asks the driver unless already known).
bool l0_event_done(l0_event_t *e);
/// Releases what a completed event held (its dependencies).
void l0_event_drop_deps(l0_event_t *e);
/// Blocks until e is signalled (submitting its batch first).
ur_result_t l0_event_host_wait(l0_event_t *e);
void l0_event_retain_internal(l0_event_t *e);
void l0_event_release_internal(l0_event_t *e);
/// Drops the reference an event is made with (the caller's), when the caller does not get it.
void l0_event_release_created(l0_event_t *e);
/// Stops the thread behind urEventSetCallback, if it runs: with `drain`, after every pending
/// callback has run (each waits for its event to complete).
void l0_callbacks_stop(bool drain);

// ---- host_task.c ----
/// Stops the thread that runs host tasks, if it runs: with `drain`, after every pending task.
void l0_host_tasks_stop(bool drain);

/// A wait list in which reusable events stand for their latest signals (held until fini);
/// entries never signalled are left out. `events` is the caller's list when it has none.
typedef struct l0_wait_view_t {
    uint32_t count;
    const ur_event_handle_t *events;
    ur_event_handle_t *own; // NULL (the caller's list), `stack`, or allocated; each entry held
    ur_event_handle_t stack[16];
} l0_wait_view_t;
/// INVALID_EVENT_WAIT_LIST (as `bad`) for an entry that is not an event of this adapter.
ur_result_t l0_wait_view_init(l0_wait_view_t *v, uint32_t n, const ur_event_handle_t *events,
                              ur_result_t bad);
void l0_wait_view_fini(l0_wait_view_t *v);
/// A reusable event's latest signal, held (l0_event_release_internal), or NULL before the first.
l0_event_t *l0_reusable_current(l0_event_t *e);
/// A reusable event of `ctx` for `dev` (no signal yet, no IPC event), known to
/// urc_reusable_claim; `imported` for one opened from IPC handle data (ipc_event.c).
ur_result_t l0_reusable_make(l0_context_t *ctx, l0_device_t *dev, ur_exp_event_flags_t flags,
                             bool imported, l0_event_t **out);
/// What a reusable event owns, at its destruction.
void l0_reusable_fini(l0_event_t *e);
/// True when the device's driver passes event pools between processes.
bool l0_ipc_events_available(const l0_device_t *dev);
/// urEnqueueEventsWaitWithBarrierExt signalling the reusable event `e` (claimed by the caller).
ur_result_t l0_event_signal(l0_event_t *e, l0_queue_t *q, uint32_t n,
                            const ur_event_handle_t *waits);

/// Keeps a kernel or program alive until e completes (reference taken here).
void l0_event_keep_kernel(l0_event_t *e, struct l0_kernel_t *k);
void l0_event_keep_program(l0_event_t *e, struct l0_program_t *p);

// ---- kernel.c ----
void l0_kernel_release_internal(struct l0_kernel_t *k);

// ---- memory.c ----
void l0_mem_retain_internal(l0_mem_t *mem);
void l0_mem_release_internal(l0_mem_t *mem);
/// A new memory object of the context (reference count 1, the context retained).
l0_mem_t *l0_mem_new(l0_context_t *ctx, ur_mem_flags_t flags, size_t size, l0_mem_kind_t kind);
/// Runs `append` on a one-off immediate list of dev, outside any queue, and waits for it.
typedef ze_result_t (*l0_append_fn)(ze_command_list_handle_t list, ze_event_handle_t signal,
                                    void *arg);
ur_result_t l0_run_now(l0_context_t *ctx, l0_device_t *dev, l0_append_fn append, void *arg,
                       const char *what);

// ---- enqueue.c ----
/// One side of a rectangular copy: UR's checks (urc_rect_check) and Level Zero's 32-bit pitches
/// and extents.
/// The allocation holding a pointer, from zeMemGetAddressRange in `backend` (an l0_context_t).
bool l0_usm_lookup(void *backend, const void *ptr, const void **base, size_t *size);
/// The rule table's facts for commands of `ctx` on `dev` (queue/command_rules.h).
void l0_rules(const l0_context_t *ctx, const l0_device_t *dev, urc_rules_t *out);
ur_result_t l0_rect_side(urc_rect_side_t *s, size_t limit, ur_rect_offset_t o,
                         const ur_rect_region_t *r, size_t row, size_t slice);

// ---- image.c, bindless.c ----
/// The Level Zero format of a UR format; false when Level Zero has no such layout.
bool l0_image_format(const ur_image_format_t *f, ze_image_format_t *out);
/// The Level Zero type of a UR image type (3D for what is not 1D, 2D or an array of them).
ze_image_type_t l0_image_type(ur_mem_type_t t);
/// bindless.c: looks up the bindless image entry points of a driver with the extension.
void l0_bindless_init(l0_platform_t *p, uint32_t version);
/// bindless.c: the device's answer to a bindless query, or false when `name` is not one.
bool l0_bindless_device_info(const l0_device_t *dev, ur_device_info_t name, const urc_info_t *out,
                             ur_result_t *result);
// ---- sampler.c ----
/// The Level Zero sampler descriptor of a UR one (one addressing mode: the first dimension's).
void l0_sampler_desc(const urc_sampler_t *desc, ze_sampler_desc_t *zd);
/// The Level Zero sampler of `s` for `dev`, NULL when dev is not in the sampler's context.
ze_sampler_handle_t l0_sampler_for(const l0_sampler_t *s, const l0_device_t *dev);

// ---- usm.c ----
/// Frees a USM allocation once no command uses it (blocking free where the driver has it).
/// Copies `n` bytes now, on a short-lived immediate command list of `dev` (memory.c).
ur_result_t l0_copy_now(l0_context_t *ctx, l0_device_t *dev, void *dst, const void *src, size_t n);

/// urEnqueueEventsWait(WithBarrier)'s command with any command type (enqueue.c).
ur_result_t l0_enqueue_wait_command(l0_queue_t *q, ur_command_t command, uint32_t n,
                                    const ur_event_handle_t *wait, ur_event_handle_t *phEvent);

/// The USM pools' view of this adapter (usm_pool.c).
extern const struct urc_usm_pool_adapter_t l0_pool_adapter;

ur_result_t l0_usm_release(l0_context_t *ctx, void *ptr);

// ---- program.c ----
void l0_program_retain_internal(l0_program_t *p);
void l0_program_release_internal(l0_program_t *p);
/// The program's state on dev, or NULL when dev is not one of its devices.
l0_program_dev_t *l0_program_dev(l0_program_t *p, const l0_device_t *dev);
/// The module built for dev (under the program's lock); false when there is none.
bool l0_program_module(l0_program_t *p, const l0_device_t *dev, ze_module_handle_t *module,
                       urc_dg_cache_t **dg);

// ---- device_global.c ----
/// Resolves a device global of a program built for dev: its address and size, cached per
/// (program, device). INVALID_PROGRAM_EXECUTABLE when not built for dev, INVALID_VALUE for an
/// unknown name (whatever the driver says).
ur_result_t l0_program_global(l0_program_t *p, const l0_device_t *dev, const char *name,
                              void **address, size_t *size);

#endif // URC_L0_L0_INTERNAL_H
