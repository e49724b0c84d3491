// SPDX-License-Identifier: MIT
// urMem* for buffers. A buffer is one USM allocation: device memory when the context has one
// device, host memory when it has several (every device reaches it) or when the caller asks
// for host memory. UR_MEM_FLAG_USE_HOST_POINTER buffers copy the caller's memory in and keep it
// in step at map and unmap, OpenCL's caching model. Images are in image.c.
#include "l0_internal.h"
#include "core/release.h"

ur_result_t l0_run_now(l0_context_t *ctx, l0_device_t *dev, l0_append_fn append, void *arg,
                       const char *what) {
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    NULL,
                                    dev->compute_ordinal,
                                    0,
                                    0,
                                    ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list = NULL;
    ze_event_handle_t ev = NULL;
    ur_result_t res = l0_ok(zeCommandListCreateImmediate(ctx->ze, dev->ze, &desc, &list),
                            "zeCommandListCreateImmediate");
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = l0_context_take_event(ctx, 0, &ev);
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(append(list, ev, arg), what);
    while (res == UR_RESULT_SUCCESS) {
        ze_result_t r = zeEventHostSynchronize(ev, UINT64_MAX);
        if (r == ZE_RESULT_SUCCESS)
            break;
        if (r != ZE_RESULT_NOT_READY)
            res = l0_error(r, "zeEventHostSynchronize");
    }
    if (ev != NULL)
        l0_context_give_event(ctx, 0, ev);
    (void)zeCommandListDestroy(list);
    return res;
}

typedef struct copy_args_t {
    void *dst;
    const void *src;
    size_t n;
} copy_args_t;

static ze_result_t append_copy_now(ze_command_list_handle_t list, ze_event_handle_t ev, void *arg) {
    const copy_args_t *c = arg;
    return zeCommandListAppendMemoryCopy(list, c->dst, c->src, c->n, ev, 0, NULL);
}

// One synchronous copy at buffer creation (or for a USM pool's zeroed slab), outside any queue.
ur_result_t l0_copy_now(l0_context_t *ctx, l0_device_t *dev, void *dst, const void *src, size_t n) {
    copy_args_t args = {dst, src, n};
    return l0_run_now(ctx, dev, append_copy_now, &args, "zeCommandListAppendMemoryCopy");
}

l0_mem_t *l0_mem_new(l0_context_t *ctx, ur_mem_flags_t flags, size_t size, l0_mem_kind_t kind) {
    l0_mem_t *m = URC_NEW(l0_mem_t);
    if (m == NULL)
        return NULL;
    m->ctx = ctx;
    m->flags = flags;
    m->size = size;
    m->kind = kind;
    urc_mappings_init(&m->maps);
    urc_object_init(&m->obj, &l0_ddi, URC_KIND_MEM);
    l0_context_retain_internal(ctx);
    return m;
}

static void mem_destroy(l0_mem_t *m) {
    if (m->image != NULL && m->owns_ptr)
        (void)zeImageDestroy(m->image);
    else if (m->owns_ptr)
        (void)l0_usm_release(m->ctx, m->ptr);
    if (m->parent != NULL)
        l0_mem_release_internal(m->parent);
    l0_context_release_internal(m->ctx);
    urc_mappings_destroy(&m->maps);
    URC_OBJECT_FREE(m);
}

void l0_mem_retain_internal(l0_mem_t *m) {
    urc_hold(&m->obj);
}

void l0_mem_release_internal(l0_mem_t *m) {
    if (urc_unhold(&m->obj))
        mem_destroy(m);
}

ur_result_t l0_mem_buffer_create(ur_context_handle_t hContext, ur_mem_flags_t flags, size_t size,
                                 const ur_buffer_properties_t *pProperties,
                                 ur_mem_handle_t *phBuffer) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    void *host = pProperties != NULL ? pProperties->pHost : NULL;
    ur_result_t res = urc_buffer_check_create(flags, host);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_device_t *dev = ctx->devices[0];
    if (dev->props.maxMemAllocSize != 0 && size > dev->props.maxMemAllocSize)
        return urc_error_set(UR_RESULT_ERROR_INVALID_BUFFER_SIZE, 0,
                             "buffer of %zu bytes exceeds the device's allocation limit of %llu",
                             size, (unsigned long long)dev->props.maxMemAllocSize);
    l0_mem_kind_t kind = L0_MEM_DEVICE;
    if (ctx->ndevices > 1 || (flags & UR_MEM_FLAG_ALLOC_HOST_POINTER))
        kind = L0_MEM_HOST;
    l0_mem_t *m = l0_mem_new(ctx, flags, size, kind);
    if (m == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (kind == L0_MEM_HOST) {
        ze_host_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
        res = l0_ok(zeMemAllocHost(ctx->ze, &desc, size, 0, &m->ptr), "zeMemAllocHost");
    } else {
        ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
        res =
            l0_ok(zeMemAllocDevice(ctx->ze, &desc, size, 0, dev->ze, &m->ptr), "zeMemAllocDevice");
    }
    if (res != UR_RESULT_SUCCESS) {
        mem_destroy(m);
        return res;
    }
    m->owns_ptr = true;
    if (flags & UR_MEM_FLAG_USE_HOST_POINTER)
        m->user = host;
    if (host != NULL) {
        if (kind == L0_MEM_HOST)
            memcpy(m->ptr, host, size);
        else
            res = l0_copy_now(ctx, dev, m->ptr, host, size);
    }
    if (res != UR_RESULT_SUCCESS) {
        mem_destroy(m);
        return res;
    }
    *phBuffer = (ur_mem_handle_t)m;
    return UR_RESULT_SUCCESS;
}

URC_RETAIN_RELEASE(l0_mem, ur_mem_handle_t, L0_MEM, UR_RESULT_ERROR_INVALID_MEM_OBJECT,
                   "urMemRelease", mem_destroy)

/// A sub-buffer is a window on its parent's memory, which it holds.
static ur_result_t sub_buffer(l0_mem_t *parent, ur_mem_flags_t flags,
                              const ur_buffer_region_t *region, ur_mem_handle_t *phMem) {
    l0_mem_t *m = l0_mem_new(parent->ctx, flags, region->size, parent->kind);
    if (m == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    m->parent = parent;
    m->origin = region->origin;
    m->ptr = (char *)parent->ptr + region->origin;
    m->user = parent->user != NULL ? (char *)parent->user + region->origin : NULL;
    l0_mem_retain_internal(parent);
    *phMem = (ur_mem_handle_t)m;
    return UR_RESULT_SUCCESS;
}

URC_BUFFER_PARTITION(l0, L0_MEM, sub_buffer)

ur_result_t l0_mem_get_native_handle(ur_mem_handle_t hMem, ur_device_handle_t hDevice,
                                     ur_native_handle_t *phNativeMem) {
    l0_mem_t *m = L0_MEM(hMem);
    if (hDevice != NULL &&
        (!l0_is(hDevice, URC_KIND_DEVICE) || !l0_context_has_device(m->ctx, L0_DEVICE(hDevice))))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    *phNativeMem = m->is_image ? (ur_native_handle_t)m->image : (ur_native_handle_t)m->ptr;
    return UR_RESULT_SUCCESS;
}

// The buffer runs from the pointer to the end of the USM allocation holding it.
ur_result_t l0_mem_buffer_create_with_native_handle(ur_native_handle_t hNativeMem,
                                                    ur_context_handle_t hContext,
                                                    const ur_mem_native_properties_t *pProperties,
                                                    ur_mem_handle_t *phMem) {
    if (hNativeMem == 0)
        return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
    l0_context_t *ctx = L0_CONTEXT(hContext);
    void *ptr = (void *)hNativeMem, *base = NULL;
    size_t range = 0;
    ze_memory_allocation_properties_t props = {.stype =
                                                   ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ze_device_handle_t dev = NULL;
    ur_result_t res =
        l0_ok(zeMemGetAllocProperties(ctx->ze, ptr, &props, &dev), "zeMemGetAllocProperties");
    if (res == UR_RESULT_SUCCESS && props.type == ZE_MEMORY_TYPE_UNKNOWN)
        res = urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                            "%p is not a USM allocation of this context", ptr);
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeMemGetAddressRange(ctx->ze, ptr, &base, &range), "zeMemGetAddressRange");
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_mem_kind_t kind = props.type == ZE_MEMORY_TYPE_DEVICE ? L0_MEM_DEVICE : L0_MEM_HOST;
    size_t size = range - (size_t)((char *)ptr - (char *)base);
    l0_mem_t *m = l0_mem_new(ctx, UR_MEM_FLAG_READ_WRITE, size, kind);
    if (m == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    m->ptr = ptr;
    m->owns_ptr = pProperties != NULL && pProperties->isNativeHandleOwned && ptr == base;
    *phMem = (ur_mem_handle_t)m;
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_mem_get_info(ur_mem_handle_t hMemory, ur_mem_info_t propName, size_t propSize,
                            void *pPropValue, size_t *pPropSizeRet) {
    const l0_mem_t *m = L0_MEM(hMemory);
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    return urc_info_mem(&out, propName, m->size, (ur_context_handle_t)m->ctx,
                        urc_refcount(&m->obj));
}
