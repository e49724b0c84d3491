// SPDX-License-Identifier: MIT
// A host reference of image sampling for tests: what a read through a sampler returns from a
// 2D RGBA float image, per the OpenCL C rules for addressing and filtering that UR's samplers
// follow (clamp, clamp-to-edge, repeat, mirrored repeat, none; nearest, linear; normalised or
// unnormalised coordinates). CUDA textures and the simulated drivers are checked against it too.
#ifndef URC_TEST_SUPPORT_URC_IMAGE_REF_H
#define URC_TEST_SUPPORT_URC_IMAGE_REF_H

#include <stdbool.h>
#include <stddef.h>

#include "ur_api.h"

/// A 2D image of `width` x `height` RGBA float texels, row after row.
typedef struct urc_ref_image_t {
    const float *texels;
    size_t width, height;
} urc_ref_image_t;

/// False when the result is undefined by the rules (repeat modes with unnormalised coordinates,
/// NONE with a coordinate that leaves the image); else writes the RGBA value read at (u, v).
bool urc_ref_sample(const urc_ref_image_t *img, bool normalized, ur_sampler_addressing_mode_t mode,
                    ur_sampler_filter_mode_t filter, float u, float v, float out[4]);

#endif // URC_TEST_SUPPORT_URC_IMAGE_REF_H
