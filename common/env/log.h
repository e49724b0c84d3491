// SPDX-License-Identifier: MIT
// UR's logging grammar: UR_LOG_<NAME>="level:<l>;flush:<l>;fileline:<bool>;output:<sink>"
// with levels debug, info, warning, error, quiet and sinks stdout, stderr, file,<path> (quote
// a path holding ':'). The value is parsed as UR's getenv_to_map does (common/env/kvparse.h):
// lower-case keys, no key twice, no empty value; any error is reported on stderr and the
// logger keeps its defaults. Silent unless asked (CUDA: errors). Every message is
// "<NAME>[LEVEL]: text[ <file:line>]\n". A callback set through urAdapterSetLoggerCallback
// gets the messages at or above its own level as "<UR_LOG_CALLBACK>[LEVEL]: text\n", as UR's.
#ifndef URC_COMMON_ENV_LOG_H
#define URC_COMMON_ENV_LOG_H

#include <stdbool.h>

#include "env/env.h"
#include "ur_api.h"

typedef struct urc_logger_t urc_logger_t;

/// The logger configured by one UR_LOG_* variable (created on first use, then shared).
urc_logger_t *urc_logger(urc_env_id_t log_variable);

/// True when a message at `level` would go anywhere; checked before formatting.
bool urc_log_enabled(const urc_logger_t *logger, ur_logger_level_t level);

void urc_log_write(urc_logger_t *logger, ur_logger_level_t level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/// Writes `text` as it is, without prefix or line break, to the logger's output only (UR's
/// tracing logger prints so).
void urc_log_write_raw(urc_logger_t *logger, ur_logger_level_t level, const char *text);

/// Flushes the logger's output.
void urc_log_flush(urc_logger_t *logger);

/// As urc_log_write, with the source location `fileline:1` appends.
void urc_log_write_at(urc_logger_t *logger, ur_logger_level_t level, const char *file, int line,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/// Sets (or with NULL clears) the callback sink and its level.
void urc_log_set_callback(urc_logger_t *logger, ur_logger_callback_t callback, void *user_data,
                          ur_logger_level_t level);
void urc_log_set_callback_level(urc_logger_t *logger, ur_logger_level_t level);

/// Re-reads the logger's variable (after urc_env_reload); nothing changes (the output file
/// stays open) when the variable's value is the same as before.
void urc_log_reconfigure(urc_logger_t *logger);

/// The logger's current settings, for tests and `urinfo --env`.
typedef struct urc_log_settings_t {
    ur_logger_level_t level;
    ur_logger_level_t flush_level;
    bool fileline;
    char output[512]; // "stdout", "stderr" or "file,<path>" (cut to fit)
    bool valid;       // false when the variable was malformed and defaults apply
} urc_log_settings_t;
void urc_log_get_settings(urc_logger_t *logger, urc_log_settings_t *settings);

#define URC_LOG(logger, level, ...)                                                                \
    do {                                                                                           \
        if (urc_log_enabled((logger), (level)))                                                    \
            urc_log_write_at((logger), (level), __FILE__, __LINE__, __VA_ARGS__);                  \
    } while (0)

#endif // URC_COMMON_ENV_LOG_H
