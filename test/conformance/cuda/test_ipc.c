// SPDX-License-Identifier: MIT
// IPC memory handles of the CUDA adapter: handle packing and errors, and two processes (fork
// and a pipe for the handle) where one writes device memory and the other reads the same
// bytes. The simulated driver's memory is private to a process, so the two-process test runs
// on a real GPU only.
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cudat.h"

static bool simulated(ur_device_handle_t device) {
    char name[256] = "";
    ck_assert_ur_ok(urDeviceGetInfo(device, UR_DEVICE_INFO_NAME, sizeof name, name, NULL));
    return strstr(name, "simulated") != NULL;
}

START_TEST(handles_and_errors) {
    ur_bool_t b = false;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_IPC_MEMORY_SUPPORT_EXP, sizeof b, &b, NULL));
    ck_assert(b);
    void *p = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 4096, &p));
    void *data = NULL;
    size_t size = 0;
    ck_assert_ur_ok(urIPCGetMemHandleExp(T.context, (char *)p + 64, &data, &size));
    ck_assert_ptr_nonnull(data);
    ck_assert_uint_gt(size, 0);
    void *opened = NULL;
    ck_assert_ur(urIPCOpenMemHandleExp(T.context, T.device, data, size - 1, &opened),
                 UR_RESULT_ERROR_INVALID_VALUE);
    if (simulated(T.device)) {
        // The simulator opens a handle in its own process: the pointer keeps its offset.
        ck_assert_ur_ok(urIPCOpenMemHandleExp(T.context, T.device, data, size, &opened));
        ck_assert_ptr_eq(opened, (char *)p + 64);
        ck_assert_ur_ok(urIPCCloseMemHandleExp(T.context, opened));
    }
    ck_assert_ur_ok(urIPCPutMemHandleExp(T.context, data));
    ck_assert_ur(urIPCCloseMemHandleExp(T.context, p), UR_RESULT_ERROR_INVALID_VALUE);
    // Host memory and pooled chunks cannot be shared this way.
    void *host = NULL;
    ck_assert_ur_ok(urUSMHostAlloc(T.context, NULL, NULL, 64, &host));
    ck_assert_ur(urIPCGetMemHandleExp(T.context, host, &data, &size),
                 UR_RESULT_ERROR_INVALID_VALUE);
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

// The child: reads the handle from `in`, opens it, copies the bytes out and answers whether
// they are the pattern (1), not (0), or that it could not run (2).
static int child_reads(int in, int out) {
    unsigned char handle[256];
    ssize_t n = read(in, handle, sizeof handle);
    unsigned char answer = 2;
    if (n > 0) {
        ur_adapter_handle_t adapter;
        ur_platform_handle_t platform;
        ur_device_handle_t device;
        ur_context_handle_t context;
        ur_queue_handle_t queue;
        urc_test_open(&adapter, &platform, &device, &context, &queue);
        void *p = NULL;
        if (urIPCOpenMemHandleExp(context, device, handle, (size_t)n, &p) == UR_RESULT_SUCCESS) {
            uint32_t got[1024];
            answer = urEnqueueUSMMemcpy(queue, true, got, p, sizeof got, 0, NULL, NULL) ==
                             UR_RESULT_SUCCESS
                         ? 1
                         : 2;
            for (uint32_t i = 0; i < 1024 && answer == 1; ++i)
                if (got[i] != 0xAB000000u + i)
                    answer = 0;
            urIPCCloseMemHandleExp(context, p);
        }
        urQueueRelease(queue);
        urContextRelease(context);
        urAdapterRelease(adapter);
        urLoaderTearDown();
    }
    return write(out, &answer, 1) == 1 ? 0 : 1;
}

START_TEST(two_processes_share_device_memory) {
    // Fork before either process starts CUDA: a forked child cannot use its parent's.
    int to_child[2], to_parent[2];
    ck_assert_int_eq(pipe(to_child), 0);
    ck_assert_int_eq(pipe(to_parent), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(to_child[1]);
        close(to_parent[0]);
        _exit(child_reads(to_child[0], to_parent[1]));
    }
    close(to_child[0]);
    close(to_parent[1]);
    cudat_setup();
    if (simulated(T.device)) {
        close(to_child[1]); // the child reads nothing and answers 2
        unsigned char answer = 0;
        ck_assert_int_eq(read(to_parent[0], &answer, 1), 1);
        waitpid(pid, NULL, 0);
        cudat_teardown();
        return;
    }
    uint32_t pattern[1024];
    for (uint32_t i = 0; i < 1024; ++i)
        pattern[i] = 0xAB000000u + i;
    void *p = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, sizeof pattern, &p));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, p, pattern, sizeof pattern, 0, NULL, NULL));
    void *data = NULL;
    size_t size = 0;
    ck_assert_ur_ok(urIPCGetMemHandleExp(T.context, p, &data, &size));
    ck_assert_int_eq(write(to_child[1], data, size), (ssize_t)size);
    close(to_child[1]);
    unsigned char answer = 9;
    ck_assert_int_eq(read(to_parent[0], &answer, 1), 1);
    int status = 0;
    waitpid(pid, &status, 0);
    ck_assert_int_eq(answer, 1);
    ck_assert_ur_ok(urIPCPutMemHandleExp(T.context, data));
    ck_assert_ur_ok(urUSMFree(T.context, p));
    cudat_teardown();
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda_ipc");
    TCase *tc = cudat_tcase("urIPCMemHandleExp");
    tcase_add_test(tc, handles_and_errors);
    suite_add_tcase(s, tc);
    // No fixture: the test forks before it opens anything.
    tc = tcase_create("urIPC_two_processes");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, two_processes_share_device_memory);
    suite_add_tcase(s, tc);
    return cudat_main(s, false);
}
