// SPDX-License-Identifier: MIT
// The layers' shared path: which are on, and what each call does while they are. Tracing
// prints UR's two lines per call on the TRACING logger ("   ---> urX" before the call,
// "   <--- urX(<arguments>) -> <result>;" after it, here followed by the call's duration);
// the timeline records one slice per call (loader/timeline.c); leaks are in loader/leaks.c.
#include "intercept.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "env/env.h"
#include "loader.h"
#include "env/log.h"
#include "print_text.h"
#include "timeline.h"

atomic_uint urc_layers;

static const struct {
    const char *name;
    unsigned bit;
} layer_names[] = {
    {"UR_LAYER_PARAMETER_VALIDATION", URC_LAYER_BUILTIN},
    {"UR_LAYER_TRACING", URC_LAYER_TRACING},
    {"UR_LAYER_LEAK_CHECKING", URC_LAYER_LEAKS},
    {"UR_LAYER_LIFETIME_VALIDATION", URC_LAYER_LEAKS},
    // Full validation is parameter validation (built in) plus leak and lifetime checking.
    {"UR_LAYER_FULL_VALIDATION", URC_LAYER_LEAKS},
};

unsigned urc_layer_bit(const char *name) {
    for (size_t i = 0; i < sizeof layer_names / sizeof layer_names[0]; ++i)
        if (strcmp(name, layer_names[i].name) == 0)
            return layer_names[i].bit;
    return 0;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static urc_logger_t *tracing_log(void) {
    return urc_logger(URC_ENV_LOG_TRACING);
}

// UR_ENABLE_LAYERS is a comma (or semicolon) separated list of layer names.
static unsigned layers_from_env(urc_logger_t *lg) {
    const char *value = urc_env_get(URC_ENV_ENABLE_LAYERS);
    unsigned bits = 0;
    if (value == NULL)
        return 0;
    char *copy = strdup(value);
    if (copy == NULL)
        return 0;
    char *save = NULL;
    for (char *name = strtok_r(copy, ",; ", &save); name != NULL;
         name = strtok_r(NULL, ",; ", &save)) {
        unsigned bit = urc_layer_bit(name);
        if (bit == 0)
            URC_LOG(lg, UR_LOGGER_LEVEL_WARN, "UR_ENABLE_LAYERS: urc has no layer '%s'", name);
        bits |= bit;
    }
    free(copy);
    return bits & ~URC_LAYER_BUILTIN;
}

static void stop(bool adapters_alive);

// At exit (or when the loader is unloaded) without a last urLoaderTearDown: the report and
// the file still come out. A destructor, not atexit, as in common/env/log.c.
__attribute__((destructor)) static void stop_at_exit(void) {
    stop(false);
}

void urc_layers_start(unsigned config_layers) {
    urc_logger_t *lg = urc_loader_log();
    unsigned bits = layers_from_env(lg) | (config_layers & ~URC_LAYER_BUILTIN);
    urc_log_reconfigure(tracing_log());
    if (urc_timeline_open())
        bits |= URC_LAYER_TIMELINE;
    if (bits & URC_LAYER_LEAKS)
        urc_leak_reset();
    atomic_store(&urc_layers, bits);
    if (bits != 0)
        URC_LOG(lg, UR_LOGGER_LEVEL_INFO, "layers on:%s%s%s",
                (bits & URC_LAYER_TRACING) ? " tracing" : "",
                (bits & URC_LAYER_LEAKS) ? " leak checking" : "",
                (bits & URC_LAYER_TIMELINE) ? " timeline" : "");
}

// `adapters_alive`: false at exit, where the adapters may already be gone.
static void stop(bool adapters_alive) {
    unsigned bits = atomic_exchange(&urc_layers, 0);
    if (bits & URC_LAYER_TRACING)
        urc_log_flush(tracing_log());
    if (bits & URC_LAYER_LEAKS)
        urc_leak_report();
    if (bits & URC_LAYER_TIMELINE)
        urc_timeline_close(adapters_alive);
}

void urc_layers_stop(void) {
    stop(true);
}

void urc_intercept_begin(urc_call_t *call, ur_function_t function, const char *name,
                         const void *params) {
    call->function = function;
    call->name = name;
    call->params = params;
    if (urc_layer_on(URC_LAYER_TRACING)) {
        urc_logger_t *lg = tracing_log();
        if (urc_log_enabled(lg, UR_LOGGER_LEVEL_INFO)) {
            char line[160];
            snprintf(line, sizeof line, "   ---> %s\n", name);
            urc_log_write_raw(lg, UR_LOGGER_LEVEL_INFO, line);
        }
    }
    call->start_ns = now_ns();
}

void urc_intercept_end(urc_call_t *call, ur_result_t result) {
    uint64_t end = now_ns();
    uint64_t took = end - call->start_ns;
    if (urc_layer_on(URC_LAYER_TIMELINE))
        urc_timeline_call(call->name, call->start_ns, end, result);
    if (!urc_layer_on(URC_LAYER_TRACING))
        return;
    urc_logger_t *lg = tracing_log();
    if (!urc_log_enabled(lg, UR_LOGGER_LEVEL_INFO))
        return;
    urc_str_t s;
    urc_str_init(&s);
    urc_str_printf(&s, "   <--- %s(", call->name);
    if (call->params != NULL)
        urc_print_params(&s, call->function, call->params);
    urc_str_printf(&s, ") -> %s; (%llu.%03llu us)\n", urc_result_name(result),
                   (unsigned long long)(took / 1000), (unsigned long long)(took % 1000));
    urc_log_write_raw(lg, UR_LOGGER_LEVEL_INFO, urc_str_text(&s));
    urc_str_free(&s);
}
