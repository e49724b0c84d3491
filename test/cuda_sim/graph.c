// SPDX-License-Identifier: MIT
// Explicit graphs. A graph is its nodes in the order they were added (which is a topological
// order: a node's dependencies exist before it); an executable graph is a copy of them, and a
// launch queues each node's command on the stream in that order, as the eager call would, so
// a graph runs after earlier work on the stream and before later work, and launches of one
// executable graph follow each other. Host functions run on the stream's worker. Event-record
// and event-wait nodes are cuEventRecord and cuStreamWaitEvent on the launch's stream, so they
// really record and wait, in launch order, as on a GPU.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_sim_internal.h"

typedef enum node_kind_t {
    NODE_KERNEL,
    NODE_MEMCPY,
    NODE_MEMSET,
    NODE_EMPTY,
    NODE_HOST,
    NODE_EVENT_RECORD,
    NODE_EVENT_WAIT
} node_kind_t;

/// What a node does; kernel parameters are copied, as the driver does at node creation.
typedef struct node_op_t {
    node_kind_t kind;
    CUfunction func;
    unsigned grid[3], block[3], shared;
    uint8_t *args; // parameter bytes, packed by the function's parameter sizes
    void *params[32];
    CUDA_MEMCPY3D copy;
    CUDA_MEMSET_NODE_PARAMS set;
    CUhostFn host_fn;
    void *host_data;
    CUevent event; // event-record and event-wait nodes
} node_op_t;

struct CUgraphNode_st {
    CUgraph graph;
    size_t index;
};

struct CUgraph_st {
    size_t count, capacity;
    CUgraphNode *nodes;
    node_op_t *ops;
};

struct CUgraphExec_st {
    CUgraph source; // nodes are identified by their index in it
    size_t count;
    node_op_t *ops;
};

static void op_free(node_op_t *op) {
    free(op->args);
    op->args = NULL;
}

/// Copies a kernel's parameters (their sizes come from the module's PTX).
static CUresult op_kernel(node_op_t *op, const CUDA_KERNEL_NODE_PARAMS *p) {
    const sim_func_t *fn = (const sim_func_t *)p->func;
    if (fn == NULL || p->extra != NULL || p->gridDimX == 0 || p->blockDimX == 0)
        return CUDA_ERROR_INVALID_VALUE;
    memset(op, 0, sizeof *op);
    op->kind = NODE_KERNEL;
    op->func = p->func;
    op->grid[0] = p->gridDimX, op->grid[1] = p->gridDimY, op->grid[2] = p->gridDimZ;
    op->block[0] = p->blockDimX, op->block[1] = p->blockDimY, op->block[2] = p->blockDimZ;
    op->shared = p->sharedMemBytes;
    size_t total = 0;
    unsigned n = fn->params_known ? fn->nparams : 0;
    for (unsigned i = 0; i < n; ++i) {
        if (p->kernelParams == NULL || p->kernelParams[i] == NULL)
            return CUDA_ERROR_INVALID_VALUE;
        total += fn->param_size[i];
    }
    op->args = malloc(total ? total : 1);
    if (op->args == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    size_t at = 0;
    for (unsigned i = 0; i < n; ++i) {
        memcpy(op->args + at, p->kernelParams[i], fn->param_size[i]);
        op->params[i] = op->args + at;
        at += fn->param_size[i];
    }
    return CUDA_SUCCESS;
}

static CUresult op_copy(node_op_t *to, const node_op_t *from) {
    *to = *from;
    to->args = NULL;
    if (from->kind != NODE_KERNEL)
        return CUDA_SUCCESS;
    const sim_func_t *fn = (const sim_func_t *)from->func;
    size_t total = 0;
    for (unsigned i = 0; fn->params_known && i < fn->nparams; ++i)
        total += fn->param_size[i];
    to->args = malloc(total ? total : 1);
    if (to->args == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(to->args, from->args, total);
    size_t at = 0;
    for (unsigned i = 0; fn->params_known && i < fn->nparams; ++i) {
        to->params[i] = to->args + at;
        at += fn->param_size[i];
    }
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags) {
    SIM_STICKY();
    if (phGraph == NULL || flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    *phGraph = calloc(1, sizeof **phGraph);
    return *phGraph != NULL ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

SIM_EXPORT CUresult cuGraphDestroy(CUgraph g) {
    if (g == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < g->count; ++i) {
        op_free(&g->ops[i]);
        free(g->nodes[i]);
    }
    free(g->nodes);
    free(g->ops);
    free(g);
    return CUDA_SUCCESS;
}

/// Adds `op` (taken over) after checking that every dependency is a node of `g`, named once
/// (the real driver refuses duplicates with CUDA_ERROR_INVALID_VALUE).
static CUresult add_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                         node_op_t *op) {
    CUresult r = CUDA_SUCCESS;
    if (out == NULL || g == NULL || (ndeps > 0 && deps == NULL))
        r = CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; r == CUDA_SUCCESS && i < ndeps; ++i) {
        if (deps[i] == NULL || deps[i]->graph != g)
            r = CUDA_ERROR_INVALID_VALUE;
        for (size_t j = 0; r == CUDA_SUCCESS && j < i; ++j)
            if (deps[j] == deps[i])
                r = CUDA_ERROR_INVALID_VALUE;
    }
    if (r == CUDA_SUCCESS && g->count == g->capacity) {
        size_t cap = g->capacity ? g->capacity * 2 : 16;
        CUgraphNode *nodes = realloc(g->nodes, cap * sizeof *nodes);
        if (nodes != NULL)
            g->nodes = nodes;
        node_op_t *ops = nodes != NULL ? realloc(g->ops, cap * sizeof *ops) : NULL;
        if (ops != NULL) {
            g->ops = ops;
            g->capacity = cap;
        } else {
            r = CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    CUgraphNode node = r == CUDA_SUCCESS ? calloc(1, sizeof *node) : NULL;
    if (r == CUDA_SUCCESS && node == NULL)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    if (r != CUDA_SUCCESS) {
        op_free(op);
        return r;
    }
    node->graph = g;
    node->index = g->count;
    g->nodes[g->count] = node;
    g->ops[g->count++] = *op;
    *out = node;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuGraphAddKernelNode_v2(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
                                            size_t ndeps, const CUDA_KERNEL_NODE_PARAMS *p) {
    SIM_STICKY();
    node_op_t op;
    CUresult r = p != NULL ? op_kernel(&op, p) : CUDA_ERROR_INVALID_VALUE;
    return r != CUDA_SUCCESS ? r : add_node(out, g, deps, ndeps, &op);
}

SIM_EXPORT CUresult cuGraphAddMemcpyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
                                         size_t ndeps, const CUDA_MEMCPY3D *p, CUcontext ctx) {
    SIM_STICKY();
    (void)ctx;
    if (p == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    node_op_t op = {.kind = NODE_MEMCPY, .copy = *p};
    return add_node(out, g, deps, ndeps, &op);
}

SIM_EXPORT CUresult cuGraphAddMemsetNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
                                         size_t ndeps, const CUDA_MEMSET_NODE_PARAMS *p,
                                         CUcontext ctx) {
    SIM_STICKY();
    (void)ctx;
    if (p == NULL || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) ||
        p->width == 0 || p->height == 0 || (p->height > 1 && p->pitch < p->width * p->elementSize))
        return CUDA_ERROR_INVALID_VALUE;
    node_op_t op = {.kind = NODE_MEMSET, .set = *p};
    return add_node(out, g, deps, ndeps, &op);
}

SIM_EXPORT CUresult cuGraphAddEmptyNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
                                        size_t ndeps) {
    SIM_STICKY();
    node_op_t op = {.kind = NODE_EMPTY};
    return add_node(out, g, deps, ndeps, &op);
}

static CUresult add_event_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                               node_kind_t kind, CUevent event) {
    SIM_STICKY();
    if (event == NULL)
        return CUDA_ERROR_INVALID_HANDLE;
    node_op_t op = {.kind = kind, .event = event};
    return add_node(out, g, deps, ndeps, &op);
}

SIM_EXPORT CUresult cuGraphAddEventRecordNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
                                              size_t ndeps, CUevent event) {
    return add_event_node(out, g, deps, ndeps, NODE_EVENT_RECORD, event);
}

SIM_EXPORT CUresult cuGraphAddEventWaitNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
                                            size_t ndeps, CUevent event) {
    return add_event_node(out, g, deps, ndeps, NODE_EVENT_WAIT, event);
}

/// The event of an event node of `kind` in `ops` (a graph's or an executable graph's).
static CUresult set_event(node_op_t *ops, size_t count, CUgraphNode node, node_kind_t kind,
                          CUevent event) {
    SIM_STICKY();
    if (node == NULL || event == NULL || node->index >= count || ops[node->index].kind != kind)
        return CUDA_ERROR_INVALID_VALUE;
    ops[node->index].event = event;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode node, CUevent event) {
    return node == NULL
               ? CUDA_ERROR_INVALID_VALUE
               : set_event(node->graph->ops, node->graph->count, node, NODE_EVENT_RECORD, event);
}

SIM_EXPORT CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode node, CUevent event) {
    return node == NULL
               ? CUDA_ERROR_INVALID_VALUE
               : set_event(node->graph->ops, node->graph->count, node, NODE_EVENT_WAIT, event);
}

/// Removes a node from the work of its graph: it stays as an empty node (indices identify
/// nodes here), which depends on nothing a later node needs, as only a node nothing depends on
/// may be destroyed.
SIM_EXPORT CUresult cuGraphDestroyNode(CUgraphNode node) {
    SIM_STICKY();
    if (node == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    node_op_t *op = &node->graph->ops[node->index];
    op_free(op);
    memset(op, 0, sizeof *op);
    op->kind = NODE_EMPTY;
    return CUDA_SUCCESS;
}

/// A child graph is inlined: copies of its nodes join `g`, the first depending on `deps` (nodes
/// run in creation order), and an empty node after them is the node that stands for the child.
SIM_EXPORT CUresult cuGraphAddChildGraphNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
                                             size_t ndeps, CUgraph child) {
    SIM_STICKY();
    if (out == NULL || g == NULL || child == NULL || child == g)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    for (size_t i = 0; r == CUDA_SUCCESS && i < child->count; ++i) {
        node_op_t op;
        CUgraphNode node = NULL;
        r = op_copy(&op, &child->ops[i]);
        if (r == CUDA_SUCCESS)
            r = add_node(&node, g, i == 0 ? deps : NULL, i == 0 ? ndeps : 0, &op);
    }
    node_op_t empty = {.kind = NODE_EMPTY};
    return r != CUDA_SUCCESS
               ? r
               : add_node(out, g, child->count ? NULL : deps, child->count ? 0 : ndeps, &empty);
}

SIM_EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec *out, CUgraph g,
                                                unsigned long long flags) {
    SIM_STICKY();
    if (out == NULL || g == NULL || flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    CUgraphExec e = calloc(1, sizeof *e);
    if (e == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    e->source = g;
    e->ops = calloc(g->count ? g->count : 1, sizeof *e->ops);
    if (e->ops == NULL) {
        free(e);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < g->count; ++i) {
        if (op_copy(&e->ops[i], &g->ops[i]) != CUDA_SUCCESS) {
            e->count = i;
            cuGraphExecDestroy(e);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    e->count = g->count;
    *out = e;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuGraphExecDestroy(CUgraphExec e) {
    if (e == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < e->count; ++i)
        op_free(&e->ops[i]);
    free(e->ops);
    free(e);
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec e, CUgraphNode node,
                                                      const CUDA_KERNEL_NODE_PARAMS *p) {
    SIM_STICKY();
    if (e == NULL || node == NULL || p == NULL || node->graph != e->source ||
        node->index >= e->count || e->ops[node->index].kind != NODE_KERNEL)
        return CUDA_ERROR_INVALID_VALUE;
    node_op_t op;
    CUresult r = op_kernel(&op, p);
    if (r != CUDA_SUCCESS)
        return r;
    op_free(&e->ops[node->index]);
    e->ops[node->index] = op;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec e, CUgraphNode node,
                                                       CUevent event) {
    if (e == NULL || node == NULL || node->graph != e->source)
        return CUDA_ERROR_INVALID_VALUE;
    return set_event(e->ops, e->count, node, NODE_EVENT_RECORD, event);
}

SIM_EXPORT CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec e, CUgraphNode node,
                                                     CUevent event) {
    if (e == NULL || node == NULL || node->graph != e->source)
        return CUDA_ERROR_INVALID_VALUE;
    return set_event(e->ops, e->count, node, NODE_EVENT_WAIT, event);
}

static CUresult run_memset(CUstream s, const CUDA_MEMSET_NODE_PARAMS *p) {
    switch (p->elementSize) {
    case 4:
        return cuMemsetD2D32Async(p->dst, p->pitch, p->value, p->width, p->height, s);
    case 2:
        return cuMemsetD2D16Async(p->dst, p->pitch, (unsigned short)p->value, p->width, p->height,
                                  s);
    default:
        return cuMemsetD2D8Async(p->dst, p->pitch, (unsigned char)p->value, p->width, p->height, s);
    }
}

SIM_EXPORT CUresult cuGraphLaunch(CUgraphExec e, CUstream s) {
    SIM_STICKY();
    if (e == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    for (size_t i = 0; i < e->count && r == CUDA_SUCCESS; ++i) {
        node_op_t *op = &e->ops[i];
        switch (op->kind) {
        case NODE_KERNEL:
            r = cuLaunchKernel(op->func, op->grid[0], op->grid[1], op->grid[2], op->block[0],
                               op->block[1], op->block[2], op->shared, s, op->params, NULL);
            break;
        case NODE_MEMCPY:
            r = cuMemcpy3DAsync(&op->copy, s);
            break;
        case NODE_MEMSET:
            r = run_memset(s, &op->set);
            break;
        case NODE_HOST:
            r = cuLaunchHostFunc(s, op->host_fn, op->host_data);
            break;
        case NODE_EVENT_RECORD:
            r = cuEventRecord(op->event, s);
            break;
        case NODE_EVENT_WAIT:
            r = cuStreamWaitEvent(s, op->event, 0);
            break;
        case NODE_EMPTY:
            break;
        }
    }
    return r;
}

typedef struct host_call_t {
    CUhostFn fn;
    void *data;
} host_call_t;

static void run_host(sim_op_t *op) {
    host_call_t *h = op->data;
    h->fn(h->data);
}

SIM_EXPORT CUresult cuLaunchHostFunc(CUstream s, CUhostFn fn, void *data) {
    SIM_STICKY();
    if (fn == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult captured = CUDA_SUCCESS;
    if (sim_capture_host(s, fn, data, &captured))
        return captured;
    host_call_t *h = malloc(sizeof *h);
    if (h == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    h->fn = fn;
    h->data = data;
    return sim_enqueue(s, run_host, h);
}

// ---- stream capture ----
// A capturing stream adds each command as a node after the previous one instead of queueing
// it; cuStreamEndCapture hands the graph out.

static bool capture_add(CUstream s, node_op_t *op, CUresult *r) {
    sim_capture_t *c = sim_stream_capture(s);
    if (c->graph == NULL)
        return false;
    CUgraphNode node = NULL;
    *r = add_node(&node, c->graph, c->last != NULL ? &c->last : NULL, c->last != NULL, op);
    if (*r == CUDA_SUCCESS)
        c->last = node;
    return true;
}

bool sim_capture_kernel(CUstream s, CUfunction f, const unsigned grid[3], const unsigned block[3],
                        unsigned shared, void **params, CUresult *r) {
    if (sim_stream_capture(s)->graph == NULL)
        return false;
    CUDA_KERNEL_NODE_PARAMS p = {.func = f,
                                 .gridDimX = grid[0],
                                 .gridDimY = grid[1],
                                 .gridDimZ = grid[2],
                                 .blockDimX = block[0],
                                 .blockDimY = block[1],
                                 .blockDimZ = block[2],
                                 .sharedMemBytes = shared,
                                 .kernelParams = params};
    node_op_t op;
    *r = op_kernel(&op, &p);
    return *r != CUDA_SUCCESS || capture_add(s, &op, r);
}

bool sim_capture_copy(CUstream s, const CUDA_MEMCPY3D *p, CUresult *r) {
    node_op_t op = {.kind = NODE_MEMCPY, .copy = *p};
    return capture_add(s, &op, r);
}

bool sim_capture_fill(CUstream s, CUdeviceptr dst, size_t pitch, uint32_t value, unsigned element,
                      size_t width, size_t height, CUresult *r) {
    node_op_t op = {.kind = NODE_MEMSET,
                    .set = {.dst = dst,
                            .pitch = pitch,
                            .value = value,
                            .elementSize = element,
                            .width = width,
                            .height = height}};
    return capture_add(s, &op, r);
}

bool sim_capture_host(CUstream s, CUhostFn fn, void *data, CUresult *r) {
    node_op_t op = {.kind = NODE_HOST, .host_fn = fn, .host_data = data};
    return capture_add(s, &op, r);
}

static CUresult begin_capture(CUstream s, CUgraph g, bool owns) {
    SIM_STICKY();
    sim_capture_t *c = sim_stream_capture(s);
    if (s == NULL || c->graph != NULL)
        return CUDA_ERROR_ILLEGAL_STATE; // the legacy stream cannot capture; no nesting
    c->graph = g;
    c->owns_graph = owns;
    // Capturing into an existing graph continues after its last node.
    c->last = g->count > 0 ? g->nodes[g->count - 1] : NULL;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode mode) {
    (void)mode;
    CUgraph g = NULL;
    CUresult r = cuGraphCreate(&g, 0);
    if (r == CUDA_SUCCESS && (r = begin_capture(s, g, true)) != CUDA_SUCCESS)
        cuGraphDestroy(g);
    return r;
}

SIM_EXPORT CUresult cuStreamBeginCaptureToGraph(CUstream s, CUgraph g, const CUgraphNode *deps,
                                                const CUgraphEdgeData *edges, size_t ndeps,
                                                CUstreamCaptureMode mode) {
    (void)deps, (void)edges, (void)ndeps, (void)mode;
    if (g == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    return begin_capture(s, g, false);
}

SIM_EXPORT CUresult cuStreamEndCapture(CUstream s, CUgraph *phGraph) {
    sim_capture_t *c = sim_stream_capture(s);
    if (phGraph == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    if (c->graph == NULL)
        return CUDA_ERROR_ILLEGAL_STATE;
    *phGraph = c->graph;
    c->graph = NULL;
    c->last = NULL;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *status) {
    if (status == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    *status = sim_stream_capture(s)->graph != NULL ? CU_STREAM_CAPTURE_STATUS_ACTIVE
                                                   : CU_STREAM_CAPTURE_STATUS_NONE;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuGraphGetNodes(CUgraph g, CUgraphNode *nodes, size_t *count) {
    if (g == NULL || count == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    if (nodes != NULL)
        for (size_t i = 0; i < *count && i < g->count; ++i)
            nodes[i] = g->nodes[i];
    *count = g->count;
    return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuGraphDebugDotPrint(CUgraph g, const char *path, unsigned int flags) {
    (void)flags;
    if (g == NULL || path == NULL)
        return CUDA_ERROR_INVALID_VALUE;
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return CUDA_ERROR_OPERATING_SYSTEM;
    static const char *kinds[] = {"kernel", "memcpy", "memset",    "empty",
                                  "host",   "record", "wait event"};
    fprintf(f, "digraph sim {\n");
    for (size_t i = 0; i < g->count; ++i) {
        fprintf(f, "  n%zu [label=\"%s\"];\n", i, kinds[g->ops[i].kind]);
        if (i > 0)
            fprintf(f, "  n%zu -> n%zu;\n", i - 1, i);
    }
    fprintf(f, "}\n");
    fclose(f);
    return CUDA_SUCCESS;
}
