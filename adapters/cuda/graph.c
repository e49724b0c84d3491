// SPDX-License-Identifier: MIT
// Graph capture: a queue's commands recorded into a CUDA graph by stream capture instead of
// run, then instantiated and enqueued like any command. Every capture goes into a graph of
// ours (cuStreamBeginCaptureToGraph, CUDA 12.3), so urQueueGetGraphExp can name it while the
// capture runs. In-order queues only: their one stream is the one captured.
#include <stdlib.h>

#include "cuda_internal.h"

#define GRAPH_CHECK(h)                                                                             \
    do {                                                                                           \
        if (!cuda_is((h), URC_KIND_GRAPH))                                                         \
            return UR_RESULT_ERROR_INVALID_GRAPH;                                                  \
    } while (0)

bool cuda_graph_capture_available(void) {
    return cu.GraphCreate != NULL && cu.GraphDestroy != NULL &&
           cu.GraphInstantiateWithFlags != NULL && cu.GraphLaunch != NULL &&
           cu.GraphExecDestroy != NULL && cu.StreamBeginCaptureToGraph != NULL &&
           cu.StreamEndCapture != NULL && cu.StreamIsCapturing != NULL && cu.GraphGetNodes != NULL;
}

static ur_result_t unavailable(void) {
    return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                         "graph capture needs a CUDA 12.3 driver (cuStreamBeginCaptureToGraph)");
}

static _Atomic uint64_t next_graph_id = 1;

ur_result_t cuda_graph_create_exp(ur_context_handle_t hContext, ur_exp_graph_handle_t *phGraph) {
    if (!cuda_graph_capture_available())
        return unavailable();
    cuda_context_t *ctx = CUDA_CONTEXT(hContext);
    cuda_graph_t *g = URC_NEW(cuda_graph_t);
    if (g == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ur_result_t res = cuda_activate(ctx->devices[0]);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.GraphCreate(&g->graph, 0), "cuGraphCreate");
    if (res != UR_RESULT_SUCCESS) {
        free(g);
        return res;
    }
    urc_object_init(&g->obj, &cuda_ddi, URC_KIND_GRAPH);
    g->ctx = ctx;
    g->id = atomic_fetch_add(&next_graph_id, 1);
    pthread_mutex_init(&g->lock, NULL);
    cuda_context_retain_internal(ctx);
    *phGraph = (ur_exp_graph_handle_t)g;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_graph_destroy_exp(ur_exp_graph_handle_t hGraph) {
    GRAPH_CHECK(hGraph);
    cuda_graph_t *g = (cuda_graph_t *)hGraph;
    // Callbacks in registration order, before the graph goes.
    for (cuda_graph_destruction_t *c = g->callbacks; c != NULL;) {
        cuda_graph_destruction_t *next = c->next;
        c->fn(c->data);
        free(c);
        c = next;
    }
    cuda_activate(g->ctx->devices[0]);
    cu.GraphDestroy(g->graph);
    pthread_mutex_destroy(&g->lock);
    cuda_context_release_internal(g->ctx);
    URC_OBJECT_FREE(g);
    return UR_RESULT_SUCCESS;
}

static ur_result_t capturing_queue(ur_queue_handle_t hQueue, cuda_queue_t **out) {
    if (!cuda_is(hQueue, URC_KIND_QUEUE))
        return UR_RESULT_ERROR_INVALID_QUEUE;
    if (!cuda_graph_capture_available())
        return unavailable();
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    if (q->nstreams != 1)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "graph capture needs an in-order queue");
    *out = q;
    // Capture works on the queue's one stream, which queues make only on first use.
    ur_result_t res = cuda_activate(q->dev);
    return res == UR_RESULT_SUCCESS ? cuda_queue_make_all_streams(q) : res;
}

ur_result_t cuda_queue_begin_capture_into_graph_exp(ur_queue_handle_t hQueue,
                                                    ur_exp_graph_handle_t hGraph) {
    cuda_queue_t *q;
    ur_result_t res = capturing_queue(hQueue, &q);
    if (res != UR_RESULT_SUCCESS)
        return res;
    GRAPH_CHECK(hGraph);
    cuda_graph_t *g = (cuda_graph_t *)hGraph;
    if (g->ctx != q->ctx)
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the graph belongs to another context than the queue");
    if (q->capture != NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0, "the queue is capturing");
    // Relaxed: the adapter's own calls on other threads (event queries) stay legal.
    res = cuda_ok(cu.StreamBeginCaptureToGraph(q->streams[0], g->graph, NULL, NULL, 0,
                                               CU_STREAM_CAPTURE_MODE_RELAXED),
                  "cuStreamBeginCaptureToGraph");
    if (res == UR_RESULT_SUCCESS)
        q->capture = g;
    return res;
}

ur_result_t cuda_queue_begin_graph_capture_exp(ur_queue_handle_t hQueue) {
    cuda_queue_t *q;
    ur_result_t res = capturing_queue(hQueue, &q);
    if (res != UR_RESULT_SUCCESS)
        return res;
    ur_exp_graph_handle_t g = NULL;
    res = cuda_graph_create_exp((ur_context_handle_t)q->ctx, &g);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_queue_begin_capture_into_graph_exp(hQueue, g);
    if (res != UR_RESULT_SUCCESS && g != NULL)
        cuda_graph_destroy_exp(g);
    return res;
}

ur_result_t cuda_queue_end_graph_capture_exp(ur_queue_handle_t hQueue,
                                             ur_exp_graph_handle_t *phGraph) {
    cuda_queue_t *q;
    ur_result_t res = capturing_queue(hQueue, &q);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (q->capture == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0, "the queue is not capturing");
    CUgraph captured = NULL;
    res = cuda_ok(cu.StreamEndCapture(q->streams[0], &captured), "cuStreamEndCapture");
    // The capture is over either way (an invalidated capture ends with an error).
    *phGraph = (ur_exp_graph_handle_t)q->capture;
    q->capture = NULL;
    return res;
}

ur_result_t cuda_queue_is_graph_capture_enabled_exp(ur_queue_handle_t hQueue, bool *pResult) {
    cuda_queue_t *q;
    ur_result_t res = capturing_queue(hQueue, &q);
    if (res != UR_RESULT_SUCCESS)
        return res;
    CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
    res = cuda_ok(cu.StreamIsCapturing(q->streams[0], &status), "cuStreamIsCapturing");
    if (res == UR_RESULT_SUCCESS)
        *pResult = status == CU_STREAM_CAPTURE_STATUS_ACTIVE;
    return res;
}

ur_result_t cuda_queue_get_graph_exp(ur_queue_handle_t hQueue, ur_exp_graph_handle_t *phGraph) {
    cuda_queue_t *q;
    ur_result_t res = capturing_queue(hQueue, &q);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (q->capture == NULL)
        return urc_error_set(UR_RESULT_ERROR_INVALID_OPERATION, 0, "the queue is not capturing");
    *phGraph = (ur_exp_graph_handle_t)q->capture;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_graph_instantiate_graph_exp(ur_exp_graph_handle_t hGraph,
                                             ur_exp_executable_graph_handle_t *phExecGraph) {
    GRAPH_CHECK(hGraph);
    cuda_graph_t *g = (cuda_graph_t *)hGraph;
    cuda_exec_graph_t *e = URC_NEW(cuda_exec_graph_t);
    if (e == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    ur_result_t res = cuda_activate(g->ctx->devices[0]);
    if (res == UR_RESULT_SUCCESS)
        res = cuda_ok(cu.GraphInstantiateWithFlags(&e->exec, g->graph, 0),
                      "cuGraphInstantiateWithFlags");
    if (res != UR_RESULT_SUCCESS) {
        free(e);
        return res;
    }
    urc_object_init(&e->obj, &cuda_ddi, URC_KIND_EXECUTABLE_GRAPH);
    e->ctx = g->ctx;
    cuda_context_retain_internal(g->ctx);
    *phExecGraph = (ur_exp_executable_graph_handle_t)e;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_enqueue_graph_exp(ur_queue_handle_t hQueue,
                                   ur_exp_executable_graph_handle_t hGraph,
                                   uint32_t numEventsInWaitList,
                                   const ur_event_handle_t *phEventWaitList,
                                   ur_event_handle_t *phEvent) {
    if (!cuda_is(hGraph, URC_KIND_EXECUTABLE_GRAPH))
        return UR_RESULT_ERROR_INVALID_GRAPH;
    cuda_queue_t *q = CUDA_QUEUE(hQueue);
    cuda_exec_graph_t *e = (cuda_exec_graph_t *)hGraph;
    if (e->ctx != q->ctx)
        return urc_error_set(UR_RESULT_ERROR_INVALID_CONTEXT, 0,
                             "the graph belongs to another context than the queue");
    cuda_op_t op;
    ur_result_t res = cuda_op_begin(q, UR_COMMAND_ENQUEUE_GRAPH_EXP, numEventsInWaitList,
                                    phEventWaitList, phEvent, &op);
    if (res != UR_RESULT_SUCCESS)
        return res;
    res = cuda_ok(cu.GraphLaunch(e->exec, op.stream), "cuGraphLaunch");
    return cuda_op_end(&op, res, false, phEvent);
}

ur_result_t
cuda_graph_executable_graph_destroy_exp(ur_exp_executable_graph_handle_t hExecutableGraph) {
    if (!cuda_is(hExecutableGraph, URC_KIND_EXECUTABLE_GRAPH))
        return UR_RESULT_ERROR_INVALID_GRAPH;
    cuda_exec_graph_t *e = (cuda_exec_graph_t *)hExecutableGraph;
    cuda_activate(e->ctx->devices[0]);
    cu.GraphExecDestroy(e->exec);
    cuda_context_release_internal(e->ctx);
    URC_OBJECT_FREE(e);
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_graph_is_empty_exp(ur_exp_graph_handle_t hGraph, bool *pResult) {
    GRAPH_CHECK(hGraph);
    size_t n = 0;
    ur_result_t res =
        cuda_ok(cu.GraphGetNodes(((cuda_graph_t *)hGraph)->graph, NULL, &n), "cuGraphGetNodes");
    if (res == UR_RESULT_SUCCESS)
        *pResult = n == 0;
    return res;
}

ur_result_t cuda_graph_get_id_exp(ur_exp_graph_handle_t hGraph, uint64_t *pGraphId) {
    GRAPH_CHECK(hGraph);
    *pGraphId = ((cuda_graph_t *)hGraph)->id;
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_graph_set_destruction_callback_exp(ur_exp_graph_handle_t hGraph,
                                                    ur_exp_graph_destruction_callback_t pfnCallback,
                                                    void *pUserData) {
    GRAPH_CHECK(hGraph);
    cuda_graph_t *g = (cuda_graph_t *)hGraph;
    cuda_graph_destruction_t *c = URC_NEW(cuda_graph_destruction_t);
    if (c == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    c->fn = pfnCallback;
    c->data = pUserData;
    pthread_mutex_lock(&g->lock);
    cuda_graph_destruction_t **tail = &g->callbacks;
    while (*tail != NULL)
        tail = &(*tail)->next;
    *tail = c;
    pthread_mutex_unlock(&g->lock);
    return UR_RESULT_SUCCESS;
}

ur_result_t cuda_graph_dump_contents_exp(ur_exp_graph_handle_t hGraph, const char *filePath) {
    GRAPH_CHECK(hGraph);
    if (cu.GraphDebugDotPrint == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the driver has no cuGraphDebugDotPrint");
    return cuda_ok(cu.GraphDebugDotPrint(((cuda_graph_t *)hGraph)->graph, filePath, 0),
                   "cuGraphDebugDotPrint");
}

ur_result_t cuda_graph_get_native_handle_exp(ur_exp_graph_handle_t hGraph,
                                             ur_native_handle_t *phNativeGraph) {
    GRAPH_CHECK(hGraph);
    *phNativeGraph = (ur_native_handle_t)((cuda_graph_t *)hGraph)->graph;
    return UR_RESULT_SUCCESS;
}

ur_result_t
cuda_graph_executable_graph_get_native_handle_exp(ur_exp_executable_graph_handle_t hExecutableGraph,
                                                  ur_native_handle_t *phNativeExecutableGraph) {
    if (!cuda_is(hExecutableGraph, URC_KIND_EXECUTABLE_GRAPH))
        return UR_RESULT_ERROR_INVALID_GRAPH;
    *phNativeExecutableGraph = (ur_native_handle_t)((cuda_exec_graph_t *)hExecutableGraph)->exec;
    return UR_RESULT_SUCCESS;
}
