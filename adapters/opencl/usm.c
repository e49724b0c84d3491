// SPDX-License-Identifier: MIT
// Unified shared memory through cl_intel_unified_shared_memory: allocation, queries and the
// USM enqueue operations. Devices without the extension answer UNSUPPORTED_FEATURE.
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "memory/fill.h"
#include "ocl_internal.h"
#include "core/pnext.h"
#include "memory/usm_range.h"
#include "queue/command_rules.h"
#include "pool/pool_handle.h"

static ur_result_t no_usm(const char *what) {
    return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                         "%s: the device has no cl_intel_unified_shared_memory", what);
}

/// Translates the descriptor chain into cl_mem_properties_intel (0-terminated, at most 5
/// entries) and checks the alignment.
static ur_result_t alloc_props(const ur_usm_desc_t *desc, cl_mem_properties_intel props[5],
                               cl_uint *align) {
    *align = 0;
    props[0] = 0;
    if (desc == NULL)
        return UR_RESULT_SUCCESS;
    if (desc->align != 0 && (desc->align & (desc->align - 1)) != 0)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "USM alignment %u is not a power of two", desc->align);
    *align = desc->align;
    OCL_TRY_UR(urc_pnext_check(desc));
    cl_mem_alloc_flags_intel flags = 0;
    size_t n = 0;
    for (const ur_base_desc_t *p = desc->pNext; p != NULL; p = p->pNext) {
        switch (p->stype) {
        case UR_STRUCTURE_TYPE_USM_HOST_DESC: {
            ur_usm_host_mem_flags_t f = ((const ur_usm_host_desc_t *)p)->flags;
            if (f & UR_USM_HOST_MEM_FLAGS_MASK)
                return UR_RESULT_ERROR_INVALID_ENUMERATION;
            if (f & UR_USM_HOST_MEM_FLAG_INITIAL_PLACEMENT)
                flags |= CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL;
            break;
        }
        case UR_STRUCTURE_TYPE_USM_DEVICE_DESC: {
            // UR's adapter checked these flags against the host mask; they have their own.
            ur_usm_device_mem_flags_t f = ((const ur_usm_device_desc_t *)p)->flags;
            if (f & UR_USM_DEVICE_MEM_FLAGS_MASK)
                return UR_RESULT_ERROR_INVALID_ENUMERATION;
            if (f & UR_USM_DEVICE_MEM_FLAG_INITIAL_PLACEMENT)
                flags |= CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL;
            if (f & UR_USM_DEVICE_MEM_FLAG_WRITE_COMBINED)
                flags |= CL_MEM_ALLOC_WRITE_COMBINED_INTEL;
            break;
        }
        case UR_STRUCTURE_TYPE_USM_ALLOC_LOCATION_DESC:
            if (n < 2) {
                props[n++] = CL_MEM_ALLOC_BUFFER_LOCATION_INTEL;
                props[n++] = ((const ur_usm_alloc_location_desc_t *)p)->location;
            }
            break;
        default:
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "unknown structure type %d in a USM descriptor", (int)p->stype);
        }
    }
    if (flags != 0) {
        props[n++] = CL_MEM_ALLOC_FLAGS_INTEL;
        props[n++] = flags;
    }
    props[n] = 0;
    return UR_RESULT_SUCCESS;
}

static ur_result_t alloc_result(cl_int err, void *ptr) {
    if (err == CL_INVALID_BUFFER_SIZE)
        return urc_error_set(UR_RESULT_ERROR_INVALID_USM_SIZE, err,
                             "USM allocation larger than the device allows");
    if (err != CL_SUCCESS || ptr == NULL)
        return ocl_fail(err != CL_SUCCESS ? err : CL_OUT_OF_RESOURCES, "USM allocation");
    return UR_RESULT_SUCCESS;
}

// ---- the record of urc's allocations ----------------------------------------------------------
// Every allocation urUSM*Alloc made, by the pointer the caller got (`start`) and, where the two
// differ, also by the runtime's base: its context, and the caller's `size`. Two answers then no
// longer depend on the runtime: whose memory a pointer is (PoCL 5 answers clGetMemAllocInfoINTEL
// for memory of any context), and the alignment asked for (PoCL 5 ignored 4096 for shared memory:
// the adapter then allocates `align` - 1 bytes more and hands out the first aligned byte). Sharded
// by address.

#define RECORD_SHARDS 32

typedef struct record_t {
    const void *key; // `start`, or `base` for the second entry of an over-allocation
    void *base, *start;
    size_t size;
    ur_context_handle_t ctx;
} record_t;

static struct record_shard_t {
    pthread_mutex_t lock;
    record_t *items;
    size_t count, cap;
} records[RECORD_SHARDS];
static pthread_once_t records_once = PTHREAD_ONCE_INIT;

static void records_init(void) {
    for (size_t i = 0; i < RECORD_SHARDS; ++i)
        pthread_mutex_init(&records[i].lock, NULL);
}

static struct record_shard_t *shard_of(const void *key) {
    pthread_once(&records_once, records_init);
    return &records[((uintptr_t)key >> 6) % RECORD_SHARDS];
}

static bool record_add_key(const record_t *r) {
    struct record_shard_t *sh = shard_of(r->key);
    bool ok = true;
    pthread_mutex_lock(&sh->lock);
    if (sh->count == sh->cap) {
        size_t cap = sh->cap ? 2 * sh->cap : 16;
        record_t *grown = realloc(sh->items, cap * sizeof *grown);
        if (grown == NULL)
            ok = false;
        else {
            sh->items = grown;
            sh->cap = cap;
        }
    }
    if (ok)
        sh->items[sh->count++] = *r;
    pthread_mutex_unlock(&sh->lock);
    return ok;
}

// The entry under `key`, copied; `remove` takes it out when it is of `ctx`.
static bool record_find(const void *key, ur_context_handle_t ctx, bool remove, record_t *out) {
    struct record_shard_t *sh = shard_of(key);
    bool found = false;
    pthread_mutex_lock(&sh->lock);
    for (size_t i = 0; i < sh->count; ++i)
        if (sh->items[i].key == key) {
            *out = sh->items[i];
            found = true;
            if (remove && out->ctx == ctx)
                sh->items[i] = sh->items[--sh->count];
            break;
        }
    pthread_mutex_unlock(&sh->lock);
    return found;
}

// Both entries of an allocation (one when nothing was over-allocated); false when out of memory
// (nothing recorded then).
static bool record_add(record_t r) {
    r.key = r.start;
    if (!record_add_key(&r))
        return false;
    if (r.base == r.start)
        return true;
    r.key = r.base;
    if (record_add_key(&r))
        return true;
    record_t dropped;
    (void)record_find(r.start, r.ctx, true, &dropped);
    return false;
}

static bool record_of_context(const void *entry, const void *ctx) {
    return ((const record_t *)entry)->ctx == ctx;
}

void ocl_usm_context_destroyed(ur_context_handle_t ctx) {
    // The runtime frees what is left of the context's memory with it.
    for (size_t s = 0; s < RECORD_SHARDS; ++s) {
        struct record_shard_t *sh = shard_of((const void *)(s << 6));
        pthread_mutex_lock(&sh->lock);
        sh->items = urc_array_remove_if(sh->items, &sh->count, &sh->cap, sizeof *sh->items,
                                        record_of_context, ctx);
        pthread_mutex_unlock(&sh->lock);
    }
}

// What a context that was never destroyed (a leaked one, or one the quarantine still parks)
// left in the shards goes with the library.
__attribute__((destructor)) static void records_free(void) {
    for (size_t s = 0; s < RECORD_SHARDS; ++s) {
        free(records[s].items);
        records[s].items = NULL;
        records[s].count = records[s].cap = 0;
    }
}

// The runtime's base of the allocation holding `p`, or NULL.
static void *runtime_base(ur_context_handle_t c, const void *p) {
    void *base = NULL;
    if (c->platform->ext.get_mem_alloc_info(c->cl, p, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof base,
                                            &base, NULL) != CL_SUCCESS)
        return NULL;
    return base;
}

// An allocation through `alloc` (which takes the alignment), aligned whatever the runtime
// does, and recorded.
typedef void *(*raw_alloc_fn)(ur_context_handle_t c, void *arg, size_t size, cl_uint align,
                              cl_int *err);

static ur_result_t alloc_recorded(raw_alloc_fn alloc, void *arg, ur_context_handle_t c, size_t size,
                                  cl_uint align, void **ppMem) {
    cl_int err = CL_SUCCESS;
    void *p = alloc(c, arg, size, align, &err);
    ur_result_t res = alloc_result(err, p);
    if (res != UR_RESULT_SUCCESS)
        return res;
    record_t r = {p, p, p, size, c};
    if (align > 1 && (uintptr_t)p % align != 0) {
        (void)c->platform->ext.mem_blocking_free(c->cl, p);
        if (size > SIZE_MAX - (align - 1))
            return urc_error_set(UR_RESULT_ERROR_INVALID_USM_SIZE, 0,
                                 "USM allocation of %zu bytes at alignment %u", size, align);
        p = alloc(c, arg, size + (align - 1), align, &err);
        if ((res = alloc_result(err, p)) != UR_RESULT_SUCCESS)
            return res;
        r.base = p;
        r.start = (void *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
    }
    if (!record_add(r)) {
        (void)c->platform->ext.mem_blocking_free(c->cl, r.base);
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    *ppMem = r.start;
    return UR_RESULT_SUCCESS;
}

static void *host_alloc_fn(ur_context_handle_t c, void *arg, size_t size, cl_uint align,
                           cl_int *err) {
    const cl_mem_properties_intel *props = arg;
    return c->platform->ext.host_mem_alloc(c->cl, props[0] ? props : NULL, size, align, err);
}

typedef struct device_alloc_arg_t {
    clDeviceMemAllocINTEL_fn alloc;
    cl_device_id dev;
    const cl_mem_properties_intel *props;
} device_alloc_arg_t;

static void *device_alloc_fn(ur_context_handle_t c, void *arg, size_t size, cl_uint align,
                             cl_int *err) {
    const device_alloc_arg_t *a = arg;
    return a->alloc(c->cl, a->dev, a->props[0] ? a->props : NULL, size, align, err);
}

static bool context_usm(ur_context_handle_t c) {
    for (uint32_t i = 0; i < c->num_devices; ++i)
        if (!c->devices[i]->usm)
            return false;
    return true;
}

static ur_result_t check_device(ur_context_handle_t c, ur_device_handle_t d) {
    OCL_CHECK_HANDLE(d, URC_KIND_DEVICE, UR_RESULT_ERROR_INVALID_DEVICE);
    for (uint32_t i = 0; i < c->num_devices; ++i)
        if (c->devices[i] == d)
            return d->usm ? UR_RESULT_SUCCESS : no_usm("USM allocation");
    return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 0, "the device is not in the context");
}

ur_result_t ocl_usm_host_alloc(ur_context_handle_t hContext, const ur_usm_desc_t *pUSMDesc,
                               ur_usm_pool_handle_t pool, size_t size, void **ppMem) {
    if (!context_usm(hContext))
        return no_usm("urUSMHostAlloc");
    cl_mem_properties_intel props[5];
    cl_uint align;
    OCL_TRY_UR(alloc_props(pUSMDesc, props, &align));
    if (pool != NULL)
        return urc_usm_pool_alloc_in(&ocl_pool_adapter, hContext, NULL, UR_USM_TYPE_HOST, pool,
                                     size, align, ppMem);
    return alloc_recorded(host_alloc_fn, props, hContext, size, align, ppMem);
}

// Device and shared allocations differ only in the extension's entry point (both functions
// take the same arguments).
static ur_result_t device_alloc(clDeviceMemAllocINTEL_fn alloc, ur_usm_type_t type,
                                ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                const ur_usm_desc_t *pUSMDesc, ur_usm_pool_handle_t pool,
                                size_t size, void **ppMem) {
    OCL_TRY_UR(check_device(hContext, hDevice));
    cl_mem_properties_intel props[5];
    cl_uint align;
    OCL_TRY_UR(alloc_props(pUSMDesc, props, &align));
    if (pool != NULL)
        return urc_usm_pool_alloc_in(&ocl_pool_adapter, hContext, hDevice, type, pool, size, align,
                                     ppMem);
    device_alloc_arg_t arg = {alloc, hDevice->cl, props};
    return alloc_recorded(device_alloc_fn, &arg, hContext, size, align, ppMem);
}

ur_result_t ocl_usm_device_alloc(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                 const ur_usm_desc_t *pUSMDesc, ur_usm_pool_handle_t pool,
                                 size_t size, void **ppMem) {
    // The context is checked before its platform's entry points are read.
    return device_alloc(hContext->platform->ext.device_mem_alloc, UR_USM_TYPE_DEVICE, hContext,
                        hDevice, pUSMDesc, pool, size, ppMem);
}

ur_result_t ocl_usm_shared_alloc(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                 const ur_usm_desc_t *pUSMDesc, ur_usm_pool_handle_t pool,
                                 size_t size, void **ppMem) {
    return device_alloc(hContext->platform->ext.shared_mem_alloc, UR_USM_TYPE_SHARED, hContext,
                        hDevice, pUSMDesc, pool, size, ppMem);
}

ur_result_t ocl_usm_free(ur_context_handle_t hContext, void *pMem) {
    if (!context_usm(hContext))
        return no_usm("urUSMFree");
    bool pooled = false;
    ur_result_t res = urc_usm_free_pooled(hContext, pMem, &pooled);
    if (pooled)
        return res;
    // urc's own allocations: only their start, only in their context.
    record_t r;
    if (record_find(pMem, hContext, false, &r)) {
        if (r.ctx != hContext)
            return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                                 "%p is USM memory of another context", pMem);
        if (r.start != pMem)
            return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                                 "%p is not the start of its USM allocation", pMem);
        OCL_TRY("clMemBlockingFreeINTEL",
                hContext->platform->ext.mem_blocking_free(hContext->cl, r.base));
        (void)record_find(r.start, hContext, true, &r);
        if (r.base != r.start)
            (void)record_find(r.base, hContext, true, &r);
        return UR_RESULT_SUCCESS;
    }
    OCL_TRY("clMemBlockingFreeINTEL",
            hContext->platform->ext.mem_blocking_free(hContext->cl, pMem));
    return UR_RESULT_SUCCESS;
}

ur_result_t ocl_usm_get_mem_alloc_info(ur_context_handle_t hContext, const void *pMem,
                                       ur_usm_alloc_info_t propName, size_t propSize,
                                       void *pPropValue, size_t *pPropSizeRet) {
    if (!context_usm(hContext))
        return no_usm("urUSMGetMemAllocInfo");
    clGetMemAllocInfoINTEL_fn info = hContext->platform->ext.get_mem_alloc_info;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    bool answered = false;
    ur_result_t res = urc_usm_alloc_info_pooled(hContext, pMem, propName, &out, &answered);
    if (answered)
        return res;
    // Memory urc allocated in another context is none of this context's, whatever the runtime
    // says; memory urc over-allocated for alignment starts where the caller's part starts.
    const bool counted = propName == UR_USM_ALLOC_INFO_TYPE ||
                         propName == UR_USM_ALLOC_INFO_BASE_PTR ||
                         propName == UR_USM_ALLOC_INFO_SIZE || propName == UR_USM_ALLOC_INFO_DEVICE;
    record_t r;
    void *rbase = NULL;
    if (counted && (record_find(pMem, hContext, false, &r) ||
                    ((rbase = runtime_base(hContext, pMem)) != NULL &&
                     record_find(rbase, hContext, false, &r)))) {
        if (r.ctx != hContext) {
            if (propName == UR_USM_ALLOC_INFO_TYPE) {
                ur_usm_type_t unknown = UR_USM_TYPE_UNKNOWN;
                return urc_info_bytes(&out, &unknown, sizeof unknown);
            }
            return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                                 "%p is USM memory of another context", pMem);
        }
        if (propName == UR_USM_ALLOC_INFO_BASE_PTR)
            return urc_info_ptr(&out, r.start);
        if (propName == UR_USM_ALLOC_INFO_SIZE)
            return urc_info_size(&out, r.size);
    }
    switch (propName) {
    case UR_USM_ALLOC_INFO_TYPE: {
        cl_unified_shared_memory_type_intel t = CL_MEM_TYPE_UNKNOWN_INTEL;
        OCL_TRY("clGetMemAllocInfoINTEL",
                info(hContext->cl, pMem, CL_MEM_ALLOC_TYPE_INTEL, sizeof t, &t, NULL));
        ur_usm_type_t type = t == CL_MEM_TYPE_HOST_INTEL     ? UR_USM_TYPE_HOST
                             : t == CL_MEM_TYPE_DEVICE_INTEL ? UR_USM_TYPE_DEVICE
                             : t == CL_MEM_TYPE_SHARED_INTEL ? UR_USM_TYPE_SHARED
                                                             : UR_USM_TYPE_UNKNOWN;
        return urc_info_bytes(&out, &type, sizeof type);
    }
    case UR_USM_ALLOC_INFO_BASE_PTR: {
        void *base = NULL;
        OCL_TRY("clGetMemAllocInfoINTEL",
                info(hContext->cl, pMem, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof base, &base, NULL));
        return urc_info_ptr(&out, base);
    }
    case UR_USM_ALLOC_INFO_SIZE: {
        size_t size = 0;
        OCL_TRY("clGetMemAllocInfoINTEL",
                info(hContext->cl, pMem, CL_MEM_ALLOC_SIZE_INTEL, sizeof size, &size, NULL));
        return urc_info_size(&out, size);
    }
    case UR_USM_ALLOC_INFO_DEVICE: {
        // The allocation's own device (UR answered the context's first device), or NULL
        // for host allocations.
        cl_device_id cl = NULL;
        OCL_TRY("clGetMemAllocInfoINTEL",
                info(hContext->cl, pMem, CL_MEM_ALLOC_DEVICE_INTEL, sizeof cl, &cl, NULL));
        ur_device_handle_t device = NULL;
        for (uint32_t i = 0; i < hContext->num_devices; ++i)
            if (hContext->devices[i]->cl == cl)
                device = hContext->devices[i];
        return urc_info_ptr(&out, device);
    }
    case UR_USM_ALLOC_INFO_POOL:
        return urc_info_ptr(&out, NULL); // not from a pool
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

// ---- enqueue --------------------------------------------------------------------------------

ur_result_t ocl_usm_required(ur_device_handle_t d, const char *what) {
    return d->usm ? UR_RESULT_SUCCESS : no_usm(what);
}

static ur_result_t queue_checks(ur_queue_handle_t q, const char *what) {
    OCL_CHECK_HANDLE(q, URC_KIND_QUEUE, UR_RESULT_ERROR_INVALID_QUEUE);
    return ocl_usm_required(q->device, what);
}

bool ocl_usm_lookup(void *backend, const void *ptr, const void **base, size_t *size) {
    ur_context_handle_t ctx = backend;
    clGetMemAllocInfoINTEL_fn info = ctx->platform->ext.get_mem_alloc_info;
    void *b = NULL;
    size_t s = 0;
    if (info == NULL ||
        info(ctx->cl, ptr, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof b, &b, NULL) != CL_SUCCESS ||
        b == NULL || info(ctx->cl, ptr, CL_MEM_ALLOC_SIZE_INTEL, sizeof s, &s, NULL) != CL_SUCCESS)
        return false;
    *base = b;
    *size = s;
    return true;
}

void ocl_rules(ur_context_handle_t ctx, ur_device_handle_t dev, urc_rules_t *out) {
    *out = (urc_rules_t){.lookup = ocl_usm_lookup, .backend = ctx};
    const urc_device_caps_t *caps = NULL;
    if (dev != NULL && ocl_device_caps(dev, &caps) == UR_RESULT_SUCCESS && caps != NULL) {
        out->limits.max_group_items = caps->max_work_group_size;
        for (int d = 0; d < 3; ++d)
            out->limits.max_group[d] = caps->max_work_item_sizes[d];
    }
}

/// The rule table's facts for a command of `q` (common/queue/command_rules.h).
static urc_rules_t queue_rules(ur_queue_handle_t q) {
    urc_rules_t r;
    ocl_rules(q->context, q->device, &r);
    return r;
}

cl_int ocl_usm_fill_cl(ur_context_handle_t ctx, cl_command_queue q, void *dst, const void *pattern,
                       size_t pattern_size, size_t size, cl_uint n, const cl_event *waits,
                       cl_event *out) {
    const ocl_ext_t *e = &ctx->platform->ext;
    if (ocl_usm_fill_takes(dst, pattern_size))
        return e->enqueue_mem_fill(q, dst, pattern, pattern_size, size, n, waits, out);
    // A pattern clEnqueueMemFillINTEL cannot take: copy a host image of the filled range.
    uint8_t *image = urc_fill2d_image(pattern, pattern_size, size, 1);
    if (image == NULL)
        return CL_OUT_OF_HOST_MEMORY;
    cl_event ev = NULL;
    cl_int err = e->enqueue_memcpy(q, CL_FALSE, dst, image, size, n, waits, &ev);
    return ocl_free_image_after(err, ev, image, out);
}

ur_result_t ocl_enqueue_usm_fill(ur_queue_handle_t hQueue, void *pMem, size_t patternSize,
                                 const void *pPattern, size_t size, uint32_t numEventsInWaitList,
                                 const ur_event_handle_t *phEventWaitList,
                                 ur_event_handle_t *phEvent) {
    OCL_TRY_UR(queue_checks(hQueue, "urEnqueueUSMFill"));
    urc_rules_t rules = queue_rules(hQueue);
    OCL_TRY_UR(urc_rule_usm_fill(&rules, pMem, patternSize, size));
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList));
    cl_event ev = NULL;
    cl_int err = ocl_usm_fill_cl(hQueue->context, hQueue->cl, pMem, pPattern, patternSize, size,
                                 wl.count, wl.events, phEvent != NULL ? &ev : NULL);
    return ocl_enqueue_done(err, "clEnqueueMemFillINTEL", &wl, hQueue, UR_COMMAND_USM_FILL, ev,
                            phEvent);
}

ur_result_t ocl_enqueue_usm_memcpy(ur_queue_handle_t hQueue, bool blocking, void *pDst,
                                   const void *pSrc, size_t size, uint32_t numEventsInWaitList,
                                   const ur_event_handle_t *phEventWaitList,
                                   ur_event_handle_t *phEvent) {
    OCL_TRY_UR(queue_checks(hQueue, "urEnqueueUSMMemcpy"));
    urc_rules_t rules = queue_rules(hQueue);
    OCL_TRY_UR(urc_rule_usm_memcpy(&rules, pDst, pSrc, size));
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList));
    cl_event ev = NULL;
    cl_int err = hQueue->context->platform->ext.enqueue_memcpy(
        hQueue->cl, blocking, pDst, pSrc, size, wl.count, wl.events, phEvent != NULL ? &ev : NULL);
    return ocl_assert_after_blocking(hQueue, blocking,
                                     ocl_enqueue_done(err, "clEnqueueMemcpyINTEL", &wl, hQueue,
                                                      UR_COMMAND_USM_MEMCPY, ev, phEvent),
                                     phEvent);
}

/// Prefetch and advice are hints; OpenCL on these devices gains nothing from them, so they
/// become markers that order the queue like the real command would.
static ur_result_t hint_marker(ur_queue_handle_t q, ur_command_t command, uint32_t n,
                               const ur_event_handle_t *list, ur_event_handle_t *phEvent) {
    ocl_wait_list_t wl;
    OCL_TRY_UR(ocl_wait_list_for_queue(&wl, q, n, list));
    cl_event ev = NULL;
    cl_int err =
        clEnqueueMarkerWithWaitList(q->cl, wl.count, wl.events, phEvent != NULL ? &ev : NULL);
    return ocl_enqueue_done(err, "clEnqueueMarkerWithWaitList", &wl, q, command, ev, phEvent);
}

ur_result_t ocl_enqueue_usm_prefetch(ur_queue_handle_t hQueue, const void *pMem, size_t size,
                                     ur_usm_migration_flags_t flags, uint32_t numEventsInWaitList,
                                     const ur_event_handle_t *phEventWaitList,
                                     ur_event_handle_t *phEvent) {
    (void)flags;
    OCL_TRY_UR(queue_checks(hQueue, "urEnqueueUSMPrefetch"));
    urc_rules_t rules = queue_rules(hQueue);
    OCL_TRY_UR(urc_rule_usm_hint(&rules, pMem, size));
    return hint_marker(hQueue, UR_COMMAND_USM_PREFETCH, numEventsInWaitList, phEventWaitList,
                       phEvent);
}

ur_result_t ocl_enqueue_usm_advise(ur_queue_handle_t hQueue, const void *pMem, size_t size,
                                   ur_usm_advice_flags_t advice, ur_event_handle_t *phEvent) {
    (void)advice;
    OCL_TRY_UR(queue_checks(hQueue, "urEnqueueUSMAdvise"));
    urc_rules_t rules = queue_rules(hQueue);
    OCL_TRY_UR(urc_rule_usm_hint(&rules, pMem, size));
    return hint_marker(hQueue, UR_COMMAND_USM_ADVISE, 0, NULL, phEvent);
}

/// Ends a 2D operation made of one command per row: a marker over the rows becomes the
/// returned event (and frees `image`, the host copy rows were written from, once they are
/// done); rows' own events are released. `done` rows were enqueued; `err` is the failure
/// that stopped the loop, if any (the rows already enqueued still run).
static ur_result_t rows_done(ur_queue_handle_t q, ur_command_t command, cl_event *rows, size_t done,
                             cl_int err, const char *what, void *image, bool blocking,
                             ur_event_handle_t *phEvent) {
    cl_event ev = NULL;
    cl_int mark = CL_SUCCESS;
    if (done > 0 && (phEvent != NULL || image != NULL))
        mark = clEnqueueMarkerWithWaitList(q->cl, (cl_uint)done, rows, &ev);
    if (image != NULL) {
        // Free the host copy when the rows are done; without a marker, wait for them here.
        if (ev == NULL ||
            clSetEventCallback(ev, CL_COMPLETE, ocl_free_host_image, image) != CL_SUCCESS) {
            if (done > 0)
                clWaitForEvents((cl_uint)done, rows);
            free(image);
        }
    }
    if (err == CL_SUCCESS && mark == CL_SUCCESS && blocking && done > 0)
        err = clWaitForEvents((cl_uint)done, rows);
    for (size_t i = 0; i < done; ++i)
        clReleaseEvent(rows[i]);
    free(rows);
    if (err == CL_SUCCESS)
        err = mark;
    if (err != CL_SUCCESS || phEvent == NULL) {
        if (ev != NULL)
            clReleaseEvent(ev);
        return err != CL_SUCCESS ? ocl_fail(err, what) : UR_RESULT_SUCCESS;
    }
    return ocl_event_wrap(q, command, ev, phEvent);
}

ur_result_t ocl_enqueue_usm_fill_2d(ur_queue_handle_t hQueue, void *pMem, size_t pitch,
                                    size_t patternSize, const void *pPattern, size_t width,
                                    size_t height, uint32_t numEventsInWaitList,
                                    const ur_event_handle_t *phEventWaitList,
                                    ur_event_handle_t *phEvent) {
    OCL_TRY_UR(queue_checks(hQueue, "urEnqueueUSMFill2D"));
    urc_rules_t rules = queue_rules(hQueue);
    OCL_TRY_UR(urc_rule_usm_fill_2d(&rules, pMem, pitch, patternSize, width, height));
    // The pattern runs on from row to row (common/memory/fill.h). Rows that each hold whole,
    // aligned patterns of up to 128 bytes are filled by clEnqueueMemFillINTEL; otherwise rows are
    // copied from a host image: one row when every row starts the pattern afresh, else the
    // whole region.
    bool whole = urc_fill2d_rows_whole(width, patternSize);
    bool native = whole && patternSize <= 128 && (uintptr_t)pMem % patternSize == 0 &&
                  pitch % patternSize == 0;
    uint8_t *image = NULL;
    if (!native) {
        image = urc_fill2d_image(pPattern, patternSize, width, whole ? 1 : height);
        if (image == NULL)
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    cl_event *rows = urc_calloc(height, sizeof *rows);
    ocl_wait_list_t wl;
    ur_result_t result =
        rows == NULL ? UR_RESULT_ERROR_OUT_OF_HOST_MEMORY
                     : ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList);
    if (result != UR_RESULT_SUCCESS) {
        free(rows);
        free(image);
        return result;
    }
    const ocl_ext_t *e = &hQueue->context->platform->ext;
    cl_int err = CL_SUCCESS;
    size_t done = 0;
    for (; done < height && err == CL_SUCCESS; ++done) {
        char *row = (char *)pMem + done * pitch;
        err = native
                  ? e->enqueue_mem_fill(hQueue->cl, row, pPattern, patternSize, width, wl.count,
                                        wl.events, &rows[done])
                  : e->enqueue_memcpy(hQueue->cl, CL_FALSE, row, image + (whole ? 0 : done * width),
                                      width, wl.count, wl.events, &rows[done]);
    }
    ocl_wait_list_fini(&wl);
    if (err != CL_SUCCESS)
        --done; // the failed row made no event
    return rows_done(hQueue, UR_COMMAND_USM_FILL_2D, rows, done, err,
                     native ? "clEnqueueMemFillINTEL" : "clEnqueueMemcpyINTEL", image, false,
                     phEvent);
}

ur_result_t ocl_enqueue_usm_memcpy_2d(ur_queue_handle_t hQueue, bool blocking, void *pDst,
                                      size_t dstPitch, const void *pSrc, size_t srcPitch,
                                      size_t width, size_t height, uint32_t numEventsInWaitList,
                                      const ur_event_handle_t *phEventWaitList,
                                      ur_event_handle_t *phEvent) {
    OCL_TRY_UR(queue_checks(hQueue, "urEnqueueUSMMemcpy2D"));
    urc_rules_t rules = queue_rules(hQueue);
    OCL_TRY_UR(urc_rule_usm_memcpy_2d(&rules, pDst, dstPitch, pSrc, srcPitch, width, height));
    if (width == 0) {
        // Nothing to copy: a marker keeps the ordering and the event's type.
        ur_event_handle_t ev = NULL;
        ur_result_t r = hint_marker(hQueue, UR_COMMAND_USM_MEMCPY_2D, numEventsInWaitList,
                                    phEventWaitList, phEvent != NULL || blocking ? &ev : NULL);
        if (r == UR_RESULT_SUCCESS && blocking)
            r = ocl_event_wait(1, &ev);
        if (phEvent != NULL)
            *phEvent = ev;
        else if (ev != NULL)
            ocl_event_release(ev);
        return r;
    }
    cl_event *rows = urc_calloc(height, sizeof *rows);
    ocl_wait_list_t wl;
    ur_result_t result =
        rows == NULL ? UR_RESULT_ERROR_OUT_OF_HOST_MEMORY
                     : ocl_wait_list_for_queue(&wl, hQueue, numEventsInWaitList, phEventWaitList);
    if (result != UR_RESULT_SUCCESS) {
        free(rows);
        return result;
    }
    cl_int err = CL_SUCCESS;
    size_t done = 0;
    for (; done < height && err == CL_SUCCESS; ++done)
        err = hQueue->context->platform->ext.enqueue_memcpy(
            hQueue->cl, CL_FALSE, (char *)pDst + done * dstPitch,
            (const char *)pSrc + done * srcPitch, width, wl.count, wl.events, &rows[done]);
    ocl_wait_list_fini(&wl);
    if (err != CL_SUCCESS)
        --done; // the failed row made no event
    return ocl_assert_after_blocking(hQueue, blocking,
                                     rows_done(hQueue, UR_COMMAND_USM_MEMCPY_2D, rows, done, err,
                                               "clEnqueueMemcpyINTEL", NULL, blocking, phEvent),
                                     phEvent);
}
