// SPDX-License-Identifier: MIT
// Command buffers (UR's CommandBufferExp) as every adapter sees them: the state machine
// (recording, then finalized and enqueueable any number of times), sync-point numbering and
// validation, the snapshot of each kernel command that updates change, and UR's argument
// rules. Adapters embed a urc_cb_t in their command-buffer handle and a urc_cb_command_t in
// their command handle, and translate only what reaches the native API.
#ifndef URC_COMMON_QUEUE_COMMAND_BUFFER_H
#define URC_COMMON_QUEUE_COMMAND_BUFFER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/info.h"
#include "core/object.h"
#include "queue/command_rules.h"
#include "ur_api.h"
#include "ur_ddi.h"

typedef enum urc_cb_state_t {
    URC_CB_RECORDING = 0, // commands may be appended; it cannot be enqueued
    URC_CB_FINALIZED = 1, // closed: it can be enqueued (and updated when updatable)
} urc_cb_state_t;

/// What a device can do with command buffers, as the adapter found out.
typedef struct urc_cb_caps_t {
    bool supported;       // UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP
    bool events;          // UR_DEVICE_INFO_COMMAND_BUFFER_EVENT_SUPPORT_EXP
    uint32_t update_caps; // UR_DEVICE_INFO_COMMAND_BUFFER_UPDATE_CAPABILITIES_EXP
} urc_cb_caps_t;

/// The backend-neutral part of a command buffer.
typedef struct urc_cb_t {
    bool updatable, in_order, profiling; // from the descriptor
    urc_cb_caps_t caps;
    const void *context; // the adapter's context handle, for "from another context" checks
    urc_rules_t rules;   // the device's facts for the rule table (set by the adapter at creation)
    _Atomic int state;   // urc_cb_state_t
    // Guards appends, finalisation and updates: sync points are numbered in append order and
    // an update must not race another update of the same buffer.
    pthread_mutex_t lock;
    uint32_t num_sync_points;
    uint32_t sync_capacity;
    uint64_t *native_sync;     // the backend's token (OpenCL sync point, CUDA node...) per point
    _Atomic uint64_t enqueues; // runs submitted so far
    uint32_t num_commands;     // command handles made (they live as long as the buffer)
    uint32_t command_capacity;
    void **commands; // the adapter's command handles, freed by the adapter
    // Objects the recorded commands use (kernels whose code a graph or command list refers
    // to), released by the adapter with the buffer.
    uint32_t num_held;
    uint32_t held_capacity;
    void **held;
    // Events the recorded commands signal or wait for (the native graph names their native
    // events), held by the adapter as long as the buffer lives; an event update moves the hold.
    uint32_t num_events;
    uint32_t events_capacity;
    void **events;
} urc_cb_t;

/// What an update may change in a kernel command, and its current values.
typedef struct urc_cb_kernel_t {
    const void *kernel;        // the adapter's kernel handle now launched (retained by the adapter)
    uint32_t num_alternatives; // the kernels an update may switch to (the first is the original)
    const void **alternatives;
    uint32_t work_dim;
    size_t offset[3], global[3], local[3];
    bool has_local; // false: the implementation chooses the local size
} urc_cb_kernel_t;

/// A kernel command's arguments, kept for backends whose update takes the whole list (CUDA's
/// kernel nodes): each value copied, so the caller's memory may go after the append.
typedef struct urc_cb_args_t {
    uint32_t count;
    ur_exp_kernel_arg_properties_t *args; // values point into `values`
    uint8_t *values;
} urc_cb_args_t;

/// The backend-neutral part of a command handle.
typedef struct urc_cb_command_t {
    urc_cb_t *owner;
    bool is_kernel;
    bool has_event;           // phEvent was asked for at append
    uint32_t num_wait_events; // length of the wait list given at append
    urc_cb_kernel_t k;        // for kernel commands
    urc_cb_args_t args;       // kept only by adapters that call urc_cb_args_copy
    // The events it waits for now (the adapter's event handles, held by the buffer), kept by
    // adapters whose event updates replace them one by one (urc_append_command_new).
    void **wait_events;
} urc_cb_command_t;

/// The checks of urCommandBufferCreateExp after the generated ones: a device without command
/// buffers is UNSUPPORTED_FEATURE, and so is an updatable buffer on a device that can update
/// nothing; a bad stype is INVALID_VALUE.
ur_result_t urc_cb_check_create(const ur_exp_command_buffer_desc_t *desc,
                                const urc_cb_caps_t *caps);

ur_result_t urc_cb_init(urc_cb_t *cb, const ur_exp_command_buffer_desc_t *desc,
                        const urc_cb_caps_t *caps, const void *context);
void urc_cb_fini(urc_cb_t *cb);

/// The start of urCommandBufferCreateExp after the generated checks: a device outside the
/// context (`in_context` false) is INVALID_DEVICE, then urc_cb_check_create. On success `*out`
/// is a new zeroed object of `size` bytes whose header (its first member) is initialised for
/// `ddi` as a command buffer and whose urc_cb_t at `core_offset` by urc_cb_init; the adapter
/// fills in the rest, the core's `rules` too. Free it with URC_OBJECT_FREE after urc_cb_fini.
ur_result_t urc_cb_create(bool in_context, const ur_exp_command_buffer_desc_t *desc,
                          const urc_cb_caps_t *caps, const void *context, const ur_dditable_t *ddi,
                          size_t size, size_t core_offset, void **out);

/// urc_cb_create of an adapter's command-buffer `type`, whose urc_cb_t is its member `core`.
#define URC_CB_CREATE(type, in_context, desc, caps, context, ddi, out)                             \
    urc_cb_create((in_context), (desc), (caps), (context), (ddi), sizeof(type),                    \
                  offsetof(type, core), (void **)(out))

static inline bool urc_cb_is_finalized(urc_cb_t *cb) {
    return atomic_load_explicit(&cb->state, memory_order_acquire) == URC_CB_FINALIZED;
}

/// Starts an append. Checks, in UR's order: the buffer is still recording (INVALID_OPERATION),
/// a command handle is asked only of an updatable buffer (INVALID_OPERATION), events are used
/// only where the device supports them (UNSUPPORTED_FEATURE), and every sync point of the
/// wait list was issued by this buffer (INVALID_COMMAND_BUFFER_SYNC_POINT_EXP). On success
/// the buffer's lock is held until urc_cb_append_end, and urc_cb_native_sync may be read.
ur_result_t urc_cb_append_begin(urc_cb_t *cb, uint32_t num_sync,
                                const ur_exp_command_buffer_sync_point_t *sync, bool want_command,
                                bool uses_events);

/// The backend's token of a sync point checked by urc_cb_append_begin.
static inline uint64_t urc_cb_native_sync(const urc_cb_t *cb,
                                          ur_exp_command_buffer_sync_point_t sp) {
    return cb->native_sync[sp];
}

/// Ends an append begun successfully. When `result` is success, the command's backend token
/// becomes the next sync point, written to `*out` when given; `command` (the adapter's handle,
/// or NULL) is remembered so that urc_cb_commands can hand it back for destruction. Releases
/// the lock and returns `result`.
ur_result_t urc_cb_append_end(urc_cb_t *cb, ur_result_t result, uint64_t native_token,
                              void *command, ur_exp_command_buffer_sync_point_t *out);

/// Remembers an object the buffer's recorded commands use, for the adapter to release with the
/// buffer (the caller has taken the reference). Call between append_begin and append_end.
ur_result_t urc_cb_hold(urc_cb_t *cb, void *object);

/// Makes room for `more` held events, so that urc_cb_hold_event cannot fail after the native
/// append. Call between append_begin and append_end.
ur_result_t urc_cb_reserve_events(urc_cb_t *cb, uint32_t more);

/// Remembers an event a recorded command signals or waits for (the caller has taken the
/// reference and made room with urc_cb_reserve_events).
void urc_cb_hold_event(urc_cb_t *cb, void *event);

/// Moves one hold of `old` to `replacement` after an event update (the caller takes the
/// reference on `replacement` and drops the one on `old`); false when `old` is not held.
bool urc_cb_replace_event(urc_cb_t *cb, const void *old, void *replacement);

/// Where an adapter finds an event's context: NULL when `event` is not one of its events.
typedef const void *(*urc_cb_event_context_fn)(const void *event);

/// The wait list of an append or of urCommandBufferUpdateWaitEventsExp: every entry an event of
/// the adapter (INVALID_EVENT_WAIT_LIST) and of the buffer's context (INVALID_EVENT_WAIT_LIST:
/// the native graph or list can only wait for events its own context records).
ur_result_t urc_cb_check_wait_list(const urc_cb_t *cb, uint32_t n, const ur_event_handle_t *events,
                                   urc_cb_event_context_fn context_of);

/// Finalisation in two steps around the native one: begin takes the lock and refuses a buffer
/// already finalized (INVALID_OPERATION); end records the new state when `result` is success
/// and releases the lock.
ur_result_t urc_cb_finalize_begin(urc_cb_t *cb);
ur_result_t urc_cb_finalize_end(urc_cb_t *cb, ur_result_t result);

/// urCommandBufferFinalizeExp and urCommandBufferGetInfoExp of adapter `prefix`
/// (`prefix`_command_buffer_finalize_exp, `prefix`_command_buffer_get_info_exp): `object(h)` is
/// its command buffer (header `obj`, urc_cb_t `core`) and `close(object(h))` its native
/// finalisation, run between urc_cb_finalize_begin and urc_cb_finalize_end.
#define URC_COMMAND_BUFFER_FINALIZE_INFO(prefix, object, close)                                    \
    ur_result_t prefix##_command_buffer_finalize_exp(ur_exp_command_buffer_handle_t h) {           \
        ur_result_t res = urc_cb_finalize_begin(&object(h)->core);                                 \
        return res != UR_RESULT_SUCCESS ? res                                                      \
                                        : urc_cb_finalize_end(&object(h)->core, close(object(h))); \
    }                                                                                              \
    ur_result_t prefix##_command_buffer_get_info_exp(                                              \
        ur_exp_command_buffer_handle_t h, ur_exp_command_buffer_info_t propName, size_t propSize,  \
        void *pPropValue, size_t *pPropSizeRet) {                                                  \
        const urc_info_t out = {propSize, pPropValue, pPropSizeRet};                               \
        return urc_cb_get_info(&object(h)->core, urc_refcount(&object(h)->obj), propName, &out);   \
    }

/// The checks of urEnqueueCommandBufferExp: a queue of another context or device than the
/// buffer's (`queue_matches` false) is INVALID_QUEUE, a buffer still recording
/// INVALID_OPERATION. Counts the run otherwise.
ur_result_t urc_cb_check_enqueue(urc_cb_t *cb, bool queue_matches);

/// Records a kernel command's launch: the launch rule of urEnqueueKernelLaunch with the buffer's
/// `rules` (urc_rule_launch: work dimension, zero global and local sizes, device limits,
/// overflowing offsets), alternatives that do not repeat
/// `kernel` (INVALID_VALUE) and, with `kernel_contexts` (the context of `kernel` then of each
/// alternative), kernels of the buffer's context (INVALID_KERNEL). `cmd->k` gets a copy.
ur_result_t urc_cb_kernel_record(urc_cb_command_t *cmd, urc_cb_t *cb, const void *kernel,
                                 uint32_t work_dim, const size_t *offset, const size_t *global,
                                 const size_t *local, uint32_t num_alternatives,
                                 const void *const *alternatives,
                                 const void *const *kernel_contexts);
void urc_cb_command_fini(urc_cb_command_t *cmd);

/// The start every adapter's command handle has: its object header, then its common part.
typedef struct urc_cb_command_head_t {
    urc_object_t obj;
    urc_cb_command_t core;
} urc_cb_command_head_t;

/// How an adapter's command-buffer destructor lets go of what the recorded commands hold.
typedef struct urc_cb_release_t {
    size_t command_size; // sizeof the adapter's command handle (urc_cb_command_head_t first)
    void (*kernel)(void *kernel);   // a kernel the adapter retained (its kernel handle)
    void (*held)(void *object);     // an object of urc_cb_t.held (urc_cb_hold)
    void (*event)(void *event);     // an event of urc_cb_t.events; NULL where none are held there
    void (*command)(void *command); // the adapter's own members of a command handle, or NULL
} urc_cb_release_t;

/// The common end of a command-buffer destructor, once the native graph or list is gone (so
/// nothing native still names a kernel): each command handle (the kernels an update may switch
/// to, its common part, the adapter's part, then the handle, parked as released), the objects
/// and events the buffer holds, then urc_cb_fini. The buffer's own handle is the adapter's to
/// free.
void urc_cb_release_records(urc_cb_t *cb, const urc_cb_release_t *ops);

/// The buffer-level checks of urCommandBufferUpdateKernelLaunchExp: an updatable
/// (INVALID_OPERATION) and finalized (INVALID_OPERATION) buffer.
ur_result_t urc_cb_check_update_buffer(urc_cb_t *cb);

/// Checks one update description; `cmd` is the core of `u->hCommand` when it is a command
/// handle of the adapter, else NULL. Results: NULL command INVALID_NULL_HANDLE; a command of
/// another buffer or not a kernel INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP; a change the
/// device cannot make UNSUPPORTED_FEATURE; work dimension INVALID_WORK_DIMENSION; a new
/// dimension without new global size and offset, or a kernel not given at append,
/// INVALID_VALUE; argument lists missing INVALID_NULL_POINTER.
ur_result_t urc_cb_check_update(urc_cb_t *cb, const urc_cb_command_t *cmd,
                                const ur_exp_command_buffer_update_kernel_launch_desc_t *u);

/// Applies a checked and natively applied update to the command's snapshot.
void urc_cb_apply_update(urc_cb_command_t *cmd,
                         const ur_exp_command_buffer_update_kernel_launch_desc_t *u);

/// The launch an update asks for, with what it leaves unchanged filled in from the snapshot:
/// dimension, offset, global and local sizes (`*has_local` false: implementation's choice).
void urc_cb_update_launch(const urc_cb_command_t *cmd,
                          const ur_exp_command_buffer_update_kernel_launch_desc_t *u,
                          uint32_t *work_dim, size_t offset[3], size_t global[3], size_t local[3],
                          bool *has_local);

/// urCommandBufferUpdateSignalEventExp / UpdateWaitEventsExp checks: the device must update
/// events (UNSUPPORTED_FEATURE), the buffer be updatable and finalized (INVALID_OPERATION),
/// a signal event have been asked for at append (INVALID_OPERATION), a new wait list be as
/// long as the old (INVALID_EVENT_WAIT_LIST; pass UINT32_MAX for a signal update).
ur_result_t urc_cb_check_event_update(const urc_cb_command_t *cmd, bool signal,
                                      uint32_t num_wait_events);

/// Copies `n` launch arguments (values and all) into `out`.
ur_result_t urc_cb_args_copy(urc_cb_args_t *out, uint32_t n,
                             const ur_exp_kernel_arg_properties_t *args);

/// The argument list an update makes of `cur`: each new value, buffer or pointer replaces the
/// argument of its index or is added (a value without a value pointer is local memory of
/// argSize bytes). `out` is a new list for urc_cb_args_fini.
ur_result_t urc_cb_args_merge(const urc_cb_args_t *cur,
                              const ur_exp_command_buffer_update_kernel_launch_desc_t *u,
                              urc_cb_args_t *out);

void urc_cb_args_fini(urc_cb_args_t *a);

/// urCommandBufferGetInfoExp's answers.
ur_result_t urc_cb_get_info(urc_cb_t *cb, uint32_t refcount, ur_exp_command_buffer_info_t prop,
                            const urc_info_t *out);

#endif // URC_COMMON_QUEUE_COMMAND_BUFFER_H
