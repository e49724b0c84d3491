// SPDX-License-Identifier: MIT
#include "queue/queue_registry.h"

#include <stdlib.h>

void urc_queue_registry_init(urc_queue_registry_t *reg) {
    pthread_mutex_init(&reg->lock, NULL);
    reg->queues = NULL;
    reg->count = reg->cap = 0;
}

void urc_queue_registry_fini(urc_queue_registry_t *reg) {
    free(reg->queues);
    reg->queues = NULL;
    reg->count = reg->cap = 0;
    pthread_mutex_destroy(&reg->lock);
}

ur_result_t urc_queue_registry_add(urc_queue_registry_t *reg, urc_object_t *queue) {
    pthread_mutex_lock(&reg->lock);
    if (reg->count == reg->cap) {
        uint32_t cap = reg->cap != 0 ? reg->cap * 2 : 8;
        urc_object_t **grown = realloc(reg->queues, cap * sizeof *grown);
        if (grown == NULL) {
            pthread_mutex_unlock(&reg->lock);
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        }
        reg->queues = grown;
        reg->cap = cap;
    }
    reg->queues[reg->count++] = queue;
    pthread_mutex_unlock(&reg->lock);
    return UR_RESULT_SUCCESS;
}

void urc_queue_registry_remove(urc_queue_registry_t *reg, urc_object_t *queue) {
    pthread_mutex_lock(&reg->lock);
    for (uint32_t i = 0; i < reg->count; ++i) {
        if (reg->queues[i] == queue) {
            // Order kept, so waits go oldest first.
            for (uint32_t j = i + 1; j < reg->count; ++j)
                reg->queues[j - 1] = reg->queues[j];
            --reg->count;
            break;
        }
    }
    pthread_mutex_unlock(&reg->lock);
}

// An adapter reference, unless the last one is gone and the queue is on its way out (its
// destructor waits for the registry's lock to remove it).
static bool hold_unless_zero(urc_object_t *obj) {
    unsigned n = atomic_load_explicit(&obj->holds, memory_order_relaxed);
    do {
        if (n == 0)
            return false;
    } while (!atomic_compare_exchange_weak_explicit(&obj->holds, &n, n + 1, memory_order_acquire,
                                                    memory_order_relaxed));
    return true;
}

ur_result_t urc_queue_registry_wait(urc_queue_registry_t *reg, const urc_queue_wait_ops_t *ops) {
    pthread_mutex_lock(&reg->lock);
    uint32_t n = reg->count, held = 0;
    urc_object_t **snap = n > 0 ? malloc(n * sizeof *snap) : NULL;
    if (n > 0 && snap == NULL) {
        pthread_mutex_unlock(&reg->lock);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (uint32_t i = 0; i < n; ++i)
        if (hold_unless_zero(reg->queues[i]))
            snap[held++] = reg->queues[i];
    pthread_mutex_unlock(&reg->lock);
    ur_result_t res = UR_RESULT_SUCCESS;
    for (uint32_t i = 0; i < held; ++i) {
        ur_result_t r = ops->finish(snap[i]);
        if (res == UR_RESULT_SUCCESS)
            res = r;
        ops->release(snap[i]);
    }
    free(snap);
    return res;
}

uint32_t urc_queue_registry_count(urc_queue_registry_t *reg) {
    pthread_mutex_lock(&reg->lock);
    uint32_t n = reg->count;
    pthread_mutex_unlock(&reg->lock);
    return n;
}
