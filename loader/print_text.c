// SPDX-License-Identifier: MIT
#include "print_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void urc_str_init(urc_str_t *s) {
    s->text = s->small;
    s->len = 0;
    s->cap = sizeof(s->small);
    s->failed = false;
    s->small[0] = '\0';
}

void urc_str_free(urc_str_t *s) {
    if (s->text != s->small)
        free(s->text);
    urc_str_init(s);
}

// Makes room for `extra` more bytes plus the terminator.
static bool reserve(urc_str_t *s, size_t extra) {
    if (s->failed)
        return false;
    if (extra >= SIZE_MAX / 2 - s->len) {
        s->failed = true;
        return false;
    }
    size_t need = s->len + extra + 1;
    if (need <= s->cap)
        return true;
    size_t cap = s->cap * 2 > need ? s->cap * 2 : need;
    char *grown = s->text == s->small ? malloc(cap) : realloc(s->text, cap);
    if (grown == NULL) {
        s->failed = true;
        return false;
    }
    if (s->text == s->small)
        memcpy(grown, s->small, s->len + 1);
    s->text = grown;
    s->cap = cap;
    return true;
}

void urc_str_puts(urc_str_t *s, const char *text) {
    size_t n = strlen(text);
    if (!reserve(s, n))
        return;
    memcpy(s->text + s->len, text, n + 1);
    s->len += n;
}

void urc_str_printf(urc_str_t *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char probe[128];
    int n = vsnprintf(probe, sizeof(probe), fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(s, (size_t)n))
        return;
    if ((size_t)n < sizeof(probe)) {
        memcpy(s->text + s->len, probe, (size_t)n + 1);
    } else {
        va_start(ap, fmt);
        vsnprintf(s->text + s->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    s->len += (size_t)n;
}

const char *urc_str_text(const urc_str_t *s) {
    return s->text;
}

ur_result_t urc_str_finish(urc_str_t *s, char *buffer, size_t buff_size, size_t *out_size) {
    ur_result_t result = UR_RESULT_SUCCESS;
    if (s->failed) {
        result = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    } else {
        size_t need = s->len + 1;
        if (out_size != NULL)
            *out_size = need;
        if (buffer != NULL) {
            if (buff_size < need)
                result = UR_RESULT_ERROR_INVALID_SIZE;
            else
                memcpy(buffer, s->text, need);
        }
    }
    urc_str_free(s);
    return result;
}

void urc_pr_ptr(urc_str_t *s, const void *p) {
    if (p == NULL)
        urc_str_puts(s, "nullptr");
    else
        urc_str_printf(s, "%p", p);
}

void urc_pr_address(urc_str_t *s, const void *p) {
    if (p == NULL)
        urc_str_puts(s, "0");
    else
        urc_str_printf(s, "%p", p);
}

void urc_pr_cstr(urc_str_t *s, const char *text) {
    if (text == NULL) {
        urc_str_puts(s, "nullptr");
        return;
    }
    urc_str_printf(s, "%p (", (const void *)text);
    urc_str_puts(s, text);
    urc_str_puts(s, ")");
}

void urc_pr_bool(urc_str_t *s, uint8_t value) {
    urc_str_puts(s, value ? "true" : "false");
}

void urc_pr_enum(urc_str_t *s, const urc_enum_table_t *table, int64_t value) {
    const urc_enum_entry_t *e = urc_enum_find(table, value);
    urc_str_puts(s, e != NULL ? e->name : "unknown enumerator");
}

void urc_pr_flags(urc_str_t *s, const urc_enum_table_t *table, uint32_t value) {
    uint32_t left = value;
    bool first = true;
    for (size_t i = 0; i < table->count; ++i) {
        uint32_t bit = (uint32_t)table->entries[i].value;
        if ((left & bit) != bit)
            continue;
        left ^= bit;
        if (!first)
            urc_str_puts(s, " | ");
        first = false;
        urc_str_puts(s, table->entries[i].name);
    }
    if (left != 0) {
        char bits[33];
        for (int i = 0; i < 32; ++i)
            bits[i] = (left >> (31 - i)) & 1u ? '1' : '0';
        bits[32] = '\0';
        if (!first)
            urc_str_puts(s, " | ");
        urc_str_puts(s, "unknown bit flags ");
        urc_str_puts(s, bits);
    } else if (first) {
        urc_str_puts(s, "0");
    }
}
