// SPDX-License-Identifier: MIT
// What a USM pool saves: alloc+free pairs of 256 B, 64 KiB and 16 MiB of device memory through
// a pool (urUSMPoolCreate, then urUSMDeviceAlloc with it) against the same pairs without one,
// which is the driver's call (cuMemAlloc/cuMemFree, clDeviceMemAllocINTEL/clMemBlockingFreeINTEL,
// zeMemAllocDevice/zeMemFree) plus urc's argument checks.
//
//   UR_ADAPTERS_FORCE_LOAD=<adapter> bench_usm_pool [--runs N] [--pairs N]
//
// Prints, per size, the median ns per pair both ways and their ratio (driver / pool).
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "ur_api.h"

static ur_context_handle_t ctx;
static ur_device_handle_t dev;

static double pairs_ns(ur_usm_pool_handle_t pool, size_t size, int pairs) {
    // A few allocations stay live, as in a program, so the pool is not one chunk bouncing.
    enum { LIVE = 8 };
    void *live[LIVE] = {0};
    double t0 = urc_bench_now_ns();
    for (int i = 0; i < pairs; ++i) {
        void **slot = &live[i % LIVE];
        if (*slot != NULL)
            UR(urUSMFree(ctx, *slot));
        UR(urUSMDeviceAlloc(ctx, dev, NULL, pool, size, slot));
    }
    double t1 = urc_bench_now_ns();
    for (int i = 0; i < LIVE; ++i)
        if (live[i] != NULL)
            UR(urUSMFree(ctx, live[i]));
    return (t1 - t0) / pairs;
}

int main(int argc, char **argv) {
    int runs = urc_bench_int_arg(argc, argv, "--runs", 7);
    int pairs = urc_bench_int_arg(argc, argv, "--pairs", 2000);
    if (runs > 64)
        runs = 64;
    UR(urLoaderInit(0, NULL));
    ur_adapter_handle_t adapter = NULL;
    uint32_t n = 0;
    UR(urAdapterGet(1, &adapter, &n));
    if (n == 0)
        FAIL("no adapter");
    ur_platform_handle_t platform = NULL;
    UR(urPlatformGet(adapter, 1, &platform, &n));
    if (n == 0) {
        printf("no platform: skipped\n");
        return 77;
    }
    UR(urDeviceGet(platform, UR_DEVICE_TYPE_ALL, 1, &dev, &n));
    UR(urContextCreate(1, &dev, NULL, &ctx));
    char name[256] = "";
    UR(urPlatformGetInfo(platform, UR_PLATFORM_INFO_NAME, sizeof name, name, NULL));
    ur_usm_pool_limits_desc_t limits = {UR_STRUCTURE_TYPE_USM_POOL_LIMITS_DESC, NULL, 32 << 20, 0};
    ur_usm_pool_desc_t desc = {UR_STRUCTURE_TYPE_USM_POOL_DESC, &limits, 0};
    ur_usm_pool_handle_t pool = NULL;
    UR(urUSMPoolCreate(ctx, &desc, &pool));
    printf("platform: %s; pool limit 32 MiB poolable; %d pairs per run, %d runs\n", name, pairs,
           runs);
    printf("%10s %16s %16s %8s\n", "size", "driver ns/pair", "pool ns/pair", "ratio");
    const size_t sizes[] = {256, 64 << 10, 16 << 20};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; ++s) {
        int p = sizes[s] >= (16 << 20) ? pairs / 10 + 1 : pairs;
        double driver[64], pooled[64];
        pairs_ns(pool, sizes[s], p / 10 + 1); // warm both
        pairs_ns(NULL, sizes[s], p / 10 + 1);
        for (int r = 0; r < runs; ++r) {
            // Alternate which goes first.
            if (r % 2) {
                driver[r] = pairs_ns(NULL, sizes[s], p);
                pooled[r] = pairs_ns(pool, sizes[s], p);
            } else {
                pooled[r] = pairs_ns(pool, sizes[s], p);
                driver[r] = pairs_ns(NULL, sizes[s], p);
            }
        }
        double d = urc_bench_median(driver, runs), q = urc_bench_median(pooled, runs);
        printf("%10zu %16.0f %16.0f %7.1fx\n", sizes[s], d, q, d / q);
    }
    UR(urUSMPoolRelease(pool));
    UR(urContextRelease(ctx));
    UR(urAdapterRelease(adapter));
    UR(urLoaderTearDown());
    return 0;
}
