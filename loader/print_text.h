// SPDX-License-Identifier: MIT
// The growing text the urPrint* printers and the tracing layer write into, and the small
// printing rules every generated printer shares (pointers, booleans, enumerators, bit sets).
#ifndef URC_LOADER_PRINT_TEXT_H
#define URC_LOADER_PRINT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/enum_names.h"
#include "ur_api.h"

/// Text built by appending. Running out of memory is remembered, not fatal: the printer
/// then answers UR_RESULT_ERROR_OUT_OF_HOST_MEMORY.
typedef struct urc_str_t {
    char *text; // NUL-terminated when len > 0
    size_t len;
    size_t cap;
    bool failed;
    char small[256]; // most texts fit here, so printing usually allocates nothing
} urc_str_t;

void urc_str_init(urc_str_t *s);
void urc_str_free(urc_str_t *s);
void urc_str_puts(urc_str_t *s, const char *text);
void urc_str_printf(urc_str_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/// The text so far ("" when empty), valid until the next append.
const char *urc_str_text(const urc_str_t *s);

/// UR's required-size protocol: *out_size (when not NULL) gets strlen + 1; a buffer smaller
/// than that is UR_RESULT_ERROR_INVALID_SIZE; a NULL buffer only asks for the size. Frees `s`.
ur_result_t urc_str_finish(urc_str_t *s, char *buffer, size_t buff_size, size_t *out_size);

/// "nullptr", or the address as %p prints it.
void urc_pr_ptr(urc_str_t *s, const void *p);
/// The address as a C++ stream prints a void pointer: "0" for NULL (callbacks).
void urc_pr_address(urc_str_t *s, const void *p);
/// "nullptr", or `<address> (<text>)`.
void urc_pr_cstr(urc_str_t *s, const char *text);
/// "true" / "false" (ur_bool_t and every other uint8_t).
void urc_pr_bool(urc_str_t *s, uint8_t value);
/// The enumerator's name, or "unknown enumerator".
void urc_pr_enum(urc_str_t *s, const urc_enum_table_t *table, int64_t value);
/// Set bits by name in declaration order joined by " | "; "0" for none; bits no enumerator
/// names as "unknown bit flags " and 32 binary digits.
void urc_pr_flags(urc_str_t *s, const urc_enum_table_t *table, uint32_t value);

/// loader/generated/ur_print.c: appends the arguments of one call (`params` points to the
/// function's ur_<function>_params_t); false for a function urc does not know.
bool urc_print_params(urc_str_t *s, ur_function_t function, const void *params);

#endif // URC_LOADER_PRINT_TEXT_H
