// SPDX-License-Identifier: MIT
// The handles a hostile case starts from: one of every kind the device can make, made in the
// child that runs the cases (a runtime is never started in the parent, which only forks).
#include "fixture.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

static ur_bool_t device_bool(hostile_fixture_t *f, ur_device_info_t name) {
    ur_bool_t b = 0;
    if (urDeviceGetInfo(f->handles[HOSTILE_HK_DEVICE], name, sizeof b, &b, NULL) !=
        UR_RESULT_SUCCESS)
        return 0;
    return b;
}

// A recording command buffer for the appends and, with a kernel and USM on a device that
// updates commands, a finalized one holding one kernel command (add_one over the USM) to update;
// no case runs it.
static void make_command_buffers(hostile_fixture_t *f) {
    ur_context_handle_t ctx = f->handles[HOSTILE_HK_CONTEXT];
    ur_device_handle_t dev = f->handles[HOSTILE_HK_DEVICE];
    if (!device_bool(f, UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP))
        return;
    ur_exp_command_buffer_desc_t desc = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, false,
                                         true, false};
    ur_exp_command_buffer_handle_t cb = NULL;
    if (urCommandBufferCreateExp(ctx, dev, &desc, &cb) == UR_RESULT_SUCCESS)
        f->handles[HOSTILE_HK_EXP_COMMAND_BUFFER] = cb;
    uint32_t caps = 0;
    if (f->handles[HOSTILE_HK_KERNEL] == NULL || f->usm == NULL ||
        urDeviceGetInfo(dev, UR_DEVICE_INFO_COMMAND_BUFFER_UPDATE_CAPABILITIES_EXP, sizeof caps,
                        &caps, NULL) != UR_RESULT_SUCCESS ||
        caps == 0)
        return;
    // A kernel of its own: OpenCL keeps arguments in the kernel, and the fixture's kernel must
    // stay without them, or the eager launch cases would run it over memory a case may free.
    const char *name = getenv("URC_HOSTILE_KERNEL");
    ur_kernel_handle_t kernel = NULL;
    if (urKernelCreate(f->handles[HOSTILE_HK_PROGRAM], name, &kernel) != UR_RESULT_SUCCESS)
        return;
    desc.isUpdatable = true;
    ur_exp_command_buffer_handle_t up = NULL;
    if (urCommandBufferCreateExp(ctx, dev, &desc, &up) != UR_RESULT_SUCCESS)
        return;
    ur_exp_kernel_arg_properties_t arg = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                          NULL,
                                          UR_EXP_KERNEL_ARG_TYPE_POINTER,
                                          0,
                                          sizeof f->usm,
                                          {.pointer = f->usm}};
    size_t global = 64;
    ur_exp_command_buffer_command_handle_t cmd = NULL;
    if (urCommandBufferAppendKernelLaunchWithArgsExp(up, kernel, 1, NULL, &global, NULL, 1, &arg, 0,
                                                     NULL, 0, NULL, 0, NULL, NULL, NULL,
                                                     &cmd) != UR_RESULT_SUCCESS ||
        urCommandBufferFinalizeExp(up) != UR_RESULT_SUCCESS) {
        urCommandBufferReleaseExp(up);
        urKernelRelease(kernel);
        return;
    }
    f->handles[HOSTILE_HK_EXP_COMMAND_BUFFER_COMMAND] = cmd;
    f->update_cb = up;
}

const ur_image_format_t hostile_image_format = {UR_IMAGE_CHANNEL_ORDER_RGBA,
                                                UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8};
const ur_image_desc_t hostile_image_desc = {
    UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, UR_MEM_TYPE_IMAGE2D, 16, 16, 0, 0, 0, 0, 1, 0};
const ur_sampler_desc_t hostile_sampler_desc = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, false,
                                                UR_SAMPLER_ADDRESSING_MODE_CLAMP,
                                                UR_SAMPLER_FILTER_MODE_NEAREST};

// Handles of the kinds the core cases do not make: each only where the device has it.
static void make_other_handles(hostile_fixture_t *f) {
    ur_context_handle_t ctx = f->handles[HOSTILE_HK_CONTEXT];
    ur_device_handle_t dev = f->handles[HOSTILE_HK_DEVICE];
    ur_sampler_handle_t sampler = NULL;
    if (urSamplerCreate(ctx, &hostile_sampler_desc, &sampler) == UR_RESULT_SUCCESS)
        f->handles[HOSTILE_HK_SAMPLER] = sampler;
    ur_usm_pool_desc_t pool_desc = {UR_STRUCTURE_TYPE_USM_POOL_DESC, NULL, 0};
    ur_usm_pool_handle_t pool = NULL;
    if (urUSMPoolCreate(ctx, &pool_desc, &pool) == UR_RESULT_SUCCESS)
        f->handles[HOSTILE_HK_USM_POOL] = pool;
    void *p = NULL;
    if (urUSMDeviceAlloc(ctx, dev, NULL, NULL, USM_BYTES, &p) == UR_RESULT_SUCCESS)
        f->usm_device = p;
    if (urMemoryExportAllocExportableMemoryExp(
            ctx, dev, 0, USM_BYTES, UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, &p) == UR_RESULT_SUCCESS)
        f->exportable = p;
    if (f->usm_device != NULL && urIPCGetMemHandleExp(ctx, f->usm_device, &f->ipc_mem,
                                                      &f->ipc_mem_bytes) != UR_RESULT_SUCCESS)
        f->ipc_mem = NULL;
    // A graph and its executable form, where queues capture into graphs.
    ur_exp_graph_handle_t graph = NULL;
    ur_exp_executable_graph_handle_t exec = NULL;
    if (urGraphCreateExp(ctx, &graph) == UR_RESULT_SUCCESS) {
        f->handles[HOSTILE_HK_EXP_GRAPH] = graph;
        if (urGraphInstantiateGraphExp(graph, &exec) == UR_RESULT_SUCCESS)
            f->handles[HOSTILE_HK_EXP_EXECUTABLE_GRAPH] = exec;
    }
    if (f->handles[HOSTILE_HK_EVENT] != NULL &&
        urIPCGetEventHandleExp(f->handles[HOSTILE_HK_EVENT], &f->ipc_event, &f->ipc_event_bytes) !=
            UR_RESULT_SUCCESS)
        f->ipc_event = NULL;
}

// One granule of physical memory mapped into a reservation of its own, and a second
// reservation left unmapped (what urVirtualMemMap starts from).
static void make_virtual_memory(hostile_fixture_t *f) {
    ur_context_handle_t ctx = f->handles[HOSTILE_HK_CONTEXT];
    ur_device_handle_t dev = f->handles[HOSTILE_HK_DEVICE];
    size_t g = 0;
    if (urVirtualMemGranularityGetInfo(ctx, dev, 1, UR_VIRTUAL_MEM_GRANULARITY_INFO_MINIMUM,
                                       sizeof g, &g, NULL) != UR_RESULT_SUCCESS ||
        g == 0)
        return;
    f->granule = g;
    ur_physical_mem_handle_t phys = NULL;
    if (urPhysicalMemCreate(ctx, dev, g, NULL, &phys) != UR_RESULT_SUCCESS)
        return;
    f->handles[HOSTILE_HK_PHYSICAL_MEM] = phys;
    if (urIPCGetPhysMemHandleExp(ctx, phys, &f->ipc_phys, &f->ipc_phys_bytes) != UR_RESULT_SUCCESS)
        f->ipc_phys = NULL;
    void *va = NULL;
    if (urVirtualMemReserve(ctx, NULL, g, &va) == UR_RESULT_SUCCESS) {
        if (urVirtualMemMap(ctx, va, g, phys, 0, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE) ==
            UR_RESULT_SUCCESS)
            f->va = va;
        else
            urVirtualMemFree(ctx, va, g);
    }
    if (urVirtualMemReserve(ctx, NULL, g, &va) == UR_RESULT_SUCCESS)
        f->va_free = va;
}

// The file descriptor of the exportable memory's export, where the device exports one; else a
// memfd of the same size (what the simulated drivers also take for another API's export).
static int export_fd(hostile_fixture_t *f) {
    int fd = -1;
    if (f->exportable != NULL &&
        urMemoryExportExportMemoryHandleExp(
            f->handles[HOSTILE_HK_CONTEXT], f->handles[HOSTILE_HK_DEVICE],
            UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, f->exportable, &fd) == UR_RESULT_SUCCESS &&
        fd >= 0) {
        f->ext_exported = true;
        return fd;
    }
    fd = memfd_create("urc-hostile-external", MFD_CLOEXEC);
    if (fd >= 0 && ftruncate(fd, USM_BYTES) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

// External memory imported from that descriptor and a semaphore imported from a memfd (a real
// driver refuses the memfd: there the semaphore cases start from a NULL handle). Imports take
// copies: CUDA owns a descriptor it imported, so the fixture's own stay open for the cases.
static void make_external(hostile_fixture_t *f) {
    ur_context_handle_t ctx = f->handles[HOSTILE_HK_CONTEXT];
    ur_device_handle_t dev = f->handles[HOSTILE_HK_DEVICE];
    f->devnull_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    f->ext_fd = export_fd(f);
    // What the descriptor holds, where it tells (a memfd: the simulated drivers' exports); a
    // driver may round an exportable allocation up to its granularity, and an import of up to
    // that much is valid. A real driver's descriptor tells no size: there the driver alone
    // knows whether an import is too large.
    struct stat st;
    f->ext_size_known = f->ext_fd >= 0 && fstat(f->ext_fd, &st) == 0 && S_ISREG(st.st_mode) &&
                        st.st_size >= (off_t)USM_BYTES;
    f->ext_bytes = f->ext_size_known ? (size_t)st.st_size : USM_BYTES;
    f->sem_fd = memfd_create("urc-hostile-semaphore", MFD_CLOEXEC);
    ur_exp_file_descriptor_t file = {UR_STRUCTURE_TYPE_EXP_FILE_DESCRIPTOR, NULL, -1};
    ur_exp_external_mem_desc_t md = {UR_STRUCTURE_TYPE_EXP_EXTERNAL_MEM_DESC, &file};
    ur_exp_external_mem_handle_t ext = NULL;
    if (f->ext_fd >= 0 && (file.fd = dup(f->ext_fd)) >= 0 &&
        urBindlessImagesImportExternalMemoryExp(ctx, dev, f->ext_bytes,
                                                UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, &md,
                                                &ext) == UR_RESULT_SUCCESS)
        f->handles[HOSTILE_HK_EXP_EXTERNAL_MEM] = ext;
    ur_exp_external_semaphore_desc_t sd = {UR_STRUCTURE_TYPE_EXP_EXTERNAL_SEMAPHORE_DESC, &file};
    ur_exp_external_semaphore_handle_t sem = NULL;
    if (f->sem_fd >= 0 && (file.fd = dup(f->sem_fd)) >= 0 &&
        urBindlessImagesImportExternalSemaphoreExp(
            ctx, dev, UR_EXP_EXTERNAL_SEMAPHORE_TYPE_OPAQUE_FD, &sd, &sem) == UR_RESULT_SUCCESS)
        f->handles[HOSTILE_HK_EXP_EXTERNAL_SEMAPHORE] = sem;
    ur_queue_handle_t q = NULL;
    if (sem != NULL && urQueueCreate(ctx, dev, NULL, &q) == UR_RESULT_SUCCESS)
        f->semaphore_queue = q;
}

static void make_bindless_images(hostile_fixture_t *f) {
    ur_context_handle_t ctx = f->handles[HOSTILE_HK_CONTEXT];
    ur_device_handle_t dev = f->handles[HOSTILE_HK_DEVICE];
    ur_exp_image_mem_native_handle_t mem = 0;
    if (urBindlessImagesImageAllocateExp(ctx, dev, &hostile_image_format, &hostile_image_desc,
                                         &mem) != UR_RESULT_SUCCESS)
        return;
    f->image_mem = mem;
    ur_exp_image_native_handle_t h = 0;
    if (urBindlessImagesUnsampledImageCreateExp(ctx, dev, mem, &hostile_image_format,
                                                &hostile_image_desc, &h) == UR_RESULT_SUCCESS)
        f->image = h;
    if (urBindlessImagesSampledImageCreateExp(ctx, dev, mem, &hostile_image_format,
                                              &hostile_image_desc, &hostile_sampler_desc,
                                              &h) == UR_RESULT_SUCCESS)
        f->sampled_image = h;
}

int hostile_fixture_open(hostile_fixture_t *f) {
    memset(f, 0, sizeof *f);
    f->ext_fd = f->sem_fd = f->devnull_fd = -1;
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
    make_command_buffers(f);
    make_other_handles(f);
    make_virtual_memory(f);
    make_bindless_images(f);
    make_external(f);
    urPlatformGetInfo(platform, UR_PLATFORM_INFO_NAME, sizeof f->platform_name, f->platform_name,
                      NULL);
    return 1;
}
