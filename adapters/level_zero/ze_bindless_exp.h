// SPDX-License-Identifier: MIT
// Level Zero's bindless image extension (ZE_experimental_bindless_image 1.0, API 1.9), which
// Debian's libze-dev (API 1.4) does not declare. Names, values and layouts are the
// specification's; newer headers that declare it themselves win. The two entry points have no
// slot in the 1.4 DDI tables: callers get them from zeDriverGetExtensionFunctionAddress.
// Shared by the adapter (bindless.c) and the simulated driver (test/ze_sim/bindless.c).
#ifndef URC_L0_ZE_BINDLESS_EXP_H
#define URC_L0_ZE_BINDLESS_EXP_H

#include <level_zero/ze_api.h>
#include <stddef.h>
#include <stdint.h>

#ifndef ZE_BINDLESS_IMAGE_EXP_NAME
#define ZE_BINDLESS_IMAGE_EXP_NAME "ZE_experimental_bindless_image"

#define ZE_BINDLESS_IMAGE_EXP_VERSION_1_0     ZE_MAKE_VERSION(1, 0)
#define ZE_BINDLESS_IMAGE_EXP_VERSION_CURRENT ZE_MAKE_VERSION(1, 0)

#define ZE_STRUCTURE_TYPE_PITCHED_ALLOC_DEVICE_EXP_PROPERTIES ((ze_structure_type_t)0x0002001D)
#define ZE_STRUCTURE_TYPE_BINDLESS_IMAGE_EXP_DESC             ((ze_structure_type_t)0x0002001E)
#define ZE_STRUCTURE_TYPE_PITCHED_IMAGE_EXP_DESC              ((ze_structure_type_t)0x0002001F)

typedef uint32_t ze_image_bindless_exp_flags_t;
#define ZE_IMAGE_BINDLESS_EXP_FLAG_BINDLESS      ZE_BIT(0)
#define ZE_IMAGE_BINDLESS_EXP_FLAG_SAMPLED_IMAGE ZE_BIT(1)

// Chained to ze_image_desc_t; with SAMPLED_IMAGE a ze_sampler_desc_t follows it.
typedef struct _ze_image_bindless_exp_desc_t {
    ze_structure_type_t stype;
    const void *pNext;
    ze_image_bindless_exp_flags_t flags;
} ze_image_bindless_exp_desc_t;

// Chained to ze_image_desc_t: the image lives in this USM allocation, rows at the driver's pitch.
typedef struct _ze_image_pitched_exp_desc_t {
    ze_structure_type_t stype;
    const void *pNext;
    void *ptr;
} ze_image_pitched_exp_desc_t;

// Chained to ze_device_image_properties_t.
typedef struct _ze_device_pitched_alloc_exp_properties_t {
    ze_structure_type_t stype;
    void *pNext;
    size_t maxImageLinearWidth;
    size_t maxImageLinearHeight;
} ze_device_pitched_alloc_exp_properties_t;

#endif // ZE_BINDLESS_IMAGE_EXP_NAME

// The entry points as zeDriverGetExtensionFunctionAddress hands them out.
typedef ze_result_t(ZE_APICALL *urc_zeMemGetPitchFor2dImage_fn)(
    ze_context_handle_t hContext, ze_device_handle_t hDevice, size_t imageWidth, size_t imageHeight,
    unsigned int elementSizeInBytes, size_t *rowPitch);
typedef ze_result_t(ZE_APICALL *urc_zeImageGetDeviceOffsetExp_fn)(ze_image_handle_t hImage,
                                                                  uint64_t *pDeviceOffset);

#endif // URC_L0_ZE_BINDLESS_EXP_H
