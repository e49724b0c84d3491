// SPDX-License-Identifier: MIT
// urEventSetCallback. CUDA has no event callbacks: cuLaunchHostFunc runs its function in the
// stream's order (so a callback registered late would wait for everything enqueued since) and
// forbids CUDA calls inside it, which rules out a user callback that releases the event. So one
// adapter thread, started on first use, polls the pending events with cuEventQuery and calls
// each callback from there once its event has reached the registered status.
//
// Statuses: SUBMITTED has been reached when the event exists (a command is submitted to its
// stream when the enqueue returns), so its callbacks run on the thread's next pass. CUDA cannot
// tell when a command starts, so RUNNING callbacks run at completion, which UR allows ("a status
// equal to or past"). COMPLETE runs at completion. A failed query (a dead context) counts as
// completion: the command will not run any further. Each callback gets the status it was
// registered for, and holds a reference to the event until it has run.
#include <time.h>

#include "cuda_internal.h"

// Polling interval while callbacks are pending: short at first, doubling up to the cap.
#define POLL_MIN_NS 20000L
#define POLL_MAX_NS 1000000L

typedef struct callback_t {
    cuda_event_t *event; // a reference of its own
    ur_execution_info_t status;
    ur_event_callback_t fn;
    void *data;
    struct callback_t *next;
} callback_t;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake; // a registration, or stop
    pthread_cond_t idle; // pending reached 0
    callback_t *head;    // registered, not yet taken by the thread (oldest first)
    callback_t **tail;
    size_t pending; // registered and not yet called
    bool started, stop;
    pthread_t thread;
} cb = {.lock = PTHREAD_MUTEX_INITIALIZER,
        .wake = PTHREAD_COND_INITIALIZER,
        .idle = PTHREAD_COND_INITIALIZER,
        .tail = &cb.head};

static bool reached(cuda_event_t *e, ur_execution_info_t status) {
    if (status == UR_EXECUTION_INFO_SUBMITTED)
        return true;
    // The query needs no particular context, but a context-less thread may not call the driver
    // on some versions: make the event's device current first.
    if (cuda_activate(e->dev) != UR_RESULT_SUCCESS)
        return true;
    return cu.EventQuery(e->end) != CUDA_ERROR_NOT_READY;
}

static void poll_wait(long ns) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += ns;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec += 1;
        ts.tv_nsec -= 1000000000L;
    }
    (void)pthread_cond_timedwait(&cb.wake, &cb.lock, &ts); // a registration ends it early
}

// Takes every pending callback out, calls those whose event is there without the lock held
// (a callback may register another, or release its event), and puts the rest back in front of
// anything registered meanwhile, so the order stays the registration order.
static void *worker(void *arg) {
    (void)arg;
    long interval = POLL_MIN_NS;
    pthread_mutex_lock(&cb.lock);
    while (!cb.stop) {
        if (cb.head == NULL) {
            pthread_cond_wait(&cb.wake, &cb.lock);
            interval = POLL_MIN_NS;
            continue;
        }
        callback_t *list = cb.head;
        cb.head = NULL;
        cb.tail = &cb.head;
        pthread_mutex_unlock(&cb.lock);

        callback_t *waiting = NULL, **waiting_tail = &waiting;
        size_t called = 0;
        for (callback_t *c = list, *next; c != NULL; c = next) {
            next = c->next;
            if (!reached(c->event, c->status)) {
                c->next = NULL;
                *waiting_tail = c;
                waiting_tail = &c->next;
                continue;
            }
            c->fn((ur_event_handle_t)c->event, c->status, c->data);
            cuda_event_free(c->event);
            free(c);
            ++called;
        }

        pthread_mutex_lock(&cb.lock);
        if (waiting != NULL) {
            *waiting_tail = cb.head;
            if (cb.head == NULL)
                cb.tail = waiting_tail;
            cb.head = waiting;
        }
        cb.pending -= called;
        if (cb.pending == 0)
            pthread_cond_broadcast(&cb.idle);
        if (called == 0 && waiting != NULL) {
            poll_wait(interval);
            interval = interval * 2 < POLL_MAX_NS ? interval * 2 : POLL_MAX_NS;
        } else {
            interval = POLL_MIN_NS;
        }
    }
    pthread_mutex_unlock(&cb.lock);
    return NULL;
}

ur_result_t cuda_event_set_callback(ur_event_handle_t hEvent, ur_execution_info_t execStatus,
                                    ur_event_callback_t pfnNotify, void *pUserData) {
    if (!cuda_is(hEvent, URC_KIND_EVENT))
        return UR_RESULT_ERROR_INVALID_EVENT;
    if (execStatus != UR_EXECUTION_INFO_COMPLETE && execStatus != UR_EXECUTION_INFO_RUNNING &&
        execStatus != UR_EXECUTION_INFO_SUBMITTED)
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    callback_t *c = URC_NEW(callback_t);
    if (c == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    cuda_event_t *e = CUDA_EVENT(hEvent);
    *c = (callback_t){e, execStatus, pfnNotify, pUserData, NULL};
    pthread_mutex_lock(&cb.lock);
    if (!cb.started) {
        cb.stop = false;
        int err = pthread_create(&cb.thread, NULL, worker, NULL);
        if (err != 0) {
            pthread_mutex_unlock(&cb.lock);
            free(c);
            return urc_error_set(UR_RESULT_ERROR_OUT_OF_RESOURCES, err,
                                 "urEventSetCallback: cannot start the callback thread");
        }
        cb.started = true;
    }
    urc_retain(&e->obj);
    *cb.tail = c;
    cb.tail = &c->next;
    ++cb.pending;
    pthread_cond_signal(&cb.wake);
    pthread_mutex_unlock(&cb.lock);
    return UR_RESULT_SUCCESS;
}

void cuda_callbacks_stop(bool drain) {
    pthread_mutex_lock(&cb.lock);
    if (!cb.started) {
        pthread_mutex_unlock(&cb.lock);
        return;
    }
    // From a callback itself (say, one that releases the adapter) the thread cannot wait for
    // itself: it is told to stop after the callback and left to end on its own.
    bool self = pthread_equal(pthread_self(), cb.thread);
    while (drain && !self && cb.pending > 0)
        pthread_cond_wait(&cb.idle, &cb.lock);
    cb.stop = true;
    cb.started = false;
    pthread_cond_signal(&cb.wake);
    pthread_t thread = cb.thread;
    pthread_mutex_unlock(&cb.lock);
    if (self)
        pthread_detach(thread);
    else
        pthread_join(thread, NULL);
}

// The loader may unload the adapter without its last urAdapterRelease (urLoaderTearDown): the
// thread must not outlive the code it runs. Callbacks still pending then are dropped.
__attribute__((destructor)) static void callbacks_fini(void) {
    cuda_callbacks_stop(false);
}
