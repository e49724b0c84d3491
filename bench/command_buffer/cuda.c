// SPDX-License-Identifier: MIT
// What a command buffer saves on CUDA: 1000 launches of a kernel that does nothing (bench_cuda's
// `touch` with a null pointer), each way ending with the queue finished:
//   - eager: 1000 urEnqueueKernelLaunchWithArgsExp, then urQueueFinish
//   - replay: one urEnqueueCommandBufferExp of a buffer holding the 1000 launches, then finish
//   - raw: cuGraphLaunch of an instantiation of the same CUgraph (the buffer's native handle)
//     on the queue's stream, then cuStreamSynchronize
// The three alternate, each going first in turn, so drift hits all alike; medians and the ratios
// replay/eager and replay/raw print. Aims (issue 16): replay at most 0.5x eager, within 1.03x of
// raw.
//
//   bench_command_buffer_cuda [--reps N] [--launches N] [--adapter lib] [--ptx bench_kernels.ptx]
//
// Exits 77 when there is no CUDA device.
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cudaTypedefs.h>

#include "bench.h"
#include "ur_api.h"

int main(int argc, char **argv) {
    int reps = urc_bench_int_arg(argc, argv, "--reps", 200);
    int launches = urc_bench_int_arg(argc, argv, "--launches", 1000);
    const char *adapter_lib = urc_bench_arg(argc, argv, "--adapter");
    const char *ptx_path = urc_bench_arg(argc, argv, "--ptx");
    if (reps < 5)
        reps = 5;
    if (launches < 1)
        launches = 1;
    setenv("UR_ADAPTERS_FORCE_LOAD", adapter_lib != NULL ? adapter_lib : URC_BENCH_ADAPTER, 0);
    void *libcuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (libcuda == NULL) {
        fprintf(stderr, "no CUDA driver: skipped\n");
        return 77;
    }
    PFN_cuGraphInstantiateWithFlags_v11040 instantiate =
        (PFN_cuGraphInstantiateWithFlags_v11040)dlsym(libcuda, "cuGraphInstantiateWithFlags");
    PFN_cuGraphLaunch_v10000 graph_launch =
        (PFN_cuGraphLaunch_v10000)dlsym(libcuda, "cuGraphLaunch");
    PFN_cuGraphExecDestroy_v10000 exec_destroy =
        (PFN_cuGraphExecDestroy_v10000)dlsym(libcuda, "cuGraphExecDestroy");
    PFN_cuStreamSynchronize_v2000 sync =
        (PFN_cuStreamSynchronize_v2000)dlsym(libcuda, "cuStreamSynchronize");
    if (instantiate == NULL || graph_launch == NULL || exec_destroy == NULL || sync == NULL)
        FAIL("libcuda.so.1 lacks the graph entry points\n");

    UR(urLoaderInit(0, NULL));
    ur_adapter_handle_t adapter = NULL;
    UR(urAdapterGet(1, &adapter, NULL));
    ur_platform_handle_t platform = NULL;
    uint32_t n = 0;
    UR(urPlatformGet(adapter, 1, &platform, &n));
    if (n == 0) {
        fprintf(stderr, "no CUDA device: skipped\n");
        return 77;
    }
    ur_device_handle_t device = NULL;
    UR(urDeviceGet(platform, UR_DEVICE_TYPE_ALL, 1, &device, NULL));
    char name[256] = "";
    UR(urDeviceGetInfo(device, UR_DEVICE_INFO_NAME, sizeof name, name, NULL));
    ur_context_handle_t context = NULL;
    ur_queue_handle_t queue = NULL;
    ur_program_handle_t program = NULL;
    ur_kernel_handle_t kernel = NULL;
    UR(urContextCreate(1, &device, NULL, &context));
    UR(urQueueCreate(context, device, NULL, &queue));
    size_t size = 0;
    void *ptx = urc_bench_read_file(ptx_path != NULL ? ptx_path : URC_BENCH_PTX, &size);
    UR(urProgramCreateWithBinary(context, 1, &device, &size, (const uint8_t **)&ptx, NULL,
                                 &program));
    UR(urProgramBuild(context, program, NULL));
    free(ptx);
    UR(urKernelCreate(program, "touch", &kernel));

    void *null_ptr = NULL;
    ur_exp_kernel_arg_properties_t arg = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                          NULL,
                                          UR_EXP_KERNEL_ARG_TYPE_POINTER,
                                          0,
                                          sizeof null_ptr,
                                          {.pointer = null_ptr}};
    size_t global = 32, local = 32;
    ur_exp_command_buffer_desc_t desc = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, false,
                                         true, false};
    ur_exp_command_buffer_handle_t cb = NULL;
    UR(urCommandBufferCreateExp(context, device, &desc, &cb));
    for (int i = 0; i < launches; ++i)
        UR(urCommandBufferAppendKernelLaunchWithArgsExp(cb, kernel, 1, NULL, &global, &local, 1,
                                                        &arg, 0, NULL, 0, NULL, 0, NULL, NULL, NULL,
                                                        NULL));
    UR(urCommandBufferFinalizeExp(cb));
    ur_native_handle_t ngraph = 0, nstream = 0;
    UR(urCommandBufferGetNativeHandleExp(cb, &ngraph));
    UR(urQueueGetNativeHandle(queue, NULL, &nstream));
    CUgraphExec exec = NULL;
    if (instantiate(&exec, (CUgraph)ngraph, 0) != CUDA_SUCCESS)
        FAIL("cuGraphInstantiateWithFlags failed\n");
    CUstream stream = (CUstream)nstream;

    double *eager = malloc(sizeof(double) * (size_t)reps);
    double *replay = malloc(sizeof(double) * (size_t)reps);
    double *raw = malloc(sizeof(double) * (size_t)reps);
    if (eager == NULL || replay == NULL || raw == NULL)
        FAIL("out of memory\n");
    for (int r = -3; r < reps; ++r) { // three warm-up rounds
        // The three ways take turns going first.
        double t[3] = {0, 0, 0};
        for (int k = 0; k < 3; ++k) {
            int way = (k + (r + 3)) % 3;
            double t0 = urc_bench_now_us();
            if (way == 0) {
                for (int i = 0; i < launches; ++i)
                    UR(urEnqueueKernelLaunchWithArgsExp(queue, kernel, 1, NULL, &global, &local, 1,
                                                        &arg, NULL, 0, NULL, NULL));
                UR(urQueueFinish(queue));
            } else if (way == 1) {
                UR(urEnqueueCommandBufferExp(queue, cb, 0, NULL, NULL));
                UR(urQueueFinish(queue));
            } else if (graph_launch(exec, stream) != CUDA_SUCCESS || sync(stream) != CUDA_SUCCESS) {
                FAIL("raw cuGraphLaunch failed\n");
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
    printf("%-28s %12.1f\n", "raw cuGraphLaunch + sync", mw);
    printf("replay / eager %.3f   replay / raw %.3f\n", mr / me, mr / mw);
    exec_destroy(exec);
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
