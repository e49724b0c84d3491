// SPDX-License-Identifier: MIT
// urc's layers: call tracing (UR_LAYER_TRACING + UR_LOG_TRACING), the Chrome trace timeline
// (URC_TRACE_FILE) and leak and lifetime checking (UR_LAYER_LEAK_CHECKING, or the full
// validation layer). All are off by default; each exported entry point then pays one
// predicted branch on a relaxed load (urc_intercepting) and nothing else.
#ifndef URC_LOADER_INTERCEPT_H
#define URC_LOADER_INTERCEPT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ur_api.h"

enum {
    URC_LAYER_TRACING = 1u << 0,
    URC_LAYER_LEAKS = 1u << 1,
    URC_LAYER_TIMELINE = 1u << 2,
};

/// The layers on now (a URC_LAYER_* set); written only by urLoaderInit / urLoaderTearDown.
extern atomic_uint urc_layers;

static inline bool urc_intercepting(void) {
    return __builtin_expect(atomic_load_explicit(&urc_layers, memory_order_relaxed) != 0, 0);
}

static inline bool urc_layer_on(unsigned layer) {
    return (atomic_load_explicit(&urc_layers, memory_order_relaxed) & layer) != 0;
}

/// The URC_LAYER_* bit of a layer name urc implements, 0 for one it does not know. The
/// parameter validation layer is always on and has no bit (URC_LAYER_BUILTIN).
#define URC_LAYER_BUILTIN (1u << 31)
unsigned urc_layer_bit(const char *name);

/// At the first urLoaderInit: switches on the layers named by UR_ENABLE_LAYERS, by the
/// configuration (`config_layers`, from urLoaderConfigEnableLayer) and by URC_TRACE_FILE.
void urc_layers_start(unsigned config_layers);
/// At the last urLoaderTearDown (and at exit): the leak report, the timeline file; then off.
void urc_layers_stop(void);

/// One call seen by the layers.
typedef struct urc_call_t {
    ur_function_t function;
    const char *name;
    const void *params;
    uint64_t start_ns;
} urc_call_t;

void urc_intercept_begin(urc_call_t *call, ur_function_t function, const char *name,
                         const void *params);
void urc_intercept_end(urc_call_t *call, ur_result_t result);

/// The leak checker (loader/leaks.c), fed by the generated intercepts.
void urc_leak_created(const char *kind, const void *handle, const char *creator);
void urc_leak_retained(const void *handle, const char *where);
void urc_leak_released(const void *handle, const char *where);
void urc_leak_use(const void *handle, const char *where);
void urc_leak_report(void);
void urc_leak_reset(void);

#endif // URC_LOADER_INTERCEPT_H
