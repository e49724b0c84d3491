// SPDX-License-Identifier: MIT
// Images and samplers of the CUDA adapter (CUDA arrays): every format it maps round-trips in
// every shape with edge boxes and wide host pitches, copies between images, refusals, info,
// native handles; kernels get an image as its surface object and a sampler as the 32-bit word
// SYCL's CUDA device code decodes, write an image through its surface and read it back; on a
// GPU, textures over an image's CUDA array read every addressing x filter x coordinate mode as
// the host reference sampler says. Runs on a GPU and on the simulated driver (test/cuda_sim),
// whose textures sample through that same reference (so there the texture case checks the
// plumbing only).
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cuda.h>
#include <cudaTypedefs.h>

#include "cudat.h"
#include "urc_image_ref.h"

static const ur_mem_type_t shapes[] = {UR_MEM_TYPE_IMAGE1D, UR_MEM_TYPE_IMAGE1D_ARRAY,
                                       UR_MEM_TYPE_IMAGE2D, UR_MEM_TYPE_IMAGE2D_ARRAY,
                                       UR_MEM_TYPE_IMAGE3D};

static const ur_image_format_t rgba8 = {UR_IMAGE_CHANNEL_ORDER_RGBA,
                                        UR_IMAGE_CHANNEL_TYPE_UNORM_INT8};
static const ur_image_format_t rgba32f = {UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_FLOAT};

static ur_image_desc_t desc_of(ur_mem_type_t type) {
    ur_image_desc_t d = {UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, type, 5, 0, 0, 0, 0, 0, 0, 0};
    if (type == UR_MEM_TYPE_IMAGE1D_ARRAY)
        d.arraySize = 3;
    if (type == UR_MEM_TYPE_IMAGE2D || type == UR_MEM_TYPE_IMAGE2D_ARRAY ||
        type == UR_MEM_TYPE_IMAGE3D)
        d.height = 3;
    if (type == UR_MEM_TYPE_IMAGE2D_ARRAY)
        d.arraySize = 2;
    if (type == UR_MEM_TYPE_IMAGE3D)
        d.depth = 2;
    return d;
}

static void extent_of(const ur_image_desc_t *d, size_t e[3]) {
    e[0] = d->width;
    e[1] = d->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? d->arraySize : d->height ? d->height : 1;
    e[2] = d->type == UR_MEM_TYPE_IMAGE2D_ARRAY ? d->arraySize : d->depth ? d->depth : 1;
}

static size_t at(ur_mem_type_t t, size_t es, size_t row, size_t slice, size_t x, size_t y,
                 size_t z) {
    return t == UR_MEM_TYPE_IMAGE1D_ARRAY ? x * es + y * slice : x * es + y * row + z * slice;
}

static uint8_t pattern(size_t i) {
    return (uint8_t)(i * 7 + 3);
}

static ur_mem_handle_t image(const ur_image_format_t *f, size_t w, size_t h) {
    ur_image_desc_t d = {
        UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, UR_MEM_TYPE_IMAGE2D, w, h, 0, 0, 0, 0, 0, 0};
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, f, &d, NULL, &m));
    return m;
}

// Whole-image write (non-blocking), then a read of the far-corner box with wide host pitches
// whose slice pitch is not a whole number of rows.
static void round_trip(ur_mem_handle_t m, const ur_image_desc_t *d, size_t es, const char *what) {
    size_t e[3];
    extent_of(d, e);
    size_t row = e[0] * es, slice = d->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? row : row * e[1];
    size_t total = d->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? slice * e[1] : slice * e[2];
    uint8_t src[4096], back[8192];
    for (size_t i = 0; i < total; ++i)
        src[i] = pattern(i);
    ur_rect_offset_t o0 = {0, 0, 0};
    ur_rect_region_t all = {e[0], e[1], e[2]};
    ck_assert_ur_ok(urEnqueueMemImageWrite(T.queue, m, false, o0, all, 0, 0, src, 0, NULL, NULL));
    ur_rect_region_t r = {e[0] > 1 ? e[0] - 2 : 1, e[1] > 1 ? e[1] - 1 : 1, e[2]};
    ur_rect_offset_t o = {e[0] - r.width, e[1] - r.height, e[2] - r.depth};
    size_t rows = d->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? 1 : r.height;
    size_t hrow = r.width * es + 3 * es, hslice = hrow * rows + 5 * es;
    memset(back, 0xEE, sizeof back);
    ck_assert_ur_ok(
        urEnqueueMemImageRead(T.queue, m, true, o, r, hrow, hslice, back, 0, NULL, NULL));
    for (size_t z = 0; z < r.depth; ++z)
        for (size_t y = 0; y < r.height; ++y)
            for (size_t x = 0; x < r.width; ++x)
                for (size_t b = 0; b < es; ++b) {
                    size_t want = at(d->type, es, row, slice, o.x + x, o.y + y, o.z + z) + b;
                    size_t got = at(d->type, es, hrow, hslice, x, y, z) + b;
                    ck_assert_msg(back[got] == pattern(want),
                                  "%s: element (%zu,%zu,%zu) byte %zu: %u, expected %u", what, x, y,
                                  z, b, back[got], pattern(want));
                }
}

START_TEST(every_mapped_format_round_trips_in_every_shape) {
    size_t tried = 0;
    for (unsigned s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        ur_image_desc_t d = desc_of(shapes[s]);
        for (unsigned o = UR_IMAGE_CHANNEL_ORDER_A; o <= UR_IMAGE_CHANNEL_ORDER_SRGBA; ++o)
            for (unsigned t = UR_IMAGE_CHANNEL_TYPE_SNORM_INT8; t <= UR_IMAGE_CHANNEL_TYPE_FLOAT;
                 ++t) {
                ur_image_format_t f = {(ur_image_channel_order_t)o, (ur_image_channel_type_t)t};
                char what[64];
                snprintf(what, sizeof what, "shape %u order %u type %u", (unsigned)shapes[s], o, t);
                ur_mem_handle_t m = NULL;
                ur_result_t r =
                    urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &f, &d, NULL, &m);
                if (r == UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT)
                    continue;
                ck_assert_msg(r == UR_RESULT_SUCCESS, "%s: %s", what, urc_test_result_name(r));
                size_t es = 0;
                ck_assert_ur_ok(
                    urMemImageGetInfo(m, UR_IMAGE_INFO_ELEMENT_SIZE, sizeof es, &es, NULL));
                round_trip(m, &d, es, what);
                ck_assert_ur_ok(urMemRelease(m));
                ++tried;
            }
    }
    // R, RG and RGBA with the 12 unpacked channel types.
    ck_assert_uint_eq(tried, 5 * 3 * 12);
}
END_TEST

START_TEST(copy_host_pointer_and_copies_between_images) {
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE3D);
    d.rowPitch = 5 * 4 + 12;
    d.slicePitch = d.rowPitch * 4; // a spare row per slice
    uint8_t host[32 * 4 * 2], back[5 * 3 * 4];
    for (size_t i = 0; i < sizeof host; ++i)
        host[i] = (uint8_t)i;
    ur_mem_handle_t vol = NULL, flat = image(&rgba8, 5, 3);
    ck_assert_ur_ok(
        urMemImageCreate(T.context, UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER, &rgba8, &d, host, &vol));
    // The second slice of the volume into the 2D image, then read back.
    ur_rect_offset_t o0 = {0, 0, 0}, second = {0, 0, 1};
    ur_rect_region_t plane = {5, 3, 1};
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(urEnqueueMemImageCopy(T.queue, vol, flat, second, o0, plane, 0, NULL, &ev));
    ck_assert_int_eq(cudat_event_command(ev), UR_COMMAND_MEM_IMAGE_COPY);
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(
        urEnqueueMemImageRead(T.queue, flat, true, o0, plane, 0, 0, back, 0, NULL, NULL));
    for (size_t y = 0; y < 3; ++y)
        ck_assert_mem_eq(back + y * 20, host + 128 + y * 32, 20);
    // Past an edge, and different formats.
    ur_rect_offset_t past = {1, 0, 0};
    ck_assert_ur(urEnqueueMemImageCopy(T.queue, vol, flat, second, past, plane, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ur_mem_handle_t f32 = image(&rgba32f, 5, 3);
    ck_assert_ur(urEnqueueMemImageCopy(T.queue, flat, f32, o0, o0, plane, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urMemRelease(f32));
    ck_assert_ur_ok(urMemRelease(vol));
    ck_assert_ur_ok(urMemRelease(flat));
}
END_TEST

START_TEST(device_reports_image_limits) {
    ur_bool_t images = false;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_IMAGE_SUPPORT, sizeof images, &images, NULL));
    ck_assert(images);
    size_t v = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_IMAGE3D_MAX_DEPTH, sizeof v, &v, NULL));
    ck_assert_uint_ge(v, 2048);
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_IMAGE_MAX_ARRAY_SIZE, sizeof v, &v, NULL));
    ck_assert_uint_ge(v, 2048);
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_MAX_IMAGE_LINEAR_PITCH_EXP, sizeof v, &v, NULL));
    ck_assert_uint_gt(v, 0);
    uint32_t align = 0, samplers = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_IMAGE_PITCH_ALIGN_EXP, sizeof align,
                                    &align, NULL));
    ck_assert_uint_gt(align, 0);
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_MAX_SAMPLERS, sizeof samplers, &samplers, NULL));
    ck_assert_uint_eq(samplers, 16);
}
END_TEST

START_TEST(refusals_get_the_spec_results) {
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE2D), bad = d;
    ur_mem_handle_t m = NULL;
    size_t max_w = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_IMAGE2D_MAX_WIDTH, sizeof max_w, &max_w, NULL));
    ck_assert_uint_gt(max_w, 0);
    bad.width = max_w + 1;
    ck_assert_ur(urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &rgba8, &bad, NULL, &m),
                 UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    ur_image_format_t bgra = {UR_IMAGE_CHANNEL_ORDER_BGRA, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8};
    ck_assert_ur(urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &bgra, &d, NULL, &m),
                 UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
    ur_image_format_t packed = {UR_IMAGE_CHANNEL_ORDER_RGB, UR_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565};
    ck_assert_ur(urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &packed, &d, NULL, &m),
                 UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
    m = image(&rgba8, 4, 4);
    uint8_t host[256];
    ur_rect_region_t r = {2, 2, 1};
    ur_rect_offset_t past = {3, 0, 0}, o0 = {0, 0, 0};
    ck_assert_ur(urEnqueueMemImageRead(T.queue, m, true, past, r, 0, 0, host, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueMemImageRead(T.queue, m, true, o0, r, 7, 0, host, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueMemBufferRead(T.queue, m, true, 0, 4, host, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    size_t v = 0;
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_HEIGHT, sizeof v, &v, NULL));
    ck_assert_uint_eq(v, 4);
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urMemGetNativeHandle(m, T.device, &native)); // the CUarray
    ck_assert(native != 0);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

// A native handle must be a CUarray: a buffer's CUdeviceptr, or USM, is refused before the
// driver's surface call (which crashed inside libcuda on an H200 given a CUdeviceptr).
START_TEST(native_handle_must_be_an_array) {
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE2D);
    ur_mem_handle_t img = image(&rgba8, 4, 4);
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urMemGetNativeHandle(img, T.device, &native));
    ur_mem_handle_t wrapped = NULL;
    ck_assert_ur_ok(
        urMemImageCreateWithNativeHandle(native, T.context, &rgba8, &d, NULL, &wrapped));
    ck_assert_ur_ok(urMemRelease(wrapped));
    ur_mem_handle_t buf = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 4096, NULL, &buf));
    ck_assert_ur_ok(urMemGetNativeHandle(buf, T.device, &native)); // a CUdeviceptr
    ck_assert_ur(urMemImageCreateWithNativeHandle(native, T.context, &rgba8, &d, NULL, &wrapped),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    void *usm = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 4096, &usm));
    ck_assert_ur(urMemImageCreateWithNativeHandle((ur_native_handle_t)(uintptr_t)usm, T.context,
                                                  &rgba8, &d, NULL, &wrapped),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urUSMFree(T.context, usm));
    ck_assert_ur_ok(urMemRelease(buf));
    ck_assert_ur_ok(urMemRelease(img));
}
END_TEST

// ---- kernels ----------------------------------------------------------------------------------

static ur_exp_kernel_arg_properties_t mem_arg(uint32_t index, ur_mem_handle_t m) {
    ur_exp_kernel_arg_properties_t a = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                        NULL,
                                        UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ,
                                        index,
                                        sizeof m,
                                        {.memObjTuple = {m, UR_MEM_FLAG_READ_WRITE}}};
    return a;
}

START_TEST(sampler_words_and_surfaces_reach_kernels) {
    ur_program_handle_t p = cudat_built_program("images.ptx", NULL);
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "image_args", &k));
    ur_mem_handle_t img = image(&rgba32f, 2, 2);
    unsigned long long *out = NULL;
    ck_assert_ur_ok(urUSMSharedAlloc(T.context, T.device, NULL, NULL, 16, (void **)&out));
    for (int n = 0; n < 2; ++n)
        for (int a = 0; a <= UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT; ++a)
            for (int f = 0; f <= UR_SAMPLER_FILTER_MODE_LINEAR; ++f) {
                ur_sampler_desc_t d = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, n, a, f};
                ur_sampler_handle_t s = NULL;
                ck_assert_ur_ok(urSamplerCreate(T.context, &d, &s));
                ur_exp_kernel_arg_properties_t args[3] = {mem_arg(0, img), mem_arg(1, NULL),
                                                          cudat_arg_pointer(2, out)};
                args[1].type = UR_EXP_KERNEL_ARG_TYPE_SAMPLER;
                args[1].size = sizeof(uint32_t);
                args[1].value.sampler = s;
                ck_assert_ur_ok(cudat_launch(T.queue, k, 1, NULL, 3, args, 0, NULL, NULL));
                ck_assert_ur_ok(urQueueFinish(T.queue));
                // UR's encoding: bit 0 normalised, bit 1 linear, addressing from bit 2 per
                // dimension (the same mode three times here).
                uint32_t want = (uint32_t)n | (uint32_t)f << 1 | (uint32_t)a << 2 |
                                (uint32_t)a << 5 | (uint32_t)a << 8;
                ck_assert_uint_eq(out[1], want);
                ck_assert_uint_ne(out[0], 0); // a surface object, not the array or a pointer
                ck_assert_ur_ok(urSamplerRelease(s));
            }
    ck_assert_ur_ok(urUSMFree(T.context, out));
    ck_assert_ur_ok(urMemRelease(img));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(kernels_write_and_read_through_surfaces) {
    ur_program_handle_t p = cudat_built_program("images.ptx", NULL);
    ur_kernel_handle_t fill = NULL, read = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "surface_fill", &fill));
    ck_assert_ur_ok(urKernelCreate(p, "surface_read", &read));
    enum { W = 6, H = 4 };
    ur_mem_handle_t img = image(&rgba32f, W, H);
    float zero[W * H * 4] = {0};
    ur_rect_offset_t o0 = {0, 0, 0};
    ur_rect_region_t all = {W, H, 1};
    ck_assert_ur_ok(urEnqueueMemImageWrite(T.queue, img, true, o0, all, 0, 0, zero, 0, NULL, NULL));
    int w = W, h = H;
    float value[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    ur_exp_kernel_arg_properties_t args[4] = {mem_arg(0, img), cudat_arg_value(1, &w, sizeof w),
                                              cudat_arg_value(2, &h, sizeof h),
                                              cudat_arg_value(3, value, sizeof value)};
    size_t global[2] = {W, H}, local[2] = {W, H};
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, fill, 2, NULL, global, local, 4, args,
                                                     NULL, 0, NULL, NULL));
    float back[W * H * 4];
    ck_assert_ur_ok(urEnqueueMemImageRead(T.queue, img, true, o0, all, 0, 0, back, 0, NULL, NULL));
    for (int i = 0; i < W * H; ++i)
        ck_assert_mem_eq(back + i * 4, value, sizeof value);
    // Written by the host, read by a kernel.
    float texels[W * H * 4];
    for (int i = 0; i < W * H * 4; ++i)
        texels[i] = (float)i;
    ck_assert_ur_ok(
        urEnqueueMemImageWrite(T.queue, img, true, o0, all, 0, 0, texels, 0, NULL, NULL));
    float *out = NULL;
    ck_assert_ur_ok(
        urUSMSharedAlloc(T.context, T.device, NULL, NULL, sizeof texels, (void **)&out));
    args[3] = cudat_arg_pointer(3, out);
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, read, 2, NULL, global, local, 4, args,
                                                     NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_mem_eq(out, texels, sizeof texels);
    ck_assert_ur_ok(urUSMFree(T.context, out));
    ck_assert_ur_ok(urMemRelease(img));
    ck_assert_ur_ok(urKernelRelease(fill));
    ck_assert_ur_ok(urKernelRelease(read));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// The texture a UR sampler's settings describe, over the image's CUDA array.
static CUaddress_mode tex_address(int mode) {
    switch (mode) {
    case UR_SAMPLER_ADDRESSING_MODE_CLAMP:
        return CU_TR_ADDRESS_MODE_BORDER; // the border colour is transparent black
    case UR_SAMPLER_ADDRESSING_MODE_REPEAT:
        return CU_TR_ADDRESS_MODE_WRAP;
    case UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT:
        return CU_TR_ADDRESS_MODE_MIRROR;
    default: // CLAMP_TO_EDGE, and NONE (whose reads outside are undefined)
        return CU_TR_ADDRESS_MODE_CLAMP;
    }
}

START_TEST(textures_read_every_mode_as_the_reference) {
    // The test makes its textures itself, from the libcuda.so.1 the adapter opened; the
    // simulated driver has none.
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    PFN_cuTexObjectCreate_v5000 tex_create =
        lib ? (PFN_cuTexObjectCreate_v5000)dlsym(lib, "cuTexObjectCreate") : NULL;
    PFN_cuTexObjectDestroy_v5000 tex_destroy =
        lib ? (PFN_cuTexObjectDestroy_v5000)dlsym(lib, "cuTexObjectDestroy") : NULL;
    if (tex_create == NULL || tex_destroy == NULL) {
        fprintf(stderr, "no cuTexObjectCreate (simulated driver): texture case not run\n");
        return;
    }
    enum { W = 4, H = 3, NU = 8 };
    float texels[W * H * 4];
    for (int i = 0; i < W * H * 4; ++i)
        texels[i] = (float)((i * 37) % 97) / 96.0f;
    ur_mem_handle_t img = image(&rgba32f, W, H);
    ur_rect_offset_t o0 = {0, 0, 0};
    ur_rect_region_t all = {W, H, 1};
    ck_assert_ur_ok(
        urEnqueueMemImageWrite(T.queue, img, true, o0, all, 0, 0, texels, 0, NULL, NULL));
    ur_native_handle_t array = 0;
    ck_assert_ur_ok(urMemGetNativeHandle(img, T.device, &array));
    ur_program_handle_t p = cudat_built_program("images.ptx", NULL);
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "texture_sample", &k));
    float *coords = NULL, *out = NULL;
    ck_assert_ur_ok(urUSMSharedAlloc(T.context, T.device, NULL, NULL, NU * NU * 2 * sizeof(float),
                                     (void **)&coords));
    ck_assert_ur_ok(urUSMSharedAlloc(T.context, T.device, NULL, NULL, NU * NU * 4 * sizeof(float),
                                     (void **)&out));
    const float norm_c[NU] = {-0.73f, -0.1f, 0.05f, 0.3f, 0.55f, 0.93f, 1.2f, 1.77f};
    const float pix_c[NU] = {-1.7f, -0.2f, 0.3f, 1.6f, 2.2f, 3.4f, 4.6f, 5.3f};
    urc_ref_image_t ref = {texels, W, H};
    int checked = 0;
    for (int n = 0; n < 2; ++n)
        for (int a = 0; a <= UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT; ++a)
            for (int f = 0; f <= UR_SAMPLER_FILTER_MODE_LINEAR; ++f) {
                // Repeat modes need normalised coordinates (undefined reads otherwise, and
                // CUDA's wrap and mirror take only normalised ones).
                if (!n && (a == UR_SAMPLER_ADDRESSING_MODE_REPEAT ||
                           a == UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT))
                    continue;
                const float *c = n ? norm_c : pix_c;
                for (int j = 0; j < NU; ++j)
                    for (int i = 0; i < NU; ++i) {
                        coords[(j * NU + i) * 2] = c[i];
                        coords[(j * NU + i) * 2 + 1] = c[j] * (n ? 1.0f : (float)H / W);
                    }
                CUDA_RESOURCE_DESC rd;
                CUDA_TEXTURE_DESC td;
                memset(&rd, 0, sizeof rd);
                memset(&td, 0, sizeof td);
                rd.resType = CU_RESOURCE_TYPE_ARRAY;
                rd.res.array.hArray = (CUarray)array;
                td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = tex_address(a);
                td.filterMode = f ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
                td.flags = n ? CU_TRSF_NORMALIZED_COORDINATES : 0;
                CUtexObject tex = 0;
                ck_assert_int_eq(tex_create(&tex, &rd, &td, NULL), CUDA_SUCCESS);
                int count = NU * NU;
                ur_exp_kernel_arg_properties_t args[4] = {
                    cudat_arg_value(0, &tex, sizeof tex), cudat_arg_pointer(1, coords),
                    cudat_arg_pointer(2, out), cudat_arg_value(3, &count, sizeof count)};
                ck_assert_ur_ok(cudat_launch(T.queue, k, NU * NU, NULL, 4, args, 0, NULL, NULL));
                ck_assert_ur_ok(urQueueFinish(T.queue));
                ck_assert_int_eq(tex_destroy(tex), CUDA_SUCCESS);
                for (int i = 0; i < NU * NU; ++i) {
                    float want[4];
                    if (!urc_ref_sample(&ref, n, a, f, coords[i * 2], coords[i * 2 + 1], want))
                        continue; // undefined by the rules
                    for (int ch = 0; ch < 4; ++ch)
                        ck_assert_msg(fabsf(out[i * 4 + ch] - want[ch]) <= 1.0f / 128,
                                      "normalized %d mode %d filter %d at (%g, %g) channel %d: "
                                      "%g, expected %g",
                                      n, a, f, coords[i * 2], coords[i * 2 + 1], ch,
                                      out[i * 4 + ch], want[ch]);
                    ++checked;
                }
            }
    // 16 mode combinations x 64 samples; those the rules leave undefined (addressing NONE out
    // of range) are skipped. The H100 compared 810; fewer means the reference skipped too much.
    ck_assert_int_ge(checked, 768);
    ck_assert_ur_ok(urUSMFree(T.context, coords));
    ck_assert_ur_ok(urUSMFree(T.context, out));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
    ck_assert_ur_ok(urMemRelease(img));
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda image");
    TCase *tc = cudat_tcase("urEnqueueMemImageReadWrite");
    tcase_add_test(tc, every_mapped_format_round_trips_in_every_shape);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urEnqueueMemImageCopy");
    tcase_add_test(tc, copy_host_pointer_and_copies_between_images);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urMemImageCreate");
    tcase_add_test(tc, device_reports_image_limits);
    tcase_add_test(tc, refusals_get_the_spec_results);
    tcase_add_test(tc, native_handle_must_be_an_array);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urEnqueueKernelLaunchWithArgsExp");
    tcase_add_test(tc, sampler_words_and_surfaces_reach_kernels);
    tcase_add_test(tc, kernels_write_and_read_through_surfaces);
    tcase_add_test(tc, textures_read_every_mode_as_the_reference);
    suite_add_tcase(s, tc);
    return cudat_main(s, true);
}
