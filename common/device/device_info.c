// SPDX-License-Identifier: MIT
// Device queries every adapter answers alike (device_info.h).
#include "device/device_info.h"

#include <string.h>

bool urc_device_info_unimplemented_feature(ur_device_info_t propName) {
    switch (propName) {
    case UR_DEVICE_INFO_BINDLESS_IMAGES_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_IMAGES_SHARED_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_IMAGES_1D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_IMAGES_2D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_MIPMAP_SUPPORT_EXP:
    case UR_DEVICE_INFO_MIPMAP_ANISOTROPY_SUPPORT_EXP:
    case UR_DEVICE_INFO_MIPMAP_LEVEL_REFERENCE_SUPPORT_EXP:
    case UR_DEVICE_INFO_EXTERNAL_MEMORY_IMPORT_SUPPORT_EXP:
    case UR_DEVICE_INFO_EXTERNAL_SEMAPHORE_IMPORT_SUPPORT_EXP:
    case UR_DEVICE_INFO_CUBEMAP_SUPPORT_EXP:
    case UR_DEVICE_INFO_CUBEMAP_SEAMLESS_FILTERING_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_1D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_1D_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_2D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_2D_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_3D_SUPPORT_EXP:
    case UR_DEVICE_INFO_IMAGE_ARRAY_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_UNIQUE_ADDRESSING_PER_DIM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLE_1D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_SAMPLE_2D_USM_SUPPORT_EXP:
    case UR_DEVICE_INFO_BINDLESS_IMAGES_GATHER_SUPPORT_EXP:
    case UR_DEVICE_INFO_LOW_POWER_EVENTS_SUPPORT_EXP:
    case UR_DEVICE_INFO_IPC_PHYSICAL_MEMORY_SUPPORT_EXP:
    case UR_DEVICE_INFO_PER_EVENT_PROFILING_SUPPORT_EXP:
        return true;
    default:
        return false;
    }
}

bool urc_device_info_word_listed(const char *list, const char *name) {
    size_t n = strlen(name);
    if (list == NULL || n == 0)
        return false;
    // Every occurrence is tried: the first may be the prefix of a longer word.
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n) {
        bool starts = p == list || p[-1] == ' ';
        bool ends = p[n] == '\0' || p[n] == ' ';
        if (starts && ends)
            return true;
    }
    return false;
}

bool urc_device_info_fixed(const urc_device_fixed_t *table, size_t count, ur_device_info_t propName,
                           const urc_info_t *out, ur_result_t *result) {
    if (urc_device_info_unimplemented_feature(propName)) {
        *result = urc_info_bool(out, false);
        return true;
    }
    // A few dozen entries, reached only by the queries an adapter's switch leaves: a scan is
    // enough.
    for (size_t i = 0; i < count; ++i) {
        if (table[i].name != propName)
            continue;
        *result = table[i].is_bool ? urc_info_bool(out, table[i].value != 0)
                                   : urc_info_u32(out, table[i].value);
        return true;
    }
    return false;
}
