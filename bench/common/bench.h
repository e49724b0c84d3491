// SPDX-License-Identifier: MIT
// What every benchmark program shares: failing loudly, a monotonic clock, medians, its
// command-line flags and the device code it loads.
#ifndef URC_BENCH_COMMON_BENCH_H
#define URC_BENCH_COMMON_BENCH_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "ur_api.h"

/// Prints the message to stderr and exits 1: a benchmark that cannot run has no figures.
#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, __VA_ARGS__);                                                              \
        exit(1);                                                                                   \
    } while (0)

/// Runs a UR call and FAILs, naming the call and its result, unless it succeeds.
#define UR(expr)                                                                                   \
    do {                                                                                           \
        ur_result_t r_ = (expr);                                                                   \
        if (r_ != UR_RESULT_SUCCESS)                                                               \
            FAIL("%s failed: %d\n", #expr, (int)r_);                                               \
    } while (0)

/// CLOCK_MONOTONIC in nanoseconds and in microseconds.
double urc_bench_now_ns(void);
double urc_bench_now_us(void);

/// The median of `n` samples (sorts them in place).
double urc_bench_median(double *v, int n);

/// The value after the last `name` among the flag-value pairs of argv ("--reps 100"); NULL
/// when the flag is absent.
const char *urc_bench_arg(int argc, char **argv, const char *name);

/// As urc_bench_arg, read as an int; `fallback` when the flag is absent.
int urc_bench_int_arg(int argc, char **argv, const char *name, int fallback);

/// The whole of a file, NUL-terminated (for PTX text), in a malloc'd buffer; FAILs when it
/// cannot be read. *size excludes the NUL.
void *urc_bench_read_file(const char *path, size_t *size);

#endif // URC_BENCH_COMMON_BENCH_H
