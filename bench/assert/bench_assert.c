// SPDX-License-Identifier: MIT
// What the fallback assert costs. The OpenCL adapter checks a kernel's assert record only after
// launches of kernels its program marks in "SYCL/assert used"; every other launch must cost
// the same as before. Measured here on the fallback path (URC_OPENCL_FORCE_FALLBACK_ASSERT=1):
//
//   A  launch + urQueueFinish of an unmarked kernel (add_one) in a context with no marked program
//   B  the same in a second context that also holds a marked program whose marked kernel was
//      launched and checked before (so its queue has tracked assert launches)
//   C  launch + urQueueFinish of the marked kernel itself (one record read per finish)
//
// A and B alternate, one launch each, so drift hits both alike. Prints the median microseconds
// and the ratios B/A ("unmarked ratio", expected ~1.0) and C/A.
//
//   bench_assert [--reps N]   (default 5000)
//
// Runs on Intel's CPU runtime (OCL_ICD_VENDORS is set to it unless the caller set it); exits 77
// without a device that takes SPIR-V and reads program globals.
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "ur_api.h"

/// One context with its queue, a buffer of 64 ints and a kernel over it.
typedef struct setup_t {
    ur_context_handle_t context;
    ur_queue_handle_t queue;
    ur_mem_handle_t buffer;
    ur_program_handle_t program;
    ur_kernel_handle_t kernel;
} setup_t;

static ur_program_handle_t build(ur_context_handle_t c, const char *file,
                                 const ur_program_properties_t *props) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", URC_BENCH_KERNELS, file);
    size_t size = 0;
    void *spv = urc_bench_read_file(path, &size);
    ur_program_handle_t p = NULL;
    UR(urProgramCreateWithIL(c, spv, size, props, &p));
    UR(urProgramBuild(c, p, NULL));
    free(spv);
    return p;
}

static void make(setup_t *s, ur_device_handle_t device, const char *file, const char *kernel,
                 const ur_program_properties_t *props) {
    UR(urContextCreate(1, &device, NULL, &s->context));
    UR(urQueueCreate(s->context, device, NULL, &s->queue));
    int ones[64];
    for (int i = 0; i < 64; ++i)
        ones[i] = 1;
    UR(urMemBufferCreate(s->context, UR_MEM_FLAG_READ_WRITE, sizeof ones, NULL, &s->buffer));
    UR(urEnqueueMemBufferWrite(s->queue, s->buffer, true, 0, sizeof ones, ones, 0, NULL, NULL));
    s->program = build(s->context, file, props);
    UR(urKernelCreate(s->program, kernel, &s->kernel));
}

static void launch_and_finish(const setup_t *s, ur_kernel_handle_t kernel) {
    ur_exp_kernel_arg_properties_t arg = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                          NULL,
                                          UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ,
                                          0,
                                          sizeof s->buffer,
                                          {.memObjTuple = {s->buffer, UR_MEM_FLAG_READ_WRITE}}};
    size_t global = 64;
    UR(urEnqueueKernelLaunchWithArgsExp(s->queue, kernel, 1, NULL, &global, NULL, 1, &arg, NULL, 0,
                                        NULL, NULL));
    UR(urQueueFinish(s->queue));
}

static void destroy(setup_t *s) {
    UR(urKernelRelease(s->kernel));
    UR(urProgramRelease(s->program));
    UR(urMemRelease(s->buffer));
    UR(urQueueRelease(s->queue));
    UR(urContextRelease(s->context));
}

int main(int argc, char **argv) {
    int reps = urc_bench_int_arg(argc, argv, "--reps", 5000);
    if (reps < 10)
        reps = 10;
    if (URC_BENCH_INTEL_ICD[0] != '\0')
        setenv("OCL_ICD_VENDORS", URC_BENCH_INTEL_ICD, 0);
    setenv("UR_ADAPTERS_FORCE_LOAD", URC_BENCH_ADAPTER, 0);
    setenv("URC_OPENCL_FORCE_FALLBACK_ASSERT", "1", 1);

    UR(urLoaderInit(0, NULL));
    ur_adapter_handle_t adapter = NULL;
    UR(urAdapterGet(1, &adapter, NULL));
    ur_platform_handle_t platform = NULL;
    UR(urPlatformGet(adapter, 1, &platform, NULL));
    ur_device_handle_t device = NULL;
    UR(urDeviceGet(platform, UR_DEVICE_TYPE_ALL, 1, &device, NULL));
    ur_bool_t globals = false;
    size_t il = 0;
    UR(urDeviceGetInfo(device, UR_DEVICE_INFO_GLOBAL_VARIABLE_SUPPORT, sizeof globals, &globals,
                       NULL));
    if (!globals ||
        urDeviceGetInfo(device, UR_DEVICE_INFO_IL_VERSION, 0, NULL, &il) != UR_RESULT_SUCCESS ||
        il <= 1) {
        fprintf(stderr, "no OpenCL device with SPIR-V and program globals: skipped\n");
        return 77;
    }
    char name[256] = "";
    UR(urDeviceGetInfo(device, UR_DEVICE_INFO_NAME, sizeof name, name, NULL));

    setup_t a, b;
    make(&a, device, "add_one.spv", "add_one", NULL);
    make(&b, device, "add_one.spv", "add_one", NULL);
    // B's context also holds the marked program; its marked kernel has run once and been
    // checked, so B's queue has tracked assert launches before.
    ur_program_metadata_t md = {"SYCL/assert used/assert_kernel",
                                UR_PROGRAM_METADATA_TYPE_UINT32,
                                sizeof(uint32_t),
                                {.data32 = 1}};
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 1, &md};
    ur_program_handle_t marked = build(b.context, "assert_fallback.spv", &props);
    ur_kernel_handle_t assert_kernel = NULL;
    UR(urKernelCreate(marked, "assert_kernel", &assert_kernel));
    launch_and_finish(&b, assert_kernel);

    double *ta = malloc(sizeof(double) * (size_t)reps);
    double *tb = malloc(sizeof(double) * (size_t)reps);
    double *tc = malloc(sizeof(double) * (size_t)reps);
    for (int i = 0; i < 100; ++i) { // warm both
        launch_and_finish(&a, a.kernel);
        launch_and_finish(&b, b.kernel);
    }
    for (int i = 0; i < reps; ++i) {
        double t0 = urc_bench_now_us();
        launch_and_finish(&a, a.kernel);
        double t1 = urc_bench_now_us();
        launch_and_finish(&b, b.kernel);
        double t2 = urc_bench_now_us();
        ta[i] = t1 - t0;
        tb[i] = t2 - t1;
    }
    for (int i = 0; i < reps; ++i) {
        double t0 = urc_bench_now_us();
        launch_and_finish(&b, assert_kernel);
        tc[i] = urc_bench_now_us() - t0;
    }
    double ma = urc_bench_median(ta, reps), mb = urc_bench_median(tb, reps),
           mc = urc_bench_median(tc, reps);
    printf("device: %s; %d launch + urQueueFinish each, fallback assert on\n", name, reps);
    printf("A unmarked kernel, no marked program   %8.2f us\n", ma);
    printf("B unmarked kernel, marked program      %8.2f us\n", mb);
    printf("C marked kernel (one record read)      %8.2f us\n", mc);
    printf("unmarked ratio %.3f\n", mb / ma);
    printf("marked ratio %.3f\n", mc / ma);

    free(ta);
    free(tb);
    free(tc);
    UR(urKernelRelease(assert_kernel));
    UR(urProgramRelease(marked));
    destroy(&a);
    destroy(&b);
    UR(urAdapterRelease(adapter));
    UR(urLoaderTearDown());
    return 0;
}
