// SPDX-License-Identifier: MIT
// urXRelease as every adapter answers it, over the lifetime model of core/object.h.
#ifndef URC_COMMON_CORE_RELEASE_H
#define URC_COMMON_CORE_RELEASE_H

#include <stdbool.h>

#include "core/error.h"
#include "core/object.h"

/// The answer to urXRelease once the user's reference is dropped (`released`, from
/// urc_user_release or urc_reusable_user_release). A release past zero is refused: `*result`
/// becomes `refused` (the handle's INVALID_<KIND>) with a message naming `entry_point`.
/// Otherwise `*result` is UR_RESULT_SUCCESS, and the answer is true when that was the last
/// reference of any kind: the caller then destroys the object.
static inline bool urc_release_destroys(urc_release_t released, ur_result_t refused,
                                        const char *entry_point, ur_result_t *result) {
    *result = UR_RESULT_SUCCESS;
    switch (released) {
    case URC_RELEASE_REFUSED:
        *result = urc_error_released(refused, entry_point);
        return false;
    case URC_RELEASE_DESTROY:
        return true;
    default:
        return false;
    }
}

/// urXRetain of one kind of adapter object, defined as `retain_fn`: it takes a `handle_t`
/// whose object is `object(h)`.
#define URC_RETAIN_AS(retain_fn, handle_t, object)                                                 \
    ur_result_t retain_fn(handle_t h) {                                                            \
        urc_user_retain(&object(h)->obj);                                                          \
        return UR_RESULT_SUCCESS;                                                                  \
    }

/// URC_RETAIN_AS named `prefix`_retain.
#define URC_RETAIN(prefix, handle_t, object) URC_RETAIN_AS(prefix##_retain, handle_t, object)

/// urXRetain and urXRelease of one kind of adapter object, defined as `retain_fn` and
/// `release_fn`: they take a `handle_t`, `object(h)` is the object (whose header is its `obj`),
/// `drop(object(h))` drops the user's reference (urc_user_release or a kind's own rule), and the
/// last reference of any kind calls `destroy(object(h))`; a release past zero is `refused` with
/// a message naming `entry_point`.
#define URC_RETAIN_RELEASE_AS(retain_fn, release_fn, handle_t, object, drop, refused, entry_point, \
                              destroy)                                                             \
    URC_RETAIN_AS(retain_fn, handle_t, object)                                                     \
    ur_result_t release_fn(handle_t h) {                                                           \
        ur_result_t result;                                                                        \
        if (urc_release_destroys(drop(object(h)), refused, entry_point, &result))                  \
            destroy(object(h));                                                                    \
        return result;                                                                             \
    }

/// URC_RETAIN_RELEASE_AS named `prefix`_retain and `prefix`_release.
#define URC_RETAIN_RELEASE_BY(prefix, handle_t, object, drop, refused, entry_point, destroy)       \
    URC_RETAIN_RELEASE_AS(prefix##_retain, prefix##_release, handle_t, object, drop, refused,      \
                          entry_point, destroy)

/// The user's release of an object with no rule of its own.
#define URC_USER_RELEASE(o) urc_user_release(&(o)->obj)

/// URC_RETAIN_RELEASE_BY with urc_user_release.
#define URC_RETAIN_RELEASE(prefix, handle_t, object, refused, entry_point, destroy)                \
    URC_RETAIN_RELEASE_BY(prefix, handle_t, object, URC_USER_RELEASE, refused, entry_point, destroy)

/// urCommandBufferRetainExp and urCommandBufferReleaseExp, `prefix`_command_buffer_retain_exp
/// and `prefix`_command_buffer_release_exp, as URC_RETAIN_RELEASE.
#define URC_COMMAND_BUFFER_RETAIN_RELEASE(prefix, object, destroy)                                 \
    URC_RETAIN_RELEASE_AS(prefix##_command_buffer_retain_exp, prefix##_command_buffer_release_exp, \
                          ur_exp_command_buffer_handle_t, object, URC_USER_RELEASE,                \
                          UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP, "urCommandBufferReleaseExp", \
                          destroy)

/// As URC_RETAIN_RELEASE for objects whose destruction can fail: urXRelease answers what
/// `destroy(object(h))` returns.
#define URC_RETAIN_RELEASE_RESULT(prefix, handle_t, object, refused, entry_point, destroy)         \
    URC_RETAIN(prefix, handle_t, object)                                                           \
    ur_result_t prefix##_release(handle_t h) {                                                     \
        ur_result_t result;                                                                        \
        if (urc_release_destroys(urc_user_release(&object(h)->obj), refused, entry_point,          \
                                 &result))                                                         \
            result = destroy(object(h));                                                           \
        return result;                                                                             \
    }

#endif // URC_COMMON_CORE_RELEASE_H
