// SPDX-License-Identifier: MIT
#include "queue/command_append.h"

#include <stdlib.h>

#include "core/alloc.h"
#include "core/error.h"
#include "queue/command_rules.h"

/// The command buffer's core and rule facts, with the adapter's preparation for USM lookups made.
static ur_result_t begin(const urc_append_ops_t *ops, ur_exp_command_buffer_handle_t h,
                         const urc_rules_t **rules) {
    urc_cb_t *cb = ops->buffer(h);
    if (cb == NULL)
        return UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP;
    *rules = &cb->rules;
    return ops->prepare != NULL ? ops->prepare(h) : UR_RESULT_SUCCESS;
}

/// A buffer of the adapter and of the command buffer's context: its address and size.
static ur_result_t mem_of(const urc_append_ops_t *ops, ur_exp_command_buffer_handle_t h,
                          ur_mem_handle_t m, void **base, size_t *size) {
    const void *context = NULL;
    if (!ops->mem(m, base, size, &context))
        return UR_RESULT_ERROR_INVALID_MEM_OBJECT;
    if (context != ops->buffer(h)->context)
        return urc_error_set(UR_RESULT_ERROR_INVALID_MEM_OBJECT, 0,
                             "the buffer belongs to another context than the command buffer");
    return UR_RESULT_SUCCESS;
}

ur_result_t urc_append_usm_memcpy(const urc_append_ops_t *ops, ur_exp_command_buffer_handle_t h,
                                  void *dst, const void *src, size_t size,
                                  const urc_append_sync_t *s) {
    const urc_rules_t *r;
    ur_result_t res = begin(ops, h, &r);
    if (res == UR_RESULT_SUCCESS)
        res = urc_rule_usm_memcpy(r, dst, src, size);
    return res != UR_RESULT_SUCCESS ? res : ops->copy(h, dst, src, size, s);
}

ur_result_t urc_append_usm_fill(const urc_append_ops_t *ops, ur_exp_command_buffer_handle_t h,
                                void *ptr, const void *pattern, size_t pattern_size, size_t size,
                                const urc_append_sync_t *s) {
    const urc_rules_t *r;
    ur_result_t res = begin(ops, h, &r);
    if (res == UR_RESULT_SUCCESS)
        res = urc_rule_usm_fill(r, ptr, pattern_size, size);
    return res != UR_RESULT_SUCCESS ? res : ops->fill(h, ptr, pattern, pattern_size, size, s);
}

ur_result_t urc_append_usm_hint(const urc_append_ops_t *ops, ur_exp_command_buffer_handle_t h,
                                const void *ptr, size_t size, const urc_append_sync_t *s) {
    const urc_rules_t *r;
    ur_result_t res = begin(ops, h, &r);
    if (res == UR_RESULT_SUCCESS)
        res = urc_rule_usm_hint(r, ptr, size);
    return res != UR_RESULT_SUCCESS ? res : ops->hint(h, s);
}

/// A buffer of the command buffer, with `size` bytes at `offset` inside it.
static ur_result_t buffer_at(const urc_append_ops_t *ops, ur_exp_command_buffer_handle_t h,
                             ur_mem_handle_t m, size_t offset, size_t size, char **at) {
    void *base = NULL;
    size_t total = 0;
    ur_result_t res = mem_of(ops, h, m, &base, &total);
    if (res == UR_RESULT_SUCCESS)
        res = urc_rule_buffer_range(total, offset, size);
    if (res == UR_RESULT_SUCCESS)
        *at = (char *)base + offset;
    return res;
}

ur_result_t urc_append_buffer_copy(const urc_append_ops_t *ops, ur_exp_command_buffer_handle_t h,
                                   ur_mem_handle_t src, ur_mem_handle_t dst, size_t src_offset,
                                   size_t dst_offset, size_t size, const urc_append_sync_t *s) {
    const urc_rules_t *r;
    char *from = NULL, *to = NULL;
    ur_result_t res = begin(ops, h, &r);
    if (res == UR_RESULT_SUCCESS)
        res = buffer_at(ops, h, src, src_offset, size, &from);
    if (res == UR_RESULT_SUCCESS)
        res = buffer_at(ops, h, dst, dst_offset, size, &to);
    return res != UR_RESULT_SUCCESS ? res : ops->copy(h, to, from, size, s);
}

ur_result_t urc_append_buffer_transfer(const urc_append_ops_t *ops,
                                       ur_exp_command_buffer_handle_t h, bool write,
                                       ur_mem_handle_t buffer, size_t offset, size_t size,
                                       void *host, const urc_append_sync_t *s) {
    const urc_rules_t *r;
    char *at = NULL;
    ur_result_t res = begin(ops, h, &r);
    if (res == UR_RESULT_SUCCESS)
        res = buffer_at(ops, h, buffer, offset, size, &at);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return write ? ops->copy(h, at, host, size, s) : ops->copy(h, host, at, size, s);
}

ur_result_t urc_append_buffer_fill(const urc_append_ops_t *ops, ur_exp_command_buffer_handle_t h,
                                   ur_mem_handle_t buffer, const void *pattern, size_t pattern_size,
                                   size_t offset, size_t size, const urc_append_sync_t *s) {
    const urc_rules_t *r;
    void *base = NULL;
    size_t total = 0;
    ur_result_t res = begin(ops, h, &r);
    if (res == UR_RESULT_SUCCESS)
        res = mem_of(ops, h, buffer, &base, &total);
    if (res == UR_RESULT_SUCCESS)
        res = urc_rule_buffer_fill(total, offset, pattern_size, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return ops->fill(h, (char *)base + offset, pattern, pattern_size, size, s);
}

/// One side of a rectangle: a buffer of the command buffer (`m`), or host memory at `host`
/// bounded as urEnqueueMemBufferReadRect bounds it (its USM allocation, else user memory).
static ur_result_t rect_side(const urc_append_ops_t *ops, ur_exp_command_buffer_handle_t h,
                             const urc_rules_t *r, ur_mem_handle_t m, void *host,
                             ur_rect_offset_t origin, const ur_rect_region_t *region, size_t row,
                             size_t slice, urc_append_rect_t *out) {
    size_t limit = 0;
    out->host = m == NULL;
    out->origin = origin;
    if (m != NULL) {
        ur_result_t res = mem_of(ops, h, m, &out->base, &limit);
        if (res != UR_RESULT_SUCCESS)
            return res;
    } else {
        out->base = host;
        limit = urc_usm_host_limit(r->lookup, r->backend, host);
    }
    return urc_rule_rect(&out->side, origin, region, row, slice, limit);
}

ur_result_t urc_append_buffer_copy_rect(const urc_append_ops_t *ops,
                                        ur_exp_command_buffer_handle_t h, ur_mem_handle_t src,
                                        ur_mem_handle_t dst, ur_rect_offset_t src_origin,
                                        ur_rect_offset_t dst_origin, ur_rect_region_t region,
                                        size_t src_row, size_t src_slice, size_t dst_row,
                                        size_t dst_slice, const urc_append_sync_t *s) {
    const urc_rules_t *r;
    urc_append_rect_t from, to;
    ur_result_t res = begin(ops, h, &r);
    if (res == UR_RESULT_SUCCESS)
        res = rect_side(ops, h, r, src, NULL, src_origin, &region, src_row, src_slice, &from);
    if (res == UR_RESULT_SUCCESS)
        res = rect_side(ops, h, r, dst, NULL, dst_origin, &region, dst_row, dst_slice, &to);
    return res != UR_RESULT_SUCCESS ? res : ops->rect(h, &to, &from, &region, s);
}

ur_result_t urc_append_buffer_transfer_rect(const urc_append_ops_t *ops,
                                            ur_exp_command_buffer_handle_t h, bool write,
                                            ur_mem_handle_t buffer, ur_rect_offset_t buffer_origin,
                                            ur_rect_offset_t host_origin, ur_rect_region_t region,
                                            size_t buffer_row, size_t buffer_slice, size_t host_row,
                                            size_t host_slice, void *host,
                                            const urc_append_sync_t *s) {
    const urc_rules_t *r;
    urc_append_rect_t buf, mem;
    ur_result_t res = begin(ops, h, &r);
    if (res == UR_RESULT_SUCCESS)
        res = rect_side(ops, h, r, buffer, NULL, buffer_origin, &region, buffer_row, buffer_slice,
                        &buf);
    if (res == UR_RESULT_SUCCESS)
        res = rect_side(ops, h, r, NULL, host, host_origin, &region, host_row, host_slice, &mem);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return write ? ops->rect(h, &buf, &mem, &region, s) : ops->rect(h, &mem, &buf, &region, s);
}

ur_result_t urc_append_kernel_record(urc_cb_command_t *cmd, urc_cb_t *cb,
                                     ur_exp_command_buffer_handle_t h, const urc_append_kernel_t *k,
                                     urc_kernel_context_fn context_of) {
    const uint32_t n = k->num_alternatives;
    const void *inline_contexts[8];
    const void **contexts =
        n < 8 ? inline_contexts : (const void **)urc_calloc(n + 1u, sizeof *contexts);
    if (contexts == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ur_result_t res = UR_RESULT_SUCCESS;
    // NULL alternatives are left to urc_cb_kernel_record, which names them.
    for (uint32_t i = 0; i <= n && res == UR_RESULT_SUCCESS; ++i) {
        ur_kernel_handle_t kernel = i == 0 ? k->kernel : k->alternatives[i - 1];
        contexts[i] = NULL;
        if (kernel != NULL && !context_of(h, kernel, &contexts[i]))
            res = UR_RESULT_ERROR_INVALID_KERNEL;
    }
    if (res == UR_RESULT_SUCCESS)
        res = urc_cb_kernel_record(cmd, cb, k->kernel, k->work_dim, k->offset, k->global, k->local,
                                   n, (const void *const *)k->alternatives, contexts);
    if (contexts != inline_contexts)
        free(contexts);
    return res;
}

ur_result_t urc_append_command_new(urc_cb_command_t *snap, const urc_cb_t *cb,
                                   const urc_append_kernel_t *k, const urc_append_sync_t *s,
                                   size_t size, void **out) {
    *out = NULL;
    if (s->out_command == NULL || !cb->updatable)
        return UR_RESULT_SUCCESS;
    ur_result_t res = urc_cb_args_copy(&snap->args, k->num_args, k->args);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // One more than the list, so that an empty list is an allocation too.
    snap->wait_events = urc_calloc(s->num_events + 1u, sizeof *snap->wait_events);
    if (snap->wait_events == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < s->num_events; ++i)
        snap->wait_events[i] = s->events[i];
    *out = urc_calloc(1, size);
    return *out != NULL ? UR_RESULT_SUCCESS : UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
}

ur_result_t urc_append_command_discard(void *cmd, urc_cb_command_t *snap, ur_result_t res) {
    free(cmd);
    urc_cb_command_fini(snap);
    return res;
}
