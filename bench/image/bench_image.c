// SPDX-License-Identifier: MIT
// What the UR path costs for images: a blocking write then a blocking read of a whole 2D RGBA
// 8-bit image, through libur_loader and the OpenCL adapter, against clEnqueueWriteImage and
// clEnqueueReadImage on the same queue and image. The two ways alternate step by step (and which
// goes first alternates too), so drift hits both alike.
//
//   bench_image [--reps N]
//
// Prints, for 4 KiB (32 x 32) and 1 MiB (512 x 512), the median microseconds per write+read
// both ways and the ratio of the medians. Runs on Intel's CPU runtime (OCL_ICD_VENDORS is set
// to it unless the caller set it); exits 77 when no device has images.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ur_api.h"

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
    ur_platform_handle_t platform = NULL;
    uint32_t n = 0;
    UR(urPlatformGet(adapter, 1, &platform, &n));
    ur_device_handle_t device = NULL;
    ur_bool_t images = false;
    if (n > 0) {
        UR(urDeviceGet(platform, UR_DEVICE_TYPE_ALL, 1, &device, NULL));
        UR(urDeviceGetInfo(device, UR_DEVICE_INFO_IMAGE_SUPPORT, sizeof images, &images, NULL));
    }
    if (!images) {
        fprintf(stderr, "no OpenCL device with images: skipped\n");
        return 77;
    }
    char name[256] = "";
    UR(urDeviceGetInfo(device, UR_DEVICE_INFO_NAME, sizeof name, name, NULL));
    ur_context_handle_t context = NULL;
    ur_queue_handle_t queue = NULL;
    UR(urContextCreate(1, &device, NULL, &context));
    UR(urQueueCreate(context, device, NULL, &queue));
    ur_native_handle_t nq = 0;
    UR(urQueueGetNativeHandle(queue, NULL, &nq));
    cl_command_queue clq = (cl_command_queue)nq;

    static const struct {
        const char *label;
        size_t side;
    } cases[] = {{"4 KiB", 32}, {"1 MiB", 512}};
    const ur_image_format_t format = {UR_IMAGE_CHANNEL_ORDER_RGBA,
                                      UR_IMAGE_CHANNEL_TYPE_UNORM_INT8};
    printf("device: %s; %d repetitions of a blocking 2D image write + read each way\n", name, reps);
    printf("%-6s %14s %14s %8s\n", "size", "UR median us", "CL median us", "ratio");
    double *ur_us = malloc(sizeof(double) * (size_t)reps);
    double *cl_us = malloc(sizeof(double) * (size_t)reps);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        size_t side = cases[c].side, bytes = side * side * 4;
        int r = bytes > 4096 ? reps / 10 : reps;
        ur_image_desc_t desc = {
            UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, UR_MEM_TYPE_IMAGE2D, side, side, 0, 0, 0, 0, 0, 0};
        ur_mem_handle_t img = NULL;
        UR(urMemImageCreate(context, UR_MEM_FLAG_READ_WRITE, &format, &desc, NULL, &img));
        ur_native_handle_t nimg = 0;
        UR(urMemGetNativeHandle(img, device, &nimg));
        cl_mem climg = (cl_mem)nimg;
        unsigned char *src = malloc(bytes), *dst = malloc(bytes);
        if (src == NULL || dst == NULL)
            FAIL("out of memory\n");
        memset(src, 0x5a, bytes);
        const ur_rect_offset_t o = {0, 0, 0};
        const ur_rect_region_t region = {side, side, 1};
        const size_t origin[3] = {0, 0, 0}, cl_region[3] = {side, side, 1};
        // Warm both paths (first uses, page faults) before measuring.
        for (int i = 0; i < 20; ++i) {
            UR(urEnqueueMemImageWrite(queue, img, true, o, region, 0, 0, src, 0, NULL, NULL));
            UR(urEnqueueMemImageRead(queue, img, true, o, region, 0, 0, dst, 0, NULL, NULL));
            clEnqueueWriteImage(clq, climg, CL_TRUE, origin, cl_region, 0, 0, src, 0, NULL, NULL);
            clEnqueueReadImage(clq, climg, CL_TRUE, origin, cl_region, 0, 0, dst, 0, NULL, NULL);
        }
        // Which way goes first alternates, so neither always finds the caches the other left.
        for (int i = 0; i < r; ++i) {
            for (int way = 0; way < 2; ++way) {
                bool ur = (way == 0) == (i % 2 == 0);
                double t0 = urc_bench_now_us();
                if (ur) {
                    UR(urEnqueueMemImageWrite(queue, img, true, o, region, 0, 0, src, 0, NULL,
                                              NULL));
                    UR(urEnqueueMemImageRead(queue, img, true, o, region, 0, 0, dst, 0, NULL,
                                             NULL));
                } else if (clEnqueueWriteImage(clq, climg, CL_TRUE, origin, cl_region, 0, 0, src, 0,
                                               NULL, NULL) != CL_SUCCESS ||
                           clEnqueueReadImage(clq, climg, CL_TRUE, origin, cl_region, 0, 0, dst, 0,
                                              NULL, NULL) != CL_SUCCESS) {
                    FAIL("raw OpenCL transfer failed\n");
                }
                (ur ? ur_us : cl_us)[i] = urc_bench_now_us() - t0;
            }
        }
        if (memcmp(src, dst, bytes) != 0)
            FAIL("read back differs from what was written\n");
        double mu = urc_bench_median(ur_us, r), mc = urc_bench_median(cl_us, r);
        printf("%-6s %14.2f %14.2f %8.3f\n", cases[c].label, mu, mc, mu / mc);
        free(src);
        free(dst);
        UR(urMemRelease(img));
    }
    free(ur_us);
    free(cl_us);
    UR(urQueueRelease(queue));
    UR(urContextRelease(context));
    UR(urAdapterRelease(adapter));
    UR(urLoaderTearDown());
    return 0;
}
