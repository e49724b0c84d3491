// SPDX-License-Identifier: MIT
// What a command buffer saves on OpenCL: 1000 launches of an empty kernel, each way ending
// with the queue finished:
//   - eager: 1000 urEnqueueKernelLaunchWithArgsExp, then urQueueFinish
//   - replay: one urEnqueueCommandBufferExp of a buffer holding the 1000 launches, then finish
//   - raw: clEnqueueCommandBufferKHR of the same cl_command_buffer_khr, then clFinish
// The three alternate, each going first in turn, so drift hits all alike; medians and the ratios
// replay/eager and replay/raw print.
//
//   bench_command_buffer_opencl [--reps N] [--launches N]
//
// Runs on Intel's CPU runtime (OCL_ICD_VENDORS is set to it unless the caller set it); exits
// 77 when no device has command buffers.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "ur_api.h"

typedef cl_int(CL_API_CALL *enqueue_fn)(cl_uint, cl_command_queue *, void *, cl_uint,
                                        const cl_event *, cl_event *);

int main(int argc, char **argv) {
    int reps = urc_bench_int_arg(argc, argv, "--reps", 200);
    int launches = urc_bench_int_arg(argc, argv, "--launches", 1000);
    if (reps < 5)
        reps = 5;
    if (launches < 1)
        launches = 1;
    if (URC_BENCH_INTEL_ICD[0] != '\0')
        setenv("OCL_ICD_VENDORS", URC_BENCH_INTEL_ICD, 0);
    setenv("UR_ADAPTERS_FORCE_LOAD", URC_BENCH_ADAPTER, 0);

    UR(urLoaderInit(0, NULL));
    ur_adapter_handle_t adapter = NULL;
    UR(urAdapterGet(1, &adapter, NULL));
    ur_platform_handle_t platforms[8];
    uint32_t n = 0;
    UR(urPlatformGet(adapter, 8, platforms, &n));
    ur_platform_handle_t platform = NULL;
    ur_device_handle_t device = NULL;
    for (uint32_t i = 0; i < n && i < 8 && device == NULL; ++i) {
        ur_device_handle_t d = NULL;
        ur_bool_t cb = false;
        UR(urDeviceGet(platforms[i], UR_DEVICE_TYPE_ALL, 1, &d, NULL));
        UR(urDeviceGetInfo(d, UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP, sizeof cb, &cb, NULL));
        if (cb) {
            platform = platforms[i];
            device = d;
        }
    }
    if (device == NULL) {
        fprintf(stderr, "no OpenCL device with command buffers: skipped\n");
        return 77;
    }
    char name[256] = "";
    UR(urDeviceGetInfo(device, UR_DEVICE_INFO_NAME, sizeof name, name, NULL));
    ur_context_handle_t context = NULL;
    ur_queue_handle_t queue = NULL;
    ur_program_handle_t program = NULL;
    ur_kernel_handle_t kernel = NULL;
    UR(urContextCreate(1, &device, NULL, &context));
    UR(urQueueCreate(context, device, NULL, &queue));
    size_t size = 0;
    void *spv = urc_bench_read_file(URC_BENCH_KERNEL, &size);
    UR(urProgramCreateWithIL(context, spv, size, NULL, &program));
    UR(urProgramBuild(context, program, NULL));
    free(spv);
    UR(urKernelCreate(program, "empty_kernel", &kernel));

    ur_exp_command_buffer_desc_t desc = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, false,
                                         true, false};
    ur_exp_command_buffer_handle_t cb = NULL;
    UR(urCommandBufferCreateExp(context, device, &desc, &cb));
    size_t global = 1;
    for (int i = 0; i < launches; ++i)
        UR(urCommandBufferAppendKernelLaunchExp(cb, kernel, 1, NULL, &global, NULL, 0, NULL, 0,
                                                NULL, 0, NULL, NULL, NULL, NULL));
    UR(urCommandBufferFinalizeExp(cb));

    ur_native_handle_t nq = 0, ncb = 0, nplat = 0;
    UR(urQueueGetNativeHandle(queue, NULL, &nq));
    UR(urCommandBufferGetNativeHandleExp(cb, &ncb));
    UR(urPlatformGetNativeHandle(platform, &nplat));
    cl_command_queue clq = (cl_command_queue)nq;
    enqueue_fn cl_enqueue = (enqueue_fn)clGetExtensionFunctionAddressForPlatform(
        (cl_platform_id)nplat, "clEnqueueCommandBufferKHR");
    if (cl_enqueue == NULL)
        FAIL("clEnqueueCommandBufferKHR does not resolve\n");

    double *eager = malloc(sizeof(double) * (size_t)reps);
    double *replay = malloc(sizeof(double) * (size_t)reps);
    double *raw = malloc(sizeof(double) * (size_t)reps);
    if (eager == NULL || replay == NULL || raw == NULL)
        FAIL("out of memory\n");
    for (int r = -3; r < reps; ++r) { // three warm-up rounds
        // The three ways take turns going first: a runtime may favour whatever follows a finish.
        double t[3] = {0, 0, 0};
        for (int k = 0; k < 3; ++k) {
            int way = (k + (r + 3)) % 3;
            double t0 = urc_bench_now_us();
            if (way == 0) {
                for (int i = 0; i < launches; ++i)
                    UR(urEnqueueKernelLaunchWithArgsExp(queue, kernel, 1, NULL, &global, NULL, 0,
                                                        NULL, NULL, 0, NULL, NULL));
                UR(urQueueFinish(queue));
            } else if (way == 1) {
                UR(urEnqueueCommandBufferExp(queue, cb, 0, NULL, NULL));
                UR(urQueueFinish(queue));
            } else if (cl_enqueue(1, &clq, (void *)ncb, 0, NULL, NULL) != CL_SUCCESS ||
                       clFinish(clq) != CL_SUCCESS) {
                FAIL("raw clEnqueueCommandBufferKHR failed\n");
            }
            t[way] = urc_bench_now_us() - t0;
        }
        if (r >= 0) {
            eager[r] = t[0];
            replay[r] = t[1];
            raw[r] = t[2];
        }
    }
    double me = urc_bench_median(eager, reps), mr = urc_bench_median(replay, reps),
           mw = urc_bench_median(raw, reps);
    printf("device: %s; %d launches of an empty kernel, %d repetitions, median us\n", name,
           launches, reps);
    printf("%-28s %12.1f\n", "eager UR launches + finish", me);
    printf("%-28s %12.1f\n", "UR command-buffer replay", mr);
    printf("%-28s %12.1f\n", "raw clEnqueueCommandBufferKHR", mw);
    printf("replay / eager %.3f   replay / raw %.3f\n", mr / me, mr / mw);
    free(eager);
    free(replay);
    free(raw);
    UR(urCommandBufferReleaseExp(cb));
    UR(urKernelRelease(kernel));
    UR(urProgramRelease(program));
    UR(urQueueRelease(queue));
    UR(urContextRelease(context));
    UR(urAdapterRelease(adapter));
    UR(urLoaderTearDown());
    return 0;
}
