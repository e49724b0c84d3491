// SPDX-License-Identifier: MIT
// The one place CUDA driver results become UR results.
#include <stdatomic.h>
#include <stdio.h>

#include "program/assert_record.h"
#include "cuda_internal.h"
#include "urc_assert.h"

urc_logger_t *cuda_log(void) {
    return urc_logger(URC_ENV_LOG_CUDA);
}

static ur_result_t map(CUresult r) {
    switch (r) {
    case CUDA_SUCCESS:
        return UR_RESULT_SUCCESS;
    case CUDA_ERROR_INVALID_VALUE:
    case CUDA_ERROR_FILE_NOT_FOUND:
    case CUDA_ERROR_NOT_FOUND: // a symbol or function the module lacks
        return UR_RESULT_ERROR_INVALID_VALUE;
    case CUDA_ERROR_OUT_OF_MEMORY:
        return UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    case CUDA_ERROR_NOT_INITIALIZED:
    case CUDA_ERROR_DEINITIALIZED:
    case CUDA_ERROR_STUB_LIBRARY:
        return UR_RESULT_ERROR_UNINITIALIZED;
    case CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER:
        return UR_RESULT_ERROR_UNSUPPORTED_VERSION;
    case CUDA_ERROR_DEVICE_UNAVAILABLE:
    case CUDA_ERROR_SYSTEM_NOT_READY:
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
    case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
        return UR_RESULT_ERROR_DEVICE_NOT_AVAILABLE;
    case CUDA_ERROR_NO_DEVICE:
        return UR_RESULT_ERROR_DEVICE_NOT_FOUND;
    case CUDA_ERROR_INVALID_DEVICE:
        return UR_RESULT_ERROR_INVALID_DEVICE;
    case CUDA_ERROR_INVALID_CONTEXT:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
        return UR_RESULT_ERROR_INVALID_CONTEXT;
    case CUDA_ERROR_INVALID_IMAGE:
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_INVALID_PTX:
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
    case CUDA_ERROR_INVALID_SOURCE:
        return UR_RESULT_ERROR_INVALID_BINARY;
    case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
    case CUDA_ERROR_JIT_COMPILATION_DISABLED:
        return UR_RESULT_ERROR_COMPILER_NOT_AVAILABLE;
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_NVLINK_UNCORRECTABLE:
        return UR_RESULT_ERROR_DEVICE_LOST;
    case CUDA_ERROR_INVALID_HANDLE:
        return UR_RESULT_ERROR_INVALID_ARGUMENT;
    case CUDA_ERROR_ILLEGAL_STATE:
    case CUDA_ERROR_NOT_PERMITTED:
    case CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE:
    case CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED:
    case CUDA_ERROR_PEER_ACCESS_NOT_ENABLED:
        return UR_RESULT_ERROR_INVALID_OPERATION;
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    case CUDA_ERROR_TOO_MANY_PEERS:
    case CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE:
        return UR_RESULT_ERROR_OUT_OF_RESOURCES;
    case CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED:
    case CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED:
        return UR_RESULT_ERROR_INVALID_HOST_PTR;
    case CUDA_ERROR_INVALID_CLUSTER_SIZE:
        return UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE;
    case CUDA_ERROR_NOT_SUPPORTED:
        return UR_RESULT_ERROR_UNSUPPORTED_FEATURE;
    case CUDA_ERROR_UNKNOWN:
        return UR_RESULT_ERROR_UNKNOWN;
    default:
        // Kernel faults (illegal address, trap, launch failure), timeouts and the rest have no
        // UR equivalent: the native code and message say what happened.
        return UR_RESULT_ERROR_ADAPTER_SPECIFIC;
    }
}

// CUDA has printed the device's assert message by the time a call returns 710, and the context
// is dead from then on. Delivery is common/program/assert_record.h's: abort (trapping first under a
// debugger) or, with URC_ASSERT_MODE=report, the result every urc adapter gives for a device
// assert (ADAPTER_SPECIFIC, native code URC_ERROR_DEVICE_ASSERT; the message names CUDA's
// 710). Only the first sighting is delivered; later calls on the dead context fail the same way.
static ur_result_t device_assert(const char *call) {
    static atomic_bool seen;
    char message[512];
    snprintf(message, sizeof message,
             "urc: a device assert fired: %s returned CUDA_ERROR_ASSERT (710); the CUDA context "
             "of this device is unusable from now on (every later call on it fails the same "
             "way, until the process ends)",
             call);
    if (!atomic_exchange(&seen, true)) {
        URC_LOG(cuda_log(), UR_LOGGER_LEVEL_ERROR, "%s", message);
        return urc_assert_deliver_native(message); // returns only in report mode
    }
    return urc_error_set(UR_RESULT_ERROR_ADAPTER_SPECIFIC, URC_ERROR_DEVICE_ASSERT, "%s", message);
}

// urc's own names for the results a driver may fail to name (a driver that has shut down
// answers cuGetErrorName with an error too). The spelling is cuda.h's.
static const char *own_name(CUresult r) {
#define NAME(e)                                                                                    \
    case e:                                                                                        \
        return #e;
    switch (r) {
        NAME(CUDA_SUCCESS)
        NAME(CUDA_ERROR_INVALID_VALUE)
        NAME(CUDA_ERROR_OUT_OF_MEMORY)
        NAME(CUDA_ERROR_NOT_INITIALIZED)
        NAME(CUDA_ERROR_DEINITIALIZED)
        NAME(CUDA_ERROR_STUB_LIBRARY)
        NAME(CUDA_ERROR_DEVICE_UNAVAILABLE)
        NAME(CUDA_ERROR_NO_DEVICE)
        NAME(CUDA_ERROR_INVALID_DEVICE)
        NAME(CUDA_ERROR_INVALID_IMAGE)
        NAME(CUDA_ERROR_INVALID_CONTEXT)
        NAME(CUDA_ERROR_CONTEXT_IS_DESTROYED)
        NAME(CUDA_ERROR_NO_BINARY_FOR_GPU)
        NAME(CUDA_ERROR_INVALID_PTX)
        NAME(CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
        NAME(CUDA_ERROR_INVALID_SOURCE)
        NAME(CUDA_ERROR_FILE_NOT_FOUND)
        NAME(CUDA_ERROR_INVALID_HANDLE)
        NAME(CUDA_ERROR_ILLEGAL_STATE)
        NAME(CUDA_ERROR_NOT_FOUND)
        NAME(CUDA_ERROR_NOT_READY)
        NAME(CUDA_ERROR_ILLEGAL_ADDRESS)
        NAME(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
        NAME(CUDA_ERROR_LAUNCH_TIMEOUT)
        NAME(CUDA_ERROR_LAUNCH_FAILED)
        NAME(CUDA_ERROR_ASSERT)
        NAME(CUDA_ERROR_NOT_PERMITTED)
        NAME(CUDA_ERROR_NOT_SUPPORTED)
        NAME(CUDA_ERROR_SYSTEM_NOT_READY)
        NAME(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)
        NAME(CUDA_ERROR_UNKNOWN)
    default:
        return "CUDA_ERROR_UNKNOWN_CODE";
    }
#undef NAME
}

ur_result_t cuda_error(CUresult r, const char *call) {
    if (r == CUDA_ERROR_ASSERT)
        return device_assert(call);
    const char *name = NULL, *text = NULL;
    if (cu.GetErrorName == NULL || cu.GetErrorName(r, &name) != CUDA_SUCCESS || name == NULL)
        name = own_name(r);
    if (cu.GetErrorString == NULL || cu.GetErrorString(r, &text) != CUDA_SUCCESS || text == NULL)
        text = "";
    ur_result_t result = map(r);
    // At process exit the driver may shut down before urc's teardown runs; every later call
    // then answers DEINITIALIZED. That is normal, so it is logged at debug level only.
    URC_LOG(cuda_log(),
            r == CUDA_ERROR_DEINITIALIZED ? UR_LOGGER_LEVEL_DEBUG : UR_LOGGER_LEVEL_ERROR,
            "%s failed: %s (%d): %s", call, name, (int)r, text);
    return urc_error_set(result, (int32_t)r, "%s failed: %s (%d): %s", call, name, (int)r, text);
}
