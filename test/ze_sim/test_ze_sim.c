// SPDX-License-Identifier: MIT
// The simulated Level Zero driver, exercised through the real Level Zero loader: the test
// points ZE_ENABLE_ALT_DRIVERS at libze_urc_sim.so before zeInit and then uses ze_api.h only,
// plus the inspection API of ze_sim.h (reached with dlopen on the same path).
#define ZE_SIM_WANT_API_LOADER
#include "../../adapters/level_zero/ze_bindless_exp.h"
#include "ze_sim.h"

#include <check.h>
#include <level_zero/ze_api.h>
#include <level_zero/zes_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef ZE_SIM_LIBRARY
#error "ZE_SIM_LIBRARY must name the built libze_urc_sim.so"
#endif

#define ck_assert_ze(expr, want)                                                                   \
    do {                                                                                           \
        ze_result_t got_ = (expr);                                                                 \
        ck_assert_msg(got_ == (want), "%s returned 0x%x, expected 0x%x", #expr, (unsigned)got_,    \
                      (unsigned)(want));                                                           \
    } while (0)
#define ck_assert_ze_ok(expr) ck_assert_ze((expr), ZE_RESULT_SUCCESS)

static ze_sim_api_t g_sim;
// Loader 1.8.12 with ZE_ENABLE_LOADER_INTERCEPT=1 (or several drivers) wraps every handle, but
// it leaves the build log of a failed zeModuleCreate unwrapped and its zeModuleDynamicLink reads
// the dispatch table through the array instead of its first element: both crash in the loader.
// Tests skip exactly those calls in that mode (README, "Loader facts").
static int g_intercept;
static ze_driver_handle_t g_driver;
static ze_device_handle_t g_device;
static ze_context_handle_t g_context;

static const ze_host_mem_alloc_desc_t g_host_desc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL,
                                                     0};
static const ze_device_mem_alloc_desc_t g_dev_desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL,
                                                      0, 0};

// Checked fixture: runs in each forked test, so every test starts from a fresh driver view.
static void setup(void) {
    ck_assert_ze_ok(zeInit(0));
    uint32_t n = 1;
    ck_assert_ze_ok(zeDriverGet(&n, &g_driver));
    n = 1;
    ck_assert_ze_ok(zeDeviceGet(g_driver, &n, &g_device));
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ck_assert_ze_ok(zeContextCreate(g_driver, &cd, &g_context));
    ck_assert_int_eq(ze_sim_api_load(&g_sim, ZE_SIM_LIBRARY), 0);
    g_sim.Reset();
}

static void teardown(void) {
    ck_assert_ze_ok(zeContextDestroy(g_context));
    // Every test releases what it made: the simulator counts live handles and allocations.
    ck_assert_uint_eq(g_sim.GetLiveObjectCount(), 0);
    ck_assert_uint_eq(g_sim.GetLiveAllocationCount(), 0);
}

static TCase *tcase(const char *name) {
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    return tc;
}

// ---------------------------------------------------------------------------------------------
// Small helpers.

// Shared USM: the test reads results directly, as a host would after synchronising.
static void *alloc_shared(size_t size) {
    void *p = NULL;
    ck_assert_ze_ok(zeMemAllocShared(g_context, &g_dev_desc, &g_host_desc, size, 0, g_device, &p));
    return p;
}

static ze_event_pool_handle_t make_pool(ze_event_pool_flags_t flags, uint32_t count) {
    ze_event_pool_desc_t d = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL, flags, count};
    ze_event_pool_handle_t pool = NULL;
    ck_assert_ze_ok(zeEventPoolCreate(g_context, &d, 1, &g_device, &pool));
    return pool;
}

static ze_event_handle_t make_event(ze_event_pool_handle_t pool, uint32_t index) {
    ze_event_desc_t d = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, index, 0, 0};
    ze_event_handle_t ev = NULL;
    ck_assert_ze_ok(zeEventCreate(pool, &d, &ev));
    return ev;
}

static ze_command_list_handle_t make_immediate(ze_command_queue_mode_t mode) {
    ze_command_queue_desc_t d = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, mode,
                                 ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t l = NULL;
    ck_assert_ze_ok(zeCommandListCreateImmediate(g_context, g_device, &d, &l));
    return l;
}

static ze_command_list_handle_t make_regular(void) {
    ze_command_list_desc_t d = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, 0};
    ze_command_list_handle_t l = NULL;
    ck_assert_ze_ok(zeCommandListCreate(g_context, g_device, &d, &l));
    return l;
}

static ze_command_queue_handle_t make_queue(void) {
    ze_command_queue_desc_t d = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_queue_handle_t q = NULL;
    ck_assert_ze_ok(zeCommandQueueCreate(g_context, g_device, &d, &q));
    return q;
}

// Reads a build log into a malloc'd string.
// Size query first, then the text: the usual Level Zero string idiom.
static char *log_text(ze_module_build_log_handle_t log) {
    size_t size = 0;
    ck_assert_ze_ok(zeModuleBuildLogGetString(log, &size, NULL));
    char *s = malloc(size);
    ck_assert_ptr_nonnull(s);
    ck_assert_ze_ok(zeModuleBuildLogGetString(log, &size, s));
    return s;
}

// ---------------------------------------------------------------------------------------------
// Driver.

START_TEST(driver_get_one) {
    uint32_t n = 0;
    ck_assert_ze_ok(zeDriverGet(&n, NULL));
    ck_assert_uint_eq(n, 1);
    ck_assert_ptr_nonnull(g_driver);
}
END_TEST

START_TEST(driver_api_version) {
    ze_api_version_t v = 0;
    ck_assert_ze_ok(zeDriverGetApiVersion(g_driver, &v));
    ck_assert_uint_eq(v, ZE_API_VERSION_1_4);
}
END_TEST

START_TEST(driver_properties) {
    ze_driver_properties_t p = {ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES, NULL, {{0}}, 0};
    ck_assert_ze_ok(zeDriverGetProperties(g_driver, &p));
    ck_assert_uint_ne(p.driverVersion, 0);
    ck_assert_int_eq(memcmp(p.uuid.id, "urc-ze-sim-drv1", 15), 0);
    ze_driver_ipc_properties_t ipc = {ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES, NULL, 7};
    ck_assert_ze_ok(zeDriverGetIpcProperties(g_driver, &ipc));
    ck_assert_uint_eq(ipc.flags & ZE_IPC_PROPERTY_FLAG_MEMORY, ZE_IPC_PROPERTY_FLAG_MEMORY);
    // Event pools are shared within the process (ipc_event.c).
    ck_assert_uint_ne(ipc.flags & ZE_IPC_PROPERTY_FLAG_EVENT_POOL, 0);
}
END_TEST

START_TEST(driver_extensions) {
    uint32_t n = 0;
    ck_assert_ze_ok(zeDriverGetExtensionProperties(g_driver, &n, NULL));
    ck_assert_uint_gt(n, 0);
    ze_driver_extension_properties_t *e = calloc(n, sizeof(*e));
    ck_assert_ze_ok(zeDriverGetExtensionProperties(g_driver, &n, e));
    int program = 0;
    for (uint32_t i = 0; i < n; ++i)
        program |= strcmp(e[i].name, ZE_MODULE_PROGRAM_EXP_NAME) == 0;
    free(e);
    ck_assert(program);
}
END_TEST

// Unknown names leave the output NULL, so callers can test it without the result.
START_TEST(driver_extension_function_unknown) {
    void *fn = &fn;
    ck_assert_ze(zeDriverGetExtensionFunctionAddress(g_driver, "zexNothing", &fn),
                 ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_null(fn);
}
END_TEST

static Suite *driver_suite(void) {
    Suite *s = suite_create("driver");
    TCase *tc = tcase("zeDriver");
    tcase_add_test(tc, driver_get_one);
    tcase_add_test(tc, driver_api_version);
    tcase_add_test(tc, driver_properties);
    tcase_add_test(tc, driver_extensions);
    tcase_add_test(tc, driver_extension_function_unknown);
    suite_add_tcase(s, tc);
    return s;
}

// ---------------------------------------------------------------------------------------------
// Device.

START_TEST(device_properties) {
    ze_device_properties_t p = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ck_assert_ze_ok(zeDeviceGetProperties(g_device, &p));
    ck_assert_int_eq(p.type, ZE_DEVICE_TYPE_GPU);
    ck_assert_uint_eq(p.vendorId, 0x8086);
    ck_assert_str_eq(p.name, "urc simulated Level Zero GPU");
    ck_assert_uint_eq(p.maxMemAllocSize, 4ull << 30);
    ck_assert_uint_eq(p.numSlices * p.numSubslicesPerSlice * p.numEUsPerSubslice, 64);
    ck_assert_uint_eq(p.timerResolution, 1);
    ck_assert_uint_eq(p.kernelTimestampValidBits, 32);
    // The 1.2 structure type reports the timer in ticks per second instead.
    p.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2;
    ck_assert_ze_ok(zeDeviceGetProperties(g_device, &p));
    ck_assert_uint_eq(p.timerResolution, 1000000000ull);
}
END_TEST

START_TEST(device_compute_and_module_properties) {
    ze_device_compute_properties_t c = {.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    ck_assert_ze_ok(zeDeviceGetComputeProperties(g_device, &c));
    ck_assert_uint_eq(c.maxTotalGroupSize, 1024);
    ck_assert_uint_eq(c.numSubGroupSizes, 3);
    ck_assert_uint_eq(c.subGroupSizes[2], 32);
    ze_device_module_properties_t m = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES};
    ck_assert_ze_ok(zeDeviceGetModuleProperties(g_device, &m));
    ck_assert_uint_eq(m.spirvVersionSupported, ZE_MAKE_VERSION(1, 4));
    ck_assert(m.flags & ZE_DEVICE_MODULE_FLAG_FP64);
    ck_assert(m.flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS);
}
END_TEST

START_TEST(device_memory_and_queues) {
    uint32_t n = 0;
    ck_assert_ze_ok(zeDeviceGetMemoryProperties(g_device, &n, NULL));
    ck_assert_uint_eq(n, 1);
    ze_device_memory_properties_t mp = {.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES};
    ck_assert_ze_ok(zeDeviceGetMemoryProperties(g_device, &n, &mp));
    ck_assert_uint_eq(mp.totalSize, 8ull << 30);
    n = 0;
    ck_assert_ze_ok(zeDeviceGetCommandQueueGroupProperties(g_device, &n, NULL));
    ck_assert_uint_eq(n, 1);
    ze_command_queue_group_properties_t g = {.stype =
                                                 ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES};
    ck_assert_ze_ok(zeDeviceGetCommandQueueGroupProperties(g_device, &n, &g));
    ck_assert(g.flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE);
    ck_assert(g.flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY);
    ck_assert_uint_eq(g.maxMemoryFillPatternSize, 128);
    n = 5;
    ck_assert_ze_ok(zeDeviceGetSubDevices(g_device, &n, NULL));
    ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(device_timestamps_and_status) {
    uint64_t h1, d1, h2, d2;
    ck_assert_ze_ok(zeDeviceGetGlobalTimestamps(g_device, &h1, &d1));
    ck_assert_ze_ok(zeDeviceGetGlobalTimestamps(g_device, &h2, &d2));
    ck_assert_uint_ge(h2, h1);
    ck_assert_uint_ge(d2, d1);
    ck_assert_ze_ok(zeDeviceGetStatus(g_device));
    g_sim.FailNext(ZE_SIM_FAIL_DEVICE_STATUS, ZE_RESULT_ERROR_DEVICE_LOST);
    ck_assert_ze(zeDeviceGetStatus(g_device), ZE_RESULT_ERROR_DEVICE_LOST);
    ck_assert_ze_ok(zeDeviceGetStatus(g_device)); // an injection fires once
}
END_TEST

START_TEST(device_sysman_memory_state) {
    uint32_t n = 0;
    zes_device_handle_t sd = (zes_device_handle_t)g_device;
    ck_assert_ze_ok(zesDeviceEnumMemoryModules(sd, &n, NULL));
    ck_assert_uint_eq(n, 1);
    zes_mem_handle_t mem;
    ck_assert_ze_ok(zesDeviceEnumMemoryModules(sd, &n, &mem));
    zes_mem_state_t before = {.stype = ZES_STRUCTURE_TYPE_MEM_STATE}, after = before;
    ck_assert_ze_ok(zesMemoryGetState(mem, &before));
    void *p = NULL;
    ck_assert_ze_ok(zeMemAllocDevice(g_context, &g_dev_desc, 1 << 20, 0, g_device, &p));
    ck_assert_ze_ok(zesMemoryGetState(mem, &after));
    ck_assert_uint_eq(before.free - after.free, 1 << 20);
    ck_assert_ze_ok(zeMemFree(g_context, p));
}
END_TEST

static Suite *device_suite(void) {
    Suite *s = suite_create("device");
    TCase *tc = tcase("zeDevice");
    tcase_add_test(tc, device_properties);
    tcase_add_test(tc, device_compute_and_module_properties);
    tcase_add_test(tc, device_memory_and_queues);
    tcase_add_test(tc, device_timestamps_and_status);
    tcase_add_test(tc, device_sysman_memory_state);
    suite_add_tcase(s, tc);
    return s;
}

// ---------------------------------------------------------------------------------------------
// Memory.

START_TEST(mem_alloc_properties) {
    void *h = NULL, *d = NULL, *s = NULL;
    ck_assert_ze_ok(zeMemAllocHost(g_context, &g_host_desc, 100, 0, &h));
    ck_assert_ze_ok(zeMemAllocDevice(g_context, &g_dev_desc, 200, 256, g_device, &d));
    s = alloc_shared(300);
    ck_assert_uint_eq((uintptr_t)d % 256, 0);
    const struct {
        void *p;
        ze_memory_type_t type;
    } cases[] = {{h, ZE_MEMORY_TYPE_HOST}, {d, ZE_MEMORY_TYPE_DEVICE}, {s, ZE_MEMORY_TYPE_SHARED}};
    for (int i = 0; i < 3; ++i) {
        ze_memory_allocation_properties_t p = {.stype =
                                                   ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
        ze_device_handle_t dev = NULL;
        ck_assert_ze_ok(zeMemGetAllocProperties(g_context, cases[i].p, &p, &dev));
        ck_assert_int_eq(p.type, cases[i].type);
        ck_assert_uint_ne(p.id, 0);
        ck_assert_ptr_eq(dev, cases[i].type == ZE_MEMORY_TYPE_HOST ? NULL : g_device);
    }
    ck_assert_uint_eq(g_sim.GetLiveAllocationCount(), 3);
    ck_assert_ze_ok(zeMemFree(g_context, h));
    ck_assert_ze_ok(zeMemFree(g_context, d));
    ck_assert_ze_ok(zeMemFree(g_context, s));
}
END_TEST

START_TEST(mem_interior_pointer_and_range) {
    char *p = alloc_shared(4096);
    void *base = NULL;
    size_t size = 0;
    ck_assert_ze_ok(zeMemGetAddressRange(g_context, p + 1000, &base, &size));
    ck_assert_ptr_eq(base, p);
    ck_assert_uint_eq(size, 4096);
    ze_memory_allocation_properties_t props = {.stype =
                                                   ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ck_assert_ze_ok(zeMemGetAllocProperties(g_context, p + 4095, &props, NULL));
    ck_assert_int_eq(props.type, ZE_MEMORY_TYPE_SHARED);
    // One past the end belongs to nobody.
    ck_assert_ze_ok(zeMemGetAllocProperties(g_context, p + 4096, &props, NULL));
    ck_assert_int_eq(props.type, ZE_MEMORY_TYPE_UNKNOWN);
    ck_assert_ze_ok(zeMemFree(g_context, p));
}
END_TEST

// Stack memory is not USM: properties say so, and freeing it is refused.
START_TEST(mem_unknown_pointer) {
    int local = 0;
    ze_memory_allocation_properties_t p = {.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ze_device_handle_t dev = g_device;
    ck_assert_ze_ok(zeMemGetAllocProperties(g_context, &local, &p, &dev));
    ck_assert_int_eq(p.type, ZE_MEMORY_TYPE_UNKNOWN);
    ck_assert_ptr_null(dev);
    ck_assert_ze(zeMemGetAddressRange(g_context, &local, NULL, NULL),
                 ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ze(zeMemFree(g_context, &local), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(mem_bad_sizes) {
    void *p = NULL;
    ck_assert_ze(zeMemAllocHost(g_context, &g_host_desc, 0, 0, &p),
                 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    ck_assert_ze(zeMemAllocHost(g_context, &g_host_desc, 64, 3, &p),
                 ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    ck_assert_ze(zeMemAllocDevice(g_context, &g_dev_desc, (4ull << 30) + 1, 0, g_device, &p),
                 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    g_sim.FailNext(ZE_SIM_FAIL_MEM_ALLOC, ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ck_assert_ze(zeMemAllocDevice(g_context, &g_dev_desc, 64, 0, g_device, &p),
                 ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
}
END_TEST

static void *alloc_free_loop(void *arg) {
    (void)arg;
    for (int i = 0; i < 200; ++i) {
        void *p = NULL;
        if (zeMemAllocHost(g_context, &g_host_desc, 64 + (size_t)i, 0, &p) != ZE_RESULT_SUCCESS)
            return (void *)1;
        ze_memory_allocation_properties_t props = {
            .stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
        if (zeMemGetAllocProperties(g_context, (char *)p + 10, &props, NULL) != ZE_RESULT_SUCCESS ||
            props.type != ZE_MEMORY_TYPE_HOST || zeMemFree(g_context, p) != ZE_RESULT_SUCCESS)
            return (void *)1;
    }
    return NULL;
}

// The allocation table is shared by all threads; run under TSan to check the locking.
START_TEST(mem_threads) {
    pthread_t t[4];
    for (int i = 0; i < 4; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, alloc_free_loop, NULL), 0);
    for (int i = 0; i < 4; ++i) {
        void *ret = (void *)1;
        pthread_join(t[i], &ret);
        ck_assert_ptr_null(ret);
    }
}
END_TEST

static Suite *memory_suite(void) {
    Suite *s = suite_create("memory");
    TCase *tc = tcase("zeMem");
    tcase_add_test(tc, mem_alloc_properties);
    tcase_add_test(tc, mem_interior_pointer_and_range);
    tcase_add_test(tc, mem_unknown_pointer);
    tcase_add_test(tc, mem_bad_sizes);
    tcase_add_test(tc, mem_threads);
    suite_add_tcase(s, tc);
    return s;
}

// ---------------------------------------------------------------------------------------------
// Events and fences.

START_TEST(event_host_signal_reset) {
    ze_event_pool_handle_t pool = make_pool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2);
    ze_event_handle_t ev = make_event(pool, 1);
    ck_assert_ze(zeEventQueryStatus(ev), ZE_RESULT_NOT_READY);
    ck_assert_ze(zeEventHostSynchronize(ev, 0), ZE_RESULT_NOT_READY);
    ck_assert_ze(zeEventHostSynchronize(ev, 1000000), ZE_RESULT_NOT_READY);
    ck_assert_ze_ok(zeEventHostSignal(ev));
    ck_assert_ze_ok(zeEventQueryStatus(ev));
    ck_assert_ze_ok(zeEventHostSynchronize(ev, UINT64_MAX));
    ck_assert_ze_ok(zeEventHostReset(ev));
    ck_assert_ze(zeEventQueryStatus(ev), ZE_RESULT_NOT_READY);
    ze_event_desc_t bad = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 2, 0, 0};
    ze_event_handle_t none = NULL;
    ck_assert_ze(zeEventCreate(pool, &bad, &none), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ze_ok(zeEventDestroy(ev));
    ck_assert_ze_ok(zeEventPoolDestroy(pool));
}
END_TEST

START_TEST(event_kernel_timestamp_needs_timestamp_pool) {
    ze_event_pool_handle_t pool = make_pool(0, 1);
    ze_event_handle_t ev = make_event(pool, 0);
    ck_assert_ze_ok(zeEventHostSignal(ev));
    ze_kernel_timestamp_result_t ts;
    ck_assert_ze(zeEventQueryKernelTimestamp(ev, &ts), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ze_ok(zeEventDestroy(ev));
    ck_assert_ze_ok(zeEventPoolDestroy(pool));
}
END_TEST

START_TEST(event_wrong_handle_kind) {
    ze_event_pool_handle_t pool = make_pool(0, 1);
    // A pool handle where an event is expected: refused, not dereferenced as an event.
    ck_assert_ze(zeEventHostSignal((ze_event_handle_t)pool), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ze_ok(zeEventPoolDestroy(pool));
}
END_TEST

struct signal_later {
    ze_event_handle_t ev;
    long delay_ms;
};

static void *signal_thread(void *arg) {
    struct signal_later *s = arg;
    struct timespec ts = {0, s->delay_ms * 1000000L};
    nanosleep(&ts, NULL);
    return zeEventHostSignal(s->ev) == ZE_RESULT_SUCCESS ? NULL : (void *)1;
}

START_TEST(event_signal_from_other_thread) {
    ze_event_pool_handle_t pool = make_pool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1);
    struct signal_later s = {make_event(pool, 0), 20};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, signal_thread, &s), 0);
    ck_assert_ze_ok(zeEventHostSynchronize(s.ev, UINT64_MAX));
    void *ret = (void *)1;
    pthread_join(t, &ret);
    ck_assert_ptr_null(ret);
    ck_assert_uint_eq(g_sim.GetHangTrips(), 0);
    ck_assert_ze_ok(zeEventDestroy(s.ev));
    ck_assert_ze_ok(zeEventPoolDestroy(pool));
}
END_TEST

// The guard is shortened so the test takes milliseconds, not the default 10 s.
START_TEST(event_hang_guard) {
    ze_event_pool_handle_t pool = make_pool(0, 1);
    ze_event_handle_t ev = make_event(pool, 0);
    g_sim.SetHangTimeout(20 * 1000000ull);
    // Nobody will signal: an infinite wait gives up at the guard instead of hanging the run.
    ck_assert_ze(zeEventHostSynchronize(ev, UINT64_MAX), ZE_RESULT_NOT_READY);
    ck_assert_uint_eq(g_sim.GetHangTrips(), 1);
    ck_assert_ze_ok(zeEventDestroy(ev));
    ck_assert_ze_ok(zeEventPoolDestroy(pool));
}
END_TEST

// A fence created signalled, reset, and then never signalled again.
START_TEST(fence_lifecycle) {
    ze_command_queue_handle_t q = make_queue();
    ze_fence_desc_t fd = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, ZE_FENCE_FLAG_SIGNALED};
    ze_fence_handle_t f = NULL;
    ck_assert_ze_ok(zeFenceCreate(q, &fd, &f));
    ck_assert_ze_ok(zeFenceQueryStatus(f));
    ck_assert_ze_ok(zeFenceReset(f));
    ck_assert_ze(zeFenceQueryStatus(f), ZE_RESULT_NOT_READY);
    ck_assert_ze(zeFenceHostSynchronize(f, 1000), ZE_RESULT_NOT_READY);
    ck_assert_ze_ok(zeFenceDestroy(f));
    ck_assert_ze_ok(zeCommandQueueDestroy(q));
}
END_TEST

static Suite *event_suite(void) {
    Suite *s = suite_create("event");
    TCase *tc = tcase("zeEvent");
    tcase_add_test(tc, event_host_signal_reset);
    tcase_add_test(tc, event_kernel_timestamp_needs_timestamp_pool);
    tcase_add_test(tc, event_wrong_handle_kind);
    tcase_add_test(tc, event_signal_from_other_thread);
    tcase_add_test(tc, event_hang_guard);
    suite_add_tcase(s, tc);
    tc = tcase("zeFence");
    tcase_add_test(tc, fence_lifecycle);
    suite_add_tcase(s, tc);
    return s;
}

// ---------------------------------------------------------------------------------------------
// Command lists: immediate lists run at append time, regular lists when executed.

START_TEST(immediate_copy_and_fill) {
    ze_command_list_handle_t l = make_immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    unsigned char *a = alloc_shared(64), *b = alloc_shared(64);
    const uint32_t pattern = 0xa1b2c3d4u;
    // 10 bytes of a 4-byte pattern: two whole copies and a truncated third.
    ck_assert_ze_ok(zeCommandListAppendMemoryFill(l, a, &pattern, 4, 10, NULL, 0, NULL));
    ck_assert_ze_ok(zeCommandListAppendMemoryCopy(l, b, a, 16, NULL, 0, NULL));
    unsigned char want[16] = {0};
    memcpy(want, &pattern, 4);
    memcpy(want + 4, &pattern, 4);
    memcpy(want + 8, &pattern, 2);
    ck_assert_int_eq(memcmp(b, want, 16), 0);
    const uint8_t byte = 0x5a;
    ck_assert_ze_ok(zeCommandListAppendMemoryFill(l, b + 32, &byte, 1, 32, NULL, 0, NULL));
    ck_assert_uint_eq(b[63], 0x5a);
    ck_assert_ze(zeCommandListAppendMemoryFill(l, a, &pattern, 3, 9, NULL, 0, NULL),
                 ZE_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ze_ok(zeMemFree(g_context, a));
    ck_assert_ze_ok(zeMemFree(g_context, b));
    ck_assert_ze_ok(zeCommandListDestroy(l));
}
END_TEST

// Region copies address rows through the pitches, not contiguous bytes.
START_TEST(immediate_copy_region) {
    ze_command_list_handle_t l = make_immediate(ZE_COMMAND_QUEUE_MODE_DEFAULT);
    unsigned char *src = alloc_shared(8 * 8), *dst = alloc_shared(4 * 4);
    for (int i = 0; i < 64; ++i)
        src[i] = (unsigned char)i;
    // The 3x2 block at (2,1) of an 8-byte-pitch image to (1,1) of a 4-byte-pitch one.
    ze_copy_region_t sr = {2, 1, 0, 3, 2, 1}, dr = {1, 1, 0, 3, 2, 1};
    ck_assert_ze_ok(
        zeCommandListAppendMemoryCopyRegion(l, dst, &dr, 4, 0, src, &sr, 8, 0, NULL, 0, NULL));
    const unsigned char want[16] = {0, 0, 0, 0, 0, 10, 11, 12, 0, 18, 19, 20, 0, 0, 0, 0};
    ck_assert_int_eq(memcmp(dst, want, 16), 0);
    ck_assert_ze_ok(zeMemFree(g_context, src));
    ck_assert_ze_ok(zeMemFree(g_context, dst));
    ck_assert_ze_ok(zeCommandListDestroy(l));
}
END_TEST

START_TEST(immediate_waits_for_event) {
    ze_command_list_handle_t l = make_immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    ze_event_pool_handle_t pool = make_pool(ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP, 2);
    ze_event_handle_t gate = make_event(pool, 0), done = make_event(pool, 1);
    int *a = alloc_shared(sizeof(int)), *b = alloc_shared(sizeof(int));
    *a = 42;
    ck_assert_ze_ok(zeCommandListAppendMemoryCopy(l, b, a, sizeof(int), done, 1, &gate));
    // In order: this fill queues behind the gated copy.
    const int seven = 7;
    ck_assert_ze_ok(zeCommandListAppendMemoryFill(l, a, &seven, 4, 4, NULL, 0, NULL));
    ck_assert_int_eq(*b, 0);
    ck_assert_ze(zeEventHostSynchronize(done, 1000000), ZE_RESULT_NOT_READY);
    ck_assert_ze_ok(zeEventHostSignal(gate));
    ck_assert_ze_ok(zeEventHostSynchronize(done, 0));
    ck_assert_int_eq(*b, 42);
    ck_assert_int_eq(*a, 7);
    ze_kernel_timestamp_result_t ts;
    ck_assert_ze_ok(zeEventQueryKernelTimestamp(done, &ts));
    ck_assert_uint_le(ts.global.kernelStart, 0xffffffffull);
    ck_assert_ze_ok(zeMemFree(g_context, a));
    ck_assert_ze_ok(zeMemFree(g_context, b));
    ck_assert_ze_ok(zeEventDestroy(gate));
    ck_assert_ze_ok(zeEventDestroy(done));
    ck_assert_ze_ok(zeEventPoolDestroy(pool));
    ck_assert_ze_ok(zeCommandListDestroy(l));
}
END_TEST

START_TEST(immediate_event_reset_and_barrier) {
    ze_command_list_handle_t l = make_immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    ze_event_pool_handle_t pool = make_pool(0, 1);
    ze_event_handle_t ev = make_event(pool, 0);
    ck_assert_ze_ok(zeCommandListAppendSignalEvent(l, ev));
    ck_assert_ze_ok(zeEventQueryStatus(ev));
    ck_assert_ze_ok(zeCommandListAppendEventReset(l, ev));
    ck_assert_ze(zeEventQueryStatus(ev), ZE_RESULT_NOT_READY);
    ck_assert_ze_ok(zeCommandListAppendBarrier(l, ev, 0, NULL));
    ck_assert_ze_ok(zeEventQueryStatus(ev));
    uint64_t *stamp = alloc_shared(sizeof(uint64_t));
    ck_assert_ze_ok(zeCommandListAppendWriteGlobalTimestamp(l, stamp, NULL, 0, NULL));
    ck_assert_uint_ne(*stamp, 0);
    ck_assert_ze_ok(zeMemFree(g_context, stamp));
    ck_assert_ze_ok(zeEventDestroy(ev));
    ck_assert_ze_ok(zeEventPoolDestroy(pool));
    ck_assert_ze_ok(zeCommandListDestroy(l));
}
END_TEST

START_TEST(immediate_copy_out_of_bounds) {
    ze_command_list_handle_t l = make_immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    char *a = alloc_shared(16), *b = alloc_shared(64);
    // The source allocation ends after 16 bytes: caught at append, before any byte moves.
    ck_assert_ze(zeCommandListAppendMemoryCopy(l, b, a + 8, 16, NULL, 0, NULL),
                 ZE_RESULT_ERROR_INVALID_SIZE);
    g_sim.FailNext(ZE_SIM_FAIL_MEMORY_COPY, ZE_RESULT_ERROR_DEVICE_LOST);
    ck_assert_ze(zeCommandListAppendMemoryCopy(l, b, a, 16, NULL, 0, NULL),
                 ZE_RESULT_ERROR_DEVICE_LOST);
    ck_assert_ze_ok(zeCommandListAppendMemoryCopy(l, b, a, 16, NULL, 0, NULL));
    ck_assert_ze_ok(zeMemFree(g_context, a));
    ck_assert_ze_ok(zeMemFree(g_context, b));
    ck_assert_ze_ok(zeCommandListDestroy(l));
}
END_TEST

START_TEST(regular_runs_on_execute) {
    ze_command_queue_handle_t q = make_queue();
    ze_command_list_handle_t l = make_regular();
    ze_event_pool_handle_t pool = make_pool(0, 1);
    ze_event_handle_t ev = make_event(pool, 0);
    int *a = alloc_shared(sizeof(int)), *b = alloc_shared(sizeof(int));
    *a = 5;
    ck_assert_ze_ok(zeCommandListAppendMemoryCopy(l, b, a, sizeof(int), ev, 0, NULL));
    ck_assert_int_eq(*b, 0); // recorded only
    ck_assert_ze(zeCommandQueueExecuteCommandLists(q, 1, &l, NULL),
                 ZE_RESULT_ERROR_INVALID_ARGUMENT); // not closed yet
    ck_assert_ze_ok(zeCommandListClose(l));
    ck_assert_ze(zeCommandListAppendBarrier(l, NULL, 0, NULL), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ze_fence_desc_t fd = {ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0};
    ze_fence_handle_t f = NULL;
    ck_assert_ze_ok(zeFenceCreate(q, &fd, &f));
    ck_assert_ze_ok(zeCommandQueueExecuteCommandLists(q, 1, &l, f));
    ck_assert_ze_ok(zeFenceHostSynchronize(f, UINT64_MAX));
    ck_assert_ze_ok(zeCommandQueueSynchronize(q, UINT64_MAX));
    ck_assert_ze_ok(zeEventQueryStatus(ev));
    ck_assert_int_eq(*b, 5);
    // A regular list can run again: the copy repeats with the new source value.
    *a = 6;
    ck_assert_ze_ok(zeEventHostReset(ev));
    ck_assert_ze_ok(zeCommandQueueExecuteCommandLists(q, 1, &l, NULL));
    ck_assert_ze_ok(zeCommandQueueSynchronize(q, 0));
    ck_assert_int_eq(*b, 6);
    ck_assert_ze_ok(zeFenceDestroy(f));
    ck_assert_ze_ok(zeMemFree(g_context, a));
    ck_assert_ze_ok(zeMemFree(g_context, b));
    ck_assert_ze_ok(zeEventDestroy(ev));
    ck_assert_ze_ok(zeEventPoolDestroy(pool));
    ck_assert_ze_ok(zeCommandListDestroy(l));
    ck_assert_ze_ok(zeCommandQueueDestroy(q));
}
END_TEST

// A queue stalls behind a wait; a finite synchronise reports NOT_READY, then succeeds.
START_TEST(regular_blocked_queue_times_out) {
    ze_command_queue_handle_t q = make_queue();
    ze_command_list_handle_t l = make_regular();
    ze_event_pool_handle_t pool = make_pool(0, 1);
    ze_event_handle_t gate = make_event(pool, 0);
    ck_assert_ze_ok(zeCommandListAppendWaitOnEvents(l, 1, &gate));
    ck_assert_ze_ok(zeCommandListClose(l));
    ck_assert_ze_ok(zeCommandQueueExecuteCommandLists(q, 1, &l, NULL));
    ck_assert_ze(zeCommandQueueSynchronize(q, 2000000), ZE_RESULT_NOT_READY);
    ck_assert_ze_ok(zeEventHostSignal(gate));
    ck_assert_ze_ok(zeCommandQueueSynchronize(q, 0));
    ck_assert_ze_ok(zeEventDestroy(gate));
    ck_assert_ze_ok(zeEventPoolDestroy(pool));
    ck_assert_ze_ok(zeCommandListDestroy(l));
    ck_assert_ze_ok(zeCommandQueueDestroy(q));
}
END_TEST

// The device-side copy of timestamps must equal what the host query returns.
START_TEST(query_kernel_timestamps) {
    ze_command_list_handle_t l = make_immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    ze_event_pool_handle_t pool = make_pool(ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP, 1);
    ze_event_handle_t ev = make_event(pool, 0);
    ck_assert_ze_ok(zeCommandListAppendBarrier(l, ev, 0, NULL));
    ze_kernel_timestamp_result_t *out = alloc_shared(sizeof(*out));
    ck_assert_ze_ok(zeCommandListAppendQueryKernelTimestamps(l, 1, &ev, out, NULL, NULL, 0, NULL));
    ze_kernel_timestamp_result_t direct;
    ck_assert_ze_ok(zeEventQueryKernelTimestamp(ev, &direct));
    ck_assert_int_eq(memcmp(out, &direct, sizeof(direct)), 0);
    ck_assert_ze_ok(zeMemFree(g_context, out));
    ck_assert_ze_ok(zeEventDestroy(ev));
    ck_assert_ze_ok(zeEventPoolDestroy(pool));
    ck_assert_ze_ok(zeCommandListDestroy(l));
}
END_TEST

// Each worker drives its own immediate list; in round r worker i waits for the event worker
// i-1 signals in round r, so commands cross threads through events (one event per hop).
#define WORKERS 4
#define ROUNDS  50

struct worker {
    ze_event_handle_t *in, *out; // ROUNDS events each; in is NULL for worker 0
    int *data;
    int failed;
};

static void *worker_main(void *arg) {
    struct worker *w = arg;
    ze_command_list_handle_t l = NULL;
    ze_command_queue_desc_t d = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    if (zeCommandListCreateImmediate(g_context, g_device, &d, &l) != ZE_RESULT_SUCCESS) {
        w->failed = 1;
        return NULL;
    }
    for (int r = 0; r < ROUNDS && !w->failed; ++r) {
        const int v = r;
        w->failed |= zeCommandListAppendMemoryFill(l, w->data, &v, sizeof(v), sizeof(v), w->out[r],
                                                   w->in ? 1 : 0, w->in ? &w->in[r] : NULL) != 0;
        w->failed |= zeEventHostSynchronize(w->out[r], UINT64_MAX) != 0;
        w->failed |= *w->data != r;
    }
    zeCommandListDestroy(l);
    return NULL;
}

START_TEST(engine_threads_chain_through_events) {
    ze_event_pool_handle_t pool = make_pool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, WORKERS * ROUNDS);
    static ze_event_handle_t ev[WORKERS][ROUNDS];
    struct worker w[WORKERS];
    pthread_t t[WORKERS];
    for (int i = 0; i < WORKERS; ++i) {
        for (int r = 0; r < ROUNDS; ++r)
            ev[i][r] = make_event(pool, (uint32_t)(i * ROUNDS + r));
        w[i] = (struct worker){i ? ev[i - 1] : NULL, ev[i], alloc_shared(sizeof(int)), 0};
    }
    // Started last to first, so that most waits really block on another thread.
    for (int i = WORKERS - 1; i >= 0; --i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, worker_main, &w[i]), 0);
    for (int i = 0; i < WORKERS; ++i)
        pthread_join(t[i], NULL);
    for (int i = 0; i < WORKERS; ++i) {
        ck_assert_msg(!w[i].failed, "worker %d failed", i);
        ck_assert_ze_ok(zeMemFree(g_context, w[i].data));
        for (int r = 0; r < ROUNDS; ++r)
            ck_assert_ze_ok(zeEventDestroy(ev[i][r]));
    }
    ck_assert_uint_eq(g_sim.GetHangTrips(), 0);
    ck_assert_ze_ok(zeEventPoolDestroy(pool));
}
END_TEST

static Suite *cmdlist_suite(void) {
    Suite *s = suite_create("cmdlist");
    TCase *tc = tcase("immediate");
    tcase_add_test(tc, immediate_copy_and_fill);
    tcase_add_test(tc, immediate_copy_region);
    tcase_add_test(tc, immediate_waits_for_event);
    tcase_add_test(tc, immediate_event_reset_and_barrier);
    tcase_add_test(tc, immediate_copy_out_of_bounds);
    tcase_add_test(tc, query_kernel_timestamps);
    suite_add_tcase(s, tc);
    tc = tcase("regular");
    tcase_add_test(tc, regular_runs_on_execute);
    tcase_add_test(tc, regular_blocked_queue_times_out);
    suite_add_tcase(s, tc);
    tc = tcase("threads");
    tcase_add_test(tc, engine_threads_chain_through_events);
    suite_add_tcase(s, tc);
    return s;
}

// ---------------------------------------------------------------------------------------------
// Modules and kernels, from SPIR-V assembled at build time.

// A SPIR-V header with a bound and nothing else (valid words, no memory model).
static const uint32_t g_header_only[] = {0x07230203u, 0x00010200u, 0, 8, 0};

// Builds a module; *log (optional) receives the build log, or NULL in intercept mode.
static ze_result_t create_module(const void *il, size_t size, ze_module_format_t format,
                                 const char *flags, const void *pnext, ze_module_handle_t *m,
                                 char **log) {
    ze_module_desc_t d = {ZE_STRUCTURE_TYPE_MODULE_DESC, pnext, format, size, il, flags, NULL};
    ze_module_build_log_handle_t blog = NULL;
    *m = NULL;
    ze_result_t r = zeModuleCreate(g_context, g_device, &d, m, g_intercept ? NULL : &blog);
    if (log)
        *log = NULL;
    if (g_intercept)
        return r;
    ck_assert_ptr_nonnull(blog);
    if (log)
        *log = log_text(blog);
    ck_assert_ze_ok(zeModuleBuildLogDestroy(blog));
    return r;
}

// Asserts that a build log (when there is one) contains a piece of text.
#define ck_assert_log_has(log, text)                                                               \
    ck_assert_msg(!(log) || strstr((log), (text)), "log lacks \"%s\": %s", (text), (log))

// Each broken input fails with a build log that names the problem.
START_TEST(module_malformed_spirv) {
    ze_module_handle_t m;
    char *log = NULL;
    uint32_t words[5];
    memcpy(words, g_header_only, sizeof(words));
    words[0] = 0x12345678u;
    ck_assert_ze(
        create_module(words, sizeof(words), ZE_MODULE_FORMAT_IL_SPIRV, "-g", NULL, &m, &log),
        ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    ck_assert_ptr_null(m);
    ck_assert_log_has(log, "magic");
    ck_assert_log_has(log, "build flags: -g");
    free(log);
    ck_assert_ze(create_module(g_header_only, 18, ZE_MODULE_FORMAT_IL_SPIRV, NULL, NULL, &m, &log),
                 ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    ck_assert_log_has(log, "multiple of 4");
    free(log);
    memcpy(words, g_header_only, sizeof(words));
    words[1] = 0x00010600u; // SPIR-V 1.6, newer than the advertised 1.4
    ck_assert_ze(
        create_module(words, sizeof(words), ZE_MODULE_FORMAT_IL_SPIRV, NULL, NULL, &m, &log),
        ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    ck_assert_log_has(log, "1.6");
    free(log);
    ck_assert_ze(create_module(g_header_only, sizeof(g_header_only), ZE_MODULE_FORMAT_IL_SPIRV,
                               NULL, NULL, &m, &log),
                 ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    ck_assert_log_has(log, "OpMemoryModel");
    free(log);
    ck_assert_ze(create_module("garbage!", 8, ZE_MODULE_FORMAT_NATIVE, NULL, NULL, &m, &log),
                 ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
    free(log);
}
END_TEST

START_TEST(module_injected_failure) {
    g_sim.FailNext(ZE_SIM_FAIL_MODULE_CREATE, ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ze_module_handle_t m;
    char *log = NULL;
    ck_assert_ze(create_module(g_header_only, sizeof(g_header_only), ZE_MODULE_FORMAT_IL_SPIRV,
                               NULL, NULL, &m, &log),
                 ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ck_assert_log_has(log, "injected");
    free(log);
}
END_TEST

#ifdef ZE_SIM_SPV_DIR

typedef struct spv {
    uint8_t *data;
    size_t size;
} spv_t;

static spv_t load_spv(const char *name) {
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s.spv", ZE_SIM_SPV_DIR, name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    spv_t s = {NULL, (size_t)ftell(f)};
    fseek(f, 0, SEEK_SET);
    s.data = malloc(s.size);
    ck_assert_ptr_nonnull(s.data);
    ck_assert_uint_eq(fread(s.data, 1, s.size, f), s.size);
    fclose(f);
    return s;
}

// A successful build leaves an empty log, which the checks below insist on.
static ze_module_handle_t build(const char *name) {
    spv_t s = load_spv(name);
    ze_module_handle_t m;
    char *log = NULL;
    ze_result_t r =
        create_module(s.data, s.size, ZE_MODULE_FORMAT_IL_SPIRV, "-ze-opt-level=2", NULL, &m, &log);
    ck_assert_msg(r == ZE_RESULT_SUCCESS, "building %s: 0x%x: %s", name, (unsigned)r,
                  log ? log : "(no log)");
    ck_assert_msg(!log || !*log, "unexpected build log: %s", log);
    free(log);
    free(s.data);
    return m;
}

// Links the named inputs with the module program extension.
static ze_result_t build_program(const char *const *names, uint32_t n, ze_module_handle_t *m,
                                 char **log) {
    spv_t s[4];
    size_t sizes[4];
    const uint8_t *data[4];
    const char *flags[4] = {"-a", "-b", "-c", "-d"};
    for (uint32_t i = 0; i < n; ++i) {
        s[i] = load_spv(names[i]);
        sizes[i] = s[i].size;
        data[i] = s[i].data;
    }
    ze_module_program_exp_desc_t prog = {
        ZE_STRUCTURE_TYPE_MODULE_PROGRAM_EXP_DESC, NULL, n, sizes, data, flags, NULL};
    // The extension makes the descriptor's own input irrelevant, but the 1.8.12 validation
    // layer still rejects a NULL pInputModule or a zero inputSize: name the first input.
    ze_result_t r =
        create_module(data[0], sizes[0], ZE_MODULE_FORMAT_IL_SPIRV, NULL, &prog, m, log);
    for (uint32_t i = 0; i < n; ++i)
        free(s[i].data);
    return r;
}

START_TEST(module_kernel_names_and_flags) {
    ze_module_handle_t m = build("globals");
    uint32_t n = 0;
    ck_assert_ze_ok(zeModuleGetKernelNames(m, &n, NULL));
    ck_assert_uint_eq(n, 2);
    const char *names[2];
    ck_assert_ze_ok(zeModuleGetKernelNames(m, &n, names));
    ck_assert_str_eq(names[0], "sim_fill");
    ck_assert_str_eq(names[1], "sim_reqd");
    ze_module_properties_t p = {ZE_STRUCTURE_TYPE_MODULE_PROPERTIES, NULL, 7};
    ck_assert_ze_ok(zeModuleGetProperties(m, &p));
    ck_assert_uint_eq(p.flags, 0);
    char flags[64];
    size_t size = sizeof(flags);
    ck_assert_ze_ok(g_sim.GetLastBuildFlags(0, &size, flags));
    ck_assert_str_eq(flags, "-ze-opt-level=2");
    ck_assert_ze_ok(zeModuleDestroy(m));
}
END_TEST

START_TEST(module_global_pointer) {
    ze_module_handle_t m = build("globals");
    size_t size = 0;
    void *ptr = NULL;
    ck_assert_ze_ok(zeModuleGetGlobalPointer(m, "urc_test_global", &size, &ptr));
    // struct { uint a; ulong b; uint c[3]; } = {7, 0x1122334455667788, {1, 2, 3}}
    ck_assert_uint_eq(size, 32);
    uint32_t a, c[3];
    uint64_t b;
    memcpy(&a, ptr, 4);
    memcpy(&b, (char *)ptr + 8, 8);
    memcpy(c, (char *)ptr + 16, 12);
    ck_assert_uint_eq(a, 7);
    ck_assert_uint_eq(b, 0x1122334455667788ull);
    ck_assert_uint_eq(c[0], 1);
    ck_assert_uint_eq(c[2], 3);
    // Exported variables are found by their linkage name.
    ck_assert_ze_ok(zeModuleGetGlobalPointer(m, "urc_exported_counter", &size, &ptr));
    ck_assert_uint_eq(size, 4);
    ck_assert_uint_eq(*(uint32_t *)ptr, 42);
    // The pointer is host memory a copy can write through.
    ze_command_list_handle_t l = make_immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    const uint32_t v = 99;
    ck_assert_ze_ok(zeCommandListAppendMemoryCopy(l, ptr, &v, 4, NULL, 0, NULL));
    void *again = NULL;
    ck_assert_ze_ok(zeModuleGetGlobalPointer(m, "urc_exported_counter", NULL, &again));
    ck_assert_uint_eq(*(uint32_t *)again, 99);
    ck_assert_ze(zeModuleGetGlobalPointer(m, "no_such_global", &size, &ptr),
                 ZE_RESULT_ERROR_INVALID_GLOBAL_NAME);
    ck_assert_ze_ok(zeCommandListDestroy(l));
    ck_assert_ze_ok(zeModuleDestroy(m));
}
END_TEST

START_TEST(module_function_pointer_and_native_binary) {
    ze_module_handle_t m = build("globals");
    void *f1 = NULL, *f2 = NULL;
    ck_assert_ze_ok(zeModuleGetFunctionPointer(m, "helper_add", &f1));
    ck_assert_ze_ok(zeModuleGetFunctionPointer(m, "helper_add", &f2));
    ck_assert_ptr_nonnull(f1);
    ck_assert_ptr_eq(f1, f2);
    ck_assert_ze(zeModuleGetFunctionPointer(m, "nope", &f1), ZE_RESULT_ERROR_INVALID_FUNCTION_NAME);
    spv_t s = load_spv("globals");
    size_t size = 0;
    ck_assert_ze_ok(zeModuleGetNativeBinary(m, &size, NULL));
    ck_assert_uint_eq(size, s.size);
    uint8_t *bin = malloc(size);
    ck_assert_ze_ok(zeModuleGetNativeBinary(m, &size, bin));
    ck_assert_int_eq(memcmp(bin, s.data, size), 0);
    free(bin);
    free(s.data);
    ck_assert_ze_ok(zeModuleDestroy(m));
}
END_TEST

START_TEST(kernel_arguments) {
    ze_module_handle_t m = build("globals");
    ze_kernel_desc_t kd = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, "no_such_kernel"};
    ze_kernel_handle_t k = NULL;
    ck_assert_ze(zeKernelCreate(m, &kd, &k), ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
    kd.pKernelName = "sim_fill";
    ck_assert_ze_ok(zeKernelCreate(m, &kd, &k));
    ze_kernel_properties_t p = {.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    ck_assert_ze_ok(zeKernelGetProperties(k, &p));
    ck_assert_uint_eq(p.numKernelArgs, 3);
    void *ptr = NULL;
    uint32_t n = 5;
    ck_assert_ze_ok(zeKernelSetArgumentValue(k, 0, sizeof(ptr), &ptr));
    ck_assert_ze(zeKernelSetArgumentValue(k, 1, 8, &n),
                 ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
    ck_assert_ze_ok(zeKernelSetArgumentValue(k, 1, sizeof(n), &n));
    ck_assert_ze_ok(zeKernelSetArgumentValue(k, 2, 256, NULL)); // local memory: size only
    ck_assert_ze(zeKernelSetArgumentValue(k, 3, 4, &n),
                 ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    char name[32];
    size_t size = sizeof(name);
    ck_assert_ze_ok(zeKernelGetName(k, &size, name));
    ck_assert_str_eq(name, "sim_fill");
    ck_assert_ze_ok(zeKernelDestroy(k));
    ck_assert_ze_ok(zeModuleDestroy(m));
}
END_TEST

// Required sizes come from OpExecutionMode; suggestions divide the global size.
START_TEST(kernel_group_sizes) {
    ze_module_handle_t m = build("globals");
    ze_kernel_desc_t kd = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, "sim_reqd"};
    ze_kernel_handle_t reqd = NULL, fill = NULL;
    ck_assert_ze_ok(zeKernelCreate(m, &kd, &reqd));
    kd.pKernelName = "sim_fill";
    ck_assert_ze_ok(zeKernelCreate(m, &kd, &fill));
    ze_kernel_properties_t p = {.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    ck_assert_ze_ok(zeKernelGetProperties(reqd, &p));
    ck_assert_uint_eq(p.requiredGroupSizeX, 8);
    ck_assert_uint_eq(p.requiredGroupSizeY, 4);
    ck_assert_uint_eq(p.requiredGroupSizeZ, 1);
    ck_assert_uint_eq(p.requiredSubgroupSize, 16);
    ck_assert_ze(zeKernelSetGroupSize(reqd, 16, 1, 1),
                 ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    ck_assert_ze_ok(zeKernelSetGroupSize(reqd, 8, 4, 1));
    ck_assert_ze(zeKernelSetGroupSize(fill, 64, 32, 1),
                 ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    uint32_t x, y, z;
    ck_assert_ze_ok(zeKernelSuggestGroupSize(fill, 1000, 6, 1, &x, &y, &z));
    ck_assert_uint_eq(x, 1000);
    ck_assert_uint_eq(y, 1);
    ck_assert_ze_ok(zeKernelSuggestGroupSize(fill, 96, 8, 3, &x, &y, &z));
    ck_assert_uint_eq(x * y * z <= 1024, 1);
    ck_assert_uint_eq(96 % x + 8 % y + 3 % z, 0);
    char *attrs = NULL;
    uint32_t len = 0;
    ck_assert_ze_ok(zeKernelGetSourceAttributes(reqd, &len, &attrs));
    ck_assert_str_eq(attrs, "reqd_work_group_size(8,4,1) intel_reqd_sub_group_size(16)");
    ck_assert_ze_ok(zeKernelDestroy(reqd));
    ck_assert_ze_ok(zeKernelDestroy(fill));
    ck_assert_ze_ok(zeModuleDestroy(m));
}
END_TEST

START_TEST(kernel_launch_recorded) {
    ze_module_handle_t m = build("globals");
    ze_kernel_desc_t kd = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, "sim_fill"};
    ze_kernel_handle_t k = NULL;
    ck_assert_ze_ok(zeKernelCreate(m, &kd, &k));
    void *buf = alloc_shared(64);
    uint32_t n = 11;
    ck_assert_ze_ok(zeKernelSetArgumentValue(k, 0, sizeof(buf), &buf));
    ck_assert_ze_ok(zeKernelSetArgumentValue(k, 1, sizeof(n), &n));
    ck_assert_ze_ok(zeKernelSetGroupSize(k, 32, 2, 1));
    ze_event_pool_handle_t pool = make_pool(0, 1);
    ze_event_handle_t ev = make_event(pool, 0);
    ze_command_list_handle_t l = make_immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    ze_group_count_t groups = {4, 3, 2};
    ck_assert_ze_ok(zeCommandListAppendLaunchKernel(l, k, &groups, ev, 0, NULL));
    // Arguments were captured at append: changing them now does not alter the record.
    n = 12;
    ck_assert_ze_ok(zeKernelSetArgumentValue(k, 1, sizeof(n), &n));
    ck_assert_ze_ok(zeEventQueryStatus(ev));
    ck_assert_uint_eq(g_sim.GetLaunchCount(), 1);
    ze_sim_launch_t rec;
    ck_assert_ze_ok(g_sim.GetLaunch(0, &rec));
    ck_assert_str_eq(rec.kernel_name, "sim_fill");
    ck_assert_uint_eq(rec.group_count[0], 4);
    ck_assert_uint_eq(rec.group_count[2], 2);
    ck_assert_uint_eq(rec.group_size[0], 32);
    ck_assert_uint_eq(rec.num_args, 3);
    ck_assert_uint_eq(rec.num_args_set, 2);
    uint32_t got = 0;
    size_t size = sizeof(got);
    ck_assert_ze_ok(g_sim.GetLaunchArg(0, 1, &size, &got, NULL));
    ck_assert_uint_eq(got, 11);
    void *gotp = NULL;
    size = sizeof(gotp);
    ck_assert_ze_ok(g_sim.GetLaunchArg(0, 0, &size, &gotp, NULL));
    ck_assert_ptr_eq(gotp, buf);
    ck_assert_ze(g_sim.GetLaunchArg(0, 2, &size, NULL, NULL),
                 ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    g_sim.FailNext(ZE_SIM_FAIL_LAUNCH, ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ck_assert_ze(zeCommandListAppendLaunchKernel(l, k, &groups, NULL, 0, NULL),
                 ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    ck_assert_uint_eq(g_sim.GetLaunchCount(), 1);
    ck_assert_ze_ok(zeCommandListDestroy(l));
    ck_assert_ze_ok(zeEventDestroy(ev));
    ck_assert_ze_ok(zeEventPoolDestroy(pool));
    ck_assert_ze_ok(zeMemFree(g_context, buf));
    ck_assert_ze_ok(zeKernelDestroy(k));
    ck_assert_ze_ok(zeModuleDestroy(m));
}
END_TEST

START_TEST(kernel_launch_regular_and_indirect) {
    ze_module_handle_t m = build("globals");
    ze_kernel_desc_t kd = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, "sim_reqd"};
    ze_kernel_handle_t k = NULL;
    ck_assert_ze_ok(zeKernelCreate(m, &kd, &k));
    ze_group_count_t *counts = alloc_shared(sizeof(*counts));
    *counts = (ze_group_count_t){1, 1, 1};
    ze_command_list_handle_t l = make_regular();
    ck_assert_ze_ok(zeCommandListAppendLaunchKernelIndirect(l, k, counts, NULL, 0, NULL));
    ck_assert_ze_ok(zeCommandListClose(l));
    // The kernel may go before the list runs: the launch captured what it needs.
    ck_assert_ze_ok(zeKernelDestroy(k));
    ck_assert_uint_eq(g_sim.GetLaunchCount(), 0);
    ze_command_queue_handle_t q = make_queue();
    *counts = (ze_group_count_t){5, 6, 7}; // indirect counts are read when the launch runs
    ck_assert_ze_ok(zeCommandQueueExecuteCommandLists(q, 1, &l, NULL));
    ck_assert_ze_ok(zeCommandQueueExecuteCommandLists(q, 1, &l, NULL));
    ck_assert_ze_ok(zeCommandQueueSynchronize(q, UINT64_MAX));
    ck_assert_uint_eq(g_sim.GetLaunchCount(), 2);
    ze_sim_launch_t rec;
    ck_assert_ze_ok(g_sim.GetLaunch(1, &rec));
    ck_assert_int_eq(rec.kind, ZE_SIM_LAUNCH_INDIRECT);
    ck_assert_uint_eq(rec.group_count[1], 6);
    ck_assert_uint_eq(rec.group_size[0], 8); // the required size is the default
    ck_assert_ze(g_sim.GetLaunch(2, &rec), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ze_ok(zeCommandQueueDestroy(q));
    ck_assert_ze_ok(zeCommandListDestroy(l));
    ck_assert_ze_ok(zeMemFree(g_context, counts));
    ck_assert_ze_ok(zeModuleDestroy(m));
}
END_TEST

START_TEST(program_links_inputs) {
    const char *names[] = {"globals", "importer"};
    ze_module_handle_t m;
    char *log = NULL;
    ck_assert_ze_ok(build_program(names, 2, &m, &log));
    ck_assert_msg(!log || !*log, "unexpected build log: %s", log);
    free(log);
    uint32_t n = 0;
    ck_assert_ze_ok(zeModuleGetKernelNames(m, &n, NULL));
    ck_assert_uint_eq(n, 3);
    ze_module_properties_t p = {ZE_STRUCTURE_TYPE_MODULE_PROPERTIES, NULL, 0};
    ck_assert_ze_ok(zeModuleGetProperties(m, &p));
    ck_assert_uint_eq(p.flags, 0);
    size_t size = 0;
    void *ptr = NULL;
    ck_assert_ze_ok(zeModuleGetGlobalPointer(m, "urc_test_global", &size, &ptr));
    ck_assert_uint_eq(size, 32);
    char flags[8];
    size = sizeof(flags);
    ck_assert_ze_ok(g_sim.GetLastBuildFlags(1, &size, flags));
    ck_assert_str_eq(flags, "-b");
    // The native binary of a linked module holds every input and builds again.
    ck_assert_ze_ok(zeModuleGetNativeBinary(m, &size, NULL));
    uint8_t *bin = malloc(size);
    ck_assert_ze_ok(zeModuleGetNativeBinary(m, &size, bin));
    ck_assert_int_eq(memcmp(bin, "ZESIMNAT", 8), 0);
    ze_module_handle_t again;
    ck_assert_ze_ok(create_module(bin, size, ZE_MODULE_FORMAT_NATIVE, NULL, NULL, &again, NULL));
    n = 0;
    ck_assert_ze_ok(zeModuleGetKernelNames(again, &n, NULL));
    ck_assert_uint_eq(n, 3);
    free(bin);
    ck_assert_ze_ok(zeModuleDestroy(again));
    ck_assert_ze_ok(zeModuleDestroy(m));
}
END_TEST

START_TEST(program_unresolved_import) {
    const char *names[] = {"globals", "unresolved"};
    ze_module_handle_t m;
    char *log = NULL;
    ck_assert_ze(build_program(names, 2, &m, &log), ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
    ck_assert_ptr_null(m);
    ck_assert_msg(!log || strncmp(log, "Module <0x", 10) == 0, "log: %s", log);
    ck_assert_log_has(log, ">:  Unresolved Symbol <missing_fn>\n");
    free(log);
}
END_TEST

// The same input twice defines every export twice.
START_TEST(program_duplicate_definition) {
    const char *names[] = {"globals", "globals"};
    ze_module_handle_t m;
    char *log = NULL;
    ck_assert_ze(build_program(names, 2, &m, &log), ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
    ck_assert_log_has(log, "Duplicate Symbol <helper_add>");
    free(log);
}
END_TEST

START_TEST(dynamic_link_resolves_imports) {
    if (g_intercept)
        return; // the loader's own zeModuleDynamicLink crashes in this mode
    ze_module_handle_t imp = build("importer"), exp = build("globals");
    ze_module_properties_t p = {ZE_STRUCTURE_TYPE_MODULE_PROPERTIES, NULL, 0};
    ck_assert_ze_ok(zeModuleGetProperties(imp, &p));
    ck_assert_uint_eq(p.flags, ZE_MODULE_PROPERTY_FLAG_IMPORTS);
    ze_kernel_desc_t kd = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, "use_helper"};
    ze_kernel_handle_t k = NULL;
    ck_assert_ze_ok(zeKernelCreate(imp, &kd, &k));
    ze_command_list_handle_t l = make_immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    ze_group_count_t one = {1, 1, 1};
    ck_assert_ze(zeCommandListAppendLaunchKernel(l, k, &one, NULL, 0, NULL),
                 ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED);
    // Linking with itself alone fails and says what is missing.
    ze_module_build_log_handle_t blog = NULL;
    ck_assert_ze(zeModuleDynamicLink(1, &imp, &blog), ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
    char *log = log_text(blog);
    ck_assert_ptr_nonnull(strstr(log, "Unresolved Symbol <helper_add>"));
    ck_assert_ptr_nonnull(strstr(log, "Unresolved Symbol <urc_exported_counter>"));
    free(log);
    ck_assert_ze_ok(zeModuleBuildLogDestroy(blog));
    ze_module_handle_t both[2] = {imp, exp};
    ck_assert_ze_ok(zeModuleDynamicLink(2, both, NULL));
    ck_assert_ze_ok(zeModuleGetProperties(imp, &p));
    ck_assert_uint_eq(p.flags, 0);
    // The imported variable is the exporter's storage.
    void *from_imp = NULL, *from_exp = NULL;
    ck_assert_ze_ok(zeModuleGetGlobalPointer(imp, "urc_exported_counter", NULL, &from_imp));
    ck_assert_ze_ok(zeModuleGetGlobalPointer(exp, "urc_exported_counter", NULL, &from_exp));
    ck_assert_ptr_eq(from_imp, from_exp);
    ck_assert_ze_ok(zeCommandListAppendLaunchKernel(l, k, &one, NULL, 0, NULL));
    ck_assert_uint_eq(g_sim.GetLaunchCount(), 1);
    ck_assert_ze_ok(zeCommandListDestroy(l));
    ck_assert_ze_ok(zeKernelDestroy(k));
    ck_assert_ze_ok(zeModuleDestroy(imp));
    ck_assert_ze_ok(zeModuleDestroy(exp));
}
END_TEST

START_TEST(dynamic_link_failure_changes_nothing) {
    if (g_intercept)
        return; // as above
    ze_module_handle_t mods[2] = {build("unresolved"), build("importer")};
    ze_module_build_log_handle_t blog = NULL;
    ck_assert_ze(zeModuleDynamicLink(2, mods, &blog), ZE_RESULT_ERROR_MODULE_LINK_FAILURE);
    char *log = log_text(blog);
    ck_assert_ptr_nonnull(strstr(log, "Unresolved Symbol <missing_fn>"));
    ck_assert_ptr_nonnull(strstr(log, "Unresolved Symbol <helper_add>"));
    free(log);
    ck_assert_ze_ok(zeModuleBuildLogDestroy(blog));
    ze_linkage_inspection_ext_desc_t id = {ZE_STRUCTURE_TYPE_LINKAGE_INSPECTION_EXT_DESC, NULL,
                                           ZE_LINKAGE_INSPECTION_EXT_FLAG_UNRESOLVABLE_IMPORTS};
    ck_assert_ze_ok(zeModuleInspectLinkageExt(&id, 2, mods, &blog));
    log = log_text(blog);
    ck_assert_ptr_nonnull(strstr(log, "UNRESOLVABLE IMPORTS:\n"));
    ck_assert_ptr_nonnull(strstr(log, "missing_fn"));
    free(log);
    ck_assert_ze_ok(zeModuleBuildLogDestroy(blog));
    ck_assert_ze_ok(zeModuleDestroy(mods[0]));
    ck_assert_ze_ok(zeModuleDestroy(mods[1]));
}
END_TEST

START_TEST(module_spec_constants) {
    spv_t s = load_spv("spec");
    ze_module_handle_t m;
    ck_assert_ze_ok(create_module(s.data, s.size, ZE_MODULE_FORMAT_IL_SPIRV, NULL, NULL, &m, NULL));
    size_t size = 0;
    void *ptr = NULL;
    ck_assert_ze_ok(zeModuleGetGlobalPointer(m, "spec_array", &size, &ptr));
    ck_assert_uint_eq(size, 4 * sizeof(uint32_t));
    ck_assert_ze_ok(zeModuleGetGlobalPointer(m, "spec_value", &size, &ptr));
    ck_assert_uint_eq(*(uint32_t *)ptr, 5);
    ck_assert_ze_ok(zeModuleDestroy(m));
    // Overrides change both an array length and an initial value.
    const uint32_t ids[2] = {7, 8}, len = 10, val = 77;
    const void *vals[2] = {&len, &val};
    ze_module_constants_t consts = {2, ids, vals};
    ze_module_desc_t d = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                          NULL,
                          ZE_MODULE_FORMAT_IL_SPIRV,
                          s.size,
                          s.data,
                          NULL,
                          &consts};
    ck_assert_ze_ok(zeModuleCreate(g_context, g_device, &d, &m, NULL));
    ck_assert_ze_ok(zeModuleGetGlobalPointer(m, "spec_array", &size, &ptr));
    ck_assert_uint_eq(size, 10 * sizeof(uint32_t));
    ck_assert_ze_ok(zeModuleGetGlobalPointer(m, "spec_value", &size, &ptr));
    ck_assert_uint_eq(*(uint32_t *)ptr, 77);
    ck_assert_ze_ok(zeModuleDestroy(m));
    free(s.data);
}
END_TEST

// Every truncation and many random word changes of a real module: the reader may refuse them,
// but it must not crash or read out of bounds (run under AddressSanitizer in CI).
START_TEST(module_mutated_spirv_is_refused_safely) {
    spv_t s = load_spv("globals");
    uint32_t *w = malloc(s.size);
    const size_t nwords = s.size / 4;
    for (size_t len = 0; len < nwords; ++len) {
        ze_module_handle_t m;
        ze_module_desc_t d = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                              NULL,
                              ZE_MODULE_FORMAT_IL_SPIRV,
                              len * 4,
                              s.data,
                              NULL,
                              NULL};
        ze_result_t r = zeModuleCreate(g_context, g_device, &d, &m, NULL);
        if (r == ZE_RESULT_SUCCESS)
            ck_assert_ze_ok(zeModuleDestroy(m));
        else
            ck_assert_msg(r == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE ||
                              r == ZE_RESULT_ERROR_INVALID_SIZE,
                          "length %zu words: 0x%x", len, (unsigned)r);
    }
    uint32_t seed = 12345;
    for (int iter = 0; iter < 3000; ++iter) {
        memcpy(w, s.data, s.size);
        for (int k = 0; k < 1 + iter % 4; ++k) {
            seed = seed * 1103515245u + 12345u;
            size_t at = 5 + (seed >> 8) % (nwords - 5);
            seed = seed * 1103515245u + 12345u;
            // Small values hit ids, counts and enumerants; large ones hit word counts.
            w[at] = (iter & 1) ? (seed >> 16) % 64 : w[at] ^ (1u << (seed % 32));
        }
        ze_module_handle_t m;
        ze_module_desc_t d = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                              NULL,
                              ZE_MODULE_FORMAT_IL_SPIRV,
                              s.size,
                              (const uint8_t *)w,
                              NULL,
                              NULL};
        ze_result_t r = zeModuleCreate(g_context, g_device, &d, &m, NULL);
        if (r == ZE_RESULT_SUCCESS)
            ck_assert_ze_ok(zeModuleDestroy(m));
        else
            ck_assert_ze(r, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    }
    free(w);
    free(s.data);
}
END_TEST

#endif // ZE_SIM_SPV_DIR

static Suite *module_suite(void) {
    Suite *s = suite_create("module");
    TCase *tc = tcase("zeModuleCreate");
    tcase_add_test(tc, module_malformed_spirv);
    tcase_add_test(tc, module_injected_failure);
#ifdef ZE_SIM_SPV_DIR
    tcase_add_test(tc, module_kernel_names_and_flags);
    tcase_add_test(tc, module_global_pointer);
    tcase_add_test(tc, module_function_pointer_and_native_binary);
    tcase_add_test(tc, module_spec_constants);
    tcase_add_test(tc, module_mutated_spirv_is_refused_safely);
    suite_add_tcase(s, tc);
    tc = tcase("zeKernel");
    tcase_add_test(tc, kernel_arguments);
    tcase_add_test(tc, kernel_group_sizes);
    tcase_add_test(tc, kernel_launch_recorded);
    tcase_add_test(tc, kernel_launch_regular_and_indirect);
    suite_add_tcase(s, tc);
    tc = tcase("link");
    tcase_add_test(tc, program_links_inputs);
    tcase_add_test(tc, program_unresolved_import);
    tcase_add_test(tc, program_duplicate_definition);
    tcase_add_test(tc, dynamic_link_resolves_imports);
    tcase_add_test(tc, dynamic_link_failure_changes_nothing);
#endif
    suite_add_tcase(s, tc);
    return s;
}

// ---------------------------------------------------------------------------------------------
// Memory beyond USM: IPC handles (ipc.c), host-pointer import (host_import.c), more devices.

START_TEST(ipc_handle_opens_a_second_view) {
    void *p = NULL;
    ck_assert_ze_ok(zeMemAllocDevice(g_context, &g_dev_desc, 10000, 0, g_device, &p));
    memset(p, 0x3c, 10000);
    ze_ipc_mem_handle_t h;
    ck_assert_ze_ok(zeMemGetIpcHandle(g_context, p, &h));
    ck_assert_int_eq(((unsigned char *)p)[9999], 0x3c); // the export kept the bytes
    void *view = NULL;
    ck_assert_ze(zeMemOpenIpcHandle(g_context, g_device, h, 0x10, &view),
                 ZE_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_ze_ok(zeMemOpenIpcHandle(g_context, g_device, h, 0, &view));
    ck_assert_ptr_ne(view, p);
    ck_assert_int_eq(((unsigned char *)view)[9999], 0x3c);
    ((unsigned char *)view)[5] = 0x11; // one memory, two addresses
    ck_assert_int_eq(((unsigned char *)p)[5], 0x11);
    size_t size = 0;
    ck_assert_ze_ok(zeMemGetAddressRange(g_context, view, NULL, &size));
    ck_assert_uint_eq(size, 10000);
    ck_assert_ze(zeMemFree(g_context, view), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ze_ok(zeMemCloseIpcHandle(g_context, view));
    ck_assert_ze(zeMemCloseIpcHandle(g_context, view), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ze(zeMemCloseIpcHandle(g_context, p), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ze_ok(zeMemFree(g_context, p));
    // The allocation gone, its handle opens nothing.
    ck_assert_ze(zeMemOpenIpcHandle(g_context, g_device, h, 0, &view),
                 ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(ipc_handle_refusals) {
    void *host = NULL;
    ck_assert_ze_ok(zeMemAllocHost(g_context, &g_host_desc, 64, 0, &host));
    ze_ipc_mem_handle_t h;
    ck_assert_ze(zeMemGetIpcHandle(g_context, host, &h), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ze(zeMemGetIpcHandle(g_context, &h, &h), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ze_ok(zeMemFree(g_context, host));
    memset(&h, 0xa5, sizeof h);
    void *view = NULL;
    ck_assert_ze(zeMemOpenIpcHandle(g_context, g_device, h, 0, &view),
                 ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
END_TEST

typedef ze_result_t (*import_fn)(ze_driver_handle_t, void *, size_t);
typedef ze_result_t (*release_fn)(ze_driver_handle_t, void *);
typedef ze_result_t (*base_fn)(ze_driver_handle_t, void *, void **);

START_TEST(host_pointer_import) {
    if (g_intercept)
        return; // the functions would get the loader's wrapped driver handle
    import_fn import = NULL;
    release_fn release = NULL;
    base_fn base = NULL;
    ck_assert_ze_ok(zeDriverGetExtensionFunctionAddress(g_driver, "zexDriverImportExternalPointer",
                                                        (void **)&import));
    ck_assert_ze_ok(zeDriverGetExtensionFunctionAddress(g_driver, "zexDriverReleaseImportedPointer",
                                                        (void **)&release));
    ck_assert_ze_ok(zeDriverGetExtensionFunctionAddress(
        g_driver, "zexDriverGetHostPointerBaseAddress", (void **)&base));
    static char buf[8192];
    ck_assert_ze_ok(import(g_driver, buf, 4096));
    ck_assert_ze(import(g_driver, buf + 100, 10), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ze(import(g_driver, buf + 4096, 0), ZE_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ze_ok(import(g_driver, buf + 4096, 4096)); // adjacent, not overlapping
    void *b = NULL;
    ck_assert_ze_ok(base(g_driver, buf + 100, &b));
    ck_assert_ptr_eq(b, buf);
    ck_assert_ze(release(g_driver, buf + 100), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ze_ok(release(g_driver, buf));
    ck_assert_ze(release(g_driver, buf), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ze_ok(release(g_driver, buf + 4096));
    ck_assert_ze(base(g_driver, buf, &b), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
END_TEST

// Bindless images (bindless.c): offsets, sampled images need a sampler, pitched images live in
// USM, views share storage.
START_TEST(bindless_images) {
    ze_image_bindless_exp_desc_t bd = {ZE_STRUCTURE_TYPE_BINDLESS_IMAGE_EXP_DESC, NULL,
                                       ZE_IMAGE_BINDLESS_EXP_FLAG_BINDLESS};
    ze_image_desc_t d = {ZE_STRUCTURE_TYPE_IMAGE_DESC,
                         &bd,
                         0,
                         ZE_IMAGE_TYPE_2D,
                         {ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_FLOAT,
                          ZE_IMAGE_FORMAT_SWIZZLE_R, ZE_IMAGE_FORMAT_SWIZZLE_0,
                          ZE_IMAGE_FORMAT_SWIZZLE_0, ZE_IMAGE_FORMAT_SWIZZLE_1},
                         5,
                         3,
                         1,
                         0,
                         0};
    ze_image_handle_t a = NULL, b = NULL, plain = NULL, view = NULL, pitched = NULL;
    ck_assert_ze_ok(zeImageCreate(g_context, g_device, &d, &a));
    ck_assert_ze_ok(zeImageCreate(g_context, g_device, &d, &b));
    // SAMPLED_IMAGE and a sampler come together.
    bd.flags |= ZE_IMAGE_BINDLESS_EXP_FLAG_SAMPLED_IMAGE;
    ck_assert_ze(zeImageCreate(g_context, g_device, &d, &plain), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ze_sampler_desc_t sd = {ZE_STRUCTURE_TYPE_SAMPLER_DESC, NULL, ZE_SAMPLER_ADDRESS_MODE_CLAMP,
                            ZE_SAMPLER_FILTER_MODE_NEAREST, 1};
    bd.pNext = &sd;
    ck_assert_ze_ok(zeImageViewCreateExp(g_context, g_device, &d, a, &view));
    bd.pNext = NULL;
    bd.flags = ZE_IMAGE_BINDLESS_EXP_FLAG_BINDLESS;
    d.pNext = NULL;
    ck_assert_ze_ok(zeImageCreate(g_context, g_device, &d, &plain));
    // A view reads its image's storage.
    ze_command_list_handle_t list = make_immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    float src[15], back[15];
    for (int i = 0; i < 15; ++i)
        src[i] = (float)i;
    ck_assert_ze_ok(zeCommandListAppendImageCopyFromMemory(list, a, src, NULL, NULL, 0, NULL));
    memset(back, 0, sizeof back);
    ck_assert_ze_ok(zeCommandListAppendImageCopyToMemory(list, back, view, NULL, NULL, 0, NULL));
    ck_assert_mem_eq(back, src, sizeof src);
    // A pitched image lives in USM at the driver's pitch.
    void *usm = NULL;
    ck_assert_ze_ok(zeMemAllocDevice(g_context, &g_dev_desc, 512 * 3, 0, g_device, &usm));
    ze_image_pitched_exp_desc_t pd = {ZE_STRUCTURE_TYPE_PITCHED_IMAGE_EXP_DESC, NULL, usm};
    bd.pNext = &pd;
    d.pNext = &bd;
    ck_assert_ze_ok(zeImageCreate(g_context, g_device, &d, &pitched));
    ck_assert_ze_ok(
        zeCommandListAppendImageCopyFromMemory(list, pitched, src, NULL, NULL, 0, NULL));
    ck_assert_mem_eq((char *)usm + 512, src + 5, 5 * sizeof(float));
    d.height = 4; // 4 rows of 512 bytes leave the allocation
    ze_image_handle_t big = NULL;
    ck_assert_ze(zeImageCreate(g_context, g_device, &d, &big), ZE_RESULT_ERROR_INVALID_SIZE);
    if (!g_intercept) { // the functions would get the loader's wrapped handles
        urc_zeImageGetDeviceOffsetExp_fn offset = NULL;
        urc_zeMemGetPitchFor2dImage_fn pitch = NULL;
        ck_assert_ze_ok(zeDriverGetExtensionFunctionAddress(g_driver, "zeImageGetDeviceOffsetExp",
                                                            (void **)&offset));
        ck_assert_ze_ok(zeDriverGetExtensionFunctionAddress(g_driver, "zeMemGetPitchFor2dImage",
                                                            (void **)&pitch));
        uint64_t oa = 0, ob = 0, ov = 0, op = 0;
        ck_assert_ze_ok(offset(a, &oa));
        ck_assert_ze_ok(offset(b, &ob));
        ck_assert_ze_ok(offset(view, &ov));
        ck_assert_ze_ok(offset(pitched, &op));
        ck_assert(oa != 0 && oa != ob && ov != oa && ov != ob && op != ov);
        ck_assert_ze(offset(plain, &oa), ZE_RESULT_ERROR_INVALID_ARGUMENT);
        size_t row = 0;
        ck_assert_ze_ok(pitch(g_context, g_device, 5, 3, 4, &row));
        ck_assert_uint_eq(row, 512);
        ck_assert_ze(pitch(g_context, g_device, 0, 3, 4, &row), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    ck_assert_ze_ok(zeCommandListDestroy(list));
    ck_assert_ze_ok(zeImageDestroy(pitched));
    ck_assert_ze_ok(zeImageDestroy(view));
    ck_assert_ze_ok(zeImageDestroy(plain));
    ck_assert_ze_ok(zeImageDestroy(b));
    ck_assert_ze_ok(zeImageDestroy(a));
    ck_assert_ze_ok(zeMemFree(g_context, usm));
}
END_TEST

// Imported memory (mem_import.c): a memfd's bytes seen through a device allocation and a
// bindless image made with ze_external_memory_import_fd_t.
START_TEST(imported_memory) {
    int fd = memfd_create("ze_sim_import", MFD_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, 4096), 0);
    unsigned char *file = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ck_assert_ptr_ne(file, MAP_FAILED);
    memset(file, 0x5a, 4096);
    ze_external_memory_import_fd_t imp = {ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD, NULL,
                                          ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, fd};
    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, &imp, 0, 0};
    void *p = NULL;
    ck_assert_ze(zeMemAllocDevice(g_context, &dd, 8192, 0, g_device, &p),
                 ZE_RESULT_ERROR_INVALID_ARGUMENT); // more than the file holds
    imp.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_WIN32;
    ck_assert_ze(zeMemAllocDevice(g_context, &dd, 4096, 0, g_device, &p),
                 ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
    imp.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;
    ck_assert_ze_ok(zeMemAllocDevice(g_context, &dd, 4096, 0, g_device, &p));
    ck_assert_int_eq(((unsigned char *)p)[4095], 0x5a);
    ((unsigned char *)p)[7] = 0x07; // one memory, two mappings
    ck_assert_int_eq(file[7], 0x07);
    ze_image_bindless_exp_desc_t bd = {ZE_STRUCTURE_TYPE_BINDLESS_IMAGE_EXP_DESC, &imp,
                                       ZE_IMAGE_BINDLESS_EXP_FLAG_BINDLESS};
    ze_image_desc_t d = {ZE_STRUCTURE_TYPE_IMAGE_DESC,
                         &bd,
                         0,
                         ZE_IMAGE_TYPE_2D,
                         {ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_TYPE_UINT,
                          ZE_IMAGE_FORMAT_SWIZZLE_R, ZE_IMAGE_FORMAT_SWIZZLE_0,
                          ZE_IMAGE_FORMAT_SWIZZLE_0, ZE_IMAGE_FORMAT_SWIZZLE_1},
                         16,
                         4,
                         1,
                         0,
                         0};
    ze_image_handle_t img = NULL;
    ck_assert_ze_ok(zeImageCreate(g_context, g_device, &d, &img));
    unsigned char back[64];
    ze_command_list_handle_t list = make_immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    ck_assert_ze_ok(zeCommandListAppendImageCopyToMemory(list, back, img, NULL, NULL, 0, NULL));
    ck_assert_mem_eq(back, file, sizeof back);
    ck_assert_ze_ok(zeCommandListDestroy(list));
    ck_assert_ze_ok(zeImageDestroy(img));
    ck_assert_ze_ok(zeMemFree(g_context, p));
    munmap(file, 4096);
    close(fd);
}
END_TEST

START_TEST(more_devices_and_their_peers) {
    setenv("ZE_SIM_DEVICES", "3", 1);
    ze_device_handle_t d[4] = {NULL, NULL, NULL, NULL};
    uint32_t n = 0;
    ck_assert_ze_ok(zeDeviceGet(g_driver, &n, NULL));
    ck_assert_uint_eq(n, 3);
    ck_assert_ze_ok(zeDeviceGet(g_driver, &n, d));
    ze_device_properties_t p0, p1;
    memset(&p0, 0, sizeof p0);
    memset(&p1, 0, sizeof p1);
    p0.stype = p1.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
    ck_assert_ze_ok(zeDeviceGetProperties(d[0], &p0));
    ck_assert_ze_ok(zeDeviceGetProperties(d[1], &p1));
    ck_assert_int_ne(memcmp(p0.uuid.id, p1.uuid.id, sizeof p0.uuid.id), 0);
    ze_bool_t can = 0;
    ck_assert_ze_ok(zeDeviceCanAccessPeer(d[0], d[1], &can));
    ck_assert(can);
    ck_assert_ze_ok(zeDeviceCanAccessPeer(d[2], d[2], &can));
    ck_assert(can);
    ck_assert_ze_ok(zeDeviceCanAccessPeer(d[0], d[2], &can));
    ck_assert(!can);
    ze_device_p2p_properties_t p2p = {ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES, NULL, 0};
    ck_assert_ze_ok(zeDeviceGetP2PProperties(d[2], d[1], &p2p));
    ck_assert_uint_eq(p2p.flags, 0);
    unsetenv("ZE_SIM_DEVICES");
    ck_assert_ze_ok(zeDeviceGet(g_driver, &n, NULL));
    ck_assert_uint_eq(n, 1);
}
END_TEST

static Suite *memory_ext_suite(void) {
    Suite *s = suite_create("memory_ext");
    TCase *tc = tcase("zeMemIpc");
    tcase_add_test(tc, ipc_handle_opens_a_second_view);
    tcase_add_test(tc, ipc_handle_refusals);
    suite_add_tcase(s, tc);
    tc = tcase("zexHostImport");
    tcase_add_test(tc, host_pointer_import);
    tcase_add_test(tc, bindless_images);
    tcase_add_test(tc, imported_memory);
    suite_add_tcase(s, tc);
    tc = tcase("zeDevicePeers");
    tcase_add_test(tc, more_devices_and_their_peers);
    suite_add_tcase(s, tc);
    return s;
}

// ---------------------------------------------------------------------------------------------

int main(void) {
    // The loader reads this in zeInit (in each forked test), so it must be set first.
    setenv("ZE_ENABLE_ALT_DRIVERS", ZE_SIM_LIBRARY, 1);
    const char *intercept = getenv("ZE_ENABLE_LOADER_INTERCEPT");
    g_intercept = intercept && strcmp(intercept, "1") == 0; // the loader's own rule
    SRunner *sr = srunner_create(driver_suite());
    srunner_add_suite(sr, device_suite());
    srunner_add_suite(sr, memory_suite());
    srunner_add_suite(sr, memory_ext_suite());
    srunner_add_suite(sr, event_suite());
    srunner_add_suite(sr, cmdlist_suite());
    srunner_add_suite(sr, module_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
