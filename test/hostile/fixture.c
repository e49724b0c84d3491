// SPDX-License-Identifier: MIT
// The handles a hostile case starts from: one of every kind the device can make, made in the
// child that runs the cases (a runtime is never started in the parent, which only forks).
#include "fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USM_BYTES (64u * 1024u)

static void *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *data = n > 0 ? malloc((size_t)n) : NULL;
    if (data != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

// A program and kernel from URC_HOSTILE_IL (SPIR-V) or URC_HOSTILE_BINARY (PTX, SPIR bitcode)
// and URC_HOSTILE_KERNEL; without them the kernel-taking cases start from a NULL kernel.
static void make_kernel(hostile_fixture_t *f) {
    const char *il = getenv("URC_HOSTILE_IL");
    const char *bin = getenv("URC_HOSTILE_BINARY");
    const char *name = getenv("URC_HOSTILE_KERNEL");
    if (name == NULL || (il == NULL && bin == NULL))
        return;
    size_t size = 0;
    void *data = read_file(il != NULL ? il : bin, &size);
    if (data == NULL)
        return;
    ur_program_handle_t program = NULL;
    ur_context_handle_t ctx = f->handles[HOSTILE_HK_CONTEXT];
    ur_device_handle_t dev = f->handles[HOSTILE_HK_DEVICE];
    ur_result_t r = il != NULL ? urProgramCreateWithIL(ctx, data, size, NULL, &program)
                               : urProgramCreateWithBinary(ctx, 1, &dev, &size,
                                                           (const uint8_t **)&data, NULL, &program);
    free(data);
    if (r != UR_RESULT_SUCCESS)
        return;
    if (urProgramBuild(ctx, program, NULL) != UR_RESULT_SUCCESS) {
        urProgramRelease(program);
        return;
    }
    f->handles[HOSTILE_HK_PROGRAM] = program;
    ur_kernel_handle_t kernel = NULL;
    if (urKernelCreate(program, name, &kernel) == UR_RESULT_SUCCESS)
        f->handles[HOSTILE_HK_KERNEL] = kernel;
}

static void make_usm(hostile_fixture_t *f) {
    ur_context_handle_t ctx = f->handles[HOSTILE_HK_CONTEXT];
    ur_device_handle_t dev = f->handles[HOSTILE_HK_DEVICE];
    void *p = NULL;
    // Shared first: host code may also touch it (buffer reads into it, for one).
    if (urUSMSharedAlloc(ctx, dev, NULL, NULL, USM_BYTES, &p) == UR_RESULT_SUCCESS ||
        urUSMHostAlloc(ctx, NULL, NULL, USM_BYTES, &p) == UR_RESULT_SUCCESS ||
        urUSMDeviceAlloc(ctx, dev, NULL, NULL, USM_BYTES, &p) == UR_RESULT_SUCCESS) {
        f->usm = p;
        f->usm_bytes = USM_BYTES;
    }
}

int hostile_fixture_open(hostile_fixture_t *f) {
    memset(f, 0, sizeof *f);
    if (urLoaderInit(0, NULL) != UR_RESULT_SUCCESS)
        return -1;
    ur_adapter_handle_t adapter = NULL;
    ur_platform_handle_t platform = NULL;
    ur_device_handle_t device = NULL;
    uint32_t n = 0;
    if (urAdapterGet(1, &adapter, &n) != UR_RESULT_SUCCESS || n == 0)
        return 0;
    if (urPlatformGet(adapter, 1, &platform, &n) != UR_RESULT_SUCCESS || n == 0)
        return 0;
    if (urDeviceGet(platform, UR_DEVICE_TYPE_ALL, 1, &device, &n) != UR_RESULT_SUCCESS || n == 0)
        return 0;
    f->handles[HOSTILE_HK_ADAPTER] = adapter;
    f->handles[HOSTILE_HK_PLATFORM] = platform;
    f->handles[HOSTILE_HK_DEVICE] = device;
    ur_context_handle_t ctx = NULL;
    ur_queue_handle_t queue = NULL;
    if (urContextCreate(1, &device, NULL, &ctx) != UR_RESULT_SUCCESS ||
        urQueueCreate(ctx, device, NULL, &queue) != UR_RESULT_SUCCESS)
        return -1;
    f->handles[HOSTILE_HK_CONTEXT] = ctx;
    f->handles[HOSTILE_HK_QUEUE] = queue;
    ur_mem_handle_t buffer = NULL;
    if (urMemBufferCreate(ctx, UR_MEM_FLAG_READ_WRITE, USM_BYTES, NULL, &buffer) ==
        UR_RESULT_SUCCESS)
        f->handles[HOSTILE_HK_MEM] = buffer;
    ur_event_handle_t event = NULL;
    if (urEnqueueEventsWait(queue, 0, NULL, &event) == UR_RESULT_SUCCESS &&
        urEventWait(1, &event) == UR_RESULT_SUCCESS)
        f->handles[HOSTILE_HK_EVENT] = event;
    make_usm(f);
    make_kernel(f);
    urPlatformGetInfo(platform, UR_PLATFORM_INFO_NAME, sizeof f->platform_name, f->platform_name,
                      NULL);
    return 1;
}
