// SPDX-License-Identifier: MIT
// What urc's memory paths cost on CUDA against the driver calls a hand-written program makes:
//   - alloc+free pairs of 256 B, 64 KiB and 16 MiB of device memory through a USM pool
//     (urUSMDeviceAlloc with a pool, urUSMFree) against cuMemAlloc + cuMemFree;
//   - stream-ordered alloc + kernel + free + wait (urEnqueueUSMDeviceAllocExp, a launch,
//     urEnqueueUSMFreeExp, urQueueFinish) against cuMemAllocAsync + cuLaunchKernel +
//     cuMemFreeAsync + cuStreamSynchronize on the queue's own stream;
//   - a 256 MiB copy between two GPUs (urEnqueueUSMMemcpy after urUsmP2PEnablePeerAccessExp)
//     against cuMemcpyPeerAsync, as bandwidth; skipped with one GPU.
// Medians of alternating runs and their ratio (ur / raw) print.
//
//   bench_cuda_memory [--runs N] [--adapter libur_adapter_cuda.so.0] [--ptx bench_kernels.ptx]
// Exits 77 when there is no CUDA device.
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda.h>
#include <cudaTypedefs.h>

#include "bench.h"
#include "ur_api.h"

#define CU(expr)                                                                                   \
    do {                                                                                           \
        CUresult r_ = (expr);                                                                      \
        if (r_ != CUDA_SUCCESS)                                                                    \
            FAIL("%s failed: %d\n", #expr, (int)r_);                                               \
    } while (0)

static struct {
    PFN_cuMemAlloc_v3020 MemAlloc;
    PFN_cuMemFree_v3020 MemFree;
    PFN_cuMemAllocAsync_v11020 MemAllocAsync;
    PFN_cuMemFreeAsync_v11020 MemFreeAsync;
    PFN_cuLaunchKernel_v4000 LaunchKernel;
    PFN_cuStreamSynchronize_v2000 StreamSynchronize;
    PFN_cuMemcpyPeerAsync_v4000 MemcpyPeerAsync;
} cu;

static ur_context_handle_t ctx;
static ur_device_handle_t dev;
static ur_queue_handle_t queue;
static ur_kernel_handle_t kernel;
static CUstream stream;
static CUfunction function;

static void report(const char *what, double *ur, double *raw, int runs, const char *unit) {
    double u = urc_bench_median(ur, runs), r = urc_bench_median(raw, runs);
    printf("%-34s %12.2f %12.2f %s   ratio %.3f\n", what, u, r, unit, u / r);
}

// ---- pooled alloc+free against cuMemAlloc+cuMemFree ----

static double pooled_us(ur_usm_pool_handle_t pool, size_t size, int pairs) {
    double t0 = urc_bench_now_us();
    for (int i = 0; i < pairs; ++i) {
        void *p = NULL;
        UR(urUSMDeviceAlloc(ctx, dev, NULL, pool, size, &p));
        UR(urUSMFree(ctx, p));
    }
    return (urc_bench_now_us() - t0) / pairs;
}

static double raw_alloc_us(size_t size, int pairs) {
    double t0 = urc_bench_now_us();
    for (int i = 0; i < pairs; ++i) {
        CUdeviceptr p = 0;
        CU(cu.MemAlloc(&p, size));
        CU(cu.MemFree(p));
    }
    return (urc_bench_now_us() - t0) / pairs;
}

static void bench_pool(int runs) {
    ur_usm_pool_limits_desc_t limits = {UR_STRUCTURE_TYPE_USM_POOL_LIMITS_DESC, NULL, 32 << 20, 0};
    ur_usm_pool_desc_t desc = {UR_STRUCTURE_TYPE_USM_POOL_DESC, &limits, 0};
    ur_usm_pool_handle_t pool = NULL;
    UR(urUSMPoolCreate(ctx, &desc, &pool));
    const size_t sizes[] = {256, 64 << 10, 16 << 20};
    const char *names[] = {"alloc+free 256 B (pool vs raw)", "alloc+free 64 KiB (pool vs raw)",
                           "alloc+free 16 MiB (pool vs raw)"};
    for (int s = 0; s < 3; ++s) {
        double ur[64], raw[64];
        pooled_us(pool, sizes[s], 100);
        raw_alloc_us(sizes[s], 100);
        for (int r = 0; r < runs; ++r) {
            ur[r] = pooled_us(pool, sizes[s], 1000);
            raw[r] = raw_alloc_us(sizes[s], 1000);
        }
        report(names[s], ur, raw, runs, "us");
    }
    UR(urUSMPoolRelease(pool));
}

// ---- stream-ordered alloc + kernel + free ----

static double ur_async_us(int reps) {
    double t0 = urc_bench_now_us();
    for (int i = 0; i < reps; ++i) {
        void *p = NULL;
        UR(urEnqueueUSMDeviceAllocExp(queue, NULL, 1 << 20, NULL, 0, NULL, &p, NULL));
        ur_exp_kernel_arg_properties_t arg = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                              NULL,
                                              UR_EXP_KERNEL_ARG_TYPE_POINTER,
                                              0,
                                              sizeof p,
                                              {.pointer = p}};
        size_t one = 1;
        UR(urEnqueueKernelLaunchWithArgsExp(queue, kernel, 1, NULL, &one, &one, 1, &arg, NULL, 0,
                                            NULL, NULL));
        UR(urEnqueueUSMFreeExp(queue, NULL, p, 0, NULL, NULL));
        UR(urQueueFinish(queue));
    }
    return (urc_bench_now_us() - t0) / reps;
}

static double raw_async_us(int reps) {
    double t0 = urc_bench_now_us();
    for (int i = 0; i < reps; ++i) {
        CUdeviceptr p = 0;
        CU(cu.MemAllocAsync(&p, 1 << 20, stream));
        void *args[] = {&p};
        CU(cu.LaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, stream, args, NULL));
        CU(cu.MemFreeAsync(p, stream));
        CU(cu.StreamSynchronize(stream));
    }
    return (urc_bench_now_us() - t0) / reps;
}

static void bench_async(int runs) {
    double ur[64], raw[64];
    ur_async_us(100);
    raw_async_us(100);
    for (int r = 0; r < runs; ++r) {
        ur[r] = ur_async_us(1000);
        raw[r] = raw_async_us(1000);
    }
    report("async alloc+kernel+free (ur vs raw)", ur, raw, runs, "us");
}

// ---- peer copy bandwidth ----

static void bench_peer(ur_platform_handle_t platform, int runs) {
    ur_device_handle_t devs[2] = {NULL, NULL};
    uint32_t n = 0;
    UR(urDeviceGet(platform, UR_DEVICE_TYPE_GPU, 2, devs, &n));
    int can = 0;
    if (n >= 2)
        UR(urUsmP2PPeerAccessGetInfoExp(devs[0], devs[1], UR_EXP_PEER_INFO_UR_PEER_ACCESS_SUPPORT,
                                        sizeof can, &can, NULL));
    if (!can) {
        printf("peer copy: needs two GPUs with peer access: skipped\n");
        return;
    }
    UR(urUsmP2PEnablePeerAccessExp(devs[0], devs[1]));
    ur_context_handle_t c2 = NULL;
    ur_queue_handle_t q = NULL;
    UR(urContextCreate(2, devs, NULL, &c2));
    UR(urQueueCreate(c2, devs[0], NULL, &q));
    size_t size = (size_t)256 << 20;
    void *a = NULL, *b = NULL;
    UR(urUSMDeviceAlloc(c2, devs[0], NULL, NULL, size, &a));
    UR(urUSMDeviceAlloc(c2, devs[1], NULL, NULL, size, &b));
    ur_native_handle_t s = 0, c0 = 0, c1 = 0;
    UR(urQueueGetNativeHandle(q, NULL, &s));
    UR(urDeviceGetNativeHandle(devs[0], &c0));
    UR(urDeviceGetNativeHandle(devs[1], &c1));
    CUcontext ctx0 = NULL, ctx1 = NULL;
    PFN_cuDevicePrimaryCtxRetain_v7000 retain = (PFN_cuDevicePrimaryCtxRetain_v7000)dlsym(
        dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD), "cuDevicePrimaryCtxRetain");
    CU(retain(&ctx0, (CUdevice)c0));
    CU(retain(&ctx1, (CUdevice)c1));
    double ur[64], raw[64];
    for (int r = 0; r < runs; ++r) {
        double t0 = urc_bench_now_us();
        UR(urEnqueueUSMMemcpy(q, true, b, a, size, 0, NULL, NULL));
        double t1 = urc_bench_now_us();
        CU(cu.MemcpyPeerAsync((CUdeviceptr)(uintptr_t)b, ctx1, (CUdeviceptr)(uintptr_t)a, ctx0,
                              size, (CUstream)s));
        CU(cu.StreamSynchronize((CUstream)s));
        double t2 = urc_bench_now_us();
        ur[r] = size / (t1 - t0) / 1e3; // GB/s
        raw[r] = size / (t2 - t1) / 1e3;
    }
    report("peer copy 256 MiB (ur vs raw)", ur, raw, runs, "GB/s");
    UR(urUSMFree(c2, a));
    UR(urUSMFree(c2, b));
    UR(urQueueRelease(q));
    UR(urContextRelease(c2));
    UR(urUsmP2PDisablePeerAccessExp(devs[0], devs[1]));
}

int main(int argc, char **argv) {
    int runs = urc_bench_int_arg(argc, argv, "--runs", 9);
    if (runs > 64)
        runs = 64;
    const char *adapter = urc_bench_arg(argc, argv, "--adapter");
    const char *ptx_path = urc_bench_arg(argc, argv, "--ptx");
    if (ptx_path == NULL)
        ptx_path = URC_BENCH_PTX;
    if (adapter == NULL)
        adapter = URC_BENCH_ADAPTER;
    setenv("UR_ADAPTERS_FORCE_LOAD", adapter, 0);
    UR(urLoaderInit(0, NULL));
    ur_adapter_handle_t a = NULL;
    uint32_t n = 0;
    UR(urAdapterGet(1, &a, &n));
    ur_platform_handle_t platform = NULL;
    UR(urPlatformGet(a, 1, &platform, &n));
    if (n == 0) {
        fprintf(stderr, "no CUDA platform: skipped\n");
        return 77;
    }
    UR(urDeviceGet(platform, UR_DEVICE_TYPE_GPU, 1, &dev, NULL));
    UR(urContextCreate(1, &dev, NULL, &ctx));
    UR(urQueueCreate(ctx, dev, NULL, &queue));
    size_t size = 0;
    const uint8_t *ptx = urc_bench_read_file(ptx_path, &size);
    ur_program_handle_t program = NULL;
    UR(urProgramCreateWithBinary(ctx, 1, &dev, &size, &ptx, NULL, &program));
    UR(urProgramBuild(ctx, program, NULL));
    UR(urKernelCreate(program, "touch", &kernel));
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (lib == NULL)
        FAIL("libcuda.so.1 is not loaded\n");
    cu.MemAlloc = (PFN_cuMemAlloc_v3020)dlsym(lib, "cuMemAlloc_v2");
    cu.MemFree = (PFN_cuMemFree_v3020)dlsym(lib, "cuMemFree_v2");
    cu.MemAllocAsync = (PFN_cuMemAllocAsync_v11020)dlsym(lib, "cuMemAllocAsync");
    cu.MemFreeAsync = (PFN_cuMemFreeAsync_v11020)dlsym(lib, "cuMemFreeAsync");
    cu.LaunchKernel = (PFN_cuLaunchKernel_v4000)dlsym(lib, "cuLaunchKernel");
    cu.StreamSynchronize = (PFN_cuStreamSynchronize_v2000)dlsym(lib, "cuStreamSynchronize");
    cu.MemcpyPeerAsync = (PFN_cuMemcpyPeerAsync_v4000)dlsym(lib, "cuMemcpyPeerAsync");
    if (!cu.MemAlloc || !cu.MemFree || !cu.MemAllocAsync || !cu.MemFreeAsync || !cu.LaunchKernel ||
        !cu.StreamSynchronize || !cu.MemcpyPeerAsync)
        FAIL("libcuda.so.1 lacks a function\n");
    // The queue's own stream and the kernel's function; the adapter made the device's primary
    // context current on this thread.
    ur_native_handle_t s = 0, f = 0;
    UR(urQueueGetNativeHandle(queue, NULL, &s));
    UR(urKernelGetNativeHandle(kernel, &f));
    stream = (CUstream)s;
    function = (CUfunction)f;
    printf("%-34s %12s %12s\n", "", "urc", "raw");
    bench_pool(runs);
    bench_async(runs);
    bench_peer(platform, runs < 5 ? runs : 5);
    UR(urKernelRelease(kernel));
    UR(urProgramRelease(program));
    UR(urQueueRelease(queue));
    UR(urContextRelease(ctx));
    UR(urAdapterRelease(a));
    UR(urLoaderTearDown());
    return 0;
}
