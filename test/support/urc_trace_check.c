// SPDX-License-Identifier: MIT
#include "urc_trace_check.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "urc_test.h"

typedef struct event_t {
    char ph;
    char cat[16];
    long tid;
    unsigned long long id;
    double ts, dur, uncertainty;
} event_t;

static void check_shape(const char *text) {
    int depth = 0;
    bool in_string = false;
    size_t n = strlen(text);
    ck_assert_uint_gt(n, 2);
    ck_assert_int_eq(text[0], '{');
    for (size_t i = 0; i < n; ++i) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"')
            in_string = true;
        else if (c == '{' || c == '[')
            ++depth;
        else if (c == '}' || c == ']')
            ck_assert_int_ge(--depth, 0);
        if (depth == 0 && i + 1 < n)
            ck_assert_msg(strspn(text + i + 1, " \n") == n - i - 1, "text after the object");
    }
    ck_assert_int_eq(depth, 0);
    ck_assert(!in_string);
}

static double number_after(const char *line, const char *key, double fallback) {
    const char *p = strstr(line, key);
    double v;
    return p != NULL && sscanf(p + strlen(key), "%lf", &v) == 1 ? v : fallback;
}

static bool read_event(const char *line, event_t *e) {
    const char *ph = strstr(line, "\"ph\":\"");
    if (ph == NULL)
        return false;
    memset(e, 0, sizeof *e);
    e->ph = ph[6];
    const char *cat = strstr(line, "\"cat\":\"");
    if (cat != NULL)
        sscanf(cat + 7, "%15[^\"]", e->cat);
    e->tid = (long)number_after(line, "\"tid\":", -1);
    e->id = (unsigned long long)number_after(line, "\"id\":", 0);
    e->ts = number_after(line, "\"ts\":", -1);
    e->dur = number_after(line, "\"dur\":", 0);
    e->uncertainty = number_after(line, "\"clock_uncertainty_us\":", 0);
    return true;
}

urc_trace_counts_t urc_check_trace(const char *path) {
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "no timeline at %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *text = malloc((size_t)size + 1);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(fread(text, 1, (size_t)size, f), (size_t)size);
    text[size] = '\0';
    fclose(f);
    check_shape(text);
    ck_assert_ptr_nonnull(strstr(text, "\"traceEvents\":["));

    size_t cap = 1024, n = 0;
    event_t *events = malloc(cap * sizeof *events);
    ck_assert_ptr_nonnull(events);
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        if (n == cap) {
            cap *= 2;
            events = realloc(events, cap * sizeof *events);
            ck_assert_ptr_nonnull(events);
        }
        if (read_event(line, &events[n]))
            ++n;
    }
    urc_trace_counts_t counts = {0, 0, 0};
    double last_call_end = 0;
    for (size_t i = 0; i < n; ++i) {
        const event_t *e = &events[i];
        if (e->ph != 'X' || strcmp(e->cat, "call") != 0)
            continue;
        ++counts.calls;
        ck_assert(e->ts >= 0 && e->dur >= 0);
        if (e->ts + e->dur > last_call_end)
            last_call_end = e->ts + e->dur;
        // Slices of one thread nest: a later-written one ends no later than... the calls
        // are written when they end, so an earlier-ending slice is either before or inside.
        for (size_t j = 0; j < i; ++j) {
            const event_t *p = &events[j];
            if (p->ph != 'X' || strcmp(p->cat, "call") != 0 || p->tid != e->tid)
                continue;
            bool before = p->ts + p->dur <= e->ts + 1e-3;
            bool inside = p->ts >= e->ts - 1e-3 && p->ts + p->dur <= e->ts + e->dur + 1e-3;
            ck_assert_msg(before || inside, "call slices at %.3f and %.3f overlap without nesting",
                          p->ts, e->ts);
        }
    }
    for (size_t i = 0; i < n; ++i) {
        const event_t *s = &events[i];
        if (s->ph != 's')
            continue;
        for (size_t j = 0; j < n; ++j) {
            const event_t *fin = &events[j];
            if (fin->ph != 'f' || fin->id != s->id)
                continue;
            ++counts.flows;
            // The device slice this flow ends at starts where it does, on the same track.
            for (size_t k = 0; k < n; ++k) {
                const event_t *d = &events[k];
                if (d->ph != 'X' || strcmp(d->cat, "device") != 0 || d->tid != fin->tid ||
                    d->ts != fin->ts)
                    continue;
                double slack = d->uncertainty + 1e-3;
                ck_assert_msg(d->ts >= s->ts - slack,
                              "command starts at %.3f, before its enqueue at %.3f", d->ts, s->ts);
                ck_assert_msg(d->ts + d->dur <= last_call_end + slack,
                              "command ends at %.3f, after the last call ended (%.3f)",
                              d->ts + d->dur, last_call_end);
                break;
            }
        }
    }
    for (size_t i = 0; i < n; ++i)
        counts.devices += events[i].ph == 'X' && strcmp(events[i].cat, "device") == 0;
    free(events);
    free(text);
    return counts;
}
