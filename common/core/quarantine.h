// SPDX-License-Identifier: MIT
// Released handles answer instead of crashing: an object whose last reference is gone is not
// freed at once but parked in a bounded quarantine, its first word pointing at a table whose
// every slot answers the routing handle's error (docs/released-handles.md).
#ifndef URC_COMMON_CORE_QUARANTINE_H
#define URC_COMMON_CORE_QUARANTINE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/object.h"
#include "env/log.h"
#include "ur_ddi.h"

/// Per class (one per handle kind, one for everything else): at most this many objects...
#define URC_QUARANTINE_MAX_OBJECTS 4096u
/// ...and about this many bytes (the class's first object's size decides how many fit).
#define URC_QUARANTINE_MAX_BYTES ((size_t)4 << 20)

/// The class of memory that is not an adapter object (the loader's configs).
#define URC_QUARANTINE_OTHER 16u

/// The table every released handle's first word points at (generated: ur_released.c).
extern const ur_dditable_t urc_released_ddi;

/// Parks `size` bytes at `mem` in class `cls`, freeing the class's oldest parked block when
/// the class is full. The first `keep` bytes stay readable under ASan; the rest is poisoned
/// until the block is freed. Lock-free: one atomic add and one exchange.
void urc_quarantine_park(unsigned cls, void *mem, size_t size, size_t keep);

/// Frees every parked block (the last urAdapterRelease; library unload does it too).
void urc_quarantine_drain(void);

/// How many blocks of `size` bytes class `cls` keeps (its window); fixed by its first block.
size_t urc_quarantine_window(unsigned cls, size_t size);

/// True while `mem` is parked (a scan, for tests).
bool urc_quarantine_holds(const void *mem);

/// The logger released calls write to (each library sets its own; none: stderr is silent).
void urc_quarantine_set_logger(urc_logger_t *logger);

/// What every slot of urc_released_ddi does: logs `entry_point`, records it for
/// urAdapterGetLastError and returns `result`.
ur_result_t urc_released_call(const char *entry_point, ur_result_t result);

/// The end of an adapter object's life, in place of free(): the handle's first word now leads
/// to urc_released_ddi, so a later call through the handle (a double release, a use after
/// release) is answered, and the adapter's own handle checks (urc_is_own) refuse it.
static inline void urc_object_free(urc_object_t *obj, size_t size) {
    if (obj == NULL)
        return;
    obj->ddi = &urc_released_ddi;
    unsigned cls = (unsigned)(obj->kind - URC_KIND_ADAPTER);
    urc_quarantine_park(cls < URC_QUARANTINE_OTHER ? cls : URC_QUARANTINE_OTHER, obj, size,
                        sizeof *obj);
}

/// urc_object_free for a pointer to a struct whose first member is its urc_object_t `obj`.
#define URC_OBJECT_FREE(p) urc_object_free(&(p)->obj, sizeof *(p))

#endif // URC_COMMON_CORE_QUARANTINE_H
