// SPDX-License-Identifier: MIT
// The queues of one device, for urDeviceWaitExp: UR asks to synchronise with every queue of a
// device, and neither OpenCL nor Level Zero can wait for a device as a whole. An adapter adds a
// queue when it makes one and removes it when the queue is destroyed; urc_queue_registry_wait
// then waits for each queue alive at the time of the call, holding it (an adapter reference)
// while it waits, so a queue released meanwhile by another thread stays valid.
#ifndef URC_COMMON_QUEUE_QUEUE_REGISTRY_H
#define URC_COMMON_QUEUE_QUEUE_REGISTRY_H

#include <pthread.h>
#include <stdint.h>

#include "core/object.h"
#include "ur_api.h"

typedef struct urc_queue_registry_t {
    pthread_mutex_t lock;
    urc_object_t **queues; // not held: each queue removes itself before it is freed
    uint32_t count, cap;
} urc_queue_registry_t;

void urc_queue_registry_init(urc_queue_registry_t *reg);
/// Frees the registry's storage; every queue must have been removed.
void urc_queue_registry_fini(urc_queue_registry_t *reg);

/// @returns UR_RESULT_ERROR_OUT_OF_HOST_MEMORY, else success.
ur_result_t urc_queue_registry_add(urc_queue_registry_t *reg, urc_object_t *queue);
/// Forgets a queue (from its destructor); a queue never added is ignored.
void urc_queue_registry_remove(urc_queue_registry_t *reg, urc_object_t *queue);

/// The adapter's side of a wait: finish one queue, and drop the reference the registry took
/// (which may destroy the queue, so it goes through the adapter's release).
typedef struct urc_queue_wait_ops_t {
    ur_result_t (*finish)(urc_object_t *queue);
    void (*release)(urc_object_t *queue);
} urc_queue_wait_ops_t;

/// Finishes every queue registered when called, in registration order, without the registry's
/// lock held (queues may be made and destroyed meanwhile; those made later are not waited
/// for). Queues already being destroyed are skipped: their destructor has finished their work.
/// Every queue is finished even after a failure; the first failure is returned.
ur_result_t urc_queue_registry_wait(urc_queue_registry_t *reg, const urc_queue_wait_ops_t *ops);

/// Queues registered now.
uint32_t urc_queue_registry_count(urc_queue_registry_t *reg);

#endif // URC_COMMON_QUEUE_QUEUE_REGISTRY_H
