// SPDX-License-Identifier: MIT
// UR's logging grammar: UR_LOG_<NAME>="level:<l>;flush:<l>;output:stdout|stderr|file,<path>"
// with levels debug, info, warning, error, quiet. Silent unless asked (CUDA: errors). Every
// message is "<NAME>[LEVEL]: text\n". A callback set through urAdapterSetLoggerCallback gets
// the messages at or above its own level as well.
#ifndef URC_COMMON_LOG_H
#define URC_COMMON_LOG_H

#include <stdbool.h>

#include "env.h"
#include "ur_api.h"

typedef struct urc_logger_t urc_logger_t;

/// The logger configured by one UR_LOG_* variable (created on first use, then shared).
urc_logger_t *urc_logger(urc_env_id_t log_variable);

/// True when a message at `level` would go anywhere; checked before formatting.
bool urc_log_enabled(const urc_logger_t *logger, ur_logger_level_t level);

void urc_log_write(urc_logger_t *logger, ur_logger_level_t level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/// Sets (or with NULL clears) the callback sink and its level.
void urc_log_set_callback(urc_logger_t *logger, ur_logger_callback_t callback, void *user_data,
                          ur_logger_level_t level);
void urc_log_set_callback_level(urc_logger_t *logger, ur_logger_level_t level);

/// Re-reads the logger's variable (after urc_env_reload).
void urc_log_reconfigure(urc_logger_t *logger);

#define URC_LOG(logger, level, ...)                                                                \
    do {                                                                                           \
        if (urc_log_enabled((logger), (level)))                                                    \
            urc_log_write((logger), (level), __VA_ARGS__);                                         \
    } while (0)

#endif // URC_COMMON_LOG_H
