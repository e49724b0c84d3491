// SPDX-License-Identifier: MIT
#include "env/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/alloc.h"
#include "env/kvparse.h"

struct urc_logger_t {
    urc_env_id_t variable;
    const char *name;  // "LOADER", from the variable's name
    atomic_bool ready; // configured from its variable
    atomic_int level;
    atomic_int flush_level;
    atomic_int callback_level;
    pthread_mutex_t lock; // one message at a time, and guards the fields below
    FILE *out;
    bool owns_out;
    bool fileline;
    bool valid;
    char output[512];
    ur_logger_callback_t callback;
    void *callback_data;
    // What the settings were made from, so an unchanged variable keeps its open file.
    bool configured;
    char *configured_spec;
    int configured_default;
};

#define LOGGER(v)                                                                                  \
    {                                                                                              \
        .variable = (v), .level = UR_LOGGER_LEVEL_QUIET, .flush_level = UR_LOGGER_LEVEL_ERROR,     \
        .callback_level = UR_LOGGER_LEVEL_QUIET, .lock = PTHREAD_MUTEX_INITIALIZER                 \
    }
static urc_logger_t loggers[] = {LOGGER(URC_ENV_LOG_LOADER), LOGGER(URC_ENV_LOG_OPENCL),
                                 LOGGER(URC_ENV_LOG_CUDA), LOGGER(URC_ENV_LOG_LEVEL_ZERO),
                                 LOGGER(URC_ENV_LOG_TRACING)};

static const char *const level_names[] = {"debug", "info", "warning", "error", "quiet"};
static const char *const level_tags[] = {"DEBUG", "INFO", "WARNING", "ERROR", "QUIET"};

typedef struct settings_t {
    int level, flush;
    bool fileline;
    FILE *out;
    bool owns_out;
    char output[512];
} settings_t;

static bool parse_level(const urc_kv_entry_t *e, int *level, char *err, size_t size) {
    // UR reads the first value only; a level given as a list is unusual but not an error.
    for (int i = 0; i <= UR_LOGGER_LEVEL_QUIET; ++i)
        if (e->count > 0 && strcmp(e->values[0], level_names[i]) == 0) {
            *level = i;
            return true;
        }
    snprintf(err, size, "'%s' is not a level (debug, info, warning, error, quiet)",
             e->count > 0 ? e->values[0] : "");
    return false;
}

static bool parse_bool(const char *v) {
    static const char *const yes[] = {"y", "yes", "t", "true", "1"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; ++i)
        if (strcasecmp(v, yes[i]) == 0)
            return true;
    return false;
}

static bool parse_output(const urc_kv_entry_t *e, settings_t *s, char *err, size_t size) {
    const char *sink = e->count > 0 ? e->values[0] : "";
    if ((strcmp(sink, "stdout") == 0 || strcmp(sink, "stderr") == 0) && e->count == 1) {
        s->out = sink[3] == 'o' ? stdout : stderr;
        snprintf(s->output, sizeof s->output, "%s", sink);
        return true;
    }
    if (strcmp(sink, "file") == 0 && e->count == 2 && e->values[1][0] != '\0') {
        // Appending, not truncating: loggers of several libraries may share one file and
        // a re-initialised loader must not wipe what was written before.
        FILE *f = fopen(e->values[1], "a");
        if (f == NULL) {
            snprintf(err, size, "cannot open log file '%s'", e->values[1]);
            return false;
        }
        s->out = f;
        s->owns_out = true;
        snprintf(s->output, sizeof s->output, "file,%s", e->values[1]);
        return true;
    }
    snprintf(err, size, "output must be stdout, stderr or file,<path>");
    return false;
}

// Reads a UR_LOG_<NAME> value into `s`; false (and `err`) when it is malformed.
static bool parse_spec(const char *spec, settings_t *s, char *err, size_t size) {
    urc_kv_map_t map;
    urc_kv_options_t opt = {.reject_empty = true, .allow_duplicate = false, .lower = false};
    if (!urc_kv_parse_map(spec, opt, &map, err, size))
        return false;
    bool ok = true;
    for (size_t i = 0; ok && i < map.count; ++i) {
        const urc_kv_entry_t *e = &map.entries[i];
        if (strcmp(e->key, "level") == 0)
            ok = parse_level(e, &s->level, err, size);
        else if (strcmp(e->key, "flush") == 0)
            ok = parse_level(e, &s->flush, err, size);
        else if (strcmp(e->key, "fileline") == 0)
            s->fileline = e->count > 0 && parse_bool(e->values[0]);
        else if (strcmp(e->key, "output") == 0)
            ok = parse_output(e, s, err, size); // the parser allows each key once
        else {
            snprintf(err, size, "unknown key '%s' (level, flush, fileline, output)", e->key);
            ok = false;
        }
    }
    urc_kv_map_free(&map);
    return ok;
}

static int default_level(const urc_logger_t *lg) {
    if (lg->variable == URC_ENV_LOG_CUDA && !urc_env_bool(URC_ENV_SUPPRESS_ERROR_MESSAGE, false))
        return UR_LOGGER_LEVEL_ERROR;
    // The tracing logger speaks only while UR_LAYER_TRACING is on; asking for the layer is
    // asking for its output, so without UR_LOG_TRACING it goes to stderr.
    if (lg->variable == URC_ENV_LOG_TRACING)
        return UR_LOGGER_LEVEL_INFO;
    return UR_LOGGER_LEVEL_QUIET;
}

static bool same_spec(const char *a, const char *b) {
    return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static void configure(urc_logger_t *lg) {
    const char *var = urc_env_table(&(size_t){0})[lg->variable].name;
    const char *spec = urc_env_get(lg->variable);
    int dflt = default_level(lg);
    pthread_mutex_lock(&lg->lock);
    bool unchanged =
        lg->configured && dflt == lg->configured_default && same_spec(spec, lg->configured_spec);
    pthread_mutex_unlock(&lg->lock);
    if (unchanged)
        return;

    settings_t s = {.level = dflt, .flush = UR_LOGGER_LEVEL_ERROR, .out = stderr};
    snprintf(s.output, sizeof s.output, "stderr");
    char err[256] = "";
    bool valid = spec == NULL || parse_spec(spec, &s, err, sizeof err);
    if (!valid) {
        fprintf(stderr, "urc: %s=\"%s\": %s; logging stays at its defaults\n", var, spec, err);
        if (s.owns_out)
            fclose(s.out);
        s = (settings_t){.level = dflt, .flush = UR_LOGGER_LEVEL_ERROR, .out = stderr};
        snprintf(s.output, sizeof s.output, "stderr");
    }

    char *saved = urc_strdup(spec);
    pthread_mutex_lock(&lg->lock);
    if (lg->owns_out && lg->out != NULL)
        fclose(lg->out);
    lg->out = s.out;
    lg->owns_out = s.owns_out;
    lg->fileline = s.fileline;
    lg->valid = valid;
    memcpy(lg->output, s.output, sizeof lg->output);
    free(lg->configured_spec);
    lg->configured_spec = saved;
    lg->configured_default = dflt;
    lg->configured = spec == NULL || saved != NULL; // a failed copy means "look again next time"
    atomic_store(&lg->level, s.level);
    atomic_store(&lg->flush_level, s.flush);
    pthread_mutex_unlock(&lg->lock);
}

// Log files are closed when the library is unloaded or the process exits. A destructor, not
// atexit: sanitizer runtimes intercept atexit without tying the handler to the library, and
// would call it after an adapter is unloaded.
__attribute__((destructor)) static void close_all(void) {
    for (size_t i = 0; i < sizeof loggers / sizeof loggers[0]; ++i) {
        urc_logger_t *lg = &loggers[i];
        pthread_mutex_lock(&lg->lock);
        if (lg->owns_out && lg->out != NULL)
            fclose(lg->out);
        lg->out = NULL;
        lg->owns_out = false;
        URC_FREE(lg->configured_spec);
        lg->configured = false;
        atomic_store(&lg->level, UR_LOGGER_LEVEL_QUIET);
        pthread_mutex_unlock(&lg->lock);
    }
}

static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;

urc_logger_t *urc_logger(urc_env_id_t log_variable) {
    urc_logger_t *lg = &loggers[0];
    for (size_t i = 0; i < sizeof loggers / sizeof loggers[0]; ++i)
        if (loggers[i].variable == log_variable)
            lg = &loggers[i];
    // Each logger reads its variable on first use only, so a library opens no log file for
    // the loggers it never uses.
    if (!atomic_load_explicit(&lg->ready, memory_order_acquire)) {
        pthread_mutex_lock(&ready_lock);
        if (!atomic_load_explicit(&lg->ready, memory_order_relaxed)) {
            lg->name = urc_env_table(&(size_t){0})[lg->variable].name + strlen("UR_LOG_");
            configure(lg);
            atomic_store_explicit(&lg->ready, true, memory_order_release);
        }
        pthread_mutex_unlock(&ready_lock);
    }
    return lg;
}

void urc_log_reconfigure(urc_logger_t *logger) {
    configure(logger);
}

void urc_log_get_settings(urc_logger_t *lg, urc_log_settings_t *s) {
    pthread_mutex_lock(&lg->lock);
    s->level = (ur_logger_level_t)atomic_load(&lg->level);
    s->flush_level = (ur_logger_level_t)atomic_load(&lg->flush_level);
    s->fileline = lg->fileline;
    s->valid = lg->valid;
    memcpy(s->output, lg->output, sizeof s->output);
    pthread_mutex_unlock(&lg->lock);
}

bool urc_log_enabled(const urc_logger_t *lg, ur_logger_level_t level) {
    return (int)level >= atomic_load_explicit(&lg->level, memory_order_relaxed) ||
           (int)level >= atomic_load_explicit(&lg->callback_level, memory_order_relaxed);
}

__attribute__((format(printf, 5, 0))) static void write_message(urc_logger_t *lg,
                                                                ur_logger_level_t level,
                                                                const char *file, int line,
                                                                const char *fmt, va_list ap) {
    if ((unsigned)level >= UR_LOGGER_LEVEL_QUIET)
        return;
    char text[2048];
    vsnprintf(text, sizeof text, fmt, ap);
    char where[300] = "";
    pthread_mutex_lock(&lg->lock);
    if (lg->fileline && file != NULL)
        snprintf(where, sizeof where, " <%s:%d>", file, line);
    if ((int)level >= atomic_load(&lg->level) && lg->out != NULL) {
        fprintf(lg->out, "<%s>[%s]: %s%s\n", lg->name, level_tags[level], text, where);
        if ((int)level >= atomic_load(&lg->flush_level))
            fflush(lg->out);
    }
    ur_logger_callback_t cb = lg->callback;
    void *data = lg->callback_data;
    pthread_mutex_unlock(&lg->lock);
    if (cb != NULL && (int)level >= atomic_load(&lg->callback_level)) {
        // UR's callback sink is a logger named UR_LOG_CALLBACK with the usual prefix.
        char msg[2400];
        snprintf(msg, sizeof msg, "<UR_LOG_CALLBACK>[%s]: %s%s\n", level_tags[level], text, where);
        cb(level, msg, data);
    }
}

void urc_log_write_raw(urc_logger_t *lg, ur_logger_level_t level, const char *text) {
    if ((unsigned)level >= UR_LOGGER_LEVEL_QUIET)
        return;
    pthread_mutex_lock(&lg->lock);
    if ((int)level >= atomic_load(&lg->level) && lg->out != NULL) {
        fputs(text, lg->out);
        if ((int)level >= atomic_load(&lg->flush_level))
            fflush(lg->out);
    }
    pthread_mutex_unlock(&lg->lock);
}

void urc_log_flush(urc_logger_t *lg) {
    pthread_mutex_lock(&lg->lock);
    if (lg->out != NULL)
        fflush(lg->out);
    pthread_mutex_unlock(&lg->lock);
}

void urc_log_write(urc_logger_t *lg, ur_logger_level_t level, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    write_message(lg, level, NULL, 0, fmt, ap);
    va_end(ap);
}

void urc_log_write_at(urc_logger_t *lg, ur_logger_level_t level, const char *file, int line,
                      const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    write_message(lg, level, file, line, fmt, ap);
    va_end(ap);
}

void urc_log_set_callback(urc_logger_t *lg, ur_logger_callback_t callback, void *user_data,
                          ur_logger_level_t level) {
    pthread_mutex_lock(&lg->lock);
    lg->callback = callback;
    lg->callback_data = user_data;
    pthread_mutex_unlock(&lg->lock);
    atomic_store(&lg->callback_level, callback != NULL ? (int)level : UR_LOGGER_LEVEL_QUIET);
}

void urc_log_set_callback_level(urc_logger_t *lg, ur_logger_level_t level) {
    atomic_store(&lg->callback_level, (int)level);
}
