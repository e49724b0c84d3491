// SPDX-License-Identifier: MIT
// The USM extensions beyond pools, one suite for every adapter: registered and imported host
// memory, pitched allocation, context copies and peer access, with their bad input
// (registering twice, unregistering unknown memory, enabling peer access twice, a peer without
// access). An adapter whose device info says a feature is absent must answer
// UNSUPPORTED_FEATURE. The peer tests need two devices (two GPUs; the simulated Level Zero
// driver offers more with ZE_SIM_DEVICES) and skip their bodies with one.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "urc_fixture.h"

static urc_test_handles_t T;

static void setup(void) {
    urc_test_handles_open(&T);
}

static void teardown(void) {
    urc_test_handles_close(&T);
}

// ---- registered host memory, pitched allocation, context copies ----

START_TEST(host_register_and_copy) {
    size_t size = 1 << 16;
    uint8_t *host = aligned_alloc(4096, size);
    ck_assert_ptr_nonnull(host);
    if (!urc_test_device_says(T.device, UR_DEVICE_INFO_USM_HOST_ALLOC_REGISTER_SUPPORT_EXP)) {
        ck_assert_ur(urUSMHostAllocRegisterExp(T.context, host, size, NULL),
                     UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        ck_assert_ur(urUSMImportExp(T.context, host, size), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        free(host);
        return;
    }
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
    ck_assert_ur(urUSMImportExp(T.context, host, size), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urUSMReleaseExp(T.context, host));
    ck_assert_ur(urUSMReleaseExp(T.context, host), UR_RESULT_ERROR_INVALID_VALUE);
    free(host);
}
END_TEST

START_TEST(host_register_bad_input) {
    if (!urc_test_device_says(T.device, UR_DEVICE_INFO_USM_HOST_ALLOC_REGISTER_SUPPORT_EXP))
        return; // host_register_and_copy checks the refusals
    uint8_t *never = aligned_alloc(4096, 4096);
    ck_assert_ptr_nonnull(never);
    ck_assert_ur(urUSMHostAllocUnregisterExp(T.context, never), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urUSMReleaseExp(T.context, never), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urUSMHostAllocRegisterExp(T.context, never, 0, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urUSMImportExp(T.context, never, 0), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urUSMImportExp(T.context, never, SIZE_MAX), UR_RESULT_ERROR_INVALID_SIZE);
    ur_exp_usm_host_alloc_register_properties_t props = {
        UR_STRUCTURE_TYPE_EXP_USM_HOST_ALLOC_REGISTER_PROPERTIES, NULL, 0x80};
    ck_assert_ur(urUSMHostAllocRegisterExp(T.context, never, 4096, &props),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    // Read-only registration needs the driver's support (CUDA: a device attribute).
    props.flags = UR_EXP_USM_HOST_ALLOC_REGISTER_FLAG_READ_ONLY;
    ur_result_t ro = urUSMHostAllocRegisterExp(T.context, never, 4096, &props);
    ck_assert(ro == UR_RESULT_SUCCESS || ro == UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    if (ro == UR_RESULT_SUCCESS)
        ck_assert_ur_ok(urUSMHostAllocUnregisterExp(T.context, never));
    ck_assert_ur_ok(urUSMHostAllocRegisterExp(T.context, never, 4096, NULL));
    // Part of a registered range is registered already.
    ck_assert_ur(urUSMHostAllocRegisterExp(T.context, never + 64, 64, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urUSMHostAllocUnregisterExp(T.context, never));
    free(never);
}
END_TEST

START_TEST(pitched_alloc) {
    ur_device_usm_access_capability_flags_t usm = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_USM_DEVICE_SUPPORT, sizeof usm, &usm, NULL));
    if (usm == 0)
        return; // no device USM (PoCL's CPU device)
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

static int can_access(ur_device_handle_t command, ur_device_handle_t peer) {
    int can = -1;
    ck_assert_ur_ok(urUsmP2PPeerAccessGetInfoExp(
        command, peer, UR_EXP_PEER_INFO_UR_PEER_ACCESS_SUPPORT, sizeof can, &can, NULL));
    ck_assert(can == 0 || can == 1);
    return can;
}

START_TEST(peer_access_of_a_device_with_itself) {
    if (!urc_test_device_says(T.device, UR_DEVICE_INFO_USM_P2P_SUPPORT_EXP)) {
        ck_assert_ur(urUsmP2PEnablePeerAccessExp(T.device, T.device),
                     UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        return;
    }
    // CUDA: a device is not its own peer; Level Zero: a device reaches its own memory.
    if (!can_access(T.device, T.device)) {
        ck_assert_ur(urUsmP2PEnablePeerAccessExp(T.device, T.device),
                     UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        return;
    }
    ck_assert_ur(urUsmP2PDisablePeerAccessExp(T.device, T.device),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur_ok(urUsmP2PEnablePeerAccessExp(T.device, T.device));
    ck_assert_ur(urUsmP2PEnablePeerAccessExp(T.device, T.device),
                 UR_RESULT_ERROR_INVALID_OPERATION);
    ck_assert_ur_ok(urUsmP2PDisablePeerAccessExp(T.device, T.device));
}
END_TEST

// Two devices: enable access and copy 1 MiB from one device's memory to the other's, in one
// context and across two.
START_TEST(peer_copy_between_two_devices) {
    ur_device_handle_t devs[4] = {NULL, NULL, NULL, NULL};
    uint32_t n = 0;
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_ALL, 4, devs, &n));
    if (n < 2 || !urc_test_device_says(devs[0], UR_DEVICE_INFO_USM_P2P_SUPPORT_EXP))
        return; // one device: nothing to test here
    // A third device the first cannot reach (the simulator's third): refused clearly.
    if (n > 2 && !can_access(devs[0], devs[2])) {
        ck_assert_ur(urUsmP2PEnablePeerAccessExp(devs[0], devs[2]),
                     UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        int atomics = -1;
        ck_assert_ur_ok(urUsmP2PPeerAccessGetInfoExp(devs[0], devs[2],
                                                     UR_EXP_PEER_INFO_UR_PEER_ATOMICS_SUPPORT,
                                                     sizeof atomics, &atomics, NULL));
        ck_assert_int_eq(atomics, 0);
    }
    if (!can_access(devs[0], devs[1]))
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
    // Across contexts: memory of a context of the peer alone, copied on the first's queue.
    ur_context_handle_t peer_ctx = NULL;
    ck_assert_ur_ok(urContextCreate(1, &devs[1], NULL, &peer_ctx));
    void *c = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(peer_ctx, devs[1], NULL, NULL, size, &c));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, true, c, a, size, 0, NULL, NULL));
    memset(host, 0, size);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(q, true, host, c, size, 0, NULL, NULL));
    ck_assert_int_eq(host[0], 0x77);
    ck_assert_int_eq(host[size - 1], 0x77);
    ck_assert_ur_ok(urUSMFree(peer_ctx, c));
    ck_assert_ur_ok(urContextRelease(peer_ctx));
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
    Suite *s = suite_create("usm_exp");
    TCase *tc = urc_test_tcase("urUSMExp", setup, teardown);
    tcase_add_test(tc, host_register_and_copy);
    tcase_add_test(tc, host_register_bad_input);
    tcase_add_test(tc, pitched_alloc);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("urUsmP2P", setup, teardown);
    tcase_add_test(tc, peer_access_of_a_device_with_itself);
    tcase_add_test(tc, peer_copy_between_two_devices);
    suite_add_tcase(s, tc);
    return urc_test_main_with_platform(s, "no platform for this adapter");
}
