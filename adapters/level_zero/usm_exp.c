// SPDX-License-Identifier: MIT
// The USM extensions beyond pools: pitched allocation (rows padded to 512 bytes),
// context-level copies, registered and imported host memory (Intel's
// zexDriverImportExternalPointer, found by name), and peer access between devices
// (zeDeviceCanAccessPeer; Level Zero has nothing to switch on, so the adapter keeps which
// pairs are enabled; copies between peers are urEnqueueUSMMemcpy).
#include <pthread.h>
#include <stdlib.h>

#include "l0_internal.h"
#include "memory/usm_import_peer.h"
#include "pool/pool_handle.h"

#define L0_PITCH_ALIGN 512u

ur_result_t l0_usm_pitched_alloc_exp(ur_context_handle_t hContext, ur_device_handle_t hDevice,
                                     const ur_usm_desc_t *pUSMDesc, ur_usm_pool_handle_t pool,
                                     size_t widthInBytes, size_t height, size_t elementSizeBytes,
                                     void **ppMem, size_t *pResultPitch) {
    size_t pitch = 0, bytes = 0;
    ur_result_t res =
        urc_usm_pitch(widthInBytes, height, elementSizeBytes, L0_PITCH_ALIGN, &pitch, &bytes);
    if (res == UR_RESULT_SUCCESS)
        res = l0_usm_device_alloc(hContext, hDevice, pUSMDesc, pool, bytes, ppMem);
    if (res == UR_RESULT_SUCCESS)
        *pResultPitch = pitch;
    return res;
}

ur_result_t l0_usm_context_memcpy_exp(ur_context_handle_t hContext, void *pDst, const void *pSrc,
                                      size_t size) {
    l0_context_t *ctx = L0_CONTEXT(hContext);
    // The rule of urEnqueueUSMMemcpy, before the driver copies past an allocation's end.
    urc_rules_t rules;
    l0_rules(ctx, ctx->devices[0], &rules);
    ur_result_t res = urc_rule_usm_memcpy(&rules, pDst, pSrc, size);
    if (res != UR_RESULT_SUCCESS)
        return res;
    return l0_copy_now(ctx, ctx->devices[0], pDst, pSrc, size);
}

// ---- registered and imported host memory ----

typedef ze_result_t(ZE_APICALL *l0_import_fn)(ze_driver_handle_t, void *, size_t);
typedef ze_result_t(ZE_APICALL *l0_release_fn)(ze_driver_handle_t, void *);

static void *driver_function(const l0_platform_t *platform, const char *name) {
    void *fn = NULL;
    if (zeDriverGetExtensionFunctionAddress(platform->ze, name, &fn) != ZE_RESULT_SUCCESS)
        return NULL;
    return fn;
}

bool l0_host_import_supported(const l0_device_t *dev) {
    return driver_function(dev->platform, "zexDriverImportExternalPointer") != NULL &&
           driver_function(dev->platform, "zexDriverReleaseImportedPointer") != NULL;
}

static ur_result_t host_import(ur_context_handle_t hContext, void *p, size_t size) {
    const l0_platform_t *platform = L0_CONTEXT(hContext)->devices[0]->platform;
    l0_import_fn import = (l0_import_fn)driver_function(platform, "zexDriverImportExternalPointer");
    if (import == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the Level Zero driver has no zexDriverImportExternalPointer");
    ze_result_t r = import(platform->ze, p, size);
    if (r == ZE_RESULT_ERROR_INVALID_ARGUMENT)
        return urc_usm_host_registered_already(p, (int32_t)r);
    return l0_ok(r, "zexDriverImportExternalPointer");
}

static ur_result_t host_release(ur_context_handle_t hContext, void *p) {
    if (!l0_is(hContext, URC_KIND_CONTEXT))
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    const l0_platform_t *platform = L0_CONTEXT(hContext)->devices[0]->platform;
    l0_release_fn release =
        (l0_release_fn)driver_function(platform, "zexDriverReleaseImportedPointer");
    if (release == NULL)
        return urc_error_set(UR_RESULT_ERROR_UNSUPPORTED_FEATURE, 0,
                             "the Level Zero driver has no zexDriverReleaseImportedPointer");
    ze_result_t r = release(platform->ze, p);
    if (r == ZE_RESULT_ERROR_INVALID_ARGUMENT)
        return urc_usm_host_not_registered(p, (int32_t)r);
    return l0_ok(r, "zexDriverReleaseImportedPointer");
}

ur_result_t
l0_usm_host_alloc_register_exp(ur_context_handle_t hContext, void *pHostMem, size_t size,
                               const ur_exp_usm_host_alloc_register_properties_t *pProperties) {
    bool read_only = false; // a hint Level Zero has no word for: the memory stays writable
    ur_result_t res = urc_usm_host_register_check(pHostMem, size, pProperties, &read_only);
    return res != UR_RESULT_SUCCESS ? res : host_import(hContext, pHostMem, size);
}

ur_result_t l0_usm_host_alloc_unregister_exp(ur_context_handle_t hContext, void *pHostMem) {
    return host_release(hContext, pHostMem);
}

// Importing pins host memory for faster copies, which is what registration does (as in UR).
ur_result_t l0_usm_import_exp(ur_context_handle_t hContext, void *pMem, size_t size) {
    ur_result_t res = urc_usm_import_check(pMem, size);
    return res != UR_RESULT_SUCCESS ? res : host_import(hContext, pMem, size);
}

ur_result_t l0_usm_release_exp(ur_context_handle_t hContext, void *pMem) {
    return host_release(hContext, pMem);
}

// ---- peer access ----

/// Enabled (command device, peer device) pairs. Devices live as long as the adapter, and
/// pairs are few, so a short list under one lock does.
typedef struct l0_peer_pair_t {
    const l0_device_t *command, *peer;
    struct l0_peer_pair_t *next;
} l0_peer_pair_t;

static pthread_mutex_t g_peer_lock = PTHREAD_MUTEX_INITIALIZER;
static l0_peer_pair_t *g_peers;

// The device's position among its platform's root devices (its parent's for a sub-device).
static uint32_t device_number(const l0_device_t *dev) {
    while (dev->parent != NULL)
        dev = dev->parent;
    return (uint32_t)(dev - dev->platform->devices);
}

static ur_result_t can_access(ur_device_handle_t command, ur_device_handle_t peer, int *can) {
    if (!l0_is(command, URC_KIND_DEVICE) || !l0_is(peer, URC_KIND_DEVICE))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    ze_bool_t v = 0;
    ur_result_t res = l0_ok(zeDeviceCanAccessPeer(L0_DEVICE(command)->ze, L0_DEVICE(peer)->ze, &v),
                            "zeDeviceCanAccessPeer");
    *can = v != 0;
    return res;
}

ur_result_t l0_usm_p_2p_enable_peer_access_exp(ur_device_handle_t commandDevice,
                                               ur_device_handle_t peerDevice) {
    int can = 0;
    ur_result_t res = can_access(commandDevice, peerDevice, &can);
    if (res != UR_RESULT_SUCCESS)
        return res;
    if (!can)
        return urc_peer_unreachable(device_number(L0_DEVICE(commandDevice)),
                                    device_number(L0_DEVICE(peerDevice)), 0);
    l0_peer_pair_t *n = malloc(sizeof *n);
    if (n == NULL)
        return UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    bool enabled = false;
    pthread_mutex_lock(&g_peer_lock);
    for (l0_peer_pair_t *at = g_peers; at != NULL && !enabled; at = at->next)
        enabled = at->command == L0_DEVICE(commandDevice) && at->peer == L0_DEVICE(peerDevice);
    if (!enabled) {
        *n = (l0_peer_pair_t){L0_DEVICE(commandDevice), L0_DEVICE(peerDevice), g_peers};
        g_peers = n;
    }
    pthread_mutex_unlock(&g_peer_lock);
    if (enabled) {
        free(n);
        return urc_peer_state_wrong(true, 0);
    }
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_usm_p_2p_disable_peer_access_exp(ur_device_handle_t commandDevice,
                                                ur_device_handle_t peerDevice) {
    l0_peer_pair_t *found = NULL;
    pthread_mutex_lock(&g_peer_lock);
    for (l0_peer_pair_t **at = &g_peers; *at != NULL; at = &(*at)->next)
        if ((*at)->command == L0_DEVICE(commandDevice) && (*at)->peer == L0_DEVICE(peerDevice)) {
            found = *at;
            *at = found->next;
            break;
        }
    pthread_mutex_unlock(&g_peer_lock);
    free(found);
    return found != NULL ? UR_RESULT_SUCCESS : urc_peer_state_wrong(false, 0);
}

ur_result_t l0_usm_p_2p_peer_access_get_info_exp(ur_device_handle_t commandDevice,
                                                 ur_device_handle_t peerDevice,
                                                 ur_exp_peer_info_t propName, size_t propSize,
                                                 void *pPropValue, size_t *pPropSizeRet) {
    int value = 0;
    ur_result_t res = can_access(commandDevice, peerDevice, &value);
    if (res != UR_RESULT_SUCCESS)
        return res;
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_EXP_PEER_INFO_UR_PEER_ACCESS_SUPPORT:
        break;
    case UR_EXP_PEER_INFO_UR_PEER_ATOMICS_SUPPORT: {
        ze_device_p2p_properties_t p2p = {ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES, NULL, 0};
        res = l0_ok(
            zeDeviceGetP2PProperties(L0_DEVICE(commandDevice)->ze, L0_DEVICE(peerDevice)->ze, &p2p),
            "zeDeviceGetP2PProperties");
        value = (p2p.flags & ZE_DEVICE_P2P_PROPERTY_FLAG_ATOMICS) != 0;
        break;
    }
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
    return res != UR_RESULT_SUCCESS ? res : urc_info_i32(&out, value);
}
