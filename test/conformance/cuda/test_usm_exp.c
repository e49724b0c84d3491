// SPDX-License-Identifier: MIT
// The CUDA adapter's USM extensions beyond pools: registered and imported host memory,
// pitched allocation, context copies and peer access. The peer-copy test needs two GPUs and
// skips its body with one.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cudat.h"

// ---- registered host memory, pitched allocation, context copies ----

START_TEST(host_register_and_copy) {
    size_t size = 1 << 16;
    uint8_t *host = aligned_alloc(4096, size);
    ck_assert_ur_ok(urUSMHostAllocRegisterExp(T.context, host, size, NULL));
    ck_assert_ur(urUSMHostAllocRegisterExp(T.context, host, size, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    memset(host, 0x5a, size);
    void *dev = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, size, &dev));
    ck_assert_ur_ok(urUSMContextMemcpyExp(T.context, dev, host, size));
    memset(host, 0, size);
    ck_assert_ur_ok(urUSMContextMemcpyExp(T.context, host, dev, size));
    ck_assert_int_eq(host[0], 0x5a);
    ck_assert_int_eq(host[size - 1], 0x5a);
    ck_assert_ur_ok(urUSMFree(T.context, dev));
    ck_assert_ur_ok(urUSMHostAllocUnregisterExp(T.context, host));
    ck_assert_ur(urUSMHostAllocUnregisterExp(T.context, host), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urUSMImportExp(T.context, host, size));
    ck_assert_ur_ok(urUSMReleaseExp(T.context, host));
    free(host);
}
END_TEST

START_TEST(pitched_alloc) {
    void *p = NULL;
    size_t pitch = 0;
    ck_assert_ur_ok(urUSMPitchedAllocExp(T.context, T.device, NULL, NULL, 100, 10, 4, &p, &pitch));
    ck_assert_uint_ge(pitch, 100);
    size_t size = 0;
    ck_assert_ur_ok(
        urUSMGetMemAllocInfo(T.context, p, UR_USM_ALLOC_INFO_SIZE, sizeof size, &size, NULL));
    ck_assert_uint_ge(size, pitch * 10);
    ck_assert_ur_ok(urUSMFree(T.context, p));
    ck_assert_ur(urUSMPitchedAllocExp(T.context, T.device, NULL, NULL, 100, 10, 3, &p, &pitch),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urUSMPitchedAllocExp(T.context, T.device, NULL, NULL, 100, 0, 4, &p, &pitch),
                 UR_RESULT_ERROR_INVALID_USM_SIZE);
}
END_TEST

// ---- peer access ----

START_TEST(peer_access_of_a_device_with_itself) {
    ur_bool_t b = false;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_USM_P2P_SUPPORT_EXP, sizeof b, &b, NULL));
    ck_assert(b);
    int can = -1;
    ck_assert_ur_ok(urUsmP2PPeerAccessGetInfoExp(
        T.device, T.device, UR_EXP_PEER_INFO_UR_PEER_ACCESS_SUPPORT, sizeof can, &can, NULL));
    ck_assert_int_eq(can, 0); // CUDA: a device is not its own peer
    ck_assert_ur(urUsmP2PEnablePeerAccessExp(T.device, T.device),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
}
END_TEST

// Two GPUs: enable access both ways and copy 1 MiB from one device's memory to the other's.
START_TEST(peer_copy_between_two_devices) {
    ur_device_handle_t devs[2] = {NULL, NULL};
    uint32_t n = 0;
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_ALL, 2, devs, &n));
    if (n < 2)
        return; // one GPU: nothing to test here
    int can = 0;
    ck_assert_ur_ok(urUsmP2PPeerAccessGetInfoExp(
        devs[0], devs[1], UR_EXP_PEER_INFO_UR_PEER_ACCESS_SUPPORT, sizeof can, &can, NULL));
    if (!can)
        return;
    ck_assert_ur_ok(urUsmP2PEnablePeerAccessExp(devs[0], devs[1]));
    ck_assert_ur(urUsmP2PEnablePeerAccessExp(devs[0], devs[1]), UR_RESULT_ERROR_INVALID_OPERATION);
    ur_context_handle_t ctx = NULL;
    ck_assert_ur_ok(urContextCreate(2, devs, NULL, &ctx));
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(ctx, devs[0], NULL, &q));
    size_t size = 1 << 20;
    void *a = NULL, *b = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(ctx, devs[0], NULL, NULL, size, &a));
    ck_assert_ur_ok(urUSMDeviceAlloc(ctx, devs[1], NULL, NULL, size, &b));
    uint8_t *host = malloc(size);
    memset(host, 0x77, size);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, true, a, host, size, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, true, b, a, size, 0, NULL, NULL)); // peer copy
    memset(host, 0, size);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, true, host, b, size, 0, NULL, NULL));
    ck_assert_int_eq(host[0], 0x77);
    ck_assert_int_eq(host[size - 1], 0x77);
    free(host);
    ck_assert_ur_ok(urUSMFree(ctx, a));
    ck_assert_ur_ok(urUSMFree(ctx, b));
    ck_assert_ur_ok(urQueueRelease(q));
    ck_assert_ur_ok(urContextRelease(ctx));
    ck_assert_ur_ok(urUsmP2PDisablePeerAccessExp(devs[0], devs[1]));
    ck_assert_ur(urUsmP2PDisablePeerAccessExp(devs[0], devs[1]), UR_RESULT_ERROR_INVALID_OPERATION);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda_usm_exp");
    TCase *tc = cudat_tcase("urUSMExp");
    tcase_add_test(tc, host_register_and_copy);
    tcase_add_test(tc, pitched_alloc);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urUsmP2P");
    tcase_add_test(tc, peer_access_of_a_device_with_itself);
    tcase_add_test(tc, peer_copy_between_two_devices);
    suite_add_tcase(s, tc);
    return cudat_main(s, false);
}
