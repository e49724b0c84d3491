// SPDX-License-Identifier: MIT
// "These bytes lie inside one USM allocation": the check of every USM command's range
// (memcpy, fill, prefetch, advise and their 2D forms). The adapter supplies the lookup from
// its driver (clGetMemAllocInfoINTEL, cuMemGetAddressRange, zeMemGetAddressRange); the rule,
// overflow-safe, lives here.
#ifndef URC_COMMON_MEMORY_USM_RANGE_H
#define URC_COMMON_MEMORY_USM_RANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ur_api.h"

/// Finds the allocation that holds `ptr`: its base and size in bytes. False when `ptr` is in
/// no allocation the driver knows (plain host memory, which UR allows in copies and which
/// only the caller can bound).
typedef bool (*urc_usm_lookup_fn)(void *backend, const void *ptr, const void **base, size_t *size);

/// UR_RESULT_ERROR_INVALID_SIZE, with a message, when `size` bytes from `ptr` wrap around the
/// address space or run past the end of the allocation that holds `ptr`; SUCCESS otherwise
/// (including memory the lookup does not know).
ur_result_t urc_usm_range_check(urc_usm_lookup_fn lookup, void *backend, const void *ptr,
                                size_t size);

/// The same for `height` rows of `width` bytes, `pitch` bytes apart: the bytes from `ptr` to
/// the end of the last row, (height - 1) * pitch + width, computed without overflow.
ur_result_t urc_usm_range_check_2d(urc_usm_lookup_fn lookup, void *backend, const void *ptr,
                                   size_t pitch, size_t width, size_t height);

/// A lookup's answers remembered per thread, for adapters whose driver lookup costs a call
/// on every USM command. The adapter bumps `epoch` (urc_usm_lookup_cache_forget) whenever the
/// driver's map of allocations may change: on every allocation, free, map, unmap, registration
/// and IPC open or close it makes. Answers taken before the bump are then not used again, so a
/// cached answer is never older than urc's last change to the map. Memory allocated or freed
/// behind urc's back, through the native API, can be judged by the answer from before that
/// change until urc's next one: the check only ever gets weaker then, never stricter.
typedef struct urc_usm_lookup_cache_t {
    urc_usm_lookup_fn lookup; ///< the driver's lookup, called on a miss
    void *backend;            ///< its first argument
    _Atomic uint64_t epoch;   ///< bumped by every change to the map of allocations
} urc_usm_lookup_cache_t;

/// A urc_usm_lookup_fn over a urc_usm_lookup_cache_t passed as `backend`: answers from this
/// thread's last few lookups through the same cache in the same epoch, else from the driver.
bool urc_usm_lookup_cached(void *cache, const void *ptr, const void **base, size_t *size);

/// Drops every thread's remembered answers for `cache`.
void urc_usm_lookup_cache_forget(urc_usm_lookup_cache_t *cache);

/// No 64-bit Linux maps user memory at or above this address (x86-64 with 5-level paging and
/// RISC-V Sv57 stop at 2^56, arm64 at 2^52), so a range reaching it is not memory of the caller.
#if UINTPTR_MAX > 0xffffffffu
#define URC_USER_ADDRESS_END ((uintptr_t)1 << 57)
#else
#define URC_USER_ADDRESS_END UINTPTR_MAX
#endif

/// The bytes a host-side copy may reach from `ptr` (the host side of a rectangular copy): to
/// the end of its USM allocation when the lookup knows one, else to the end of user memory
/// (URC_USER_ADDRESS_END), so that no origin or pitch can carry the pointer out of it.
size_t urc_usm_host_limit(urc_usm_lookup_fn lookup, void *backend, const void *ptr);

#endif // URC_COMMON_MEMORY_USM_RANGE_H
