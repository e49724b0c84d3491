// SPDX-License-Identifier: MIT
// Replies to get-info queries: one size rule for every query of the adapter.
#include <string.h>

#include "ocl_internal.h"

ur_result_t ocl_put(ocl_out_t out, const void *src, size_t size) {
    if (out.value != NULL) {
        // A larger buffer than needed is accepted, as the UR specification allows.
        if (out.size < size)
            return urc_error_set(UR_RESULT_ERROR_INVALID_SIZE, 0,
                                 "value buffer of %zu bytes, %zu needed", out.size, size);
        if (size != 0)
            memcpy(out.value, src, size);
    }
    if (out.size_ret != NULL)
        *out.size_ret = size;
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_put_u32(ocl_out_t out, uint32_t v) {
    return ocl_put(out, &v, sizeof v);
}

ur_result_t ocl_put_u64(ocl_out_t out, uint64_t v) {
    return ocl_put(out, &v, sizeof v);
}

ur_result_t ocl_put_size(ocl_out_t out, size_t v) {
    return ocl_put(out, &v, sizeof v);
}

ur_result_t ocl_put_bool(ocl_out_t out, bool v) {
    ur_bool_t b = v;
    return ocl_put(out, &b, sizeof b);
}

ur_result_t ocl_put_ptr(ocl_out_t out, const void *v) {
    return ocl_put(out, &v, sizeof v);
}

ur_result_t ocl_put_str(ocl_out_t out, const char *s) {
    return ocl_put(out, s, strlen(s) + 1);
}

bool ocl_word_listed(const char *list, const char *name) {
    size_t n = strlen(name);
    if (list == NULL || n == 0)
        return false;
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n) {
        bool starts = p == list || p[-1] == ' ';
        bool ends = p[n] == '\0' || p[n] == ' ';
        if (starts && ends)
            return true;
    }
    return false;
}
