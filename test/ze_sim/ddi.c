// SPDX-License-Identifier: MIT
// The exported DDI table getters, the only Level Zero symbols of this library. Loader 1.8.12
// asks for every ze, zet and zes table it knows and refuses a driver (zeInit fails) when any
// non-"Exp" getter is missing or fails, so all of them exist here. Core slots that are not
// simulated point at stubs returning ZE_RESULT_ERROR_UNSUPPORTED_FEATURE; the zet and zes
// tables are left NULL except for a few Sysman queries (the loader answers NULL slots itself).
#include "ze_sim_internal.h"
#include "ze_sim_entry.h"

#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>
#include <string.h>

// The tables are filled with the layout of the headers this file is built against; a caller
// built for an older minor version has smaller tables, so only the same or newer is served.
static ze_result_t check_table(ze_api_version_t version, const void *table) {
    if (!table)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(ZE_API_VERSION_CURRENT) ||
        ZE_MINOR_VERSION(version) < ZE_MINOR_VERSION(ZE_API_VERSION_CURRENT))
        return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
    return ZE_RESULT_SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Stubs for what is not simulated (images, IPC, virtual memory, fabric, cache reservation).
// Their parameters are unused by design.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define UNSUPPORTED return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE

static ze_result_t stub_device_reserve_cache_ext(ze_device_handle_t d, size_t level, size_t size) {
    UNSUPPORTED;
}
static ze_result_t stub_device_set_cache_advice_ext(ze_device_handle_t d, void *p, size_t n,
                                                    ze_cache_ext_region_t region) {
    UNSUPPORTED;
}
static ze_result_t stub_device_get_fabric_vertex_exp(ze_device_handle_t d,
                                                     ze_fabric_vertex_handle_t *v) {
    UNSUPPORTED;
}
static ze_result_t stub_image_get_alloc_properties_ext(ze_context_handle_t c, ze_image_handle_t i,
                                                       ze_image_allocation_ext_properties_t *p) {
    UNSUPPORTED;
}
static ze_result_t stub_image_get_memory_properties_exp(ze_image_handle_t i,
                                                        ze_image_memory_properties_exp_t *p) {
    UNSUPPORTED;
}
static ze_result_t stub_event_query_timestamps_exp(ze_event_handle_t e, ze_device_handle_t d,
                                                   uint32_t *n, ze_kernel_timestamp_result_t *t) {
    UNSUPPORTED;
}
static ze_result_t stub_fabric_vertex_get_exp(ze_driver_handle_t d, uint32_t *n,
                                              ze_fabric_vertex_handle_t *v) {
    UNSUPPORTED;
}
static ze_result_t stub_fabric_vertex_get_sub_vertices_exp(ze_fabric_vertex_handle_t v, uint32_t *n,
                                                           ze_fabric_vertex_handle_t *s) {
    UNSUPPORTED;
}
static ze_result_t stub_fabric_vertex_get_properties_exp(ze_fabric_vertex_handle_t v,
                                                         ze_fabric_vertex_exp_properties_t *p) {
    UNSUPPORTED;
}
static ze_result_t stub_fabric_vertex_get_device_exp(ze_fabric_vertex_handle_t v,
                                                     ze_device_handle_t *d) {
    UNSUPPORTED;
}
static ze_result_t stub_fabric_edge_get_exp(ze_fabric_vertex_handle_t a,
                                            ze_fabric_vertex_handle_t b, uint32_t *n,
                                            ze_fabric_edge_handle_t *e) {
    UNSUPPORTED;
}
static ze_result_t stub_fabric_edge_get_vertices_exp(ze_fabric_edge_handle_t e,
                                                     ze_fabric_vertex_handle_t *a,
                                                     ze_fabric_vertex_handle_t *b) {
    UNSUPPORTED;
}
static ze_result_t stub_fabric_edge_get_properties_exp(ze_fabric_edge_handle_t e,
                                                       ze_fabric_edge_exp_properties_t *p) {
    UNSUPPORTED;
}

#undef UNSUPPORTED
#pragma GCC diagnostic pop

// ---------------------------------------------------------------------------------------------
// Core (ze) tables.

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetGlobalProcAddrTable(ze_api_version_t version,
                                                             ze_global_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r == ZE_RESULT_SUCCESS)
        t->pfnInit = sim_init;
    return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetDriverProcAddrTable(ze_api_version_t version,
                                                             ze_driver_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnGet = sim_driver_get;
    t->pfnGetApiVersion = sim_driver_get_api_version;
    t->pfnGetProperties = sim_driver_get_properties;
    t->pfnGetIpcProperties = sim_driver_get_ipc_properties;
    t->pfnGetExtensionProperties = sim_driver_get_extension_properties;
    t->pfnGetExtensionFunctionAddress = sim_driver_get_extension_function_address;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetDeviceProcAddrTable(ze_api_version_t version,
                                                             ze_device_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnGet = sim_device_get;
    t->pfnGetSubDevices = sim_device_get_sub_devices;
    t->pfnGetProperties = sim_device_get_properties;
    t->pfnGetComputeProperties = sim_device_get_compute_properties;
    t->pfnGetModuleProperties = sim_device_get_module_properties;
    t->pfnGetCommandQueueGroupProperties = sim_device_get_command_queue_group_properties;
    t->pfnGetMemoryProperties = sim_device_get_memory_properties;
    t->pfnGetMemoryAccessProperties = sim_device_get_memory_access_properties;
    t->pfnGetCacheProperties = sim_device_get_cache_properties;
    t->pfnGetImageProperties = sim_device_get_image_properties;
    t->pfnGetExternalMemoryProperties = sim_device_get_external_memory_properties;
    t->pfnGetP2PProperties = sim_device_get_p2p_properties;
    t->pfnCanAccessPeer = sim_device_can_access_peer;
    t->pfnGetStatus = sim_device_get_status;
    t->pfnGetGlobalTimestamps = sim_device_get_global_timestamps;
    t->pfnReserveCacheExt = stub_device_reserve_cache_ext;
    t->pfnSetCacheAdviceExt = stub_device_set_cache_advice_ext;
    t->pfnPciGetPropertiesExt = sim_device_pci_get_properties_ext;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetDeviceExpProcAddrTable(ze_api_version_t version,
                                                                ze_device_exp_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r == ZE_RESULT_SUCCESS)
        t->pfnGetFabricVertexExp = stub_device_get_fabric_vertex_exp;
    return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetContextProcAddrTable(ze_api_version_t version,
                                                              ze_context_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnCreate = sim_context_create;
    t->pfnDestroy = sim_context_destroy;
    t->pfnGetStatus = sim_context_get_status;
    t->pfnSystemBarrier = sim_context_system_barrier;
    t->pfnMakeMemoryResident = sim_context_make_memory_resident;
    t->pfnEvictMemory = sim_context_evict_memory;
    t->pfnMakeImageResident = sim_context_make_image_resident;
    t->pfnEvictImage = sim_context_make_image_resident; // nothing to evict either
    t->pfnCreateEx = sim_context_create_ex;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetCommandQueueProcAddrTable(ze_api_version_t version,
                                                                   ze_command_queue_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnCreate = sim_command_queue_create;
    t->pfnDestroy = sim_command_queue_destroy;
    t->pfnExecuteCommandLists = sim_command_queue_execute_command_lists;
    t->pfnSynchronize = sim_command_queue_synchronize;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetCommandListProcAddrTable(ze_api_version_t version,
                                                                  ze_command_list_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnCreate = sim_command_list_create;
    t->pfnCreateImmediate = sim_command_list_create_immediate;
    t->pfnDestroy = sim_command_list_destroy;
    t->pfnClose = sim_command_list_close;
    t->pfnReset = sim_command_list_reset;
    t->pfnAppendWriteGlobalTimestamp = sim_command_list_append_write_global_timestamp;
    t->pfnAppendBarrier = sim_command_list_append_barrier;
    t->pfnAppendMemoryRangesBarrier = sim_command_list_append_memory_ranges_barrier;
    t->pfnAppendMemoryCopy = sim_command_list_append_memory_copy;
    t->pfnAppendMemoryFill = sim_command_list_append_memory_fill;
    t->pfnAppendMemoryCopyRegion = sim_command_list_append_memory_copy_region;
    t->pfnAppendMemoryCopyFromContext = sim_command_list_append_memory_copy_from_context;
    t->pfnAppendImageCopy = sim_command_list_append_image_copy;
    t->pfnAppendImageCopyRegion = sim_command_list_append_image_copy_region;
    t->pfnAppendImageCopyToMemory = sim_command_list_append_image_copy_to_memory;
    t->pfnAppendImageCopyFromMemory = sim_command_list_append_image_copy_from_memory;
    t->pfnAppendMemoryPrefetch = sim_command_list_append_memory_prefetch;
    t->pfnAppendMemAdvise = sim_command_list_append_mem_advise;
    t->pfnAppendSignalEvent = sim_command_list_append_signal_event;
    t->pfnAppendWaitOnEvents = sim_command_list_append_wait_on_events;
    t->pfnAppendEventReset = sim_command_list_append_event_reset;
    t->pfnAppendQueryKernelTimestamps = sim_command_list_append_query_kernel_timestamps;
    t->pfnAppendLaunchKernel = sim_command_list_append_launch_kernel;
    t->pfnAppendLaunchCooperativeKernel = sim_command_list_append_launch_cooperative_kernel;
    t->pfnAppendLaunchKernelIndirect = sim_command_list_append_launch_kernel_indirect;
    t->pfnAppendLaunchMultipleKernelsIndirect =
        sim_command_list_append_launch_multiple_kernels_indirect;
    t->pfnAppendImageCopyToMemoryExt = sim_command_list_append_image_copy_to_memory_ext;
    t->pfnAppendImageCopyFromMemoryExt = sim_command_list_append_image_copy_from_memory_ext;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetImageProcAddrTable(ze_api_version_t version,
                                                            ze_image_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnGetProperties = sim_image_get_properties;
    t->pfnCreate = sim_image_create;
    t->pfnDestroy = sim_image_destroy;
    t->pfnGetAllocPropertiesExt = stub_image_get_alloc_properties_ext;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetImageExpProcAddrTable(ze_api_version_t version,
                                                               ze_image_exp_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnGetMemoryPropertiesExp = stub_image_get_memory_properties_exp;
    t->pfnViewCreateExp = sim_image_view_create;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetFenceProcAddrTable(ze_api_version_t version,
                                                            ze_fence_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnCreate = sim_fence_create;
    t->pfnDestroy = sim_fence_destroy;
    t->pfnHostSynchronize = sim_fence_host_synchronize;
    t->pfnQueryStatus = sim_fence_query_status;
    t->pfnReset = sim_fence_reset;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetEventPoolProcAddrTable(ze_api_version_t version,
                                                                ze_event_pool_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnCreate = sim_event_pool_create;
    t->pfnDestroy = sim_event_pool_destroy;
    t->pfnGetIpcHandle = sim_event_pool_get_ipc_handle;
    t->pfnOpenIpcHandle = sim_event_pool_open_ipc_handle;
    t->pfnCloseIpcHandle = sim_event_pool_close_ipc_handle;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetEventProcAddrTable(ze_api_version_t version,
                                                            ze_event_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnCreate = sim_event_create;
    t->pfnDestroy = sim_event_destroy;
    t->pfnHostSignal = sim_event_host_signal;
    t->pfnHostSynchronize = sim_event_host_synchronize;
    t->pfnQueryStatus = sim_event_query_status;
    t->pfnHostReset = sim_event_host_reset;
    t->pfnQueryKernelTimestamp = sim_event_query_kernel_timestamp;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetEventExpProcAddrTable(ze_api_version_t version,
                                                               ze_event_exp_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r == ZE_RESULT_SUCCESS)
        t->pfnQueryTimestampsExp = stub_event_query_timestamps_exp;
    return r;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetModuleProcAddrTable(ze_api_version_t version,
                                                             ze_module_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnCreate = sim_module_create;
    t->pfnDestroy = sim_module_destroy;
    t->pfnDynamicLink = sim_module_dynamic_link;
    t->pfnGetNativeBinary = sim_module_get_native_binary;
    t->pfnGetGlobalPointer = sim_module_get_global_pointer;
    t->pfnGetKernelNames = sim_module_get_kernel_names;
    t->pfnGetProperties = sim_module_get_properties;
    t->pfnGetFunctionPointer = sim_module_get_function_pointer;
    t->pfnInspectLinkageExt = sim_module_inspect_linkage_ext;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetModuleBuildLogProcAddrTable(ze_api_version_t version, ze_module_build_log_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnDestroy = sim_module_build_log_destroy;
    t->pfnGetString = sim_module_build_log_get_string;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetKernelProcAddrTable(ze_api_version_t version,
                                                             ze_kernel_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnCreate = sim_kernel_create;
    t->pfnDestroy = sim_kernel_destroy;
    t->pfnSetCacheConfig = sim_kernel_set_cache_config;
    t->pfnSetGroupSize = sim_kernel_set_group_size;
    t->pfnSuggestGroupSize = sim_kernel_suggest_group_size;
    t->pfnSuggestMaxCooperativeGroupCount = sim_kernel_suggest_max_cooperative_group_count;
    t->pfnSetArgumentValue = sim_kernel_set_argument_value;
    t->pfnSetIndirectAccess = sim_kernel_set_indirect_access;
    t->pfnGetIndirectAccess = sim_kernel_get_indirect_access;
    t->pfnGetSourceAttributes = sim_kernel_get_source_attributes;
    t->pfnGetProperties = sim_kernel_get_properties;
    t->pfnGetName = sim_kernel_get_name;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetKernelExpProcAddrTable(ze_api_version_t version,
                                                                ze_kernel_exp_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnSetGlobalOffsetExp = sim_kernel_set_global_offset_exp;
    t->pfnSchedulingHintExp = sim_kernel_scheduling_hint_exp;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetSamplerProcAddrTable(ze_api_version_t version,
                                                              ze_sampler_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnCreate = sim_sampler_create;
    t->pfnDestroy = sim_sampler_destroy;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetPhysicalMemProcAddrTable(ze_api_version_t version,
                                                                  ze_physical_mem_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnCreate = sim_physical_mem_create;
    t->pfnDestroy = sim_physical_mem_destroy;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetMemProcAddrTable(ze_api_version_t version,
                                                          ze_mem_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnAllocShared = sim_mem_alloc_shared;
    t->pfnAllocDevice = sim_mem_alloc_device;
    t->pfnAllocHost = sim_mem_alloc_host;
    t->pfnFree = sim_mem_free;
    t->pfnGetAllocProperties = sim_mem_get_alloc_properties;
    t->pfnGetAddressRange = sim_mem_get_address_range;
    t->pfnGetIpcHandle = sim_mem_get_ipc_handle;
    t->pfnOpenIpcHandle = sim_mem_open_ipc_handle;
    t->pfnCloseIpcHandle = sim_mem_close_ipc_handle;
    t->pfnFreeExt = sim_mem_free_ext;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetVirtualMemProcAddrTable(ze_api_version_t version,
                                                                 ze_virtual_mem_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnReserve = sim_virtual_mem_reserve;
    t->pfnFree = sim_virtual_mem_free;
    t->pfnQueryPageSize = sim_virtual_mem_query_page_size;
    t->pfnMap = sim_virtual_mem_map;
    t->pfnUnmap = sim_virtual_mem_unmap;
    t->pfnSetAccessAttribute = sim_virtual_mem_set_access_attribute;
    t->pfnGetAccessAttribute = sim_virtual_mem_get_access_attribute;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetFabricVertexExpProcAddrTable(ze_api_version_t version, ze_fabric_vertex_exp_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnGetExp = stub_fabric_vertex_get_exp;
    t->pfnGetSubVerticesExp = stub_fabric_vertex_get_sub_vertices_exp;
    t->pfnGetPropertiesExp = stub_fabric_vertex_get_properties_exp;
    t->pfnGetDeviceExp = stub_fabric_vertex_get_device_exp;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetFabricEdgeExpProcAddrTable(ze_api_version_t version, ze_fabric_edge_exp_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    t->pfnGetExp = stub_fabric_edge_get_exp;
    t->pfnGetVerticesExp = stub_fabric_edge_get_vertices_exp;
    t->pfnGetPropertiesExp = stub_fabric_edge_get_properties_exp;
    return ZE_RESULT_SUCCESS;
}

// ---------------------------------------------------------------------------------------------
// Tools (zet) and Sysman (zes) tables. The loader insists on the getters; the slots stay NULL
// (both the loader and libze_loader's entry points answer a NULL slot without calling it),
// except the Sysman queries that report device identity and memory.

// Declares a getter that hands out an all-NULL table.
#define EMPTY_TABLE_GETTER(name, type)                                                             \
    ZE_DLLEXPORT ze_result_t ZE_APICALL name(ze_api_version_t version, type *t) {                  \
        ze_result_t r = check_table(version, t);                                                   \
        if (r == ZE_RESULT_SUCCESS)                                                                \
            memset(t, 0, sizeof(*t));                                                              \
        return r;                                                                                  \
    }

EMPTY_TABLE_GETTER(zetGetDeviceProcAddrTable, zet_device_dditable_t)
EMPTY_TABLE_GETTER(zetGetContextProcAddrTable, zet_context_dditable_t)
EMPTY_TABLE_GETTER(zetGetCommandListProcAddrTable, zet_command_list_dditable_t)
EMPTY_TABLE_GETTER(zetGetKernelProcAddrTable, zet_kernel_dditable_t)
EMPTY_TABLE_GETTER(zetGetModuleProcAddrTable, zet_module_dditable_t)
EMPTY_TABLE_GETTER(zetGetDebugProcAddrTable, zet_debug_dditable_t)
EMPTY_TABLE_GETTER(zetGetMetricProcAddrTable, zet_metric_dditable_t)
EMPTY_TABLE_GETTER(zetGetMetricGroupProcAddrTable, zet_metric_group_dditable_t)
EMPTY_TABLE_GETTER(zetGetMetricGroupExpProcAddrTable, zet_metric_group_exp_dditable_t)
EMPTY_TABLE_GETTER(zetGetMetricQueryProcAddrTable, zet_metric_query_dditable_t)
EMPTY_TABLE_GETTER(zetGetMetricQueryPoolProcAddrTable, zet_metric_query_pool_dditable_t)
EMPTY_TABLE_GETTER(zetGetMetricStreamerProcAddrTable, zet_metric_streamer_dditable_t)
EMPTY_TABLE_GETTER(zetGetTracerExpProcAddrTable, zet_tracer_exp_dditable_t)

EMPTY_TABLE_GETTER(zesGetDriverProcAddrTable, zes_driver_dditable_t)
EMPTY_TABLE_GETTER(zesGetDiagnosticsProcAddrTable, zes_diagnostics_dditable_t)
EMPTY_TABLE_GETTER(zesGetEngineProcAddrTable, zes_engine_dditable_t)
EMPTY_TABLE_GETTER(zesGetFabricPortProcAddrTable, zes_fabric_port_dditable_t)
EMPTY_TABLE_GETTER(zesGetFanProcAddrTable, zes_fan_dditable_t)
EMPTY_TABLE_GETTER(zesGetFirmwareProcAddrTable, zes_firmware_dditable_t)
EMPTY_TABLE_GETTER(zesGetFrequencyProcAddrTable, zes_frequency_dditable_t)
EMPTY_TABLE_GETTER(zesGetLedProcAddrTable, zes_led_dditable_t)
EMPTY_TABLE_GETTER(zesGetPerformanceFactorProcAddrTable, zes_performance_factor_dditable_t)
EMPTY_TABLE_GETTER(zesGetPowerProcAddrTable, zes_power_dditable_t)
EMPTY_TABLE_GETTER(zesGetPsuProcAddrTable, zes_psu_dditable_t)
EMPTY_TABLE_GETTER(zesGetRasProcAddrTable, zes_ras_dditable_t)
EMPTY_TABLE_GETTER(zesGetSchedulerProcAddrTable, zes_scheduler_dditable_t)
EMPTY_TABLE_GETTER(zesGetStandbyProcAddrTable, zes_standby_dditable_t)
EMPTY_TABLE_GETTER(zesGetTemperatureProcAddrTable, zes_temperature_dditable_t)

#undef EMPTY_TABLE_GETTER

ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetDeviceProcAddrTable(ze_api_version_t version,
                                                              zes_device_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    memset(t, 0, sizeof(*t));
    t->pfnGetProperties = sim_zes_device_get_properties;
    t->pfnPciGetProperties = sim_zes_device_pci_get_properties;
    t->pfnEnumMemoryModules = sim_zes_device_enum_memory_modules;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetMemoryProcAddrTable(ze_api_version_t version,
                                                              zes_memory_dditable_t *t) {
    ze_result_t r = check_table(version, t);
    if (r != ZE_RESULT_SUCCESS)
        return r;
    memset(t, 0, sizeof(*t));
    t->pfnGetProperties = sim_zes_memory_get_properties;
    t->pfnGetState = sim_zes_memory_get_state;
    return ZE_RESULT_SUCCESS;
}
