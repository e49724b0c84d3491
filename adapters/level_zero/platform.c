// SPDX-License-Identifier: MIT
// urPlatform*: one platform per Level Zero driver, discovered once per process together with
// every device (and sub-device) of it. Without a loadable driver zeInit fails and there are no
// platforms; that is not an error for urPlatformGet.
#include <stdio.h>
#include <string.h>

#include "l0_internal.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static l0_platform_t *platforms;
static uint32_t nplatforms;

static void read_extensions(l0_platform_t *p) {
    uint32_t n = 0;
    if (zeDriverGetExtensionProperties(p->ze, &n, NULL) != ZE_RESULT_SUCCESS || n == 0)
        return;
    ze_driver_extension_properties_t *ext = urc_calloc(n, sizeof *ext);
    if (ext == NULL)
        return;
    if (zeDriverGetExtensionProperties(p->ze, &n, ext) == ZE_RESULT_SUCCESS) {
        for (uint32_t i = 0; i < n; ++i) {
            // Only the versions this adapter was written against are used.
            if (strcmp(ext[i].name, ZE_MODULE_PROGRAM_EXP_NAME) == 0)
                p->ext_module_program = ext[i].version == ZE_MODULE_PROGRAM_EXP_VERSION_1_0;
            else if (strcmp(ext[i].name, ZE_GLOBAL_OFFSET_EXP_NAME) == 0)
                p->ext_global_offset = ext[i].version == ZE_GLOBAL_OFFSET_EXP_VERSION_1_0;
            else if (strcmp(ext[i].name, ZE_LINKAGE_INSPECTION_EXT_NAME) == 0)
                p->ext_linkage_inspection = true;
            else if (strcmp(ext[i].name, ZE_MEMORY_FREE_POLICIES_EXT_NAME) == 0)
                p->ext_free_policies = true;
            else if (strcmp(ext[i].name, ZE_MUTABLE_COMMAND_LIST_EXP_NAME) == 0)
                l0_mutable_init(p, ext[i].version);
            else if (strcmp(ext[i].name, ZE_BINDLESS_IMAGE_EXP_NAME) == 0)
                l0_bindless_init(p, ext[i].version);
        }
    }
    free(ext);
}

static ur_result_t init_platform(l0_platform_t *p, ze_driver_handle_t driver) {
    urc_object_init(&p->obj, &l0_ddi, URC_KIND_PLATFORM);
    p->ze = driver;
    ur_result_t res =
        l0_ok(zeDriverGetApiVersion(driver, &p->api_version), "zeDriverGetApiVersion");
    if (res != UR_RESULT_SUCCESS)
        return res;
    snprintf(p->version, sizeof p->version, "%u.%u", ZE_MAJOR_VERSION(p->api_version),
             ZE_MINOR_VERSION(p->api_version));
    ze_driver_properties_t props = {.stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
    res = l0_ok(zeDriverGetProperties(driver, &props), "zeDriverGetProperties");
    if (res != UR_RESULT_SUCCESS)
        return res;
    // Intel's drivers pack major.minor.build into 8, 8 and 16 bits (UR decodes it the same way).
    uint32_t v = props.driverVersion;
    snprintf(p->driver_version, sizeof p->driver_version, "%u.%u.%u", v >> 24, (v >> 16) & 0xffu,
             v & 0xffffu);
    read_extensions(p);

    uint32_t n = 0;
    res = l0_ok(zeDeviceGet(driver, &n, NULL), "zeDeviceGet");
    if (res != UR_RESULT_SUCCESS || n == 0)
        return res != UR_RESULT_SUCCESS ? res : UR_RESULT_ERROR_DEVICE_NOT_FOUND;
    ze_device_handle_t *handles = urc_calloc(n, sizeof *handles);
    p->devices = urc_calloc(n, sizeof *p->devices);
    if (handles == NULL || p->devices == NULL) {
        res = UR_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        goto done;
    }
    res = l0_ok(zeDeviceGet(driver, &n, handles), "zeDeviceGet");
    for (uint32_t i = 0; res == UR_RESULT_SUCCESS && i < n; ++i) {
        // A device that cannot be queried is skipped; the others stay usable.
        if (l0_device_init(&p->devices[p->ndevices], p, NULL, handles[i]) == UR_RESULT_SUCCESS)
            ++p->ndevices;
        else
            URC_LOG(l0_log(), UR_LOGGER_LEVEL_WARN, "Level Zero device %u skipped", i);
    }
    if (res == UR_RESULT_SUCCESS && p->ndevices == 0)
        res = UR_RESULT_ERROR_DEVICE_NOT_FOUND;
done:
    free(handles);
    if (res != UR_RESULT_SUCCESS)
        URC_FREE(p->devices);
    return res;
}

// Why there is no platform, for urAdapterGetLastError after urPlatformGet found none.
static char why_none[200] = "no Level Zero driver";

static void init(void) {
    urc_logger_t *lg = l0_log();
    // 0 asks for every driver type; the loader reads ZE_ENABLE_ALT_DRIVERS here.
    ze_result_t r = zeInit(0);
    if (r != ZE_RESULT_SUCCESS) {
        URC_LOG(lg, UR_LOGGER_LEVEL_INFO, "zeInit returned %s: no Level Zero platform",
                l0_result_name(r));
        snprintf(why_none, sizeof why_none, "zeInit returned %s (no Level Zero driver found)",
                 l0_result_name(r));
        return;
    }
    uint32_t n = 0;
    if (zeDriverGet(&n, NULL) != ZE_RESULT_SUCCESS || n == 0)
        return;
    ze_driver_handle_t *drivers = urc_calloc(n, sizeof *drivers);
    l0_platform_t *list = urc_calloc(n, sizeof *list);
    if (drivers == NULL || list == NULL || zeDriverGet(&n, drivers) != ZE_RESULT_SUCCESS) {
        free(drivers);
        free(list);
        return;
    }
    uint32_t usable = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (init_platform(&list[usable], drivers[i]) == UR_RESULT_SUCCESS)
            ++usable;
        else
            memset(&list[usable], 0, sizeof list[usable]);
    }
    free(drivers);
    if (usable == 0) {
        free(list);
        return;
    }
    platforms = list;
    nplatforms = usable;
}

l0_platform_t *l0_platforms(uint32_t *count) {
    pthread_once(&init_once, init);
    *count = nplatforms;
    return platforms;
}

l0_device_t *l0_device_by_native(ze_device_handle_t ze) {
    uint32_t n = 0;
    l0_platform_t *p = l0_platforms(&n);
    for (uint32_t i = 0; i < n; ++i) {
        for (uint32_t d = 0; d < p[i].ndevices; ++d) {
            l0_device_t *dev = &p[i].devices[d];
            if (dev->ze == ze)
                return dev;
            for (uint32_t s = 0; s < dev->nsub; ++s)
                if (dev->subs[s].ze == ze)
                    return &dev->subs[s];
        }
    }
    return NULL;
}

ur_result_t l0_platform_get(ur_adapter_handle_t hAdapter, uint32_t NumEntries,
                            ur_platform_handle_t *phPlatforms, uint32_t *pNumPlatforms) {
    (void)hAdapter;
    uint32_t n = 0;
    l0_platform_t *p = l0_platforms(&n);
    if (n == 0)
        urc_error_set(UR_RESULT_SUCCESS, 0, "no Level Zero platform: %s", why_none);
    if (pNumPlatforms != NULL)
        *pNumPlatforms = n;
    for (uint32_t i = 0; phPlatforms != NULL && i < n && i < NumEntries; ++i)
        phPlatforms[i] = (ur_platform_handle_t)&p[i];
    return UR_RESULT_SUCCESS;
}

ur_result_t l0_platform_get_info(ur_platform_handle_t hPlatform, ur_platform_info_t propName,
                                 size_t propSize, void *pPropValue, size_t *pPropSizeRet) {
    const l0_platform_t *p = L0_PLATFORM(hPlatform);
    const urc_info_t out = {propSize, pPropValue, pPropSizeRet};
    switch (propName) {
    case UR_PLATFORM_INFO_NAME:
        return urc_info_string(&out, "Intel(R) oneAPI Unified Runtime over Level-Zero");
    case UR_PLATFORM_INFO_VENDOR_NAME:
        return urc_info_string(&out, "Intel(R) Corporation");
    case UR_PLATFORM_INFO_PROFILE:
        return urc_info_string(&out, "FULL_PROFILE");
    case UR_PLATFORM_INFO_VERSION:
        return urc_info_string(&out, p->version);
    case UR_PLATFORM_INFO_EXTENSIONS:
        return urc_info_string(&out, L0_BASE_EXTENSIONS);
    case UR_PLATFORM_INFO_BACKEND:
        return urc_info_bytes(&out, &(ur_backend_t){UR_BACKEND_LEVEL_ZERO}, sizeof(ur_backend_t));
    case UR_PLATFORM_INFO_ADAPTER:
        return urc_info_ptr(&out, l0_adapter_handle());
    default:
        return UR_RESULT_ERROR_INVALID_ENUMERATION;
    }
}

URC_PLATFORM_GET_API_VERSION(l0)

ur_result_t l0_platform_get_native_handle(ur_platform_handle_t hPlatform,
                                          ur_native_handle_t *phNativePlatform) {
    *phNativePlatform = (ur_native_handle_t)L0_PLATFORM(hPlatform)->ze;
    return UR_RESULT_SUCCESS;
}

// A native driver can only name a platform already discovered: the handles are the same.
ur_result_t l0_platform_create_with_native_handle(
    ur_native_handle_t hNativePlatform, ur_adapter_handle_t hAdapter,
    const ur_platform_native_properties_t *pProperties, ur_platform_handle_t *phPlatform) {
    (void)hAdapter;
    (void)pProperties;
    uint32_t n = 0;
    l0_platform_t *p = l0_platforms(&n);
    for (uint32_t i = 0; i < n; ++i) {
        if ((ur_native_handle_t)p[i].ze == hNativePlatform) {
            *phPlatform = (ur_platform_handle_t)&p[i];
            return UR_RESULT_SUCCESS;
        }
    }
    return urc_error_set(UR_RESULT_ERROR_INVALID_VALUE, 0,
                         "the native handle is not a Level Zero driver this adapter found");
}

// UR's translation of SYCL's front-end options to IGC's (level_zero/common/platform.cpp).
static const urc_backend_option_t backend_options[] = {
    {"", ""},
    {"-O0", "-ze-opt-disable"},
    {"-O1", "-ze-opt-level=2"},
    {"-O2", "-ze-opt-level=2"},
    {"-O3", "-ze-opt-level=2"},
    {"-ftarget-compile-fast", "-igc_opts 'PartitionUnit=1,SubroutineThreshold=50000'"},
    {"-foffload-fp32-prec-div", "-ze-fp32-correctly-rounded-divide-sqrt"},
    {"-foffload-fp32-prec-sqrt", "-ze-fp32-correctly-rounded-divide-sqrt"},
};

URC_PLATFORM_GET_BACKEND_OPTION(l0, backend_options)
