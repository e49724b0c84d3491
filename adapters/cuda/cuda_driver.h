// SPDX-License-Identifier: MIT
// The CUDA driver as the adapter sees it: libcuda.so.1 opened at run time and every function
// the adapter calls resolved into one table. Nothing links against libcuda, so the adapter
// loads on machines without a driver and then simply reports no platform.
#ifndef URC_CUDA_CUDA_DRIVER_H
#define URC_CUDA_CUDA_DRIVER_H

#include <stdbool.h>

#include <cuda.h>
#include <cudaTypedefs.h>

#include "cuda_driver_bindless.h"

// Each entry: table field, function type (cudaTypedefs.h names the API version), the exported
// symbol. cuda.h maps most names to versioned symbols (cuMemAlloc -> cuMemAlloc_v2); the symbol
// column spells those out, because dlsym sees no macros.
#define CUDA_DRIVER_REQUIRED(X)                                                                    \
    X(Init, PFN_cuInit_v2000, "cuInit")                                                            \
    X(DriverGetVersion, PFN_cuDriverGetVersion_v2020, "cuDriverGetVersion")                        \
    X(GetErrorName, PFN_cuGetErrorName_v6000, "cuGetErrorName")                                    \
    X(GetErrorString, PFN_cuGetErrorString_v6000, "cuGetErrorString")                              \
    X(DeviceGetCount, PFN_cuDeviceGetCount_v2000, "cuDeviceGetCount")                              \
    X(DeviceGet, PFN_cuDeviceGet_v2000, "cuDeviceGet")                                             \
    X(DeviceGetName, PFN_cuDeviceGetName_v2000, "cuDeviceGetName")                                 \
    X(DeviceGetAttribute, PFN_cuDeviceGetAttribute_v2000, "cuDeviceGetAttribute")                  \
    X(DeviceTotalMem, PFN_cuDeviceTotalMem_v3020, "cuDeviceTotalMem_v2")                           \
    X(DeviceGetPCIBusId, PFN_cuDeviceGetPCIBusId_v4010, "cuDeviceGetPCIBusId")                     \
    X(DevicePrimaryCtxRetain, PFN_cuDevicePrimaryCtxRetain_v7000, "cuDevicePrimaryCtxRetain")      \
    X(DevicePrimaryCtxRelease, PFN_cuDevicePrimaryCtxRelease_v11000,                               \
      "cuDevicePrimaryCtxRelease_v2")                                                              \
    X(CtxGetCurrent, PFN_cuCtxGetCurrent_v4000, "cuCtxGetCurrent")                                 \
    X(CtxSetCurrent, PFN_cuCtxSetCurrent_v4000, "cuCtxSetCurrent")                                 \
    X(CtxSynchronize, PFN_cuCtxSynchronize_v2000, "cuCtxSynchronize")                              \
    X(CtxGetStreamPriorityRange, PFN_cuCtxGetStreamPriorityRange_v5050,                            \
      "cuCtxGetStreamPriorityRange")                                                               \
    X(MemGetInfo, PFN_cuMemGetInfo_v3020, "cuMemGetInfo_v2")                                       \
    X(StreamCreateWithPriority, PFN_cuStreamCreateWithPriority_v5050,                              \
      "cuStreamCreateWithPriority")                                                                \
    X(StreamDestroy, PFN_cuStreamDestroy_v4000, "cuStreamDestroy_v2")                              \
    X(StreamSynchronize, PFN_cuStreamSynchronize_v2000, "cuStreamSynchronize")                     \
    X(StreamQuery, PFN_cuStreamQuery_v2000, "cuStreamQuery")                                       \
    X(StreamWaitEvent, PFN_cuStreamWaitEvent_v3020, "cuStreamWaitEvent")                           \
    X(StreamGetFlags, PFN_cuStreamGetFlags_v5050, "cuStreamGetFlags")                              \
    X(EventCreate, PFN_cuEventCreate_v2000, "cuEventCreate")                                       \
    X(EventRecord, PFN_cuEventRecord_v2000, "cuEventRecord")                                       \
    X(EventQuery, PFN_cuEventQuery_v2000, "cuEventQuery")                                          \
    X(EventSynchronize, PFN_cuEventSynchronize_v2000, "cuEventSynchronize")                        \
    X(EventDestroy, PFN_cuEventDestroy_v4000, "cuEventDestroy_v2")                                 \
    X(MemAlloc, PFN_cuMemAlloc_v3020, "cuMemAlloc_v2")                                             \
    X(MemFree, PFN_cuMemFree_v3020, "cuMemFree_v2")                                                \
    X(MemAllocHost, PFN_cuMemAllocHost_v3020, "cuMemAllocHost_v2")                                 \
    X(MemFreeHost, PFN_cuMemFreeHost_v2000, "cuMemFreeHost")                                       \
    X(MemHostAlloc, PFN_cuMemHostAlloc_v2020, "cuMemHostAlloc")                                    \
    X(MemAllocManaged, PFN_cuMemAllocManaged_v6000, "cuMemAllocManaged")                           \
    X(MemHostRegister, PFN_cuMemHostRegister_v6050, "cuMemHostRegister_v2")                        \
    X(MemHostUnregister, PFN_cuMemHostUnregister_v4000, "cuMemHostUnregister")                     \
    X(MemHostGetDevicePointer, PFN_cuMemHostGetDevicePointer_v3020,                                \
      "cuMemHostGetDevicePointer_v2")                                                              \
    X(MemGetAddressRange, PFN_cuMemGetAddressRange_v3020, "cuMemGetAddressRange_v2")               \
    X(MemcpyHtoD, PFN_cuMemcpyHtoD_v3020, "cuMemcpyHtoD_v2")                                       \
    X(MemcpyHtoDAsync, PFN_cuMemcpyHtoDAsync_v3020, "cuMemcpyHtoDAsync_v2")                        \
    X(MemcpyDtoHAsync, PFN_cuMemcpyDtoHAsync_v3020, "cuMemcpyDtoHAsync_v2")                        \
    X(MemcpyDtoDAsync, PFN_cuMemcpyDtoDAsync_v3020, "cuMemcpyDtoDAsync_v2")                        \
    X(MemcpyAsync, PFN_cuMemcpyAsync_v4000, "cuMemcpyAsync")                                       \
    X(Memcpy2DAsync, PFN_cuMemcpy2DAsync_v3020, "cuMemcpy2DAsync_v2")                              \
    X(Memcpy3DAsync, PFN_cuMemcpy3DAsync_v3020, "cuMemcpy3DAsync_v2")                              \
    X(MemsetD8Async, PFN_cuMemsetD8Async_v3020, "cuMemsetD8Async")                                 \
    X(MemsetD16Async, PFN_cuMemsetD16Async_v3020, "cuMemsetD16Async")                              \
    X(MemsetD32Async, PFN_cuMemsetD32Async_v3020, "cuMemsetD32Async")                              \
    X(MemsetD2D8Async, PFN_cuMemsetD2D8Async_v3020, "cuMemsetD2D8Async")                           \
    X(MemsetD2D16Async, PFN_cuMemsetD2D16Async_v3020, "cuMemsetD2D16Async")                        \
    X(MemsetD2D32Async, PFN_cuMemsetD2D32Async_v3020, "cuMemsetD2D32Async")                        \
    X(PointerGetAttribute, PFN_cuPointerGetAttribute_v4000, "cuPointerGetAttribute")               \
    X(PointerGetAttributes, PFN_cuPointerGetAttributes_v7000, "cuPointerGetAttributes")            \
    X(ModuleLoadDataEx, PFN_cuModuleLoadDataEx_v2010, "cuModuleLoadDataEx")                        \
    X(ModuleUnload, PFN_cuModuleUnload_v2000, "cuModuleUnload")                                    \
    X(ModuleGetFunction, PFN_cuModuleGetFunction_v2000, "cuModuleGetFunction")                     \
    X(ModuleGetGlobal, PFN_cuModuleGetGlobal_v3020, "cuModuleGetGlobal_v2")                        \
    X(LinkCreate, PFN_cuLinkCreate_v6050, "cuLinkCreate_v2")                                       \
    X(LinkAddData, PFN_cuLinkAddData_v6050, "cuLinkAddData_v2")                                    \
    X(LinkComplete, PFN_cuLinkComplete_v5050, "cuLinkComplete")                                    \
    X(LinkDestroy, PFN_cuLinkDestroy_v5050, "cuLinkDestroy")                                       \
    X(FuncGetAttribute, PFN_cuFuncGetAttribute_v2020, "cuFuncGetAttribute")                        \
    X(FuncSetAttribute, PFN_cuFuncSetAttribute_v9000, "cuFuncSetAttribute")                        \
    X(LaunchKernel, PFN_cuLaunchKernel_v4000, "cuLaunchKernel")                                    \
    X(OccupancyMaxPotentialBlockSize, PFN_cuOccupancyMaxPotentialBlockSize_v6050,                  \
      "cuOccupancyMaxPotentialBlockSize")                                                          \
    X(OccupancyMaxActiveBlocksPerMultiprocessor,                                                   \
      PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor_v6050,                                       \
      "cuOccupancyMaxActiveBlocksPerMultiprocessor")

// Functions that older drivers lack, or that changed signature: NULL when absent. The second
// symbol, when given, is an older export with the same signature, tried when the first is missing.
#define CUDA_DRIVER_OPTIONAL(X)                                                                    \
    X(EventElapsedTime, PFN_cuEventElapsedTime_v2000, "cuEventElapsedTime_v2",                     \
      "cuEventElapsedTime")                                                                        \
    X(DeviceGetUuid, PFN_cuDeviceGetUuid_v11040, "cuDeviceGetUuid_v2", "cuDeviceGetUuid")          \
    X(MemPrefetchAsync_v2, PFN_cuMemPrefetchAsync_v12020, "cuMemPrefetchAsync_v2", NULL)           \
    X(MemPrefetchAsync_v1, PFN_cuMemPrefetchAsync_v8000, "cuMemPrefetchAsync", NULL)               \
    X(MemAdvise_v2, PFN_cuMemAdvise_v12020, "cuMemAdvise_v2", NULL)                                \
    X(MemAdvise_v1, PFN_cuMemAdvise_v8000, "cuMemAdvise", NULL)                                    \
    X(LaunchKernelEx, PFN_cuLaunchKernelEx_v11060, "cuLaunchKernelEx", NULL)                       \
    X(FuncGetParamInfo, PFN_cuFuncGetParamInfo_v12040, "cuFuncGetParamInfo", NULL)                 \
    X(FuncGetModule, PFN_cuFuncGetModule_v11000, "cuFuncGetModule", NULL)                          \
    X(FuncGetName, PFN_cuFuncGetName_v12030, "cuFuncGetName", NULL)                                \
    X(Array3DCreate, PFN_cuArray3DCreate_v3020, "cuArray3DCreate_v2", NULL)                        \
    X(ArrayDestroy, PFN_cuArrayDestroy_v2000, "cuArrayDestroy", NULL)                              \
    X(Array3DGetDescriptor, PFN_cuArray3DGetDescriptor_v3020, "cuArray3DGetDescriptor_v2", NULL)   \
    X(SurfObjectCreate, PFN_cuSurfObjectCreate_v5000, "cuSurfObjectCreate", NULL)                  \
    X(SurfObjectDestroy, PFN_cuSurfObjectDestroy_v5000, "cuSurfObjectDestroy", NULL)               \
    X(GraphCreate, PFN_cuGraphCreate_v10000, "cuGraphCreate", NULL)                                \
    X(GraphDestroy, PFN_cuGraphDestroy_v10000, "cuGraphDestroy", NULL)                             \
    X(GraphAddKernelNode, PFN_cuGraphAddKernelNode_v12000, "cuGraphAddKernelNode_v2", NULL)        \
    X(GraphAddMemcpyNode, PFN_cuGraphAddMemcpyNode_v10000, "cuGraphAddMemcpyNode", NULL)           \
    X(GraphAddMemsetNode, PFN_cuGraphAddMemsetNode_v10000, "cuGraphAddMemsetNode", NULL)           \
    X(GraphAddEmptyNode, PFN_cuGraphAddEmptyNode_v10000, "cuGraphAddEmptyNode", NULL)              \
    X(GraphInstantiateWithFlags, PFN_cuGraphInstantiateWithFlags_v11040,                           \
      "cuGraphInstantiateWithFlags", NULL)                                                         \
    X(GraphLaunch, PFN_cuGraphLaunch_v10000, "cuGraphLaunch", NULL)                                \
    X(GraphExecDestroy, PFN_cuGraphExecDestroy_v10000, "cuGraphExecDestroy", NULL)                 \
    X(GraphExecKernelNodeSetParams, PFN_cuGraphExecKernelNodeSetParams_v12000,                     \
      "cuGraphExecKernelNodeSetParams_v2", NULL)                                                   \
    X(LaunchHostFunc, PFN_cuLaunchHostFunc_v10000, "cuLaunchHostFunc", NULL)                       \
    X(StreamBeginCaptureToGraph, PFN_cuStreamBeginCaptureToGraph_v12030,                           \
      "cuStreamBeginCaptureToGraph", NULL)                                                         \
    X(StreamEndCapture, PFN_cuStreamEndCapture_v10000, "cuStreamEndCapture", NULL)                 \
    X(StreamIsCapturing, PFN_cuStreamIsCapturing_v10000, "cuStreamIsCapturing", NULL)              \
    X(GraphGetNodes, PFN_cuGraphGetNodes_v10000, "cuGraphGetNodes", NULL)                          \
    X(GraphDebugDotPrint, PFN_cuGraphDebugDotPrint_v11030, "cuGraphDebugDotPrint", NULL)           \
    X(GraphAddChildGraphNode, PFN_cuGraphAddChildGraphNode_v10000, "cuGraphAddChildGraphNode",     \
      NULL)                                                                                        \
    X(GraphAddEventRecordNode, PFN_cuGraphAddEventRecordNode_v11010, "cuGraphAddEventRecordNode",  \
      NULL)                                                                                        \
    X(GraphAddEventWaitNode, PFN_cuGraphAddEventWaitNode_v11010, "cuGraphAddEventWaitNode", NULL)  \
    X(GraphEventRecordNodeSetEvent, PFN_cuGraphEventRecordNodeSetEvent_v11010,                     \
      "cuGraphEventRecordNodeSetEvent", NULL)                                                      \
    X(GraphEventWaitNodeSetEvent, PFN_cuGraphEventWaitNodeSetEvent_v11010,                         \
      "cuGraphEventWaitNodeSetEvent", NULL)                                                        \
    X(GraphExecEventRecordNodeSetEvent, PFN_cuGraphExecEventRecordNodeSetEvent_v11010,             \
      "cuGraphExecEventRecordNodeSetEvent", NULL)                                                  \
    X(GraphExecEventWaitNodeSetEvent, PFN_cuGraphExecEventWaitNodeSetEvent_v11010,                 \
      "cuGraphExecEventWaitNodeSetEvent", NULL)                                                    \
    X(GraphDestroyNode, PFN_cuGraphDestroyNode_v10000, "cuGraphDestroyNode", NULL)                 \
    X(MemAllocPitch, PFN_cuMemAllocPitch_v3020, "cuMemAllocPitch_v2", NULL)                        \
    X(DeviceCanAccessPeer, PFN_cuDeviceCanAccessPeer_v4000, "cuDeviceCanAccessPeer", NULL)         \
    X(CtxEnablePeerAccess, PFN_cuCtxEnablePeerAccess_v4000, "cuCtxEnablePeerAccess", NULL)         \
    X(CtxDisablePeerAccess, PFN_cuCtxDisablePeerAccess_v4000, "cuCtxDisablePeerAccess", NULL)      \
    X(DeviceGetP2PAttribute, PFN_cuDeviceGetP2PAttribute_v8000, "cuDeviceGetP2PAttribute", NULL)   \
    X(MemAddressReserve, PFN_cuMemAddressReserve_v10020, "cuMemAddressReserve", NULL)              \
    X(MemAddressFree, PFN_cuMemAddressFree_v10020, "cuMemAddressFree", NULL)                       \
    X(MemCreate, PFN_cuMemCreate_v10020, "cuMemCreate", NULL)                                      \
    X(MemRelease, PFN_cuMemRelease_v10020, "cuMemRelease", NULL)                                   \
    X(MemMap, PFN_cuMemMap_v10020, "cuMemMap", NULL)                                               \
    X(MemUnmap, PFN_cuMemUnmap_v10020, "cuMemUnmap", NULL)                                         \
    X(MemSetAccess, PFN_cuMemSetAccess_v10020, "cuMemSetAccess", NULL)                             \
    X(MemGetAccess, PFN_cuMemGetAccess_v10020, "cuMemGetAccess", NULL)                             \
    X(MemExportToShareableHandle, PFN_cuMemExportToShareableHandle_v10020,                         \
      "cuMemExportToShareableHandle", NULL)                                                        \
    X(MemImportFromShareableHandle, PFN_cuMemImportFromShareableHandle_v10020,                     \
      "cuMemImportFromShareableHandle", NULL)                                                      \
    X(MemGetAllocationGranularity, PFN_cuMemGetAllocationGranularity_v10020,                       \
      "cuMemGetAllocationGranularity", NULL)                                                       \
    X(DeviceGetDefaultMemPool, PFN_cuDeviceGetDefaultMemPool_v11020, "cuDeviceGetDefaultMemPool",  \
      NULL)                                                                                        \
    X(MemAllocFromPoolAsync, PFN_cuMemAllocFromPoolAsync_v11020, "cuMemAllocFromPoolAsync", NULL)  \
    X(MemFreeAsync, PFN_cuMemFreeAsync_v11020, "cuMemFreeAsync", NULL)                             \
    X(IpcGetEventHandle, PFN_cuIpcGetEventHandle_v4010, "cuIpcGetEventHandle", NULL)               \
    X(IpcOpenEventHandle, PFN_cuIpcOpenEventHandle_v4010, "cuIpcOpenEventHandle", NULL)            \
    X(IpcGetMemHandle, PFN_cuIpcGetMemHandle_v4010, "cuIpcGetMemHandle", NULL)                     \
    X(IpcOpenMemHandle, PFN_cuIpcOpenMemHandle_v11000, "cuIpcOpenMemHandle_v2", NULL)              \
    X(IpcCloseMemHandle, PFN_cuIpcCloseMemHandle_v4010, "cuIpcCloseMemHandle", NULL)

typedef struct cuda_driver_t {
#define CUDA_DRIVER_FIELD(field, type, ...) type field;
    CUDA_DRIVER_REQUIRED(CUDA_DRIVER_FIELD)
    CUDA_DRIVER_OPTIONAL(CUDA_DRIVER_FIELD)
    CUDA_DRIVER_BINDLESS(CUDA_DRIVER_FIELD)
#undef CUDA_DRIVER_FIELD
} cuda_driver_t;

/// The table; valid once cuda_driver_load() has returned true.
extern cuda_driver_t cu;

/// Opens libcuda.so.1 and resolves the table, once per process. False (with the reason logged at
/// info level and kept for cuda_driver_failure()) when the library or a required symbol is
/// missing; the adapter then reports no platform.
bool cuda_driver_load(void);

/// Wraps the table's allocating, freeing, mapping and unmapping entries so that each one also
/// forgets the adapter's remembered USM lookups (usm_lookup.c); called once, by the loading.
void cuda_usm_lookup_wrap_driver(void);

/// Why cuda_driver_load() failed, or "" when it did not.
const char *cuda_driver_failure(void);

#endif // URC_CUDA_CUDA_DRIVER_H
