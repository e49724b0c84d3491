// SPDX-License-Identifier: MIT
// Reusable events (urEventCreateExp): the rules every adapter shares. A reusable event is
// made without a command; urEnqueueEventsWaitWithBarrierExt signals it when the caller passes
// it in `*phEvent`, as often as the caller likes, and wait lists wait for its latest signal.
// Before its first signal it is complete.
//
// `*phEvent` of that barrier is an output for every other caller, so it may hold garbage:
// whether it is a reusable event is answered by a registry of live reusable events that
// compares the value and never reads through it (ptrset.h). An event leaves the registry at
// the user's last release, so a released handle is never signalled again.
#ifndef URC_COMMON_QUEUE_REUSABLE_EVENT_H
#define URC_COMMON_QUEUE_REUSABLE_EVENT_H

#include <pthread.h>
#include <stdbool.h>

#include "core/object.h"
#include "ur_api.h"

typedef struct urc_reusable_t {
    urc_object_t *obj; // the event this state belongs to
    ur_exp_event_flags_t flags;
    bool imported;       // opened from IPC handle data: cannot be exported again
    const void *context; // the handles it was made for; a signalling queue must have both
    const void *device;
    pthread_mutex_t lock; // guards what the adapter keeps about the latest signal
} urc_reusable_t;

/// urEventCreateExp's checks after the generated ones: IPC together with profiling is
/// UR_RESULT_ERROR_INVALID_VALUE (UR's rule: the two exclude each other), profiling where the
/// device cannot time one event (`per_event_profiling` false) UNSUPPORTED_FEATURE. The
/// descriptor's `pNext` chain is checked for loops and length (UR defines no struct for it).
ur_result_t urc_reusable_check_desc(const ur_exp_event_desc_t *desc, bool per_event_profiling);

/// Initialises `r` for the event `obj` and makes it known to urc_reusable_claim.
/// OUT_OF_HOST_MEMORY when the registry cannot grow (nothing to undo then).
ur_result_t urc_reusable_start(urc_reusable_t *r, urc_object_t *obj, ur_exp_event_flags_t flags,
                               const void *context, const void *device);

/// urc_reusable_start on a new state, marked `imported` as asked: what the adapters' event
/// constructors attach to their event `obj`. NULL when memory runs out (nothing to undo then).
urc_reusable_t *urc_reusable_new(urc_object_t *obj, ur_exp_event_flags_t flags, const void *context,
                                 const void *device, bool imported);

/// urc_reusable_fini and free of a state from urc_reusable_new (NULL is nothing to do).
void urc_reusable_delete(urc_reusable_t *r);

/// urEventRelease of a reusable event: urc_user_release, and at the user's last reference
/// the event leaves the registry before the users' hold is dropped.
urc_release_t urc_reusable_user_release(urc_reusable_t *r);

/// The user's release of an adapter event `e` (with its `reusable` state, NULL for a plain
/// event and its header `obj`), for URC_RETAIN_RELEASE_BY.
#define URC_EVENT_USER_RELEASE(e)                                                                  \
    ((e)->reusable != NULL ? urc_reusable_user_release((e)->reusable) : urc_user_release(&(e)->obj))

/// At destruction (the registry has already forgotten the event).
void urc_reusable_fini(urc_reusable_t *r);

/// The event `candidate` (any value, never dereferenced unless it is a live reusable event of
/// this library) with an adapter reference taken (urc_hold), or NULL when it is not one.
urc_object_t *urc_reusable_claim(const void *candidate);

/// The checks of a signal by a queue of `context` and `device`: the event must have been made
/// for both (UR_RESULT_ERROR_INVALID_EVENT with a message otherwise).
ur_result_t urc_reusable_check_signal(const urc_reusable_t *r, const void *context,
                                      const void *device);

/// urIPCGetEventHandleExp's rule of which events may be exported: `r` (NULL for an event that
/// is not reusable) must be made with UR_EXP_EVENT_FLAG_IPC_EXP and not opened from IPC handle
/// data (UR_RESULT_ERROR_INVALID_EVENT with a message otherwise).
ur_result_t urc_reusable_check_export(const urc_reusable_t *r);

/// The number of live reusable events of this library (tests).
size_t urc_reusable_live(void);

#endif // URC_COMMON_QUEUE_REUSABLE_EVENT_H
