// SPDX-License-Identifier: MIT
// IPC physical-memory handles of the CUDA adapter: handle data, opens in the same process
// (both mappings show the same bytes), stale, corrupted and foreign data, and two processes
// (fork and a pipe for the handle) where one writes physical memory and the other reads the
// same bytes through its own mapping. The simulated driver backs physical memory with a memfd,
// so the two-process test runs there too.
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cudat.h"
#include "urc_child.h"

#define WORDS 1024

static size_t granularity(ur_context_handle_t context, ur_device_handle_t device) {
    size_t g = 0;
    ck_assert_ur_ok(urVirtualMemGranularityGetInfo(
        context, device, 0, UR_VIRTUAL_MEM_GRANULARITY_INFO_MINIMUM, sizeof g, &g, NULL));
    return g;
}

static ur_physical_mem_handle_t make_physical(size_t size, bool ipc) {
    ur_physical_mem_properties_t props = {UR_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES, NULL,
                                          ipc ? UR_PHYSICAL_MEM_FLAG_ENABLE_IPC : 0};
    ur_physical_mem_handle_t m = NULL;
    ck_assert_ur_ok(urPhysicalMemCreate(T.context, T.device, size, &props, &m));
    return m;
}

/// Reserves and maps `m` read-write; returns the address.
static void *map(ur_context_handle_t context, ur_physical_mem_handle_t m, size_t size) {
    void *p = NULL;
    ck_assert_ur_ok(urVirtualMemReserve(context, NULL, size, &p));
    ck_assert_ur_ok(urVirtualMemMap(context, p, size, m, 0, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE));
    return p;
}

static void unmap(ur_context_handle_t context, void *p, size_t size) {
    ck_assert_ur_ok(urVirtualMemUnmap(context, p, size));
    ck_assert_ur_ok(urVirtualMemFree(context, p, size));
}

START_TEST(support_reported) {
    ur_bool_t b = false;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_IPC_PHYSICAL_MEMORY_SUPPORT_EXP,
                                    sizeof b, &b, NULL));
    ck_assert(b);
}
END_TEST

START_TEST(needs_enable_ipc) {
    size_t g = granularity(T.context, T.device);
    ur_physical_mem_handle_t m = make_physical(g, false);
    void *data = NULL;
    size_t size = 0;
    ck_assert_ur(urIPCGetPhysMemHandleExp(T.context, m, &data, &size),
                 UR_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ur_ok(urPhysicalMemRelease(m));
}
END_TEST

START_TEST(open_in_same_process_aliases) {
    size_t g = granularity(T.context, T.device);
    ur_physical_mem_handle_t m = make_physical(g, true);
    void *data = NULL;
    size_t size = 0;
    ck_assert_ur_ok(urIPCGetPhysMemHandleExp(T.context, m, &data, &size));
    ck_assert_ptr_nonnull(data);
    ck_assert_uint_gt(size, 0);
    ur_physical_mem_handle_t opened = NULL;
    ck_assert_ur_ok(urIPCOpenPhysMemHandleExp(T.context, T.device, data, size, &opened));
    ck_assert_ptr_nonnull(opened);
    size_t opened_size = 0;
    ck_assert_ur_ok(urPhysicalMemGetInfo(opened, UR_PHYSICAL_MEM_INFO_SIZE, sizeof opened_size,
                                         &opened_size, NULL));
    ck_assert_uint_eq(opened_size, g);
    // Bytes written through a mapping of the original are read through one of the opened.
    void *a = map(T.context, m, g);
    void *b = map(T.context, opened, g);
    uint32_t pattern[WORDS], got[WORDS];
    for (uint32_t i = 0; i < WORDS; ++i)
        pattern[i] = 0xC0DE0000u + i;
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, a, pattern, sizeof pattern, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, got, b, sizeof got, 0, NULL, NULL));
    ck_assert_mem_eq(got, pattern, sizeof got);
    unmap(T.context, b, g);
    unmap(T.context, a, g);
    // Closing is for opened memory only; the original is released as usual.
    ck_assert_ur(urIPCClosePhysMemHandleExp(T.context, m), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urIPCClosePhysMemHandleExp(T.context, opened));
    ck_assert_ur_ok(urIPCPutPhysMemHandleExp(T.context, data));
    ck_assert_ur_ok(urPhysicalMemRelease(m));
}
END_TEST

START_TEST(bad_handle_data) {
    size_t g = granularity(T.context, T.device);
    ur_physical_mem_handle_t m = make_physical(g, true);
    void *data = NULL;
    size_t size = 0;
    ck_assert_ur_ok(urIPCGetPhysMemHandleExp(T.context, m, &data, &size));
    ur_physical_mem_handle_t opened = NULL;
    ck_assert_ur(urIPCOpenPhysMemHandleExp(T.context, T.device, data, size - 1, &opened),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urIPCOpenPhysMemHandleExp(T.context, T.device, data, size + 1, &opened),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Garbage of the right size, and the real data with any one byte flipped in its header.
    unsigned char copy[256];
    ck_assert_uint_le(size, sizeof copy);
    memset(copy, 0xff, size);
    ck_assert_ur(urIPCOpenPhysMemHandleExp(T.context, T.device, copy, size, &opened),
                 UR_RESULT_ERROR_INVALID_VALUE);
    memset(copy, 0, size);
    ck_assert_ur(urIPCOpenPhysMemHandleExp(T.context, T.device, copy, size, &opened),
                 UR_RESULT_ERROR_INVALID_VALUE);
    for (size_t i = 0; i < 8; ++i) {
        memcpy(copy, data, size);
        copy[i] ^= 0x5a;
        ck_assert_ur(urIPCOpenPhysMemHandleExp(T.context, T.device, copy, size, &opened),
                     UR_RESULT_ERROR_INVALID_VALUE);
    }
    // A copy kept past the put is stale: its descriptor is closed.
    memcpy(copy, data, size);
    ck_assert_ur_ok(urIPCPutPhysMemHandleExp(T.context, data));
    ck_assert_ur(urIPCOpenPhysMemHandleExp(T.context, T.device, copy, size, &opened),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Put twice, or put what the adapter never handed out.
    ck_assert_ur(urIPCPutPhysMemHandleExp(T.context, data), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urIPCPutPhysMemHandleExp(T.context, copy), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urPhysicalMemRelease(m));
}
END_TEST

// ---- two processes ----

// The child: makes shareable physical memory holding the pattern, sends its handle data, and
// keeps it until the parent answers. Exit status 0 when all of that worked.
static int child_exports(int in, int out) {
    urc_test_handles_t s;
    urc_test_handles_open(&s);
    size_t g = 0;
    urVirtualMemGranularityGetInfo(s.context, s.device, 0, UR_VIRTUAL_MEM_GRANULARITY_INFO_MINIMUM,
                                   sizeof g, &g, NULL);
    ur_physical_mem_properties_t props = {UR_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES, NULL,
                                          UR_PHYSICAL_MEM_FLAG_ENABLE_IPC};
    ur_physical_mem_handle_t m = NULL;
    void *p = NULL, *data = NULL;
    size_t size = 0;
    int failed = 1;
    uint32_t pattern[WORDS];
    for (uint32_t i = 0; i < WORDS; ++i)
        pattern[i] = 0xAB000000u + i;
    if (g != 0 && urPhysicalMemCreate(s.context, s.device, g, &props, &m) == UR_RESULT_SUCCESS &&
        urVirtualMemReserve(s.context, NULL, g, &p) == UR_RESULT_SUCCESS &&
        urVirtualMemMap(s.context, p, g, m, 0, UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE) ==
            UR_RESULT_SUCCESS &&
        urEnqueueUSMMemcpy(s.queue, true, p, pattern, sizeof pattern, 0, NULL, NULL) ==
            UR_RESULT_SUCCESS &&
        urIPCGetPhysMemHandleExp(s.context, m, &data, &size) == UR_RESULT_SUCCESS)
        failed = 0;
    if (failed)
        size = 0; // tells the parent
    failed |= write(out, &size, sizeof size) != sizeof size;
    if (size != 0)
        failed |= write(out, data, size) != (ssize_t)size;
    unsigned char done = 0;
    failed |= read(in, &done, 1) != 1; // the parent has read the memory
    if (data != NULL)
        urIPCPutPhysMemHandleExp(s.context, data);
    urc_test_handles_close(&s); // the memory goes with the process
    return failed;
}

START_TEST(two_processes_share_physical_memory) {
    // Fork before either process starts CUDA. The child exports and the parent opens: taking
    // a descriptor of a child needs no more rights than the parent has (pidfd_getfd checks
    // ptrace access, which Yama's default scope grants over descendants).
    urc_test_child_t c = urc_test_child_start(child_exports);
    cudat_setup();
    size_t size = 0;
    unsigned char data[256];
    ck_assert_int_eq(read(c.from_child, &size, sizeof size), (ssize_t)sizeof size);
    ck_assert_msg(size != 0 && size <= sizeof data, "the child could not export (size %zu)", size);
    ck_assert_int_eq(read(c.from_child, data, size), (ssize_t)size);
    ur_physical_mem_handle_t opened = NULL;
    ur_result_t res = urIPCOpenPhysMemHandleExp(T.context, T.device, data, size, &opened);
    if (res == UR_RESULT_ERROR_UNSUPPORTED_FEATURE) {
        // pidfd_getfd refused by a seccomp filter or missing: say so, it is the machine's.
        const char *msg = NULL;
        urAdapterGetLastError(T.adapter, &msg, &(int32_t){0});
        printf("note: cross-process physical memory unavailable on this machine: %s\n",
               msg != NULL ? msg : "?");
    } else {
        ck_assert_ur_ok(res);
        size_t g = granularity(T.context, T.device);
        void *p = map(T.context, opened, g);
        uint32_t got[WORDS];
        ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, got, p, sizeof got, 0, NULL, NULL));
        for (uint32_t i = 0; i < WORDS; ++i)
            ck_assert_uint_eq(got[i], 0xAB000000u + i);
        unmap(T.context, p, g);
        ck_assert_ur_ok(urIPCClosePhysMemHandleExp(T.context, opened));
    }
    unsigned char done = 1;
    ck_assert_int_eq(write(c.to_child, &done, 1), 1);
    int status = urc_test_child_wait(&c);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    // The exporting process is gone: its handle data opens nothing, and nothing crashes.
    ck_assert_ur(urIPCOpenPhysMemHandleExp(T.context, T.device, data, size, &opened),
                 res == UR_RESULT_ERROR_UNSUPPORTED_FEATURE ? res : UR_RESULT_ERROR_INVALID_VALUE);
    cudat_teardown();
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda_ipc_physical");
    TCase *tc = cudat_tcase("urIPCPhysMemHandleExp");
    tcase_add_test(tc, support_reported);
    tcase_add_test(tc, needs_enable_ipc);
    tcase_add_test(tc, open_in_same_process_aliases);
    tcase_add_test(tc, bad_handle_data);
    suite_add_tcase(s, tc);
    // No fixture: the test forks before it opens anything.
    tc = tcase_create("urIPCPhysMem_two_processes");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, two_processes_share_physical_memory);
    suite_add_tcase(s, tc);
    return cudat_main(s, false);
}
