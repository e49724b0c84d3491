// SPDX-License-Identifier: MIT
// The few NVML queries the device infos need (power limits, clock throttle reasons, fan
// speed). libnvidia-ml.so.1 is opened at run time like libcuda.so.1: without it, or when it
// cannot answer, the queries are unsupported.
#ifndef URC_CUDA_NVML_H
#define URC_CUDA_NVML_H

#include <stdbool.h>
#include <stdint.h>

#include "ur_api.h"

/// NVML's answers for the device with this PCI bus id ("0000:3b:00.0"). Each returns false when
/// NVML is absent or does not answer.
bool cuda_nvml_power_limits(const char *pci_bus_id, int32_t *min_mw, int32_t *max_mw);
bool cuda_nvml_throttle_reasons(const char *pci_bus_id, ur_device_throttle_reasons_flags_t *out);
bool cuda_nvml_fan_speed(const char *pci_bus_id, int32_t *percent);

#endif // URC_CUDA_NVML_H
