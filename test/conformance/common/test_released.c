// SPDX-License-Identifier: MIT
// Released handles answer instead of crashing (docs/released-handles.md), one suite for every
// adapter: for each kind of handle that can be released, a second release and a use after the
// last release are answered with the kind's error, through the loader (the handle's first word)
// and through a live handle's call (the adapter's own handle checks). The kernel code comes
// from RELEASED_KERNEL_FILE (SPIR-V when RELEASED_KERNEL_IL, else the adapter's binary).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "urc_fixture.h"

#ifndef RELEASED_KERNEL_IL
#define RELEASED_KERNEL_IL true
#endif

static urc_test_handles_t T;

// A case whose kind this adapter or device does not have passes after saying so.
#define NOT_HERE(what)                                                                             \
    do {                                                                                           \
        fprintf(stderr, "%s: no %s here\n", __func__, what);                                       \
        return;                                                                                    \
    } while (0)

static void setup(void) {
    urc_test_handles_open(&T);
}

static void teardown(void) {
    urc_test_handles_close(&T);
}

// The adapter's log through urAdapterSetLoggerCallback: released calls write one line each.
static char logged[4096];

static void log_cb(ur_logger_level_t level, const char *msg, void *data) {
    (void)level;
    (void)data;
    size_t used = strlen(logged);
    if (used + strlen(msg) + 1 < sizeof logged)
        strcat(logged, msg);
}

static void log_start(void) {
    logged[0] = '\0';
    ck_assert_ur_ok(urAdapterSetLoggerCallback(T.adapter, log_cb, NULL, UR_LOGGER_LEVEL_ERROR));
}

static const char *last_error(void) {
    const char *msg = NULL;
    int32_t code = 0;
    urAdapterGetLastError(T.adapter, &msg, &code);
    return msg != NULL ? msg : "";
}

static ur_result_t program_from(const char *path, bool il, ur_program_handle_t *p) {
#ifdef RELEASED_KERNEL_DIR_ENV
    // A machine that rebuilt the device code names its folder here (scripts/gpu-check); the
    // file keeps its name.
    char moved[4096];
    const char *dir = getenv(RELEASED_KERNEL_DIR_ENV);
    const char *name = strrchr(path, '/');
    if (dir != NULL && name != NULL) {
        snprintf(moved, sizeof moved, "%s%s", dir, name);
        path = moved;
    }
#endif
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "device code %s missing", path);
    static unsigned char data[1 << 20];
    size_t size = fread(data, 1, sizeof data - 1, f);
    fclose(f);
    if (il)
        return urProgramCreateWithIL(T.context, data, size, NULL, p);
    const uint8_t *bin = data;
    return urProgramCreateWithBinary(T.context, 1, &T.device, &size, &bin, NULL, p);
}

// RELEASED_KERNEL_FILE; where the device takes no SPIR-V (PoCL), RELEASED_KERNEL_FALLBACK as
// the adapter's binary.
static ur_program_handle_t program(void) {
    ur_program_handle_t p = NULL;
    ur_result_t r = program_from(RELEASED_KERNEL_FILE, RELEASED_KERNEL_IL, &p);
#ifdef RELEASED_KERNEL_FALLBACK
    if (r != UR_RESULT_SUCCESS)
        r = program_from(RELEASED_KERNEL_FALLBACK, false, &p);
#endif
    ck_assert_ur_ok(r);
    return p;
}

static ur_kernel_handle_t kernel_of(ur_program_handle_t p) {
    ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_one", &k));
    return k;
}

START_TEST(context_twice_and_after) {
    ur_context_handle_t c = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &c));
    ck_assert_ur_ok(urContextRetain(c));
    ck_assert_ur_ok(urContextRelease(c));
    ck_assert_ur_ok(urContextRelease(c));
    log_start();
    ck_assert_ur(urContextRelease(c), UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ptr_nonnull(strstr(logged, "urContextRelease"));
    ck_assert_ptr_nonnull(strstr(last_error(), "urContextRelease"));
    ck_assert_ur(urContextRetain(c), UR_RESULT_ERROR_INVALID_CONTEXT);
    uint32_t n = 0;
    ck_assert_ur(urContextGetInfo(c, UR_CONTEXT_INFO_NUM_DEVICES, sizeof n, &n, NULL),
                 UR_RESULT_ERROR_INVALID_CONTEXT);
    // Through a live handle: the adapter's own check refuses it.
    ur_queue_handle_t q = NULL;
    ck_assert_ur(urQueueCreate(c, T.device, NULL, &q), UR_RESULT_ERROR_INVALID_CONTEXT);
}
END_TEST

START_TEST(context_held_by_a_queue_keeps_the_two_counts) {
    ur_context_handle_t c = NULL;
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &c));
    ck_assert_ur_ok(urQueueCreate(c, T.device, NULL, &q));
    ck_assert_ur_ok(urContextRelease(c));
    // Still held by the queue: refused by the count, and usable through the queue.
    ck_assert_ur(urContextRelease(c), UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur_ok(urQueueFinish(q));
    ck_assert_ur_ok(urQueueRelease(q));
    // Now gone: answered by the released table.
    ck_assert_ur(urContextRetain(c), UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur(urQueueRelease(q), UR_RESULT_ERROR_INVALID_QUEUE);
}
END_TEST

START_TEST(queue_twice_and_after) {
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &q));
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur(urQueueRelease(q), UR_RESULT_ERROR_INVALID_QUEUE);
    ck_assert_ur(urQueueFinish(q), UR_RESULT_ERROR_INVALID_QUEUE);
    ck_assert_ur(urEnqueueEventsWait(q, 0, NULL, NULL), UR_RESULT_ERROR_INVALID_QUEUE);
    uint32_t n = 0;
    ck_assert_ur(urQueueGetInfo(q, UR_QUEUE_INFO_REFERENCE_COUNT, sizeof n, &n, NULL),
                 UR_RESULT_ERROR_INVALID_QUEUE);
}
END_TEST

START_TEST(event_twice_and_after) {
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 0, NULL, &e));
    ck_assert_ur_ok(urEventWait(1, &e));
    ck_assert_ur_ok(urEventRelease(e));
    ck_assert_ur(urEventRelease(e), UR_RESULT_ERROR_INVALID_EVENT);
    // A queue may hold its latest event (Level Zero) until the next command is done.
    ur_event_handle_t next = NULL;
    ck_assert_ur_ok(urEnqueueEventsWait(T.queue, 0, NULL, &next));
    ck_assert_ur_ok(urEventWait(1, &next));
    ck_assert_ur_ok(urEventRelease(next));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur(urEventRelease(e), UR_RESULT_ERROR_INVALID_EVENT);
    ck_assert_ur(urEventWait(1, &e), UR_RESULT_ERROR_INVALID_EVENT);
    ur_event_status_t s;
    ck_assert_ur(urEventGetInfo(e, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT);
    // In a live queue's wait list.
    ck_assert_ur(urEnqueueEventsWait(T.queue, 1, &e, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
}
END_TEST

START_TEST(mem_twice_and_after) {
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 64, NULL, &m));
    ck_assert_ur_ok(urMemRelease(m));
    ck_assert_ur(urMemRelease(m), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urMemRetain(m), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    size_t size = 0;
    ck_assert_ur(urMemGetInfo(m, UR_MEM_INFO_SIZE, sizeof size, &size, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    char out[64];
    ck_assert_ur(urEnqueueMemBufferRead(T.queue, m, true, 0, sizeof out, out, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
}
END_TEST

START_TEST(sub_buffer_keeps_its_parent) {
    ur_mem_handle_t m = NULL, sub = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 4096, NULL, &m));
    ur_buffer_region_t region = {UR_STRUCTURE_TYPE_BUFFER_REGION, NULL, 0, 1024};
    ck_assert_ur_ok(urMemBufferPartition(m, UR_MEM_FLAG_READ_WRITE, UR_BUFFER_CREATE_TYPE_REGION,
                                         &region, &sub));
    ck_assert_ur_ok(urMemRelease(m));
    ck_assert_ur(urMemRelease(m), UR_RESULT_ERROR_INVALID_MEM_OBJECT); // held: the count refuses
    ck_assert_ur_ok(urMemRelease(sub));
    ck_assert_ur(urMemRelease(sub), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urMemRetain(m), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
}
END_TEST

START_TEST(image_twice_and_after) {
    ur_image_format_t format = {UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8};
    ur_image_desc_t desc = {
        UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, UR_MEM_TYPE_IMAGE2D, 8, 8, 1, 1, 0, 0, 0, 0};
    ur_mem_handle_t m = NULL;
    ur_result_t r = urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &format, &desc, NULL, &m);
    if (r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE)
        NOT_HERE("images");
    ck_assert_ur_ok(r);
    ck_assert_ur_ok(urMemRelease(m));
    ck_assert_ur(urMemRelease(m), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urMemRetain(m), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    size_t width = 0;
    ck_assert_ur(urMemImageGetInfo(m, UR_IMAGE_INFO_WIDTH, sizeof width, &width, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    // Through a live queue: the adapter's own check refuses it.
    unsigned char out[8 * 8 * 4];
    ur_rect_offset_t origin = {0, 0, 0};
    ur_rect_region_t region = {8, 8, 1};
    ck_assert_ur(urEnqueueMemImageRead(T.queue, m, true, origin, region, 0, 0, out, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
}
END_TEST

START_TEST(sampler_twice_and_after) {
    ur_sampler_desc_t desc = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, false,
                              UR_SAMPLER_ADDRESSING_MODE_CLAMP, UR_SAMPLER_FILTER_MODE_NEAREST};
    ur_sampler_handle_t s = NULL;
    ur_result_t r = urSamplerCreate(T.context, &desc, &s);
    if (r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE)
        NOT_HERE("samplers");
    ck_assert_ur_ok(r);
    ck_assert_ur_ok(urSamplerRelease(s));
    ck_assert_ur(urSamplerRelease(s), UR_RESULT_ERROR_INVALID_SAMPLER);
    ck_assert_ur(urSamplerRetain(s), UR_RESULT_ERROR_INVALID_SAMPLER);
    uint32_t n = 0;
    ck_assert_ur(urSamplerGetInfo(s, UR_SAMPLER_INFO_REFERENCE_COUNT, sizeof n, &n, NULL),
                 UR_RESULT_ERROR_INVALID_SAMPLER);
}
END_TEST

START_TEST(program_twice_and_after) {
    ur_program_handle_t p = program();
    ck_assert_ur_ok(urProgramRelease(p));
    ck_assert_ur(urProgramRelease(p), UR_RESULT_ERROR_INVALID_PROGRAM);
    ck_assert_ur(urProgramRetain(p), UR_RESULT_ERROR_INVALID_PROGRAM);
    // Routed by the context, a live handle: the adapter's check refuses the program.
    ck_assert_ur(urProgramBuild(T.context, p, NULL), UR_RESULT_ERROR_INVALID_PROGRAM);
}
END_TEST

START_TEST(kernel_twice_and_after_and_its_program) {
    ur_program_handle_t p = program();
    ur_kernel_handle_t k = kernel_of(p);
    ck_assert_ur_ok(urProgramRelease(p));
    ck_assert_ur(urProgramRelease(p), UR_RESULT_ERROR_INVALID_PROGRAM); // held by the kernel
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur(urKernelRelease(k), UR_RESULT_ERROR_INVALID_KERNEL);
    uint32_t n = 0;
    ck_assert_ur(urKernelGetInfo(k, UR_KERNEL_INFO_NUM_ARGS, sizeof n, &n, NULL),
                 UR_RESULT_ERROR_INVALID_KERNEL);
    size_t global = 1;
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL,
                                                  0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_KERNEL);
    // The kernel held the program; now both are gone.
    ck_assert_ur(urProgramRetain(p), UR_RESULT_ERROR_INVALID_PROGRAM);
}
END_TEST

START_TEST(usm_pool_twice_and_after) {
    ur_usm_pool_desc_t desc = {UR_STRUCTURE_TYPE_USM_POOL_DESC, NULL, 0};
    ur_usm_pool_handle_t pool = NULL;
    ur_result_t r = urUSMPoolCreate(T.context, &desc, &pool);
    if (r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE)
        NOT_HERE("USM pools");
    ck_assert_ur_ok(r);
    ck_assert_ur_ok(urUSMPoolRelease(pool));
    ck_assert_ur(urUSMPoolRelease(pool), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urUSMPoolRetain(pool), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    void *ptr = NULL;
    ck_assert_ur(urUSMDeviceAlloc(T.context, T.device, NULL, pool, 64, &ptr),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
}
END_TEST

START_TEST(usm_pool_exp_destroyed_twice) {
    ur_usm_pool_desc_t desc = {UR_STRUCTURE_TYPE_USM_POOL_DESC, NULL, 0};
    ur_usm_pool_handle_t pool = NULL;
    ur_result_t r = urUSMPoolCreateExp(T.context, T.device, &desc, &pool);
    if (r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE)
        NOT_HERE("device USM pools");
    ck_assert_ur_ok(r);
    ck_assert_ur_ok(urUSMPoolDestroyExp(T.context, T.device, pool));
    // Routed by the live context: the adapter's pool check answers.
    ck_assert_ur(urUSMPoolDestroyExp(T.context, T.device, pool),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urUSMPoolRelease(pool), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    void *ptr = NULL;
    ck_assert_ur(urUSMDeviceAlloc(T.context, T.device, NULL, pool, 64, &ptr),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
}
END_TEST

// A memfd of `bytes` bytes, what the simulated drivers import as another API's export (a real
// CUDA driver refuses it, and the cases that need it say so).
static int plain_fd(size_t bytes) {
    int fd = memfd_create("urc_released_import", MFD_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, (off_t)bytes), 0);
    return fd;
}

START_TEST(external_memory_twice_and_after) {
    enum { BYTES = 65536 };
    int fd = plain_fd(BYTES);
    ur_exp_file_descriptor_t file = {UR_STRUCTURE_TYPE_EXP_FILE_DESCRIPTOR, NULL, fd};
    ur_exp_external_mem_desc_t desc = {UR_STRUCTURE_TYPE_EXP_EXTERNAL_MEM_DESC, &file};
    ur_exp_external_mem_handle_t ext = NULL;
    ur_result_t r = urBindlessImagesImportExternalMemoryExp(
        T.context, T.device, BYTES, UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, &desc, &ext);
    if (r != UR_RESULT_SUCCESS) {
        close(fd);
        NOT_HERE("imports of a plain file as external memory");
    }
    ck_assert_ur_ok(urBindlessImagesReleaseExternalMemoryExp(T.context, T.device, ext));
    ck_assert_ur(urBindlessImagesReleaseExternalMemoryExp(T.context, T.device, ext),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    void *ptr = NULL;
    ck_assert_ur(
        urBindlessImagesMapExternalLinearMemoryExp(T.context, T.device, 0, BYTES, ext, &ptr),
        UR_RESULT_ERROR_INVALID_NULL_HANDLE);
}
END_TEST

START_TEST(external_semaphore_twice_and_after) {
    int fd = plain_fd(64);
    ur_exp_file_descriptor_t file = {UR_STRUCTURE_TYPE_EXP_FILE_DESCRIPTOR, NULL, fd};
    ur_exp_external_semaphore_desc_t desc = {UR_STRUCTURE_TYPE_EXP_EXTERNAL_SEMAPHORE_DESC, &file};
    ur_exp_external_semaphore_handle_t sem = NULL;
    ur_result_t r = urBindlessImagesImportExternalSemaphoreExp(
        T.context, T.device, UR_EXP_EXTERNAL_SEMAPHORE_TYPE_OPAQUE_FD, &desc, &sem);
    if (r != UR_RESULT_SUCCESS) {
        close(fd);
        NOT_HERE("imports of a plain file as an external semaphore");
    }
    ck_assert_ur_ok(urBindlessImagesReleaseExternalSemaphoreExp(T.context, T.device, sem));
    ck_assert_ur(urBindlessImagesReleaseExternalSemaphoreExp(T.context, T.device, sem),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urBindlessImagesSignalExternalSemaphoreExp(T.queue, sem, false, 0, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
}
END_TEST

// Bindless image memory and image handles are values, not urc objects: each adapter's
// registry of them refuses a second free and any use after the free.
START_TEST(bindless_image_memory_and_handles_twice) {
    ur_image_format_t format = {UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8};
    ur_image_desc_t desc = {
        UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, UR_MEM_TYPE_IMAGE2D, 16, 16, 0, 0, 0, 0, 1, 0};
    ur_sampler_desc_t sdesc = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, false,
                               UR_SAMPLER_ADDRESSING_MODE_CLAMP, UR_SAMPLER_FILTER_MODE_NEAREST};
    ur_exp_image_mem_native_handle_t mem = 0;
    ur_result_t r = urBindlessImagesImageAllocateExp(T.context, T.device, &format, &desc, &mem);
    if (r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE)
        NOT_HERE("bindless images");
    ck_assert_ur_ok(r);
    ur_exp_image_native_handle_t image = 0, sampled = 0;
    ck_assert_ur_ok(
        urBindlessImagesUnsampledImageCreateExp(T.context, T.device, mem, &format, &desc, &image));
    ck_assert_ur_ok(urBindlessImagesSampledImageCreateExp(T.context, T.device, mem, &format, &desc,
                                                          &sdesc, &sampled));
    ck_assert_ur_ok(urBindlessImagesUnsampledImageHandleDestroyExp(T.context, T.device, image));
    ck_assert_int_ne(urBindlessImagesUnsampledImageHandleDestroyExp(T.context, T.device, image),
                     UR_RESULT_SUCCESS);
    ck_assert_ur_ok(urBindlessImagesSampledImageHandleDestroyExp(T.context, T.device, sampled));
    ck_assert_int_ne(urBindlessImagesSampledImageHandleDestroyExp(T.context, T.device, sampled),
                     UR_RESULT_SUCCESS);
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, mem));
    ck_assert_int_ne(urBindlessImagesImageFreeExp(T.context, T.device, mem), UR_RESULT_SUCCESS);
    size_t width = 0;
    ck_assert_int_ne(
        urBindlessImagesImageGetInfoExp(T.context, mem, UR_IMAGE_INFO_WIDTH, &width, NULL),
        UR_RESULT_SUCCESS);
}
END_TEST

START_TEST(command_buffer_and_command_after_release) {
    if (!urc_test_device_says(T.device, UR_DEVICE_INFO_COMMAND_BUFFER_SUPPORT_EXP))
        NOT_HERE("command buffers");
    // Command handles come from updatable buffers only.
    ur_device_command_buffer_update_capability_flags_t update = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_COMMAND_BUFFER_UPDATE_CAPABILITIES_EXP,
                                    sizeof update, &update, NULL));
    ur_exp_command_buffer_desc_t desc = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL,
                                         update != 0, false, false};
    ur_exp_command_buffer_handle_t cb = NULL;
    ck_assert_ur_ok(urCommandBufferCreateExp(T.context, T.device, &desc, &cb));
    ur_program_handle_t p = program();
    ur_kernel_handle_t k = kernel_of(p);
    // Device USM where the device has it, else a buffer (Debian's PoCL has no USM).
    void *mem = NULL;
    ur_mem_handle_t buffer = NULL;
    ur_result_t alloc = urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 256, &mem);
    if (alloc == UR_RESULT_ERROR_UNSUPPORTED_FEATURE)
        ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 256, NULL, &buffer));
    else
        ck_assert_ur_ok(alloc);
    // add_one's first argument is the buffer (the CUDA kernel's too; its other two are unused
    // by the append).
    ur_exp_kernel_arg_properties_t args[3] = {
        {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
         NULL,
         UR_EXP_KERNEL_ARG_TYPE_POINTER,
         0,
         sizeof mem,
         {.pointer = mem}},
        {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
         NULL,
         UR_EXP_KERNEL_ARG_TYPE_POINTER,
         1,
         sizeof mem,
         {.pointer = mem}},
    };
    static const int zero = 0;
    args[2] = (ur_exp_kernel_arg_properties_t){UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                               NULL,
                                               UR_EXP_KERNEL_ARG_TYPE_VALUE,
                                               2,
                                               sizeof zero,
                                               {.value = &zero}};
    for (int i = 0; i < 2 && buffer != NULL; ++i) {
        args[i].type = UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ;
        args[i].size = sizeof buffer;
        args[i].value.memObjTuple = (ur_exp_kernel_arg_mem_obj_tuple_t){buffer, 0};
    }
    uint32_t nargs = 0;
    ck_assert_ur_ok(urKernelGetInfo(k, UR_KERNEL_INFO_NUM_ARGS, sizeof nargs, &nargs, NULL));
    ck_assert_uint_le(nargs, 3);
    size_t global = 4;
    ur_exp_command_buffer_command_handle_t cmd = NULL;
    ck_assert_ur_ok(urCommandBufferAppendKernelLaunchWithArgsExp(
        cb, k, 1, NULL, &global, NULL, nargs, args, 0, NULL, 0, NULL, 0, NULL, NULL, NULL,
        update != 0 ? &cmd : NULL));
    ck_assert_ur_ok(urCommandBufferFinalizeExp(cb));
    ck_assert_ur_ok(urCommandBufferRetainExp(cb));
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    ck_assert_ur_ok(urCommandBufferReleaseExp(cb));
    // Gone: the released table answers with the kind's error, as for a context or a queue.
    log_start();
    ck_assert_ur(urCommandBufferReleaseExp(cb), UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP);
    ck_assert_ptr_nonnull(strstr(logged, "urCommandBufferReleaseExp"));
    ck_assert_ptr_nonnull(strstr(last_error(), "urCommandBufferReleaseExp"));
    ck_assert_ur(urCommandBufferRetainExp(cb), UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP);
    ck_assert_ur(urCommandBufferFinalizeExp(cb), UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP);
    uint32_t refs = 0;
    ck_assert_ur(urCommandBufferGetInfoExp(cb, UR_EXP_COMMAND_BUFFER_INFO_REFERENCE_COUNT,
                                           sizeof refs, &refs, NULL),
                 UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP);
    // Routed by a live queue: the adapter's own command-buffer check answers.
    ck_assert_ur(urEnqueueCommandBufferExp(T.queue, cb, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP);
    // Its commands went with it.
    if (cmd != NULL)
        ck_assert_ur(urCommandBufferUpdateWaitEventsExp(cmd, 0, NULL),
                     UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    else
        fprintf(stderr, "%s: no command handles here (no updatable command buffers)\n", __func__);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
    if (buffer != NULL)
        ck_assert_ur_ok(urMemRelease(buffer));
    else
        ck_assert_ur_ok(urUSMFree(T.context, mem));
}
END_TEST

START_TEST(physical_mem_twice_and_after) {
    if (!urc_test_device_says(T.device, UR_DEVICE_INFO_VIRTUAL_MEMORY_SUPPORT))
        NOT_HERE("physical memory");
    size_t g = 0;
    ck_assert_ur_ok(urVirtualMemGranularityGetInfo(
        T.context, T.device, 1, UR_VIRTUAL_MEM_GRANULARITY_INFO_MINIMUM, sizeof g, &g, NULL));
    ur_physical_mem_handle_t m = NULL;
    ck_assert_ur_ok(urPhysicalMemCreate(T.context, T.device, g, NULL, &m));
    ck_assert_ur_ok(urPhysicalMemRelease(m));
    ck_assert_ur(urPhysicalMemRelease(m), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urPhysicalMemRetain(m), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    void *va = NULL;
    ck_assert_ur_ok(urVirtualMemReserve(T.context, NULL, g, &va));
    ck_assert_ur(urVirtualMemMap(T.context, va, g, m, 0, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur_ok(urVirtualMemFree(T.context, va, g));
}
END_TEST

START_TEST(graph_and_executable_graph_after_destroy) {
    ur_exp_graph_handle_t g = NULL;
    ur_result_t r = urGraphCreateExp(T.context, &g);
    if (r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE)
        NOT_HERE("graphs");
    ck_assert_ur_ok(r);
    ur_exp_executable_graph_handle_t x = NULL;
    ck_assert_ur_ok(urGraphInstantiateGraphExp(g, &x));
    ck_assert_ur_ok(urGraphExecutableGraphDestroyExp(x));
    ck_assert_ur(urGraphExecutableGraphDestroyExp(x), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur_ok(urGraphDestroyExp(g));
    ck_assert_ur(urGraphDestroyExp(g), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    bool empty = false;
    ck_assert_ur(urGraphIsEmptyExp(g, &empty), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
}
END_TEST

START_TEST(sub_device_twice_and_after) {
    ur_device_partition_property_t prop = {UR_DEVICE_PARTITION_EQUALLY, {.equally = 1}};
    ur_device_partition_properties_t props = {UR_STRUCTURE_TYPE_DEVICE_PARTITION_PROPERTIES, NULL,
                                              &prop, 1};
    ur_device_handle_t sub = NULL;
    uint32_t n = 0;
    if (urDevicePartition(T.device, &props, 1, &sub, &n) != UR_RESULT_SUCCESS || sub == NULL)
        NOT_HERE("sub-devices");
    ck_assert_ur_ok(urDeviceRelease(sub));
    ck_assert_ur(urDeviceRelease(sub), UR_RESULT_ERROR_INVALID_DEVICE);
    ur_device_type_t type;
    ck_assert_ur(urDeviceGetInfo(sub, UR_DEVICE_INFO_TYPE, sizeof type, &type, NULL),
                 UR_RESULT_ERROR_INVALID_DEVICE);
    ur_context_handle_t c = NULL;
    ck_assert_ur(urContextCreate(1, &sub, NULL, &c), UR_RESULT_ERROR_INVALID_DEVICE);
}
END_TEST

START_TEST(many_released_handles_each_answer) {
    // The whole window of a kind (4096 objects of under 1 KiB): every one still answers.
    enum { N = 4096 };
    static ur_mem_handle_t m[N];
    for (int i = 0; i < N; ++i)
        ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 16, NULL, &m[i]));
    for (int i = 0; i < N; ++i)
        ck_assert_ur_ok(urMemRelease(m[i]));
    for (int i = 0; i < N; ++i)
        ck_assert_ur(urMemRelease(m[i]), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
}
END_TEST

// Without the fixture: the adapter (a static object, refused by its count) and the loader's
// own configs (parked by the loader).
START_TEST(adapter_and_loader_config) {
    ur_loader_config_handle_t cfg = NULL;
    ck_assert_ur_ok(urLoaderConfigCreate(&cfg));
    ck_assert_ur_ok(urLoaderConfigRelease(cfg));
    ck_assert_ur(urLoaderConfigRelease(cfg), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urLoaderConfigRetain(cfg), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur_ok(urLoaderInit(0, NULL));
    ur_adapter_handle_t a = NULL;
    ck_assert_ur_ok(urAdapterGet(1, &a, NULL));
    ck_assert_ur_ok(urAdapterRelease(a));
    ck_assert_ur(urAdapterRelease(a), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur_ok(urLoaderTearDown());
}
END_TEST

int main(void) {
    Suite *s = suite_create("released");
    TCase *tc = urc_test_tcase("released", setup, teardown);
    tcase_add_test(tc, context_twice_and_after);
    tcase_add_test(tc, context_held_by_a_queue_keeps_the_two_counts);
    tcase_add_test(tc, queue_twice_and_after);
    tcase_add_test(tc, event_twice_and_after);
    tcase_add_test(tc, mem_twice_and_after);
    tcase_add_test(tc, sub_buffer_keeps_its_parent);
    tcase_add_test(tc, image_twice_and_after);
    tcase_add_test(tc, sampler_twice_and_after);
    tcase_add_test(tc, program_twice_and_after);
    tcase_add_test(tc, kernel_twice_and_after_and_its_program);
    tcase_add_test(tc, usm_pool_twice_and_after);
    tcase_add_test(tc, usm_pool_exp_destroyed_twice);
    tcase_add_test(tc, external_memory_twice_and_after);
    tcase_add_test(tc, external_semaphore_twice_and_after);
    tcase_add_test(tc, bindless_image_memory_and_handles_twice);
    tcase_add_test(tc, command_buffer_and_command_after_release);
    tcase_add_test(tc, physical_mem_twice_and_after);
    tcase_add_test(tc, graph_and_executable_graph_after_destroy);
    tcase_add_test(tc, sub_device_twice_and_after);
    tcase_add_test(tc, many_released_handles_each_answer);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("unfixtured", NULL, NULL);
    tcase_add_test(tc, adapter_and_loader_config);
    suite_add_tcase(s, tc);
    return urc_test_main_with_platform(s, "no platform for this adapter");
}
