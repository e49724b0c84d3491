// SPDX-License-Identifier: MIT
// What the UR path costs on CUDA: each case runs through libur_loader and the CUDA adapter, and
// as the driver calls a hand-written CUDA program would make on the same module, stream and
// function (taken from the UR objects' native handles):
//   - a blocking 4-byte device-global write: cuMemcpyHtoDAsync + cuStreamSynchronize
//   - a blocking 1 MiB device-global write then read: the same, then cuMemcpyDtoHAsync
//   - a kernel launch and wait: cuLaunchKernel + cuStreamSynchronize
//   - a kernel launch alone (the enqueue cost): cuLaunchKernel, with one pointer argument and
//     with four (two pointers, an int, a long long)
//   - a blocking 4-byte USM copy host -> device the way libsycl makes one (SYCL_UR_TRACE=2:
//     urEnqueueUSMMemcpy with an event, urEventWait, urEventRelease), on an in-order and on an
//     out-of-order queue (SYCL's default): against cuMemcpyHtoDAsync + cuStreamSynchronize, and
//     against the same with the event a hand-written program would need for the same semantics
//     (cuEventCreate, cuEventRecord, cuEventSynchronize, cuEventDestroy)
//   - everyday costs: queue create+release (cuStreamCreate+cuStreamDestroy), kernel
//     create+release (cuModuleGetFunction), event create+wait+release (cuEventCreate, Record,
//     Synchronize, Destroy), a blocking 4-byte USM copy (cuMemcpyHtoDAsync+sync), a 1 MiB fill
//     and wait (cuMemsetD32Async+sync), USM device alloc+free of 256 B and 16 MiB (cuMemAlloc+
//     cuMemFree), and 1000 launches then finish (cuLaunchKernel x1000 + sync)
//   - a blocking 2D image write then read (RGBA 8-bit, 32 x 32 = 4 KiB and 512 x 512 = 1 MiB):
//     cuMemcpy3DAsync to and from the image's CUDA array + cuStreamSynchronize
// The two ways alternate in blocks, so drift hits both alike; medians and their ratio print.
//
//   bench_cuda [--reps N] [--adapter libur_adapter_cuda.so.0] [--ptx bench_kernels.ptx]
//   bench_cuda --count N [...]
//
// --count runs N enqueue-only launches each way, untimed, through count_ur_launches[4] and
// count_raw_launches[4], for an instruction counter (scripts/cuda-launch-count runs callgrind on
// it against the simulated driver): their inclusive counts divided by N are the host work of
// one launch.
// Exits 77 when there is no CUDA device.
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

// The raw driver calls, from the same libcuda.so.1 the adapter opened.
static struct {
    PFN_cuModuleGetGlobal_v3020 ModuleGetGlobal;
    PFN_cuMemcpyHtoDAsync_v3020 MemcpyHtoDAsync;
    PFN_cuMemcpyDtoHAsync_v3020 MemcpyDtoHAsync;
    PFN_cuStreamSynchronize_v2000 StreamSynchronize;
    PFN_cuLaunchKernel_v4000 LaunchKernel;
    PFN_cuStreamCreate_v2000 StreamCreate;
    PFN_cuStreamDestroy_v4000 StreamDestroy;
    PFN_cuModuleGetFunction_v2000 ModuleGetFunction;
    PFN_cuEventCreate_v2000 EventCreate;
    PFN_cuEventRecord_v2000 EventRecord;
    PFN_cuEventSynchronize_v2000 EventSynchronize;
    PFN_cuEventDestroy_v4000 EventDestroy;
    PFN_cuMemAlloc_v3020 MemAlloc;
    PFN_cuMemFree_v3020 MemFree;
    PFN_cuMemsetD32Async_v3020 MemsetD32Async;
    PFN_cuMemcpy3DAsync_v3020 Memcpy3DAsync;
} cu;

// Everything both ways share.
static struct {
    ur_queue_handle_t queue, ooo_queue;
    void *usm4;
    ur_program_handle_t program;
    ur_kernel_handle_t kernel, kernel4;
    ur_context_handle_t context;
    ur_device_handle_t device;
    CUstream stream;
    CUmodule module;
    CUfunction function, function4;
    CUdeviceptr dev_var, dev_big;
    void *big_in, *big_out;
    void *usm;                // 1 MiB of USM device memory (urc's), for copies and fills
    CUdeviceptr raw_mem;      // 1 MiB from cuMemAlloc
    ur_mem_handle_t image[2]; // 32 x 32 and 512 x 512 RGBA 8-bit
    CUarray array[2];
} B;

#define FILL_BYTES (1u << 20)

// ---- the cases: one step each way ----

static void ur_write4(void) {
    static int v;
    ++v;
    UR(urEnqueueDeviceGlobalVariableWrite(B.queue, B.program, "dev_var", true, sizeof v, 0, &v, 0,
                                          NULL, NULL));
}

static void raw_write4(void) {
    static int v;
    ++v;
    CU(cu.MemcpyHtoDAsync(B.dev_var, &v, sizeof v, B.stream));
    CU(cu.StreamSynchronize(B.stream));
}

static void ur_big(void) {
    UR(urEnqueueDeviceGlobalVariableWrite(B.queue, B.program, "dev_big", true, 1 << 20, 0, B.big_in,
                                          0, NULL, NULL));
    UR(urEnqueueDeviceGlobalVariableRead(B.queue, B.program, "dev_big", true, 1 << 20, 0, B.big_out,
                                         0, NULL, NULL));
}

static void raw_big(void) {
    CU(cu.MemcpyHtoDAsync(B.dev_big, B.big_in, 1 << 20, B.stream));
    CU(cu.StreamSynchronize(B.stream));
    CU(cu.MemcpyDtoHAsync(B.big_out, B.dev_big, 1 << 20, B.stream));
    CU(cu.StreamSynchronize(B.stream));
}

static const size_t image_side[2] = {32, 512};

static void ur_image(int i) {
    ur_rect_offset_t o = {0, 0, 0};
    ur_rect_region_t r = {image_side[i], image_side[i], 1};
    UR(urEnqueueMemImageWrite(B.queue, B.image[i], true, o, r, 0, 0, B.big_in, 0, NULL, NULL));
    UR(urEnqueueMemImageRead(B.queue, B.image[i], true, o, r, 0, 0, B.big_out, 0, NULL, NULL));
}

static void raw_image(int i) {
    CUDA_MEMCPY3D p;
    memset(&p, 0, sizeof p);
    p.srcMemoryType = CU_MEMORYTYPE_HOST;
    p.srcHost = B.big_in;
    p.srcPitch = image_side[i] * 4;
    p.srcHeight = image_side[i];
    p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    p.dstArray = B.array[i];
    p.WidthInBytes = image_side[i] * 4;
    p.Height = image_side[i];
    p.Depth = 1;
    CU(cu.Memcpy3DAsync(&p, B.stream));
    CU(cu.StreamSynchronize(B.stream));
    memset(&p, 0, sizeof p);
    p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    p.srcArray = B.array[i];
    p.dstMemoryType = CU_MEMORYTYPE_HOST;
    p.dstHost = B.big_out;
    p.dstPitch = image_side[i] * 4;
    p.dstHeight = image_side[i];
    p.WidthInBytes = image_side[i] * 4;
    p.Height = image_side[i];
    p.Depth = 1;
    CU(cu.Memcpy3DAsync(&p, B.stream));
    CU(cu.StreamSynchronize(B.stream));
}

static void ur_image_small(void) {
    ur_image(0);
}

static void raw_image_small(void) {
    raw_image(0);
}

static void ur_image_big(void) {
    ur_image(1);
}

static void raw_image_big(void) {
    raw_image(1);
}

static void ur_launch(void) {
    size_t one = 1;
    ur_exp_kernel_arg_properties_t arg;
    memset(&arg, 0, sizeof arg);
    arg.stype = UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES;
    arg.type = UR_EXP_KERNEL_ARG_TYPE_POINTER;
    arg.size = sizeof(void *);
    UR(urEnqueueKernelLaunchWithArgsExp(B.queue, B.kernel, 1, NULL, &one, &one, 1, &arg, NULL, 0,
                                        NULL, NULL));
}

static void raw_launch(void) {
    void *p = NULL;
    void *params[] = {&p};
    CU(cu.LaunchKernel(B.function, 1, 1, 1, 1, 1, 1, 0, B.stream, params, NULL));
}

static void ur_launch4(void) {
    size_t one = 1;
    int a = 1;
    long long b = 2;
    ur_exp_kernel_arg_properties_t args[4];
    memset(args, 0, sizeof args);
    for (uint32_t i = 0; i < 4; ++i) {
        args[i].stype = UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES;
        args[i].index = i;
        args[i].type = UR_EXP_KERNEL_ARG_TYPE_POINTER;
        args[i].size = sizeof(void *);
    }
    args[1].type = args[2].type = UR_EXP_KERNEL_ARG_TYPE_VALUE;
    args[1].size = sizeof a;
    args[1].value.value = &a;
    args[2].size = sizeof b;
    args[2].value.value = &b;
    UR(urEnqueueKernelLaunchWithArgsExp(B.queue, B.kernel4, 1, NULL, &one, &one, 4, args, NULL, 0,
                                        NULL, NULL));
}

static void raw_launch4(void) {
    void *p = NULL, *q = NULL;
    int a = 1;
    long long b = 2;
    void *params[] = {&p, &a, &b, &q};
    CU(cu.LaunchKernel(B.function4, 1, 1, 1, 1, 1, 1, 0, B.stream, params, NULL));
}

static int usm_value;

static void ur_usm_copy_on(ur_queue_handle_t q) {
    ++usm_value;
    ur_event_handle_t ev = NULL;
    UR(urEnqueueUSMMemcpy(q, false, B.usm4, &usm_value, sizeof usm_value, 0, NULL, &ev));
    UR(urEventWait(1, &ev));
    UR(urEventRelease(ev));
}

static void ur_usm_copy(void) {
    ur_usm_copy_on(B.queue);
}

static void ur_usm_copy_ooo(void) {
    ur_usm_copy_on(B.ooo_queue);
}

static void raw_usm_copy(void) {
    ++usm_value;
    CU(cu.MemcpyHtoDAsync((CUdeviceptr)(uintptr_t)B.usm4, &usm_value, sizeof usm_value, B.stream));
    CU(cu.StreamSynchronize(B.stream));
}

static void raw_usm_copy_event(void) {
    ++usm_value;
    CUevent ev;
    CU(cu.EventCreate(&ev, CU_EVENT_DISABLE_TIMING));
    CU(cu.MemcpyHtoDAsync((CUdeviceptr)(uintptr_t)B.usm4, &usm_value, sizeof usm_value, B.stream));
    CU(cu.EventRecord(ev, B.stream));
    CU(cu.EventSynchronize(ev));
    CU(cu.EventDestroy(ev));
}

static void ur_launch_sync(void) {
    ur_launch();
    UR(urQueueFinish(B.queue));
}

static void raw_launch_sync(void) {
    raw_launch();
    CU(cu.StreamSynchronize(B.stream));
}

// ---- everyday costs ----

static void ur_queue(void) {
    ur_queue_handle_t q = NULL;
    UR(urQueueCreate(B.context, B.device, NULL, &q));
    UR(urQueueRelease(q));
}

static void raw_queue(void) {
    CUstream s = NULL;
    CU(cu.StreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CU(cu.StreamDestroy(s));
}

static void ur_kernel(void) {
    ur_kernel_handle_t k = NULL;
    UR(urKernelCreate(B.program, "touch4", &k));
    UR(urKernelRelease(k));
}

static void raw_kernel(void) {
    CUfunction f = NULL;
    CU(cu.ModuleGetFunction(&f, B.module, "touch4"));
}

static void ur_event(void) {
    ur_event_handle_t e = NULL;
    UR(urEnqueueEventsWait(B.queue, 0, NULL, &e));
    UR(urEventWait(1, &e));
    UR(urEventRelease(e));
}

static void raw_event(void) {
    CUevent e = NULL;
    CU(cu.EventCreate(&e, CU_EVENT_DISABLE_TIMING));
    CU(cu.EventRecord(e, B.stream));
    CU(cu.EventSynchronize(e));
    CU(cu.EventDestroy(e));
}

static void ur_copy4(void) {
    static int v;
    ++v;
    UR(urEnqueueUSMMemcpy(B.queue, true, B.usm, &v, sizeof v, 0, NULL, NULL));
}

static void raw_copy4(void) {
    static int v;
    ++v;
    CU(cu.MemcpyHtoDAsync(B.raw_mem, &v, sizeof v, B.stream));
    CU(cu.StreamSynchronize(B.stream));
}

static void ur_fill(void) {
    const uint32_t pattern = 0x01020304;
    UR(urEnqueueUSMFill(B.queue, B.usm, sizeof pattern, &pattern, FILL_BYTES, 0, NULL, NULL));
    UR(urQueueFinish(B.queue));
}

static void raw_fill(void) {
    CU(cu.MemsetD32Async(B.raw_mem, 0x01020304, FILL_BYTES / 4, B.stream));
    CU(cu.StreamSynchronize(B.stream));
}

static void ur_alloc(size_t bytes) {
    void *p = NULL;
    UR(urUSMDeviceAlloc(B.context, B.device, NULL, NULL, bytes, &p));
    UR(urUSMFree(B.context, p));
}

static void raw_alloc(size_t bytes) {
    CUdeviceptr p = 0;
    CU(cu.MemAlloc(&p, bytes));
    CU(cu.MemFree(p));
}

static void ur_alloc_small(void) {
    ur_alloc(256);
}

static void raw_alloc_small(void) {
    raw_alloc(256);
}

static void ur_alloc_big(void) {
    ur_alloc(16u << 20);
}

static void raw_alloc_big(void) {
    raw_alloc(16u << 20);
}

static void ur_launches_finish(void) {
    for (int i = 0; i < 1000; ++i)
        ur_launch();
    UR(urQueueFinish(B.queue));
}

static void raw_launches_finish(void) {
    for (int i = 0; i < 1000; ++i)
        raw_launch();
    CU(cu.StreamSynchronize(B.stream));
}

// Kept out of line so callgrind's --toggle-collect can name them; `n` launches each.
__attribute__((noinline)) void count_ur_launches(int n) {
    for (int i = 0; i < n; ++i)
        ur_launch();
}

__attribute__((noinline)) void count_raw_launches(int n) {
    for (int i = 0; i < n; ++i)
        raw_launch();
}

__attribute__((noinline)) void count_ur_launches4(int n) {
    for (int i = 0; i < n; ++i)
        ur_launch4();
}

__attribute__((noinline)) void count_raw_launches4(int n) {
    for (int i = 0; i < n; ++i)
        raw_launch4();
}

// Untimed launches in blocks of 100, the stream drained between blocks (outside the counted
// functions), after the same warm-up run_case does.
static void count_launches(int n) {
    for (int i = 0; i < 200; ++i) {
        ur_launch();
        raw_launch();
        ur_launch4();
        raw_launch4();
    }
    CU(cu.StreamSynchronize(B.stream));
    void (*const counted[4])(int) = {count_ur_launches, count_raw_launches, count_ur_launches4,
                                     count_raw_launches4};
    for (int done = 0; done < n; done += 100) {
        int m = n - done < 100 ? n - done : 100;
        for (int way = 0; way < 4; ++way) {
            counted[way](m);
            CU(cu.StreamSynchronize(B.stream));
        }
    }
    printf("counted %d enqueue-only launches each way\n", n);
}

typedef struct bench_case_t {
    const char *name;
    void (*ur)(void);
    void (*raw)(void);
    bool sync_each_block; // enqueue-only cases drain the stream between blocks, untimed
} bench_case_t;

// Alternating blocks of `block` steps; every step is timed on its own.
// The simulated driver's count of driver calls (test/cuda_sim); NULL on a real driver.
static size_t (*sim_driver_calls)(void);

static void run_case(const bench_case_t *c, int reps, int block) {
    double *ur = malloc(sizeof(double) * (size_t)reps),
           *raw = malloc(sizeof(double) * (size_t)reps);
    if (ur == NULL || raw == NULL)
        FAIL("out of memory\n");
    for (int i = 0; i < 200; ++i) { // warm-up: first-use lookups, caches, clocks
        c->ur();
        c->raw();
    }
    CU(cu.StreamSynchronize(B.stream));
    // On the simulated driver, also what one step costs in driver calls each way.
    long calls_ur = -1, calls_raw = -1;
    if (sim_driver_calls != NULL) {
        size_t before = sim_driver_calls();
        c->ur();
        size_t between = sim_driver_calls();
        c->raw();
        calls_ur = (long)(between - before);
        calls_raw = (long)(sim_driver_calls() - between);
        CU(cu.StreamSynchronize(B.stream));
    }
    int n = 0;
    while (n < reps) {
        int m = reps - n < block ? reps - n : block;
        for (int pass = 0; pass < 2; ++pass) {
            double *out = pass == 0 ? ur : raw;
            void (*step)(void) = pass == 0 ? c->ur : c->raw;
            for (int i = 0; i < m; ++i) {
                double t0 = urc_bench_now_ns();
                step();
                out[n + i] = urc_bench_now_ns() - t0;
            }
            if (c->sync_each_block)
                CU(cu.StreamSynchronize(B.stream));
        }
        n += m;
    }
    double mu = urc_bench_median(ur, reps) / 1e3, mr = urc_bench_median(raw, reps) / 1e3;
    printf("%-36s %10.3f %10.3f %8.3f", c->name, mu, mr, mu / mr);
    if (calls_ur >= 0)
        printf("  driver calls %ld vs %ld", calls_ur, calls_raw);
    printf("\n");
    free(ur);
    free(raw);
}

static void run_all(ur_device_handle_t device, int reps) {
    char name[256] = "", driver[64] = "";
    UR(urDeviceGetInfo(device, UR_DEVICE_INFO_NAME, sizeof name, name, NULL));
    UR(urDeviceGetInfo(device, UR_DEVICE_INFO_DRIVER_VERSION, sizeof driver, driver, NULL));
    printf("bench_cuda on %s (%s), %d reps per case, median microseconds per step\n", name, driver,
           reps);
    printf("%-36s %10s %10s %8s\n", "case", "urc", "raw", "ratio");
    const bench_case_t cases[] = {
        {"device-global write 4 B, blocking", ur_write4, raw_write4, false},
        {"device-global write+read 1 MiB", ur_big, raw_big, false},
        {"kernel launch + wait", ur_launch_sync, raw_launch_sync, false},
        {"kernel launch (enqueue only)", ur_launch, raw_launch, true},
        {"kernel launch, 4 args (enqueue only)", ur_launch4, raw_launch4, true},
        {"USM copy 4 B, SYCL's calls", ur_usm_copy, raw_usm_copy, false},
        {"  same vs raw with an event", ur_usm_copy, raw_usm_copy_event, false},
        {"  same, out-of-order queue", ur_usm_copy_ooo, raw_usm_copy_event, false},
        {"queue create+release", ur_queue, raw_queue, false},
        {"kernel create+release", ur_kernel, raw_kernel, false},
        {"event create+wait+release", ur_event, raw_event, false},
        {"USM memcpy 4 B, blocking", ur_copy4, raw_copy4, false},
        {"USM fill 1 MiB + wait", ur_fill, raw_fill, false},
        {"USM device alloc+free 256 B", ur_alloc_small, raw_alloc_small, false},
        {"USM device alloc+free 16 MiB", ur_alloc_big, raw_alloc_big, false},
        {"1000 launches then finish", ur_launches_finish, raw_launches_finish, false},
        {"image write+read 4 KiB, blocking", ur_image_small, raw_image_small, false},
        {"image write+read 1 MiB, blocking", ur_image_big, raw_image_big, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        // The long cases run fewer steps: 1 MiB round trips and fills, a 16 MiB allocation,
        // 1000 launches.
        bool thousand = strstr(cases[i].name, "1000 launches") != NULL;
        int n = reps;
        if (thousand)
            n = reps / 100;
        else if (strstr(cases[i].name, "MiB") != NULL)
            n = reps / 10;
        run_case(&cases[i], n < 20 ? 20 : n, thousand ? 10 : 100);
    }
}

int main(int argc, char **argv) {
    int reps = 20000, count = 0;
    const char *adapter = getenv("URC_BENCH_CUDA_ADAPTER"),
               *ptx_path = getenv("URC_BENCH_CUDA_PTX");
    if (adapter == NULL)
        adapter = URC_BENCH_ADAPTER;
    if (ptx_path == NULL)
        ptx_path = URC_BENCH_PTX;
    reps = urc_bench_int_arg(argc, argv, "--reps", reps);
    count = urc_bench_int_arg(argc, argv, "--count", count);
    if (urc_bench_arg(argc, argv, "--adapter") != NULL)
        adapter = urc_bench_arg(argc, argv, "--adapter");
    if (urc_bench_arg(argc, argv, "--ptx") != NULL)
        ptx_path = urc_bench_arg(argc, argv, "--ptx");
    if (reps < 100)
        reps = 100;
    setenv("UR_ADAPTERS_FORCE_LOAD", adapter, 0);

    UR(urLoaderInit(0, NULL));
    ur_adapter_handle_t a = NULL;
    ur_platform_handle_t platform = NULL;
    ur_device_handle_t device = NULL;
    ur_context_handle_t context = NULL;
    uint32_t n = 0;
    UR(urAdapterGet(1, &a, &n));
    UR(urPlatformGet(a, 1, &platform, &n));
    if (n == 0) {
        fprintf(stderr, "no CUDA platform: skipped\n");
        return 77;
    }
    UR(urDeviceGet(platform, UR_DEVICE_TYPE_GPU, 1, &device, NULL));
    UR(urContextCreate(1, &device, NULL, &context));
    B.context = context;
    B.device = device;
    UR(urQueueCreate(context, device, NULL, &B.queue));
    ur_queue_properties_t ooo = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL,
                                 UR_QUEUE_FLAG_OUT_OF_ORDER_EXEC_MODE_ENABLE};
    UR(urQueueCreate(context, device, &ooo, &B.ooo_queue));
    UR(urUSMDeviceAlloc(context, device, NULL, NULL, sizeof(int), &B.usm4));
    size_t size = 0;
    const uint8_t *ptx = urc_bench_read_file(ptx_path, &size);
    UR(urProgramCreateWithBinary(context, 1, &device, &size, &ptx, NULL, &B.program));
    UR(urProgramBuild(context, B.program, NULL));
    UR(urKernelCreate(B.program, "touch", &B.kernel));
    UR(urKernelCreate(B.program, "touch4", &B.kernel4));

    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (lib == NULL)
        FAIL("libcuda.so.1 is not loaded\n");
    cu.ModuleGetGlobal = (PFN_cuModuleGetGlobal_v3020)dlsym(lib, "cuModuleGetGlobal_v2");
    cu.MemcpyHtoDAsync = (PFN_cuMemcpyHtoDAsync_v3020)dlsym(lib, "cuMemcpyHtoDAsync_v2");
    cu.MemcpyDtoHAsync = (PFN_cuMemcpyDtoHAsync_v3020)dlsym(lib, "cuMemcpyDtoHAsync_v2");
    cu.StreamSynchronize = (PFN_cuStreamSynchronize_v2000)dlsym(lib, "cuStreamSynchronize");
    cu.LaunchKernel = (PFN_cuLaunchKernel_v4000)dlsym(lib, "cuLaunchKernel");
    cu.StreamCreate = (PFN_cuStreamCreate_v2000)dlsym(lib, "cuStreamCreate");
    cu.StreamDestroy = (PFN_cuStreamDestroy_v4000)dlsym(lib, "cuStreamDestroy_v2");
    cu.ModuleGetFunction = (PFN_cuModuleGetFunction_v2000)dlsym(lib, "cuModuleGetFunction");
    cu.EventCreate = (PFN_cuEventCreate_v2000)dlsym(lib, "cuEventCreate");
    cu.EventRecord = (PFN_cuEventRecord_v2000)dlsym(lib, "cuEventRecord");
    cu.EventSynchronize = (PFN_cuEventSynchronize_v2000)dlsym(lib, "cuEventSynchronize");
    cu.EventDestroy = (PFN_cuEventDestroy_v4000)dlsym(lib, "cuEventDestroy_v2");
    cu.MemAlloc = (PFN_cuMemAlloc_v3020)dlsym(lib, "cuMemAlloc_v2");
    cu.MemFree = (PFN_cuMemFree_v3020)dlsym(lib, "cuMemFree_v2");
    cu.MemsetD32Async = (PFN_cuMemsetD32Async_v3020)dlsym(lib, "cuMemsetD32Async");
    cu.Memcpy3DAsync = (PFN_cuMemcpy3DAsync_v3020)dlsym(lib, "cuMemcpy3DAsync_v2");
    sim_driver_calls = (size_t(*)(void))dlsym(lib, "urc_cuda_sim_driver_calls");
    if (!cu.ModuleGetGlobal || !cu.MemcpyHtoDAsync || !cu.MemcpyDtoHAsync ||
        !cu.StreamSynchronize || !cu.LaunchKernel || !cu.StreamCreate || !cu.StreamDestroy ||
        !cu.ModuleGetFunction || !cu.EventCreate || !cu.EventRecord || !cu.EventSynchronize ||
        !cu.EventDestroy || !cu.MemAlloc || !cu.MemFree || !cu.MemsetD32Async || !cu.Memcpy3DAsync)
        FAIL("libcuda.so.1 lacks a function\n");
    // The same module, stream and function the UR objects use; the adapter made the device's
    // primary context current on this thread.
    ur_native_handle_t module = 0, stream = 0, function = 0, function4 = 0;
    UR(urProgramGetNativeHandle(B.program, &module));
    UR(urQueueGetNativeHandle(B.queue, NULL, &stream));
    UR(urKernelGetNativeHandle(B.kernel, &function));
    B.stream = (CUstream)stream;
    UR(urKernelGetNativeHandle(B.kernel4, &function4));
    B.function = (CUfunction)function;
    B.function4 = (CUfunction)function4;
    B.module = (CUmodule)module;
    UR(urUSMDeviceAlloc(context, device, NULL, NULL, FILL_BYTES, &B.usm));
    CU(cu.MemAlloc(&B.raw_mem, FILL_BYTES));
    size_t bytes = 0;
    CU(cu.ModuleGetGlobal(&B.dev_var, &bytes, (CUmodule)module, "dev_var"));
    CU(cu.ModuleGetGlobal(&B.dev_big, &bytes, (CUmodule)module, "dev_big"));
    B.big_in = calloc(1, 1 << 20);
    B.big_out = calloc(1, 1 << 20);
    if (B.big_in == NULL || B.big_out == NULL)
        FAIL("out of memory\n");
    // The images and, for the raw way, their CUDA arrays.
    const ur_image_format_t rgba8 = {UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8};
    for (int i = 0; i < 2; ++i) {
        ur_image_desc_t d = {UR_STRUCTURE_TYPE_IMAGE_DESC,
                             NULL,
                             UR_MEM_TYPE_IMAGE2D,
                             image_side[i],
                             image_side[i],
                             0,
                             0,
                             0,
                             0,
                             0,
                             0};
        ur_native_handle_t native = 0;
        UR(urMemImageCreate(context, UR_MEM_FLAG_READ_WRITE, &rgba8, &d, NULL, &B.image[i]));
        UR(urMemGetNativeHandle(B.image[i], device, &native));
        B.array[i] = (CUarray)native;
    }

    if (count > 0)
        count_launches(count);
    else
        run_all(device, reps);
    UR(urUSMFree(context, B.usm));
    CU(cu.MemFree(B.raw_mem));
    UR(urMemRelease(B.image[0]));
    UR(urMemRelease(B.image[1]));
    UR(urKernelRelease(B.kernel4));
    UR(urKernelRelease(B.kernel));
    UR(urProgramRelease(B.program));
    UR(urUSMFree(context, B.usm4));
    UR(urQueueRelease(B.ooo_queue));
    UR(urQueueRelease(B.queue));
    UR(urContextRelease(context));
    UR(urAdapterRelease(a));
    UR(urLoaderTearDown());
    free(B.big_in);
    free(B.big_out);
    return 0;
}
