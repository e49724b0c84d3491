// SPDX-License-Identifier: MIT
// The header every adapter handle starts with, and its reference count.
#ifndef URC_COMMON_OBJECT_H
#define URC_COMMON_OBJECT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ur_ddi.h"

/// Object kinds, stored in each handle so debug checks can tell a queue from a context.
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
    URC_KIND_PHYSICAL_MEM,
} urc_kind_t;

/// First member of every handle. `ddi` must stay at offset 0: UR's loader and ours read the
/// first word of a handle to find the adapter's table.
typedef struct urc_object_t {
    const ur_dditable_t *ddi;
    atomic_uint refcount;
    urc_kind_t kind;
} urc_object_t;

static inline void urc_object_init(urc_object_t *obj, const ur_dditable_t *ddi, urc_kind_t kind) {
    obj->ddi = ddi;
    atomic_init(&obj->refcount, 1);
    obj->kind = kind;
}

static inline void urc_retain(urc_object_t *obj) {
    // Taking a reference needs no ordering: the caller already holds one.
    atomic_fetch_add_explicit(&obj->refcount, 1, memory_order_relaxed);
}

/// Drops one reference; true when it was the last, and the caller must destroy the object.
/// acq_rel makes every write made under earlier references visible to the destroyer.
static inline bool urc_release(urc_object_t *obj) {
    return atomic_fetch_sub_explicit(&obj->refcount, 1, memory_order_acq_rel) == 1;
}

static inline uint32_t urc_refcount(const urc_object_t *obj) {
    return atomic_load_explicit(&((urc_object_t *)obj)->refcount, memory_order_relaxed);
}

static inline bool urc_is_kind(const void *handle, urc_kind_t kind) {
    return handle != NULL && ((const urc_object_t *)handle)->kind == kind;
}

#endif // URC_COMMON_OBJECT_H
