// SPDX-License-Identifier: MIT
#include "env/env.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "core/alloc.h"

static const urc_env_info_t table[URC_ENV_COUNT] = {
    [URC_ENV_ADAPTERS_FORCE_LOAD] = {"UR_ADAPTERS_FORCE_LOAD", true,
                                     "comma list of adapter libraries; replaces all discovery"},
    [URC_ENV_ADAPTERS_SEARCH_PATH] = {"UR_ADAPTERS_SEARCH_PATH", true,
                                      "comma list of folders searched first for adapters"},
    [URC_ENV_ADAPTERS_DEEP_BIND] = {"UR_ADAPTERS_DEEP_BIND", false,
                                    "boolean: open adapters with RTLD_DEEPBIND"},
    [URC_ENV_LOADER_PRELOAD_FILTER] = {"UR_LOADER_PRELOAD_FILTER", false,
                                       "boolean (default true): skip adapters the device "
                                       "selector excludes"},
    [URC_ENV_ENABLE_LOADER_INTERCEPT] = {"UR_ENABLE_LOADER_INTERCEPT", false,
                                         "accepted for UR compatibility; urc always dispatches "
                                         "through the handle"},
    [URC_ENV_ENABLE_LAYERS] = {"UR_ENABLE_LAYERS", false,
                               "comma list of layers (tracing, leak checking)"},
    [URC_ENV_DEVICE_SELECTOR] = {"ONEAPI_DEVICE_SELECTOR", false,
                                 "which backends and devices urDeviceGetSelected returns"},
    [URC_ENV_LOG_LOADER] = {"UR_LOG_LOADER", false, "loader logging (see Logging)"},
    [URC_ENV_LOG_OPENCL] = {"UR_LOG_OPENCL", false, "OpenCL adapter logging"},
    [URC_ENV_LOG_CUDA] = {"UR_LOG_CUDA", false, "CUDA adapter logging (default level error)"},
    [URC_ENV_LOG_LEVEL_ZERO] = {"UR_LOG_LEVEL_ZERO", false, "Level Zero adapter logging"},
    [URC_ENV_SUPPRESS_ERROR_MESSAGE] = {"UR_SUPPRESS_ERROR_MESSAGE", false,
                                        "boolean: silence the CUDA adapter's default error log"},
    [URC_ENV_ASSERT_MODE] = {"URC_ASSERT_MODE", false,
                             "abort (default) or report: what a device assert does"},
    [URC_ENV_MASK_ASPECTS] = {"URC_MASK_ASPECTS", false,
                              "comma list of SYCL aspects (names or numbers) devices pretend "
                              "to lack"},
    [URC_ENV_L0_IMMEDIATE_COMMANDLISTS] = {"UR_L0_USE_IMMEDIATE_COMMANDLISTS", false,
                                           "boolean (default true): Level Zero immediate "
                                           "command lists"},
    [URC_ENV_OPENCL_FORCE_FALLBACK_ASSERT] = {"URC_OPENCL_FORCE_FALLBACK_ASSERT", false,
                                              "boolean (test use): OpenCL devices ignore "
                                              "cl_intel_devicelib_assert and use the fallback"},
    [URC_ENV_OPENCL_FORCE_COMMAND_BUFFER_REPLAY] = {"URC_OPENCL_FORCE_COMMAND_BUFFER_REPLAY", false,
                                                    "boolean (test use): OpenCL command buffers "
                                                    "are recorded and replayed even where "
                                                    "cl_khr_command_buffer is usable"},
    [URC_ENV_LOG_TRACING] = {"UR_LOG_TRACING", false,
                             "where call tracing goes (with UR_ENABLE_LAYERS=UR_LAYER_TRACING)"},
    [URC_ENV_TRACE_FILE] = {"URC_TRACE_FILE", true,
                            "path of a Chrome trace-event JSON timeline of every call"},
    [URC_ENV_CUDA_SPIRV_PTX] = {"URC_CUDA_SPIRV_PTX", true,
                                "the SPIR-V to PTX helper the CUDA adapter runs (default "
                                "urc/urc-spirv-ptx next to the adapter library)"},
    [URC_ENV_CUDA_LIBCLC] = {"URC_CUDA_LIBCLC", true,
                             "libclc's nvptx64--nvidiacl.bc for SPIR-V on CUDA (default "
                             "/usr/lib/clc, then urc/ next to the adapter library)"},
    [URC_ENV_CUDA_BUILTINS] = {"URC_CUDA_BUILTINS", true,
                               "urc's builtins bitcode for SPIR-V on CUDA (default "
                               "urc/urc_builtins.nvptx64.bc next to the adapter library)"},
    [URC_ENV_SPIRV_CACHE] = {"URC_SPIRV_CACHE", false,
                             "boolean (default true): keep PTX translated from SPIR-V under "
                             "$XDG_CACHE_HOME/urc"},
    [URC_ENV_XDG_CACHE_HOME] = {"XDG_CACHE_HOME", true,
                                "where the SPIR-V translation cache lives (urc/ under it)"},
    [URC_ENV_HOME] = {"HOME", true, "the cache's default parent, $HOME/.cache"},
};

typedef struct snapshot_t {
    char *values[URC_ENV_COUNT];
    struct snapshot_t *retired_next; // older snapshots stay valid until exit
} snapshot_t;

static _Atomic(snapshot_t *) current;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t reload_lock = PTHREAD_MUTEX_INITIALIZER;

static snapshot_t *take_snapshot(void) {
    snapshot_t *s = URC_NEW(snapshot_t);
    if (s == NULL)
        return NULL;
    for (int i = 0; i < URC_ENV_COUNT; ++i) {
        const char *v = table[i].is_path ? secure_getenv(table[i].name) : getenv(table[i].name);
        s->values[i] = (v != NULL && v[0] != '\0') ? urc_strdup(v) : NULL;
    }
    return s;
}

// A destructor, not atexit: in an adapter it must run when the library is unloaded, and
// sanitizer runtimes intercept atexit without tying the handler to the library.
__attribute__((destructor)) static void free_snapshots(void) {
    snapshot_t *s = atomic_exchange(&current, NULL);
    while (s != NULL) {
        snapshot_t *next = s->retired_next;
        for (int i = 0; i < URC_ENV_COUNT; ++i)
            free(s->values[i]);
        free(s);
        s = next;
    }
}

static void first_read(void) {
    atomic_store(&current, take_snapshot());
}

const char *urc_env_get(urc_env_id_t id) {
    pthread_once(&once, first_read);
    snapshot_t *s = atomic_load_explicit(&current, memory_order_acquire);
    return (s != NULL && (unsigned)id < URC_ENV_COUNT) ? s->values[id] : NULL;
}

char *urc_env_read_now(urc_env_id_t id) {
    if ((unsigned)id >= URC_ENV_COUNT)
        return NULL;
    const char *v = table[id].is_path ? secure_getenv(table[id].name) : getenv(table[id].name);
    return (v != NULL && v[0] != '\0') ? urc_strdup(v) : NULL;
}

void urc_env_reload(void) {
    pthread_once(&once, first_read);
    snapshot_t *fresh = take_snapshot();
    if (fresh == NULL)
        return; // keep the old values rather than lose them
    // Readers may still hold pointers into the old snapshot, so it is chained, not freed.
    pthread_mutex_lock(&reload_lock);
    fresh->retired_next = atomic_load(&current);
    atomic_store_explicit(&current, fresh, memory_order_release);
    pthread_mutex_unlock(&reload_lock);
}

bool urc_env_bool(urc_env_id_t id, bool fallback) {
    static const char *const yes[] = {"1", "y", "yes", "t", "true", "on"};
    static const char *const no[] = {"0", "n", "no", "f", "false", "off"};
    const char *v = urc_env_get(id);
    if (v == NULL)
        return fallback;
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; ++i)
        if (strcasecmp(v, yes[i]) == 0)
            return true;
    for (size_t i = 0; i < sizeof no / sizeof no[0]; ++i)
        if (strcasecmp(v, no[i]) == 0)
            return false;
    fprintf(stderr, "urc: %s=\"%s\" is not a boolean (use 1/0, true/false, yes/no); using %s\n",
            table[id].name, v, fallback ? "true" : "false");
    return fallback;
}

const urc_env_info_t *urc_env_table(size_t *count) {
    *count = URC_ENV_COUNT;
    return table;
}
