// SPDX-License-Identifier: MIT
// The live mappings of a buffer (mapping.h).
#include "memory/mapping.h"

#include <stdlib.h>

#include "core/alloc.h"
#include "core/error.h"

void urc_mappings_init(urc_mappings_t *list) {
    pthread_mutex_init(&list->lock, NULL);
    list->head = NULL;
}

void urc_mappings_destroy(urc_mappings_t *list) {
    for (urc_mapping_t *m = list->head, *next; m != NULL; m = next) {
        next = m->next;
        urc_mapping_free(m);
    }
    list->head = NULL;
    pthread_mutex_destroy(&list->lock);
}

urc_mapping_t *urc_mapping_new(size_t offset, size_t size, ur_map_flags_t flags, void *ptr,
                               bool staged) {
    urc_mapping_t *m = URC_NEW(urc_mapping_t);
    if (m == NULL)
        return NULL;
    m->offset = offset;
    m->size = size;
    m->flags = flags;
    m->ptr = ptr;
    m->staged = staged;
    if (ptr == NULL) {
        // One byte at least, so that even an empty mapping has a pointer of its own.
        m->ptr = malloc(size > 0 ? size : 1);
        m->staged = m->owned = true;
        if (m->ptr == NULL) {
            free(m);
            return NULL;
        }
    }
    return m;
}

void urc_mapping_free(urc_mapping_t *mapping) {
    if (mapping->owned)
        free(mapping->ptr);
    free(mapping);
}

void urc_mappings_add(urc_mappings_t *list, urc_mapping_t *mapping) {
    pthread_mutex_lock(&list->lock);
    mapping->next = list->head;
    list->head = mapping;
    pthread_mutex_unlock(&list->lock);
}

urc_mapping_t *urc_mappings_take(urc_mappings_t *list, const void *ptr) {
    pthread_mutex_lock(&list->lock);
    urc_mapping_t **at = &list->head;
    while (*at != NULL && (*at)->ptr != ptr)
        at = &(*at)->next;
    urc_mapping_t *m = *at;
    if (m != NULL)
        *at = m->next;
    pthread_mutex_unlock(&list->lock);
    return m;
}

ur_result_t urc_mappings_finish_map(urc_mappings_t *list, urc_mapping_t *mapping, ur_result_t res,
                                    void **out) {
    if (res != UR_RESULT_SUCCESS) {
        urc_mapping_free(mapping);
        return res;
    }
    urc_mappings_add(list, mapping);
    *out = mapping->ptr;
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_mappings_take_for_unmap(urc_mappings_t *list, const void *ptr,
                                        urc_mapping_t **out) {
    *out = urc_mappings_take(list, ptr);
    if (*out == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "%p is not a mapping of this buffer", ptr);
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_mappings_finish_unmap(urc_mappings_t *list, urc_mapping_t *mapping,
                                      ur_result_t res) {
    if (res != UR_RESULT_SUCCESS)
        urc_mappings_add(list, mapping);
    else
        urc_mapping_free(mapping);
    return res;
}
