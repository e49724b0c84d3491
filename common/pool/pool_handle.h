// SPDX-License-Identifier: MIT
// UR's USM pool handle, once for every adapter: one urc_pool_t per (memory type, device) of
// the context, over the adapter's native allocation call; the pool queries and settings; how
// urUSMFree and urUSMGetMemAllocInfo recognise a pooled pointer; a context's default pools.
#ifndef URC_COMMON_POOL_POOL_HANDLE_H
#define URC_COMMON_POOL_POOL_HANDLE_H

#include "core/info.h"
#include "core/object.h"
#include "pool/pool_allocator.h"

/// What one sub-pool allocates: the adapter's context and device (NULL for host memory) and
/// the memory type. The adapter's urc_pool_ops_t receive a pointer to it as `native`.
typedef struct urc_usm_target_t {
    void *context;
    void *device;
    ur_usm_type_t type;
} urc_usm_target_t;

/// What the adapter's driver can do below a pool.
typedef struct urc_usm_pool_caps_t {
    size_t host_align, device_align; ///< the slab alignment the driver honours per kind
    bool host, shared;               ///< host and shared memory exist
} urc_usm_pool_caps_t;

/// A ur_usm_pool_handle_t of any adapter (the adapter casts its handle to this).
typedef struct urc_usm_pool_t {
    urc_object_t obj;
    ur_context_handle_t context; // retained by the adapter
    uint32_t ndevices;
    void *only_device;  // urUSMPoolCreateExp: the one device this pool serves, else NULL
    bool context_owned; // a context's default pool: holds no reference to its context
    ur_usm_pool_flags_t flags;
    urc_usm_target_t *targets;      // [0] host, then device and shared per device
    urc_pool_t **pools;             // the same order; NULL where the memory type does not exist
    struct urc_pool_range_t *range; // a pool in the caller's memory: its one range, else NULL
    ur_usm_type_t range_type;       // and the memory type of that range
} urc_usm_pool_t;

/// A pool in the caller's memory (ur_usm_pool_buffer_desc_t), checked: its range and the one
/// sub-pool it feeds (memory type and the device's index in the context).
typedef struct urc_usm_pool_buffer_t {
    void *base;
    size_t size;
    ur_usm_type_t type;
    uint32_t device_index;
} urc_usm_pool_buffer_t;

/// Fills `pool` (zeroed by the caller, its urc_object_t already set up): `devices` are the
/// context's adapter devices in context order. With `buffer`, the pool has one sub-pool, which
/// carves its blocks out of the buffer instead of calling `ops` (the descriptor's own buffer
/// entry is then not looked at again). INVALID_VALUE for an unusable descriptor chain, limit or
/// overlapping buffer; OUT_OF_HOST_MEMORY.
ur_result_t urc_usm_pool_init(urc_usm_pool_t *pool, ur_context_handle_t context,
                              void *adapter_context, uint32_t ndevices, void *const *devices,
                              const ur_usm_pool_desc_t *desc, const urc_pool_ops_t *ops,
                              const urc_usm_pool_caps_t *caps, const urc_usm_pool_buffer_t *buffer);

/// Frees every block of the pool (allocations still in use included) and its arrays.
void urc_usm_pool_fini(urc_usm_pool_t *pool);

/// Allocates from the sub-pool of `type` on the context's device `device_index` (ignored for
/// host memory). UNSUPPORTED_FEATURE where the type does not exist; INVALID_DEVICE for a
/// device an urUSMPoolCreateExp pool does not serve; INVALID_VALUE for another type or device
/// than the one of a pool in the caller's memory.
ur_result_t urc_usm_pool_alloc(urc_usm_pool_t *pool, ur_usm_type_t type, uint32_t device_index,
                               size_t size, size_t align, void **out);

/// urUSMPoolGetInfo (and GetInfoExp): REFERENCE_COUNT, CONTEXT, and the sums of the sub-pools'
/// counters; MAXIMUM_SIZE_EXP is 0 when the pool has no limit.
ur_result_t urc_usm_pool_info(urc_usm_pool_t *pool, ur_usm_pool_info_t propName,
                              const urc_info_t *out);

/// urUSMPoolSetInfoExp: RELEASE_THRESHOLD_EXP (each sub-pool's), and 0 into USED_HIGH_EXP or
/// RESERVED_HIGH_EXP (restart the mark). INVALID_SIZE for a value that is not a size_t,
/// INVALID_VALUE for a high mark set to anything but 0, UNSUPPORTED_ENUMERATION otherwise.
ur_result_t urc_usm_pool_set_info(urc_usm_pool_t *pool, ur_usm_pool_info_t propName,
                                  const void *value, size_t size);

/// urUSMPoolTrimToExp: empty slabs go back to the driver until at most `keep` bytes stay
/// reserved over the whole pool.
void urc_usm_pool_trim(urc_usm_pool_t *pool, size_t keep);

/// The pool handle (and sub-pool) that handed out the allocation holding `ptr`, or NULL.
urc_usm_pool_t *urc_usm_pool_of(const void *ptr, urc_pool_t **sub, void **base, size_t *size);

/// urUSMFree's first step: `*pooled` says whether `ptr` came from a pool. If it did, the
/// result is the pooled free's: INVALID_MEM_OBJECT for a pool of another context or a
/// pointer inside an allocation, or when freed already.
ur_result_t urc_usm_free_pooled(ur_context_handle_t context, void *ptr, bool *pooled);

/// urUSMGetMemAllocInfo's pooled answers: BASE_PTR, SIZE and POOL of a pooled pointer.
/// `*answered` is false when the pointer is not pooled or the query is another.
ur_result_t urc_usm_alloc_info_pooled(ur_context_handle_t context, const void *ptr,
                                      ur_usm_alloc_info_t propName, const urc_info_t *out,
                                      bool *answered);

/// What an adapter gives the pool entry points below: its table, its driver and three
/// context operations. The entry points then need no adapter code of their own.
typedef struct urc_usm_pool_adapter_t {
    const ur_dditable_t *ddi;
    urc_pool_ops_t ops;
    urc_usm_pool_caps_t caps;
    /// The context's devices (its adapter handles, in context order) when it is one of this
    /// adapter's contexts and its devices have USM; else the error to return.
    ur_result_t (*context_devices)(ur_context_handle_t context, uint32_t *ndevices,
                                   void *const **devices);
    void (*retain_context)(ur_context_handle_t context);
    void (*release_context)(ur_context_handle_t context);
} urc_usm_pool_adapter_t;

// UR's pool entry points, for any adapter.
ur_result_t urc_usm_pool_create(const urc_usm_pool_adapter_t *a, ur_context_handle_t context,
                                ur_device_handle_t only_device, const ur_usm_pool_desc_t *desc,
                                ur_usm_pool_handle_t *out);
ur_result_t urc_usm_pool_retain(const urc_usm_pool_adapter_t *a, ur_usm_pool_handle_t pool);
ur_result_t urc_usm_pool_release(const urc_usm_pool_adapter_t *a, ur_usm_pool_handle_t pool);
ur_result_t urc_usm_pool_get_info(const urc_usm_pool_adapter_t *a, ur_usm_pool_handle_t pool,
                                  ur_usm_pool_info_t propName, const urc_info_t *out);
ur_result_t urc_usm_pool_set_info_exp(const urc_usm_pool_adapter_t *a, ur_usm_pool_handle_t pool,
                                      ur_usm_pool_info_t propName, const void *value, size_t size);
ur_result_t urc_usm_pool_destroy_exp(const urc_usm_pool_adapter_t *a, ur_context_handle_t context,
                                     ur_device_handle_t device, ur_usm_pool_handle_t pool);
ur_result_t urc_usm_pool_trim_to_exp(const urc_usm_pool_adapter_t *a, ur_context_handle_t context,
                                     ur_device_handle_t device, ur_usm_pool_handle_t pool,
                                     size_t keep);
/// The context's default pool (made on first use, lives as long as the context).
ur_result_t urc_usm_pool_default_exp(const urc_usm_pool_adapter_t *a, ur_context_handle_t context,
                                     ur_device_handle_t device, ur_usm_pool_handle_t *out);
/// The pool set for the device (not retained: it must outlive that use, as with UR), else the
/// default pool.
ur_result_t urc_usm_pool_get_device_pool_exp(const urc_usm_pool_adapter_t *a,
                                             ur_context_handle_t context, ur_device_handle_t device,
                                             ur_usm_pool_handle_t *out);
ur_result_t urc_usm_pool_set_device_pool_exp(const urc_usm_pool_adapter_t *a,
                                             ur_context_handle_t context, ur_device_handle_t device,
                                             ur_usm_pool_handle_t pool);

/// Drops a reference taken with urc_retain on the pool (any pool, a default pool too),
/// destroying it at the last.
void urc_usm_pool_drop(const urc_usm_pool_adapter_t *a, urc_usm_pool_t *pool);

/// urUSM{Host,Device,Shared}Alloc with a pool: `device` is NULL for host memory.
ur_result_t urc_usm_pool_alloc_in(const urc_usm_pool_adapter_t *a, ur_context_handle_t context,
                                  ur_device_handle_t device, ur_usm_type_t type,
                                  ur_usm_pool_handle_t pool, size_t size, size_t align, void **out);

/// urUSMPitchedAllocExp's rule where the driver has no pitched allocation (or a pool is used):
/// rows padded to `align` bytes (a power of two). INVALID_VALUE for an element size other than
/// 1, 2, 4, 8 or 16 or one wider than the row, INVALID_USM_SIZE for 0 rows or an overflow.
ur_result_t urc_usm_pitch(size_t width, size_t height, size_t element, size_t align, size_t *pitch,
                          size_t *bytes);

/// A context being destroyed: its default pool goes, and it is no pool's device any more.
void urc_usm_pool_context_destroyed(ur_context_handle_t context);

/// Defines `const urc_usm_pool_adapter_t <prefix>_pool_adapter` for an adapter whose contexts
/// are structs with `ndevices` and `devices` (CUDA, Level Zero): `CAST` is its context cast,
/// and it has `<prefix>_ddi`, `<prefix>_is` and `<prefix>_context_retain_internal` /
/// `_release_internal`; `alloc`, `free` and `caps` are its driver's part.
#define URC_USM_POOL_ADAPTER(prefix, CAST, alloc, free, ...)                                       \
    static ur_result_t prefix##_pool_context_devices(ur_context_handle_t h, uint32_t *n,           \
                                                     void *const **devices) {                      \
        if (!prefix##_is(h, URC_KIND_CONTEXT))                                                     \
            return UR_RESULT_ERROR_INVALID_CONTEXT;                                                \
        *n = CAST(h)->ndevices;                                                                    \
        *devices = (void *const *)CAST(h)->devices;                                                \
        return UR_RESULT_SUCCESS;                                                                  \
    }                                                                                              \
    static void prefix##_pool_retain_context(ur_context_handle_t h) {                              \
        prefix##_context_retain_internal(CAST(h));                                                 \
    }                                                                                              \
    static void prefix##_pool_release_context(ur_context_handle_t h) {                             \
        prefix##_context_release_internal(CAST(h));                                                \
    }                                                                                              \
    const urc_usm_pool_adapter_t prefix##_pool_adapter = {                                         \
        .ddi = &prefix##_ddi,                                                                      \
        .ops = {(alloc), (free)},                                                                  \
        .caps = __VA_ARGS__,                                                                       \
        .context_devices = prefix##_pool_context_devices,                                          \
        .retain_context = prefix##_pool_retain_context,                                            \
        .release_context = prefix##_pool_release_context,                                          \
    }

#endif // URC_COMMON_POOL_POOL_HANDLE_H
