// SPDX-License-Identifier: MIT
// The fake adapter's inspection API. The loader opens a fake adapter with RTLD_LOCAL; a test
// opens the same file again (the dynamic linker hands back the same copy) and reaches these
// functions with dlsym, to shape the fake before the loader uses it and to see what reached it.
#ifndef URC_TEST_LOADER_FAKE_INSPECT_H
#define URC_TEST_LOADER_FAKE_INSPECT_H

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>

#include "ur_api.h"

#define FAKE_MAX_PLATFORMS 4
#define FAKE_MAX_DEVICES   8 // root devices per platform
#define FAKE_MAX_PARTS     4 // sub-devices per device

/// What the fake pretends to have: every platform has the same root devices.
typedef struct fake_topology_t {
    uint32_t platforms;                       // 1..FAKE_MAX_PLATFORMS
    uint32_t devices;                         // root devices per platform, 0..FAKE_MAX_DEVICES
    ur_device_type_t types[FAKE_MAX_DEVICES]; // type of root device i
    uint32_t subs;                            // sub-devices per root (0: cannot partition)
    uint32_t subsubs;                         // sub-devices per sub-device
} fake_topology_t;

/// The functions a test reaches; see fake.c for each.
typedef struct fake_api_t {
    void *lib;
    const char *tag; // "a" or "b": which build of the fake this is
    ur_backend_t backend;
    void (*configure)(const fake_topology_t *topology);
    void (*fail_getter)(const char *table, ur_result_t result);
    void (*reset_calls)(void);
    uint32_t (*calls)(uint32_t slot);
    const void *(*last_route)(uint32_t slot);
    void *(*generic_handle)(void);
    int32_t (*outstanding_refs)(void);
    uint32_t (*adapter_refcount)(void);
    void (*log)(ur_logger_level_t level, const char *message);
} fake_api_t;

/// Opens the fake at `path` (another reference to the copy the loader has, if any).
static inline bool fake_api_open(const char *path, fake_api_t *api) {
    api->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (api->lib == NULL)
        return false;
#define FAKE_SYM(field, name) *(void **)(&api->field) = dlsym(api->lib, name)
    FAKE_SYM(configure, "fake_configure");
    FAKE_SYM(fail_getter, "fake_fail_getter");
    FAKE_SYM(reset_calls, "fake_reset_calls");
    FAKE_SYM(calls, "fake_calls");
    FAKE_SYM(last_route, "fake_last_route");
    FAKE_SYM(generic_handle, "fake_generic_handle");
    FAKE_SYM(outstanding_refs, "fake_outstanding_refs");
    FAKE_SYM(adapter_refcount, "fake_adapter_refcount");
    FAKE_SYM(log, "fake_log");
#undef FAKE_SYM
    const char **tag = dlsym(api->lib, "fake_tag");
    const ur_backend_t *backend = dlsym(api->lib, "fake_backend");
    api->tag = tag != NULL ? *tag : "?";
    api->backend = backend != NULL ? *backend : UR_BACKEND_UNKNOWN;
    return api->configure != NULL && api->log != NULL;
}

static inline void fake_api_close(fake_api_t *api) {
    if (api->lib != NULL)
        dlclose(api->lib);
    api->lib = NULL;
}

#endif // URC_TEST_LOADER_FAKE_INSPECT_H
