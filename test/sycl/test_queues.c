// SPDX-License-Identifier: MIT
// Contexts, queues (in order and not), USM of the three kinds, memset / memcpy / fill, events
// and their wait lists, as SYCL drives them through urc. Every test reads the data back.
#include <stdint.h>
#include <string.h>

#include "sycl_test.h"

enum { N = 1024 };

static DPCTLSyclDeviceRef device;
static DPCTLSyclQueueRef queue;

static void setup(void) {
    st_require_urc();
    device = st_device();
    queue = st_queue(device, DPCTL_DEFAULT_PROPERTY);
}

static void teardown(void) {
    DPCTLQueue_Delete(queue);
    DPCTLDevice_Delete(device);
}

/// Waits for and deletes an event SYCL returned for a command.
static void finish(DPCTLSyclEventRef e) {
    ck_assert_ptr_nonnull(e);
    DPCTLEvent_Wait(e);
    ck_assert_int_eq(DPCTLEvent_GetCommandExecutionStatus(e), DPCTL_COMPLETE);
    DPCTLEvent_Delete(e);
}

/// Copies `n` bytes of USM back to the host through the queue.
static void read_back(void *host, const void *usm, size_t n) {
    finish(DPCTLQueue_Memcpy(queue, host, usm, n));
}

START_TEST(context_of_one_device) {
    DPCTLSyclContextRef ctx = DPCTLQueue_GetContext(queue);
    ck_assert_uint_eq(DPCTLContext_DeviceCount(ctx), 1);
    ck_assert_int_eq(DPCTLContext_GetBackend(ctx), st_dpctl_backend());
    DPCTLDeviceVectorRef devices = DPCTLContext_GetDevices(ctx);
    DPCTLSyclDeviceRef d = DPCTLDeviceVector_GetAt(devices, 0);
    ck_assert(DPCTLDevice_AreEq(d, device));
    DPCTLDevice_Delete(d);
    DPCTLDeviceVector_Delete(devices);
    // A context made again from the same device is another context.
    DPCTLSyclContextRef other = DPCTLContext_Create(device, NULL, 0);
    ck_assert(!DPCTLContext_AreEq(ctx, other));
    ck_assert(DPCTLContext_AreEq(ctx, ctx));
    DPCTLContext_Delete(other);
    DPCTLContext_Delete(ctx);
}
END_TEST

START_TEST(queue_properties) {
    ck_assert(!DPCTLQueue_IsInOrder(queue));
    ck_assert(!DPCTLQueue_HasEnableProfiling(queue));
    DPCTLSyclQueueRef q = st_queue(device, DPCTL_IN_ORDER | DPCTL_ENABLE_PROFILING);
    ck_assert(DPCTLQueue_IsInOrder(q));
    ck_assert(DPCTLQueue_HasEnableProfiling(q));
    ck_assert_int_eq(DPCTLQueue_GetBackend(q), st_dpctl_backend());
    DPCTLSyclDeviceRef d = DPCTLQueue_GetDevice(q);
    ck_assert(DPCTLDevice_AreEq(d, device));
    DPCTLDevice_Delete(d);
    DPCTLQueue_Delete(q);
}
END_TEST

START_TEST(usm_kinds) {
    DPCTLSyclContextRef ctx = DPCTLQueue_GetContext(queue);
    void *dev = DPCTLmalloc_device(N, queue);
    void *shared = DPCTLmalloc_shared(N, queue);
    void *host = DPCTLmalloc_host(N, queue);
    ck_assert_ptr_nonnull(dev);
    ck_assert_ptr_nonnull(shared);
    ck_assert_ptr_nonnull(host);
    ck_assert_int_eq(DPCTLUSM_GetPointerType(dev, ctx), DPCTL_USM_DEVICE);
    ck_assert_int_eq(DPCTLUSM_GetPointerType(shared, ctx), DPCTL_USM_SHARED);
    ck_assert_int_eq(DPCTLUSM_GetPointerType(host, ctx), DPCTL_USM_HOST);
    int on_stack;
    ck_assert_int_eq(DPCTLUSM_GetPointerType((DPCTLSyclUSMRef)&on_stack, ctx), DPCTL_USM_UNKNOWN);
    DPCTLSyclDeviceRef d = DPCTLUSM_GetPointerDevice(dev, ctx);
    ck_assert(DPCTLDevice_AreEq(d, device));
    DPCTLDevice_Delete(d);
    // Shared and host memory are written and read directly by the host.
    memset(shared, 0x5a, N);
    memset(host, 0xa5, N);
    finish(DPCTLQueue_Memcpy(queue, dev, shared, N));
    finish(DPCTLQueue_Memcpy(queue, host, dev, N / 2));
    for (size_t i = 0; i < N; i++)
        ck_assert_uint_eq(((unsigned char *)host)[i], i < N / 2 ? 0x5a : 0xa5);
    DPCTLfree_with_queue((DPCTLSyclUSMRef)dev, queue);
    DPCTLfree_with_queue((DPCTLSyclUSMRef)shared, queue);
    DPCTLfree_with_context(host, ctx);
    DPCTLContext_Delete(ctx);
}
END_TEST

START_TEST(memset_and_copy_device_memory) {
    unsigned char *dev = (unsigned char *)DPCTLmalloc_device(N, queue);
    unsigned char out[N];
    finish(DPCTLQueue_Memset(queue, dev, 0x11, N));
    finish(DPCTLQueue_Memset(queue, dev + 100, 0x22, 50));
    read_back(out, dev, N);
    for (size_t i = 0; i < N; i++)
        ck_assert_uint_eq(out[i], i >= 100 && i < 150 ? 0x22 : 0x11);
    // Host to device at an offset, device to device, device to host.
    unsigned char in[N];
    for (size_t i = 0; i < N; i++)
        in[i] = (unsigned char)(i * 7);
    unsigned char *dev2 = (unsigned char *)DPCTLmalloc_device(N, queue);
    finish(DPCTLQueue_Memcpy(queue, dev2, in, N));
    finish(DPCTLQueue_Memcpy(queue, dev + 1, dev2 + 3, N - 3));
    read_back(out, dev, N);
    ck_assert_uint_eq(out[0], 0x11);
    for (size_t i = 1; i < N - 2; i++)
        ck_assert_uint_eq(out[i], (unsigned char)((i + 2) * 7));
    DPCTLfree_with_queue((DPCTLSyclUSMRef)dev, queue);
    DPCTLfree_with_queue((DPCTLSyclUSMRef)dev2, queue);
}
END_TEST

START_TEST(fill_patterns) {
    enum { COUNT = 64 };
    uint64_t *dev = (uint64_t *)DPCTLmalloc_device(COUNT * 16, queue);
    uint64_t out[COUNT * 2];
    finish(DPCTLQueue_Fill64(queue, dev, UINT64_C(0x0123456789abcdef), COUNT * 2));
    finish(DPCTLQueue_Fill32(queue, dev, 0xdeadbeefu, 4));
    finish(DPCTLQueue_Fill16(queue, (char *)dev + 16, 0x1234, 4));
    finish(DPCTLQueue_Fill8(queue, (char *)dev + 24, 0x77, 3));
    read_back(out, dev, sizeof out);
    ck_assert_uint_eq(out[0], UINT64_C(0xdeadbeefdeadbeef));
    ck_assert_uint_eq(out[1], UINT64_C(0xdeadbeefdeadbeef));
    ck_assert_uint_eq(out[2], UINT64_C(0x1234123412341234));
    ck_assert_uint_eq(out[3], UINT64_C(0x0123456789777777));
    for (size_t i = 4; i < COUNT * 2; i++)
        ck_assert_uint_eq(out[i], UINT64_C(0x0123456789abcdef));
    uint64_t pattern[2] = {UINT64_C(0x1111111122222222), UINT64_C(0x3333333344444444)};
    finish(DPCTLQueue_Fill128(queue, dev, pattern, COUNT));
    read_back(out, dev, sizeof out);
    for (size_t i = 0; i < COUNT * 2; i++)
        ck_assert_uint_eq(out[i], pattern[i % 2]);
    DPCTLfree_with_queue((DPCTLSyclUSMRef)dev, queue);
}
END_TEST

START_TEST(events_chain_through_wait_lists) {
    // On an out-of-order queue, each copy waits for the one before through its wait list.
    enum { STEPS = 8 };
    int *buf[STEPS + 1];
    int in[N], out[N];
    for (size_t i = 0; i < N; i++)
        in[i] = (int)i - 500;
    for (int s = 0; s <= STEPS; s++)
        buf[s] = (int *)DPCTLmalloc_device(sizeof in, queue);
    DPCTLSyclEventRef prev = DPCTLQueue_Memcpy(queue, buf[0], in, sizeof in);
    ck_assert_ptr_nonnull(prev);
    DPCTLSyclEventRef all[STEPS + 1];
    all[0] = prev;
    for (int s = 1; s <= STEPS; s++) {
        all[s] = DPCTLQueue_MemcpyWithEvents(queue, buf[s], buf[s - 1], sizeof in, &all[s - 1], 1);
        ck_assert_ptr_nonnull(all[s]);
    }
    // A barrier for all of them, then the read.
    DPCTLSyclEventRef barrier = DPCTLQueue_SubmitBarrierForEvents(queue, all, STEPS + 1);
    ck_assert_ptr_nonnull(barrier);
    DPCTLSyclEventRef last =
        DPCTLQueue_MemcpyWithEvents(queue, out, buf[STEPS], sizeof out, &barrier, 1);
    finish(last);
    for (size_t i = 0; i < N; i++)
        ck_assert_int_eq(out[i], (int)i - 500);
    for (int s = 0; s <= STEPS; s++) {
        ck_assert_int_eq(DPCTLEvent_GetCommandExecutionStatus(all[s]), DPCTL_COMPLETE);
        ck_assert_int_eq(DPCTLEvent_GetBackend(all[s]), st_dpctl_backend());
        DPCTLEvent_Delete(all[s]);
        DPCTLfree_with_queue((DPCTLSyclUSMRef)buf[s], queue);
    }
    DPCTLEvent_Delete(barrier);
}
END_TEST

START_TEST(in_order_queue_orders_commands) {
    // No wait lists: an in-order queue alone keeps set -> copy -> copy in order.
    DPCTLSyclQueueRef q = st_queue(device, DPCTL_IN_ORDER);
    unsigned char *a = (unsigned char *)DPCTLmalloc_device(N, q);
    unsigned char *b = (unsigned char *)DPCTLmalloc_device(N, q);
    unsigned char out[N];
    for (int round = 1; round <= 20; round++) {
        DPCTLEvent_Delete(DPCTLQueue_Memset(q, a, (uint8_t)round, N));
        DPCTLEvent_Delete(DPCTLQueue_Memcpy(q, b, a, N));
        DPCTLSyclEventRef e = DPCTLQueue_Memcpy(q, out, b, N);
        DPCTLEvent_Wait(e);
        DPCTLEvent_Delete(e);
        ck_assert_uint_eq(out[0], round);
        ck_assert_uint_eq(out[N - 1], round);
    }
    DPCTLQueue_Wait(q);
    DPCTLfree_with_queue((DPCTLSyclUSMRef)a, q);
    DPCTLfree_with_queue((DPCTLSyclUSMRef)b, q);
    DPCTLQueue_Delete(q);
}
END_TEST

START_TEST(queue_wait_completes_everything) {
    int *dev = (int *)DPCTLmalloc_shared(N * sizeof(int), queue);
    DPCTLSyclEventRef e[4];
    for (int i = 0; i < 4; i++)
        e[i] = DPCTLQueue_Fill32(queue, dev + i * (N / 4), (uint32_t)(i + 1), N / 4);
    DPCTLQueue_Wait(queue);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(DPCTLEvent_GetCommandExecutionStatus(e[i]), DPCTL_COMPLETE);
        DPCTLEvent_Delete(e[i]);
    }
    for (size_t i = 0; i < N; i++)
        ck_assert_int_eq(dev[i], (int)(i / (N / 4)) + 1);
    DPCTLfree_with_queue((DPCTLSyclUSMRef)dev, queue);
}
END_TEST

START_TEST(profiling_timestamps) {
    DPCTLSyclQueueRef q = st_queue(device, DPCTL_ENABLE_PROFILING);
    void *dev = DPCTLmalloc_device(1 << 20, q);
    DPCTLSyclEventRef e = DPCTLQueue_Memset(q, dev, 3, 1 << 20);
    DPCTLEvent_Wait(e);
    uint64_t submit = DPCTLEvent_GetProfilingInfoSubmit(e);
    uint64_t start = DPCTLEvent_GetProfilingInfoStart(e);
    uint64_t end = DPCTLEvent_GetProfilingInfoEnd(e);
    ck_assert_uint_gt(start, 0);
    ck_assert_uint_le(submit, start);
    ck_assert_uint_le(start, end);
    DPCTLEvent_Delete(e);
    ck_assert_uint_gt(DPCTLDevice_GetProfilingTimerResolution(device), 0);
    DPCTLfree_with_queue((DPCTLSyclUSMRef)dev, q);
    DPCTLQueue_Delete(q);
}
END_TEST

int main(void) {
    Suite *s = suite_create("sycl_queues");
    TCase *tc = urc_test_tcase("contexts_and_queues", setup, teardown);
    tcase_add_test(tc, context_of_one_device);
    tcase_add_test(tc, queue_properties);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("usm", setup, teardown);
    tcase_add_test(tc, usm_kinds);
    tcase_add_test(tc, memset_and_copy_device_memory);
    tcase_add_test(tc, fill_patterns);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("events", setup, teardown);
    tcase_add_test(tc, events_chain_through_wait_lists);
    tcase_add_test(tc, in_order_queue_orders_commands);
    tcase_add_test(tc, queue_wait_completes_everything);
    tcase_add_test(tc, profiling_timestamps);
    suite_add_tcase(s, tc);
    return st_main(s);
}
