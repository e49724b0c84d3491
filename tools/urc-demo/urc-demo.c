// SPDX-License-Identifier: MIT
// urc-demo: urc at work on the default device, through the loader like any UR application.
//
//   1. find the adapters and pick a device (a CPU OpenCL device when there is one);
//   2. build a SPIR-V module that holds a device global `uid_dev_var` (an int) and a kernel
//      `increment_dev_var` that adds 1 to it;
//   3. write 42 into the device global, launch the kernel, read the device global back: 43.
//
// Device globals need cl_intel_global_variable_access (Intel's CPU runtime, which
// scripts/install-deps installs). On a device without it (PoCL) the demo says so and shows a
// kernel at work instead: add_one, built from SPIR 1.2 bitcode, turns 41 into 42 in a buffer.
// The device code is embedded at build time (demo_spirv.h, demo_spir.h).
//
// Exit status: 0 when the value read back is the expected one, 1 otherwise.
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "demo_spir.h"
#include "demo_spirv.h"
#include "ur_api.h"

#define VAR    "uid_dev_var"
#define KERNEL "increment_dev_var"

/// Prints the failed call and its result, then leaves main through its cleanup.
#define CHECK(call)                                                                                \
    do {                                                                                           \
        ur_result_t r_ = (call);                                                                   \
        if (r_ != UR_RESULT_SUCCESS) {                                                             \
            fprintf(stderr, "urc-demo: %s failed: UR result %d\n", #call, (int)r_);                \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

/// The chosen device and what it belongs to.
typedef struct choice_t {
    ur_adapter_handle_t adapter;
    ur_platform_handle_t platform;
    ur_device_handle_t device;
    bool opencl_cpu;
} choice_t;

/// Walks adapters, platforms and devices; keeps the first device, or the first CPU device of
/// an OpenCL platform as soon as one shows up.
static void choose_device(ur_adapter_handle_t *adapters, uint32_t n, choice_t *c) {
    for (uint32_t a = 0; a < n && !c->opencl_cpu; ++a) {
        ur_backend_t backend = UR_BACKEND_UNKNOWN;
        urAdapterGetInfo(adapters[a], UR_ADAPTER_INFO_BACKEND, sizeof backend, &backend, NULL);
        ur_platform_handle_t platforms[16];
        uint32_t np = 0;
        if (urPlatformGet(adapters[a], 16, platforms, &np) != UR_RESULT_SUCCESS)
            continue;
        for (uint32_t p = 0; p < np && p < 16 && !c->opencl_cpu; ++p) {
            ur_device_handle_t devices[16];
            uint32_t nd = 0;
            if (urDeviceGet(platforms[p], UR_DEVICE_TYPE_ALL, 16, devices, &nd) !=
                UR_RESULT_SUCCESS)
                continue;
            for (uint32_t d = 0; d < nd && d < 16 && !c->opencl_cpu; ++d) {
                ur_device_type_t type = UR_DEVICE_TYPE_DEFAULT;
                urDeviceGetInfo(devices[d], UR_DEVICE_INFO_TYPE, sizeof type, &type, NULL);
                bool cpu = backend == UR_BACKEND_OPENCL && type == UR_DEVICE_TYPE_CPU;
                if (c->device == NULL || cpu) {
                    // The choice keeps a reference of its own; every device urDeviceGet
                    // gave is released below (the leak checker counts them).
                    if (c->device != NULL)
                        urDeviceRelease(c->device);
                    urDeviceRetain(devices[d]);
                    *c = (choice_t){adapters[a], platforms[p], devices[d], cpu};
                }
            }
            for (uint32_t d = 0; d < nd && d < 16; ++d)
                urDeviceRelease(devices[d]);
        }
    }
}

/// Launches `kernel` over `n` work-items with the given arguments and waits for it.
static ur_result_t run(ur_queue_handle_t q, ur_kernel_handle_t kernel, size_t n, uint32_t nargs,
                       const ur_exp_kernel_arg_properties_t *args) {
    ur_result_t r = urEnqueueKernelLaunchWithArgsExp(q, kernel, 1, NULL, &n, NULL, nargs, args,
                                                     NULL, 0, NULL, NULL);
    return r != UR_RESULT_SUCCESS ? r : urQueueFinish(q);
}

/// PoCL's path: no device globals, so a buffer shows a kernel at work instead.
static int buffer_demo(ur_context_handle_t ctx, ur_device_handle_t dev, ur_queue_handle_t q) {
    int status = 1;
    ur_program_handle_t program = NULL;
    ur_kernel_handle_t kernel = NULL;
    ur_mem_handle_t buffer = NULL;
    if (demo_spir_size == 0) {
        printf("the device code was not built (clang-14 missing: run scripts/install-deps)\n");
        return 1;
    }
    const uint8_t *bin = demo_spir;
    size_t size = demo_spir_size;
    CHECK(urProgramCreateWithBinary(ctx, 1, &dev, &size, &bin, NULL, &program));
    CHECK(urProgramBuild(ctx, program, NULL));
    CHECK(urKernelCreate(program, "add_one", &kernel));
    printf("built kernel add_one from SPIR 1.2 bitcode (%zu bytes)\n", size);
    int value = 41;
    CHECK(urMemBufferCreate(ctx, UR_MEM_FLAG_READ_WRITE, sizeof value, NULL, &buffer));
    CHECK(urEnqueueMemBufferWrite(q, buffer, true, 0, sizeof value, &value, 0, NULL, NULL));
    printf("wrote %d to a buffer\n", value);
    ur_exp_kernel_arg_properties_t arg = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                          NULL,
                                          UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ,
                                          0,
                                          sizeof buffer,
                                          {.memObjTuple = {buffer, UR_MEM_FLAG_READ_WRITE}}};
    CHECK(run(q, kernel, 1, 1, &arg));
    printf("launched add_one\n");
    CHECK(urEnqueueMemBufferRead(q, buffer, true, 0, sizeof value, &value, 0, NULL, NULL));
    printf("read back %d: %s\n", value, value == 42 ? "OK" : "WRONG (expected 42)");
    status = value == 42 ? 0 : 1;
done:
    if (buffer != NULL)
        urMemRelease(buffer);
    if (kernel != NULL)
        urKernelRelease(kernel);
    if (program != NULL)
        urProgramRelease(program);
    return status;
}

/// The main path: a device global written, incremented by a kernel, and read back.
static int device_global_demo(ur_context_handle_t ctx, ur_queue_handle_t q) {
    int status = 1;
    ur_program_handle_t program = NULL;
    ur_kernel_handle_t kernel = NULL;
    if (demo_spirv_size == 0) {
        printf("the device code was not built (SPIR-V tools missing: run scripts/install-deps)\n");
        return 1;
    }
    // The metadata a SYCL compiler would attach: the variable's size and that it has
    // device_image_scope (an 8-byte bit count, then {uint32 size; uint32 image scope}).
    static const uint8_t dg_desc[16] = {64, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0};
    ur_program_metadata_t md = {"SYCL/device globals/" VAR,
                                UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY,
                                sizeof dg_desc,
                                {.pData = (void *)dg_desc}};
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 1, &md};
    CHECK(urProgramCreateWithIL(ctx, demo_spirv, demo_spirv_size, &props, &program));
    CHECK(urProgramBuild(ctx, program, NULL));
    CHECK(urKernelCreate(program, KERNEL, &kernel));
    printf("built a SPIR-V module (%zu bytes) with device global %s and kernel %s\n",
           demo_spirv_size, VAR, KERNEL);

    int value = 42;
    CHECK(urEnqueueDeviceGlobalVariableWrite(q, program, VAR, true, sizeof value, 0, &value, 0,
                                             NULL, NULL));
    printf("wrote %d to %s\n", value, VAR);
    CHECK(run(q, kernel, 1, 0, NULL)); // uid_dev_var += 1
    printf("launched %s\n", KERNEL);
    value = 0;
    CHECK(urEnqueueDeviceGlobalVariableRead(q, program, VAR, true, sizeof value, 0, &value, 0, NULL,
                                            NULL));
    printf("read back %d from %s: %s\n", value, VAR, value == 43 ? "OK" : "WRONG (expected 43)");
    status = value == 43 ? 0 : 1;
done:
    if (kernel != NULL)
        urKernelRelease(kernel);
    if (program != NULL)
        urProgramRelease(program);
    return status;
}

int main(void) {
    int status = 1;
    ur_adapter_handle_t adapters[8];
    uint32_t nadapters = 0;
    choice_t c = {0};
    ur_context_handle_t ctx = NULL;
    ur_queue_handle_t q = NULL;
    printf("urc demo: a device global through urc's loader\n");

    // 1. Adapters (found in UR_ADAPTERS_SEARCH_PATH or next to the loader), then a device.
    CHECK(urLoaderInit(0, NULL));
    CHECK(urAdapterGet(8, adapters, &nadapters));
    if (nadapters > 8)
        nadapters = 8;
    choose_device(adapters, nadapters, &c);
    if (c.device == NULL) {
        printf("no device found: install a CPU OpenCL runtime (scripts/install-deps)\n");
        goto done;
    }
    char device[256] = "", platform[256] = "";
    urDeviceGetInfo(c.device, UR_DEVICE_INFO_NAME, sizeof device, device, NULL);
    urPlatformGetInfo(c.platform, UR_PLATFORM_INFO_NAME, sizeof platform, platform, NULL);
    printf("device: %s (platform: %s)\n", device, platform);

    CHECK(urContextCreate(1, &c.device, NULL, &ctx));
    CHECK(urQueueCreate(ctx, c.device, NULL, &q));

    // 2 and 3 where the device has device globals; else say why, and run a kernel on a buffer.
    ur_bool_t globals = false;
    size_t il = 0;
    urDeviceGetInfo(c.device, UR_DEVICE_INFO_GLOBAL_VARIABLE_SUPPORT, sizeof globals, &globals,
                    NULL);
    // A device without IL answers an empty list.
    bool spirv =
        urDeviceGetInfo(c.device, UR_DEVICE_INFO_IL_VERSION, 0, NULL, &il) == UR_RESULT_SUCCESS &&
        il > 1;
    if (globals && spirv) {
        status = device_global_demo(ctx, q);
    } else {
        printf("this device has no device globals (they need cl_intel_global_variable_access "
               "and SPIR-V: Intel's CPU OpenCL runtime, see scripts/install-deps); showing a "
               "kernel on a buffer instead\n");
        status = buffer_demo(ctx, c.device, q);
    }
done:
    if (q != NULL)
        urQueueRelease(q);
    if (ctx != NULL)
        urContextRelease(ctx);
    if (c.device != NULL)
        urDeviceRelease(c.device);
    for (uint32_t a = 0; a < nadapters; ++a)
        urAdapterRelease(adapters[a]);
    urLoaderTearDown();
    return status;
}
