// SPDX-License-Identifier: MIT
// Explicit graphs. A graph is its nodes in the order they were added (which is a topological
// order: a node's dependencies exist before it); an executable graph is a copy of them, and a
// launch queues each node's command on the stream in that order, as the eager call would, so
// a graph runs after earlier work on the stream and before later work, and launches of one
// executable graph follow each other. Host functions run on the stream's worker.
#include <stdlib.h>
#include <string.h>

#include "cuda_sim_internal.h"

typedef enum node_kind_t { NODE_KERNEL, NODE_MEMCPY, NODE_MEMSET, NODE_EMPTY } node_kind_t;

/// What a node does; kernel parameters are copied, as the driver does at node creation.
typedef struct node_op_t {
    node_kind_t kind;
    CUfunction func;
    unsigned grid[3], block[3], shared;
    uint8_t *args; // parameter bytes, packed by the function's parameter sizes
    void *params[32];
    CUDA_MEMCPY3D copy;
    CUDA_MEMSET_NODE_PARAMS set;
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

/// Adds `op` (taken over) after checking that every dependency is a node of `g`.
static CUresult add_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t ndeps,
                         node_op_t *op) {
    CUresult r = CUDA_SUCCESS;
    if (out == NULL || g == NULL || (ndeps > 0 && deps == NULL))
        r = CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; r == CUDA_SUCCESS && i < ndeps; ++i)
        if (deps[i] == NULL || deps[i]->graph != g)
            r = CUDA_ERROR_INVALID_VALUE;
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
    host_call_t *h = malloc(sizeof *h);
    if (h == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    h->fn = fn;
    h->data = data;
    return sim_enqueue(s, run_host, h);
}
