// SPDX-License-Identifier: MIT
// What the loader costs per call: calls through libur_loader.so.0's exported entry points
// against calls straight to the adapter's table entry (the handle's first word), on calls
// that do almost nothing, with the fake adapter of the loader tests.
//
//   bench_dispatch [--runs N] [--calls N] [--adapter path/to/libur_adapter_fake_a.so]
//
// Prints, for each run, ns per call both ways and their ratio, then the median ratio.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ur_api.h"
#include "ur_ddi.h"

#ifndef URC_BENCH_ADAPTER
#define URC_BENCH_ADAPTER ""
#endif

// One workload: the same operation through the loader and through the table.
typedef struct workload_t {
    const char *name;
    unsigned calls_per_op;
    void (*through_loader)(void *h, long ops);
    void (*direct)(void *h, long ops);
} workload_t;

static int failures;

static void check(ur_result_t r) {
    failures += r != UR_RESULT_SUCCESS;
}

// The adapter's own table, read from the handle as the loader does; `volatile` so the
// compiler cannot see through the function pointers.
static const ur_dditable_t *table_of(void *h) {
    return *(const ur_dditable_t *volatile *)h;
}

static void retain_release_loader(void *h, long ops) {
    for (long i = 0; i < ops; ++i) {
        check(urAdapterRetain(h));
        check(urAdapterRelease(h));
    }
}

static void retain_release_direct(void *h, long ops) {
    const ur_dditable_t *ddi = table_of(h);
    ur_pfnAdapterRetain_t retain = ddi->Adapter.pfnRetain;
    ur_pfnAdapterRelease_t release = ddi->Adapter.pfnRelease;
    for (long i = 0; i < ops; ++i) {
        check(retain(h));
        check(release(h));
    }
}

static void device_info_loader(void *h, long ops) {
    ur_device_type_t type;
    for (long i = 0; i < ops; ++i)
        check(urDeviceGetInfo(h, UR_DEVICE_INFO_TYPE, sizeof type, &type, NULL));
}

static void device_info_direct(void *h, long ops) {
    ur_pfnDeviceGetInfo_t info = table_of(h)->Device.pfnGetInfo;
    ur_device_type_t type;
    for (long i = 0; i < ops; ++i)
        check(info(h, UR_DEVICE_INFO_TYPE, sizeof type, &type, NULL));
}

static void run(const workload_t *w, void *h, int runs, long ops) {
    double loader_ns[64], direct_ns[64], ratio[64];
    printf("\n%s (%u call%s per operation, %ld operations per run)\n", w->name, w->calls_per_op,
           w->calls_per_op > 1 ? "s" : "", ops);
    printf("  run   loader ns/call   direct ns/call   ratio\n");
    w->through_loader(h, ops / 10 + 1); // warm caches and branch predictors
    w->direct(h, ops / 10 + 1);
    for (int r = 0; r < runs; ++r) {
        // Alternate which goes first, so neither always runs on a warmer core.
        double t[2];
        for (int k = 0; k < 2; ++k) {
            bool loader = (k == 0) == (r % 2 == 0);
            double start = urc_bench_now_ns();
            (loader ? w->through_loader : w->direct)(h, ops);
            t[loader ? 0 : 1] = (urc_bench_now_ns() - start) / ((double)ops * w->calls_per_op);
        }
        loader_ns[r] = t[0];
        direct_ns[r] = t[1];
        ratio[r] = t[0] / t[1];
        printf("  %3d   %14.2f   %14.2f   %5.3f\n", r + 1, t[0], t[1], ratio[r]);
    }
    double ml = urc_bench_median(loader_ns, runs), md = urc_bench_median(direct_ns, runs),
           mr = urc_bench_median(ratio, runs);
    printf("  median loader %.2f ns, direct %.2f ns, overhead %.2f ns/call; median ratio %.3f\n",
           ml, md, ml - md, mr);
}

int main(int argc, char **argv) {
    int runs = 11;
    long calls = 20000000;
    const char *adapter = URC_BENCH_ADAPTER;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--calls") == 0 && i + 1 < argc)
            calls = atol(argv[++i]);
        else if (strcmp(argv[i], "--adapter") == 0 && i + 1 < argc)
            adapter = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--runs N] [--calls N] [--adapter fake-adapter.so]\n",
                    argv[0]);
            return 2;
        }
    }
    runs = runs < 1 ? 1 : runs > 64 ? 64 : runs;
    calls = calls < 2 ? 2 : calls;
    if (adapter[0] == '\0') {
        fprintf(stderr, "no fake adapter: pass --adapter (built with the tests)\n");
        return 2;
    }
    setenv("UR_ADAPTERS_FORCE_LOAD", adapter, 1);
    ur_adapter_handle_t h = NULL;
    ur_platform_handle_t platform = NULL;
    ur_device_handle_t device = NULL;
    if (urLoaderInit(0, NULL) != UR_RESULT_SUCCESS || urAdapterGet(1, &h, NULL) != 0 || h == NULL ||
        urPlatformGet(h, 1, &platform, NULL) != 0 ||
        urDeviceGet(platform, UR_DEVICE_TYPE_ALL, 1, &device, NULL) != 0) {
        fprintf(stderr, "cannot load %s through the loader\n", adapter);
        return 1;
    }
    printf("bench_dispatch: %s, %d runs\n", adapter, runs);
    const workload_t workloads[] = {
        {"urAdapterRetain + urAdapterRelease", 2, retain_release_loader, retain_release_direct},
        {"urDeviceGetInfo(UR_DEVICE_INFO_TYPE)", 1, device_info_loader, device_info_direct},
    };
    run(&workloads[0], h, runs, calls / 2);
    run(&workloads[1], device, runs, calls);
    urDeviceRelease(device);
    urAdapterRelease(h);
    urLoaderTearDown();
    if (failures != 0) {
        fprintf(stderr, "%d calls failed\n", failures);
        return 1;
    }
    return 0;
}
