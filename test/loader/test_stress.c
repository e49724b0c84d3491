// SPDX-License-Identifier: MIT
// Many threads at once on the same handles: urAdapterGet, urPlatformGet, urDeviceGet,
// urDeviceGetSelected, retain/release, and nested urLoaderInit/urLoaderTearDown pairs. Run
// under TSan and ASan+UBSan in CI; here it checks that every reference comes back.
#include <pthread.h>
#include <stdatomic.h>

#include "loader_test.h"

#define THREADS 8
#define ROUNDS  2000

static atomic_int failures;

#define EXPECT_OK(expr)                                                                            \
    do {                                                                                           \
        if ((expr) != UR_RESULT_SUCCESS)                                                           \
            atomic_fetch_add(&failures, 1);                                                        \
    } while (0)

static void one_round(unsigned seed) {
    ur_adapter_handle_t adapters[2];
    uint32_t n = 0;
    EXPECT_OK(urAdapterGet(0, NULL, &n));
    EXPECT_OK(urAdapterGet(2, adapters, &n));
    if (n != 2) {
        atomic_fetch_add(&failures, 1);
        return;
    }
    ur_adapter_handle_t adapter = adapters[seed % 2];
    EXPECT_OK(urAdapterRetain(adapter));
    uint32_t refs = 0;
    EXPECT_OK(urAdapterGetInfo(adapter, UR_ADAPTER_INFO_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    ur_platform_handle_t platforms[FAKE_MAX_PLATFORMS];
    uint32_t np = 0;
    EXPECT_OK(urPlatformGet(adapter, FAKE_MAX_PLATFORMS, platforms, &np));
    for (uint32_t p = 0; p < np && p < FAKE_MAX_PLATFORMS; ++p) {
        ur_device_handle_t devices[FAKE_MAX_DEVICES];
        uint32_t nd = 0;
        EXPECT_OK(urDeviceGet(platforms[p], UR_DEVICE_TYPE_ALL, FAKE_MAX_DEVICES, devices, &nd));
        for (uint32_t d = 0; d < nd; ++d)
            EXPECT_OK(urDeviceRelease(devices[d]));
        ur_device_handle_t picked[32];
        uint32_t count = 0;
        EXPECT_OK(urDeviceGetSelected(platforms[p], UR_DEVICE_TYPE_ALL, 32, picked, &count));
        for (uint32_t d = 0; d < count && d < 32; ++d) {
            EXPECT_OK(urDeviceRetain(picked[d]));
            EXPECT_OK(urDeviceRelease(picked[d]));
            EXPECT_OK(urDeviceRelease(picked[d]));
        }
    }
    // Some threads also take and drop their own loader reference meanwhile.
    if (seed % 3 == 0) {
        EXPECT_OK(urLoaderInit(0, NULL));
        EXPECT_OK(urLoaderTearDown());
    }
    EXPECT_OK(urAdapterRelease(adapter));
    EXPECT_OK(urAdapterRelease(adapters[0]));
    EXPECT_OK(urAdapterRelease(adapters[1]));
}

static void *worker(void *arg) {
    unsigned id = (unsigned)(uintptr_t)arg;
    for (unsigned r = 0; r < ROUNDS; ++r)
        one_round(id * 7919u + r);
    return NULL;
}

START_TEST(concurrent_calls_on_shared_handles) {
    // Sub-devices too, so urDeviceGetSelected partitions concurrently.
    lt_setenv("ONEAPI_DEVICE_SELECTOR", "opencl:*,*.*,*.*.*;cuda:*,*.*");
    fake_api_t a, b;
    lt_init_two(&a, &b);
    pthread_t threads[THREADS];
    for (uintptr_t i = 0; i < THREADS; ++i)
        ck_assert_int_eq(pthread_create(&threads[i], NULL, worker, (void *)i), 0);
    for (int i = 0; i < THREADS; ++i)
        pthread_join(threads[i], NULL);
    ck_assert_int_eq(atomic_load(&failures), 0);
    ck_assert_uint_eq(a.adapter_refcount(), 0);
    ck_assert_uint_eq(b.adapter_refcount(), 0);
    ck_assert_int_eq(a.outstanding_refs(), 0);
    ck_assert_int_eq(b.outstanding_refs(), 0);
    ck_assert_ur_ok(urLoaderTearDown());
    ck_assert_ur(urLoaderTearDown(), UR_RESULT_ERROR_UNINITIALIZED);
}
END_TEST

int main(void) {
    Suite *s = suite_create("loader under threads");
    TCase *tc = lt_tcase("shared handles");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, concurrent_calls_on_shared_handles);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
