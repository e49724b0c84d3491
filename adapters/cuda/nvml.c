// SPDX-License-Identifier: MIT
// NVML through dlopen (nvml.h). NVML's own header is not needed: its handles are opaque
// pointers, its results ints (0 is success), and only these entry points are used.
#include "nvml.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

typedef struct nvml_device_opaque *nvml_device_t;

// NVML's return codes that matter here.
#define NVML_OK            0
#define NVML_NOT_SUPPORTED 3

// NVML's clock event (throttle) reason bits.
#define NVML_REASON_SW_POWER_CAP            0x4ull
#define NVML_REASON_SW_THERMAL_SLOWDOWN     0x20ull
#define NVML_REASON_HW_THERMAL_SLOWDOWN     0x40ull
#define NVML_REASON_HW_POWER_BRAKE_SLOWDOWN 0x80ull
#define NVML_REASON_APPLICATIONS_CLOCKS_SET 0x2ull

static struct {
    int (*init)(void);
    int (*by_pci)(const char *, nvml_device_t *);
    int (*limit_constraints)(nvml_device_t, unsigned *, unsigned *);
    int (*limit)(nvml_device_t, unsigned *);
    int (*reasons)(nvml_device_t, unsigned long long *);
    int (*fan)(nvml_device_t, unsigned *);
} nvml;
static bool ready;
static pthread_once_t once = PTHREAD_ONCE_INIT;

// Opened once and never closed (like the driver): NVML is shut down by the process exit.
static void load(void) {
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL)
        return;
    nvml.init = (int (*)(void))dlsym(lib, "nvmlInit_v2");
    nvml.by_pci =
        (int (*)(const char *, nvml_device_t *))dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    nvml.limit_constraints = (int (*)(nvml_device_t, unsigned *, unsigned *))dlsym(
        lib, "nvmlDeviceGetPowerManagementLimitConstraints");
    nvml.limit =
        (int (*)(nvml_device_t, unsigned *))dlsym(lib, "nvmlDeviceGetPowerManagementLimit");
    // Renamed "clocks event reasons" in CUDA 12.6's NVML; the old name stays exported.
    void *reasons = dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
    if (reasons == NULL)
        reasons = dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
    nvml.reasons = (int (*)(nvml_device_t, unsigned long long *))reasons;
    nvml.fan = (int (*)(nvml_device_t, unsigned *))dlsym(lib, "nvmlDeviceGetFanSpeed");
    ready = nvml.init != NULL && nvml.by_pci != NULL && nvml.init() == NVML_OK;
}

static bool device(const char *pci_bus_id, nvml_device_t *dev) {
    pthread_once(&once, load);
    return ready && nvml.by_pci(pci_bus_id, dev) == NVML_OK;
}

bool cuda_nvml_power_limits(const char *pci_bus_id, int32_t *min_mw, int32_t *max_mw) {
    nvml_device_t dev;
    if (!device(pci_bus_id, &dev) || nvml.limit_constraints == NULL)
        return false;
    unsigned lo = 0, hi = 0;
    int r = nvml.limit_constraints(dev, &lo, &hi);
    if (r == NVML_NOT_SUPPORTED && nvml.limit != NULL) {
        // Without constraints the current limit is the most there is; the minimum is unknown
        // (-1), as UR answers.
        if (nvml.limit(dev, &hi) != NVML_OK)
            return false;
        *min_mw = -1;
        *max_mw = (int32_t)hi;
        return true;
    }
    if (r != NVML_OK)
        return false;
    *min_mw = (int32_t)lo;
    *max_mw = (int32_t)hi;
    return true;
}

bool cuda_nvml_throttle_reasons(const char *pci_bus_id, ur_device_throttle_reasons_flags_t *out) {
    nvml_device_t dev;
    unsigned long long bits = 0;
    if (!device(pci_bus_id, &dev) || nvml.reasons == NULL || nvml.reasons(dev, &bits) != NVML_OK)
        return false;
    // UR's mapping; every other reason NVML gives is OTHER.
    static const struct {
        unsigned long long nvml;
        ur_device_throttle_reasons_flags_t ur;
    } map[] = {
        {NVML_REASON_SW_POWER_CAP, UR_DEVICE_THROTTLE_REASONS_FLAG_POWER_CAP},
        {NVML_REASON_HW_THERMAL_SLOWDOWN | NVML_REASON_SW_THERMAL_SLOWDOWN,
         UR_DEVICE_THROTTLE_REASONS_FLAG_THERMAL_LIMIT},
        {NVML_REASON_HW_POWER_BRAKE_SLOWDOWN, UR_DEVICE_THROTTLE_REASONS_FLAG_PSU_ALERT},
        {NVML_REASON_APPLICATIONS_CLOCKS_SET, UR_DEVICE_THROTTLE_REASONS_FLAG_SW_RANGE},
    };
    ur_device_throttle_reasons_flags_t flags = 0;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; ++i) {
        if (bits & map[i].nvml) {
            flags |= map[i].ur;
            bits &= ~map[i].nvml;
        }
    }
    if (bits != 0)
        flags |= UR_DEVICE_THROTTLE_REASONS_FLAG_OTHER;
    *out = flags;
    return true;
}

bool cuda_nvml_fan_speed(const char *pci_bus_id, int32_t *percent) {
    nvml_device_t dev;
    unsigned speed = 0;
    if (!device(pci_bus_id, &dev) || nvml.fan == NULL || nvml.fan(dev, &speed) != NVML_OK)
        return false;
    *percent = (int32_t)speed;
    return true;
}
