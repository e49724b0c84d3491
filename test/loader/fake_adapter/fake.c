// SPDX-License-Identifier: MIT
// The loader tests' fake adapter: a real adapter library (the generated table and getters in
// generated/fake_ddi.c plus this file) with a small made-up topology of platforms, devices and
// sub-devices. It is built twice, posing as two backends (FAKE_TAG, FAKE_BACKEND), so a test
// can load two adapters at once and see which one each call reaches. Slots it does not
// answer by hand count the call (fake_record) and return success.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "dispatch_calls.h"
#include "core/error.h"
#include "fake_entry_points.h"
#include "fake_inspect.h"
#include "env/log.h"
#include "core/object.h"

#define FAKE_API __attribute__((visibility("default")))

FAKE_API const char *const fake_tag = FAKE_TAG;
FAKE_API const ur_backend_t fake_backend = FAKE_BACKEND;

typedef enum fake_kind_t { FAKE_ADAPTER = 1, FAKE_PLATFORM, FAKE_DEVICE, FAKE_GENERIC } fake_kind_t;

typedef struct fake_obj_t {
    urc_object_t base; // the table pointer first, as in every handle
    fake_kind_t kind;
} fake_obj_t;

typedef struct fake_platform_t {
    fake_obj_t obj;
    char name[48];
} fake_platform_t;

typedef struct fake_device_t {
    fake_obj_t obj;
    fake_platform_t *platform;
    struct fake_device_t *parent;
    ur_device_type_t type;
    uint32_t nparts;
    struct fake_device_t *parts[FAKE_MAX_PARTS];
    char name[64]; // "<tag>:<platform>:<root>[.<sub>[.<subsub>]]"
} fake_device_t;

// Everything is static: handles stay valid for the life of the library, and a device's
// reference count starts at 1 so "outstanding" references are what callers hold.
static struct {
    fake_obj_t adapter; // its count is the number of references handed out
    fake_obj_t generic; // stands for any other handle in the dispatch tests
    fake_topology_t topo;
    fake_platform_t platforms[FAKE_MAX_PLATFORMS];
    fake_device_t roots[FAKE_MAX_PLATFORMS][FAKE_MAX_DEVICES];
    fake_device_t subs[FAKE_MAX_PLATFORMS][FAKE_MAX_DEVICES][FAKE_MAX_PARTS];
    fake_device_t subsubs[FAKE_MAX_PLATFORMS][FAKE_MAX_DEVICES][FAKE_MAX_PARTS][FAKE_MAX_PARTS];
    atomic_uint calls[URC_SLOT_COUNT];
    _Atomic(const void *) routes[URC_SLOT_COUNT];
    pthread_mutex_t lock; // guards the getter failure below
    char fail_table[64];
    ur_result_t fail_result;
} fake = {.lock = PTHREAD_MUTEX_INITIALIZER};

static urc_logger_t *logger(void) {
    return urc_logger(FAKE_BACKEND == UR_BACKEND_CUDA ? URC_ENV_LOG_CUDA : URC_ENV_LOG_OPENCL);
}

static void init_obj(fake_obj_t *obj, fake_kind_t kind) {
    static const urc_kind_t kinds[] = {[FAKE_ADAPTER] = URC_KIND_ADAPTER,
                                       [FAKE_PLATFORM] = URC_KIND_PLATFORM,
                                       [FAKE_DEVICE] = URC_KIND_DEVICE,
                                       [FAKE_GENERIC] = URC_KIND_CONTEXT};
    urc_object_init(&obj->base, &fake_ddi, kinds[kind]);
    obj->kind = kind;
}

static void init_device(fake_device_t *dev, fake_platform_t *pf, fake_device_t *parent,
                        ur_device_type_t type, uint32_t nparts) {
    memset(dev, 0, sizeof *dev);
    init_obj(&dev->obj, FAKE_DEVICE);
    dev->platform = pf;
    dev->parent = parent;
    dev->type = type;
    dev->nparts = nparts;
}

static void build(const fake_topology_t *t) {
    fake.topo = *t;
    fake_topology_t *topo = &fake.topo;
    topo->platforms = topo->platforms < 1 ? 1 : topo->platforms;
    topo->platforms = topo->platforms > FAKE_MAX_PLATFORMS ? FAKE_MAX_PLATFORMS : topo->platforms;
    topo->devices = topo->devices > FAKE_MAX_DEVICES ? FAKE_MAX_DEVICES : topo->devices;
    topo->subs = topo->subs > FAKE_MAX_PARTS ? FAKE_MAX_PARTS : topo->subs;
    topo->subsubs = topo->subs == 0 || topo->subsubs > FAKE_MAX_PARTS ? 0 : topo->subsubs;
    init_obj(&fake.adapter, FAKE_ADAPTER);
    atomic_store(&fake.adapter.base.refcount, 0);
    init_obj(&fake.generic, FAKE_GENERIC);
    for (uint32_t p = 0; p < topo->platforms; ++p) {
        fake_platform_t *pf = &fake.platforms[p];
        init_obj(&pf->obj, FAKE_PLATFORM);
        snprintf(pf->name, sizeof pf->name, "urc fake %s platform %u", FAKE_TAG, p);
        for (uint32_t d = 0; d < topo->devices; ++d) {
            fake_device_t *root = &fake.roots[p][d];
            init_device(root, pf, NULL, topo->types[d] != 0 ? topo->types[d] : UR_DEVICE_TYPE_GPU,
                        topo->subs);
            snprintf(root->name, sizeof root->name, "%s:%u:%u", FAKE_TAG, p, d);
            for (uint32_t s = 0; s < topo->subs; ++s) {
                fake_device_t *sub = &fake.subs[p][d][s];
                init_device(sub, pf, root, root->type, topo->subsubs);
                snprintf(sub->name, sizeof sub->name, "%s:%u:%u.%u", FAKE_TAG, p, d, s);
                root->parts[s] = sub;
                for (uint32_t k = 0; k < topo->subsubs; ++k) {
                    fake_device_t *leaf = &fake.subsubs[p][d][s][k];
                    init_device(leaf, pf, sub, root->type, 0);
                    snprintf(leaf->name, sizeof leaf->name, "%s:%u:%u.%u.%u", FAKE_TAG, p, d, s, k);
                    sub->parts[k] = leaf;
                }
            }
        }
    }
}

// Posing as OpenCL: one platform, a GPU and a CPU, two sub-devices each with two more.
// Posing as CUDA: two platforms of two GPUs, each with two sub-devices.
static void build_default(void) {
    fake_topology_t t =
        FAKE_BACKEND == UR_BACKEND_CUDA
            ? (fake_topology_t){2, 2, {UR_DEVICE_TYPE_GPU, UR_DEVICE_TYPE_GPU}, 2, 0}
            : (fake_topology_t){1, 2, {UR_DEVICE_TYPE_GPU, UR_DEVICE_TYPE_CPU}, 2, 2};
    build(&t);
}

static pthread_once_t built = PTHREAD_ONCE_INIT;

static void note(uint32_t slot, const void *route) {
    pthread_once(&built, build_default);
    atomic_fetch_add_explicit(&fake.calls[slot], 1, memory_order_relaxed);
    atomic_store_explicit(&fake.routes[slot], route, memory_order_relaxed);
}

static bool is(const void *handle, fake_kind_t kind) {
    return ((const fake_obj_t *)handle)->kind == kind;
}

// Drops a reference without going below `floor`; false when it would.
static bool drop(fake_obj_t *obj, unsigned floor) {
    unsigned count = atomic_load(&obj->base.refcount);
    do {
        if (count <= floor)
            return false;
    } while (!atomic_compare_exchange_weak(&obj->base.refcount, &count, count - 1));
    return true;
}

static ur_result_t answer(const void *value, size_t size, size_t propSize, void *pPropValue,
                          size_t *pPropSizeRet) {
    if (pPropValue != NULL) {
        if (propSize < size)
            return UR_RESULT_ERROR_INVALID_SIZE;
        memcpy(pPropValue, value, size);
    }
    if (pPropSizeRet != NULL)
        *pPropSizeRet = size;
    return UR_RESULT_SUCCESS;
}

#define ANSWER(v)     answer(&(v), sizeof(v), propSize, pPropValue, pPropSizeRet)
#define ANSWER_STR(s) answer((s), strlen(s) + 1, propSize, pPropValue, pPropSizeRet)

ur_result_t fake_record(uint32_t slot, const void *route) {
    note(slot, route);
    return UR_RESULT_SUCCESS;
}

ur_result_t fake_table_hook(const char *table) {
    pthread_mutex_lock(&fake.lock);
    ur_result_t result = strcmp(fake.fail_table, table) == 0 ? fake.fail_result : UR_RESULT_SUCCESS;
    pthread_mutex_unlock(&fake.lock);
    return result;
}

ur_result_t fake_adapter_get(uint32_t NumEntries, ur_adapter_handle_t *phAdapters,
                             uint32_t *pNumAdapters) {
    note(URC_SLOT_ADAPTER_GET, NULL);
    if (NumEntries > 0 && phAdapters != NULL) {
        urc_user_retain(&fake.adapter.base);
        phAdapters[0] = (ur_adapter_handle_t)&fake.adapter;
    }
    if (pNumAdapters != NULL)
        *pNumAdapters = 1;
    URC_LOG(logger(), UR_LOGGER_LEVEL_DEBUG, "fake %s: urAdapterGet", FAKE_TAG);
    return UR_RESULT_SUCCESS;
}

ur_result_t fake_adapter_release(ur_adapter_handle_t hAdapter) {
    note(URC_SLOT_ADAPTER_RELEASE, hAdapter);
    if (!is(hAdapter, FAKE_ADAPTER))
        return UR_RESULT_ERROR_INVALID_VALUE;
    if (!drop(&fake.adapter, 0))
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 1, "fake %s: adapter over-released",
                             FAKE_TAG);
    return UR_RESULT_SUCCESS;
}

ur_result_t fake_adapter_retain(ur_adapter_handle_t hAdapter) {
    note(URC_SLOT_ADAPTER_RETAIN, hAdapter);
    if (!is(hAdapter, FAKE_ADAPTER))
        return UR_RESULT_ERROR_INVALID_VALUE;
    urc_user_retain(&fake.adapter.base);
    return UR_RESULT_SUCCESS;
}

ur_result_t fake_adapter_get_last_error(ur_adapter_handle_t hAdapter, const char **ppMessage,
                                        int32_t *pError) {
    note(URC_SLOT_ADAPTER_GET_LAST_ERROR, hAdapter);
    urc_error_get(ppMessage, pError);
    return UR_RESULT_SUCCESS;
}

ur_result_t fake_adapter_get_info(ur_adapter_handle_t hAdapter, ur_adapter_info_t propName,
                                  size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    note(URC_SLOT_ADAPTER_GET_INFO, hAdapter);
    if (!is(hAdapter, FAKE_ADAPTER))
        return UR_RESULT_ERROR_INVALID_VALUE;
    switch (propName) {
    case UR_ADAPTER_INFO_BACKEND:
        return ANSWER(fake_backend);
    case UR_ADAPTER_INFO_REFERENCE_COUNT: {
        uint32_t count = urc_refcount(&fake.adapter.base);
        return ANSWER(count);
    }
    case UR_ADAPTER_INFO_VERSION: {
        uint32_t version = 1;
        return ANSWER(version);
    }
    default:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
}

ur_result_t fake_adapter_set_logger_callback(ur_adapter_handle_t hAdapter,
                                             ur_logger_callback_t pfnLoggerCallback,
                                             void *pUserData, ur_logger_level_t level) {
    note(URC_SLOT_ADAPTER_SET_LOGGER_CALLBACK, hAdapter);
    urc_log_set_callback(logger(), pfnLoggerCallback, pUserData, level);
    return UR_RESULT_SUCCESS;
}

ur_result_t fake_adapter_set_logger_callback_level(ur_adapter_handle_t hAdapter,
                                                   ur_logger_level_t level) {
    note(URC_SLOT_ADAPTER_SET_LOGGER_CALLBACK_LEVEL, hAdapter);
    urc_log_set_callback_level(logger(), level);
    return UR_RESULT_SUCCESS;
}

ur_result_t fake_platform_get(ur_adapter_handle_t hAdapter, uint32_t NumEntries,
                              ur_platform_handle_t *phPlatforms, uint32_t *pNumPlatforms) {
    note(URC_SLOT_PLATFORM_GET, hAdapter);
    if (!is(hAdapter, FAKE_ADAPTER))
        return UR_RESULT_ERROR_INVALID_VALUE;
    uint32_t n = fake.topo.platforms;
    for (uint32_t i = 0; phPlatforms != NULL && i < n && i < NumEntries; ++i)
        phPlatforms[i] = (ur_platform_handle_t)&fake.platforms[i];
    if (pNumPlatforms != NULL)
        *pNumPlatforms = n;
    URC_LOG(logger(), UR_LOGGER_LEVEL_DEBUG, "fake %s: urPlatformGet -> %u", FAKE_TAG, n);
    return UR_RESULT_SUCCESS;
}

ur_result_t fake_platform_get_info(ur_platform_handle_t hPlatform, ur_platform_info_t propName,
                                   size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    note(URC_SLOT_PLATFORM_GET_INFO, hPlatform);
    if (!is(hPlatform, FAKE_PLATFORM))
        return UR_RESULT_ERROR_INVALID_PLATFORM;
    const fake_platform_t *pf = (const fake_platform_t *)hPlatform;
    switch (propName) {
    case UR_PLATFORM_INFO_NAME:
        return ANSWER_STR(pf->name);
    case UR_PLATFORM_INFO_VENDOR_NAME:
        return ANSWER_STR("urc");
    case UR_PLATFORM_INFO_VERSION:
        return ANSWER_STR("fake 1.0");
    case UR_PLATFORM_INFO_EXTENSIONS:
        return ANSWER_STR("");
    case UR_PLATFORM_INFO_PROFILE:
        return ANSWER_STR("FULL_PROFILE");
    case UR_PLATFORM_INFO_BACKEND:
        return ANSWER(fake_backend);
    case UR_PLATFORM_INFO_ADAPTER: {
        ur_adapter_handle_t adapter = (ur_adapter_handle_t)&fake.adapter;
        return ANSWER(adapter);
    }
    default:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
}

ur_result_t fake_device_get(ur_platform_handle_t hPlatform, ur_device_type_t DeviceType,
                            uint32_t NumEntries, ur_device_handle_t *phDevices,
                            uint32_t *pNumDevices) {
    note(URC_SLOT_DEVICE_GET, hPlatform);
    if (!is(hPlatform, FAKE_PLATFORM))
        return UR_RESULT_ERROR_INVALID_PLATFORM;
    size_t p = (size_t)((const fake_platform_t *)hPlatform - fake.platforms);
    uint32_t n = 0;
    for (uint32_t d = 0; d < fake.topo.devices; ++d) {
        fake_device_t *dev = &fake.roots[p][d];
        if (DeviceType != UR_DEVICE_TYPE_ALL && DeviceType != UR_DEVICE_TYPE_DEFAULT &&
            DeviceType != dev->type)
            continue;
        // Each device handed out carries a reference, as the specification asks.
        if (phDevices != NULL && n < NumEntries) {
            urc_user_retain(&dev->obj.base);
            phDevices[n] = (ur_device_handle_t)dev;
        }
        ++n;
    }
    if (pNumDevices != NULL)
        *pNumDevices = n;
    return UR_RESULT_SUCCESS;
}

static ur_result_t device_info(const fake_device_t *dev, ur_device_info_t propName, size_t propSize,
                               void *pPropValue, size_t *pPropSizeRet) {
    switch (propName) {
    case UR_DEVICE_INFO_TYPE:
        return ANSWER(dev->type);
    case UR_DEVICE_INFO_NAME:
        return ANSWER_STR(dev->name);
    case UR_DEVICE_INFO_VENDOR:
        return ANSWER_STR("urc");
    case UR_DEVICE_INFO_DRIVER_VERSION:
        return ANSWER_STR("fake 1.0");
    case UR_DEVICE_INFO_PLATFORM: {
        ur_platform_handle_t platform = (ur_platform_handle_t)dev->platform;
        return ANSWER(platform);
    }
    case UR_DEVICE_INFO_PARENT_DEVICE: {
        ur_device_handle_t parent = (ur_device_handle_t)dev->parent;
        return ANSWER(parent);
    }
    case UR_DEVICE_INFO_REFERENCE_COUNT: {
        uint32_t count = urc_refcount(&dev->obj.base);
        return ANSWER(count);
    }
    case UR_DEVICE_INFO_MAX_COMPUTE_UNITS: {
        uint32_t units = 8;
        return ANSWER(units);
    }
    case UR_DEVICE_INFO_GLOBAL_MEM_SIZE: {
        uint64_t bytes = UINT64_C(1) << 30;
        return ANSWER(bytes);
    }
    case UR_DEVICE_INFO_MAX_WORK_ITEM_SIZES: {
        size_t sizes[3] = {1024, 1024, 64};
        return ANSWER(sizes);
    }
    case UR_DEVICE_INFO_IMAGE_SUPPORT: {
        ur_bool_t no = 0;
        return ANSWER(no);
    }
    case UR_DEVICE_INFO_PARTITION_MAX_SUB_DEVICES:
        return ANSWER(dev->nparts);
    case UR_DEVICE_INFO_SUPPORTED_PARTITIONS: {
        ur_device_partition_t by_domain = UR_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
        return answer(&by_domain, dev->nparts > 0 ? sizeof by_domain : 0, propSize, pPropValue,
                      pPropSizeRet);
    }
    case UR_DEVICE_INFO_PARTITION_AFFINITY_DOMAIN: {
        ur_device_affinity_domain_flags_t domains =
            dev->nparts > 0 ? UR_DEVICE_AFFINITY_DOMAIN_FLAG_NEXT_PARTITIONABLE : 0;
        return ANSWER(domains);
    }
    default:
        return UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
    }
}

ur_result_t fake_device_get_info(ur_device_handle_t hDevice, ur_device_info_t propName,
                                 size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    note(URC_SLOT_DEVICE_GET_INFO, hDevice);
    if (!is(hDevice, FAKE_DEVICE))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    return device_info((const fake_device_t *)hDevice, propName, propSize, pPropValue,
                       pPropSizeRet);
}

ur_result_t fake_device_partition(ur_device_handle_t hDevice,
                                  const ur_device_partition_properties_t *pProperties,
                                  uint32_t NumDevices, ur_device_handle_t *phSubDevices,
                                  uint32_t *pNumDevicesRet) {
    note(URC_SLOT_DEVICE_PARTITION, hDevice);
    if (!is(hDevice, FAKE_DEVICE))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    fake_device_t *dev = (fake_device_t *)hDevice;
    const ur_device_partition_property_t *prop = pProperties->pProperties;
    if (pProperties->PropCount != 1 || prop->type != UR_DEVICE_PARTITION_BY_AFFINITY_DOMAIN ||
        prop->value.affinity_domain != UR_DEVICE_AFFINITY_DOMAIN_FLAG_NEXT_PARTITIONABLE)
        return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 2,
                             "fake %s: only next-partitionable affinity partitions", FAKE_TAG);
    if (dev->nparts == 0)
        return urc_error_set(UR_RESULT_ERROR_DEVICE_PARTITION_FAILED, 3,
                             "fake %s: %s cannot be partitioned", FAKE_TAG, dev->name);
    for (uint32_t i = 0; phSubDevices != NULL && i < dev->nparts && i < NumDevices; ++i) {
        urc_user_retain(&dev->parts[i]->obj.base);
        phSubDevices[i] = (ur_device_handle_t)dev->parts[i];
    }
    if (pNumDevicesRet != NULL)
        *pNumDevicesRet = dev->nparts;
    return UR_RESULT_SUCCESS;
}

ur_result_t fake_device_retain(ur_device_handle_t hDevice) {
    note(URC_SLOT_DEVICE_RETAIN, hDevice);
    if (!is(hDevice, FAKE_DEVICE))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    urc_user_retain(&((fake_device_t *)hDevice)->obj.base);
    return UR_RESULT_SUCCESS;
}

ur_result_t fake_device_release(ur_device_handle_t hDevice) {
    note(URC_SLOT_DEVICE_RELEASE, hDevice);
    if (!is(hDevice, FAKE_DEVICE))
        return UR_RESULT_ERROR_INVALID_DEVICE;
    if (!drop(&((fake_device_t *)hDevice)->obj, 1))
        return urc_error_set(UR_RESULT_ERROR_INVALID_DEVICE, 4, "fake %s: %s over-released",
                             FAKE_TAG, ((fake_device_t *)hDevice)->name);
    return UR_RESULT_SUCCESS;
}

// The inspection API (fake_inspect.h).

FAKE_API void fake_configure(const fake_topology_t *topology) {
    pthread_once(&built, build_default);
    build(topology);
}

FAKE_API void fake_fail_getter(const char *table, ur_result_t result) {
    pthread_mutex_lock(&fake.lock);
    snprintf(fake.fail_table, sizeof fake.fail_table, "%s", table != NULL ? table : "");
    fake.fail_result = result;
    pthread_mutex_unlock(&fake.lock);
}

FAKE_API void fake_reset_calls(void) {
    for (size_t i = 0; i < URC_SLOT_COUNT; ++i) {
        atomic_store(&fake.calls[i], 0);
        atomic_store(&fake.routes[i], NULL);
    }
}

FAKE_API uint32_t fake_calls(uint32_t slot) {
    return slot < URC_SLOT_COUNT ? atomic_load(&fake.calls[slot]) : 0;
}

FAKE_API const void *fake_last_route(uint32_t slot) {
    return slot < URC_SLOT_COUNT ? atomic_load(&fake.routes[slot]) : NULL;
}

FAKE_API void *fake_generic_handle(void) {
    pthread_once(&built, build_default);
    return &fake.generic;
}

FAKE_API int32_t fake_outstanding_refs(void) {
    pthread_once(&built, build_default);
    int32_t total = 0;
    for (uint32_t p = 0; p < fake.topo.platforms; ++p)
        for (uint32_t d = 0; d < fake.topo.devices; ++d) {
            total += (int32_t)urc_refcount(&fake.roots[p][d].obj.base) - 1;
            for (uint32_t s = 0; s < fake.topo.subs; ++s) {
                total += (int32_t)urc_refcount(&fake.subs[p][d][s].obj.base) - 1;
                for (uint32_t k = 0; k < fake.topo.subsubs; ++k)
                    total += (int32_t)urc_refcount(&fake.subsubs[p][d][s][k].obj.base) - 1;
            }
        }
    return total;
}

FAKE_API uint32_t fake_adapter_refcount(void) {
    pthread_once(&built, build_default);
    return urc_refcount(&fake.adapter.base);
}

FAKE_API void fake_log(ur_logger_level_t level, const char *message) {
    URC_LOG(logger(), level, "%s", message);
}
