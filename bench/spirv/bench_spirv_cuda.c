// SPDX-License-Identifier: MIT
// bench_spirv_cuda (docs/spirv.md): SPIR-V on the CUDA adapter.
//   - translation time per kernel: the first build of each module in an empty cache (cold),
//     then the median of later builds (from the cache);
//   - bandwidth of spirv_suite.cl's vec_add and reduce_sum against the same kernels in CUDA C
//     compiled by nvcc (kernels.cu), as a ratio (aim: >= 0.9).
//
//   bench_spirv_cuda [--spirv-dir DIR] [--ptx kernels.ptx] [--reps N]
//
// The cache goes to a fresh folder under /tmp (XDG_CACHE_HOME is set before the adapter reads
// it), so "cold" is cold. Exit 77 without a CUDA device.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

static ur_context_handle_t ctx;
static ur_device_handle_t dev;
static ur_queue_handle_t queue;

static ur_program_handle_t build_il(const void *il, size_t size, double *ms) {
    ur_program_handle_t p = NULL;
    double t0 = urc_bench_now_ns();
    UR(urProgramCreateWithIL(ctx, il, size, NULL, &p));
    UR(urProgramBuild(ctx, p, NULL));
    *ms = (urc_bench_now_ns() - t0) / 1e6;
    return p;
}

static size_t kernel_count(ur_program_handle_t p) {
    size_t n = 0;
    UR(urProgramGetInfo(p, UR_PROGRAM_INFO_NUM_KERNELS, sizeof n, &n, NULL));
    return n;
}

static void translation(const char *dir) {
    static const char *const files[] = {"add_one.spv", "cb_kernels.spv", "spirv_suite.spv"};
    printf("translation (SPIR-V -> PTX -> module), per kernel:\n");
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        size_t size = 0;
        void *il = urc_bench_read_file(path, &size);
        double cold = 0, warm[7];
        ur_program_handle_t p = build_il(il, size, &cold);
        size_t kernels = kernel_count(p);
        UR(urProgramRelease(p));
        for (int r = 0; r < 7; ++r) {
            p = build_il(il, size, &warm[r]);
            UR(urProgramRelease(p));
        }
        double cached = urc_bench_median(warm, 7);
        printf("  %-16s %2zu kernels: cold %8.1f ms (%7.1f ms/kernel), cached %6.2f ms "
               "(%6.2f ms/kernel), cold/cached %.0fx\n",
               files[i], kernels, cold, cold / (double)kernels, cached, cached / (double)kernels,
               cold / cached);
        free(il);
    }
}

static double time_launch(ur_kernel_handle_t k, size_t global, size_t local, uint32_t nargs,
                          const ur_exp_kernel_arg_properties_t *args, int reps) {
    double *v = malloc(sizeof(double) * (size_t)reps);
    for (int r = 0; r < reps + 2; ++r) {
        double t0 = urc_bench_now_ns();
        UR(urEnqueueKernelLaunchWithArgsExp(queue, k, 1, NULL, &global, &local, nargs, args, NULL,
                                            0, NULL, NULL));
        UR(urQueueFinish(queue));
        if (r >= 2)
            v[r - 2] = urc_bench_now_ns() - t0;
    }
    double m = urc_bench_median(v, reps);
    free(v);
    return m;
}

static ur_exp_kernel_arg_properties_t arg_ptr(uint32_t i, void *p) {
    ur_exp_kernel_arg_properties_t a = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                        NULL,
                                        UR_EXP_KERNEL_ARG_TYPE_POINTER,
                                        i,
                                        sizeof(void *),
                                        {.pointer = p}};
    return a;
}

static ur_exp_kernel_arg_properties_t arg_local(uint32_t i, size_t size) {
    ur_exp_kernel_arg_properties_t a = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                        NULL,
                                        UR_EXP_KERNEL_ARG_TYPE_LOCAL,
                                        i,
                                        size,
                                        {.pointer = NULL}};
    return a;
}

static void bandwidth(ur_program_handle_t spirv, ur_program_handle_t cuda, int reps) {
    enum { WG = 256 };
    const size_t n = (size_t)1 << 26; // 64 Mi floats: 256 MiB per array
    float *a, *b, *c, *partial;
    UR(urUSMDeviceAlloc(ctx, dev, NULL, NULL, n * 4, (void **)&a));
    UR(urUSMDeviceAlloc(ctx, dev, NULL, NULL, n * 4, (void **)&b));
    UR(urUSMDeviceAlloc(ctx, dev, NULL, NULL, n * 4, (void **)&c));
    UR(urUSMDeviceAlloc(ctx, dev, NULL, NULL, n / WG * 4, (void **)&partial));
    float one = 1.0f;
    UR(urEnqueueUSMFill(queue, a, sizeof one, &one, n * 4, 0, NULL, NULL));
    UR(urEnqueueUSMFill(queue, b, sizeof one, &one, n * 4, 0, NULL, NULL));
    UR(urQueueFinish(queue));
    ur_program_handle_t progs[2] = {spirv, cuda};
    double add_ns[2], red_ns[2];
    for (int i = 0; i < 2; ++i) {
        ur_kernel_handle_t k;
        UR(urKernelCreate(progs[i], "vec_add", &k));
        ur_exp_kernel_arg_properties_t args[3] = {arg_ptr(0, a), arg_ptr(1, b), arg_ptr(2, c)};
        add_ns[i] = time_launch(k, n, WG, 3, args, reps);
        UR(urKernelRelease(k));
        UR(urKernelCreate(progs[i], "reduce_sum", &k));
        ur_exp_kernel_arg_properties_t rargs[3] = {arg_ptr(0, a), arg_ptr(1, partial),
                                                   arg_local(2, WG * sizeof(float))};
        red_ns[i] = time_launch(k, n, WG, 3, rargs, reps);
        UR(urKernelRelease(k));
    }
    double add_bytes = 3.0 * (double)n * 4, red_bytes = (double)n * 4 + (double)n / WG * 4;
    printf("bandwidth (64 Mi floats, median of %d, launch+finish):\n", reps);
    printf("  vec_add    SPIR-V %7.1f GB/s  nvcc %7.1f GB/s  ratio %.3f\n", add_bytes / add_ns[0],
           add_bytes / add_ns[1], add_ns[1] / add_ns[0]);
    printf("  reduce_sum SPIR-V %7.1f GB/s  nvcc %7.1f GB/s  ratio %.3f\n", red_bytes / red_ns[0],
           red_bytes / red_ns[1], red_ns[1] / red_ns[0]);
    UR(urUSMFree(ctx, a));
    UR(urUSMFree(ctx, b));
    UR(urUSMFree(ctx, c));
    UR(urUSMFree(ctx, partial));
}

int main(int argc, char **argv) {
    const char *dir = urc_bench_arg(argc, argv, "--spirv-dir");
    const char *ptx_path = urc_bench_arg(argc, argv, "--ptx");
    int reps = urc_bench_int_arg(argc, argv, "--reps", 20);
    if (dir == NULL)
        dir = URC_BENCH_SPIRV_DIR;
    if (ptx_path == NULL)
        ptx_path = URC_BENCH_SPIRV_PTX;
    char cache[] = "/tmp/urc-bench-spirv-XXXXXX";
    if (mkdtemp(cache) == NULL)
        FAIL("mkdtemp failed\n");
    setenv("XDG_CACHE_HOME", cache, 1);
    setenv("UR_ADAPTERS_FORCE_LOAD", URC_BENCH_ADAPTER, 0);

    UR(urLoaderInit(0, NULL));
    ur_adapter_handle_t a = NULL;
    ur_platform_handle_t platform = NULL;
    uint32_t n = 0;
    UR(urAdapterGet(1, &a, &n));
    UR(urPlatformGet(a, 1, &platform, &n));
    if (n == 0) {
        fprintf(stderr, "no CUDA platform: skipped\n");
        return 77;
    }
    UR(urDeviceGet(platform, UR_DEVICE_TYPE_GPU, 1, &dev, NULL));
    UR(urContextCreate(1, &dev, NULL, &ctx));
    UR(urQueueCreate(ctx, dev, NULL, &queue));
    char name[256] = "";
    UR(urDeviceGetInfo(dev, UR_DEVICE_INFO_NAME, sizeof name, name, NULL));
    printf("device: %s\n", name);

    translation(dir);

    char path[1024];
    snprintf(path, sizeof path, "%s/spirv_suite.spv", dir);
    size_t size = 0;
    void *il = urc_bench_read_file(path, &size);
    double ms;
    ur_program_handle_t spirv = build_il(il, size, &ms);
    free(il);
    const uint8_t *ptx = urc_bench_read_file(ptx_path, &size);
    ur_program_handle_t cuda = NULL;
    UR(urProgramCreateWithBinary(ctx, 1, &dev, &size, &ptx, NULL, &cuda));
    UR(urProgramBuild(ctx, cuda, NULL));
    bandwidth(spirv, cuda, reps);
    UR(urProgramRelease(spirv));
    UR(urProgramRelease(cuda));
    UR(urQueueRelease(queue));
    UR(urContextRelease(ctx));
    UR(urAdapterRelease(a));
    return 0;
}
