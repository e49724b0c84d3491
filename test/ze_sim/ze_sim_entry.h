// SPDX-License-Identifier: MIT
// Entry points of the simulated driver: one function per DDI table slot it fills (ddi.c).
// Each is named after its Level Zero function, e.g. sim_mem_alloc_host for zeMemAllocHost.
#ifndef URC_TEST_ZE_SIM_ZE_SIM_ENTRY_H
#define URC_TEST_ZE_SIM_ZE_SIM_ENTRY_H

#include <level_zero/ze_api.h>
#include <level_zero/zes_api.h>

// driver.c
ze_result_t sim_init(ze_init_flags_t flags);
ze_result_t sim_driver_get(uint32_t *pCount, ze_driver_handle_t *phDrivers);
ze_result_t sim_driver_get_api_version(ze_driver_handle_t hDriver, ze_api_version_t *version);
ze_result_t sim_driver_get_properties(ze_driver_handle_t hDriver, ze_driver_properties_t *props);
ze_result_t sim_driver_get_ipc_properties(ze_driver_handle_t hDriver,
                                          ze_driver_ipc_properties_t *props);
ze_result_t sim_driver_get_extension_properties(ze_driver_handle_t hDriver, uint32_t *pCount,
                                                ze_driver_extension_properties_t *props);
ze_result_t sim_driver_get_extension_function_address(ze_driver_handle_t hDriver, const char *name,
                                                      void **ppFunctionAddress);

// device.c
ze_result_t sim_device_get(ze_driver_handle_t hDriver, uint32_t *pCount,
                           ze_device_handle_t *phDevices);
ze_result_t sim_device_get_sub_devices(ze_device_handle_t hDevice, uint32_t *pCount,
                                       ze_device_handle_t *phSubdevices);
ze_result_t sim_device_get_properties(ze_device_handle_t hDevice, ze_device_properties_t *props);
ze_result_t sim_device_get_compute_properties(ze_device_handle_t hDevice,
                                              ze_device_compute_properties_t *props);
ze_result_t sim_device_get_module_properties(ze_device_handle_t hDevice,
                                             ze_device_module_properties_t *props);
ze_result_t
sim_device_get_command_queue_group_properties(ze_device_handle_t hDevice, uint32_t *pCount,
                                              ze_command_queue_group_properties_t *props);
ze_result_t sim_device_get_memory_properties(ze_device_handle_t hDevice, uint32_t *pCount,
                                             ze_device_memory_properties_t *props);
ze_result_t sim_device_get_memory_access_properties(ze_device_handle_t hDevice,
                                                    ze_device_memory_access_properties_t *props);
ze_result_t sim_device_get_cache_properties(ze_device_handle_t hDevice, uint32_t *pCount,
                                            ze_device_cache_properties_t *props);
ze_result_t sim_device_get_image_properties(ze_device_handle_t hDevice,
                                            ze_device_image_properties_t *props);
ze_result_t
sim_device_get_external_memory_properties(ze_device_handle_t hDevice,
                                          ze_device_external_memory_properties_t *props);
ze_result_t sim_device_get_p2p_properties(ze_device_handle_t hDevice, ze_device_handle_t hPeer,
                                          ze_device_p2p_properties_t *props);
ze_result_t sim_device_can_access_peer(ze_device_handle_t hDevice, ze_device_handle_t hPeer,
                                       ze_bool_t *value);
ze_result_t sim_device_get_status(ze_device_handle_t hDevice);
ze_result_t sim_device_get_global_timestamps(ze_device_handle_t hDevice, uint64_t *hostTimestamp,
                                             uint64_t *deviceTimestamp);
ze_result_t sim_device_pci_get_properties_ext(ze_device_handle_t hDevice,
                                              ze_pci_ext_properties_t *props);

// context.c
ze_result_t sim_context_create(ze_driver_handle_t hDriver, const ze_context_desc_t *desc,
                               ze_context_handle_t *phContext);
ze_result_t sim_context_create_ex(ze_driver_handle_t hDriver, const ze_context_desc_t *desc,
                                  uint32_t numDevices, ze_device_handle_t *phDevices,
                                  ze_context_handle_t *phContext);
ze_result_t sim_context_destroy(ze_context_handle_t hContext);
ze_result_t sim_context_get_status(ze_context_handle_t hContext);
ze_result_t sim_context_system_barrier(ze_context_handle_t hContext, ze_device_handle_t hDevice);
ze_result_t sim_context_make_memory_resident(ze_context_handle_t hContext,
                                             ze_device_handle_t hDevice, void *ptr, size_t size);
ze_result_t sim_context_evict_memory(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                     void *ptr, size_t size);

// memory.c
ze_result_t sim_mem_alloc_shared(ze_context_handle_t hContext,
                                 const ze_device_mem_alloc_desc_t *device_desc,
                                 const ze_host_mem_alloc_desc_t *host_desc, size_t size,
                                 size_t alignment, ze_device_handle_t hDevice, void **pptr);
ze_result_t sim_mem_alloc_device(ze_context_handle_t hContext,
                                 const ze_device_mem_alloc_desc_t *device_desc, size_t size,
                                 size_t alignment, ze_device_handle_t hDevice, void **pptr);
ze_result_t sim_mem_alloc_host(ze_context_handle_t hContext,
                               const ze_host_mem_alloc_desc_t *host_desc, size_t size,
                               size_t alignment, void **pptr);
ze_result_t sim_mem_free(ze_context_handle_t hContext, void *ptr);
ze_result_t sim_mem_free_ext(ze_context_handle_t hContext, const ze_memory_free_ext_desc_t *desc,
                             void *ptr);
ze_result_t sim_mem_get_alloc_properties(ze_context_handle_t hContext, const void *ptr,
                                         ze_memory_allocation_properties_t *props,
                                         ze_device_handle_t *phDevice);
ze_result_t sim_mem_get_ipc_handle(ze_context_handle_t hContext, const void *ptr,
                                   ze_ipc_mem_handle_t *pIpcHandle);
ze_result_t sim_mem_open_ipc_handle(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                    ze_ipc_mem_handle_t handle, ze_ipc_memory_flags_t flags,
                                    void **pptr);
ze_result_t sim_mem_close_ipc_handle(ze_context_handle_t hContext, const void *ptr);
ze_result_t sim_mem_get_address_range(ze_context_handle_t hContext, const void *ptr, void **pBase,
                                      size_t *pSize);

// event.c
ze_result_t sim_event_pool_create(ze_context_handle_t hContext, const ze_event_pool_desc_t *desc,
                                  uint32_t numDevices, ze_device_handle_t *phDevices,
                                  ze_event_pool_handle_t *phEventPool);
ze_result_t sim_event_pool_destroy(ze_event_pool_handle_t hEventPool);
ze_result_t sim_event_create(ze_event_pool_handle_t hEventPool, const ze_event_desc_t *desc,
                             ze_event_handle_t *phEvent);
ze_result_t sim_event_destroy(ze_event_handle_t hEvent);
// ipc_event.c
ze_result_t sim_event_pool_get_ipc_handle(ze_event_pool_handle_t hEventPool,
                                          ze_ipc_event_pool_handle_t *phIpc);
ze_result_t sim_event_pool_open_ipc_handle(ze_context_handle_t hContext,
                                           ze_ipc_event_pool_handle_t hIpc,
                                           ze_event_pool_handle_t *phEventPool);
ze_result_t sim_event_pool_close_ipc_handle(ze_event_pool_handle_t hEventPool);
ze_result_t sim_event_host_signal(ze_event_handle_t hEvent);
ze_result_t sim_event_host_synchronize(ze_event_handle_t hEvent, uint64_t timeout);
ze_result_t sim_event_query_status(ze_event_handle_t hEvent);
ze_result_t sim_event_host_reset(ze_event_handle_t hEvent);
ze_result_t sim_event_query_kernel_timestamp(ze_event_handle_t hEvent,
                                             ze_kernel_timestamp_result_t *dstptr);
ze_result_t sim_fence_create(ze_command_queue_handle_t hCommandQueue, const ze_fence_desc_t *desc,
                             ze_fence_handle_t *phFence);
ze_result_t sim_fence_destroy(ze_fence_handle_t hFence);
ze_result_t sim_fence_host_synchronize(ze_fence_handle_t hFence, uint64_t timeout);
ze_result_t sim_fence_query_status(ze_fence_handle_t hFence);
ze_result_t sim_fence_reset(ze_fence_handle_t hFence);

// queue.c
ze_result_t sim_command_queue_create(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                     const ze_command_queue_desc_t *desc,
                                     ze_command_queue_handle_t *phCommandQueue);
ze_result_t sim_command_queue_destroy(ze_command_queue_handle_t hCommandQueue);
ze_result_t sim_command_queue_execute_command_lists(ze_command_queue_handle_t hCommandQueue,
                                                    uint32_t numCommandLists,
                                                    ze_command_list_handle_t *phCommandLists,
                                                    ze_fence_handle_t hFence);
ze_result_t sim_command_queue_synchronize(ze_command_queue_handle_t hCommandQueue,
                                          uint64_t timeout);

// cmdlist.c
ze_result_t sim_command_list_create(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                    const ze_command_list_desc_t *desc,
                                    ze_command_list_handle_t *phCommandList);
ze_result_t sim_command_list_create_immediate(ze_context_handle_t hContext,
                                              ze_device_handle_t hDevice,
                                              const ze_command_queue_desc_t *altdesc,
                                              ze_command_list_handle_t *phCommandList);
ze_result_t sim_command_list_destroy(ze_command_list_handle_t hCommandList);
ze_result_t sim_command_list_close(ze_command_list_handle_t hCommandList);
ze_result_t sim_command_list_reset(ze_command_list_handle_t hCommandList);
ze_result_t sim_command_list_append_barrier(ze_command_list_handle_t hCommandList,
                                            ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                            ze_event_handle_t *phWaitEvents);
ze_result_t sim_command_list_append_memory_ranges_barrier(
    ze_command_list_handle_t hCommandList, uint32_t numRanges, const size_t *pRangeSizes,
    const void **pRanges, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents);
ze_result_t sim_command_list_append_write_global_timestamp(ze_command_list_handle_t hCommandList,
                                                           uint64_t *dstptr,
                                                           ze_event_handle_t hSignalEvent,
                                                           uint32_t numWaitEvents,
                                                           ze_event_handle_t *phWaitEvents);
ze_result_t sim_command_list_append_memory_copy(ze_command_list_handle_t hCommandList, void *dstptr,
                                                const void *srcptr, size_t size,
                                                ze_event_handle_t hSignalEvent,
                                                uint32_t numWaitEvents,
                                                ze_event_handle_t *phWaitEvents);
ze_result_t sim_command_list_append_memory_copy_from_context(
    ze_command_list_handle_t hCommandList, void *dstptr, ze_context_handle_t hContextSrc,
    const void *srcptr, size_t size, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents);
ze_result_t sim_command_list_append_memory_fill(ze_command_list_handle_t hCommandList, void *ptr,
                                                const void *pattern, size_t pattern_size,
                                                size_t size, ze_event_handle_t hSignalEvent,
                                                uint32_t numWaitEvents,
                                                ze_event_handle_t *phWaitEvents);
ze_result_t sim_command_list_append_memory_copy_region(
    ze_command_list_handle_t hCommandList, void *dstptr, const ze_copy_region_t *dstRegion,
    uint32_t dstPitch, uint32_t dstSlicePitch, const void *srcptr,
    const ze_copy_region_t *srcRegion, uint32_t srcPitch, uint32_t srcSlicePitch,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents);
ze_result_t sim_command_list_append_memory_prefetch(ze_command_list_handle_t hCommandList,
                                                    const void *ptr, size_t size);
ze_result_t sim_command_list_append_mem_advise(ze_command_list_handle_t hCommandList,
                                               ze_device_handle_t hDevice, const void *ptr,
                                               size_t size, ze_memory_advice_t advice);
ze_result_t sim_command_list_append_signal_event(ze_command_list_handle_t hCommandList,
                                                 ze_event_handle_t hEvent);
ze_result_t sim_command_list_append_wait_on_events(ze_command_list_handle_t hCommandList,
                                                   uint32_t numEvents, ze_event_handle_t *phEvents);
ze_result_t sim_command_list_append_event_reset(ze_command_list_handle_t hCommandList,
                                                ze_event_handle_t hEvent);
ze_result_t sim_command_list_append_query_kernel_timestamps(
    ze_command_list_handle_t hCommandList, uint32_t numEvents, ze_event_handle_t *phEvents,
    void *dstptr, const size_t *pOffsets, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents);
ze_result_t sim_command_list_append_launch_kernel(ze_command_list_handle_t hCommandList,
                                                  ze_kernel_handle_t hKernel,
                                                  const ze_group_count_t *pLaunchFuncArgs,
                                                  ze_event_handle_t hSignalEvent,
                                                  uint32_t numWaitEvents,
                                                  ze_event_handle_t *phWaitEvents);
ze_result_t sim_command_list_append_launch_cooperative_kernel(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents);
ze_result_t sim_command_list_append_launch_kernel_indirect(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchArgumentsBuffer, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents);
ze_result_t sim_command_list_append_launch_multiple_kernels_indirect(
    ze_command_list_handle_t hCommandList, uint32_t numKernels, ze_kernel_handle_t *phKernels,
    const uint32_t *pCountBuffer, const ze_group_count_t *pLaunchArgumentsBuffer,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents);

// module.c
ze_result_t sim_module_build_log_destroy(ze_module_build_log_handle_t hModuleBuildLog);
ze_result_t sim_module_build_log_get_string(ze_module_build_log_handle_t hModuleBuildLog,
                                            size_t *pSize, char *pBuildLog);
ze_result_t sim_module_create(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                              const ze_module_desc_t *desc, ze_module_handle_t *phModule,
                              ze_module_build_log_handle_t *phBuildLog);
ze_result_t sim_module_destroy(ze_module_handle_t hModule);
ze_result_t sim_module_dynamic_link(uint32_t numModules, ze_module_handle_t *phModules,
                                    ze_module_build_log_handle_t *phLinkLog);
ze_result_t sim_module_inspect_linkage_ext(ze_linkage_inspection_ext_desc_t *pInspectDesc,
                                           uint32_t numModules, ze_module_handle_t *phModules,
                                           ze_module_build_log_handle_t *phLog);
ze_result_t sim_module_get_native_binary(ze_module_handle_t hModule, size_t *pSize,
                                         uint8_t *pModuleNativeBinary);
ze_result_t sim_module_get_global_pointer(ze_module_handle_t hModule, const char *pGlobalName,
                                          size_t *pSize, void **pptr);
ze_result_t sim_module_get_kernel_names(ze_module_handle_t hModule, uint32_t *pCount,
                                        const char **pNames);
ze_result_t sim_module_get_properties(ze_module_handle_t hModule,
                                      ze_module_properties_t *pModuleProperties);
ze_result_t sim_module_get_function_pointer(ze_module_handle_t hModule, const char *pFunctionName,
                                            void **pfnFunction);

// kernel.c
ze_result_t sim_kernel_create(ze_module_handle_t hModule, const ze_kernel_desc_t *desc,
                              ze_kernel_handle_t *phKernel);
ze_result_t sim_kernel_destroy(ze_kernel_handle_t hKernel);
ze_result_t sim_kernel_set_cache_config(ze_kernel_handle_t hKernel, ze_cache_config_flags_t flags);
ze_result_t sim_kernel_set_group_size(ze_kernel_handle_t hKernel, uint32_t groupSizeX,
                                      uint32_t groupSizeY, uint32_t groupSizeZ);
ze_result_t sim_kernel_suggest_group_size(ze_kernel_handle_t hKernel, uint32_t globalSizeX,
                                          uint32_t globalSizeY, uint32_t globalSizeZ,
                                          uint32_t *groupSizeX, uint32_t *groupSizeY,
                                          uint32_t *groupSizeZ);
ze_result_t sim_kernel_suggest_max_cooperative_group_count(ze_kernel_handle_t hKernel,
                                                           uint32_t *totalGroupCount);
ze_result_t sim_kernel_set_argument_value(ze_kernel_handle_t hKernel, uint32_t argIndex,
                                          size_t argSize, const void *pArgValue);
ze_result_t sim_kernel_set_indirect_access(ze_kernel_handle_t hKernel,
                                           ze_kernel_indirect_access_flags_t flags);
ze_result_t sim_kernel_get_indirect_access(ze_kernel_handle_t hKernel,
                                           ze_kernel_indirect_access_flags_t *pFlags);
ze_result_t sim_kernel_get_source_attributes(ze_kernel_handle_t hKernel, uint32_t *pSize,
                                             char **pString);
ze_result_t sim_kernel_get_properties(ze_kernel_handle_t hKernel, ze_kernel_properties_t *props);
ze_result_t sim_kernel_get_name(ze_kernel_handle_t hKernel, size_t *pSize, char *pName);
ze_result_t sim_kernel_set_global_offset_exp(ze_kernel_handle_t hKernel, uint32_t offsetX,
                                             uint32_t offsetY, uint32_t offsetZ);
ze_result_t sim_kernel_scheduling_hint_exp(ze_kernel_handle_t hKernel,
                                           ze_scheduling_hint_exp_desc_t *pHint);

// image.c
ze_result_t sim_image_create(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                             const ze_image_desc_t *desc, ze_image_handle_t *phImage);
ze_result_t sim_image_destroy(ze_image_handle_t hImage);
ze_result_t sim_image_get_properties(ze_device_handle_t hDevice, const ze_image_desc_t *desc,
                                     ze_image_properties_t *props);
ze_result_t sim_command_list_append_image_copy(ze_command_list_handle_t hList,
                                               ze_image_handle_t hDst, ze_image_handle_t hSrc,
                                               ze_event_handle_t hSignal, uint32_t numWaits,
                                               ze_event_handle_t *phWaits);
ze_result_t sim_command_list_append_image_copy_region(
    ze_command_list_handle_t hList, ze_image_handle_t hDst, ze_image_handle_t hSrc,
    const ze_image_region_t *pDstRegion, const ze_image_region_t *pSrcRegion,
    ze_event_handle_t hSignal, uint32_t numWaits, ze_event_handle_t *phWaits);
ze_result_t sim_command_list_append_image_copy_to_memory(ze_command_list_handle_t hList,
                                                         void *dstptr, ze_image_handle_t hSrc,
                                                         const ze_image_region_t *pSrcRegion,
                                                         ze_event_handle_t hSignal,
                                                         uint32_t numWaits,
                                                         ze_event_handle_t *phWaits);
ze_result_t sim_command_list_append_image_copy_from_memory(
    ze_command_list_handle_t hList, ze_image_handle_t hDst, const void *srcptr,
    const ze_image_region_t *pDstRegion, ze_event_handle_t hSignal, uint32_t numWaits,
    ze_event_handle_t *phWaits);
ze_result_t sim_command_list_append_image_copy_to_memory_ext(
    ze_command_list_handle_t hList, void *dstptr, ze_image_handle_t hSrc,
    const ze_image_region_t *pSrcRegion, uint32_t destRowPitch, uint32_t destSlicePitch,
    ze_event_handle_t hSignal, uint32_t numWaits, ze_event_handle_t *phWaits);
ze_result_t sim_command_list_append_image_copy_from_memory_ext(
    ze_command_list_handle_t hList, ze_image_handle_t hDst, const void *srcptr,
    const ze_image_region_t *pDstRegion, uint32_t srcRowPitch, uint32_t srcSlicePitch,
    ze_event_handle_t hSignal, uint32_t numWaits, ze_event_handle_t *phWaits);
// vmm.c
ze_result_t sim_virtual_mem_query_page_size(ze_context_handle_t hContext,
                                            ze_device_handle_t hDevice, size_t size,
                                            size_t *pagesize);
ze_result_t sim_virtual_mem_reserve(ze_context_handle_t hContext, const void *start, size_t size,
                                    void **pptr);
ze_result_t sim_virtual_mem_free(ze_context_handle_t hContext, const void *ptr, size_t size);
ze_result_t sim_physical_mem_create(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                    ze_physical_mem_desc_t *desc,
                                    ze_physical_mem_handle_t *phPhysicalMemory);
ze_result_t sim_physical_mem_destroy(ze_context_handle_t hContext,
                                     ze_physical_mem_handle_t hPhysicalMemory);
ze_result_t sim_virtual_mem_map(ze_context_handle_t hContext, const void *ptr, size_t size,
                                ze_physical_mem_handle_t hPhysicalMemory, size_t offset,
                                ze_memory_access_attribute_t access);
ze_result_t sim_virtual_mem_unmap(ze_context_handle_t hContext, const void *ptr, size_t size);
ze_result_t sim_virtual_mem_set_access_attribute(ze_context_handle_t hContext, const void *ptr,
                                                 size_t size, ze_memory_access_attribute_t access);
ze_result_t sim_virtual_mem_get_access_attribute(ze_context_handle_t hContext, const void *ptr,
                                                 size_t size, ze_memory_access_attribute_t *access,
                                                 size_t *outSize);

// sampler.c
ze_result_t sim_sampler_create(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                               const ze_sampler_desc_t *desc, ze_sampler_handle_t *phSampler);
ze_result_t sim_sampler_destroy(ze_sampler_handle_t hSampler);

// sysman.c
ze_result_t sim_zes_device_get_properties(zes_device_handle_t hDevice,
                                          zes_device_properties_t *pProperties);
ze_result_t sim_zes_device_pci_get_properties(zes_device_handle_t hDevice,
                                              zes_pci_properties_t *pProperties);
ze_result_t sim_zes_device_enum_memory_modules(zes_device_handle_t hDevice, uint32_t *pCount,
                                               zes_mem_handle_t *phMemory);
ze_result_t sim_zes_memory_get_properties(zes_mem_handle_t hMemory,
                                          zes_mem_properties_t *pProperties);
ze_result_t sim_zes_memory_get_state(zes_mem_handle_t hMemory, zes_mem_state_t *pState);

#endif // URC_TEST_ZE_SIM_ZE_SIM_ENTRY_H
