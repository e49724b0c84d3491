// SPDX-License-Identifier: MIT
// Host reference of image sampling (urc_image_ref.h).
#include "urc_image_ref.h"

#include <math.h>

// One dimension of a lookup: the two texels (equal for nearest) and the weight of the second.
typedef struct axis_t {
    long i0, i1;
    float a;
} axis_t;

static long clampl(long v, long lo, long hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

// The texel indices along one axis of `n` texels for coordinate `c`; false when undefined.
static bool axis(size_t n_, bool normalized, ur_sampler_addressing_mode_t mode,
                 ur_sampler_filter_mode_t filter, float c, axis_t *ax) {
    long n = (long)n_;
    bool linear = filter == UR_SAMPLER_FILTER_MODE_LINEAR;
    ax->a = 0.0f;
    if (mode == UR_SAMPLER_ADDRESSING_MODE_REPEAT ||
        mode == UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT) {
        if (!normalized)
            return false;
        float u;
        if (mode == UR_SAMPLER_ADDRESSING_MODE_REPEAT) {
            u = (c - floorf(c)) * (float)n;
        } else {
            float s = 2.0f * rintf(0.5f * c);
            u = fabsf(c - s) * (float)n;
        }
        if (!linear) {
            long i = (long)floorf(u);
            ax->i0 = ax->i1 = mode == UR_SAMPLER_ADDRESSING_MODE_REPEAT ? (i > n - 1 ? i - n : i)
                                                                        : (i > n - 1 ? n - 1 : i);
            return true;
        }
        float x = u - 0.5f;
        ax->i0 = (long)floorf(x);
        ax->i1 = ax->i0 + 1;
        ax->a = x - floorf(x);
        if (mode == UR_SAMPLER_ADDRESSING_MODE_REPEAT) {
            if (ax->i0 < 0)
                ax->i0 += n;
            if (ax->i1 > n - 1)
                ax->i1 -= n;
        } else {
            ax->i0 = ax->i0 < 0 ? 0 : ax->i0;
            ax->i1 = ax->i1 > n - 1 ? n - 1 : ax->i1;
        }
        return true;
    }
    float u = normalized ? c * (float)n : c;
    if (!linear) {
        long i = (long)floorf(u);
        if (mode == UR_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE)
            i = clampl(i, 0, n - 1);
        else if (mode == UR_SAMPLER_ADDRESSING_MODE_CLAMP)
            i = clampl(i, -1, n);
        else if (i < 0 || i > n - 1)
            return false;
        ax->i0 = ax->i1 = i;
        return true;
    }
    float x = u - 0.5f;
    ax->i0 = (long)floorf(x);
    ax->i1 = ax->i0 + 1;
    ax->a = x - floorf(x);
    if (mode == UR_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE) {
        ax->i0 = clampl(ax->i0, 0, n - 1);
        ax->i1 = clampl(ax->i1, 0, n - 1);
    } else if (mode == UR_SAMPLER_ADDRESSING_MODE_CLAMP) {
        ax->i0 = clampl(ax->i0, -1, n);
        ax->i1 = clampl(ax->i1, -1, n);
    } else if (ax->i0 < 0 || ax->i1 > n - 1) {
        return false;
    }
    return true;
}

// A texel, or the border colour (transparent black for RGBA) outside the image.
static void texel(const urc_ref_image_t *img, long x, long y, float out[4]) {
    for (int c = 0; c < 4; ++c)
        out[c] = 0.0f;
    if (x < 0 || y < 0 || x >= (long)img->width || y >= (long)img->height)
        return;
    const float *t = img->texels + ((size_t)y * img->width + (size_t)x) * 4;
    for (int c = 0; c < 4; ++c)
        out[c] = t[c];
}

bool urc_ref_sample(const urc_ref_image_t *img, bool normalized, ur_sampler_addressing_mode_t mode,
                    ur_sampler_filter_mode_t filter, float u, float v, float out[4]) {
    axis_t ax, ay;
    if (!axis(img->width, normalized, mode, filter, u, &ax) ||
        !axis(img->height, normalized, mode, filter, v, &ay))
        return false;
    float t00[4], t10[4], t01[4], t11[4];
    texel(img, ax.i0, ay.i0, t00);
    texel(img, ax.i1, ay.i0, t10);
    texel(img, ax.i0, ay.i1, t01);
    texel(img, ax.i1, ay.i1, t11);
    for (int c = 0; c < 4; ++c)
        out[c] = (1 - ax.a) * (1 - ay.a) * t00[c] + ax.a * (1 - ay.a) * t10[c] +
                 (1 - ax.a) * ay.a * t01[c] + ax.a * ay.a * t11[c];
    return true;
}
