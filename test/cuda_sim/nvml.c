// SPDX-License-Identifier: MIT
// A simulated libnvidia-ml.so.1 for the simulated device (bus 0000:3b:00.0): fixed power
// limits (200 W to 700 W), a software power cap and idle as the clock reasons, fan at 30 %.
// With CUDA_SIM_NVML=absent its initialisation fails, as on a machine without NVML.
#include <stdlib.h>
#include <string.h>

#define SIM_NVML_EXPORT __attribute__((visibility("default")))

typedef struct sim_nvml_device *nvml_device_t;
static struct sim_nvml_device { int unused; } the_device;

SIM_NVML_EXPORT int nvmlInit_v2(void) {
    const char *mode = getenv("CUDA_SIM_NVML");
    return mode != NULL && strcmp(mode, "absent") == 0 ? 9 /* driver not loaded */ : 0;
}

SIM_NVML_EXPORT int nvmlShutdown(void) {
    return 0;
}

SIM_NVML_EXPORT int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, nvml_device_t *dev) {
    if (bus == NULL || dev == NULL)
        return 2; // invalid argument
    if (strcmp(bus, "0000:3b:00.0") != 0)
        return 6; // not found
    *dev = &the_device;
    return 0;
}

SIM_NVML_EXPORT int nvmlDeviceGetPowerManagementLimitConstraints(nvml_device_t dev, unsigned *lo,
                                                                 unsigned *hi) {
    if (dev != &the_device)
        return 2;
    *lo = 200000;
    *hi = 700000;
    return 0;
}

SIM_NVML_EXPORT int nvmlDeviceGetPowerManagementLimit(nvml_device_t dev, unsigned *limit) {
    if (dev != &the_device)
        return 2;
    *limit = 700000;
    return 0;
}

SIM_NVML_EXPORT int nvmlDeviceGetCurrentClocksThrottleReasons(nvml_device_t dev,
                                                              unsigned long long *reasons) {
    if (dev != &the_device)
        return 2;
    *reasons = 0x4 | 0x1; // SW power cap, GPU idle
    return 0;
}

SIM_NVML_EXPORT int nvmlDeviceGetFanSpeed(nvml_device_t dev, unsigned *speed) {
    if (dev != &the_device)
        return 2;
    *speed = 30;
    return 0;
}
