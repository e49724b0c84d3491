// SPDX-License-Identifier: MIT
#include "queue/event_callbacks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/alloc.h"
#include "core/error.h"

// Polling interval while callbacks are pending: short at first, doubling up to the cap, back to
// the minimum whenever something completes or is registered.
#define POLL_MIN_NS 20000L
#define POLL_MAX_NS 1000000L

struct urc_callback_t {
    ur_event_handle_t event; // a reference of its own
    ur_execution_info_t status;
    ur_event_callback_t fn;
    void *data;
    urc_callback_t *next;
};

void urc_callback_engine_init(urc_callback_engine_t *engine, const urc_callback_ops_t *ops) {
    *engine = (urc_callback_engine_t){.ops = ops};
    pthread_mutex_init(&engine->lock, NULL);
    pthread_cond_init(&engine->wake, NULL);
    pthread_cond_init(&engine->idle, NULL);
}

static bool reached(const urc_callback_ops_t *ops, const urc_callback_t *c) {
    // SUBMITTED needs no poll: the event exists, and `arm` has sent its command on its way.
    return c->status == UR_EXECUTION_INFO_SUBMITTED || ops->poll(c->event) != URC_EVENT_PENDING;
}

static void poll_wait(urc_callback_engine_t *engine, long ns) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += ns;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec += 1;
        ts.tv_nsec -= 1000000000L;
    }
    (void)pthread_cond_timedwait(&engine->wake, &engine->lock, &ts); // a registration ends it
}

// Appends a chain (first..last) to the engine's list; the caller holds the lock.
static void append_locked(urc_callback_engine_t *engine, urc_callback_t *first,
                          urc_callback_t *last) {
    if (engine->head == NULL)
        engine->head = first;
    else
        engine->tail->next = first;
    engine->tail = last;
}

// Each pass takes every pending callback out, calls those whose event is there without the lock
// held, and puts the rest back in front of anything registered meanwhile, so that callbacks run
// in registration order among those ready together. A thread that is no longer the engine's
// (stopped from its own callback, then replaced by a later start) ends after its pass.
static void *worker(void *arg) {
    urc_callback_engine_t *engine = arg;
    const urc_callback_ops_t *ops = engine->ops;
    long interval = POLL_MIN_NS;
    pthread_mutex_lock(&engine->lock);
    while (!engine->stop && pthread_equal(engine->thread, pthread_self())) {
        if (engine->head == NULL) {
            pthread_cond_wait(&engine->wake, &engine->lock);
            interval = POLL_MIN_NS;
            continue;
        }
        urc_callback_t *list = engine->head;
        engine->head = engine->tail = NULL;
        pthread_mutex_unlock(&engine->lock);

        urc_callback_t *waiting = NULL, *waiting_tail = NULL;
        size_t called = 0;
        for (urc_callback_t *c = list, *next; c != NULL; c = next) {
            next = c->next;
            if (!reached(ops, c)) {
                c->next = NULL;
                if (waiting == NULL)
                    waiting = c;
                else
                    waiting_tail->next = c;
                waiting_tail = c;
                continue;
            }
            c->fn(c->event, c->status, c->data);
            ops->release(c->event);
            free(c);
            ++called;
        }

        pthread_mutex_lock(&engine->lock);
        if (waiting != NULL) {
            waiting_tail->next = engine->head;
            if (engine->head == NULL)
                engine->tail = waiting_tail;
            engine->head = waiting;
        }
        // Counted down only now, after the references are dropped: a drained engine holds none.
        engine->pending -= called;
        if (engine->pending == 0)
            pthread_cond_broadcast(&engine->idle);
        if (called == 0 && waiting != NULL) {
            poll_wait(engine, interval);
            interval = interval * 2 < POLL_MAX_NS ? interval * 2 : POLL_MAX_NS;
        } else {
            interval = POLL_MIN_NS;
        }
    }
    pthread_mutex_unlock(&engine->lock);
    return NULL;
}

ur_result_t urc_callback_engine_add(urc_callback_engine_t *engine, ur_event_handle_t event,
                                    ur_execution_info_t status, ur_event_callback_t fn,
                                    void *data) {
    if (status != UR_EXECUTION_INFO_COMPLETE && status != UR_EXECUTION_INFO_RUNNING &&
        status != UR_EXECUTION_INFO_SUBMITTED)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION, 0,
                             "urEventSetCallback: callbacks run at SUBMITTED, RUNNING or COMPLETE "
                             "(status %d)",
                             (int)status);
    const urc_callback_ops_t *ops = engine->ops;
    if (ops->arm != NULL) {
        ur_result_t res = ops->arm(event);
        if (res != UR_RESULT_SUCCESS)
            return res;
    }
    urc_callback_t *c = URC_NEW(urc_callback_t);
    if (c == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    *c = (urc_callback_t){event, status, fn, data, NULL};
    ops->retain(event);

    pthread_mutex_lock(&engine->lock);
    if (!engine->started) {
        engine->stop = false;
        int err = pthread_create(&engine->thread, NULL, worker, engine);
        if (err != 0) {
            pthread_mutex_unlock(&engine->lock);
            ops->release(event);
            free(c);
            return urc_error_set(UR_RESULT_ERROR_OUT_OF_RESOURCES, err,
                                 "urEventSetCallback: cannot start the callback thread");
        }
        engine->started = true;
    }
    append_locked(engine, c, c);
    ++engine->pending;
    // Broadcast: a thread replaced by a restart may still wait here too, and would swallow a
    // signal meant for the engine's thread.
    pthread_cond_broadcast(&engine->wake);
    pthread_mutex_unlock(&engine->lock);
    return UR_RESULT_SUCCESS;
}

void urc_callback_engine_stop(urc_callback_engine_t *engine, bool drain) {
    pthread_mutex_lock(&engine->lock);
    bool self = engine->started && pthread_equal(pthread_self(), engine->thread);
    // Draining is bounded: an event nobody will complete must not hang the last
    // urAdapterRelease (and with it process exit). What is still pending then stays registered.
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += URC_CALLBACK_DRAIN_LIMIT_S;
    while (drain && !self && engine->started && engine->pending > 0) {
        if (pthread_cond_timedwait(&engine->idle, &engine->lock, &deadline) == ETIMEDOUT) {
            fprintf(stderr, "urc: %zu event callback(s) still pending after %d s; not run\n",
                    engine->pending, URC_CALLBACK_DRAIN_LIMIT_S);
            break;
        }
    }
    // Checked after the wait: another stop may have ended the thread meanwhile.
    if (!engine->started) {
        pthread_mutex_unlock(&engine->lock);
        return;
    }
    engine->stop = true;
    engine->started = false;
    pthread_cond_broadcast(&engine->wake);
    pthread_t thread = engine->thread;
    pthread_mutex_unlock(&engine->lock);
    if (self)
        pthread_detach(thread);
    else
        pthread_join(thread, NULL);
}

void urc_callback_engine_fini(urc_callback_engine_t *engine) {
    urc_callback_engine_stop(engine, false);
    pthread_mutex_lock(&engine->lock);
    urc_callback_t *list = engine->head;
    engine->head = engine->tail = NULL;
    engine->pending = 0;
    pthread_mutex_unlock(&engine->lock);
    for (urc_callback_t *c = list, *next; c != NULL; c = next) {
        next = c->next;
        engine->ops->release(c->event);
        free(c);
    }
    pthread_cond_destroy(&engine->idle);
    pthread_cond_destroy(&engine->wake);
    pthread_mutex_destroy(&engine->lock);
}

size_t urc_callback_engine_pending(urc_callback_engine_t *engine) {
    pthread_mutex_lock(&engine->lock);
    size_t n = engine->pending;
    pthread_mutex_unlock(&engine->lock);
    return n;
}
