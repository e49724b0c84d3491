// SPDX-License-Identifier: MIT
// Kernels through SYCL over urc: built from OpenCL C source and from SPIR-V
// (DPCTLKernelBundle_CreateFrom*), submitted with pointer and scalar arguments over a range and
// an nd-range, with profiling; a build that fails surfaces as a failed bundle and leaves the
// context usable. OpenCL only (CUDA kernels come from PTX, which dpctl
// cannot build a bundle from).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sycl_test.h"

enum { N = 256 };

static DPCTLSyclDeviceRef device;
static DPCTLSyclContextRef context;
static DPCTLSyclQueueRef queue;

static void setup(void) {
    st_require_urc();
    device = st_device();
    queue = st_queue(device, DPCTL_ENABLE_PROFILING);
    context = DPCTLQueue_GetContext(queue);
}

static void teardown(void) {
    DPCTLContext_Delete(context);
    DPCTLQueue_Delete(queue);
    DPCTLDevice_Delete(device);
}

static DPCTLSyclKernelBundleRef from_source(const char *source) {
    return DPCTLKernelBundle_CreateFromOCLSource(context, device, source, "");
}

static DPCTLSyclKernelBundleRef from_spirv(void) {
    size_t size = 0;
    void *il = urc_test_read_file(ST_KERNEL_DIR, "sycl_kernels.spv", &size);
    ck_assert_msg(il != NULL, "cannot read %s/sycl_kernels.spv", ST_KERNEL_DIR);
    DPCTLSyclKernelBundleRef kb = DPCTLKernelBundle_CreateFromSpirv(context, device, il, size, "");
    free(il);
    return kb;
}

/// Runs axpy (y = a * x + y) from bundle `kb` and checks y.
static void run_axpy(DPCTLSyclKernelBundleRef kb) {
    ck_assert_ptr_nonnull(kb);
    ck_assert(DPCTLKernelBundle_HasKernel(kb, "axpy"));
    ck_assert(!DPCTLKernelBundle_HasKernel(kb, "no_such_kernel"));
    DPCTLSyclKernelRef k = DPCTLKernelBundle_GetKernel(kb, "axpy");
    ck_assert_ptr_nonnull(k);
    ck_assert_uint_eq(DPCTLKernel_GetNumArgs(k), 3);
    ck_assert_uint_ge(DPCTLKernel_GetWorkGroupSize(k), 1);
    int *x = (int *)DPCTLmalloc_shared(N * sizeof(int), queue);
    int *y = (int *)DPCTLmalloc_device(N * sizeof(int), queue);
    int host[N];
    for (int i = 0; i < N; i++) {
        x[i] = i;
        host[i] = 1000 - i;
    }
    DPCTLSyclEventRef copied = DPCTLQueue_Memcpy(queue, y, host, sizeof host);
    int32_t a = 3;
    void *args[3] = {x, y, &a};
    DPCTLKernelArgType types[3] = {DPCTL_VOID_PTR, DPCTL_VOID_PTR, DPCTL_INT32_T};
    size_t range[3] = {N, 1, 1};
    DPCTLSyclEventRef ran = DPCTLQueue_SubmitRange(k, queue, args, types, 3, range, 1, &copied, 1);
    ck_assert_ptr_nonnull(ran);
    DPCTLSyclEventRef back = DPCTLQueue_MemcpyWithEvents(queue, host, y, sizeof host, &ran, 1);
    DPCTLEvent_Wait(back);
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(host[i], 3 * i + 1000 - i);
    // The kernel's own timestamps, from urc's profiling answers.
    uint64_t start = DPCTLEvent_GetProfilingInfoStart(ran);
    uint64_t end = DPCTLEvent_GetProfilingInfoEnd(ran);
    ck_assert_uint_gt(start, 0);
    ck_assert_uint_le(start, end);
    DPCTLEvent_Delete(back);
    DPCTLEvent_Delete(ran);
    DPCTLEvent_Delete(copied);
    DPCTLfree_with_queue((DPCTLSyclUSMRef)x, queue);
    DPCTLfree_with_queue((DPCTLSyclUSMRef)y, queue);
    DPCTLKernel_Delete(k);
    DPCTLKernelBundle_Delete(kb);
}

START_TEST(kernel_from_opencl_source) {
    char *source = st_read_text(ST_KERNEL_SOURCE);
    ck_assert_ptr_nonnull(source);
    run_axpy(from_source(source));
    free(source);
}
END_TEST

START_TEST(kernel_from_spirv) {
    run_axpy(from_spirv());
}
END_TEST

START_TEST(nd_range_with_float_and_long) {
    DPCTLSyclKernelBundleRef kb = from_spirv();
    ck_assert_ptr_nonnull(kb);
    DPCTLSyclKernelRef k = DPCTLKernelBundle_GetKernel(kb, "iota");
    ck_assert_ptr_nonnull(k);
    float *out = (float *)DPCTLmalloc_shared(N * sizeof(float), queue);
    float scale = 0.5f;
    int64_t offset = -7;
    void *args[3] = {out, &scale, &offset};
    DPCTLKernelArgType types[3] = {DPCTL_VOID_PTR, DPCTL_FLOAT32_T, DPCTL_INT64_T};
    size_t global[3] = {N, 1, 1}, local[3] = {16, 1, 1};
    DPCTLSyclEventRef e =
        DPCTLQueue_SubmitNDRange(k, queue, args, types, 3, global, local, 1, NULL, 0);
    ck_assert_ptr_nonnull(e);
    DPCTLEvent_Wait(e);
    for (int i = 0; i < N; i++)
        ck_assert_float_eq(out[i], (float)i * 0.5f - 7.0f);
    DPCTLEvent_Delete(e);
    DPCTLfree_with_queue((DPCTLSyclUSMRef)out, queue);
    DPCTLKernel_Delete(k);
    DPCTLKernelBundle_Delete(kb);
}
END_TEST

START_TEST(failing_build_surfaces) {
    // A syntax error: SYCL gives no bundle, and the context still works afterwards. (dpctl
    // builds source and SPIR-V with OpenCL itself, on the native context and device urc's
    // urContextGetNativeHandle / urDeviceGetNativeHandle gave it, then hands the built program
    // to SYCL: urc's log does not see this failure; the successful builds above reach urc
    // through urProgramCreateWithNativeHandle.)
    DPCTLSyclKernelBundleRef kb = from_source("kernel void broken(global int *p) { p[0] = ; }");
    ck_assert_ptr_null(kb);
    char *source = st_read_text(ST_KERNEL_SOURCE);
    run_axpy(from_source(source));
    free(source);
}
END_TEST

START_TEST(invalid_spirv_surfaces) {
    uint32_t words[8] = {0x07230203, 0x00010000, 0, 1, 0, 0xdeadbeef, 0, 0};
    DPCTLSyclKernelBundleRef kb =
        DPCTLKernelBundle_CreateFromSpirv(context, device, words, sizeof words, "");
    ck_assert_ptr_null(kb);
}
END_TEST

int main(void) {
    Suite *s = suite_create("sycl_kernels");
    if (st_backend() != ST_OPENCL)
        return urc_test_skip(s, "SYCL kernels through dpctl need OpenCL C or SPIR-V");
    TCase *tc = urc_test_tcase("build_and_run", setup, teardown);
    tcase_add_test(tc, kernel_from_opencl_source);
    tcase_add_test(tc, kernel_from_spirv);
    tcase_add_test(tc, nd_range_with_float_and_long);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("failures", setup, teardown);
    tcase_add_test(tc, failing_build_surfaces);
    tcase_add_test(tc, invalid_spirv_surfaces);
    suite_add_tcase(s, tc);
    return st_main(s);
}
