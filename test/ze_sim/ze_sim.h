// SPDX-License-Identifier: MIT
// Inspection API of the simulated Level Zero driver (libze_urc_sim.so), for tests only.
//
// The driver is loaded by the real Level Zero loader through ZE_ENABLE_ALT_DRIVERS. A test
// reaches the same instance by dlopen()ing the same path and looking these functions up
// (ze_sim_api_load below does both). Kernels never execute: a launch is only recorded, and
// these functions report what was recorded. See README.md for the whole simulation model.
#ifndef URC_TEST_ZE_SIM_ZE_SIM_H
#define URC_TEST_ZE_SIM_ZE_SIM_H

#include <level_zero/ze_api.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define ZE_SIM_EXPORT __attribute__((visibility("default")))
#else
#define ZE_SIM_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Bumped whenever a function or structure below changes.
#define ZE_SIM_API_VERSION 1
/// Kernel names longer than this are truncated in ze_sim_launch_t.
#define ZE_SIM_NAME_MAX 256
/// How many of the most recent launches are kept for zeSimGetLaunch.
#define ZE_SIM_LAUNCH_HISTORY 64

/// Places where a failure can be injected (each injection fires once).
typedef enum ze_sim_fail_point {
    ZE_SIM_FAIL_MODULE_CREATE,     ///< zeModuleCreate (a build log "injected failure" is made)
    ZE_SIM_FAIL_KERNEL_CREATE,     ///< zeKernelCreate
    ZE_SIM_FAIL_MEM_ALLOC,         ///< zeMemAllocHost/Device/Shared
    ZE_SIM_FAIL_MEMORY_COPY,       ///< zeCommandListAppendMemoryCopy (+ Region, FromContext)
    ZE_SIM_FAIL_MEMORY_FILL,       ///< zeCommandListAppendMemoryFill
    ZE_SIM_FAIL_LAUNCH,            ///< zeCommandListAppendLaunch*Kernel*
    ZE_SIM_FAIL_EXECUTE,           ///< zeCommandQueueExecuteCommandLists
    ZE_SIM_FAIL_CONTEXT_CREATE,    ///< zeContextCreate, zeContextCreateEx
    ZE_SIM_FAIL_EVENT_POOL_CREATE, ///< zeEventPoolCreate
    ZE_SIM_FAIL_DEVICE_STATUS,     ///< zeDeviceGetStatus (e.g. ZE_RESULT_ERROR_DEVICE_LOST)
    ZE_SIM_FAIL_COUNT
} ze_sim_fail_point_t;

/// Which append call produced a launch.
typedef enum ze_sim_launch_kind {
    ZE_SIM_LAUNCH_KERNEL,            ///< zeCommandListAppendLaunchKernel
    ZE_SIM_LAUNCH_COOPERATIVE,       ///< zeCommandListAppendLaunchCooperativeKernel
    ZE_SIM_LAUNCH_INDIRECT,          ///< zeCommandListAppendLaunchKernelIndirect
    ZE_SIM_LAUNCH_MULTIPLE_INDIRECT, ///< one entry per kernel of ...LaunchMultipleKernelsIndirect
} ze_sim_launch_kind_t;

/// One recorded launch. It is recorded when the command runs (append time for an immediate
/// list, zeCommandQueueExecuteCommandLists for a regular one, each time it is executed).
typedef struct ze_sim_launch {
    uint64_t sequence; ///< 1 for the first launch since load or zeSimReset
    ze_sim_launch_kind_t kind;
    char kernel_name[ZE_SIM_NAME_MAX];
    uint32_t group_count[3];   ///< read at run time for the indirect kinds
    uint32_t group_size[3];    ///< zeKernelSetGroupSize, else the required size, else 1,1,1
    uint32_t global_offset[3]; ///< zeKernelSetGlobalOffsetExp
    uint32_t num_args;         ///< the kernel's parameter count
    uint32_t num_args_set;     ///< how many of them had been set by zeKernelSetArgumentValue
} ze_sim_launch_t;

/// Returns ZE_SIM_API_VERSION of the loaded library.
ZE_SIM_EXPORT uint32_t zeSimGetApiVersion(void);
/// Forgets launches, build flags and pending injections; resets the hang guard to its default.
ZE_SIM_EXPORT void zeSimReset(void);
/// Number of launches recorded since load or the last zeSimReset.
ZE_SIM_EXPORT uint64_t zeSimGetLaunchCount(void);
/// Copies the launch `back` places before the newest (0 = newest). ZE_RESULT_ERROR_INVALID_ARGUMENT
/// when no such launch is kept, ZE_RESULT_ERROR_INVALID_NULL_POINTER for a NULL out.
ZE_SIM_EXPORT ze_result_t zeSimGetLaunch(uint32_t back, ze_sim_launch_t *out);
/// Copies the bytes an argument had at launch. *size is in/out: with value NULL it receives
/// the argument's size; otherwise at most *size bytes are copied and *size is set to the size.
/// *is_null (optional) is 1 when the argument was set with a NULL pArgValue (local memory).
/// ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX when the argument was never set.
ZE_SIM_EXPORT ze_result_t zeSimGetLaunchArg(uint32_t back, uint32_t index, size_t *size,
                                            void *value, int *is_null);
/// Makes the next call at `point` fail with `result` (ZE_RESULT_SUCCESS cancels it).
ZE_SIM_EXPORT void zeSimFailNext(ze_sim_fail_point_t point, ze_result_t result);
/// Cap for waits with an infinite timeout (UINT64_MAX); 0 restores the default (10 s, or
/// ZE_SIM_HANG_TIMEOUT_MS). A capped wait returns ZE_RESULT_NOT_READY and counts a trip.
ZE_SIM_EXPORT void zeSimSetHangTimeout(uint64_t nanoseconds);
/// How many infinite waits gave up at the cap since load or the last zeSimReset.
ZE_SIM_EXPORT uint64_t zeSimGetHangTrips(void);
/// Build flags given to the last zeModuleCreate, input `index` (0 without the program
/// extension). String query idiom: value NULL gives *size including the NUL.
ZE_SIM_EXPORT ze_result_t zeSimGetLastBuildFlags(uint32_t index, size_t *size, char *flags);
/// Live handles of any kind (contexts, queues, lists, events, pools, fences, modules, logs,
/// kernels, samplers), for leak checks in adapter tests.
ZE_SIM_EXPORT uint64_t zeSimGetLiveObjectCount(void);
/// Live USM allocations.
ZE_SIM_EXPORT uint64_t zeSimGetLiveAllocationCount(void);

/// The functions above as a table, for tests that reach the library through dlopen.
typedef struct ze_sim_api {
    void *library;
    uint32_t (*GetApiVersion)(void);
    void (*Reset)(void);
    uint64_t (*GetLaunchCount)(void);
    ze_result_t (*GetLaunch)(uint32_t back, ze_sim_launch_t *out);
    ze_result_t (*GetLaunchArg)(uint32_t back, uint32_t index, size_t *size, void *value,
                                int *is_null);
    void (*FailNext)(ze_sim_fail_point_t point, ze_result_t result);
    void (*SetHangTimeout)(uint64_t nanoseconds);
    uint64_t (*GetHangTrips)(void);
    ze_result_t (*GetLastBuildFlags)(uint32_t index, size_t *size, char *flags);
    uint64_t (*GetLiveObjectCount)(void);
    uint64_t (*GetLiveAllocationCount)(void);
} ze_sim_api_t;

#ifdef __cplusplus
}
#endif

// dlopen helpers are only compiled into users that ask for them (they need <dlfcn.h>, -ldl).
#ifdef ZE_SIM_WANT_API_LOADER
#include <dlfcn.h>
#include <string.h>

/// Looks one symbol up into a function-pointer field; 0 on success.
static inline int ze_sim_api_sym(void *library, const char *name, void *field) {
    void *sym = dlsym(library, name);
    if (!sym)
        return -1;
    // Object and function pointers share a representation on every dlsym platform.
    memcpy(field, &sym, sizeof(sym));
    return 0;
}

/// Opens `path` (the same path given to ZE_ENABLE_ALT_DRIVERS, so the loader's instance is
/// shared) and fills *api. Returns 0 on success, -1 when the library or a symbol is missing.
static inline int ze_sim_api_load(ze_sim_api_t *api, const char *path) {
    memset(api, 0, sizeof(*api));
    api->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!api->library)
        return -1;
    void *lib = api->library;
    if (ze_sim_api_sym(lib, "zeSimGetApiVersion", &api->GetApiVersion) ||
        ze_sim_api_sym(lib, "zeSimReset", &api->Reset) ||
        ze_sim_api_sym(lib, "zeSimGetLaunchCount", &api->GetLaunchCount) ||
        ze_sim_api_sym(lib, "zeSimGetLaunch", &api->GetLaunch) ||
        ze_sim_api_sym(lib, "zeSimGetLaunchArg", &api->GetLaunchArg) ||
        ze_sim_api_sym(lib, "zeSimFailNext", &api->FailNext) ||
        ze_sim_api_sym(lib, "zeSimSetHangTimeout", &api->SetHangTimeout) ||
        ze_sim_api_sym(lib, "zeSimGetHangTrips", &api->GetHangTrips) ||
        ze_sim_api_sym(lib, "zeSimGetLastBuildFlags", &api->GetLastBuildFlags) ||
        ze_sim_api_sym(lib, "zeSimGetLiveObjectCount", &api->GetLiveObjectCount) ||
        ze_sim_api_sym(lib, "zeSimGetLiveAllocationCount", &api->GetLiveAllocationCount))
        return -1;
    return api->GetApiVersion() == ZE_SIM_API_VERSION ? 0 : -1;
}
#endif // ZE_SIM_WANT_API_LOADER

#endif // URC_TEST_ZE_SIM_ZE_SIM_H
