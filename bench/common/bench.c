// SPDX-License-Identifier: MIT
#include "bench.h"

#include <string.h>
#include <time.h>

double urc_bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

double urc_bench_now_us(void) {
    return urc_bench_now_ns() / 1e3;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double urc_bench_median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, compare);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

const char *urc_bench_arg(int argc, char **argv, const char *name) {
    const char *value = NULL;
    for (int i = 1; i + 1 < argc; i += 2)
        if (strcmp(argv[i], name) == 0)
            value = argv[i + 1];
    return value;
}

int urc_bench_int_arg(int argc, char **argv, const char *name, int fallback) {
    const char *value = urc_bench_arg(argc, argv, name);
    return value != NULL ? atoi(value) : fallback;
}

void *urc_bench_read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        FAIL("cannot open %s\n", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (data == NULL || fread(data, 1, (size_t)n, f) != (size_t)n)
        FAIL("cannot read %s\n", path);
    fclose(f);
    data[n] = '\0';
    *size = (size_t)n;
    return data;
}
