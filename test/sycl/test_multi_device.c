// SPDX-License-Identifier: MIT
// A context of two sub-devices, copies between memory of one and of the other: dpctl's
// test_context_multi_device, repeated. Intel's built-in OpenCL adapter deadlocks here in most
// runs (its USM copy in a multi-device context frees a staging buffer with a blocking free
// inside an event callback); urc's copy is one clEnqueueMemcpyINTEL. A deadlock in urc would
// run into the test case's time limit and fail: this body, run on the built-in adapter
// (no UR_ADAPTERS_FORCE_LOAD), hung in 3 of 3 tries. CPU devices only (CUDA devices do not
// partition).
#include <string.h>

#include "sycl_test.h"

enum { SIZE = 256, ROUNDS = 50 };

START_TEST(copies_in_two_device_context) {
    DPCTLSyclDeviceRef d = st_device();
    uint32_t units = DPCTLDevice_GetMaxComputeUnits(d);
    if (DPCTLDevice_GetPartitionMaxSubDevices(d) < 2 || units < 2) {
        DPCTLDevice_Delete(d);
        return;
    }
    size_t counts[2] = {units / 2, units - units / 2};
    DPCTLDeviceVectorRef subs = DPCTLDevice_CreateSubDevicesByCounts(d, counts, 2);
    ck_assert_ptr_nonnull(subs);
    ck_assert_uint_eq(DPCTLDeviceVector_Size(subs), 2);
    DPCTLSyclContextRef ctx = DPCTLContext_CreateFromDevices(subs, NULL, 0);
    ck_assert_ptr_nonnull(ctx);
    ck_assert_uint_eq(DPCTLContext_DeviceCount(ctx), 2);
    DPCTLSyclDeviceRef d1 = DPCTLDeviceVector_GetAt(subs, 0);
    DPCTLSyclDeviceRef d2 = DPCTLDeviceVector_GetAt(subs, 1);
    DPCTLSyclQueueRef q1 = DPCTLQueue_Create(ctx, d1, NULL, 0);
    DPCTLSyclQueueRef q2 = DPCTLQueue_Create(ctx, d2, NULL, 0);
    ck_assert_ptr_nonnull(q1);
    ck_assert_ptr_nonnull(q2);
    for (int round = 0; round < ROUNDS; round++) {
        // Fresh allocations each round, as dpctl's MemoryUSM* objects are, freed right after
        // the copy: the pattern the built-in adapter deadlocks on.
        unsigned char *shared = (unsigned char *)DPCTLmalloc_shared(SIZE, q1);
        unsigned char *dev = (unsigned char *)DPCTLmalloc_device(SIZE, q2);
        ck_assert_ptr_nonnull(shared);
        ck_assert_ptr_nonnull(dev);
        memset(shared, round + 1, SIZE);
        DPCTLSyclEventRef e = DPCTLQueue_Memcpy(q2, dev, shared, SIZE);
        ck_assert_ptr_nonnull(e);
        DPCTLEvent_Wait(e);
        DPCTLEvent_Delete(e);
        unsigned char out[SIZE];
        e = DPCTLQueue_Memcpy(q1, out, dev, SIZE);
        DPCTLEvent_Wait(e);
        DPCTLEvent_Delete(e);
        for (size_t i = 0; i < SIZE; i++)
            ck_assert_uint_eq(out[i], (unsigned char)(round + 1));
        DPCTLfree_with_queue((DPCTLSyclUSMRef)dev, q2);
        DPCTLfree_with_queue((DPCTLSyclUSMRef)shared, q1);
    }
    DPCTLQueue_Delete(q1);
    DPCTLQueue_Delete(q2);
    DPCTLDevice_Delete(d1);
    DPCTLDevice_Delete(d2);
    DPCTLContext_Delete(ctx);
    DPCTLDeviceVector_Delete(subs);
    DPCTLDevice_Delete(d);
}
END_TEST

int main(void) {
    Suite *s = suite_create("sycl_multi_device");
    TCase *tc = st_tcase("multi_device_context");
    tcase_add_test(tc, copies_in_two_device_context);
    suite_add_tcase(s, tc);
    return st_main(s);
}
