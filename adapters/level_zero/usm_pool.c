// SPDX-License-Identifier: MIT
// USM pools (common/pool/pool_handle) over zeMemAllocHost/Device/Shared.
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "l0_internal.h"
#include "memory/usm_async.h"
#include "pool/pool_handle.h"

// Device memory is zeroed by a copy from zeroed host memory (slabs are rare).
static ur_result_t zero_device(l0_context_t *ctx, l0_device_t *dev, void *ptr, size_t size) {
    void *zeros = calloc(1, size);
    if (zeros == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ur_result_t res = l0_copy_now(ctx, dev, ptr, zeros, size);
    free(zeros);
    return res;
}

static ur_result_t native_alloc(void *native, size_t size, size_t align, bool zero, void **out) {
    const urc_usm_target_t *t = native;
    l0_context_t *ctx = t->context;
    l0_device_t *dev = t->device;
    ze_device_mem_alloc_desc_t ddesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    ze_host_mem_alloc_desc_t hdesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    void *p = NULL;
    ze_result_t r = t->type == UR_USM_TYPE_HOST ? zeMemAllocHost(ctx->ze, &hdesc, size, align, &p)
                    : t->type == UR_USM_TYPE_DEVICE
                        ? zeMemAllocDevice(ctx->ze, &ddesc, size, align, dev->ze, &p)
                        : zeMemAllocShared(ctx->ze, &ddesc, &hdesc, size, align, dev->ze, &p);
    ur_result_t res = l0_ok(r, "USM pool slab (zeMemAlloc*)");
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (zero && t->type != UR_USM_TYPE_DEVICE)
        memset(p, 0, size);
    else if (zero)
        res = zero_device(ctx, dev, p, size);
    if (res != UR_RESULT_SUCCESS) {
        (void)l0_usm_release(ctx, p);
        return res;
    }
    *out = p;
    return UR_RESULT_SUCCESS;
}

static ur_result_t native_free(void *native, void *ptr) {
    const urc_usm_target_t *t = native;
    return l0_usm_release(t->context, ptr);
}

// zeMemAlloc* take any power-of-two alignment; a page is plenty for a slab.
URC_USM_POOL_ADAPTER(l0, L0_CONTEXT, native_alloc, native_free,
                     {.host_align = 4096, .device_align = 4096, .host = true, .shared = true});

// ---- stream-ordered allocation: the pool plus the queue's order ----

URC_USM_ASYNC_ADAPTER(l0, L0_QUEUE, l0_enqueue_wait_command);

#define ASYNC  (&l0_async_adapter)
#define A      (&l0_pool_adapter)
#define PREFIX l0
#include "pool/pool_entry_points.inc"
