// SPDX-License-Identifier: MIT
// Stream-ordered USM over a pool and queue barriers (usm_async.h).
#include "memory/usm_async.h"

#include <stdlib.h>

#include "core/alloc.h"
#include "core/error.h"

static ur_command_t alloc_command(ur_usm_type_t type) {
    return type == UR_USM_TYPE_HOST     ? UR_COMMAND_ENQUEUE_USM_HOST_ALLOC_EXP
           : type == UR_USM_TYPE_DEVICE ? UR_COMMAND_ENQUEUE_USM_DEVICE_ALLOC_EXP
                                        : UR_COMMAND_ENQUEUE_USM_SHARED_ALLOC_EXP;
}

ur_result_t urc_usm_enqueue_alloc(const urc_usm_async_adapter_t *a, ur_queue_handle_t queue,
                                  ur_usm_pool_handle_t pool, ur_usm_type_t type, size_t size,
                                  const ur_exp_async_usm_alloc_properties_t *properties, uint32_t n,
                                  const ur_event_handle_t *wait, void **out,
                                  ur_event_handle_t *event) {
    ur_context_handle_t context = NULL;
    ur_device_handle_t device = NULL;
    ur_result_t res = a->queue_of(queue, &context, &device);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (properties != NULL && (properties->flags & UR_EXP_ASYNC_USM_ALLOC_FLAGS_MASK))
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    if (size == 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_USM_SIZE, 0,
                             "an enqueued USM allocation of 0 bytes");
    if (pool == NULL)
        res = urc_usm_pool_get_device_pool_exp(a->pools, context, device, &pool);
    void *mem = NULL;
    if (res == UR_RESULT_SUCCESS)
        res = urc_usm_pool_alloc_in(a->pools, context, type == UR_USM_TYPE_HOST ? NULL : device,
                                    type, pool, size, 0, &mem);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // The memory exists now; the barrier orders its use after the wait list, and its event
    // says when that is.
    res = a->barrier(queue, alloc_command(type), n, wait, event);
    if (res != UR_RESULT_SUCCESS) {
        bool pooled = false;
        (void)urc_usm_free_pooled(context, mem, &pooled);
        return res;
    }
    *out = mem;
    return UR_RESULT_SUCCESS;
}

typedef struct pending_free_t {
    urc_pool_t *sub;
    urc_usm_pool_t *pool;
    const urc_usm_pool_adapter_t *pools;
    void *ptr;
} pending_free_t;

static void finish_free(pending_free_t *f) {
    (void)urc_pool_free(f->sub, f->ptr);
    urc_usm_pool_drop(f->pools, f->pool);
    free(f);
}

static void UR_APICALL free_when_done(ur_event_handle_t event, ur_execution_info_t status,
                                      void *data) {
    (void)event;
    (void)status;
    finish_free(data);
}

ur_result_t urc_usm_enqueue_free(const urc_usm_async_adapter_t *a, ur_queue_handle_t queue,
                                 ur_usm_pool_handle_t pool, void *ptr, uint32_t n,
                                 const ur_event_handle_t *wait, ur_event_handle_t *event) {
    ur_context_handle_t context = NULL;
    ur_device_handle_t device = NULL;
    ur_result_t res = a->queue_of(queue, &context, &device);
    if (res != UR_RESULT_SUCCESS)
        return res;
    urc_pool_t *sub = NULL;
    void *base = NULL;
    urc_usm_pool_t *owner = urc_usm_pool_of(ptr, &sub, &base, NULL);
    if (owner == NULL || owner->context != context || base != ptr)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "%p is not the start of a pooled allocation of the queue's context",
                             ptr);
    if (pool != NULL && (urc_usm_pool_t *)pool != owner)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "%p was not allocated from the USM pool given", ptr);
    pending_free_t *f = URC_NEW(pending_free_t);
    if (f == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    *f = (pending_free_t){sub, owner, a->pools, ptr};
    // The pool stays alive until the memory is back in it.
    urc_hold(&owner->obj);
    ur_event_handle_t done = NULL;
    res = a->barrier(queue, UR_COMMAND_ENQUEUE_USM_FREE_EXP, n, wait, &done);
    if (res != UR_RESULT_SUCCESS) {
        urc_usm_pool_drop(a->pools, owner);
        free(f);
        return res;
    }
    if (a->set_callback(done, UR_EXECUTION_INFO_COMPLETE, free_when_done, f) != UR_RESULT_SUCCESS) {
        // Cannot be told when it completes: wait here instead.
        (void)a->wait(1, &done);
        finish_free(f);
    }
    if (event != NULL)
        *event = done;
    else
        (void)a->release(done);
    return UR_RESULT_SUCCESS;
}
