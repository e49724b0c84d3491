// SPDX-License-Identifier: MIT
// urEnqueue*: waits and barriers, buffer and USM transfers, fills, maps. Every command goes
// through l0_op_begin/l0_op_end (queue.c), so wait lists, events and blocking behave alike,
// and a command that fails leaves no event behind. Kernel launches are in kernel.c, device
// globals in device_global.c.
#include <stdlib.h>

#include "memory/fill.h"
#include "l0_internal.h"
#include "queue/command_rules.h"
#include "memory/usm_range.h"
#include "memory/buffer.h"
#include "memory/vm_map.h"

static ur_result_t queue_of(ur_queue_handle_t hQueue, l0_queue_t **q) {
    if (!l0_is(hQueue, URC_KIND_QUEUE))
        return UR_RESULT_ERROR_INVALID_QUEUE;
    *q = L0_QUEUE(hQueue);
    return UR_RESULT_SUCCESS;
}

static ur_result_t buffer_of(l0_queue_t *q, ur_mem_handle_t hBuffer, l0_mem_t **m) {
    if (!l0_is(hBuffer, URC_KIND_MEM))
        return UR_RESULT_ERROR_INVALID_MEM_OBJECT;
    *m = L0_MEM(hBuffer);
    if ((*m)->is_image)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0, "an image is not a buffer");
    // A buffer of another context is usable where that context has the queue's device (UR's CTS
    // copies along a chain of contexts, urEventWaitTest.WithCrossContextDependencies).
    if ((*m)->ctx != q->ctx && !l0_context_has_device((*m)->ctx, q->dev))
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the buffer's context does not have the queue's device");
    return UR_RESULT_SUCCESS;
}

// The queue and buffer of a command on [offset, offset + size) of the buffer, range checked.
static ur_result_t buffer_range(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer, size_t offset,
                                size_t size, l0_queue_t **q, l0_mem_t **m) {
    ur_result_t res = queue_of(hQueue, q);
    if (res == UR_RESULT_SUCCESS)
        res = buffer_of(*q, hBuffer, m);
    if (res == UR_RESULT_SUCCESS)
        res = urc_rule_buffer_range((*m)->size, offset, size);
    return res;
}

// A command that only orders: it signals the event once its waits are over.
static ur_result_t append_signal(l0_op_t *op) {
    return l0_ok(zeCommandListAppendBarrier(op->list, op->event->ze, op->nwaits, op->waits),
                 "zeCommandListAppendBarrier");
}

static ur_result_t append_copy(l0_op_t *op, void *dst, const void *src, size_t n) {
    if (n == 0)
        return append_signal(op);
    return l0_ok(
        zeCommandListAppendMemoryCopy(op->list, dst, src, n, op->event->ze, op->nwaits, op->waits),
        "zeCommandListAppendMemoryCopy");
}

static ur_result_t copy(l0_queue_t *q, ur_command_t command, void *dst, const void *src, size_t n,
                        bool blocking, uint32_t nwait, const ur_event_handle_t *wait,
                        ur_event_handle_t *phEvent) {
    l0_op_t op;
    ur_result_t res = l0_op_begin(q, command, nwait, wait, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return l0_op_end(&op, append_copy(&op, dst, src, n), blocking, phEvent);
}

// Level Zero fills with power-of-two patterns up to the engine's limit; any other pattern is
// written out on the host and copied, so every pattern size UR allows works.
static ur_result_t append_fill(l0_op_t *op, void *dst, const void *pattern, size_t psize,
                               size_t size) {
    size_t max = op->queue->dev->max_fill_pattern;
    if ((psize & (psize - 1)) == 0 && (max == 0 || psize <= max))
        return l0_ok(zeCommandListAppendMemoryFill(op->list, dst, pattern, psize, size,
                                                   op->event->ze, op->nwaits, op->waits),
                     "zeCommandListAppendMemoryFill");
    uint8_t *staging = malloc(size);
    if (staging == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (size_t at = 0; at < size; at += psize)
        memcpy(staging + at, pattern, size - at < psize ? size - at : psize);
    ur_result_t res = append_copy(op, dst, staging, size);
    if (res == UR_RESULT_SUCCESS)
        op->event->free_when_done = staging; // read by the device until the command completes
    else
        free(staging);
    return res;
}

// ---- waits and barriers ----

// With an empty wait list an out-of-order queue's wait or barrier waits for every command
// still pending on it; an in-order queue's already waits for the previous command.
ur_result_t l0_enqueue_wait_command(l0_queue_t *q, ur_command_t command, uint32_t n,
                                    const ur_event_handle_t *wait, ur_event_handle_t *phEvent) {
    l0_op_t op;
    ur_result_t res = l0_op_begin(q, command, n, wait, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    ze_event_handle_t *waits = op.waits;
    uint32_t nwaits = op.nwaits;
    ze_event_handle_t *all = NULL;
    if (n == 0 && !q->in_order && q->npending > 0) {
        all = urc_calloc((size_t)q->npending + op.nwaits, sizeof *all);
        if (all == NULL)
            return l0_op_end(&op, UR_RESULT_ERROR_OUT_OF_HOST_MEMORY, false, phEvent);
        memcpy(all, op.waits, op.nwaits * sizeof *all);
        for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < q->npending; ++i) {
            l0_event_t *p = q->pending[i];
            if (l0_event_done(p))
                continue;
            res = l0_event_add_dep(op.event, p);
            all[nwaits++] = p->ze;
        }
        waits = all;
    }
    if (res == UR_RESULT_SUCCESS)
        res = l0_ok(zeCommandListAppendBarrier(op.list, op.event->ze, nwaits, waits),
                    "zeCommandListAppendBarrier");
    free(all);
    return l0_op_end(&op, res, false, phEvent);
}

ur_result_t l0_enqueue_events_wait(ur_queue_handle_t hQueue, uint32_t numEventsInWaitList,
                                   const ur_event_handle_t *phEventWaitList,
                                   ur_event_handle_t *phEvent) {
    l0_queue_t *q;
    ur_result_t res = queue_of(hQueue, &q);
    return res != UR_RESULT_SUCCESS
               ? res
               : l0_enqueue_wait_command(q, UR_COMMAND_EVENTS_WAIT, numEventsInWaitList,
                                         phEventWaitList, phEvent);
}

ur_result_t l0_enqueue_events_wait_with_barrier(ur_queue_handle_t hQueue,
                                                uint32_t numEventsInWaitList,
                                                const ur_event_handle_t *phEventWaitList,
                                                ur_event_handle_t *phEvent) {
    l0_queue_t *q;
    ur_result_t res = queue_of(hQueue, &q);
    return res != UR_RESULT_SUCCESS
               ? res
               : l0_enqueue_wait_command(q, UR_COMMAND_EVENTS_WAIT_WITH_BARRIER,
                                         numEventsInWaitList, phEventWaitList, phEvent);
}

// The extension's only property asks for low-power events, which change nothing here.
ur_result_t l0_enqueue_events_wait_with_barrier_ext(
    ur_queue_handle_t hQueue, const ur_exp_enqueue_ext_properties_t *pProperties,
    uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,
    ur_event_handle_t *phEvent) {
    (void)pProperties;
    l0_queue_t *q;
    ur_result_t res = queue_of(hQueue, &q);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // `*phEvent` is compared with the live reusable events, never read through otherwise: for
    // other callers it is an output and may hold anything.
    urc_object_t *reusable = phEvent != NULL ? urc_reusable_claim(*phEvent) : NULL;
    if (reusable == NULL)
        return l0_enqueue_wait_command(q, UR_COMMAND_EVENTS_WAIT_WITH_BARRIER, numEventsInWaitList,
                                       phEventWaitList, phEvent);
    l0_event_t *e = (l0_event_t *)reusable;
    res = l0_event_signal(e, q, numEventsInWaitList, phEventWaitList);
    l0_event_release_internal(e);
    return res;
}

// ---- buffers ----

ur_result_t l0_enqueue_mem_buffer_read(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                                       bool blockingRead, size_t offset, size_t size, void *pDst,
                                       uint32_t numEventsInWaitList,
                                       const ur_event_handle_t *phEventWaitList,
                                       ur_event_handle_t *phEvent) {
    l0_queue_t *q;
    l0_mem_t *m;
    ur_result_t res = buffer_range(hQueue, hBuffer, offset, size, &q, &m);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return copy(q, UR_COMMAND_MEM_BUFFER_READ, pDst, (char *)m->ptr + offset, size, blockingRead,
                numEventsInWaitList, phEventWaitList, phEvent);
}

ur_result_t l0_enqueue_mem_buffer_write(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                                        bool blockingWrite, size_t offset, size_t size,
                                        const void *pSrc, uint32_t numEventsInWaitList,
                                        const ur_event_handle_t *phEventWaitList,
                                        ur_event_handle_t *phEvent) {
    l0_queue_t *q;
    l0_mem_t *m;
    ur_result_t res = buffer_range(hQueue, hBuffer, offset, size, &q, &m);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return copy(q, UR_COMMAND_MEM_BUFFER_WRITE, (char *)m->ptr + offset, pSrc, size, blockingWrite,
                numEventsInWaitList, phEventWaitList, phEvent);
}

ur_result_t l0_enqueue_mem_buffer_copy(ur_queue_handle_t hQueue, ur_mem_handle_t hBufferSrc,
                                       ur_mem_handle_t hBufferDst, size_t srcOffset,
                                       size_t dstOffset, size_t size, uint32_t numEventsInWaitList,
                                       const ur_event_handle_t *phEventWaitList,
                                       ur_event_handle_t *phEvent) {
    l0_queue_t *q;
    l0_mem_t *src, *dst;
    ur_result_t res = queue_of(hQueue, &q);
    if (res == UR_RESULT_SUCCESS)
        res = buffer_of(q, hBufferSrc, &src);
    if (res == UR_RESULT_SUCCESS)
        res = buffer_of(q, hBufferDst, &dst);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = urc_rule_buffer_range(src->size, srcOffset, size);
    if (res == UR_RESULT_SUCCESS)
        res = urc_rule_buffer_range(dst->size, dstOffset, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return copy(q, UR_COMMAND_MEM_BUFFER_COPY, (char *)dst->ptr + dstOffset,
                (char *)src->ptr + srcOffset, size, false, numEventsInWaitList, phEventWaitList,
                phEvent);
}

ur_result_t l0_enqueue_mem_buffer_fill(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                                       const void *pPattern, size_t patternSize, size_t offset,
                                       size_t size, uint32_t numEventsInWaitList,
                                       const ur_event_handle_t *phEventWaitList,
                                       ur_event_handle_t *phEvent) {
    l0_queue_t *q;
    l0_mem_t *m;
    ur_result_t res = buffer_range(hQueue, hBuffer, offset, size, &q, &m);
    if (res == UR_RESULT_SUCCESS)
        res = urc_rule_buffer_fill(m->size, offset, patternSize, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_op_t op;
    res = l0_op_begin(q, UR_COMMAND_MEM_BUFFER_FILL, numEventsInWaitList, phEventWaitList, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = append_fill(&op, (char *)m->ptr + offset, pPattern, patternSize, size);
    return l0_op_end(&op, res, false, phEvent);
}

// ---- rectangular copies ----

// One side of a rectangular copy, checked as UR specifies (common/memory/ranges.h). Level Zero
// takes 32-bit pitches and extents; anything larger is refused rather than truncated.
ur_result_t l0_rect_side(urc_rect_side_t *s, size_t limit, ur_rect_offset_t o,
                         const ur_rect_region_t *r, size_t row, size_t slice) {
    ur_result_t res = urc_rect_check(s, o, r, row, slice, limit);
    if (res == UR_RESULT_SUCCESS &&
        (s->row > UINT32_MAX || s->slice > UINT32_MAX || r->width > UINT32_MAX ||
         r->height > UINT32_MAX || r->depth > UINT32_MAX))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "rectangular copy: Level Zero takes 32-bit pitches and extents");
    return res;
}

// The origins are folded into the pointers, so Level Zero sees regions at (0,0,0).
static ur_result_t append_rect(l0_op_t *op, char *dst, const urc_rect_side_t *d, const char *src,
                               const urc_rect_side_t *s, const ur_rect_region_t *r) {
    ze_copy_region_t region = {
        0, 0, 0, (uint32_t)r->width, (uint32_t)r->height, (uint32_t)r->depth};
    return l0_ok(zeCommandListAppendMemoryCopyRegion(
                     op->list, dst + d->offset, &region, (uint32_t)d->row, (uint32_t)d->slice,
                     src + s->offset, &region, (uint32_t)s->row, (uint32_t)s->slice, op->event->ze,
                     op->nwaits, op->waits),
                 "zeCommandListAppendMemoryCopyRegion");
}

static ur_result_t rect(l0_queue_t *q, ur_command_t command, char *dst, const urc_rect_side_t *d,
                        const char *src, const urc_rect_side_t *s, const ur_rect_region_t *r,
                        bool blocking, uint32_t nwait, const ur_event_handle_t *wait,
                        ur_event_handle_t *phEvent) {
    l0_op_t op;
    ur_result_t res = l0_op_begin(q, command, nwait, wait, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return l0_op_end(&op, append_rect(&op, dst, d, src, s, r), blocking, phEvent);
}

// Reads and writes of a rectangle differ only in the direction.
static ur_result_t transfer_rect(bool write, ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                                 bool blocking, ur_rect_offset_t bufferOrigin,
                                 ur_rect_offset_t hostOrigin, ur_rect_region_t region,
                                 size_t bufferRowPitch, size_t bufferSlicePitch,
                                 size_t hostRowPitch, size_t hostSlicePitch, void *host, uint32_t n,
                                 const ur_event_handle_t *waits, ur_event_handle_t *phEvent) {
    l0_queue_t *q;
    l0_mem_t *m;
    urc_rect_side_t b, h;
    ur_result_t res = queue_of(hQueue, &q);
    if (res == UR_RESULT_SUCCESS)
        res = buffer_of(q, hBuffer, &m);
    if (res == UR_RESULT_SUCCESS)
        res = l0_rect_side(&b, m->size, bufferOrigin, &region, bufferRowPitch, bufferSlicePitch);
    if (res == UR_RESULT_SUCCESS)
        res = l0_rect_side(&h, urc_usm_host_limit(l0_usm_lookup, q->ctx, host), hostOrigin, &region,
                           hostRowPitch, hostSlicePitch);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (write)
        return rect(q, UR_COMMAND_MEM_BUFFER_WRITE_RECT, m->ptr, &b, host, &h, &region, blocking, n,
                    waits, phEvent);
    return rect(q, UR_COMMAND_MEM_BUFFER_READ_RECT, host, &h, m->ptr, &b, &region, blocking, n,
                waits, phEvent);
}

URC_BUFFER_RECT_READ_WRITE(l0, transfer_rect)

ur_result_t l0_enqueue_mem_buffer_copy_rect(ur_queue_handle_t hQueue, ur_mem_handle_t hBufferSrc,
                                            ur_mem_handle_t hBufferDst, ur_rect_offset_t srcOrigin,
                                            ur_rect_offset_t dstOrigin, ur_rect_region_t region,
                                            size_t srcRowPitch, size_t srcSlicePitch,
                                            size_t dstRowPitch, size_t dstSlicePitch,
                                            uint32_t numEventsInWaitList,
                                            const ur_event_handle_t *phEventWaitList,
                                            ur_event_handle_t *phEvent) {
    l0_queue_t *q;
    l0_mem_t *src, *dst;
    urc_rect_side_t s, d;
    ur_result_t res = queue_of(hQueue, &q);
    if (res == UR_RESULT_SUCCESS)
        res = buffer_of(q, hBufferSrc, &src);
    if (res == UR_RESULT_SUCCESS)
        res = buffer_of(q, hBufferDst, &dst);
    if (res == UR_RESULT_SUCCESS)
        res = l0_rect_side(&s, src->size, srcOrigin, &region, srcRowPitch, srcSlicePitch);
    if (res == UR_RESULT_SUCCESS)
        res = l0_rect_side(&d, dst->size, dstOrigin, &region, dstRowPitch, dstSlicePitch);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return rect(q, UR_COMMAND_MEM_BUFFER_COPY_RECT, dst->ptr, &d, src->ptr, &s, &region, false,
                numEventsInWaitList, phEventWaitList, phEvent);
}

// ---- maps ----

// Host buffers are mapped in place. Device buffers are mapped through a copy: the caller's own
// memory for UR_MEM_FLAG_USE_HOST_POINTER (OpenCL's rule: the map returns host_ptr + offset),
// else a staging buffer of ours; the copy back happens at unmap.
ur_result_t l0_enqueue_mem_buffer_map(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                                      bool blockingMap, ur_map_flags_t mapFlags, size_t offset,
                                      size_t size, uint32_t numEventsInWaitList,
                                      const ur_event_handle_t *phEventWaitList,
                                      ur_event_handle_t *phEvent, void **ppRetMap) {
    l0_queue_t *q;
    l0_mem_t *m;
    ur_result_t res = buffer_range(hQueue, hBuffer, offset, size, &q, &m);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (size == 0)
        return UR_RESULT_ERROR_INVALID_SIZE;
    void *at = m->user != NULL            ? (char *)m->user + offset
               : m->kind == L0_MEM_DEVICE ? NULL // a staging buffer
                                          : (char *)m->ptr + offset;
    urc_mapping_t *map = urc_mapping_new(offset, size, mapFlags, at, m->user != NULL);
    if (map == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    l0_op_t op;
    res = l0_op_begin(q, UR_COMMAND_MEM_BUFFER_MAP, numEventsInWaitList, phEventWaitList, &op);
    if (res == UR_RESULT_SUCCESS)
        res = l0_op_end(&op,
                        urc_mapping_reads_in(map)
                            ? append_copy(&op, map->ptr, (char *)m->ptr + offset, size)
                            : append_signal(&op),
                        blockingMap, phEvent);
    return urc_mappings_finish_map(&m->maps, map, res, ppRetMap);
}

ur_result_t l0_enqueue_mem_unmap(ur_queue_handle_t hQueue, ur_mem_handle_t hMem, void *pMappedPtr,
                                 uint32_t numEventsInWaitList,
                                 const ur_event_handle_t *phEventWaitList,
                                 ur_event_handle_t *phEvent) {
    l0_queue_t *q;
    l0_mem_t *m;
    ur_result_t res = queue_of(hQueue, &q);
    if (res == UR_RESULT_SUCCESS)
        res = buffer_of(q, hMem, &m);
    if (res != UR_RESULT_SUCCESS)
        return res;
    urc_mapping_t *map;
    res = urc_mappings_take_for_unmap(&m->maps, pMappedPtr, &map);
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_op_t op;
    res = l0_op_begin(q, UR_COMMAND_MEM_UNMAP, numEventsInWaitList, phEventWaitList, &op);
    if (res == UR_RESULT_SUCCESS) {
        ur_result_t r = urc_mapping_writes_back(map)
                            ? append_copy(&op, (char *)m->ptr + map->offset, map->ptr, map->size)
                            : append_signal(&op);
        // The staging buffer goes when the copy back has read it.
        if (r == UR_RESULT_SUCCESS && map->owned) {
            op.event->free_when_done = map->ptr;
            map->owned = false;
        }
        res = l0_op_end(&op, r, false, phEvent);
    }
    // On success the staging buffer, if any, is the event's now.
    return urc_mappings_finish_unmap(&m->maps, map, res);
}

// ---- USM ----

// The allocation holding a pointer, from zeMemGetAddressRange (common/memory/usm_range.h).
bool l0_usm_lookup(void *backend, const void *ptr, const void **base, size_t *size) {
    const l0_context_t *ctx = backend;
    // Virtual memory mapped side by side is one run, whatever the driver answers for one map.
    if (urc_vm_mapped_run(ptr, base, size))
        return true;
    void *b = NULL;
    size_t s = 0;
    if (zeMemGetAddressRange(ctx->ze, ptr, &b, &s) != ZE_RESULT_SUCCESS || b == NULL)
        return false;
    *base = b;
    *size = s;
    return true;
}

void l0_rules(const l0_context_t *ctx, const l0_device_t *dev, urc_rules_t *out) {
    *out = (urc_rules_t){.lookup = l0_usm_lookup, .backend = (void *)ctx};
    const ze_device_compute_properties_t *c = &dev->compute;
    out->limits.max_group_items = c->maxTotalGroupSize;
    out->limits.max_group[0] = c->maxGroupSizeX;
    out->limits.max_group[1] = c->maxGroupSizeY;
    out->limits.max_group[2] = c->maxGroupSizeZ;
    out->limits.max_groups[0] = c->maxGroupCountX;
    out->limits.max_groups[1] = c->maxGroupCountY;
    out->limits.max_groups[2] = c->maxGroupCountZ;
}

/// The rule table's facts for a command of `q` (common/queue/command_rules.h).
static urc_rules_t queue_rules(const l0_queue_t *q) {
    urc_rules_t r;
    l0_rules(q->ctx, q->dev, &r);
    return r;
}

ur_result_t l0_enqueue_usm_fill(ur_queue_handle_t hQueue, void *pMem, size_t patternSize,
                                const void *pPattern, size_t size, uint32_t numEventsInWaitList,
                                const ur_event_handle_t *phEventWaitList,
                                ur_event_handle_t *phEvent) {
    l0_queue_t *q;
    ur_result_t res = queue_of(hQueue, &q);
    urc_rules_t rules;
    if (res == UR_RESULT_SUCCESS) {
        rules = queue_rules(q);
        res = urc_rule_usm_fill(&rules, pMem, patternSize, size);
    }
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_op_t op;
    res = l0_op_begin(q, UR_COMMAND_USM_FILL, numEventsInWaitList, phEventWaitList, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return l0_op_end(&op, append_fill(&op, pMem, pPattern, patternSize, size), false, phEvent);
}

ur_result_t l0_enqueue_usm_memcpy(ur_queue_handle_t hQueue, bool blocking, void *pDst,
                                  const void *pSrc, size_t size, uint32_t numEventsInWaitList,
                                  const ur_event_handle_t *phEventWaitList,
                                  ur_event_handle_t *phEvent) {
    l0_queue_t *q;
    ur_result_t res = queue_of(hQueue, &q);
    urc_rules_t rules;
    if (res == UR_RESULT_SUCCESS) {
        rules = queue_rules(q);
        res = urc_rule_usm_memcpy(&rules, pDst, pSrc, size);
    }
    return res != UR_RESULT_SUCCESS ? res
                                    : copy(q, UR_COMMAND_USM_MEMCPY, pDst, pSrc, size, blocking,
                                           numEventsInWaitList, phEventWaitList, phEvent);
}

// Prefetch and advice take no events in Level Zero: the command waits, acts, then signals.
static ur_result_t append_wait(l0_op_t *op) {
    if (op->nwaits == 0)
        return UR_RESULT_SUCCESS;
    return l0_ok(zeCommandListAppendWaitOnEvents(op->list, op->nwaits, op->waits),
                 "zeCommandListAppendWaitOnEvents");
}

static ur_result_t append_signal_event(l0_op_t *op) {
    return l0_ok(zeCommandListAppendSignalEvent(op->list, op->event->ze),
                 "zeCommandListAppendSignalEvent");
}

// Only host-to-device migration exists in Level Zero; the other direction is a no-op, as in UR.
ur_result_t l0_enqueue_usm_prefetch(ur_queue_handle_t hQueue, const void *pMem, size_t size,
                                    ur_usm_migration_flags_t flags, uint32_t numEventsInWaitList,
                                    const ur_event_handle_t *phEventWaitList,
                                    ur_event_handle_t *phEvent) {
    l0_queue_t *q;
    ur_result_t res = queue_of(hQueue, &q);
    urc_rules_t rules;
    if (res == UR_RESULT_SUCCESS) {
        rules = queue_rules(q);
        res = urc_rule_usm_hint(&rules, pMem, size);
    }
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_op_t op;
    res = l0_op_begin(q, UR_COMMAND_USM_PREFETCH, numEventsInWaitList, phEventWaitList, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = append_wait(&op);
    if (res == UR_RESULT_SUCCESS && !(flags & UR_USM_MIGRATION_FLAG_DEVICE_TO_HOST))
        res = l0_ok(zeCommandListAppendMemoryPrefetch(op.list, pMem, size),
                    "zeCommandListAppendMemoryPrefetch");
    if (res == UR_RESULT_SUCCESS)
        res = append_signal_event(&op);
    return l0_op_end(&op, res, false, phEvent);
}

// UR's adapter cast the flag set to one ze_memory_advice_t; each flag is its own advice here.
// Flags Level Zero has no advice for (accessed-by, coherence, DEFAULT) are hints left unused.
ur_result_t l0_enqueue_usm_advise(ur_queue_handle_t hQueue, const void *pMem, size_t size,
                                  ur_usm_advice_flags_t advice, ur_event_handle_t *phEvent) {
    static const struct {
        ur_usm_advice_flags_t flag;
        ze_memory_advice_t advice;
    } table[] = {
        {UR_USM_ADVICE_FLAG_SET_READ_MOSTLY, ZE_MEMORY_ADVICE_SET_READ_MOSTLY},
        {UR_USM_ADVICE_FLAG_CLEAR_READ_MOSTLY, ZE_MEMORY_ADVICE_CLEAR_READ_MOSTLY},
        {UR_USM_ADVICE_FLAG_SET_PREFERRED_LOCATION, ZE_MEMORY_ADVICE_SET_PREFERRED_LOCATION},
        {UR_USM_ADVICE_FLAG_CLEAR_PREFERRED_LOCATION, ZE_MEMORY_ADVICE_CLEAR_PREFERRED_LOCATION},
        {UR_USM_ADVICE_FLAG_SET_NON_ATOMIC_MOSTLY, ZE_MEMORY_ADVICE_SET_NON_ATOMIC_MOSTLY},
        {UR_USM_ADVICE_FLAG_CLEAR_NON_ATOMIC_MOSTLY, ZE_MEMORY_ADVICE_CLEAR_NON_ATOMIC_MOSTLY},
        {UR_USM_ADVICE_FLAG_BIAS_CACHED, ZE_MEMORY_ADVICE_BIAS_CACHED},
        {UR_USM_ADVICE_FLAG_BIAS_UNCACHED, ZE_MEMORY_ADVICE_BIAS_UNCACHED},
    };
    l0_queue_t *q;
    ur_result_t res = queue_of(hQueue, &q);
    urc_rules_t rules;
    if (res == UR_RESULT_SUCCESS) {
        rules = queue_rules(q);
        res = urc_rule_usm_hint(&rules, pMem, size);
    }
    if (res != UR_RESULT_SUCCESS)
        return res;
    l0_op_t op;
    res = l0_op_begin(q, UR_COMMAND_USM_ADVISE, 0, NULL, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = append_wait(&op);
    for (size_t i = 0; res == UR_RESULT_SUCCESS && i < sizeof table / sizeof table[0]; ++i)
        if (advice & table[i].flag)
            res = l0_ok(
                zeCommandListAppendMemAdvise(op.list, q->dev->ze, pMem, size, table[i].advice),
                "zeCommandListAppendMemAdvise");
    if (res == UR_RESULT_SUCCESS)
        res = append_signal_event(&op);
    return l0_op_end(&op, res, false, phEvent);
}

// Level Zero has no 2D fill (UR's adapter left it UNSUPPORTED_FEATURE): the rows are written
// out on the host, the pattern running on from row to row (common/memory/fill.h), and copied as one
// region.
ur_result_t l0_enqueue_usm_fill_2d(ur_queue_handle_t hQueue, void *pMem, size_t pitch,
                                   size_t patternSize, const void *pPattern, size_t width,
                                   size_t height, uint32_t numEventsInWaitList,
                                   const ur_event_handle_t *phEventWaitList,
                                   ur_event_handle_t *phEvent) {
    l0_queue_t *q;
    ur_result_t res = queue_of(hQueue, &q);
    urc_rules_t rules;
    if (res == UR_RESULT_SUCCESS) {
        rules = queue_rules(q);
        res = urc_rule_usm_fill_2d(&rules, pMem, pitch, patternSize, width, height);
    }
    if (res != UR_RESULT_SUCCESS)
        return res;
    ur_rect_region_t region = {width, height, 1};
    ur_rect_offset_t origin = {0, 0, 0};
    urc_rect_side_t d, s;
    size_t bytes;
    if (__builtin_mul_overflow(width, height, &bytes))
        return UR_RESULT_ERROR_INVALID_SIZE;
    res = l0_rect_side(&d, SIZE_MAX, origin, &region, pitch, 0);
    if (res == UR_RESULT_SUCCESS)
        res = l0_rect_side(&s, bytes, origin, &region, width, 0);
    if (res != UR_RESULT_SUCCESS)
        return res;
    uint8_t *rows = malloc(bytes);
    if (rows == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    urc_fill2d_expand(rows, pPattern, patternSize, width, height);
    l0_op_t op;
    res = l0_op_begin(q, UR_COMMAND_USM_FILL_2D, numEventsInWaitList, phEventWaitList, &op);
    if (res != UR_RESULT_SUCCESS) {
        free(rows);
        return res;
    }
    res = append_rect(&op, pMem, &d, (const char *)rows, &s, &region);
    if (res == UR_RESULT_SUCCESS)
        op.event->free_when_done = rows;
    else
        free(rows);
    return l0_op_end(&op, res, false, phEvent);
}

ur_result_t l0_enqueue_usm_memcpy_2d(ur_queue_handle_t hQueue, bool blocking, void *pDst,
                                     size_t dstPitch, const void *pSrc, size_t srcPitch,
                                     size_t width, size_t height, uint32_t numEventsInWaitList,
                                     const ur_event_handle_t *phEventWaitList,
                                     ur_event_handle_t *phEvent) {
    l0_queue_t *q;
    ur_result_t res = queue_of(hQueue, &q);
    urc_rules_t rules;
    if (res == UR_RESULT_SUCCESS) {
        rules = queue_rules(q);
        res = urc_rule_usm_memcpy_2d(&rules, pDst, dstPitch, pSrc, srcPitch, width, height);
    }
    if (res != UR_RESULT_SUCCESS)
        return res;
    ur_rect_region_t region = {width, height, 1};
    ur_rect_offset_t origin = {0, 0, 0};
    urc_rect_side_t d, s;
    res = l0_rect_side(&d, SIZE_MAX, origin, &region, dstPitch, 0);
    if (res == UR_RESULT_SUCCESS)
        res = l0_rect_side(&s, SIZE_MAX, origin, &region, srcPitch, 0);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (width == 0) // nothing to copy: the command still orders and signals
        return copy(q, UR_COMMAND_USM_MEMCPY_2D, pDst, pSrc, 0, blocking, numEventsInWaitList,
                    phEventWaitList, phEvent);
    return rect(q, UR_COMMAND_USM_MEMCPY_2D, pDst, &d, pSrc, &s, &region, blocking,
                numEventsInWaitList, phEventWaitList, phEvent);
}
