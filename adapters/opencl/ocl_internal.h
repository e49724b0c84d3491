// SPDX-License-Identifier: MIT
// What the OpenCL adapter's files share: error mapping, info replies, wait lists, events.
#ifndef URC_OCL_INTERNAL_H
#define URC_OCL_INTERNAL_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "memory/buffer.h"
#include "device/device_info.h"
#include "core/error.h"
#include "core/info.h"
#include "core/quarantine.h"
#include "ocl_entry_points.h"
#include "ocl_handles.h"
#include "ocl_objects.h"
#include "memory/ranges.h"

/// The USM pools' view of this adapter (usm_pool.c).
extern const struct urc_usm_pool_adapter_t ocl_pool_adapter;

/// The process's one adapter object (whether or not anyone holds a reference).
ur_adapter_handle_t ocl_the_adapter(void);

/// The adapter's logger (UR_LOG_OPENCL).
urc_logger_t *ocl_log(void);

// ---- errors (ocl_error.c) ------------------------------------------------------------------

/// The UR result for an OpenCL error code; codes without a UR equivalent give
/// UR_RESULT_ERROR_ADAPTER_SPECIFIC.
ur_result_t ocl_map_error(cl_int err);

/// Maps `err` and records "<what> failed: <CL name> (<code>)" with the native code for
/// urAdapterGetLastError. Use on every failed OpenCL call.
ur_result_t ocl_fail(cl_int err, const char *what);

/// The CL_* name of an error code ("CL_INVALID_VALUE"), or "unknown OpenCL error".
const char *ocl_error_name(cl_int err);

/// Returns from the calling function when an OpenCL call fails.
#define OCL_TRY(what, expr)                                                                        \
    do {                                                                                           \
        cl_int ocl_try_err_ = (expr);                                                              \
        if (ocl_try_err_ != CL_SUCCESS)                                                            \
            return ocl_fail(ocl_try_err_, (what));                                                 \
    } while (0)

/// Returns from the calling function when a UR-level step fails.
#define OCL_TRY_UR(expr)                                                                           \
    do {                                                                                           \
        ur_result_t ocl_try_res_ = (expr);                                                         \
        if (ocl_try_res_ != UR_RESULT_SUCCESS)                                                     \
            return ocl_try_res_;                                                                   \
    } while (0)

// ---- handle checks -------------------------------------------------------------------------
// ocl_is (generated/ocl_handles.h, included above) catches handles of another kind or another
// adapter; the generated checks already reject NULL.

/// urXCreateWithNativeHandle: a native object of another OpenCL context than `context`'s
/// (`native` is the one the runtime reports) is INVALID_CONTEXT; `what` names the object.
static inline ur_result_t ocl_native_in_context(cl_context native, ur_context_handle_t context,
                                                const char *what) {
    if (native == context->cl)
        return UR_RESULT_SUCCESS;
    return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                         "the native %s belongs to another context", what);
}

#define OCL_CHECK_HANDLE(h, kind, result)                                                          \
    do {                                                                                           \
        if (!ocl_is((h), (kind)))                                                                  \
            return urc_error_set((result), 0, "%s: not an OpenCL adapter %s handle", __func__,     \
                                 #h);                                                              \
    } while (0)

// ---- object helpers ------------------------------------------------------------------------

ur_result_t ocl_platform_discover(ur_adapter_handle_t adapter);
void ocl_platforms_destroy(ur_adapter_handle_t adapter);

/// The adapter's handle of a native device (root or sub-device seen before), or NULL.
ur_device_handle_t ocl_device_find(cl_device_id cl);
/// Builds a root device of `platform` (called during discovery).
ur_result_t ocl_device_create(ur_platform_handle_t platform, cl_device_id cl,
                              ur_device_handle_t parent, ur_device_handle_t *out);
void ocl_device_destroy(ur_device_handle_t device);
/// Takes a reference for an object that depends on `device`; root devices are not counted
/// (as OpenCL's clRetainDevice on a root device), so this only counts sub-devices.
void ocl_device_retain_internal(ur_device_handle_t device);
void ocl_device_release_internal(ur_device_handle_t device);
/// The device's SYCL aspects and limits (urc_caps_from_device, URC_MASK_ASPECTS applied),
/// computed on first use and kept for the device's life.
ur_result_t ocl_device_caps(ur_device_handle_t device, const urc_device_caps_t **out);

/// The OpenCL form of UR's memory flags.
cl_mem_flags ocl_mem_flags(ur_mem_flags_t flags);
/// Wraps `cl` (a buffer or image of `context`) in a UR handle; `parent` is retained when given.
ur_result_t ocl_mem_make(cl_mem cl, ur_context_handle_t context, ur_mem_handle_t parent, bool owns,
                         ur_mem_handle_t *out);

void ocl_context_retain_internal(ur_context_handle_t context);
void ocl_context_release_internal(ur_context_handle_t context);
void ocl_queue_release_internal(ur_queue_handle_t queue);
ur_result_t ocl_queue_wrap_native(ur_context_handle_t context, cl_command_queue cl,
                                  ur_queue_handle_t *out);
void ocl_program_release_internal(ur_program_handle_t program);

/// Index of `device` in the program's device list, or -1.
int ocl_program_device_index(ur_program_handle_t program, ur_device_handle_t device);

/// UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE (with a message) for a program that has no
/// OpenCL program: the result of a link urc refused.
ur_result_t ocl_program_has_native(ur_program_handle_t program);

/// The cache of resolved device globals of `program` on its device number `index`.
urc_dg_cache_t *ocl_program_globals(ur_program_handle_t program, int index);

/// Sets the inline arguments of a launch on `device`; the caller holds the kernel's launch
/// lock (enqueue.c).
ur_result_t ocl_kernel_set_args(ur_kernel_handle_t k, ur_device_handle_t device, uint32_t n,
                                const ur_exp_kernel_arg_properties_t *args);

/// Fills the device's command-buffer fields from its extension list and queries
/// (command_buffer.c).
void ocl_cb_detect(ur_device_handle_t d, const char *extensions);

// ---- fallback assert (assert.c) --------------------------------------------------------------

/// Records a launch of an assert-marked kernel of `program` on `queue` whose completion `done`
/// signals (the caller keeps its own reference to `done`).
ur_result_t ocl_assert_track(ur_queue_handle_t queue, ur_program_handle_t program, cl_event done);

/// Reads the records of the programs whose tracked launches on `queue` have completed (all of
/// them when `finished`), and delivers an assert found there (abort, or report mode's error).
ur_result_t ocl_assert_sweep(ur_queue_handle_t queue, bool finished);

/// Reads and delivers `program`'s record on `queue`'s device (its launch has completed).
ur_result_t ocl_assert_check_program(ur_queue_handle_t queue, ur_program_handle_t program);

/// Called when a synchronising call has seen work on `queue` complete. Costs one atomic load
/// when no assert-marked launch is pending there, which is always the case without fallback
/// asserts.
static inline ur_result_t ocl_assert_observe(ur_queue_handle_t queue, bool finished) {
    if (atomic_load_explicit(&queue->assert_pending, memory_order_acquire) == 0)
        return UR_RESULT_SUCCESS;
    return ocl_assert_sweep(queue, finished);
}

/// Ends a blocking enqueue: when it succeeded, earlier work on an in-order queue is done, so
/// pending fallback checks run; an assert they report releases the returned event.
ur_result_t ocl_assert_after_blocking(ur_queue_handle_t queue, bool blocking, ur_result_t result,
                                      ur_event_handle_t *event);

/// Drops what the queue tracks (at its destruction).
void ocl_assert_queue_fini(ur_queue_handle_t queue);

// ---- events and wait lists (event.c) -------------------------------------------------------

/// A UR wait list as OpenCL events; small lists use the inline storage.
typedef struct ocl_wait_list_t {
    cl_uint count;
    cl_event *events; // NULL when count == 0, as OpenCL requires
    cl_event inline_events[8];
    // Events the list holds a reference to, released at fini: user events standing in for
    // other contexts' events, and the current signals of reusable events.
    cl_event *bridges;
    cl_uint nbridges;
} ocl_wait_list_t;

/// Fails with UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST when an entry is not an OpenCL event.
ur_result_t ocl_wait_list_init(ocl_wait_list_t *wl, uint32_t count,
                               const ur_event_handle_t *events);
/// ocl_wait_list_init for a command of `queue`: an event of another context (OpenCL refuses
/// those in a wait list; UR allows them) is replaced by a user event of the queue's context
/// that completes when it does.
ur_result_t ocl_wait_list_for_queue(ocl_wait_list_t *wl, ur_queue_handle_t queue, uint32_t count,
                                    const ur_event_handle_t *events);
void ocl_wait_list_fini(ocl_wait_list_t *wl);

/// Wraps a cl_event returned by an enqueue on `queue` (owning its reference) into a UR event
/// of type `command`; nothing happens when `out` is NULL. On allocation failure the cl_event
/// is released.
ur_result_t ocl_event_wrap(ur_queue_handle_t queue, ur_command_t command, cl_event cl,
                           ur_event_handle_t *out);

/// A new event handle for `cl` (a reference the handle takes over when `owns`).
ur_result_t ocl_event_make(ur_context_handle_t context, ur_queue_handle_t queue, cl_event cl,
                           ur_command_t command, bool owns, ur_event_handle_t *out);
/// Drops an adapter reference to an event (destroying it after the last one).
void ocl_event_release_internal(ur_event_handle_t e);
/// The event's cl_event with a reference for the caller: a reusable event's changes at each
/// signal, so it is read under the event's lock (reusable_event.c).
cl_event ocl_event_native(ur_event_handle_t e);
/// urEnqueueEventsWaitWithBarrierExt signalling the reusable event `e` (claimed by the caller).
ur_result_t ocl_event_signal(ur_event_handle_t e, ur_queue_handle_t queue, uint32_t n,
                             const ur_event_handle_t *waits);

/// Ends an enqueue: frees the wait list, maps a failure, or wraps the event.
ur_result_t ocl_enqueue_done(cl_int err, const char *what, ocl_wait_list_t *wl,
                             ur_queue_handle_t queue, ur_command_t command, cl_event cl,
                             ur_event_handle_t *out);

/// The USM allocation of the context `backend` that holds `ptr`, from clGetMemAllocInfoINTEL
/// (a urc_usm_lookup_fn, common/memory/usm_range.h).
bool ocl_usm_lookup(void *backend, const void *ptr, const void **base, size_t *size);
/// The rule table's facts for commands of `ctx` on `dev` (queue/command_rules.h): the lookup
/// above and the device's work-group limits.
/// A kernel's argument count for the rule table's index checks (UINT32_MAX: unknown).
uint32_t ocl_kernel_arg_count(const void *kernel);
void ocl_rules(ur_context_handle_t ctx, ur_device_handle_t dev, urc_rules_t *out);

/// The fill commands of urEnqueueMemBufferFill and urEnqueueUSMFill after their checks, at the
/// OpenCL level so that command-buffer replays submit them too: patterns OpenCL cannot fill
/// with are written from a host image freed when the write completes. `out` may be NULL.
cl_int ocl_fill_buffer_cl(cl_command_queue q, cl_mem m, const void *pattern, size_t pattern_size,
                          size_t offset, size_t size, cl_uint n, const cl_event *waits,
                          cl_event *out);
cl_int ocl_usm_fill_cl(ur_context_handle_t ctx, cl_command_queue q, void *dst, const void *pattern,
                       size_t pattern_size, size_t size, cl_uint n, const cl_event *waits,
                       cl_event *out);

/// Whether OpenCL's USM fills take `pattern_size` at `dst`: a power of two up to 128 bytes, the
/// destination aligned to it.
static inline bool ocl_usm_fill_takes(const void *dst, size_t pattern_size) {
    return pattern_size <= 128 && (pattern_size & (pattern_size - 1)) == 0 &&
           (uintptr_t)dst % pattern_size == 0;
}

/// An event callback that frees the host memory `data` (a host image a write was made from).
void CL_CALLBACK ocl_free_host_image(cl_event ev, cl_int status, void *data);

/// Ends a non-blocking write from the host `image` enqueued with result `err` and event `ev`:
/// the image is freed when the write completes (or, where no callback can be set, after
/// waiting for it; at once when the enqueue failed), and the event goes to `out` or is released.
cl_int ocl_free_image_after(cl_int err, cl_event ev, void *image, cl_event *out);

/// USM commands, eager or appended, on a device without cl_intel_unified_shared_memory are
/// UNSUPPORTED_FEATURE (`what` names the entry point in the message).
ur_result_t ocl_usm_required(ur_device_handle_t d, const char *what);

/// usm.c: forgets the record of the USM allocations of a context being destroyed.
void ocl_usm_context_destroyed(ur_context_handle_t ctx);

#endif // URC_OCL_INTERNAL_H
