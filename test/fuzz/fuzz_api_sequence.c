// SPDX-License-Identifier: MIT
// libFuzzer target over sequences of API calls: create, retain, release, enqueue, wait,
// set-callback and query over a small pool of handles, through the real loader on whichever
// device the environment selects (scripts/run-fuzzers runs it on the simulated Level Zero and
// CUDA drivers). The target plays a correct caller: it never uses a handle it no longer holds
// a reference to, so anything AddressSanitizer, UBSan or a hang finds is urc's.
//
// Input: a stream of operations, each an opcode byte and operand bytes (fuzz_input.h reads
// zeros past the end). Every input ends by releasing what it still holds, so inputs do not
// leak into each other.
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "ur_api.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { CONTEXTS = 2, QUEUES = 3, BUFFERS = 3, EVENTS = 6, USMS = 2, OPS = 48, BYTES = 256 };

// A pool slot: the handle and how many references this caller holds to it.
typedef struct slot_t {
    void *h;
    unsigned refs;
} slot_t;

static ur_adapter_handle_t adapter;
static ur_device_handle_t device;
static ur_context_handle_t base_context; // lives for the whole run
static atomic_uint callbacks;

static slot_t contexts[CONTEXTS], queues[QUEUES], buffers[BUFFERS], events[EVENTS];
static void *usm[USMS];
static ur_context_handle_t usm_context[USMS];
static unsigned char host[BYTES];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    ur_platform_handle_t platform = NULL;
    if (urLoaderInit(0, NULL) != UR_RESULT_SUCCESS ||
        urAdapterGet(1, &adapter, NULL) != UR_RESULT_SUCCESS ||
        urPlatformGet(adapter, 1, &platform, NULL) != UR_RESULT_SUCCESS ||
        urDeviceGet(platform, UR_DEVICE_TYPE_ALL, 1, &device, NULL) != UR_RESULT_SUCCESS ||
        urContextCreate(1, &device, NULL, &base_context) != UR_RESULT_SUCCESS)
        abort(); // no device: nothing to fuzz, and a silent pass would mislead
    return 0;
}

static slot_t *pick(slot_t *pool, size_t n, fuzz_input_t *in) {
    return &pool[fz_u8(in) % n];
}

static ur_context_handle_t some_context(fuzz_input_t *in) {
    slot_t *s = pick(contexts, CONTEXTS, in);
    return s->refs > 0 ? s->h : base_context;
}

static void drop(slot_t *s, ur_result_t (*release)(void *)) {
    if (s->refs == 0)
        return;
    release(s->h);
    if (--s->refs == 0)
        s->h = NULL;
}

// An event wait list of up to three held events (duplicates allowed, as UR allows).
static uint32_t wait_list(fuzz_input_t *in, ur_event_handle_t list[3]) {
    uint32_t n = 0, want = fz_u8(in) % 4;
    for (uint32_t i = 0; i < want; ++i) {
        slot_t *e = pick(events, EVENTS, in);
        if (e->refs > 0)
            list[n++] = e->h;
    }
    return n;
}

// Keeps a new event in a free slot, or releases it when none is free.
static void keep_event(ur_event_handle_t ev) {
    if (ev == NULL)
        return;
    for (size_t i = 0; i < EVENTS; ++i)
        if (events[i].refs == 0) {
            events[i] = (slot_t){ev, 1};
            return;
        }
    urEventRelease(ev);
}

static void callback(ur_event_handle_t ev, ur_execution_info_t status, void *data) {
    (void)ev;
    (void)status;
    (void)data;
    atomic_fetch_add(&callbacks, 1);
}

static void enqueue(fuzz_input_t *in, uint8_t kind) {
    slot_t *q = pick(queues, QUEUES, in);
    if (q->refs == 0)
        return;
    ur_event_handle_t list[3];
    uint32_t n = wait_list(in, list);
    ur_event_handle_t ev = NULL;
    ur_event_handle_t *out = fz_u8(in) & 1 ? &ev : NULL;
    size_t offset = fz_u8(in) % 64, size = 1 + fz_u8(in) % 64;
    slot_t *b = pick(buffers, BUFFERS, in);
    switch (kind % 5) {
    case 0:
        if (b->refs > 0)
            urEnqueueMemBufferWrite(q->h, b->h, fz_u8(in) & 1, offset, size, host, n,
                                    n ? list : NULL, out);
        break;
    case 1:
        if (b->refs > 0)
            urEnqueueMemBufferRead(q->h, b->h, fz_u8(in) & 1, offset, size, host + 64, n,
                                   n ? list : NULL, out);
        break;
    case 2: {
        uint32_t pattern = 0x5a5a5a5a;
        if (b->refs > 0)
            urEnqueueMemBufferFill(q->h, b->h, &pattern, 4, offset & ~(size_t)3, 4, n,
                                   n ? list : NULL, out);
        break;
    }
    case 3: {
        size_t u = fz_u8(in) % USMS;
        if (usm[u] != NULL)
            urEnqueueUSMMemcpy(q->h, fz_u8(in) & 1, usm[u], host, size, n, n ? list : NULL, out);
        break;
    }
    default:
        if (fz_u8(in) & 1)
            urEnqueueEventsWaitWithBarrier(q->h, n, n ? list : NULL, out);
        else
            urEnqueueEventsWait(q->h, n, n ? list : NULL, out);
        break;
    }
    keep_event(ev);
}

static void one_op(fuzz_input_t *in) {
    uint8_t op = fz_u8(in);
    switch (op % 16) {
    case 0: { // context
        slot_t *c = pick(contexts, CONTEXTS, in);
        if (c->refs == 0 &&
            urContextCreate(1, &device, NULL, (ur_context_handle_t *)&c->h) == UR_RESULT_SUCCESS)
            c->refs = 1;
        else if (c->refs > 0 && urContextRetain(c->h) == UR_RESULT_SUCCESS)
            ++c->refs;
        break;
    }
    case 1:
        drop(pick(contexts, CONTEXTS, in), (ur_result_t(*)(void *))urContextRelease);
        break;
    case 2: { // queue, in order or not
        slot_t *q = pick(queues, QUEUES, in);
        ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                       fz_u8(in) & 1 ? UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE
                                                     : 0};
        if (q->refs == 0 && urQueueCreate(some_context(in), device, &props,
                                          (ur_queue_handle_t *)&q->h) == UR_RESULT_SUCCESS)
            q->refs = 1;
        else if (q->refs > 0 && urQueueRetain(q->h) == UR_RESULT_SUCCESS)
            ++q->refs;
        break;
    }
    case 3:
        drop(pick(queues, QUEUES, in), (ur_result_t(*)(void *))urQueueRelease);
        break;
    case 4: { // buffer
        slot_t *b = pick(buffers, BUFFERS, in);
        if (b->refs == 0 && urMemBufferCreate(some_context(in), UR_MEM_FLAG_READ_WRITE, 128, NULL,
                                              (ur_mem_handle_t *)&b->h) == UR_RESULT_SUCCESS)
            b->refs = 1;
        else if (b->refs > 0 && urMemRetain(b->h) == UR_RESULT_SUCCESS)
            ++b->refs;
        break;
    }
    case 5:
        drop(pick(buffers, BUFFERS, in), (ur_result_t(*)(void *))urMemRelease);
        break;
    case 6:
    case 7:
    case 8:
        enqueue(in, fz_u8(in));
        break;
    case 9: { // wait on some held events
        ur_event_handle_t list[3];
        uint32_t n = wait_list(in, list);
        if (n > 0)
            urEventWait(n, list);
        break;
    }
    case 10: {
        slot_t *e = pick(events, EVENTS, in);
        if (e->refs > 0 && urEventRetain(e->h) == UR_RESULT_SUCCESS)
            ++e->refs;
        break;
    }
    case 11:
        drop(pick(events, EVENTS, in), (ur_result_t(*)(void *))urEventRelease);
        break;
    case 12: { // a callback; the event is then held until the end of the input (see above)
        slot_t *e = pick(events, EVENTS, in);
        if (e->refs > 0 && urEventRetain(e->h) == UR_RESULT_SUCCESS) {
            ++e->refs;
            urEventSetCallback(e->h, UR_EXECUTION_INFO_COMPLETE, callback, NULL);
        }
        break;
    }
    case 13: { // queries
        slot_t *e = pick(events, EVENTS, in);
        uint32_t v = 0;
        if (e->refs > 0) {
            urEventGetInfo(e->h, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof v, &v, NULL);
            urEventGetInfo(e->h, UR_EVENT_INFO_REFERENCE_COUNT, sizeof v, &v, NULL);
        }
        slot_t *q = pick(queues, QUEUES, in);
        if (q->refs > 0)
            urQueueGetInfo(q->h, UR_QUEUE_INFO_REFERENCE_COUNT, sizeof v, &v, NULL);
        break;
    }
    case 14: {
        slot_t *q = pick(queues, QUEUES, in);
        if (q->refs > 0)
            fz_u8(in) & 1 ? urQueueFinish(q->h) : urQueueFlush(q->h);
        break;
    }
    default: { // USM: allocate into an empty slot, or free a full one
        size_t u = fz_u8(in) % USMS;
        if (usm[u] == NULL) {
            usm_context[u] = base_context;
            if (urUSMSharedAlloc(base_context, device, NULL, NULL, BYTES, &usm[u]) !=
                    UR_RESULT_SUCCESS &&
                urUSMHostAlloc(base_context, NULL, NULL, BYTES, &usm[u]) != UR_RESULT_SUCCESS)
                usm[u] = NULL;
        } else {
            // Commands may still use it: wait for every queue first, as a caller must.
            for (size_t i = 0; i < QUEUES; ++i)
                if (queues[i].refs > 0)
                    urQueueFinish(queues[i].h);
            urUSMFree(usm_context[u], usm[u]);
            usm[u] = NULL;
        }
        break;
    }
    }
}

static void release_all(void) {
    for (size_t i = 0; i < QUEUES; ++i)
        if (queues[i].refs > 0)
            urQueueFinish(queues[i].h);
    for (size_t i = 0; i < EVENTS; ++i) {
        if (events[i].refs > 0)
            urEventWait(1, (ur_event_handle_t *)&events[i].h);
        while (events[i].refs > 0)
            drop(&events[i], (ur_result_t(*)(void *))urEventRelease);
    }
    for (size_t i = 0; i < USMS; ++i)
        if (usm[i] != NULL) {
            urUSMFree(usm_context[i], usm[i]);
            usm[i] = NULL;
        }
    for (size_t i = 0; i < QUEUES; ++i)
        while (queues[i].refs > 0)
            drop(&queues[i], (ur_result_t(*)(void *))urQueueRelease);
    for (size_t i = 0; i < BUFFERS; ++i)
        while (buffers[i].refs > 0)
            drop(&buffers[i], (ur_result_t(*)(void *))urMemRelease);
    for (size_t i = 0; i < CONTEXTS; ++i)
        while (contexts[i].refs > 0)
            drop(&contexts[i], (ur_result_t(*)(void *))urContextRelease);
}

// Every so often the device must still work after all that was released: a run whose calls
// all fail fast (an adapter or driver worn out by what earlier inputs left behind) would
// otherwise count executions that test nothing.
static void check_device_still_works(void) {
    static unsigned inputs;
    if (++inputs % 1000 != 0)
        return;
    ur_queue_handle_t q = NULL;
    ur_event_handle_t ev = NULL;
    if (urQueueCreate(base_context, device, NULL, &q) != UR_RESULT_SUCCESS ||
        urEnqueueEventsWait(q, 0, NULL, &ev) != UR_RESULT_SUCCESS ||
        urEventWait(1, &ev) != UR_RESULT_SUCCESS)
        abort();
    urEventRelease(ev);
    urQueueRelease(q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input_t in = {data, size, {0}, 0};
    for (int i = 0; i < OPS && in.n > 0; ++i)
        one_op(&in);
    release_all();
    check_device_still_works();
    return 0;
}
