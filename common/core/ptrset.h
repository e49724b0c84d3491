// SPDX-License-Identifier: MIT
// A set of live pointers that can be asked about any value, even garbage: membership compares
// the value only and never reads through it. Used where a caller's word may or may not be a
// handle urc made (a reusable event in urEnqueueEventsWaitWithBarrierExt's `*phEvent`, IPC
// handle data given back to urIPCPut*HandleExp). Sharded: each of URC_PTRSET_SHARDS
// buckets has its own small spin lock, held only for a scan of a few entries.
#ifndef URC_COMMON_CORE_PTRSET_H
#define URC_COMMON_CORE_PTRSET_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#define URC_PTRSET_SHARDS 64

typedef struct urc_ptrset_shard_t {
    atomic_bool busy;
    const void **items;
    size_t count, capacity;
} urc_ptrset_shard_t;

/// Zero-initialised (a static variable) is an empty set; nothing to set up.
typedef struct urc_ptrset_t {
    atomic_size_t size; // members in all shards: lookups in an empty set touch no lock
    urc_ptrset_shard_t shards[URC_PTRSET_SHARDS];
} urc_ptrset_t;

/// Adds `p`; false when out of memory (the set is unchanged).
bool urc_ptrset_add(urc_ptrset_t *set, const void *p);

/// Removes `p`; false when it was not a member.
bool urc_ptrset_remove(urc_ptrset_t *set, const void *p);

/// Removes `p` only if `accept(p, arg)`, asked under the shard's lock once `p` is known to be a
/// member, agrees; false otherwise. Lets a caller look inside its own member before taking it
/// out, with no window in which a concurrent removal could take it first.
bool urc_ptrset_remove_if(urc_ptrset_t *set, const void *p,
                          bool (*accept)(const void *p, void *arg), void *arg);

/// Calls `claim(p)` under the shard's lock when `p` is a member, so a concurrent removal
/// waits until the claim (typically: take a reference) is done. False when not a member.
bool urc_ptrset_claim(urc_ptrset_t *set, const void *p, void (*claim)(const void *p));

/// The number of members.
size_t urc_ptrset_size(urc_ptrset_t *set);

#endif // URC_COMMON_CORE_PTRSET_H
