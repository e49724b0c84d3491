// SPDX-License-Identifier: MIT
#include "core/pnext.h"

#include <stddef.h>

#include "core/error.h"

static const void *next_of(const void *s) {
    return ((const ur_base_properties_t *)s)->pNext;
}

ur_result_t urc_pnext_check(const void *head) {
    if (head == NULL)
        return UR_RESULT_SUCCESS;
    // Floyd: the hare moves two structs per step and the tortoise one; they meet exactly when
    // the chain loops. The length bound also ends loops too long to be met before it.
    const void *slow = head;
    const void *fast = head;
    size_t length = 1;
    for (;;) {
        for (int i = 0; i < 2; ++i) {
            fast = next_of(fast);
            if (fast == NULL)
                return UR_RESULT_SUCCESS;
            if (++length > URC_PNEXT_MAX_CHAIN)
                return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                     "the pNext chain loops or holds more than %d structs",
                                     URC_PNEXT_MAX_CHAIN);
        }
        slow = next_of(slow);
        if (slow == fast)
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "the pNext chain loops back to an earlier struct");
    }
}
