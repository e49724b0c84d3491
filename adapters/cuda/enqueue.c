// SPDX-License-Identifier: MIT
// urEnqueue*: waits and barriers, buffer and USM transfers, maps. Every command goes through
// cuda_op_begin/cuda_op_end (event.c), so wait lists, events and blocking behave alike, and a
// command that fails leaves no event behind. Kernel launches are in launch.c.
#include <stdlib.h>

#include "cuda_internal.h"
#include "memory/fill.h"
#include "memory/usm_range.h"
#include "queue/command_rules.h"

// ---- waits and barriers ----

// An in-order queue is one stream: waiting there orders everything after it already. An
// out-of-order queue joins its streams into the first, records a barrier event there, and
// makes every stream wait for it, so later commands on any stream run after the barrier.
ur_result_t cuda_enqueue_barrier(cuda_queue_t *q, ur_command_t command, uint32_t n,
                                 const ur_event_handle_t *events, ur_event_handle_t *phEvent) {
    cuda_op_t op;
    if (q->nstreams == 1) {
        ur_result_t res = cuda_op_begin(q, command, n, events, phEvent, &op);
        return res != UR_RESULT_SUCCESS ? res : cuda_op_end(&op, res, false, phEvent);
    }
    ur_result_t res = cuda_activate(q->dev);
    // Every stream takes part, so a barrier makes the ones not used yet.
    if (res == UR_RESULT_SUCCESS)
        res = cuda_queue_make_all_streams(q);
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUstream target = q->streams[0];
    pthread_mutex_lock(&q->barrier_lock);
    if (q->barrier_event == NULL)
        res = cuda_ok(cu.EventCreate(&q->barrier_event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    if (res == UR_RESULT_SUCCESS && q->barrier_tmp == NULL)
        res = cuda_ok(cu.EventCreate(&q->barrier_tmp, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    if (res == UR_RESULT_SUCCESS && n > 0)
        res = cuda_wait_events(target, n, events);
    // With no wait list the barrier waits for everything enqueued so far, on every stream.
    // One event serves all streams: cuStreamWaitEvent captures it when called.
    for (uint32_t i = 1; res == UR_RESULT_SUCCESS && n == 0 && i < q->nstreams; ++i) {
        res = cuda_ok(cu.EventRecord(q->barrier_tmp, q->streams[i]), "cuEventRecord");
        if (res == UR_RESULT_SUCCESS)
            res = cuda_ok(cu.StreamWaitEvent(target, q->barrier_tmp, 0), "cuStreamWaitEvent");
    }
    op.queue = q;
    op.stream = target;
    op.stream_index = 0;
    op.ticket = 0; // a barrier's event does not count towards the streams' finished commands
    op.event = NULL;
    if (res == UR_RESULT_SUCCESS && phEvent != NULL)
        res = cuda_event_create(q, target, command, &op.event);
    if (res == UR_RESULT_SUCCESS && op.event != NULL && op.event->profiling)
        res = cuda_ok(cu.EventRecord(op.event->start, target), "cuEventRecord");
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.EventRecord(q->barrier_event, target), "cuEventRecord");
    for (uint32_t i = 1; res == UR_RESULT_SUCCESS && i < q->nstreams; ++i)
        res = cuda_ok(cu.StreamWaitEvent(q->streams[i], q->barrier_event, 0), "cuStreamWaitEvent");
    res = cuda_op_end(&op, res, false, phEvent);
    pthread_mutex_unlock(&q->barrier_lock);
    return res;
}

// UR's CUDA adapter gives urEnqueueEventsWait barrier semantics too; so does this one.
ur_result_t cuda_enqueue_events_wait(ur_queue_handle_t hQueue, uint32_t numEventsInWaitList,
                                     const ur_event_handle_t *phEventWaitList,
                                     ur_event_handle_t *phEvent) {
    return cuda_enqueue_barrier(CUDA_QUEUE(hQueue), UR_COMMAND_EVENTS_WAIT, numEventsInWaitList,
                                phEventWaitList, phEvent);
}

ur_result_t cuda_enqueue_events_wait_with_barrier(ur_queue_handle_t hQueue,
                                                  uint32_t numEventsInWaitList,
                                                  const ur_event_handle_t *phEventWaitList,
                                                  ur_event_handle_t *phEvent) {
    return cuda_enqueue_barrier(CUDA_QUEUE(hQueue), UR_COMMAND_EVENTS_WAIT_WITH_BARRIER,
                                numEventsInWaitList, phEventWaitList, phEvent);
}

// The extension's properties ask for low-power events, which CUDA does not distinguish.
ur_result_t cuda_enqueue_events_wait_with_barrier_ext(
    ur_queue_handle_t hQueue, const ur_exp_enqueue_ext_properties_t *pProperties,
    uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,
    ur_event_handle_t *phEvent) {
    (void)pProperties;
    // `*phEvent` is compared with the live reusable events, never read through otherwise: for
    // other callers it is an output and may hold anything.
    urc_object_t *reusable = phEvent != NULL ? urc_reusable_claim(*phEvent) : NULL;
    if (reusable == NULL)
        return cuda_enqueue_events_wait_with_barrier(hQueue, numEventsInWaitList, phEventWaitList,
                                                     phEvent);
    cuda_event_t *e = (cuda_event_t *)reusable;
    ur_result_t res =
        cuda_event_signal(e, CUDA_QUEUE(hQueue), numEventsInWaitList, phEventWaitList);
    cuda_event_release_internal(e);
    return res;
}

// ---- buffers ----

static ur_result_t queue_and_buffer(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                                    cuda_queue_t **q, cuda_mem_t **m) {
    if (!cuda_is(hQueue, URC_KIND_QUEUE))
        return UR_RESULT_ERROR_INVALID_QUEUE;
    if (!cuda_is(hBuffer, URC_KIND_MEM))
        return UR_RESULT_ERROR_INVALID_MEM_OBJECT;
    *q = CUDA_QUEUE(hQueue);
    *m = CUDA_MEM(hBuffer);
    if ((*m)->is_image)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0, "an image is not a buffer");
    // A buffer of another context is usable where that context has the queue's device: every
    // context of a device shares its primary CUDA context (UR's CTS copies along a chain of
    // contexts, urEventWaitTest.WithCrossContextDependencies).
    if ((*m)->ctx != (*q)->ctx && !cuda_context_has_device((*m)->ctx, (*q)->dev))
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the buffer's context does not have the queue's device");
    return UR_RESULT_SUCCESS;
}

// Begins a command on [offset, offset + size) of one buffer, after checking the range.
/// A buffer command's checks and start; `pattern` is a fill's pattern size (0 for a copy).
static ur_result_t buffer_op_begin(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer, size_t offset,
                                   size_t size, size_t pattern, ur_command_t command, uint32_t n,
                                   const ur_event_handle_t *events, ur_event_handle_t *phEvent,
                                   cuda_mem_t **m, cuda_op_t *op) {
    cuda_queue_t *q;
    ur_result_t res = queue_and_buffer(hQueue, hBuffer, &q, m);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = pattern != 0 ? urc_rule_buffer_fill((*m)->size, offset, pattern, size)
                       : urc_rule_buffer_range((*m)->size, offset, size);
    return res != UR_RESULT_SUCCESS ? res : cuda_op_begin(q, command, n, events, phEvent, op);
}

ur_result_t cuda_enqueue_mem_buffer_read(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                                         bool blockingRead, size_t offset, size_t size, void *pDst,
                                         uint32_t numEventsInWaitList,
                                         const ur_event_handle_t *phEventWaitList,
                                         ur_event_handle_t *phEvent) {
    cuda_mem_t *m;
    cuda_op_t op;
    ur_result_t res = buffer_op_begin(hQueue, hBuffer, offset, size, 0, UR_COMMAND_MEM_BUFFER_READ,
                                      numEventsInWaitList, phEventWaitList, phEvent, &m, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (size > 0)
        res = cuda_ok(cu.MemcpyDtoHAsync(pDst, m->ptr + offset, size, op.stream),
                      "cuMemcpyDtoHAsync");
    return cuda_op_end(&op, res, blockingRead, phEvent);
}

ur_result_t cuda_enqueue_mem_buffer_write(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                                          bool blockingWrite, size_t offset, size_t size,
                                          const void *pSrc, uint32_t numEventsInWaitList,
                                          const ur_event_handle_t *phEventWaitList,
                                          ur_event_handle_t *phEvent) {
    cuda_mem_t *m;
    cuda_op_t op;
    ur_result_t res = buffer_op_begin(hQueue, hBuffer, offset, size, 0, UR_COMMAND_MEM_BUFFER_WRITE,
                                      numEventsInWaitList, phEventWaitList, phEvent, &m, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (size > 0)
        res = cuda_ok(cu.MemcpyHtoDAsync(m->ptr + offset, pSrc, size, op.stream),
                      "cuMemcpyHtoDAsync");
    return cuda_op_end(&op, res, blockingWrite, phEvent);
}

ur_result_t cuda_enqueue_mem_buffer_copy(ur_queue_handle_t hQueue, ur_mem_handle_t hBufferSrc,
                                         ur_mem_handle_t hBufferDst, size_t srcOffset,
                                         size_t dstOffset, size_t size,
                                         uint32_t numEventsInWaitList,
                                         const ur_event_handle_t *phEventWaitList,
                                         ur_event_handle_t *phEvent) {
    cuda_queue_t *q;
    cuda_mem_t *src, *dst;
    ur_result_t res = queue_and_buffer(hQueue, hBufferSrc, &q, &src);
    if (res == UR_RESULT_SUCCESS)
        res = queue_and_buffer(hQueue, hBufferDst, &q, &dst);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (!urc_range_fits(src->size, srcOffset, size) || !urc_range_fits(dst->size, dstOffset, size))
        return UR_RESULT_ERROR_INVALID_SIZE;
    cuda_op_t op;
    res = cuda_op_begin(q, UR_COMMAND_MEM_BUFFER_COPY, numEventsInWaitList, phEventWaitList,
                        phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (size > 0)
        res =
            cuda_ok(cu.MemcpyDtoDAsync(dst->ptr + dstOffset, src->ptr + srcOffset, size, op.stream),
                    "cuMemcpyDtoDAsync");
    return cuda_op_end(&op, res, false, phEvent);
}

// ---- rectangular copies ----

// One side of a rectangular copy: where it is, its pitches, and how many bytes it may touch.
typedef struct rect_side_t {
    CUmemorytype type;
    CUdeviceptr device;
    const void *host;
    ur_rect_offset_t origin;
    size_t row, slice;
    size_t limit; // bytes addressable from the base (SIZE_MAX for host memory)
} rect_side_t;

// Applies the default pitches (row = width, slice = row * height) and checks that the region
// lies within the side.
static ur_result_t rect_check(rect_side_t *s, const ur_rect_region_t *r) {
    urc_rect_side_t checked;
    ur_result_t res = urc_rule_rect(&checked, s->origin, r, s->row, s->slice, s->limit);
    s->row = checked.row;
    s->slice = checked.slice;
    return res;
}

static void rect_side_2d(const rect_side_t *s, size_t z, CUmemorytype *type, CUdeviceptr *dev,
                         const void **host, size_t *x, size_t *y, size_t *pitch) {
    size_t base = ((size_t)s->origin.z + z) * s->slice;
    *type = s->type;
    *dev = s->type == CU_MEMORYTYPE_DEVICE ? s->device + base : 0;
    *host = s->type == CU_MEMORYTYPE_HOST ? (const char *)s->host + base : NULL;
    *x = (size_t)s->origin.x;
    *y = (size_t)s->origin.y;
    *pitch = s->row;
}

static ur_result_t rect_copy(CUstream stream, rect_side_t *src, rect_side_t *dst,
                             const ur_rect_region_t *r) {
    if (r->width == 0 || r->height == 0 || r->depth == 0)
        return UR_RESULT_ERROR_INVALID_SIZE;
    ur_result_t res = rect_check(src, r);
    if (res == UR_RESULT_SUCCESS)
        res = rect_check(dst, r);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // cuMemcpy3D describes a slice as a whole number of rows; other pitches go slice by slice.
    if (src->slice % src->row == 0 && dst->slice % dst->row == 0) {
        CUDA_MEMCPY3D p;
        memset(&p, 0, sizeof p);
        p.srcMemoryType = src->type;
        p.srcDevice = src->device;
        p.srcHost = src->host;
        p.srcXInBytes = (size_t)src->origin.x;
        p.srcY = (size_t)src->origin.y;
        p.srcZ = (size_t)src->origin.z;
        p.srcPitch = src->row;
        p.srcHeight = src->slice / src->row;
        p.dstMemoryType = dst->type;
        p.dstDevice = dst->device;
        p.dstHost = (void *)dst->host;
        p.dstXInBytes = (size_t)dst->origin.x;
        p.dstY = (size_t)dst->origin.y;
        p.dstZ = (size_t)dst->origin.z;
        p.dstPitch = dst->row;
        p.dstHeight = dst->slice / dst->row;
        p.WidthInBytes = (size_t)r->width;
        p.Height = (size_t)r->height;
        p.Depth = (size_t)r->depth;
        return cuda_ok(cu.Memcpy3DAsync(&p, stream), "cuMemcpy3DAsync");
    }
    for (size_t z = 0; z < r->depth && res == UR_RESULT_SUCCESS; ++z) {
        CUDA_MEMCPY2D p;
        memset(&p, 0, sizeof p);
        const void *dst_host;
        rect_side_2d(src, z, &p.srcMemoryType, &p.srcDevice, &p.srcHost, &p.srcXInBytes, &p.srcY,
                     &p.srcPitch);
        rect_side_2d(dst, z, &p.dstMemoryType, &p.dstDevice, &dst_host, &p.dstXInBytes, &p.dstY,
                     &p.dstPitch);
        p.dstHost = (void *)dst_host;
        p.WidthInBytes = (size_t)r->width;
        p.Height = (size_t)r->height;
        res = cuda_ok(cu.Memcpy2DAsync(&p, stream), "cuMemcpy2DAsync");
    }
    return res;
}

static rect_side_t buffer_side(const cuda_mem_t *m, ur_rect_offset_t origin, size_t row,
                               size_t slice) {
    rect_side_t s = {CU_MEMORYTYPE_DEVICE, m->ptr, NULL, origin, row, slice, m->size};
    return s;
}

static rect_side_t host_side(const void *host, ur_rect_offset_t origin, size_t row, size_t slice) {
    rect_side_t s = {CU_MEMORYTYPE_HOST,
                     0,
                     host,
                     origin,
                     row,
                     slice,
                     urc_usm_host_limit(urc_usm_lookup_cached, &cuda_usm_lookups, host)};
    return s;
}

static ur_result_t enqueue_rect(cuda_queue_t *q, ur_command_t command, rect_side_t *src,
                                rect_side_t *dst, ur_rect_region_t region, bool blocking,
                                uint32_t n, const ur_event_handle_t *events,
                                ur_event_handle_t *phEvent) {
    // Validate before enqueuing anything, so a bad region creates no event.
    rect_side_t s = *src, d = *dst;
    if (region.width == 0 || region.height == 0 || region.depth == 0 ||
        rect_check(&s, &region) != UR_RESULT_SUCCESS ||
        rect_check(&d, &region) != UR_RESULT_SUCCESS)
        return UR_RESULT_ERROR_INVALID_SIZE;
    cuda_op_t op;
    ur_result_t res = cuda_op_begin(q, command, n, events, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = rect_copy(op.stream, src, dst, &region);
    return cuda_op_end(&op, res, blocking, phEvent);
}

/// urEnqueueMemBufferReadRect (`write` false: buffer to host) and WriteRect.
static ur_result_t
transfer_rect(bool write, ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer, bool blocking,
              ur_rect_offset_t bufferOrigin, ur_rect_offset_t hostOrigin, ur_rect_region_t region,
              size_t bufferRowPitch, size_t bufferSlicePitch, size_t hostRowPitch,
              size_t hostSlicePitch, void *host, uint32_t numEventsInWaitList,
              const ur_event_handle_t *phEventWaitList, ur_event_handle_t *phEvent) {
    cuda_queue_t *q;
    cuda_mem_t *m;
    ur_result_t res = queue_and_buffer(hQueue, hBuffer, &q, &m);
    if (res != UR_RESULT_SUCCESS)
        return res;
    rect_side_t buffer = buffer_side(m, bufferOrigin, bufferRowPitch, bufferSlicePitch);
    rect_side_t mem = host_side(host, hostOrigin, hostRowPitch, hostSlicePitch);
    return enqueue_rect(q,
                        write ? UR_COMMAND_MEM_BUFFER_WRITE_RECT : UR_COMMAND_MEM_BUFFER_READ_RECT,
                        write ? &mem : &buffer, write ? &buffer : &mem, region, blocking,
                        numEventsInWaitList, phEventWaitList, phEvent);
}

URC_BUFFER_RECT_READ_WRITE(cuda, transfer_rect)

ur_result_t cuda_enqueue_mem_buffer_copy_rect(
    ur_queue_handle_t hQueue, ur_mem_handle_t hBufferSrc, ur_mem_handle_t hBufferDst,
    ur_rect_offset_t srcOrigin, ur_rect_offset_t dstOrigin, ur_rect_region_t region,
    size_t srcRowPitch, size_t srcSlicePitch, size_t dstRowPitch, size_t dstSlicePitch,
    uint32_t numEventsInWaitList, const ur_event_handle_t *phEventWaitList,
    ur_event_handle_t *phEvent) {
    cuda_queue_t *q;
    cuda_mem_t *ms, *md;
    ur_result_t res = queue_and_buffer(hQueue, hBufferSrc, &q, &ms);
    if (res == UR_RESULT_SUCCESS)
        res = queue_and_buffer(hQueue, hBufferDst, &q, &md);
    if (res != UR_RESULT_SUCCESS)
        return res;
    rect_side_t src = buffer_side(ms, srcOrigin, srcRowPitch, srcSlicePitch);
    rect_side_t dst = buffer_side(md, dstOrigin, dstRowPitch, dstSlicePitch);
    return enqueue_rect(q, UR_COMMAND_MEM_BUFFER_COPY_RECT, &src, &dst, region, false,
                        numEventsInWaitList, phEventWaitList, phEvent);
}

// ---- fills ----

// CUDA sets 1, 2 or 4-byte values. A longer pattern is written word by word: one strided
// 2D memset per word of the pattern (UR's approach), or one plain memset when every word of
// the pattern is the same. The word is the largest that divides the pattern and the address.
static ur_result_t fill(CUstream s, CUdeviceptr dst, const void *pattern, size_t psize,
                        size_t size) {
    const uint8_t *pat = pattern;
    size_t word = 4;
    while (word > 1 && (psize % word != 0 || dst % word != 0))
        word /= 2;
    size_t per_pattern = psize / word, repeats = size / psize;
    bool uniform = true;
    for (size_t i = 1; uniform && i < per_pattern; ++i)
        uniform = memcmp(pat + i * word, pat, word) == 0;
    size_t steps = uniform ? 1 : per_pattern;
    ur_result_t res = UR_RESULT_SUCCESS;
    for (size_t i = 0; i < steps && res == UR_RESULT_SUCCESS; ++i) {
        uint32_t v32 = 0;
        uint16_t v16 = 0;
        uint8_t v8 = pat[i * word];
        if (word == 4)
            memcpy(&v32, pat + i * word, sizeof v32);
        else if (word == 2)
            memcpy(&v16, pat + i * word, sizeof v16);
        CUdeviceptr at = dst + i * word;
        CUresult r;
        if (uniform) {
            r = word == 4   ? cu.MemsetD32Async(at, v32, size / 4, s)
                : word == 2 ? cu.MemsetD16Async(at, v16, size / 2, s)
                            : cu.MemsetD8Async(at, v8, size, s);
        } else {
            r = word == 4   ? cu.MemsetD2D32Async(at, psize, v32, 1, repeats, s)
                : word == 2 ? cu.MemsetD2D16Async(at, psize, v16, 1, repeats, s)
                            : cu.MemsetD2D8Async(at, psize, v8, 1, repeats, s);
        }
        res = cuda_ok(r, "cuMemset");
    }
    return res;
}

ur_result_t cuda_enqueue_mem_buffer_fill(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                                         const void *pPattern, size_t patternSize, size_t offset,
                                         size_t size, uint32_t numEventsInWaitList,
                                         const ur_event_handle_t *phEventWaitList,
                                         ur_event_handle_t *phEvent) {
    cuda_mem_t *m;
    cuda_op_t op;
    ur_result_t res =
        buffer_op_begin(hQueue, hBuffer, offset, size, patternSize, UR_COMMAND_MEM_BUFFER_FILL,
                        numEventsInWaitList, phEventWaitList, phEvent, &m, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = fill(op.stream, m->ptr + offset, pPattern, patternSize, size);
    return cuda_op_end(&op, res, false, phEvent);
}

// ---- maps ----

ur_result_t cuda_enqueue_mem_buffer_map(ur_queue_handle_t hQueue, ur_mem_handle_t hBuffer,
                                        bool blockingMap, ur_map_flags_t mapFlags, size_t offset,
                                        size_t size, uint32_t numEventsInWaitList,
                                        const ur_event_handle_t *phEventWaitList,
                                        ur_event_handle_t *phEvent, void **ppRetMap) {
    cuda_queue_t *q;
    cuda_mem_t *m;
    ur_result_t res = queue_and_buffer(hQueue, hBuffer, &q, &m);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (!urc_range_fits(m->size, offset, size))
        return UR_RESULT_ERROR_INVALID_SIZE;
    // A buffer in host memory is mapped in place; a device buffer through a host copy.
    urc_mapping_t *map = urc_mapping_new(offset, size, mapFlags,
                                         m->host != NULL ? (char *)m->host + offset : NULL, false);
    if (map == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    cuda_op_t op;
    res = cuda_op_begin(q, UR_COMMAND_MEM_BUFFER_MAP, numEventsInWaitList, phEventWaitList, phEvent,
                        &op);
    if (res == UR_RESULT_SUCCESS) {
        if (size > 0 && urc_mapping_reads_in(map))
            res = cuda_ok(cu.MemcpyDtoHAsync(map->ptr, m->ptr + offset, size, op.stream),
                          "cuMemcpyDtoHAsync");
        res = cuda_op_end(&op, res, blockingMap, phEvent);
    }
    return urc_mappings_finish_map(&m->maps, map, res, ppRetMap);
}

ur_result_t cuda_enqueue_mem_unmap(ur_queue_handle_t hQueue, ur_mem_handle_t hMem, void *pMappedPtr,
                                   uint32_t numEventsInWaitList,
                                   const ur_event_handle_t *phEventWaitList,
                                   ur_event_handle_t *phEvent) {
    cuda_queue_t *q;
    cuda_mem_t *m;
    ur_result_t res = queue_and_buffer(hQueue, hMem, &q, &m);
    if (res != UR_RESULT_SUCCESS)
        return res;
    urc_mapping_t *map;
    res = urc_mappings_take_for_unmap(&m->maps, pMappedPtr, &map);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_op_t op;
    res =
        cuda_op_begin(q, UR_COMMAND_MEM_UNMAP, numEventsInWaitList, phEventWaitList, phEvent, &op);
    if (res == UR_RESULT_SUCCESS) {
        // From pageable memory the copy returns once CUDA holds the data, so the staging
        // copy can be freed right after.
        if (map->size > 0 && urc_mapping_writes_back(map))
            res = cuda_ok(cu.MemcpyHtoDAsync(m->ptr + map->offset, map->ptr, map->size, op.stream),
                          "cuMemcpyHtoDAsync");
        res = cuda_op_end(&op, res, false, phEvent);
    }
    return urc_mappings_finish_unmap(&m->maps, map, res);
}

// ---- USM ----

// The rule table (common/queue/command_rules.h) is checked before the queue is touched: a
// range past its allocation never reaches the driver. Pointer queries create nothing in the
// current context, so this thread's record of having made the device's context current is
// enough (a unified address means the same in any).
static ur_result_t queue_rules(ur_queue_handle_t q, urc_rules_t *r) {
    cuda_rules(CUDA_QUEUE(q)->dev, r);
    return cuda_activate_cached(CUDA_QUEUE(q)->dev);
}

ur_result_t cuda_enqueue_usm_fill(ur_queue_handle_t hQueue, void *pMem, size_t patternSize,
                                  const void *pPattern, size_t size, uint32_t numEventsInWaitList,
                                  const ur_event_handle_t *phEventWaitList,
                                  ur_event_handle_t *phEvent) {
    urc_rules_t rules;
    ur_result_t res = queue_rules(hQueue, &rules);
    if (res == UR_RESULT_SUCCESS)
        res = urc_rule_usm_fill(&rules, pMem, patternSize, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_op_t op;
    res = cuda_op_begin(CUDA_QUEUE(hQueue), UR_COMMAND_USM_FILL, numEventsInWaitList,
                        phEventWaitList, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = fill(op.stream, (CUdeviceptr)(uintptr_t)pMem, pPattern, patternSize, size);
    return cuda_op_end(&op, res, false, phEvent);
}

static ur_result_t usm_side(const void *ptr, CUmemorytype *type, CUdeviceptr *dev,
                            const void **host);

ur_result_t cuda_enqueue_usm_fill_2d(ur_queue_handle_t hQueue, void *pMem, size_t pitch,
                                     size_t patternSize, const void *pPattern, size_t width,
                                     size_t height, uint32_t numEventsInWaitList,
                                     const ur_event_handle_t *phEventWaitList,
                                     ur_event_handle_t *phEvent) {
    urc_rules_t rules;
    ur_result_t res = queue_rules(hQueue, &rules);
    if (res == UR_RESULT_SUCCESS)
        res = urc_rule_usm_fill_2d(&rules, pMem, pitch, patternSize, width, height);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // The pattern runs on from row to row (common/memory/fill.h). When rows do not each start it
    // afresh, the region is written out on the host and copied: CUDA takes a pageable source's
    // bytes before an asynchronous copy returns, so the image is freed right after.
    uint8_t *image = NULL;
    if (!urc_fill2d_rows_whole(width, patternSize)) {
        image = urc_fill2d_image(pPattern, patternSize, width, height);
        if (image == NULL)
            return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    cuda_op_t op;
    res = cuda_op_begin(CUDA_QUEUE(hQueue), UR_COMMAND_USM_FILL_2D, numEventsInWaitList,
                        phEventWaitList, phEvent, &op);
    if (res != UR_RESULT_SUCCESS) {
        free(image);
        return res;
    }
    CUdeviceptr base = (CUdeviceptr)(uintptr_t)pMem;
    const uint8_t *pat = pPattern;
    if (image != NULL) {
        CUDA_MEMCPY2D p;
        memset(&p, 0, sizeof p);
        const void *dst_host = NULL;
        res = usm_side(pMem, &p.dstMemoryType, &p.dstDevice, &dst_host);
        p.dstHost = (void *)dst_host;
        p.dstPitch = pitch;
        p.srcMemoryType = CU_MEMORYTYPE_HOST;
        p.srcHost = image;
        p.srcPitch = width;
        p.WidthInBytes = width;
        p.Height = height;
        if (res == UR_RESULT_SUCCESS)
            res = cuda_ok(cu.Memcpy2DAsync(&p, op.stream), "cuMemcpy2DAsync");
        free(image);
    } else if (patternSize == 1) {
        res = cuda_ok(cu.MemsetD2D8Async(base, pitch, pat[0], width, height, op.stream),
                      "cuMemsetD2D8Async");
    } else {
        for (size_t row = 0; row < height && res == UR_RESULT_SUCCESS; ++row)
            res = fill(op.stream, base + row * pitch, pPattern, patternSize, width);
    }
    return cuda_op_end(&op, res, false, phEvent);
}

// The everyday copy (SYCL's, blocking or not): no wait list, no profiling. Nothing asks the
// driver which context is current: the copy is the first call that needs the device's, and
// when it fails for the want of it (the application switched contexts since this thread last
// made it current) it is made once more in the right one. The event's CUevent comes from the
// device's pool (made in the right context when the pool is empty).
static ur_result_t usm_memcpy_plain(cuda_queue_t *q, bool blocking, void *pDst, const void *pSrc,
                                    size_t size, ur_event_handle_t *phEvent) {
    cuda_op_t op = {.queue = q};
    op.stream_index = cuda_queue_pick(q, &op.ticket);
    ur_result_t res = cuda_queue_stream_at(q, op.stream_index, &op.stream);
    if (res == UR_RESULT_SUCCESS && phEvent != NULL) {
        res = cuda_event_create(q, op.stream, UR_COMMAND_USM_MEMCPY, &op.event);
        if (res == UR_RESULT_SUCCESS) {
            op.event->stream_index = op.stream_index;
            op.event->ticket = op.ticket;
        }
    }
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUdeviceptr dst = (CUdeviceptr)(uintptr_t)pDst, src = (CUdeviceptr)(uintptr_t)pSrc;
    CUresult r = cu.MemcpyAsync(dst, src, size, op.stream);
    if (r != CUDA_SUCCESS && cuda_activate_recheck(q->dev, r))
        r = cu.MemcpyAsync(dst, src, size, op.stream);
    return cuda_op_end(&op, cuda_ok(r, "cuMemcpyAsync"), blocking, phEvent);
}

ur_result_t cuda_enqueue_usm_memcpy(ur_queue_handle_t hQueue, bool blocking, void *pDst,
                                    const void *pSrc, size_t size, uint32_t numEventsInWaitList,
                                    const ur_event_handle_t *phEventWaitList,
                                    ur_event_handle_t *phEvent) {
    urc_rules_t rules;
    ur_result_t res = queue_rules(hQueue, &rules);
    if (res == UR_RESULT_SUCCESS)
        res = urc_rule_usm_memcpy(&rules, pDst, pSrc, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (numEventsInWaitList == 0 && size > 0 && !CUDA_QUEUE(hQueue)->profiling)
        return usm_memcpy_plain(CUDA_QUEUE(hQueue), blocking, pDst, pSrc, size, phEvent);
    cuda_op_t op;
    res = cuda_op_begin(CUDA_QUEUE(hQueue), UR_COMMAND_USM_MEMCPY, numEventsInWaitList,
                        phEventWaitList, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // Unified addressing tells the driver which side each pointer is on.
    if (size > 0)
        res = cuda_ok(cu.MemcpyAsync((CUdeviceptr)(uintptr_t)pDst, (CUdeviceptr)(uintptr_t)pSrc,
                                     size, op.stream),
                      "cuMemcpyAsync");
    return cuda_op_end(&op, res, blocking, phEvent);
}

// Memory the driver does not know (malloc'ed host memory) is described as host memory.
static ur_result_t usm_side(const void *ptr, CUmemorytype *type, CUdeviceptr *dev,
                            const void **host) {
    cuda_pointer_t info;
    ur_result_t res = cuda_pointer_query(ptr, &info);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (info.memory_type == CU_MEMORYTYPE_DEVICE || info.managed) {
        *type = CU_MEMORYTYPE_DEVICE;
        *dev = (CUdeviceptr)(uintptr_t)ptr;
        *host = NULL;
    } else {
        *type = CU_MEMORYTYPE_HOST;
        *dev = 0;
        *host = ptr;
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_enqueue_usm_memcpy_2d(ur_queue_handle_t hQueue, bool blocking, void *pDst,
                                       size_t dstPitch, const void *pSrc, size_t srcPitch,
                                       size_t width, size_t height, uint32_t numEventsInWaitList,
                                       const ur_event_handle_t *phEventWaitList,
                                       ur_event_handle_t *phEvent) {
    urc_rules_t rules;
    ur_result_t res = queue_rules(hQueue, &rules);
    if (res == UR_RESULT_SUCCESS)
        res = urc_rule_usm_memcpy_2d(&rules, pDst, dstPitch, pSrc, srcPitch, width, height);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_op_t op;
    res = cuda_op_begin(CUDA_QUEUE(hQueue), UR_COMMAND_USM_MEMCPY_2D, numEventsInWaitList,
                        phEventWaitList, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUDA_MEMCPY2D p;
    memset(&p, 0, sizeof p);
    const void *dst_host = NULL;
    res = usm_side(pSrc, &p.srcMemoryType, &p.srcDevice, &p.srcHost);
    if (res == UR_RESULT_SUCCESS)
        res = usm_side(pDst, &p.dstMemoryType, &p.dstDevice, &dst_host);
    p.dstHost = (void *)dst_host;
    p.srcPitch = srcPitch;
    p.dstPitch = dstPitch;
    p.WidthInBytes = width;
    p.Height = height;
    if (res == UR_RESULT_SUCCESS && width > 0 && height > 0)
        res = cuda_ok(cu.Memcpy2DAsync(&p, op.stream), "cuMemcpy2DAsync");
    return cuda_op_end(&op, res, blocking, phEvent);
}

// Prefetch and advice only mean something for managed memory on a device with concurrent
// managed access; elsewhere they are accepted as the hints they are and do nothing.
static ur_result_t managed_range(const cuda_device_t *dev, const void *ptr, size_t size,
                                 bool *applies) {
    cuda_pointer_t info;
    ur_result_t res = cuda_pointer_query(ptr, &info);
    if (res != UR_RESULT_SUCCESS)
        return res;
    urc_rules_t rules;
    cuda_rules(dev, &rules);
    res = urc_rule_usm_hint(&rules, ptr, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    *applies = info.managed && dev->concurrent_managed;
    return UR_RESULT_SUCCESS;
}

static CUmemLocation location(const cuda_device_t *dev, bool host) {
    CUmemLocation loc;
    memset(&loc, 0, sizeof loc);
    loc.type = host ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE;
    loc.id = host ? 0 : dev->cu;
    return loc;
}

ur_result_t cuda_enqueue_usm_prefetch(ur_queue_handle_t hQueue, const void *pMem, size_t size,
                                      ur_usm_migration_flags_t flags, uint32_t numEventsInWaitList,
                                      const ur_event_handle_t *phEventWaitList,
                                      ur_event_handle_t *phEvent) {
    if (flags != UR_USM_MIGRATION_FLAG_HOST_TO_DEVICE &&
        flags != UR_USM_MIGRATION_FLAG_DEVICE_TO_HOST)
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    bool applies = false;
    ur_result_t res = cuda_activate(q->dev);
    if (res == UR_RESULT_SUCCESS)
        res = managed_range(q->dev, pMem, size, &applies);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_op_t op;
    res = cuda_op_begin(q, UR_COMMAND_USM_PREFETCH, numEventsInWaitList, phEventWaitList, phEvent,
                        &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    bool to_host = flags == UR_USM_MIGRATION_FLAG_DEVICE_TO_HOST;
    CUdeviceptr p = (CUdeviceptr)(uintptr_t)pMem;
    if (applies && cu.MemPrefetchAsync_v2 != NULL)
        res = cuda_ok(cu.MemPrefetchAsync_v2(p, size, location(q->dev, to_host), 0, op.stream),
                      "cuMemPrefetchAsync");
    else if (applies && cu.MemPrefetchAsync_v1 != NULL)
        res = cuda_ok(
            cu.MemPrefetchAsync_v1(p, size, to_host ? CU_DEVICE_CPU : q->dev->cu, op.stream),
            "cuMemPrefetchAsync");
    return cuda_op_end(&op, res, false, phEvent);
}

static ur_result_t advise(CUdeviceptr p, size_t size, CUmem_advise advice, const cuda_device_t *dev,
                          bool host) {
    if (cu.MemAdvise_v2 != NULL)
        return cuda_ok(cu.MemAdvise_v2(p, size, advice, location(dev, host)), "cuMemAdvise");
    if (cu.MemAdvise_v1 != NULL)
        return cuda_ok(cu.MemAdvise_v1(p, size, advice, host ? CU_DEVICE_CPU : dev->cu),
                       "cuMemAdvise");
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_enqueue_usm_advise(ur_queue_handle_t hQueue, const void *pMem, size_t size,
                                    ur_usm_advice_flags_t advice, ur_event_handle_t *phEvent) {
    static const struct {
        ur_usm_advice_flags_t flag;
        CUmem_advise advice;
        bool host;
    } table[] = {
        {UR_USM_ADVICE_FLAG_SET_READ_MOSTLY, CU_MEM_ADVISE_SET_READ_MOSTLY, false},
        {UR_USM_ADVICE_FLAG_CLEAR_READ_MOSTLY, CU_MEM_ADVISE_UNSET_READ_MOSTLY, false},
        {UR_USM_ADVICE_FLAG_SET_PREFERRED_LOCATION, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, false},
        {UR_USM_ADVICE_FLAG_CLEAR_PREFERRED_LOCATION, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION,
         false},
        {UR_USM_ADVICE_FLAG_SET_ACCESSED_BY_DEVICE, CU_MEM_ADVISE_SET_ACCESSED_BY, false},
        {UR_USM_ADVICE_FLAG_CLEAR_ACCESSED_BY_DEVICE, CU_MEM_ADVISE_UNSET_ACCESSED_BY, false},
        {UR_USM_ADVICE_FLAG_SET_PREFERRED_LOCATION_HOST, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
         true},
        {UR_USM_ADVICE_FLAG_CLEAR_PREFERRED_LOCATION_HOST, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION,
         true},
        {UR_USM_ADVICE_FLAG_SET_ACCESSED_BY_HOST, CU_MEM_ADVISE_SET_ACCESSED_BY, true},
        {UR_USM_ADVICE_FLAG_CLEAR_ACCESSED_BY_HOST, CU_MEM_ADVISE_UNSET_ACCESSED_BY, true},
    };
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    bool applies = false;
    ur_result_t res = cuda_activate(q->dev);
    if (res == UR_RESULT_SUCCESS)
        res = managed_range(q->dev, pMem, size, &applies);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_op_t op;
    res = cuda_op_begin(q, UR_COMMAND_USM_ADVISE, 0, NULL, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUdeviceptr p = (CUdeviceptr)(uintptr_t)pMem;
    if (applies && (advice & UR_USM_ADVICE_FLAG_DEFAULT)) {
        // DEFAULT undoes every advice given for the range.
        res = advise(p, size, CU_MEM_ADVISE_UNSET_READ_MOSTLY, q->dev, false);
        if (res == UR_RESULT_SUCCESS)
            res = advise(p, size, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, q->dev, false);
        if (res == UR_RESULT_SUCCESS)
            res = advise(p, size, CU_MEM_ADVISE_UNSET_ACCESSED_BY, q->dev, false);
    } else if (applies) {
        // Flags CUDA has no advice for (non-atomic, cache bias, coherence) are ignored.
        for (size_t i = 0; i < sizeof table / sizeof table[0] && res == UR_RESULT_SUCCESS; ++i)
            if (advice & table[i].flag)
                res = advise(p, size, table[i].advice, q->dev, table[i].host);
    }
    return cuda_op_end(&op, res, false, phEvent);
}
