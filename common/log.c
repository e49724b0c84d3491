// SPDX-License-Identifier: MIT
#include "log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct urc_logger_t {
    urc_env_id_t variable;
    const char *name; // "LOADER", from the variable's name
    pthread_once_t once;
    atomic_int level;
    atomic_int flush_level;
    pthread_mutex_t lock; // one message at a time, and guards the fields below
    FILE *out;
    bool owns_out;
    ur_logger_callback_t callback;
    void *callback_data;
    atomic_int callback_level;
};

#define LOGGER(v) {.variable = (v), .once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER}
static urc_logger_t loggers[] = {LOGGER(URC_ENV_LOG_LOADER), LOGGER(URC_ENV_LOG_OPENCL),
                                 LOGGER(URC_ENV_LOG_CUDA), LOGGER(URC_ENV_LOG_LEVEL_ZERO)};

static const char *const level_names[] = {"debug", "info", "warning", "error", "quiet"};
static const char *const level_tags[] = {"DEBUG", "INFO", "WARNING", "ERROR", "QUIET"};

static int parse_level(const char *s, size_t n) {
    for (int i = 0; i <= UR_LOGGER_LEVEL_QUIET; ++i)
        if (strlen(level_names[i]) == n && strncmp(s, level_names[i], n) == 0)
            return i;
    return -1;
}

static void set_output(urc_logger_t *lg, FILE *f, bool owns) {
    if (lg->owns_out && lg->out != NULL)
        fclose(lg->out);
    lg->out = f;
    lg->owns_out = owns;
}

// Applies "key:value;key:value"; on any error reports it once and keeps the defaults.
static void configure(urc_logger_t *lg) {
    const char *var = urc_env_table(&(size_t){0})[lg->variable].name;
    int dflt = lg->variable == URC_ENV_LOG_CUDA &&
                       !urc_env_bool(URC_ENV_SUPPRESS_ERROR_MESSAGE, false)
                   ? UR_LOGGER_LEVEL_ERROR
                   : UR_LOGGER_LEVEL_QUIET;
    int level = dflt, flush = UR_LOGGER_LEVEL_ERROR;
    FILE *out = stderr;
    bool owns = false;
    const char *spec = urc_env_get(lg->variable);
    const char *bad = NULL;
    for (const char *p = spec; p != NULL && *p != '\0' && bad == NULL;) {
        const char *end = strchr(p, ';');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *colon = memchr(p, ':', len);
        if (colon == NULL) {
            bad = "an entry has no ':'";
            break;
        }
        size_t klen = (size_t)(colon - p), vlen = len - klen - 1;
        const char *val = colon + 1;
        if (klen == 5 && strncmp(p, "level", 5) == 0) {
            if ((level = parse_level(val, vlen)) < 0)
                bad = "unknown level";
        } else if (klen == 5 && strncmp(p, "flush", 5) == 0) {
            if ((flush = parse_level(val, vlen)) < 0)
                bad = "unknown flush level";
        } else if (klen == 6 && strncmp(p, "output", 6) == 0) {
            if (vlen == 6 && strncmp(val, "stdout", 6) == 0) {
                out = stdout;
            } else if (vlen == 6 && strncmp(val, "stderr", 6) == 0) {
                out = stderr;
            } else if (vlen > 5 && strncmp(val, "file,", 5) == 0) {
                char path[4096];
                size_t plen = vlen - 5;
                if (plen >= sizeof path) {
                    bad = "file path too long";
                    break;
                }
                memcpy(path, val + 5, plen);
                path[plen] = '\0';
                FILE *f = fopen(path, "a");
                if (f == NULL) {
                    bad = "cannot open the output file";
                    break;
                }
                if (owns)
                    fclose(out);
                out = f;
                owns = true;
            } else {
                bad = "output must be stdout, stderr or file,<path>";
            }
        } else if (klen == 8 && strncmp(p, "fileline", 8) == 0) {
            // Accepted for UR compatibility; urc's messages carry no source location.
        } else {
            bad = "unknown key (use level, flush, output)";
        }
        p = end ? end + 1 : NULL;
    }
    if (bad != NULL) {
        fprintf(stderr, "urc: %s=\"%s\": %s; logging stays at its defaults\n", var, spec, bad);
        if (owns)
            fclose(out);
        level = dflt;
        flush = UR_LOGGER_LEVEL_ERROR;
        out = stderr;
        owns = false;
    }
    pthread_mutex_lock(&lg->lock);
    set_output(lg, out, owns);
    pthread_mutex_unlock(&lg->lock);
    atomic_store(&lg->level, level);
    atomic_store(&lg->flush_level, flush);
}

static void init_all(void) {
    for (size_t i = 0; i < sizeof loggers / sizeof loggers[0]; ++i) {
        urc_logger_t *lg = &loggers[i];
        lg->name = urc_env_table(&(size_t){0})[lg->variable].name + strlen("UR_LOG_");
        atomic_init(&lg->callback_level, UR_LOGGER_LEVEL_QUIET);
        configure(lg);
    }
}

static pthread_once_t all_once = PTHREAD_ONCE_INIT;

urc_logger_t *urc_logger(urc_env_id_t log_variable) {
    pthread_once(&all_once, init_all);
    for (size_t i = 0; i < sizeof loggers / sizeof loggers[0]; ++i)
        if (loggers[i].variable == log_variable)
            return &loggers[i];
    return &loggers[0];
}

void urc_log_reconfigure(urc_logger_t *logger) {
    configure(logger);
}

bool urc_log_enabled(const urc_logger_t *lg, ur_logger_level_t level) {
    return (int)level >= atomic_load_explicit(&lg->level, memory_order_relaxed) ||
           (int)level >= atomic_load_explicit(&lg->callback_level, memory_order_relaxed);
}

void urc_log_write(urc_logger_t *lg, ur_logger_level_t level, const char *fmt, ...) {
    if ((unsigned)level >= UR_LOGGER_LEVEL_QUIET)
        return;
    char msg[2048];
    int n = snprintf(msg, sizeof msg, "<%s>[%s]: ", lg->name, level_tags[level]);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&lg->lock);
    if ((int)level >= atomic_load(&lg->level) && lg->out != NULL) {
        fprintf(lg->out, "%s\n", msg);
        if ((int)level >= atomic_load(&lg->flush_level))
            fflush(lg->out);
    }
    ur_logger_callback_t cb = lg->callback;
    void *data = lg->callback_data;
    pthread_mutex_unlock(&lg->lock);
    if (cb != NULL && (int)level >= atomic_load(&lg->callback_level))
        cb(level, msg, data);
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
