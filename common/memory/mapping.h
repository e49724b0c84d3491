// SPDX-License-Identifier: MIT
// The live mappings of one buffer (urEnqueueMemBufferMap, urEnqueueMemUnmap): where each lies
// in the buffer, and whether the caller's pointer is a copy that the map reads in and the unmap
// writes back. A buffer keeps them in a list under its own lock, so that threads mapping and
// unmapping the same buffer do not race; the copies themselves are the adapter's.
#ifndef URC_COMMON_MEMORY_MAPPING_H
#define URC_COMMON_MEMORY_MAPPING_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "ur_api.h"

typedef struct urc_mapping_t {
    void *ptr;           // what the caller got
    size_t offset, size; // the mapped range of the buffer
    ur_map_flags_t flags;
    bool staged; // ptr is a copy of the range, not the buffer's own memory
    bool owned;  // ptr is a staging buffer of ours, freed with the mapping
    struct urc_mapping_t *next;
} urc_mapping_t;

typedef struct urc_mappings_t {
    pthread_mutex_t lock;
    urc_mapping_t *head;
} urc_mappings_t;

void urc_mappings_init(urc_mappings_t *list);

/// Frees the mappings still there (the caller never unmapped them) and the lock.
void urc_mappings_destroy(urc_mappings_t *list);

/// A new mapping of `size` bytes at `offset`: at `ptr` when given (`staged` when that is a copy,
/// as the caller's own memory of a USE_HOST_POINTER buffer is), else in a new staging buffer.
/// NULL when out of memory.
urc_mapping_t *urc_mapping_new(size_t offset, size_t size, ur_map_flags_t flags, void *ptr,
                               bool staged);

/// Frees a mapping and the staging buffer it owns.
void urc_mapping_free(urc_mapping_t *mapping);

void urc_mappings_add(urc_mappings_t *list, urc_mapping_t *mapping);

/// Unlinks and returns the mapping the caller got as `ptr`; NULL when there is none.
urc_mapping_t *urc_mappings_take(urc_mappings_t *list, const void *ptr);

/// The end of urEnqueueMemBufferMap: on success (`res`) the mapping joins the list and `*out`
/// is its pointer; otherwise it is freed. Answers `res`.
ur_result_t urc_mappings_finish_map(urc_mappings_t *list, urc_mapping_t *mapping, ur_result_t res,
                                    void **out);

/// The start of urEnqueueMemUnmap: unlinks the mapping the caller got as `ptr` into `*out`;
/// UR_RESULT_ERROR_INVALID_MEM_OBJECT when there is none.
ur_result_t urc_mappings_take_for_unmap(urc_mappings_t *list, const void *ptr, urc_mapping_t **out);

/// The end of urEnqueueMemUnmap: on success (`res`) the mapping is freed; otherwise it stays,
/// so the caller can try again. Answers `res`.
ur_result_t urc_mappings_finish_unmap(urc_mappings_t *list, urc_mapping_t *mapping,
                                      ur_result_t res);

/// The map copies the buffer's contents in unless the mapping is in place or discards them.
static inline bool urc_mapping_reads_in(const urc_mapping_t *mapping) {
    return mapping->staged && !(mapping->flags & UR_MAP_FLAG_WRITE_INVALIDATE_REGION);
}

/// The unmap copies a staged mapping back when the caller may have written it.
static inline bool urc_mapping_writes_back(const urc_mapping_t *mapping) {
    return mapping->staged &&
           (mapping->flags & (UR_MAP_FLAG_WRITE | UR_MAP_FLAG_WRITE_INVALIDATE_REGION));
}

#endif // URC_COMMON_MEMORY_MAPPING_H
