// SPDX-License-Identifier: MIT
// The extended deleters of a context (urContextSetExtendedDeleter): a list each adapter keeps in
// its context handle and runs, newest first, when the context goes.
#ifndef URC_COMMON_CORE_DELETERS_H
#define URC_COMMON_CORE_DELETERS_H

#include <pthread.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "ur_api.h"

typedef struct urc_deleter_t {
    ur_context_extended_deleter_t fn;
    void *data;
    struct urc_deleter_t *next;
} urc_deleter_t;

/// urContextSetExtendedDeleter: `fn(data)` joins `*list`, which `lock` guards.
static inline ur_result_t urc_deleter_add(urc_deleter_t **list, pthread_mutex_t *lock,
                                          ur_context_extended_deleter_t fn, void *data) {
    urc_deleter_t *d = URC_NEW(urc_deleter_t);
    if (d == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    d->fn = fn;
    d->data = data;
    pthread_mutex_lock(lock);
    d->next = *list;
    *list = d;
    pthread_mutex_unlock(lock);
    return UR_RESULT_SUCCESS;
}

/// Runs every deleter of `*list`, the last added first as destructors would, and frees the
/// list. Only the thread destroying the context calls it, so it takes no lock.
static inline void urc_deleters_run(urc_deleter_t **list) {
    for (urc_deleter_t *d = *list, *next; d != NULL; d = next) {
        next = d->next;
        d->fn(d->data);
        free(d);
    }
    *list = NULL;
}

#endif // URC_COMMON_CORE_DELETERS_H
