// SPDX-License-Identifier: MIT
#include "cuda_driver.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "env/log.h"

cuda_driver_t cu;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static bool loaded;
static char failure[256];

// An optional function: its current symbol, else an older export with the same signature.
static void *resolve_optional(void *lib, const char *symbol, const char *older) {
    void *fn = dlsym(lib, symbol);
    if (fn == NULL && older != NULL)
        fn = dlsym(lib, older);
    return fn;
}

static void load(void) {
    urc_logger_t *lg = urc_logger(URC_ENV_LOG_CUDA);
    // RTLD_LOCAL keeps the driver's symbols out of the global namespace; the table is the only
    // way in. The handle is never closed: the driver cannot be unloaded safely while any of
    // its threads may still run.
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        snprintf(failure, sizeof failure, "libcuda.so.1 not loadable: %s", dlerror());
        URC_LOG(lg, UR_LOGGER_LEVEL_INFO, "%s", failure);
        return;
    }
#define CUDA_DRIVER_RESOLVE(field, type, symbol)                                                   \
    cu.field = (type)dlsym(lib, symbol);                                                           \
    if (cu.field == NULL) {                                                                        \
        snprintf(failure, sizeof failure, "libcuda.so.1 lacks %s", symbol);                        \
        URC_LOG(lg, UR_LOGGER_LEVEL_INFO, "%s", failure);                                          \
        return;                                                                                    \
    }
    CUDA_DRIVER_REQUIRED(CUDA_DRIVER_RESOLVE)
#undef CUDA_DRIVER_RESOLVE
#define CUDA_DRIVER_RESOLVE_OPTIONAL(field, type, symbol, older)                                   \
    cu.field = (type)resolve_optional(lib, symbol, older);
    CUDA_DRIVER_OPTIONAL(CUDA_DRIVER_RESOLVE_OPTIONAL)
    CUDA_DRIVER_BINDLESS(CUDA_DRIVER_RESOLVE_OPTIONAL)
#undef CUDA_DRIVER_RESOLVE_OPTIONAL
    if (cu.EventElapsedTime == NULL) {
        snprintf(failure, sizeof failure, "libcuda.so.1 lacks cuEventElapsedTime");
        return;
    }
    cuda_usm_lookup_wrap_driver();
    loaded = true;
}

bool cuda_driver_load(void) {
    pthread_once(&load_once, load);
    return loaded;
}

const char *cuda_driver_failure(void) {
    return failure;
}
