// SPDX-License-Identifier: MIT
// What the UR path costs for device globals: a blocking write followed by a blocking read of
// one device global, through libur_loader and the OpenCL adapter, against the same two calls
// made straight to clEnqueueWriteGlobalVariableINTEL / clEnqueueReadGlobalVariableINTEL on the
// same queue and program. The two ways alternate, so drift hits both alike.
//
//   bench_device_global [--reps N]
//
// Prints, for 4 bytes and 1 MiB, the median microseconds per write+read both ways and the
// ratio of the medians. Runs on Intel's CPU runtime (OCL_ICD_VENDORS is set to it unless the
// caller set it); exits 77 when no platform offers device globals.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ur_api.h"

typedef cl_int(CL_API_CALL *write_fn)(cl_command_queue, cl_program, const char *, cl_bool, size_t,
                                      size_t, const void *, cl_uint, const cl_event *, cl_event *);
typedef cl_int(CL_API_CALL *read_fn)(cl_command_queue, cl_program, const char *, cl_bool, size_t,
                                     size_t, void *, cl_uint, const cl_event *, cl_event *);

int main(int argc, char **argv) {
    int reps = urc_bench_int_arg(argc, argv, "--reps", 20000);
    if (reps < 10)
        reps = 10;
    if (URC_BENCH_INTEL_ICD[0] != '\0')
        setenv("OCL_ICD_VENDORS", URC_BENCH_INTEL_ICD, 0);
    setenv("UR_ADAPTERS_FORCE_LOAD", URC_BENCH_ADAPTER, 0);

    UR(urLoaderInit(0, NULL));
    ur_adapter_handle_t adapter = NULL;
    UR(urAdapterGet(1, &adapter, NULL));
    uint32_t n = 0;
    UR(urPlatformGet(adapter, 0, NULL, &n));
    ur_platform_handle_t platform = NULL;
    ur_device_handle_t device = NULL;
    ur_platform_handle_t platforms[8];
    UR(urPlatformGet(adapter, 8, platforms, NULL));
    for (uint32_t i = 0; i < n && i < 8 && device == NULL; ++i) {
        ur_device_handle_t d = NULL;
        ur_bool_t globals = false;
        UR(urDeviceGet(platforms[i], UR_DEVICE_TYPE_ALL, 1, &d, NULL));
        UR(urDeviceGetInfo(d, UR_DEVICE_INFO_GLOBAL_VARIABLE_SUPPORT, sizeof globals, &globals,
                           NULL));
        if (globals) {
            platform = platforms[i];
            device = d;
        }
    }
    if (device == NULL) {
        fprintf(stderr, "no OpenCL device with device globals: skipped\n");
        return 77;
    }
    char name[256] = "";
    UR(urDeviceGetInfo(device, UR_DEVICE_INFO_NAME, sizeof name, name, NULL));

    ur_context_handle_t context = NULL;
    ur_queue_handle_t queue = NULL;
    ur_program_handle_t program = NULL;
    UR(urContextCreate(1, &device, NULL, &context));
    UR(urQueueCreate(context, device, NULL, &queue));
    size_t size = 0;
    void *spv = urc_bench_read_file(URC_BENCH_KERNEL, &size);
    UR(urProgramCreateWithIL(context, spv, size, NULL, &program));
    UR(urProgramBuild(context, program, NULL));
    free(spv);

    // The same queue and program, natively, and the driver's entry points.
    ur_native_handle_t nq = 0, np = 0, nplat = 0;
    UR(urQueueGetNativeHandle(queue, NULL, &nq));
    UR(urProgramGetNativeHandle(program, &np));
    UR(urPlatformGetNativeHandle(platform, &nplat));
    cl_command_queue clq = (cl_command_queue)nq;
    cl_program clp = (cl_program)np;
    write_fn cl_write = (write_fn)clGetExtensionFunctionAddressForPlatform(
        (cl_platform_id)nplat, "clEnqueueWriteGlobalVariableINTEL");
    read_fn cl_read = (read_fn)clGetExtensionFunctionAddressForPlatform(
        (cl_platform_id)nplat, "clEnqueueReadGlobalVariableINTEL");
    if (cl_write == NULL || cl_read == NULL)
        FAIL("the global variable functions do not resolve\n");

    static const struct {
        const char *label, *var;
        size_t bytes;
    } cases[] = {{"4 B", "bench_small", 4}, {"1 MiB", "bench_big", 1 << 20}};
    printf("device: %s; %d repetitions of a blocking write + read each way\n", name, reps);
    printf("%-6s %14s %14s %8s\n", "size", "UR median us", "CL median us", "ratio");
    double *ur_us = malloc(sizeof(double) * (size_t)reps);
    double *cl_us = malloc(sizeof(double) * (size_t)reps);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        size_t bytes = cases[c].bytes;
        const char *var = cases[c].var;
        int r = bytes > 4096 ? reps / 10 : reps;
        unsigned char *src = malloc(bytes), *dst = malloc(bytes);
        memset(src, 0x5a, bytes);
        // Warm both paths (first lookups, page faults) before measuring.
        for (int i = 0; i < 20; ++i) {
            UR(urEnqueueDeviceGlobalVariableWrite(queue, program, var, true, bytes, 0, src, 0, NULL,
                                                  NULL));
            UR(urEnqueueDeviceGlobalVariableRead(queue, program, var, true, bytes, 0, dst, 0, NULL,
                                                 NULL));
            cl_write(clq, clp, var, CL_TRUE, bytes, 0, src, 0, NULL, NULL);
            cl_read(clq, clp, var, CL_TRUE, bytes, 0, dst, 0, NULL, NULL);
        }
        for (int i = 0; i < r; ++i) {
            double t0 = urc_bench_now_us();
            UR(urEnqueueDeviceGlobalVariableWrite(queue, program, var, true, bytes, 0, src, 0, NULL,
                                                  NULL));
            UR(urEnqueueDeviceGlobalVariableRead(queue, program, var, true, bytes, 0, dst, 0, NULL,
                                                 NULL));
            double t1 = urc_bench_now_us();
            if (cl_write(clq, clp, var, CL_TRUE, bytes, 0, src, 0, NULL, NULL) != CL_SUCCESS ||
                cl_read(clq, clp, var, CL_TRUE, bytes, 0, dst, 0, NULL, NULL) != CL_SUCCESS)
                FAIL("raw OpenCL transfer failed\n");
            double t2 = urc_bench_now_us();
            ur_us[i] = t1 - t0;
            cl_us[i] = t2 - t1;
        }
        if (memcmp(src, dst, bytes) != 0)
            FAIL("read back differs from what was written\n");
        double mu = urc_bench_median(ur_us, r), mc = urc_bench_median(cl_us, r);
        printf("%-6s %14.2f %14.2f %8.3f\n", cases[c].label, mu, mc, mu / mc);
        free(src);
        free(dst);
    }
    free(ur_us);
    free(cl_us);
    UR(urProgramRelease(program));
    UR(urQueueRelease(queue));
    UR(urContextRelease(context));
    UR(urAdapterRelease(adapter));
    UR(urLoaderTearDown());
    return 0;
}
