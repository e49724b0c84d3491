// SPDX-License-Identifier: MIT
// The few Sysman (zes) queries a runtime adapter makes: device identity, PCI address, and
// memory size and free memory. In API 1.4 the Sysman device handle is the core device handle.
#include "ze_sim_internal.h"
#include "ze_sim_entry.h"

#include <stdio.h>

// The device's one memory module, as a handle of its own.
static sim_header_t g_memory_module = {SIM_MAGIC, SIM_KIND_SYSMAN_MEMORY};

ze_result_t sim_zes_device_get_properties(zes_device_handle_t hDevice,
                                          zes_device_properties_t *pProperties) {
    ze_result_t r;
    if (!sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    if (!pProperties)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // The embedded core properties use the 1.0 layout: timerResolution in nanoseconds.
    pProperties->core.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
    pProperties->core.pNext = NULL;
    sim_fill_device_properties(&pProperties->core);
    pProperties->numSubdevices = 0;
    snprintf(pProperties->serialNumber, ZES_STRING_PROPERTY_SIZE, "ZESIM0001");
    snprintf(pProperties->boardNumber, ZES_STRING_PROPERTY_SIZE, "ZESIM-BOARD-1");
    snprintf(pProperties->brandName, ZES_STRING_PROPERTY_SIZE, "urc");
    // The core name fits: it is a short literal, though the field it sits in is 256 bytes.
    snprintf(pProperties->modelName, ZES_STRING_PROPERTY_SIZE, "%.63s", pProperties->core.name);
    snprintf(pProperties->vendorName, ZES_STRING_PROPERTY_SIZE, "urc (simulated)");
    snprintf(pProperties->driverVersion, ZES_STRING_PROPERTY_SIZE, "ze_sim %u",
             (unsigned)ZE_SIM_API_VERSION);
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_zes_device_pci_get_properties(zes_device_handle_t hDevice,
                                              zes_pci_properties_t *pProperties) {
    ze_result_t r;
    if (!sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    if (!pProperties)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // Same address as zeDevicePciGetPropertiesExt reports.
    pProperties->address.domain = 0;
    pProperties->address.bus = 0x5a;
    pProperties->address.device = 0;
    pProperties->address.function = 0;
    pProperties->maxSpeed.gen = 4;
    pProperties->maxSpeed.width = 16;
    pProperties->maxSpeed.maxBandwidth = 32ll * 1000 * 1000 * 1000;
    pProperties->haveBandwidthCounters = 0;
    pProperties->havePacketCounters = 0;
    pProperties->haveReplayCounters = 0;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_zes_device_enum_memory_modules(zes_device_handle_t hDevice, uint32_t *pCount,
                                               zes_mem_handle_t *phMemory) {
    ze_result_t r;
    if (!sim_obj(hDevice, SIM_KIND_DEVICE, &r))
        return r;
    if (!pCount)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // Static, like the device: the handle is valid for the library's lifetime.
    zes_mem_handle_t one = (zes_mem_handle_t)&g_memory_module;
    sim_copy_out_count(pCount, phMemory, &one, 1, sizeof(one));
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_zes_memory_get_properties(zes_mem_handle_t hMemory,
                                          zes_mem_properties_t *pProperties) {
    ze_result_t r;
    if (!sim_obj(hMemory, SIM_KIND_SYSMAN_MEMORY, &r))
        return r;
    if (!pProperties)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    pProperties->type = ZES_MEM_TYPE_HBM;
    pProperties->onSubdevice = 0;
    pProperties->subdeviceId = 0;
    pProperties->location = ZES_MEM_LOC_DEVICE;
    pProperties->physicalSize = SIM_TOTAL_MEMORY;
    pProperties->busWidth = 256;
    pProperties->numChannels = 8;
    return ZE_RESULT_SUCCESS;
}

ze_result_t sim_zes_memory_get_state(zes_mem_handle_t hMemory, zes_mem_state_t *pState) {
    ze_result_t r;
    if (!sim_obj(hMemory, SIM_KIND_SYSMAN_MEMORY, &r))
        return r;
    if (!pState)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    // Device and shared allocations count against the simulated 8 GiB.
    pState->health = ZES_MEM_HEALTH_OK;
    pState->size = SIM_TOTAL_MEMORY;
    pState->free = SIM_TOTAL_MEMORY - sim_mem_device_bytes();
    return ZE_RESULT_SUCCESS;
}
