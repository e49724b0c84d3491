// SPDX-License-Identifier: MIT
// Answers to UR's get-info queries: one size rule for every *GetInfo entry point of every
// adapter and of the loader. A *GetInfo function gathers (propSize, pPropValue, pPropSizeRet)
// once into a urc_info_t and answers each query with one call.
#ifndef URC_COMMON_CORE_INFO_H
#define URC_COMMON_CORE_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ur_api.h"

/// Where a get-info call puts its answer: the caller's buffer and its size, and where the
/// needed size goes. Either pointer may be NULL.
typedef struct urc_info_t {
    size_t size;
    void *value;
    size_t *size_ret;
} urc_info_t;

/// Answers `size` bytes of `data`: writes the size to size_ret when given, then copies into
/// value when given. A value buffer smaller than `size` is UR_RESULT_ERROR_INVALID_SIZE (with
/// a message for urAdapterGetLastError); a larger one is fine, as the UR specification allows.
ur_result_t urc_info_bytes(const urc_info_t *out, const void *data, size_t size);

/// For an answer the caller writes itself (UR_PROGRAM_INFO_BINARIES fills the memory its
/// pointers name): reports `size` and checks the value buffer as urc_info_bytes does, copying
/// nothing. On success the caller writes the answer when out->value is not NULL.
ur_result_t urc_info_reserve(const urc_info_t *out, size_t size);

/// As urc_info_bytes, but the value buffer must be exactly `size` bytes (UR's loader config
/// queries want the exact size).
ur_result_t urc_info_exact(const urc_info_t *out, const void *data, size_t size);

static inline ur_result_t urc_info_u32(const urc_info_t *out, uint32_t v) {
    return urc_info_bytes(out, &v, sizeof v);
}

static inline ur_result_t urc_info_i32(const urc_info_t *out, int32_t v) {
    return urc_info_bytes(out, &v, sizeof v);
}

static inline ur_result_t urc_info_u64(const urc_info_t *out, uint64_t v) {
    return urc_info_bytes(out, &v, sizeof v);
}

static inline ur_result_t urc_info_size(const urc_info_t *out, size_t v) {
    return urc_info_bytes(out, &v, sizeof v);
}

/// UR's booleans are one byte (ur_bool_t), whatever C's bool is.
static inline ur_result_t urc_info_bool(const urc_info_t *out, bool v) {
    ur_bool_t b = v;
    return urc_info_bytes(out, &b, sizeof b);
}

/// A handle or pointer value (not what it points to).
static inline ur_result_t urc_info_ptr(const urc_info_t *out, const void *v) {
    return urc_info_bytes(out, &v, sizeof v);
}

/// A C string with its terminating NUL.
static inline ur_result_t urc_info_string(const urc_info_t *out, const char *s) {
    return urc_info_bytes(out, s, strlen(s) + 1);
}

/// urAdapterGetInfo: the backend, the adapter's reference count, and version 1 (the UR v1
/// semantics every urc adapter has).
ur_result_t urc_info_adapter(const urc_info_t *out, ur_adapter_info_t propName,
                             ur_backend_t backend, uint32_t refcount);

/// urPlatformGetApiVersion of adapter `prefix`: the version of UR that urc implements.
#define URC_PLATFORM_GET_API_VERSION(prefix)                                                       \
    ur_result_t prefix##_platform_get_api_version(ur_platform_handle_t hPlatform,                  \
                                                  ur_api_version_t *pVersion) {                    \
        (void)hPlatform;                                                                           \
        *pVersion = UR_API_VERSION_CURRENT;                                                        \
        return UR_RESULT_SUCCESS;                                                                  \
    }

/// One translation of a front-end (SYCL) option into the backend's; "" drops it.
typedef struct urc_backend_option_t {
    const char *frontend;
    const char *backend;
} urc_backend_option_t;

/// urPlatformGetBackendOption from an adapter's translations (`count` of them): an option
/// missing from `table` is INVALID_VALUE.
ur_result_t urc_backend_option(const urc_backend_option_t *table, size_t count,
                               const char *frontend, const char **backend);

/// urPlatformGetBackendOption of adapter `prefix`, whose translations are the array `table`.
#define URC_PLATFORM_GET_BACKEND_OPTION(prefix, table)                                             \
    ur_result_t prefix##_platform_get_backend_option(ur_platform_handle_t hPlatform,               \
                                                     const char *pFrontendOption,                  \
                                                     const char **ppPlatformOption) {              \
        (void)hPlatform;                                                                           \
        return urc_backend_option(table, sizeof table / sizeof *table, pFrontendOption,            \
                                  ppPlatformOption);                                               \
    }

/// urContextGetInfo, which every adapter answers from the same facts: its devices, its
/// reference count, and whether urEnqueueUSMMemcpy2D/Fill2D work there.
ur_result_t urc_info_context(const urc_info_t *out, ur_context_info_t propName, uint32_t ndevices,
                             const ur_device_handle_t *devices, uint32_t refcount, bool usm_2d);

/// urContextGetInfo of adapter `prefix` whose contexts `object(h)` keep `ndevices`, `devices`
/// and the header `obj`, and where the 2D USM operations always work.
#define URC_CONTEXT_GET_INFO(prefix, object)                                                       \
    ur_result_t prefix##_context_get_info(ur_context_handle_t hContext,                            \
                                          ur_context_info_t propName, size_t propSize,             \
                                          void *pPropValue, size_t *pPropSizeRet) {                \
        const urc_info_t out = {propSize, pPropValue, pPropSizeRet};                               \
        return urc_info_context(&out, propName, object(hContext)->ndevices,                        \
                                (ur_device_handle_t *)object(hContext)->devices,                   \
                                urc_refcount(&object(hContext)->obj), true);                       \
    }

/// urQueueGetInfo's queries that every adapter answers from the same facts: CONTEXT, DEVICE,
/// FLAGS and REFERENCE_COUNT. The adapter answers the others (EMPTY, DEVICE_DEFAULT, SIZE)
/// itself; this returns UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION for them.
ur_result_t urc_info_queue(const urc_info_t *out, ur_queue_info_t propName,
                           ur_context_handle_t context, ur_device_handle_t device,
                           ur_queue_flags_t flags, uint32_t refcount);

/// urMemGetInfo, likewise: the buffer's size, its context and reference count.
ur_result_t urc_info_mem(const urc_info_t *out, ur_mem_info_t propName, size_t size,
                         ur_context_handle_t context, uint32_t refcount);

#endif // URC_COMMON_CORE_INFO_H
