// SPDX-License-Identifier: MIT
// What an object's lifetime costs: retain+release pairs of a live context (the hot path the
// quarantine must not touch) and create+release pairs of buffers, samplers and USM pools
// (whose last release parks the object: docs/released-handles.md), on whichever adapter the
// loader finds first.
//
//   UR_ADAPTERS_FORCE_LOAD=<adapter> bench_lifetime [--runs N] [--pairs N]
//
// Prints one line per workload: its name, then the median and the best ns per pair over the
// runs (the best is the steadier figure on a busy machine).
// bench/lifetime/compare.sh runs it against two builds of an adapter and prints the ratios.
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "ur_api.h"

static ur_context_handle_t ctx;

typedef bool (*pair_fn)(int pairs);

static bool context_retain_release(int pairs) {
    for (int i = 0; i < pairs; ++i) {
        UR(urContextRetain(ctx));
        UR(urContextRelease(ctx));
    }
    return true;
}

static bool buffer_create_release(int pairs) {
    for (int i = 0; i < pairs; ++i) {
        ur_mem_handle_t m = NULL;
        UR(urMemBufferCreate(ctx, UR_MEM_FLAG_READ_WRITE, 64, NULL, &m));
        UR(urMemRelease(m));
    }
    return true;
}

static bool sampler_create_release(int pairs) {
    ur_sampler_desc_t desc = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, false,
                              UR_SAMPLER_ADDRESSING_MODE_CLAMP, UR_SAMPLER_FILTER_MODE_NEAREST};
    for (int i = 0; i < pairs; ++i) {
        ur_sampler_handle_t s = NULL;
        ur_result_t r = urSamplerCreate(ctx, &desc, &s);
        if (r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE)
            return false;
        UR(r);
        UR(urSamplerRelease(s));
    }
    return true;
}

static bool pool_create_release(int pairs) {
    ur_usm_pool_desc_t desc = {UR_STRUCTURE_TYPE_USM_POOL_DESC, NULL, 0};
    for (int i = 0; i < pairs; ++i) {
        ur_usm_pool_handle_t p = NULL;
        ur_result_t r = urUSMPoolCreate(ctx, &desc, &p);
        if (r == UR_RESULT_ERROR_UNSUPPORTED_FEATURE)
            return false;
        UR(r);
        UR(urUSMPoolRelease(p));
    }
    return true;
}

int main(int argc, char **argv) {
    int runs = urc_bench_int_arg(argc, argv, "--runs", 9);
    int pairs = urc_bench_int_arg(argc, argv, "--pairs", 20000);
    runs = runs < 1 ? 1 : runs > 64 ? 64 : runs;
    pairs = pairs < 1 ? 1 : pairs;
    UR(urLoaderInit(0, NULL));
    ur_adapter_handle_t adapter = NULL;
    uint32_t n = 0;
    UR(urAdapterGet(1, &adapter, &n));
    if (n == 0)
        FAIL("no adapter\n");
    ur_platform_handle_t platform = NULL;
    UR(urPlatformGet(adapter, 1, &platform, &n));
    if (n == 0) {
        printf("no platform: skipped\n");
        return 77;
    }
    ur_device_handle_t dev = NULL;
    UR(urDeviceGet(platform, UR_DEVICE_TYPE_ALL, 1, &dev, &n));
    UR(urContextCreate(1, &dev, NULL, &ctx));
    const struct {
        const char *name;
        pair_fn fn;
        int scale; // retain+release pairs are cheap: more of them per run
    } work[] = {
        {"context_retain_release", context_retain_release, 10},
        {"buffer_create_release", buffer_create_release, 1},
        {"sampler_create_release", sampler_create_release, 1},
        {"usm_pool_create_release", pool_create_release, 1},
    };
    for (size_t w = 0; w < sizeof work / sizeof *work; ++w) {
        int p = pairs * work[w].scale;
        if (!work[w].fn(p / 10 + 1)) { // warm, and see whether the adapter has it
            printf("%-26s unsupported\n", work[w].name);
            continue;
        }
        double ns[64];
        for (int r = 0; r < runs; ++r) {
            double t0 = urc_bench_now_ns();
            work[w].fn(p);
            ns[r] = (urc_bench_now_ns() - t0) / p;
        }
        double best = ns[0];
        for (int r = 1; r < runs; ++r)
            best = ns[r] < best ? ns[r] : best;
        printf("%-26s %10.1f %10.1f\n", work[w].name, urc_bench_median(ns, runs), best);
    }
    UR(urContextRelease(ctx));
    UR(urAdapterRelease(adapter));
    UR(urLoaderTearDown());
    return 0;
}
