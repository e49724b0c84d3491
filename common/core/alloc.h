// SPDX-License-Identifier: MIT
// Checked allocation helpers: every allocation in urc goes through these, so a failure is
// always noticed and reported as UR_RESULT_ERROR_OUT_OF_HOST_MEMORY by the caller.
#ifndef URC_COMMON_CORE_ALLOC_H
#define URC_COMMON_CORE_ALLOC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/// calloc for `count` objects of `size` bytes; NULL on overflow or exhaustion.
static inline void *urc_calloc(size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    return calloc(count ? count : 1, size ? size : 1);
}

/// A copy of `n` bytes of `src`; NULL on exhaustion.
static inline void *urc_memdup(const void *src, size_t n) {
    void *p = malloc(n ? n : 1);
    if (p != NULL && n != 0)
        memcpy(p, src, n);
    return p;
}

/// A copy of a C string; NULL when `s` is NULL or on exhaustion.
static inline char *urc_strdup(const char *s) {
    return s != NULL ? (char *)urc_memdup(s, strlen(s) + 1) : NULL;
}

/// Allocates one zeroed object of the pointer's type: `T *p = URC_NEW(T);`.
#define URC_NEW(type) ((type *)urc_calloc(1, sizeof(type)))

/// Frees and clears a pointer variable.
#define URC_FREE(p)                                                                                \
    do {                                                                                           \
        free(p);                                                                                   \
        (p) = NULL;                                                                                \
    } while (0)

/// Removes from the array `items` (`*count` entries of `size` bytes, room for `*capacity`) every
/// entry that `drop(entry, arg)` picks, moving the last entry into each hole (order is not
/// kept). An array left empty is freed and `*capacity` becomes 0, so a table keeps nothing
/// while it records nothing. Answers the array, NULL once freed.
static inline void *urc_array_remove_if(void *items, size_t *count, size_t *capacity, size_t size,
                                        bool (*drop)(const void *entry, const void *arg),
                                        const void *arg) {
    unsigned char *a = items;
    for (size_t i = 0; i < *count;) {
        if (drop(a + i * size, arg)) {
            --*count;
            if (i != *count)
                memcpy(a + i * size, a + *count * size, size);
        } else {
            ++i;
        }
    }
    if (*count == 0) {
        free(items);
        *capacity = 0;
        return NULL;
    }
    return items;
}

#endif // URC_COMMON_CORE_ALLOC_H
