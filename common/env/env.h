// SPDX-License-Identifier: MIT
// Every environment variable urc reads, read in one place. Values are read once (and again
// when the loader re-initialises after a full teardown); variables naming files or folders
// are read with secure_getenv so a set-uid program ignores them. docs/environment.md lists
// them all.
#ifndef URC_COMMON_ENV_ENV_H
#define URC_COMMON_ENV_ENV_H

#include <stdbool.h>
#include <stddef.h>

typedef enum urc_env_id_t {
    URC_ENV_ADAPTERS_FORCE_LOAD,                // UR_ADAPTERS_FORCE_LOAD
    URC_ENV_ADAPTERS_SEARCH_PATH,               // UR_ADAPTERS_SEARCH_PATH
    URC_ENV_ADAPTERS_DEEP_BIND,                 // UR_ADAPTERS_DEEP_BIND
    URC_ENV_LOADER_PRELOAD_FILTER,              // UR_LOADER_PRELOAD_FILTER
    URC_ENV_ENABLE_LOADER_INTERCEPT,            // UR_ENABLE_LOADER_INTERCEPT
    URC_ENV_ENABLE_LAYERS,                      // UR_ENABLE_LAYERS
    URC_ENV_DEVICE_SELECTOR,                    // ONEAPI_DEVICE_SELECTOR
    URC_ENV_LOG_LOADER,                         // UR_LOG_LOADER
    URC_ENV_LOG_OPENCL,                         // UR_LOG_OPENCL
    URC_ENV_LOG_CUDA,                           // UR_LOG_CUDA
    URC_ENV_LOG_LEVEL_ZERO,                     // UR_LOG_LEVEL_ZERO
    URC_ENV_SUPPRESS_ERROR_MESSAGE,             // UR_SUPPRESS_ERROR_MESSAGE
    URC_ENV_ASSERT_MODE,                        // URC_ASSERT_MODE
    URC_ENV_MASK_ASPECTS,                       // URC_MASK_ASPECTS
    URC_ENV_L0_IMMEDIATE_COMMANDLISTS,          // UR_L0_USE_IMMEDIATE_COMMANDLISTS
    URC_ENV_OPENCL_FORCE_FALLBACK_ASSERT,       // URC_OPENCL_FORCE_FALLBACK_ASSERT
    URC_ENV_OPENCL_FORCE_COMMAND_BUFFER_REPLAY, // URC_OPENCL_FORCE_COMMAND_BUFFER_REPLAY
    URC_ENV_LOG_TRACING,                        // UR_LOG_TRACING
    URC_ENV_TRACE_FILE,                         // URC_TRACE_FILE
    URC_ENV_CUDA_SPIRV_PTX,                     // URC_CUDA_SPIRV_PTX
    URC_ENV_CUDA_LIBCLC,                        // URC_CUDA_LIBCLC
    URC_ENV_CUDA_BUILTINS,                      // URC_CUDA_BUILTINS
    URC_ENV_SPIRV_CACHE,                        // URC_SPIRV_CACHE
    URC_ENV_XDG_CACHE_HOME,                     // XDG_CACHE_HOME
    URC_ENV_HOME,                               // HOME
    URC_ENV_COUNT
} urc_env_id_t;

typedef struct urc_env_info_t {
    const char *name;
    bool is_path; // read with secure_getenv
    const char *summary;
} urc_env_info_t;

/// The value of a variable, or NULL when it is unset or empty (empty counts as unset).
const char *urc_env_get(urc_env_id_t id);

/// A boolean variable: 1, y, yes, t, true, on (any case) are true; 0, n, no, f, false, off
/// are false; unset gives `fallback`; anything else logs a warning and gives `fallback`.
bool urc_env_bool(urc_env_id_t id, bool fallback);

/// The variable's value now, not the snapshot: a copy the caller frees, or NULL when it is
/// unset or empty. For the variables UR reads at every use (ONEAPI_DEVICE_SELECTOR in
/// urDeviceGetSelected), which programs and harnesses change with setenv between calls.
char *urc_env_read_now(urc_env_id_t id);

/// Reads the environment again (the loader does this when it initialises after a teardown).
void urc_env_reload(void);

/// The table of every variable, for scripts/check-readme and `urinfo --env`.
const urc_env_info_t *urc_env_table(size_t *count);

#endif // URC_COMMON_ENV_ENV_H
