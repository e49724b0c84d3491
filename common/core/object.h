// SPDX-License-Identifier: MIT
// The header every adapter handle starts with, and its two reference counts.
#ifndef URC_COMMON_CORE_OBJECT_H
#define URC_COMMON_CORE_OBJECT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ur_ddi.h"

/// Object kinds, stored in each handle so checks can tell a queue from a context.
typedef enum urc_kind_t {
    URC_KIND_ADAPTER = 0x55524101,
    URC_KIND_PLATFORM,
    URC_KIND_DEVICE,
    URC_KIND_CONTEXT,
    URC_KIND_QUEUE,
    URC_KIND_EVENT,
    URC_KIND_PROGRAM,
    URC_KIND_KERNEL,
    URC_KIND_MEM,
    URC_KIND_SAMPLER,
    URC_KIND_USM_POOL,
    URC_KIND_COMMAND_BUFFER,
    URC_KIND_COMMAND_BUFFER_COMMAND,
    URC_KIND_GRAPH,
    URC_KIND_EXECUTABLE_GRAPH,
    URC_KIND_PHYSICAL_MEM,
} urc_kind_t;

/// Kinds of imported external memory and semaphores: outside urc_kind_t's range, so the
/// generated entry checks leave these handles to the adapter that imports them.
#define URC_KIND_EXTERNAL_MEM       ((urc_kind_t)0x55524201)
#define URC_KIND_EXTERNAL_SEMAPHORE ((urc_kind_t)0x55524202)

/// First member of every handle. `ddi` must stay at offset 0: UR's loader and ours read the
/// first word of a handle to find the adapter's table.
///
/// Two counts keep the user's references apart from the adapter's own (docs/shared-code.md,
/// "Object lifetimes"): `refcount` is the user's (urXRetain / urXRelease, and what
/// *_INFO_REFERENCE_COUNT reports); `holds` counts the adapter's references (an event holding
/// its queue, a kernel its program, a pending callback its event) plus one for all the
/// user's together. The object is destroyed when `holds` reaches zero, so a user who releases
/// too early or too often cannot free what the adapter still uses.
typedef struct urc_object_t {
    const ur_dditable_t *ddi;
    atomic_uint refcount; // the user's references
    urc_kind_t kind;
    atomic_uint holds; // the adapter's references, plus one while refcount > 0
} urc_object_t;

/// What urc_user_release did.
typedef enum urc_release_t {
    URC_RELEASE_REFUSED,   ///< the user's count was already 0: nothing changed
    URC_RELEASE_KEPT,      ///< released; the object lives on
    URC_RELEASE_DESTROY,   ///< that was the last reference of any kind: destroy the object now
    URC_RELEASE_LAST_USER, ///< (urc_user_drop only) the user's last: finish, then urc_unhold
} urc_release_t;

/// One user reference, no adapter reference besides it.
static inline void urc_object_init(urc_object_t *obj, const ur_dditable_t *ddi, urc_kind_t kind) {
    obj->ddi = ddi;
    atomic_init(&obj->refcount, 1);
    obj->kind = kind;
    atomic_init(&obj->holds, 1);
}

/// Takes an adapter reference. Needs no ordering: the caller already holds a reference.
static inline void urc_hold(urc_object_t *obj) {
    atomic_fetch_add_explicit(&obj->holds, 1, memory_order_relaxed);
}

/// Drops an adapter reference; true when it was the last reference of any kind, and the
/// caller must destroy the object. acq_rel makes every write made under earlier references
/// visible to the destroyer.
static inline bool urc_unhold(urc_object_t *obj) {
    return atomic_fetch_sub_explicit(&obj->holds, 1, memory_order_acq_rel) == 1;
}

/// urXRetain. A handle whose user references are all gone but which the adapter still holds
/// (a kernel's program made from a native kernel, handed out by urKernelGetInfo) gives the
/// user a reference again; the object is alive, so this is safe.
static inline void urc_user_retain(urc_object_t *obj) {
    if (atomic_fetch_add_explicit(&obj->refcount, 1, memory_order_relaxed) == 0)
        urc_hold(obj);
}

/// Gives the user a reference unless the object is already being destroyed (no reference of
/// any kind is left): for registries that hand out existing handles (a device made twice from
/// one native handle) and drop them in the destructor.
static inline bool urc_retain_unless_zero(urc_object_t *obj) {
    unsigned n = atomic_load_explicit(&obj->holds, memory_order_relaxed);
    do {
        if (n == 0)
            return false;
    } while (!atomic_compare_exchange_weak_explicit(&obj->holds, &n, n + 1, memory_order_acquire,
                                                    memory_order_relaxed));
    // The hold just taken becomes the users' one when they had none; otherwise they already
    // hold the object, so dropping it again cannot be the last reference.
    if (atomic_fetch_add_explicit(&obj->refcount, 1, memory_order_relaxed) != 0)
        atomic_fetch_sub_explicit(&obj->holds, 1, memory_order_relaxed);
    return true;
}

/// Turns the creator's only user reference into an adapter reference, for objects the adapter
/// makes for itself through a path that hands out user references (a native queue wrapped
/// for an event's QUEUE query).
static inline void urc_user_to_hold(urc_object_t *obj) {
    atomic_fetch_sub_explicit(&obj->refcount, 1, memory_order_relaxed);
}

/// The first half of urc_user_release, for objects whose user's last release has work to do
/// while the object is still held (a Level Zero queue finishes its commands): REFUSED, KEPT, or
/// LAST_USER, after which the caller does that work and then drops the users' reference with
/// urc_unhold.
static inline urc_release_t urc_user_drop(urc_object_t *obj) {
    unsigned n = atomic_load_explicit(&obj->refcount, memory_order_relaxed);
    do {
        if (n == 0)
            return URC_RELEASE_REFUSED;
    } while (!atomic_compare_exchange_weak_explicit(&obj->refcount, &n, n - 1, memory_order_acq_rel,
                                                    memory_order_relaxed));
    return n == 1 ? URC_RELEASE_LAST_USER : URC_RELEASE_KEPT;
}

/// urXRelease: a release past zero is refused rather than counted, so it never frees an
/// object the adapter still holds.
static inline urc_release_t urc_user_release(urc_object_t *obj) {
    urc_release_t dropped = urc_user_drop(obj);
    if (dropped != URC_RELEASE_LAST_USER)
        return dropped;
    return urc_unhold(obj) ? URC_RELEASE_DESTROY : URC_RELEASE_KEPT;
}

/// The user's count (*_INFO_REFERENCE_COUNT).
static inline uint32_t urc_refcount(const urc_object_t *obj) {
    return atomic_load_explicit(&((urc_object_t *)obj)->refcount, memory_order_relaxed);
}

/// True while the user holds a reference: the handle may still be used by the user.
static inline bool urc_user_alive(const urc_object_t *obj) {
    return urc_refcount(obj) != 0;
}

static inline bool urc_is_kind(const void *handle, urc_kind_t kind) {
    return handle != NULL && ((const urc_object_t *)handle)->kind == kind;
}

/// The generated entry checks: NULL (already judged by the argument checks) or a handle of
/// `kind` made by the adapter whose table is `ddi`.
static inline bool urc_is_own(const void *handle, urc_kind_t kind, const ur_dditable_t *ddi) {
    const urc_object_t *obj = handle;
    return obj == NULL || (obj->ddi == ddi && obj->kind == kind);
}

/// As urc_is_own for code shared by every adapter (the unsupported stubs).
static inline bool urc_is_kind_or_null(const void *handle, urc_kind_t kind) {
    return handle == NULL || ((const urc_object_t *)handle)->kind == kind;
}

#endif // URC_COMMON_CORE_OBJECT_H
