// SPDX-License-Identifier: MIT
// urEventSetCallback for backends without event callbacks (CUDA, Level Zero). An engine owns one
// thread, started by the first registration, that polls the events with pending callbacks (every
// 20 µs at first, backing off to 1 ms while nothing completes) and calls each callback on that
// thread once its event has reached the registered status:
//   - SUBMITTED has been reached when the event exists (an adapter whose commands may wait in a
//     batch sends the batch when a callback is registered: `arm`), so it runs on the next pass;
//   - RUNNING and COMPLETE run when the event completes (no backend here tells when a command
//     starts, and UR allows a callback at "a status equal to or past" the registered one);
//   - a failed poll (a dead context, a lost device) counts as completion.
// Each callback gets the status it was registered for and holds a reference to its event until
// it has run, so the caller may release the event at once. No lock is held while a callback
// runs: it may call UR, register more callbacks or release its event.
#ifndef URC_COMMON_QUEUE_EVENT_CALLBACKS_H
#define URC_COMMON_QUEUE_EVENT_CALLBACKS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "ur_api.h"

/// What a poll found.
typedef enum urc_event_poll_t {
    URC_EVENT_PENDING,  ///< the command has not completed
    URC_EVENT_COMPLETE, ///< it has
    URC_EVENT_FAILED,   ///< the backend could not tell; the command will not progress further
} urc_event_poll_t;

/// The backend's side of an engine. Every function is called without any engine lock held.
typedef struct urc_callback_ops_t {
    /// Whether the event's command has completed; called on the engine's thread.
    urc_event_poll_t (*poll)(ur_event_handle_t event);
    /// Takes and drops the reference a pending callback holds on its event.
    void (*retain)(ur_event_handle_t event);
    void (*release)(ur_event_handle_t event);
    /// Optional: called by urc_callback_engine_add, on the caller's thread, before anything is
    /// registered, to make sure the event will complete without further help (Level Zero sends
    /// the batch that holds the command). A failure is returned and nothing is registered.
    ur_result_t (*arm)(ur_event_handle_t event);
} urc_callback_ops_t;

typedef struct urc_callback_t urc_callback_t;

/// One engine per adapter. The fields are the engine's own; use the functions below.
typedef struct urc_callback_engine_t {
    const urc_callback_ops_t *ops;
    pthread_mutex_t lock;
    pthread_cond_t wake;         // a registration, or stop
    pthread_cond_t idle;         // pending reached 0
    urc_callback_t *head, *tail; // registered, not taken by the thread, oldest first
    size_t pending;              // registered and not yet called
    bool started, stop;
    pthread_t thread;
} urc_callback_engine_t;

/// Static initialiser: `static urc_callback_engine_t engine = URC_CALLBACK_ENGINE_INIT(&ops);`.
#define URC_CALLBACK_ENGINE_INIT(ops_)                                                             \
    {                                                                                              \
        .ops = (ops_), .lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER,        \
        .idle = PTHREAD_COND_INITIALIZER                                                           \
    }

/// Dynamic initialisation, same result as URC_CALLBACK_ENGINE_INIT.
void urc_callback_engine_init(urc_callback_engine_t *engine, const urc_callback_ops_t *ops);

/// Registers `fn(event, status, data)` to run once `event` has reached `status`; starts the
/// thread when it is not running. Thread-safe, also from inside a callback.
/// @returns
///   - UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION: `status` is UR_EXECUTION_INFO_QUEUED (UR's
///     adapters refuse it) or not an execution status
///   - UR_RESULT_ERROR_OUT_OF_HOST_MEMORY
///   - UR_RESULT_ERROR_OUT_OF_RESOURCES: the thread could not be started (with a message)
///   - whatever `ops->arm` returned
ur_result_t urc_callback_engine_add(urc_callback_engine_t *engine, ur_event_handle_t event,
                                    ur_execution_info_t status, ur_event_callback_t fn, void *data);

/// How long a draining stop waits for pending callbacks before it gives up on them.
#define URC_CALLBACK_DRAIN_LIMIT_S 10

/// Stops the thread, if it runs. With `drain`, first waits until every pending callback has run
/// (their events must complete on their own), at most URC_CALLBACK_DRAIN_LIMIT_S seconds. Without
/// it, pending callbacks stay registered and run if a later registration starts the thread again.
/// Called from a callback, it cannot wait for its own thread: the thread is told to stop after the
/// callback and ends on its own.
void urc_callback_engine_stop(urc_callback_engine_t *engine, bool drain);

/// Stops without draining, then drops every pending callback without calling it (releasing its
/// event reference) and destroys the engine's locks. Not from a callback.
void urc_callback_engine_fini(urc_callback_engine_t *engine);

/// Callbacks registered and not yet called.
size_t urc_callback_engine_pending(urc_callback_engine_t *engine);

#endif // URC_COMMON_QUEUE_EVENT_CALLBACKS_H
