// SPDX-License-Identifier: MIT
// Stream-ordered USM (urEnqueueUSM{Device,Shared,Host}AllocExp, urEnqueueUSMFreeExp) over a
// USM pool and the queue's own ordering, for adapters without a driver-side equivalent: the
// memory is taken from the pool at once and handed out with a barrier event; a free is a
// barrier whose completion gives the memory back to the pool, so no later allocation can
// reuse it while earlier commands of the queue may still touch it.
#ifndef URC_COMMON_MEMORY_USM_ASYNC_H
#define URC_COMMON_MEMORY_USM_ASYNC_H

#include "pool/pool_handle.h"

/// What an adapter gives besides its pools: the queue's context and device, a barrier of a
/// given command type (UR's urEnqueueEventsWaitWithBarrier rules), and its event calls.
typedef struct urc_usm_async_adapter_t {
    const urc_usm_pool_adapter_t *pools;
    ur_result_t (*queue_of)(ur_queue_handle_t queue, ur_context_handle_t *context,
                            ur_device_handle_t *device);
    ur_result_t (*barrier)(ur_queue_handle_t queue, ur_command_t command, uint32_t n,
                           const ur_event_handle_t *wait, ur_event_handle_t *event);
    ur_result_t (*set_callback)(ur_event_handle_t event, ur_execution_info_t status,
                                ur_event_callback_t callback, void *data);
    ur_result_t (*wait)(uint32_t n, const ur_event_handle_t *events);
    ur_result_t (*release)(ur_event_handle_t event);
} urc_usm_async_adapter_t;

/// urEnqueueUSM*AllocExp: from `pool`, or the device's current pool when NULL.
/// INVALID_USM_SIZE for 0 bytes, INVALID_ENUMERATION for unknown property flags.
ur_result_t urc_usm_enqueue_alloc(const urc_usm_async_adapter_t *a, ur_queue_handle_t queue,
                                  ur_usm_pool_handle_t pool, ur_usm_type_t type, size_t size,
                                  const ur_exp_async_usm_alloc_properties_t *properties, uint32_t n,
                                  const ur_event_handle_t *wait, void **out,
                                  ur_event_handle_t *event);

/// urEnqueueUSMFreeExp: INVALID_MEM_OBJECT for a pointer no pool of the queue's context handed
/// out, INVALID_VALUE when `pool` is given and is not the pointer's.
ur_result_t urc_usm_enqueue_free(const urc_usm_async_adapter_t *a, ur_queue_handle_t queue,
                                 ur_usm_pool_handle_t pool, void *ptr, uint32_t n,
                                 const ur_event_handle_t *wait, ur_event_handle_t *event);

/// Defines `static const urc_usm_async_adapter_t <prefix>_async_adapter` over
/// `<prefix>_pool_adapter` for an adapter whose queues are structs with `ctx` and `dev`
/// (CUDA, Level Zero): `CAST` is its queue cast, `barrier` its barrier of a given command type
/// on such a struct, and its event entry points are `<prefix>_event_set_callback`, `_wait`
/// and `_release`.
#define URC_USM_ASYNC_ADAPTER(prefix, CAST, barrier)                                               \
    static ur_result_t prefix##_async_queue_of(ur_queue_handle_t q, ur_context_handle_t *ctx,      \
                                               ur_device_handle_t *dev) {                          \
        if (!prefix##_is(q, URC_KIND_QUEUE))                                                       \
            return UR_RESULT_ERROR_INVALID_QUEUE;                                                  \
        *ctx = (ur_context_handle_t)CAST(q)->ctx;                                                  \
        *dev = (ur_device_handle_t)CAST(q)->dev;                                                   \
        return UR_RESULT_SUCCESS;                                                                  \
    }                                                                                              \
    static ur_result_t prefix##_async_barrier(ur_queue_handle_t q, ur_command_t command,           \
                                              uint32_t n, const ur_event_handle_t *wait,           \
                                              ur_event_handle_t *phEvent) {                        \
        return barrier(CAST(q), command, n, wait, phEvent);                                        \
    }                                                                                              \
    static const urc_usm_async_adapter_t prefix##_async_adapter = {                                \
        &prefix##_pool_adapter,      prefix##_async_queue_of, prefix##_async_barrier,              \
        prefix##_event_set_callback, prefix##_event_wait,     prefix##_event_release}

#endif // URC_COMMON_MEMORY_USM_ASYNC_H
