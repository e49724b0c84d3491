// SPDX-License-Identifier: MIT
// IPC memory handles, one suite for every adapter: handle data and their bad input (a wrong
// size, garbage bytes, one damaged byte, a second put, closing what was never opened, host and
// pooled memory), a handle opened in its own process (simulated drivers), two processes (fork
// and a pipe for the handle) where one writes device memory and the other reads the same
// bytes, and a handle whose process is gone. The simulated CUDA driver's memory is private to
// a process, so its two-process tests run on a real GPU only; the simulated Level Zero driver
// shares memory between processes (memfd). Adapters whose device says
// IPC_MEMORY_SUPPORT_EXP false must answer UNSUPPORTED_FEATURE. Handle data of one kind
// (memory, physical memory, event) are refused by every other kind's Open and Put.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "urc_child.h"
#include "urc_fixture.h"

static urc_test_handles_t T;

static void setup(void) {
    urc_test_handles_open(&T);
}

static void teardown(void) {
    urc_test_handles_close(&T);
}

// Whether two processes can share memory here: not on the simulated CUDA driver.
static bool processes_share(void) {
    ur_backend_t backend = UR_BACKEND_UNKNOWN;
    ck_assert_ur_ok(
        urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_BACKEND, sizeof backend, &backend, NULL));
    return !(backend == UR_BACKEND_CUDA && urc_test_device_simulated(T.device));
}

static bool ipc_supported(void) {
    return urc_test_device_says(T.device, UR_DEVICE_INFO_IPC_MEMORY_SUPPORT_EXP);
}

#define WORDS 1024u

static void pattern(uint32_t *w) {
    for (uint32_t i = 0; i < WORDS; ++i)
        w[i] = 0xAB000000u + i;
}

START_TEST(handles_and_errors) {
    void *data = NULL;
    size_t size = 0;
    if (!ipc_supported()) {
        ck_assert_ur(urIPCGetMemHandleExp(T.context, &size, &data, &size),
                     UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        return;
    }
    void *p = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 8192, &p));
    uint32_t words[WORDS];
    pattern(words);
    ck_assert_ur_ok(
        urEnqueueUSMMemcpy(T.queue, true, (char *)p + 64, words, sizeof words, 0, NULL, NULL));
    ck_assert_ur_ok(urIPCGetMemHandleExp(T.context, (char *)p + 64, &data, &size));
    ck_assert_ptr_nonnull(data);
    ck_assert_uint_gt(size, 0);
    void *opened = NULL;
    ck_assert_ur(urIPCOpenMemHandleExp(T.context, T.device, data, size - 1, &opened),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Garbage of the right size, and the handle with one byte changed, are refused.
    unsigned char *bad = malloc(size);
    for (size_t i = 0; i < size; ++i)
        bad[i] = (unsigned char)(i * 37u + 11u);
    ck_assert_ur(urIPCOpenMemHandleExp(T.context, T.device, bad, size, &opened),
                 UR_RESULT_ERROR_INVALID_VALUE);
    memcpy(bad, data, size);
    bad[size - 1] ^= 0x40;
    ck_assert_ur(urIPCOpenMemHandleExp(T.context, T.device, bad, size, &opened),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Bytes that are not data this process got back are not put.
    ck_assert_ur(urIPCPutMemHandleExp(T.context, bad), UR_RESULT_ERROR_INVALID_VALUE);
    free(bad);
    if (urc_test_device_simulated(T.device)) {
        // The simulators open a handle in its own process too: the same bytes are there.
        ck_assert_ur_ok(urIPCOpenMemHandleExp(T.context, T.device, data, size, &opened));
        uint32_t got[WORDS];
        ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, got, opened, sizeof got, 0, NULL, NULL));
        ck_assert_mem_eq(got, words, sizeof got);
        ck_assert_ur_ok(urIPCCloseMemHandleExp(T.context, opened));
    }
    ck_assert_ur_ok(urIPCPutMemHandleExp(T.context, data));
    ck_assert_ur(urIPCPutMemHandleExp(T.context, data), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urIPCCloseMemHandleExp(T.context, p), UR_RESULT_ERROR_INVALID_VALUE);
    // Host memory and pooled chunks cannot be shared this way.
    void *host = NULL;
    ck_assert_ur_ok(urUSMHostAlloc(T.context, NULL, NULL, 64, &host));
    ck_assert_ur(urIPCGetMemHandleExp(T.context, host, &data, &size),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urIPCCloseMemHandleExp(T.context, host), UR_RESULT_ERROR_INVALID_VALUE);
    ur_usm_pool_desc_t desc = {UR_STRUCTURE_TYPE_USM_POOL_DESC, NULL, 0};
    ur_usm_pool_handle_t pool = NULL;
    ck_assert_ur_ok(urUSMPoolCreate(T.context, &desc, &pool));
    void *chunk = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, pool, 64, &chunk));
    ck_assert_ur(urIPCGetMemHandleExp(T.context, chunk, &data, &size),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urUSMPoolRelease(pool));
    ck_assert_ur_ok(urUSMFree(T.context, host));
    ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

// FNV-1a, the checksum of urc's handle data (a header of 32 bytes whose last 8 are the
// checksum, computed with that field zero, then the payload).
static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; ++i)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

// Handle data whose offset (the last 8 bytes of a memory handle's payload, in CUDA's and Level
// Zero's layout) is forged past the allocation, with a valid checksum: the open refuses it
// instead of handing out a pointer a TiB away (the CUDA adapter added the offset unchecked).
START_TEST(forged_offset_refused) {
    if (!ipc_supported() || !urc_test_device_simulated(T.device))
        return; // real drivers refuse opens in the exporting process before the offset matters
    void *p = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 4096, &p));
    void *data = NULL;
    size_t size = 0;
    ck_assert_ur_ok(urIPCGetMemHandleExp(T.context, p, &data, &size));
    ck_assert_uint_gt(size, 40);
    unsigned char *forged = malloc(size);
    memcpy(forged, data, size);
    const uint64_t offsets[] = {4096, UINT64_C(1) << 40, UINT64_MAX};
    for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; ++i) {
        memcpy(forged + size - 8, &offsets[i], 8);
        memset(forged + 24, 0, 8);
        uint64_t h = fnv1a(UINT64_C(0xcbf29ce484222325), forged, size);
        memcpy(forged + 24, &h, 8);
        void *opened = NULL;
        ck_assert_ur(urIPCOpenMemHandleExp(T.context, T.device, forged, size, &opened),
                     UR_RESULT_ERROR_INVALID_VALUE);
    }
    // The same forging with the true offset opens: the test changed only the offset.
    uint64_t zero = 0;
    memcpy(forged + size - 8, &zero, 8);
    memset(forged + 24, 0, 8);
    uint64_t h = fnv1a(UINT64_C(0xcbf29ce484222325), forged, size);
    memcpy(forged + 24, &h, 8);
    void *opened = NULL;
    ck_assert_ur_ok(urIPCOpenMemHandleExp(T.context, T.device, forged, size, &opened));
    ck_assert_ur_ok(urIPCCloseMemHandleExp(T.context, opened));
    free(forged);
    ck_assert_ur_ok(urIPCPutMemHandleExp(T.context, data));
    ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

// Physical memory: where the device says its handles cannot be shared, the entry points
// answer UNSUPPORTED_FEATURE, and Level Zero refuses to make IPC-enabled physical memory.
START_TEST(physical_memory_handles) {
    ur_bool_t vm = false, ipc = true;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_VIRTUAL_MEMORY_SUPPORT, sizeof vm, &vm, NULL));
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_IPC_PHYSICAL_MEMORY_SUPPORT_EXP,
                                    sizeof ipc, &ipc, NULL));
    if (!vm || ipc)
        return; // nothing to create, or another suite's business
    size_t g = 0;
    ck_assert_ur_ok(urVirtualMemGranularityGetInfo(
        T.context, T.device, 1, UR_VIRTUAL_MEM_GRANULARITY_INFO_MINIMUM, sizeof g, &g, NULL));
    ur_physical_mem_handle_t m = NULL;
    ck_assert_ur_ok(urPhysicalMemCreate(T.context, T.device, g, NULL, &m));
    void *data = NULL;
    size_t size = 0;
    ck_assert_ur(urIPCGetPhysMemHandleExp(T.context, m, &data, &size),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur_ok(urPhysicalMemRelease(m));
    ur_backend_t backend = UR_BACKEND_UNKNOWN;
    ck_assert_ur_ok(
        urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_BACKEND, sizeof backend, &backend, NULL));
    if (backend == UR_BACKEND_LEVEL_ZERO) {
        ur_physical_mem_properties_t props = {UR_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES, NULL,
                                              UR_PHYSICAL_MEM_FLAG_ENABLE_IPC};
        ck_assert_ur(urPhysicalMemCreate(T.context, T.device, g, &props, &m),
                     UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    }
}
END_TEST

// Handle data of one kind where another kind belongs (memory, physical memory and event
// handles, those this device makes): every Open and Put of the other kinds answers
// INVALID_VALUE, whether the size is the data's own or the other kind's, and a refused put
// leaves the data to their own put.
enum { KIND_MEMORY, KIND_PHYSICAL, KIND_EVENT, KINDS };

static ur_result_t open_as(int kind, const void *data, size_t size) {
    void *p = NULL;
    ur_physical_mem_handle_t m = NULL;
    ur_event_handle_t e = NULL;
    switch (kind) {
    case KIND_MEMORY:
        return urIPCOpenMemHandleExp(T.context, T.device, (void *)data, size, &p);
    case KIND_PHYSICAL:
        return urIPCOpenPhysMemHandleExp(T.context, T.device, data, size, &m);
    default:
        return urIPCOpenEventHandleExp(T.context, data, size, &e);
    }
}

static ur_result_t put_as(int kind, void *data) {
    switch (kind) {
    case KIND_MEMORY:
        return urIPCPutMemHandleExp(T.context, data);
    case KIND_PHYSICAL:
        return urIPCPutPhysMemHandleExp(T.context, data);
    default:
        return urIPCPutEventHandleExp(T.context, data);
    }
}

START_TEST(handle_kinds_do_not_mix) {
    void *data[KINDS] = {NULL};
    size_t size[KINDS] = {0};
    int kinds = 0;
    void *p = NULL;
    if (ipc_supported()) {
        ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 4096, &p));
        ck_assert_ur_ok(urIPCGetMemHandleExp(T.context, p, &data[KIND_MEMORY], &size[KIND_MEMORY]));
        ++kinds;
    }
    ur_bool_t phys = false, events = false;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_IPC_PHYSICAL_MEMORY_SUPPORT_EXP,
                                    sizeof phys, &phys, NULL));
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_IPC_EVENT_SUPPORT_EXP, sizeof events,
                                    &events, NULL));
    ur_physical_mem_handle_t m = NULL;
    if (phys) {
        size_t g = 0;
        ck_assert_ur_ok(urVirtualMemGranularityGetInfo(
            T.context, T.device, 0, UR_VIRTUAL_MEM_GRANULARITY_INFO_MINIMUM, sizeof g, &g, NULL));
        ur_physical_mem_properties_t props = {UR_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES, NULL,
                                              UR_PHYSICAL_MEM_FLAG_ENABLE_IPC};
        ck_assert_ur_ok(urPhysicalMemCreate(T.context, T.device, g, &props, &m));
        ck_assert_ur_ok(
            urIPCGetPhysMemHandleExp(T.context, m, &data[KIND_PHYSICAL], &size[KIND_PHYSICAL]));
        ++kinds;
    }
    ur_event_handle_t e = NULL;
    if (events) {
        ur_exp_event_desc_t desc = {UR_STRUCTURE_TYPE_EXP_EVENT_DESC, NULL,
                                    UR_EXP_EVENT_FLAG_IPC_EXP};
        ck_assert_ur_ok(urEventCreateExp(T.context, T.device, &desc, &e));
        const ur_exp_enqueue_ext_properties_t signal = {
            UR_STRUCTURE_TYPE_EXP_ENQUEUE_EXT_PROPERTIES, NULL, 0};
        ur_event_handle_t h = e;
        ck_assert_ur_ok(urEnqueueEventsWaitWithBarrierExt(T.queue, &signal, 0, NULL, &h));
        ck_assert_ur_ok(urQueueFinish(T.queue));
        ck_assert_ur_ok(urIPCGetEventHandleExp(e, &data[KIND_EVENT], &size[KIND_EVENT]));
        ++kinds;
    }
    unsigned char copy[512];
    for (int k = 0; k < KINDS && kinds >= 2; ++k)
        for (int other = 0; other < KINDS; ++other) {
            if (data[k] == NULL || data[other] == NULL || other == k)
                continue;
            ck_assert_ur(open_as(other, data[k], size[k]), UR_RESULT_ERROR_INVALID_VALUE);
            // The other kind's size, so that only what the bytes say can tell them apart.
            ck_assert_uint_le(size[other], sizeof copy);
            memset(copy, 0, sizeof copy);
            memcpy(copy, data[k], size[k] < size[other] ? size[k] : size[other]);
            ck_assert_ur(open_as(other, copy, size[other]), UR_RESULT_ERROR_INVALID_VALUE);
            ck_assert_ur(put_as(other, data[k]), UR_RESULT_ERROR_INVALID_VALUE);
        }
    for (int k = 0; k < KINDS; ++k)
        if (data[k] != NULL)
            ck_assert_ur_ok(put_as(k, data[k]));
    if (e != NULL)
        ck_assert_ur_ok(urEventRelease(e));
    if (m != NULL)
        ck_assert_ur_ok(urPhysicalMemRelease(m));
    if (p != NULL)
        ck_assert_ur_ok(urUSMFree(T.context, p));
}
END_TEST

// The child: reads the handle from `in`, opens it, copies the bytes out and answers whether
// they are the pattern (1), not (0), or that it could not run (2); then writes a new pattern
// (each word + 1) through the opened pointer for the parent to read (answer 1 only).
static int child_reads(int in, int out) {
    unsigned char handle[512];
    ssize_t n = read(in, handle, sizeof handle);
    unsigned char answer = 2;
    if (n > 0) {
        setup();
        void *p = NULL;
        if (urIPCOpenMemHandleExp(T.context, T.device, handle, (size_t)n, &p) ==
            UR_RESULT_SUCCESS) {
            uint32_t got[WORDS], want[WORDS];
            pattern(want);
            answer = urEnqueueUSMMemcpy(T.queue, true, got, p, sizeof got, 0, NULL, NULL) ==
                             UR_RESULT_SUCCESS
                         ? 1
                         : 2;
            if (answer == 1 && memcmp(got, want, sizeof got) != 0)
                answer = 0;
            for (uint32_t i = 0; i < WORDS; ++i)
                got[i] = want[i] + 1;
            if (answer == 1 && urEnqueueUSMMemcpy(T.queue, true, p, got, sizeof got, 0, NULL,
                                                  NULL) != UR_RESULT_SUCCESS)
                answer = 2;
            if (urIPCCloseMemHandleExp(T.context, p) != UR_RESULT_SUCCESS)
                answer = 2;
        }
        teardown();
    }
    return write(out, &answer, 1) == 1 ? 0 : 1;
}

START_TEST(two_processes_share_device_memory) {
    urc_test_child_t c = urc_test_child_start(child_reads); // before any driver starts here
    setup();
    if (!ipc_supported() || !processes_share()) {
        urc_test_child_close_input(&c); // the child reads nothing and answers 2
        unsigned char answer = 0;
        ck_assert_int_eq(read(c.from_child, &answer, 1), 1);
        urc_test_child_wait(&c);
        teardown();
        return;
    }
    uint32_t words[WORDS];
    pattern(words);
    void *p = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, sizeof words, &p));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, p, words, sizeof words, 0, NULL, NULL));
    void *data = NULL;
    size_t size = 0;
    ck_assert_ur_ok(urIPCGetMemHandleExp(T.context, p, &data, &size));
    ck_assert_int_eq(write(c.to_child, data, size), (ssize_t)size);
    urc_test_child_close_input(&c);
    unsigned char answer = 9;
    ck_assert_int_eq(read(c.from_child, &answer, 1), 1);
    urc_test_child_wait(&c);
    ck_assert_int_eq(answer, 1);
    // What the child wrote is here.
    uint32_t got[WORDS];
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, got, p, sizeof got, 0, NULL, NULL));
    ck_assert_uint_eq(got[0], words[0] + 1);
    ck_assert_uint_eq(got[WORDS - 1], words[WORDS - 1] + 1);
    ck_assert_ur_ok(urIPCPutMemHandleExp(T.context, data));
    ck_assert_ur_ok(urUSMFree(T.context, p));
    teardown();
}
END_TEST

// The child of handle_of_a_dead_process: allocates, sends its handle and exits (status 0,
// having sent nothing where there is no IPC or processes cannot share memory).
static int child_sends_and_exits(int in, int out) {
    (void)in;
    setup();
    void *p = NULL, *data = NULL;
    size_t size = 0;
    if (ipc_supported() && processes_share() &&
        urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 4096, &p) == UR_RESULT_SUCCESS &&
        urIPCGetMemHandleExp(T.context, p, &data, &size) == UR_RESULT_SUCCESS) {
        if (write(out, data, size) != (ssize_t)size)
            return 1;
        urIPCPutMemHandleExp(T.context, data);
        urUSMFree(T.context, p);
    }
    teardown();
    return 0;
}

// The handle of a process that is gone opens nowhere.
START_TEST(handle_of_a_dead_process) {
    urc_test_child_t c = urc_test_child_start(child_sends_and_exits);
    unsigned char handle[512];
    ssize_t n = read(c.from_child, handle, sizeof handle);
    int status = urc_test_child_wait(&c);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (n <= 0)
        return; // no IPC here, or processes cannot share memory
    setup();
    void *opened = NULL;
    ck_assert_ur(urIPCOpenMemHandleExp(T.context, T.device, handle, (size_t)n, &opened),
                 UR_RESULT_ERROR_INVALID_VALUE);
    teardown();
}
END_TEST

int main(void) {
    Suite *s = suite_create("ipc");
    TCase *tc = urc_test_tcase("urIPCMemHandleExp", setup, teardown);
    tcase_add_test(tc, handles_and_errors);
    tcase_add_test(tc, forged_offset_refused);
    tcase_add_test(tc, physical_memory_handles);
    tcase_add_test(tc, handle_kinds_do_not_mix);
    suite_add_tcase(s, tc);
    // No fixture: the tests fork before they open anything.
    tc = tcase_create("urIPC_processes");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, two_processes_share_device_memory);
    tcase_add_test(tc, handle_of_a_dead_process);
    suite_add_tcase(s, tc);
    return urc_test_main_with_platform(s, "no platform for this adapter");
}
