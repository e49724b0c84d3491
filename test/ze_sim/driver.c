// SPDX-License-Identifier: MIT
// The driver object, zeInit, driver queries, and the small helpers every file uses.
#include "ze_sim_internal.h"
#include "ze_sim_entry.h"
#include "../../adapters/level_zero/ze_bindless_exp.h"
#include "../../adapters/level_zero/ze_mutable_exp.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SIM_DRIVER_VERSION 0x00010000u

static sim_driver_t g_driver = {{SIM_MAGIC, SIM_KIND_DRIVER}};
static atomic_int g_initialized;
static atomic_ullong g_live_objects;

// The driver and device are static objects: handles to them never die.
sim_driver_t *sim_the_driver(void) {
    return &g_driver;
}

int sim_initialized(void) {
    return atomic_load(&g_initialized);
}

// ---------------------------------------------------------------------------------------------
// Handles.

void sim_obj_init(sim_header_t *hdr, sim_kind_t kind) {
    hdr->magic = SIM_MAGIC;
    hdr->kind = kind;
    atomic_fetch_add(&g_live_objects, 1);
}

void sim_obj_fini(sim_header_t *hdr) {
    // A handle used after destruction then fails the magic check instead of looking valid,
    // as long as the memory has not been reused.
    hdr->magic = SIM_MAGIC_DEAD;
    atomic_fetch_sub(&g_live_objects, 1);
}

uint64_t sim_obj_live_count(void) {
    return atomic_load(&g_live_objects);
}

void *sim_obj(const void *handle, sim_kind_t kind, ze_result_t *res) {
    const sim_header_t *hdr = handle;
    if (!hdr) {
        *res = ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
        return NULL;
    }
    if (hdr->magic != SIM_MAGIC || hdr->kind != (uint32_t)kind) {
        *res = ZE_RESULT_ERROR_INVALID_ARGUMENT;
        return NULL;
    }
    *res = ZE_RESULT_SUCCESS;
    return (void *)(uintptr_t)handle;
}

// ---------------------------------------------------------------------------------------------
// Helpers.

// CLOCK_MONOTONIC_RAW is not slewed by NTP, so simulated durations are exact.
uint64_t sim_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t sim_device_ts(void) {
    return sim_now_ns() & ((1ull << SIM_TIMESTAMP_BITS) - 1);
}

uint64_t sim_kernel_ts(void) {
    return sim_now_ns() & ((1ull << SIM_KERNEL_TS_BITS) - 1);
}

// Anything but a whole number falls back, so a typo cannot set a zero timeout.
uint64_t sim_env_u64(const char *name, uint64_t fallback) {
    const char *v = getenv(name);
    if (!v || !*v)
        return fallback;
    char *end = NULL;
    unsigned long long n = strtoull(v, &end, 0);
    return (end && *end == '\0') ? (uint64_t)n : fallback;
}

// Every extension structure starts with stype and pNext, as ze_base_properties_t does.
void *sim_find_ext(void *pnext, ze_structure_type_t stype) {
    for (ze_base_properties_t *p = pnext; p; p = p->pNext)
        if (p->stype == stype)
            return p;
    return NULL;
}

const void *sim_find_ext_const(const void *pnext, ze_structure_type_t stype) {
    for (const ze_base_desc_t *p = pnext; p; p = p->pNext)
        if (p->stype == stype)
            return p;
    return NULL;
}

char *sim_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void sim_text_printf(sim_text_t *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 128;
        while (cap < t->len + (size_t)n + 1)
            cap *= 2;
        char *buf = realloc(t->buf, cap);
        if (!buf)
            return;
        t->buf = buf;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

char *sim_text_take(sim_text_t *t) {
    char *s = t->buf ? t->buf : sim_strdup("");
    t->buf = NULL;
    t->len = t->cap = 0;
    return s;
}

// A zero count or no array asks for the count; a short array gets a prefix.
void sim_copy_out_count(uint32_t *count, void *out, const void *src, uint32_t n, size_t size) {
    if (*count == 0 || !out) {
        *count = n;
        return;
    }
    if (*count > n)
        *count = n;
    memcpy(out, src, (size_t)*count * size);
}

// ---------------------------------------------------------------------------------------------
// Global and driver entry points.

ze_result_t sim_init(ze_init_flags_t flags) {
    if (flags & ~(ze_init_flags_t)(ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY))
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    // Asking for VPU drivers only excludes this GPU driver, as with the real GPU driver.
    if ((flags & ZE_INIT_FLAG_VPU_ONLY) && !(flags & ZE_INIT_FLAG_GPU_ONLY))
        return ZE_RESULT_ERROR_UNINITIALIZED;
    // The loader calls this twice (once to probe, once for the application); both succeed.
    atomic_store(&g_initialized, 1);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_driver_get(uint32_t *pCount, ze_driver_handle_t *phDrivers) {
    if (!pCount)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (!sim_initialized())
        return ZE_RESULT_ERROR_UNINITIALIZED;
    // Without intercept the loader hands this pointer to the application unchanged.
    ze_driver_handle_t one = (ze_driver_handle_t)&g_driver;
    sim_copy_out_count(pCount, phDrivers, &one, 1, sizeof(one));
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_driver_get_api_version(ze_driver_handle_t hDriver, ze_api_version_t *version) {
    ze_result_t r;
    if (!sim_obj(hDriver, SIM_KIND_DRIVER, &r))
        return r;
    if (!version)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    *version = ZE_API_VERSION_CURRENT;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_driver_get_properties(ze_driver_handle_t hDriver, ze_driver_properties_t *props) {
    ze_result_t r;
    if (!sim_obj(hDriver, SIM_KIND_DRIVER, &r))
        return r;
    if (!props)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    static const uint8_t uuid[ZE_MAX_DRIVER_UUID_SIZE] = "urc-ze-sim-drv1";
    memcpy(props->uuid.id, uuid, sizeof(uuid));
    props->driverVersion = SIM_DRIVER_VERSION;
    ze_driver_memory_free_ext_properties_t *freep =
        sim_find_ext(props->pNext, ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES);
    if (freep)
        freep->freePolicies = ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE |
                              ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_driver_get_ipc_properties(ze_driver_handle_t hDriver,
                                          ze_driver_ipc_properties_t *props) {
    ze_result_t r;
    if (!sim_obj(hDriver, SIM_KIND_DRIVER, &r))
        return r;
    if (!props)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // Memory across processes (ipc.c); event pools within the process that made them
    // (ipc_event.c).
    props->flags = ZE_IPC_PROPERTY_FLAG_MEMORY | ZE_IPC_PROPERTY_FLAG_EVENT_POOL;
    return ZE_RESULT_SUCCESS;
}

// Only extensions whose entry points or structures are simulated are advertised.
static const ze_driver_extension_properties_t g_extensions[] = {
    {ZE_MODULE_PROGRAM_EXP_NAME, ZE_MODULE_PROGRAM_EXP_VERSION_CURRENT},
    {ZE_LINKAGE_INSPECTION_EXT_NAME, ZE_LINKAGE_INSPECTION_EXT_VERSION_CURRENT},
    {ZE_LINKONCE_ODR_EXT_NAME, ZE_LINKONCE_ODR_EXT_VERSION_CURRENT},
    {ZE_GLOBAL_OFFSET_EXP_NAME, ZE_GLOBAL_OFFSET_EXP_VERSION_CURRENT},
    {ZE_RELAXED_ALLOCATION_LIMITS_EXP_NAME, ZE_RELAXED_ALLOCATION_LIMITS_EXP_VERSION_CURRENT},
    {ZE_FLOAT_ATOMICS_EXT_NAME, ZE_FLOAT_ATOMICS_EXT_VERSION_CURRENT},
    {ZE_PCI_PROPERTIES_EXT_NAME, ZE_PCI_PROPERTIES_EXT_VERSION_CURRENT},
    {ZE_MEMORY_FREE_POLICIES_EXT_NAME, ZE_MEMORY_FREE_POLICIES_EXT_VERSION_CURRENT},
    {ZE_EU_COUNT_EXT_NAME, ZE_EU_COUNT_EXT_VERSION_CURRENT},
    {ZE_KERNEL_SCHEDULING_HINTS_EXP_NAME, ZE_SCHEDULING_HINTS_EXP_VERSION_CURRENT},
    {ZE_MUTABLE_COMMAND_LIST_EXP_NAME, ZE_MUTABLE_COMMAND_LIST_EXP_VERSION_CURRENT}, // mutable.c
    {ZE_BINDLESS_IMAGE_EXP_NAME, ZE_BINDLESS_IMAGE_EXP_VERSION_CURRENT},             // bindless.c
};

ze_result_t sim_driver_get_extension_properties(ze_driver_handle_t hDriver, uint32_t *pCount,
                                                ze_driver_extension_properties_t *props) {
    ze_result_t r;
    if (!sim_obj(hDriver, SIM_KIND_DRIVER, &r))
        return r;
    if (!pCount)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    uint32_t n = (uint32_t)(sizeof(g_extensions) / sizeof(g_extensions[0]));
    if (!sim_bindless_enabled())
        --n; // the bindless extension is the last entry
    sim_copy_out_count(pCount, props, g_extensions, n, sizeof(g_extensions[0]));
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_driver_get_extension_function_address(ze_driver_handle_t hDriver, const char *name,
                                                      void **ppFunctionAddress) {
    ze_result_t r;
    if (!sim_obj(hDriver, SIM_KIND_DRIVER, &r))
        return r;
    if (!name || !ppFunctionAddress)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // Only the mutable command list functions (mutable.c), Intel's host-pointer import
    // functions (host_import.c) and the bindless image ones (bindless.c) lack a DDI slot in API
    // 1.4's tables; they are reached by name.
    sim_fn_t fn = sim_mutable_function(name);
    memcpy(ppFunctionAddress, &fn, sizeof fn);
    if (*ppFunctionAddress == NULL)
        *ppFunctionAddress = sim_host_import_function(name);
    if (*ppFunctionAddress == NULL)
        *ppFunctionAddress = sim_bindless_function(name);
    return *ppFunctionAddress != NULL ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}
