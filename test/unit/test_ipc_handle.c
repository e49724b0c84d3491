// SPDX-License-Identifier: MIT
// common/ipc_handle and common/usm_exp: IPC handle data round trips, what is refused before a
// driver sees it (sizes, other adapters and kinds, damage, garbage, a second put), and the
// shared checks of host registration and import.
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ipc_handle.h"
#include "urc_test.h"
#include "usm_exp.h"

typedef struct payload_t {
    unsigned char bytes[64];
} payload_t;

static payload_t sample(void) {
    payload_t p;
    for (unsigned i = 0; i < sizeof p.bytes; ++i)
        p.bytes[i] = (unsigned char)(i * 7u + 3u);
    return p;
}

START_TEST(data_round_trip) {
    payload_t in = sample(), out;
    void *data = NULL;
    size_t size = 0;
    ck_assert_ur(
        urc_ipc_pack(UR_BACKEND_LEVEL_ZERO, URC_IPC_MEMORY, &in, sizeof in, 4160, &data, &size),
        UR_RESULT_SUCCESS);
    ck_assert_uint_gt(size, sizeof in);
    uint64_t offset = 0;
    ck_assert_ur(urc_ipc_unpack(UR_BACKEND_LEVEL_ZERO, URC_IPC_MEMORY, data, size, &out, sizeof out,
                                &offset),
                 UR_RESULT_SUCCESS);
    ck_assert_mem_eq(&out, &in, sizeof in);
    ck_assert_uint_eq(offset, 4160);
    // The put hands the payload back (for a driver's own put) and frees the data.
    memset(&out, 0, sizeof out);
    ck_assert_ur(urc_ipc_put(UR_BACKEND_LEVEL_ZERO, URC_IPC_MEMORY, data, &out, sizeof out),
                 UR_RESULT_SUCCESS);
    ck_assert_mem_eq(&out, &in, sizeof in);
}
END_TEST

START_TEST(bad_data_is_refused) {
    payload_t in = sample(), out;
    void *data = NULL;
    size_t size = 0;
    ck_assert_ur(urc_ipc_pack(UR_BACKEND_CUDA, URC_IPC_MEMORY, &in, sizeof in, 0, &data, &size),
                 UR_RESULT_SUCCESS);
    ck_assert_ur(
        urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_MEMORY, data, size - 1, &out, sizeof out, NULL),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(
        urc_ipc_unpack(UR_BACKEND_LEVEL_ZERO, URC_IPC_MEMORY, data, size, &out, sizeof out, NULL),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_EVENT, data, size, &out, sizeof out, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Every single damaged byte is noticed.
    unsigned char *copy = malloc(size);
    for (size_t i = 0; i < size; ++i) {
        memcpy(copy, data, size);
        copy[i] ^= 0x01;
        ck_assert_ur(
            urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_MEMORY, copy, size, &out, sizeof out, NULL),
            UR_RESULT_ERROR_INVALID_VALUE);
    }
    memset(copy, 0, size);
    ck_assert_ur(
        urc_ipc_unpack(UR_BACKEND_CUDA, URC_IPC_MEMORY, copy, size, &out, sizeof out, NULL),
        UR_RESULT_ERROR_INVALID_VALUE);
    // Only data this process holds are put, once, as their own kind.
    ck_assert_ur(urc_ipc_put(UR_BACKEND_CUDA, URC_IPC_MEMORY, copy, NULL, 0),
                 UR_RESULT_ERROR_INVALID_VALUE);
    free(copy);
    ck_assert_ur(urc_ipc_put(UR_BACKEND_CUDA, URC_IPC_EVENT, data, NULL, 0),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_ipc_put(UR_BACKEND_CUDA, URC_IPC_MEMORY, data, NULL, 0), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_ipc_put(UR_BACKEND_CUDA, URC_IPC_MEMORY, data, NULL, 0),
                 UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(many_handles_put_in_any_order) {
    payload_t in = sample();
    void *data[16];
    size_t size = 0;
    for (int i = 0; i < 16; ++i)
        ck_assert_ur(urc_ipc_pack(UR_BACKEND_OPENCL, URC_IPC_MEMORY, &in, sizeof in, (uint64_t)i,
                                  &data[i], &size),
                     UR_RESULT_SUCCESS);
    for (int i = 0; i < 16; i += 2)
        ck_assert_ur(urc_ipc_put(UR_BACKEND_OPENCL, URC_IPC_MEMORY, data[i], NULL, 0),
                     UR_RESULT_SUCCESS);
    for (int i = 15; i > 0; i -= 2)
        ck_assert_ur(urc_ipc_put(UR_BACKEND_OPENCL, URC_IPC_MEMORY, data[i], NULL, 0),
                     UR_RESULT_SUCCESS);
}
END_TEST

// Threads packing and putting at once: every put of their own data succeeds, exactly once.
static void *pack_and_put(void *arg) {
    payload_t in = sample();
    intptr_t failures = 0;
    for (int round = 0; round < 2000; ++round) {
        void *data = NULL;
        size_t size = 0;
        if (urc_ipc_pack(UR_BACKEND_CUDA, URC_IPC_MEMORY, &in, sizeof in, (uint64_t)round, &data,
                         &size) != UR_RESULT_SUCCESS ||
            urc_ipc_put(UR_BACKEND_CUDA, URC_IPC_MEMORY, data, NULL, 0) != UR_RESULT_SUCCESS)
            ++failures;
    }
    (void)arg;
    return (void *)failures;
}

START_TEST(threads_pack_and_put) {
    pthread_t t[4];
    for (int i = 0; i < 4; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, pack_and_put, NULL), 0);
    for (int i = 0; i < 4; ++i) {
        void *failures = NULL;
        ck_assert_int_eq(pthread_join(t[i], &failures), 0);
        ck_assert_ptr_null(failures);
    }
}
END_TEST

START_TEST(host_registration_checks) {
    char buf[64] = {0};
    bool ro = true;
    ck_assert_ur(urc_usm_host_register_check(buf, sizeof buf, NULL, &ro), UR_RESULT_SUCCESS);
    ck_assert(!ro);
    ur_exp_usm_host_alloc_register_properties_t props = {
        UR_STRUCTURE_TYPE_EXP_USM_HOST_ALLOC_REGISTER_PROPERTIES, NULL,
        UR_EXP_USM_HOST_ALLOC_REGISTER_FLAG_READ_ONLY};
    ck_assert_ur(urc_usm_host_register_check(buf, sizeof buf, &props, &ro), UR_RESULT_SUCCESS);
    ck_assert(ro);
    props.flags = 0x10;
    ck_assert_ur(urc_usm_host_register_check(buf, sizeof buf, &props, &ro),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_ur(urc_usm_host_register_check(buf, 0, NULL, &ro), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_usm_host_register_check((void *)(UINTPTR_MAX - 8), 16, NULL, &ro),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_usm_import_check(buf, sizeof buf), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_usm_import_check(buf, 0), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_usm_import_check((void *)(UINTPTR_MAX - 8), 16), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_usm_host_registered_already(buf, 0), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_usm_host_not_registered(buf, 0), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_peer_unreachable(0, 2, 0), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur(urc_peer_state_wrong(true, 0), UR_RESULT_ERROR_INVALID_OPERATION);
}
END_TEST

int main(void) {
    Suite *s = suite_create("ipc_handle");
    TCase *tc = tcase_create("urc_ipc");
    tcase_add_test(tc, data_round_trip);
    tcase_add_test(tc, bad_data_is_refused);
    tcase_add_test(tc, many_handles_put_in_any_order);
    tcase_add_test(tc, threads_pack_and_put);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_usm_exp");
    tcase_add_test(tc, host_registration_checks);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
