// SPDX-License-Identifier: MIT
// Command buffers as explicit CUDA graphs: every append adds a node (kernel, memcpy, memset or
// empty) depending on its sync points' nodes (and, in an in-order buffer, on the node before
// it); finalisation instantiates the graph; each enqueue is one cuGraphLaunch; kernel updates
// go through cuGraphExecKernelNodeSetParams. A command's event is an event-record node after
// it, its wait list event-wait nodes before it; event updates swap their CUevents. The state
// machine, sync points and UR's rules are common/queue/command_buffer.c.
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "core/release.h"
#include "queue/command_append.h"

static bool graphs_available(void) {
    return cu.GraphCreate != NULL && cu.GraphDestroy != NULL && cu.GraphAddKernelNode != NULL &&
           cu.GraphAddMemcpyNode != NULL && cu.GraphAddMemsetNode != NULL &&
           cu.GraphAddEmptyNode != NULL && cu.GraphInstantiateWithFlags != NULL &&
           cu.GraphLaunch != NULL && cu.GraphExecDestroy != NULL &&
           cu.GraphExecKernelNodeSetParams != NULL;
}

/// Event-record and event-wait nodes, and node removal to undo a failed append.
static bool event_nodes_available(void) {
    return cu.GraphAddEventRecordNode != NULL && cu.GraphAddEventWaitNode != NULL &&
           cu.GraphDestroyNode != NULL;
}

/// Swapping the event of a node in an executable graph.
static bool event_updates_available(void) {
    return cu.GraphExecEventRecordNodeSetEvent != NULL && cu.GraphExecEventWaitNodeSetEvent != NULL;
}

void cuda_cb_caps(const cuda_device_t *dev, urc_cb_caps_t *caps) {
    (void)dev;
    memset(caps, 0, sizeof *caps);
    if (!graphs_available())
        return;
    caps->supported = true;
    caps->events = event_nodes_available();
    caps->update_caps = UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_ARGUMENTS |
                        UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_LOCAL_WORK_SIZE |
                        UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_SIZE |
                        UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_GLOBAL_WORK_OFFSET |
                        UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_KERNEL_HANDLE;
    if (caps->events && event_updates_available())
        caps->update_caps |= UR_DEVICE_COMMAND_BUFFER_UPDATE_CAPABILITY_FLAG_EVENTS;
}

static void release_kernel(void *kernel) {
    (void)cuda_kernel_release(kernel);
}

static void release_event(void *event) {
    cuda_event_release_internal(event);
}

static void free_command(void *command) {
    free(((cuda_cb_cmd_t *)command)->wait_nodes);
}

static const urc_cb_release_t records = {sizeof(cuda_cb_cmd_t), release_kernel, release_kernel,
                                         release_event, free_command};

static void cb_destroy(cuda_cb_t *cb) {
    if (cb->exec != NULL || cb->graph != NULL)
        cuda_activate(cb->dev);
    // A graph still running keeps its own resources until it ends (CUDA defers the release).
    if (cb->exec != NULL)
        cu.GraphExecDestroy(cb->exec);
    if (cb->graph != NULL)
        cu.GraphDestroy(cb->graph);
    if (cb->ready != NULL)
        cu.EventDestroy(cb->ready);
    urc_cb_release_records(&cb->core, &records);
    cuda_context_release_internal(cb->ctx);
    URC_OBJECT_FREE(cb);
}

ur_result_t cuda_command_buffer_create_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                           const ur_exp_command_buffer_desc_t *pCommandBufferDesc,
                                           ur_exp_command_buffer_handle_t *phCommandBuffer) {
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    cuda_device_t *dev = CUDA_DEVICE(hDevice);
    urc_cb_caps_t caps;
    cuda_cb_caps(dev, &caps);
    cuda_cb_t *cb = NULL;
    ur_result_t res = URC_CB_CREATE(cuda_cb_t, cuda_context_has_device(ctx, dev),
                                    pCommandBufferDesc, &caps, hContext, &cuda_ddi, &cb);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cb->ctx = ctx;
    cb->dev = dev;
    cuda_rules(dev, &cb->core.rules);
    cuda_context_retain_internal(ctx);
    res = cuda_activate(dev);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.GraphCreate(&cb->graph, 0), "cuGraphCreate");
    if (res != UR_RESULT_SUCCESS) {
        cb_destroy(cb);
        return res;
    }
    *phCommandBuffer = (ur_exp_command_buffer_handle_t)cb;
    return UR_RESULT_SUCCESS;
}

#define CUDA_CMDBUF(h) ((cuda_cb_t *)(h))
URC_COMMAND_BUFFER_RETAIN_RELEASE(cuda, CUDA_CMDBUF, cb_destroy)

/// Finalisation instantiates the graph.
static ur_result_t cb_close(cuda_cb_t *cb) {
    ur_result_t res = cuda_activate(cb->dev);
    return res != UR_RESULT_SUCCESS ? res
                                    : cuda_ok(cu.GraphInstantiateWithFlags(&cb->exec, cb->graph, 0),
                                              "cuGraphInstantiateWithFlags");
}

URC_COMMAND_BUFFER_FINALIZE_INFO(cuda, CUDA_CMDBUF, cb_close)

ur_result_t cuda_command_buffer_get_native_handle_exp(ur_exp_command_buffer_handle_t hCommandBuffer,
                                                      ur_native_handle_t *phNativeCommandBuffer) {
    *phNativeCommandBuffer = (ur_native_handle_t)((cuda_cb_t *)hCommandBuffer)->graph;
    return UR_RESULT_SUCCESS;
}

// ---- appends ---------------------------------------------------------------------------------

/// One append in flight: the buffer's lock held, the node's dependencies gathered (after the
/// event-wait nodes of its wait list, when it has one), its signal event made.
typedef struct append_t {
    cuda_cb_t *cb;
    size_t ndeps;
    CUgraphNode *deps;
    CUgraphNode inline_deps[16];
    CUgraphNode node; // the new node (the command's last, for a command of several)
    uint32_t nwaits;
    const ur_event_handle_t *waits;
    CUgraphNode *wait_nodes;    // one per event of the wait list; NULL once a command owns them
    cuda_event_t *signal;       // phEvent's event, or NULL
    CUgraphNode signal_node;    // its event-record node, once added
    ur_event_handle_t *phEvent; // where the event goes on success
} append_t;

/// An event's context for urc_cb_check_wait_list.
static const void *event_context(const void *h) {
    return cuda_is(h, URC_KIND_EVENT) ? (const void *)CUDA_EVENT(h)->ctx : NULL;
}

/// The CUevent a wait node waits for: an event without one is complete, like the buffer's
/// never-recorded `ready` event (made on first need; the buffer's lock is held).
static ur_result_t wait_target(cuda_cb_t *cb, const cuda_event_t *e, CUevent *out) {
    if (e->end != NULL) {
        *out = e->end;
        return UR_RESULT_SUCCESS;
    }
    if (cb->ready == NULL) {
        ur_result_t res =
            cuda_ok(cu.EventCreate(&cb->ready, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
        if (res != UR_RESULT_SUCCESS)
            return res;
    }
    *out = cb->ready;
    return UR_RESULT_SUCCESS;
}

/// Removes the event-wait nodes of a failed append, and its command's node when one was added
/// (the event-record node failed), so that the graph names no event the buffer does not hold.
static void undo_nodes(append_t *a) {
    for (uint32_t i = 0; a->wait_nodes != NULL && i < a->nwaits; ++i)
        if (a->wait_nodes[i] != NULL)
            cu.GraphDestroyNode(a->wait_nodes[i]);
    if (a->node != NULL && (a->nwaits > 0 || a->signal != NULL))
        cu.GraphDestroyNode(a->node);
}

static ur_result_t append_begin(append_t *a, ur_exp_command_buffer_handle_t h, uint32_t n,
                                const ur_exp_command_buffer_sync_point_t *sync, bool want_command,
                                uint32_t num_events, const ur_event_handle_t *waits,
                                ur_event_handle_t *phEvent) {
    cuda_cb_t *cb = (cuda_cb_t *)h;
    a->cb = cb;
    a->ndeps = 0;
    a->node = NULL;
    a->nwaits = num_events;
    a->waits = waits;
    a->wait_nodes = NULL;
    a->signal = NULL;
    a->signal_node = NULL;
    a->phEvent = phEvent;
    if (phEvent != NULL)
        *phEvent = NULL;
    ur_result_t res = urc_cb_check_wait_list(&cb->core, num_events, waits, event_context);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // One more than the sync wait list (an in-order buffer also waits for the last node); the
    // wait nodes replace them as the command's dependencies.
    size_t room = (size_t)n + 1 > num_events ? (size_t)n + 1 : num_events;
    a->deps = room <= 16 ? a->inline_deps : urc_calloc(room, sizeof *a->deps);
    if (num_events > 0)
        a->wait_nodes = urc_calloc(num_events, sizeof *a->wait_nodes);
    if (a->deps == NULL || (num_events > 0 && a->wait_nodes == NULL))
        res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    if (res == UR_RESULT_SUCCESS)
        res = cuda_activate(cb->dev);
    if (res == UR_RESULT_SUCCESS)
        res = urc_cb_append_begin(&cb->core, n, sync, want_command,
                                  num_events > 0 || phEvent != NULL);
    if (res != UR_RESULT_SUCCESS) {
        if (a->deps != a->inline_deps)
            free(a->deps);
        free(a->wait_nodes);
        return res;
    }
    // CUDA refuses a dependency named twice (CUDA_ERROR_INVALID_VALUE): a sync point repeated
    // in the list, or the last node again in an in-order buffer, is added once.
    bool has_last = false;
    for (uint32_t i = 0; i < n; ++i) {
        CUgraphNode node = (CUgraphNode)(uintptr_t)urc_cb_native_sync(&cb->core, sync[i]);
        bool seen = false;
        for (uint32_t j = 0; j < a->ndeps && !seen; ++j)
            seen = a->deps[j] == node;
        if (!seen)
            a->deps[a->ndeps++] = node;
        has_last = has_last || node == cb->last;
    }
    if (cb->core.in_order && cb->last != NULL && !has_last)
        a->deps[a->ndeps++] = cb->last;
    // Room to hold the events, the signal event, then a wait node per event after the
    // dependencies; the command follows the wait nodes.
    res = urc_cb_reserve_events(&cb->core, num_events + (phEvent != NULL));
    if (res == UR_RESULT_SUCCESS && phEvent != NULL)
        res = cuda_event_create_unqueued(cb->ctx, cb->dev, UR_COMMAND_ENQUEUE_COMMAND_BUFFER_EXP,
                                         &a->signal);
    for (uint32_t i = 0; i < num_events && res == UR_RESULT_SUCCESS; ++i) {
        CUevent ev = NULL;
        res = wait_target(cb, CUDA_EVENT(waits[i]), &ev);
        if (res == UR_RESULT_SUCCESS)
            res = cuda_ok(
                cu.GraphAddEventWaitNode(&a->wait_nodes[i], cb->graph, a->deps, a->ndeps, ev),
                "cuGraphAddEventWaitNode");
    }
    if (res == UR_RESULT_SUCCESS && num_events > 0) {
        memcpy(a->deps, a->wait_nodes, num_events * sizeof *a->deps);
        a->ndeps = num_events;
    }
    if (res != UR_RESULT_SUCCESS) {
        undo_nodes(a);
        if (a->signal != NULL)
            cuda_event_free(a->signal);
        if (a->deps != a->inline_deps)
            free(a->deps);
        free(a->wait_nodes);
        return urc_cb_append_end(&cb->core, res, 0, NULL, NULL);
    }
    return UR_RESULT_SUCCESS;
}

/// Adds the event-record node of the command's signal event after its node (once).
static ur_result_t add_signal(append_t *a) {
    if (a->signal == NULL || a->signal_node != NULL)
        return UR_RESULT_SUCCESS;
    return cuda_ok(
        cu.GraphAddEventRecordNode(&a->signal_node, a->cb->graph, &a->node, 1, a->signal->end),
        "cuGraphAddEventRecordNode");
}

static ur_result_t append_end(append_t *a, ur_result_t res, void *command,
                              ur_exp_command_buffer_sync_point_t *pSyncPoint) {
    cuda_cb_t *cb = a->cb;
    if (res == UR_RESULT_SUCCESS)
        res = add_signal(a);
    if (res == UR_RESULT_SUCCESS) {
        // The graph names these events' CUevents: the buffer holds them as long as it lives.
        for (uint32_t i = 0; i < a->nwaits; ++i) {
            cuda_event_retain_internal(CUDA_EVENT(a->waits[i]));
            urc_cb_hold_event(&cb->core, CUDA_EVENT(a->waits[i]));
        }
        if (a->signal != NULL) {
            cuda_event_retain_internal(a->signal);
            urc_cb_hold_event(&cb->core, a->signal);
            *a->phEvent = (ur_event_handle_t)a->signal;
        }
        cb->last = a->node;
    } else {
        undo_nodes(a);
        if (a->signal != NULL)
            cuda_event_free(a->signal);
    }
    if (a->deps != a->inline_deps)
        free(a->deps);
    free(a->wait_nodes);
    return urc_cb_append_end(&cb->core, res, (uint64_t)(uintptr_t)a->node, command, pSyncPoint);
}

typedef struct kernel_node_ctx_t {
    append_t *a;
} kernel_node_ctx_t;

static CUresult add_kernel_node(const CUDA_KERNEL_NODE_PARAMS *p, void *ctx) {
    append_t *a = ((kernel_node_ctx_t *)ctx)->a;
    return cu.GraphAddKernelNode(&a->node, a->cb->graph, a->deps, a->ndeps, p);
}

/// A kernel counts as of the buffer's context only where its program is built for the
/// buffer's device.
static bool kernel_context(ur_exp_command_buffer_handle_t h, ur_kernel_handle_t k,
                           const void **context) {
    if (!cuda_is(k, URC_KIND_KERNEL))
        return false;
    if (CUDA_KERNEL(k)->program->dev == CUDA_CMDBUF(h)->dev)
        *context = CUDA_KERNEL(k)->program->ctx;
    return true;
}

/// A command handle for the append in `a`, which succeeded: it takes the snapshot, the
/// append's nodes and events (their wait nodes too), and is given to the caller.
static void command_init(cuda_cb_cmd_t *cmd, append_t *a, const urc_cb_command_t *snap,
                         const urc_append_sync_t *s) {
    urc_object_init(&cmd->obj, &cuda_ddi, URC_KIND_COMMAND_BUFFER_COMMAND);
    cmd->core = *snap;
    cmd->buffer = a->cb;
    cmd->node = a->node;
    cmd->core.has_event = s->out_event != NULL;
    cmd->core.num_wait_events = s->num_events;
    cmd->signal = a->signal;
    cmd->signal_node = a->signal_node;
    cmd->wait_nodes = a->wait_nodes;
    a->wait_nodes = NULL;
    *s->out_command = (ur_exp_command_buffer_command_handle_t)cmd;
}

static ur_result_t append_kernel(ur_exp_command_buffer_handle_t h, const urc_append_kernel_t *k,
                                 const urc_append_sync_t *s) {
    cuda_cb_t *cb = CUDA_CMDBUF(h);
    urc_cb_command_t snap;
    ur_result_t res = urc_append_kernel_record(&snap, &cb->core, h, k, kernel_context);
    if (res != UR_RESULT_SUCCESS)
        return res;
    cuda_cb_cmd_t *cmd = NULL;
    res = urc_append_command_new(&snap, &cb->core, k, s, sizeof *cmd, (void **)&cmd);
    if (res != UR_RESULT_SUCCESS)
        return urc_append_command_discard(cmd, &snap, res);
    append_t a;
    res = append_begin(&a, h, s->num_sync, s->sync, s->out_command != NULL, s->num_events,
                       s->events, s->out_event);
    if (res != UR_RESULT_SUCCESS)
        return urc_append_command_discard(cmd, &snap, res);
    kernel_node_ctx_t kctx = {&a};
    // The node runs the kernel's module code: the kernel (and so its program) stays alive as
    // long as the buffer.
    res = urc_cb_hold(&cb->core, k->kernel);
    if (res == UR_RESULT_SUCCESS) {
        cuda_kernel_retain(k->kernel);
        res = cuda_launch_node_params(CUDA_KERNEL(k->kernel), cb->dev, k->work_dim, k->offset,
                                      k->global, k->local, k->num_args, k->args, add_kernel_node,
                                      &kctx);
    }
    if (res == UR_RESULT_SUCCESS)
        res = add_signal(&a); // now, so that nothing fails once the handle is made
    if (res != UR_RESULT_SUCCESS)
        return append_end(&a, urc_append_command_discard(cmd, &snap, res), NULL, NULL);
    if (cmd != NULL) {
        command_init(cmd, &a, &snap, s);
        for (uint32_t i = 0; i < snap.k.num_alternatives; ++i)
            cuda_kernel_retain((ur_kernel_handle_t)snap.k.alternatives[i]);
    } else {
        urc_cb_command_fini(&snap);
    }
    return append_end(&a, UR_RESULT_SUCCESS, cmd, s->out_sync);
}

/// append_begin with the ordering parameters of a memory append (common/queue/command_append.h).
static ur_result_t append_begin_sync(append_t *a, ur_exp_command_buffer_handle_t h,
                                     const urc_append_sync_t *s) {
    ur_result_t res = append_begin(a, h, s->num_sync, s->sync, s->out_command != NULL,
                                   s->num_events, s->events, s->out_event);
    if (res == UR_RESULT_SUCCESS && s->out_command != NULL)
        *s->out_command = NULL;
    return res;
}

/// append_end of a memory append. Asked for a command handle, an updatable buffer gives one
/// whose wait and signal events can be updated (urCommandBufferUpdateWaitEventsExp,
/// UpdateSignalEventExp), as UR's CUDA adapter does; it has no kernel to update.
static ur_result_t memory_end(append_t *a, ur_result_t res, const urc_append_sync_t *s) {
    static const urc_append_kernel_t no_kernel;
    cuda_cb_cmd_t *cmd = NULL;
    urc_cb_command_t snap;
    memset(&snap, 0, sizeof snap);
    snap.owner = &a->cb->core;
    if (res == UR_RESULT_SUCCESS)
        res =
            urc_append_command_new(&snap, &a->cb->core, &no_kernel, s, sizeof *cmd, (void **)&cmd);
    if (res == UR_RESULT_SUCCESS)
        res = add_signal(a); // now, so that nothing fails once the handle is made
    if (res != UR_RESULT_SUCCESS)
        return append_end(a, urc_append_command_discard(cmd, &snap, res), NULL, NULL);
    if (cmd == NULL) {
        urc_cb_command_fini(&snap);
        return append_end(a, res, NULL, s->out_sync);
    }
    command_init(cmd, a, &snap, s);
    return append_end(a, res, cmd, s->out_sync);
}

/// One side of a linear copy: device (or unified) memory, else pageable host memory.
static void copy_side(CUmemorytype *type, const void **host, CUdeviceptr *device, const void *p) {
    cuda_pointer_t info;
    if (cuda_pointer_query(p, &info) == UR_RESULT_SUCCESS && info.memory_type != 0) {
        *type = CU_MEMORYTYPE_UNIFIED;
        *device = (CUdeviceptr)(uintptr_t)p;
    } else {
        *type = CU_MEMORYTYPE_HOST;
        *host = p;
    }
}

static ur_result_t add_copy(append_t *a, void *dst, const void *src, size_t size) {
    CUDA_MEMCPY3D p;
    memset(&p, 0, sizeof p);
    copy_side(&p.srcMemoryType, &p.srcHost, &p.srcDevice, src);
    const void *dst_host = NULL;
    copy_side(&p.dstMemoryType, &dst_host, &p.dstDevice, dst);
    p.dstHost = (void *)dst_host;
    p.WidthInBytes = size;
    p.srcPitch = p.dstPitch = size; // one row of one slice
    p.srcHeight = p.dstHeight = 1;
    p.Height = 1;
    p.Depth = 1;
    return cuda_ok(
        cu.GraphAddMemcpyNode(&a->node, a->cb->graph, a->deps, a->ndeps, &p, a->cb->dev->ctx),
        "cuGraphAddMemcpyNode");
}

static ur_result_t op_copy(ur_exp_command_buffer_handle_t h, void *dst, const void *src,
                           size_t size, const urc_append_sync_t *s) {
    append_t a;
    ur_result_t res = append_begin_sync(&a, h, s);
    return res != UR_RESULT_SUCCESS ? res : memory_end(&a, add_copy(&a, dst, src, size), s);
}

/// A fill as memset nodes, as the eager fill does it: one node when the pattern repeats one
/// 1-, 2- or 4-byte word, else one 2D node per word of the pattern, each after the last.
static ur_result_t add_fill(append_t *a, CUdeviceptr dst, const void *pattern, size_t psize,
                            size_t size) {
    const uint8_t *pat = pattern;
    unsigned word = 4;
    while (word > 1 && (psize % word != 0 || dst % word != 0))
        word /= 2;
    size_t per_pattern = psize / word;
    bool uniform = true;
    for (size_t i = 1; uniform && i < per_pattern; ++i)
        uniform = memcmp(pat + i * word, pat, word) == 0;
    size_t steps = uniform ? 1 : per_pattern;
    ur_result_t res = UR_RESULT_SUCCESS;
    for (size_t i = 0; i < steps && res == UR_RESULT_SUCCESS; ++i) {
        CUDA_MEMSET_NODE_PARAMS p;
        memset(&p, 0, sizeof p);
        p.dst = dst + i * word;
        p.elementSize = word;
        if (word == 4) {
            uint32_t v = 0;
            memcpy(&v, pat + i * word, 4);
            p.value = v;
        } else if (word == 2) {
            uint16_t v = 0;
            memcpy(&v, pat + i * word, 2);
            p.value = v;
        } else {
            p.value = pat[i * word];
        }
        if (uniform) {
            p.width = size / word;
            p.height = 1;
            p.pitch = size;
        } else {
            p.width = 1;
            p.height = size / psize;
            p.pitch = psize;
        }
        CUgraphNode node = NULL;
        res = cuda_ok(
            cu.GraphAddMemsetNode(&node, a->cb->graph, a->deps, a->ndeps, &p, a->cb->dev->ctx),
            "cuGraphAddMemsetNode");
        if (res == UR_RESULT_SUCCESS) {
            // The next word's node follows this one, so the fill ends with the last node.
            a->deps[0] = node;
            a->ndeps = 1;
            a->node = node;
        }
    }
    return res;
}

static ur_result_t op_fill(ur_exp_command_buffer_handle_t h, void *dst, const void *pattern,
                           size_t pattern_size, size_t size, const urc_append_sync_t *s) {
    append_t a;
    ur_result_t res = append_begin_sync(&a, h, s);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = add_fill(&a, (CUdeviceptr)(uintptr_t)dst, pattern, pattern_size, size);
    return memory_end(&a, res, s);
}

// ---- rectangular copies ----

/// One side of a rectangular copy in a graph: device memory (a buffer) or host memory.
typedef struct rect_t {
    CUmemorytype type;
    CUdeviceptr device;
    const void *host;
    ur_rect_offset_t origin;
    size_t row, slice; // checked, defaults applied
} rect_t;

/// The memcpy parameters for slices [z, z + depth) of one side: one node for the whole box when
/// each slice is a whole number of rows, else one node per slice (CUDA's 3D copies describe a
/// slice in rows).
static void rect_params(const rect_t *s, size_t z, bool whole, CUmemorytype *type, CUdeviceptr *dev,
                        const void **host, size_t *x, size_t *y, size_t *zz, size_t *pitch,
                        size_t *height, size_t rows) {
    size_t base = whole ? 0 : ((size_t)s->origin.z + z) * s->slice;
    *type = s->type;
    *dev = s->type == CU_MEMORYTYPE_DEVICE ? s->device + base : 0;
    *host = s->type == CU_MEMORYTYPE_HOST ? (const char *)s->host + base : NULL;
    *x = (size_t)s->origin.x;
    *y = (size_t)s->origin.y;
    *zz = whole ? (size_t)s->origin.z : 0;
    *pitch = s->row;
    *height = whole ? s->slice / s->row : (size_t)s->origin.y + rows;
}

static ur_result_t add_rect(append_t *a, const rect_t *src, const rect_t *dst,
                            const ur_rect_region_t *r) {
    bool whole = src->slice % src->row == 0 && dst->slice % dst->row == 0;
    size_t nodes = whole ? 1 : (size_t)r->depth;
    ur_result_t res = UR_RESULT_SUCCESS;
    for (size_t z = 0; z < nodes && res == UR_RESULT_SUCCESS; ++z) {
        CUDA_MEMCPY3D p;
        memset(&p, 0, sizeof p);
        const void *dst_host = NULL;
        rect_params(src, z, whole, &p.srcMemoryType, &p.srcDevice, &p.srcHost, &p.srcXInBytes,
                    &p.srcY, &p.srcZ, &p.srcPitch, &p.srcHeight, (size_t)r->height);
        rect_params(dst, z, whole, &p.dstMemoryType, &p.dstDevice, &dst_host, &p.dstXInBytes,
                    &p.dstY, &p.dstZ, &p.dstPitch, &p.dstHeight, (size_t)r->height);
        p.dstHost = (void *)dst_host;
        p.WidthInBytes = (size_t)r->width;
        p.Height = (size_t)r->height;
        p.Depth = whole ? (size_t)r->depth : 1;
        CUgraphNode node = NULL;
        res = cuda_ok(
            cu.GraphAddMemcpyNode(&node, a->cb->graph, a->deps, a->ndeps, &p, a->cb->dev->ctx),
            "cuGraphAddMemcpyNode");
        if (res == UR_RESULT_SUCCESS) {
            // Slices follow each other, so the copy ends with the last node.
            a->deps[0] = node;
            a->ndeps = 1;
            a->node = node;
        }
    }
    return res;
}

static rect_t rect_of(const urc_append_rect_t *r) {
    return (rect_t){r->host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE,
                    r->host ? 0 : (CUdeviceptr)(uintptr_t)r->base,
                    r->host ? r->base : NULL,
                    r->origin,
                    r->side.row,
                    r->side.slice};
}

static ur_result_t op_rect(ur_exp_command_buffer_handle_t h, const urc_append_rect_t *dst,
                           const urc_append_rect_t *src, const ur_rect_region_t *region,
                           const urc_append_sync_t *s) {
    rect_t to = rect_of(dst), from = rect_of(src);
    append_t a;
    ur_result_t res = append_begin_sync(&a, h, s);
    return res != UR_RESULT_SUCCESS ? res : memory_end(&a, add_rect(&a, &from, &to, region), s);
}

/// Prefetch and advice are hints with no graph node: an empty node keeps the ordering.
static ur_result_t op_hint(ur_exp_command_buffer_handle_t h, const urc_append_sync_t *s) {
    append_t a;
    ur_result_t res = append_begin_sync(&a, h, s);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res =
        cuda_ok(cu.GraphAddEmptyNode(&a.node, a.cb->graph, a.deps, a.ndeps), "cuGraphAddEmptyNode");
    return memory_end(&a, res, s);
}

static urc_cb_t *op_buffer(ur_exp_command_buffer_handle_t h) {
    return cuda_is(h, URC_KIND_COMMAND_BUFFER) ? &((cuda_cb_t *)h)->core : NULL;
}

// The range rules ask the driver about pointers: the device's context must be current.
static ur_result_t op_prepare(ur_exp_command_buffer_handle_t h) {
    return cuda_activate_cached(((cuda_cb_t *)h)->dev);
}

static bool op_mem(ur_mem_handle_t m, void **base, size_t *size, const void **context) {
    if (!cuda_is(m, URC_KIND_MEM))
        return false;
    *base = (void *)(uintptr_t)CUDA_MEM(m)->ptr;
    *size = CUDA_MEM(m)->size;
    *context = CUDA_MEM(m)->ctx;
    return true;
}

#define APPEND_PREPARE op_prepare
#define APPEND_KERNEL  append_kernel
#define PREFIX         cuda
#include "queue/command_append_entry_points.inc"
#include "queue/command_append_kernel.inc"

/// The callback records into the graph of `hChildCommandBuffer` (urCommandBufferGetNativeHandleExp
/// gives its CUgraph; cuStreamBeginCaptureToGraph captures stream work into it), which becomes
/// one child-graph node after the wait list, as in UR's adapter. CUDA copies the child graph,
/// so the child buffer may be released or reused afterwards.
ur_result_t cuda_command_buffer_append_native_command_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer,
    ur_exp_command_buffer_native_command_function_t pfnNativeCommand, void *pData,
    ur_exp_command_buffer_handle_t hChildCommandBuffer, uint32_t numSyncPointsInWaitList,
    const ur_exp_command_buffer_sync_point_t *pSyncPointWaitList,
    ur_exp_command_buffer_sync_point_t *pSyncPoint) {
    cuda_cb_t *cb = (cuda_cb_t *)hCommandBuffer;
    if (hChildCommandBuffer == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "CUDA native commands record into the graph of a child command "
                             "buffer; none was given");
    cuda_cb_t *child = (cuda_cb_t *)hChildCommandBuffer;
    if (child == cb || child->dev != cb->dev)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                             "the child command buffer must be another buffer of the same device");
    if (cu.GraphAddChildGraphNode == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the driver has no cuGraphAddChildGraphNode");
    append_t a;
    ur_result_t res = append_begin(&a, hCommandBuffer, numSyncPointsInWaitList, pSyncPointWaitList,
                                   false, 0, NULL, NULL);
    if (res != UR_RESULT_SUCCESS)
        return res;
    pfnNativeCommand(pData);
    // The callback may have made another context current (it runs the user's CUDA code).
    res = cuda_activate(cb->dev);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.GraphAddChildGraphNode(&a.node, cb->graph, a.deps, a.ndeps, child->graph),
                      "cuGraphAddChildGraphNode");
    return append_end(&a, res, NULL, pSyncPoint);
}

// ---- runs ------------------------------------------------------------------------------------

ur_result_t cuda_enqueue_command_buffer_exp(ur_queue_handle_t hQueue,
                                            ur_exp_command_buffer_handle_t hCommandBuffer,
                                            uint32_t numEventsInWaitList,
                                            const ur_event_handle_t *phEventWaitList,
                                            ur_event_handle_t *phEvent) {
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    cuda_cb_t *cb = (cuda_cb_t *)hCommandBuffer;
    ur_result_t res = urc_cb_check_enqueue(&cb->core, q->ctx == cb->ctx && q->dev == cb->dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // CUDA orders a launch after earlier launches of the same executable graph, so a run
    // enqueued while another is pending needs nothing more.
    cuda_op_t op;
    res = cuda_op_begin(q, UR_COMMAND_ENQUEUE_COMMAND_BUFFER_EXP, numEventsInWaitList,
                        phEventWaitList, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = cuda_ok(cu.GraphLaunch(cb->exec, op.stream), "cuGraphLaunch");
    return cuda_op_end(&op, res, false, phEvent);
}

// ---- updates ---------------------------------------------------------------------------------

typedef struct update_ctx_t {
    CUgraphExec exec;
    CUgraphNode node;
} update_ctx_t;

static CUresult set_kernel_node(const CUDA_KERNEL_NODE_PARAMS *p, void *ctx) {
    update_ctx_t *u = ctx;
    return cu.GraphExecKernelNodeSetParams(u->exec, u->node, p);
}

/// A kernel's argument count for the rule table's index checks (UINT32_MAX: unknown).
static uint32_t kernel_arg_count(const void *kernel) {
    if (!cuda_is(kernel, URC_KIND_KERNEL))
        return UINT32_MAX;
    const cuda_kernel_t *k = CUDA_KERNEL((ur_kernel_handle_t)kernel);
    return k->params_known ? k->nparams : UINT32_MAX;
}

ur_result_t cuda_command_buffer_update_kernel_launch_exp(
    ur_exp_command_buffer_handle_t hCommandBuffer, uint32_t numKernelUpdates,
    const ur_exp_command_buffer_update_kernel_launch_desc_t *pUpdateKernelLaunch) {
    cuda_cb_t *cb = (cuda_cb_t *)hCommandBuffer;
    ur_result_t res = urc_cb_check_update_buffer(&cb->core);
    for (uint32_t i = 0; i < numKernelUpdates && res == UR_RESULT_SUCCESS; ++i) {
        const ur_exp_command_buffer_update_kernel_launch_desc_t *u = &pUpdateKernelLaunch[i];
        cuda_cb_cmd_t *c = cuda_is(u->hCommand, URC_KIND_COMMAND_BUFFER_COMMAND)
                               ? (cuda_cb_cmd_t *)u->hCommand
                               : NULL;
        res = urc_cb_check_update(&cb->core, c != NULL ? &c->core : NULL, u);
        if (res == UR_RESULT_SUCCESS)
            res = urc_rule_update(&cb->core.rules, &c->core, u, kernel_arg_count);
        for (uint32_t m = 0; res == UR_RESULT_SUCCESS && m < u->numNewMemObjArgs; ++m)
            if (u->pNewMemObjArgList[m].hNewMemObjArg != NULL &&
                !cuda_is(u->pNewMemObjArgList[m].hNewMemObjArg, URC_KIND_MEM))
                res = UR_RESULT_ERROR_INVALID_MEM_OBJECT;
    }
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = cuda_activate(cb->dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    // Each command's new launch is laid out and set in turn; CUDA applies it to later launches.
    pthread_mutex_lock(&cb->core.lock);
    for (uint32_t i = 0; i < numKernelUpdates && res == UR_RESULT_SUCCESS; ++i) {
        const ur_exp_command_buffer_update_kernel_launch_desc_t *u = &pUpdateKernelLaunch[i];
        cuda_cb_cmd_t *c = (cuda_cb_cmd_t *)u->hCommand;
        urc_cb_args_t args;
        res = urc_cb_args_merge(&c->core.args, u, &args);
        if (res != UR_RESULT_SUCCESS)
            break;
        uint32_t dim;
        size_t offset[3], global[3], local[3];
        bool has_local;
        urc_cb_update_launch(&c->core, u, &dim, offset, global, local, &has_local);
        cuda_kernel_t *k = CUDA_KERNEL(
            u->hNewKernel != NULL ? u->hNewKernel : (ur_kernel_handle_t)c->core.k.kernel);
        update_ctx_t uctx = {cb->exec, c->node};
        res = cuda_launch_node_params(k, cb->dev, dim, offset, global, has_local ? local : NULL,
                                      args.count, args.args, set_kernel_node, &uctx);
        if (res == UR_RESULT_SUCCESS) {
            urc_cb_args_fini(&c->core.args);
            c->core.args = args;
            urc_cb_apply_update(&c->core, u);
        } else {
            urc_cb_args_fini(&args);
        }
    }
    pthread_mutex_unlock(&cb->core.lock);
    return res;
}

/// A new event for the command: its event-record node records it from the next run on (in the
/// executable graph, and in the template graph for consistency). The old event is no longer
/// signalled and stays the caller's; the buffer's hold moves to the new one.
ur_result_t
cuda_command_buffer_update_signal_event_exp(ur_exp_command_buffer_command_handle_t hCommand,
                                            ur_event_handle_t *phSignalEvent) {
    if (!cuda_is(hCommand, URC_KIND_COMMAND_BUFFER_COMMAND))
        return UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP;
    *phSignalEvent = NULL;
    cuda_cb_cmd_t *c = (cuda_cb_cmd_t *)hCommand;
    cuda_cb_t *cb = c->buffer;
    ur_result_t res = urc_cb_check_event_update(&c->core, true, UINT32_MAX);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_activate(cb->dev);
    cuda_event_t *e = NULL;
    if (res == UR_RESULT_SUCCESS)
        res =
            cuda_event_create_unqueued(cb->ctx, cb->dev, UR_COMMAND_ENQUEUE_COMMAND_BUFFER_EXP, &e);
    if (res != UR_RESULT_SUCCESS)
        return res;
    pthread_mutex_lock(&cb->core.lock);
    res = cuda_ok(cu.GraphExecEventRecordNodeSetEvent(cb->exec, c->signal_node, e->end),
                  "cuGraphExecEventRecordNodeSetEvent");
    if (res == UR_RESULT_SUCCESS && cu.GraphEventRecordNodeSetEvent != NULL)
        res = cuda_ok(cu.GraphEventRecordNodeSetEvent(c->signal_node, e->end),
                      "cuGraphEventRecordNodeSetEvent");
    if (res == UR_RESULT_SUCCESS) {
        cuda_event_retain_internal(e);
        urc_cb_replace_event(&cb->core, c->signal, e);
        cuda_event_release_internal(c->signal);
        c->signal = e;
    } else {
        // Back to the old event where the executable graph already took the new one.
        cu.GraphExecEventRecordNodeSetEvent(cb->exec, c->signal_node, c->signal->end);
    }
    pthread_mutex_unlock(&cb->core.lock);
    if (res == UR_RESULT_SUCCESS)
        *phSignalEvent = (ur_event_handle_t)e;
    else
        cuda_event_free(e);
    return res;
}

/// Sets the events of a command's wait nodes (the executable graph's, then the template's).
static ur_result_t set_wait_events(cuda_cb_t *cb, cuda_cb_cmd_t *c, cuda_event_t *const *events,
                                   uint32_t n) {
    ur_result_t res = UR_RESULT_SUCCESS;
    for (uint32_t i = 0; i < n && res == UR_RESULT_SUCCESS; ++i) {
        CUevent ev = NULL;
        res = wait_target(cb, events[i], &ev);
        if (res == UR_RESULT_SUCCESS)
            res = cuda_ok(cu.GraphExecEventWaitNodeSetEvent(cb->exec, c->wait_nodes[i], ev),
                          "cuGraphExecEventWaitNodeSetEvent");
        if (res == UR_RESULT_SUCCESS && cu.GraphEventWaitNodeSetEvent != NULL)
            res = cuda_ok(cu.GraphEventWaitNodeSetEvent(c->wait_nodes[i], ev),
                          "cuGraphEventWaitNodeSetEvent");
    }
    return res;
}

/// A new wait list as long as the append's: each event-wait node waits for its new event from
/// the next run on; the buffer's holds move to the new events.
ur_result_t
cuda_command_buffer_update_wait_events_exp(ur_exp_command_buffer_command_handle_t hCommand,
                                           uint32_t numEventsInWaitList,
                                           const ur_event_handle_t *phEventWaitList) {
    if (!cuda_is(hCommand, URC_KIND_COMMAND_BUFFER_COMMAND))
        return UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP;
    cuda_cb_cmd_t *c = (cuda_cb_cmd_t *)hCommand;
    cuda_cb_t *cb = c->buffer;
    ur_result_t res = urc_cb_check_event_update(&c->core, false, numEventsInWaitList);
    if (res == UR_RESULT_SUCCESS)
        res =
            urc_cb_check_wait_list(&cb->core, numEventsInWaitList, phEventWaitList, event_context);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_activate(cb->dev);
    if (res != UR_RESULT_SUCCESS)
        return res;
    pthread_mutex_lock(&cb->core.lock);
    res = set_wait_events(cb, c, (cuda_event_t *const *)phEventWaitList, numEventsInWaitList);
    if (res == UR_RESULT_SUCCESS) {
        for (uint32_t i = 0; i < numEventsInWaitList; ++i) {
            cuda_event_t *w = CUDA_EVENT(phEventWaitList[i]);
            cuda_event_retain_internal(w);
            urc_cb_replace_event(&cb->core, c->core.wait_events[i], w);
            cuda_event_release_internal(c->core.wait_events[i]);
            c->core.wait_events[i] = w;
        }
    } else {
        // Back to the old list.
        set_wait_events(cb, c, (cuda_event_t *const *)c->core.wait_events, numEventsInWaitList);
    }
    pthread_mutex_unlock(&cb->core.lock);
    return res;
}
