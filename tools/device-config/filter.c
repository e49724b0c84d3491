// SPDX-License-Identifier: MIT
// The aspect filter's decision and file-table handling (filter.h).
#include "filter.h"

#include <stdlib.h>
#include <string.h>

#include "prop_file.h"
#include "program/props.h"

filter_verdict_t filter_image(const char *prop_path, const urc_device_caps_t *caps, char *why,
                              size_t why_size) {
    prop_file_t file;
    if (!prop_file_read(prop_path, &file, why, why_size))
        return FILTER_ERROR;
    urc_props_t *props = NULL;
    char err[512];
    ur_result_t r = urc_props_parse(file.entries, file.count, &props, err, sizeof(err));
    prop_file_free(&file);
    if (r != UR_RESULT_SUCCESS) {
        snprintf(why, why_size, "%s: %s", prop_path, err);
        return FILTER_ERROR;
    }
    r = urc_check_requirements(props, caps, err, sizeof(err));
    urc_props_release(props);
    if (r == UR_RESULT_SUCCESS)
        return FILTER_KEEP;
    snprintf(why, why_size, "%s: %s", prop_path, err);
    return r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE ? FILTER_DROP : FILTER_ERROR;
}

// One line of the input, without its line break.
typedef struct line_t {
    const char *text;
    size_t len;
} line_t;

static bool next_line(const char **p, const char *end, line_t *line) {
    if (*p >= end)
        return false;
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    const char *eol = nl != NULL ? nl : end;
    line->text = *p;
    line->len = (size_t)(eol - *p);
    if (line->len > 0 && line->text[line->len - 1] == '\r')
        line->len--;
    *p = nl != NULL ? nl + 1 : end;
    return true;
}

// The `index`-th '|'-separated cell of a line, or false when it has fewer cells.
static bool cell(line_t line, size_t index, line_t *out) {
    const char *p = line.text, *end = line.text + line.len;
    for (size_t i = 0;; ++i) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        const char *stop = bar != NULL ? bar : end;
        if (i == index) {
            out->text = p;
            out->len = (size_t)(stop - p);
            return true;
        }
        if (bar == NULL)
            return false;
        p = bar + 1;
    }
}

static size_t count_cells(line_t line) {
    size_t n = 1;
    for (size_t i = 0; i < line.len; ++i)
        n += line.text[i] == '|';
    return n;
}

// Decides the image at `path` (a cell, not NUL-terminated) and writes `row` when kept.
static bool filter_row(line_t path, line_t row, const urc_device_caps_t *caps, FILE *out, FILE *log,
                       char *err, size_t err_size) {
    char *name = strndup(path.text, path.len);
    if (name == NULL) {
        snprintf(err, err_size, "out of memory");
        return false;
    }
    char why[768];
    filter_verdict_t v = filter_image(name, caps, why, sizeof(why));
    free(name);
    if (v == FILTER_ERROR) {
        snprintf(err, err_size, "%s", why);
        return false;
    }
    if (v == FILTER_KEEP)
        fprintf(out, "%.*s\n", (int)row.len, row.text);
    else if (log != NULL)
        fprintf(log, "dropped %s\n", why);
    return true;
}

bool filter_text(const char *text, size_t len, const urc_device_caps_t *caps, FILE *out, FILE *log,
                 char *err, size_t err_size) {
    const char *p = text, *end = text + len;
    line_t line;
    size_t number = 0;
    // The first non-empty line tells a file table from a plain list.
    do {
        if (!next_line(&p, end, &line))
            return true; // empty input, empty output
        number++;
    } while (line.len == 0);
    bool table = line.text[0] == '[' && line.text[line.len - 1] == ']' && line.len >= 2;
    size_t column = 0, columns = 0;
    if (table) {
        line_t names = {line.text + 1, line.len - 2}, name;
        columns = count_cells(names);
        for (column = 0; column < columns; ++column)
            if (cell(names, column, &name) && name.len == 10 &&
                memcmp(name.text, "Properties", 10) == 0)
                break;
        if (column == columns) {
            // No properties to look at: the table goes through unchanged (seed step 1).
            fwrite(text, 1, len, out);
            return true;
        }
        fprintf(out, "%.*s\n", (int)line.len, line.text);
    } else {
        p = text;
        number = 0;
    }
    while (next_line(&p, end, &line)) {
        number++;
        if (line.len == 0)
            continue;
        line_t path = line;
        if (table && (count_cells(line) != columns || !cell(line, column, &path))) {
            snprintf(err, err_size, "line %zu: %zu columns where the header has %zu", number,
                     count_cells(line), columns);
            return false;
        }
        if (!filter_row(path, line, caps, out, log, err, err_size))
            return false;
    }
    return true;
}
