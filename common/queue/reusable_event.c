// SPDX-License-Identifier: MIT
// Reusable events: descriptor checks, the registry of live ones, signal checks
// (reusable_event.h).
#include "queue/reusable_event.h"

#include <stdlib.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/pnext.h"
#include "core/ptrset.h"

// One registry per library: each adapter knows its own reusable events.
static urc_ptrset_t live;

ur_result_t urc_reusable_check_desc(const ur_exp_event_desc_t *desc, bool per_event_profiling) {
    ur_result_t res = urc_pnext_check(desc);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if ((desc->flags & UR_EXP_EVENT_FLAGS_MASK) != 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_ENUMERATION, 0,
                             "urEventCreateExp: unknown flag bits 0x%x",
                             (unsigned)(desc->flags & UR_EXP_EVENT_FLAGS_MASK));
    const ur_exp_event_flags_t both =
        UR_EXP_EVENT_FLAG_IPC_EXP | UR_EXP_EVENT_FLAG_ENABLE_PROFILING;
    if ((desc->flags & both) == both)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "urEventCreateExp: an IPC event cannot also profile");
    if ((desc->flags & UR_EXP_EVENT_FLAG_ENABLE_PROFILING) && !per_event_profiling)
        return urc_error_set(
            UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
            "urEventCreateExp: this device cannot profile a single event (only "
            "a queue made with UR_QUEUE_FLAG_PROFILING_ENABLE times its commands)");
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_reusable_start(urc_reusable_t *r, urc_object_t *obj, ur_exp_event_flags_t flags,
                               const void *context, const void *device) {
    r->obj = obj;
    r->flags = flags;
    r->imported = false;
    r->context = context;
    r->device = device;
    pthread_mutex_init(&r->lock, NULL);
    if (!urc_ptrset_add(&live, obj)) {
        pthread_mutex_destroy(&r->lock);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    return UR_RESULT_SUCCESS;
}

urc_reusable_t *urc_reusable_new(urc_object_t *obj, ur_exp_event_flags_t flags, const void *context,
                                 const void *device, bool imported) {
    urc_reusable_t *r = URC_NEW(urc_reusable_t);
    if (r == NULL)
        return NULL;
    if (urc_reusable_start(r, obj, flags, context, device) != UR_RESULT_SUCCESS) {
        free(r);
        return NULL;
    }
    r->imported = imported;
    return r;
}

void urc_reusable_delete(urc_reusable_t *r) {
    if (r == NULL)
        return;
    urc_reusable_fini(r);
    free(r);
}

urc_release_t urc_reusable_user_release(urc_reusable_t *r) {
    urc_release_t dropped = urc_user_drop(r->obj);
    if (dropped != URC_RELEASE_LAST_USER)
        return dropped;
    // Gone from the registry first: a barrier that claims it from now on sees a plain output.
    urc_ptrset_remove(&live, r->obj);
    return urc_unhold(r->obj) ? URC_RELEASE_DESTROY : URC_RELEASE_KEPT;
}

void urc_reusable_fini(urc_reusable_t *r) {
    pthread_mutex_destroy(&r->lock);
}

// Runs under the registry's lock, which the last user release also takes before it drops the
// users' hold: the object is alive here.
static void hold(const void *p) {
    urc_hold((urc_object_t *)p);
}

urc_object_t *urc_reusable_claim(const void *candidate) {
    return urc_ptrset_claim(&live, candidate, hold) ? (urc_object_t *)candidate : NULL;
}

ur_result_t urc_reusable_check_signal(const urc_reusable_t *r, const void *context,
                                      const void *device) {
    if (context != r->context)
        return urc_error_set(UR_RESULT_ERROR_INVALID_EVENT, 0,
                             "the reusable event belongs to another context than the queue");
    if (device != r->device)
        return urc_error_set(UR_RESULT_ERROR_INVALID_EVENT, 0,
                             "the reusable event was made for another device than the queue's");
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_reusable_check_export(const urc_reusable_t *r) {
    if (r == NULL || !(r->flags & UR_EXP_EVENT_FLAG_IPC_EXP))
        return urc_error_set(UR_RESULT_ERROR_INVALID_EVENT, 0,
                             "urIPCGetEventHandleExp: the event was not made by urEventCreateExp "
                             "with UR_EXP_EVENT_FLAG_IPC_EXP");
    if (r->imported)
        return urc_error_set(UR_RESULT_ERROR_INVALID_EVENT, 0,
                             "urIPCGetEventHandleExp: an event opened from IPC handle data "
                             "cannot be exported again");
    return UR_RESULT_SUCCESS;
}

size_t urc_reusable_live(void) {
    return urc_ptrset_size(&live);
}
