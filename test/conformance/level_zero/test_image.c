// SPDX-License-Identifier: MIT
// Images and samplers of the Level Zero adapter over the simulated driver (which keeps images
// as row-major host storage): every format the adapter maps round-trips in every shape with
// edge boxes and wide host pitches, copies between images, refusals, info, native handles,
// samplers, and image and sampler kernel arguments as the driver received them.
#include <level_zero/ze_api.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "l0t.h"

static const ur_mem_type_t shapes[] = {UR_MEM_TYPE_IMAGE1D, UR_MEM_TYPE_IMAGE1D_ARRAY,
                                       UR_MEM_TYPE_IMAGE2D, UR_MEM_TYPE_IMAGE2D_ARRAY,
                                       UR_MEM_TYPE_IMAGE3D};

static const ur_image_format_t rgba8 = {UR_IMAGE_CHANNEL_ORDER_RGBA,
                                        UR_IMAGE_CHANNEL_TYPE_UNORM_INT8};

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

static ur_mem_handle_t image_2d(size_t w, size_t h) {
    ur_image_desc_t d = {
        UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, UR_MEM_TYPE_IMAGE2D, w, h, 0, 0, 0, 0, 0, 0};
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &rgba8, &d, NULL, &m));
    return m;
}

// A tight write of the whole image (non-blocking, then a blocking read waits for it on the
// in-order queue), and a read of the far-corner box into host memory with wide pitches.
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

START_TEST(device_reports_images) {
    ur_bool_t images = false;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_IMAGE_SUPPORT, sizeof images, &images, NULL));
    ck_assert(images);
    size_t w = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_IMAGE2D_MAX_WIDTH, sizeof w, &w, NULL));
    ck_assert_uint_eq(w, 16384);
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_IMAGE3D_MAX_DEPTH, sizeof w, &w, NULL));
    ck_assert_uint_eq(w, 2048);
    uint32_t samplers = 0;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_MAX_SAMPLERS, sizeof samplers, &samplers, NULL));
    ck_assert_uint_eq(samplers, 16);
}
END_TEST

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
    // Level Zero's plain layouts: orders R, Rx, A, RG, RGx, RA, RGBA, BGRA, ARGB, ABGR with the
    // 12 unpacked types, and RGB and RGBx with 5-6-5 and 10-10-10.
    ck_assert_uint_eq(tried, 5 * (10 * 12 + 2 * 2));
}
END_TEST

START_TEST(copy_host_pointer_is_copied_in_with_its_pitch) {
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE2D);
    d.rowPitch = 5 * 4 + 12;
    uint8_t host[32 * 3], back[5 * 3 * 4];
    for (size_t i = 0; i < sizeof host; ++i)
        host[i] = (uint8_t)i;
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(
        urMemImageCreate(T.context, UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER, &rgba8, &d, host, &m));
    ur_rect_offset_t o = {0, 0, 0};
    ur_rect_region_t r = {5, 3, 1};
    ck_assert_ur_ok(urEnqueueMemImageRead(T.queue, m, true, o, r, 0, 0, back, 0, NULL, NULL));
    for (size_t y = 0; y < 3; ++y)
        ck_assert_mem_eq(back + y * 20, host + y * 32, 20);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(refusals_get_the_spec_results) {
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE2D), bad;
    ur_mem_handle_t m = NULL;
    bad = d;
    bad.width = 16385; // past the device's limit
    ck_assert_ur(urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &rgba8, &bad, NULL, &m),
                 UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    bad = d;
    bad.height = 0;
    ck_assert_ur(urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &rgba8, &bad, NULL, &m),
                 UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    bad = d;
    bad.numSamples = 1;
    ck_assert_ur(urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &rgba8, &bad, NULL, &m),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    ur_image_format_t srgb = {UR_IMAGE_CHANNEL_ORDER_SRGBA, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8};
    ck_assert_ur(urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &srgb, &d, NULL, &m),
                 UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
    ck_assert_ur(urMemImageCreate(T.context, UR_MEM_FLAG_USE_HOST_POINTER, &rgba8, &d, NULL, &m),
                 UR_RESULT_ERROR_INVALID_HOST_PTR);
    // Commands: outside the image, a wrapping origin, a small host pitch, a buffer as an image.
    m = image_2d(4, 4);
    uint8_t host[256];
    ur_rect_region_t r = {2, 2, 1};
    ur_rect_offset_t past = {3, 0, 0}, wraps = {0, SIZE_MAX, 0}, o0 = {0, 0, 0};
    ck_assert_ur(urEnqueueMemImageRead(T.queue, m, true, past, r, 0, 0, host, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueMemImageWrite(T.queue, m, true, wraps, r, 0, 0, host, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueMemImageRead(T.queue, m, true, o0, r, 4, 0, host, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ur_mem_handle_t buf = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 64, NULL, &buf));
    ck_assert_ur(urEnqueueMemImageRead(T.queue, buf, true, o0, r, 0, 0, host, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urEnqueueMemBufferRead(T.queue, m, true, 0, 4, host, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urMemRelease(buf));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(copy_between_images_touching_edges) {
    ur_mem_handle_t src = image_2d(8, 6), dst = image_2d(4, 4);
    uint8_t pat[8 * 6 * 4], zero[4 * 4 * 4] = {0}, back[4 * 4 * 4];
    for (size_t i = 0; i < sizeof pat; ++i)
        pat[i] = pattern(i);
    ur_rect_offset_t o0 = {0, 0, 0};
    ur_rect_region_t src_all = {8, 6, 1}, dst_all = {4, 4, 1};
    ck_assert_ur_ok(
        urEnqueueMemImageWrite(T.queue, src, false, o0, src_all, 0, 0, pat, 0, NULL, NULL));
    ck_assert_ur_ok(
        urEnqueueMemImageWrite(T.queue, dst, false, o0, dst_all, 0, 0, zero, 0, NULL, NULL));
    ur_rect_offset_t so = {5, 3, 0}, dso = {1, 1, 0};
    ur_rect_region_t r = {3, 3, 1};
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(urEnqueueMemImageCopy(T.queue, src, dst, so, dso, r, 0, NULL, &ev));
    ck_assert_int_eq(l0t_command(ev), UR_COMMAND_MEM_IMAGE_COPY);
    ck_assert_ur_ok(urEventWait(1, &ev));
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(
        urEnqueueMemImageRead(T.queue, dst, true, o0, dst_all, 0, 0, back, 0, NULL, NULL));
    for (size_t y = 0; y < 4; ++y)
        for (size_t x = 0; x < 4; ++x)
            for (size_t c = 0; c < 4; ++c) {
                uint8_t want = (x >= 1 && y >= 1) ? pattern(((y + 2) * 8 + x + 4) * 4 + c) : 0;
                ck_assert_uint_eq(back[(y * 4 + x) * 4 + c], want);
            }
    ur_rect_offset_t past = {2, 1, 0};
    ck_assert_ur(urEnqueueMemImageCopy(T.queue, src, dst, so, past, r, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urMemRelease(src));
    ck_assert_ur_ok(urMemRelease(dst));
}
END_TEST

START_TEST(info_and_native_handle) {
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE3D);
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &rgba8, &d, NULL, &m));
    size_t v = 0;
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_DEPTH, sizeof v, &v, NULL));
    ck_assert_uint_eq(v, 2);
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_ROW_PITCH, sizeof v, &v, NULL));
    ck_assert_uint_eq(v, 20);
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_SLICE_PITCH, sizeof v, &v, NULL));
    ck_assert_uint_eq(v, 60);
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_ARRAY_SIZE, sizeof v, &v, NULL));
    ck_assert_uint_eq(v, 0);
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urMemGetNativeHandle(m, T.device, &native));
    ck_assert(native != 0);
    ur_mem_handle_t wrapped = NULL;
    ck_assert_ur_ok(
        urMemImageCreateWithNativeHandle(native, T.context, &rgba8, &d, NULL, &wrapped));
    uint8_t px[4] = {9, 8, 7, 6}, back[4] = {0};
    ur_rect_offset_t o = {4, 2, 1};
    ur_rect_region_t r = {1, 1, 1};
    ck_assert_ur_ok(urEnqueueMemImageWrite(T.queue, m, true, o, r, 0, 0, px, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemImageRead(T.queue, wrapped, true, o, r, 0, 0, back, 0, NULL, NULL));
    ck_assert_mem_eq(back, px, 4);
    ck_assert_ur_ok(urMemRelease(wrapped)); // not owned: the image lives on
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(samplers_answer_and_reach_kernels) {
    for (int n = 0; n < 2; ++n)
        for (int a = 0; a <= UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT; ++a)
            for (int f = 0; f <= UR_SAMPLER_FILTER_MODE_LINEAR; ++f) {
                ur_sampler_desc_t d = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, n, a, f};
                ur_sampler_handle_t s = NULL;
                ck_assert_ur_ok(urSamplerCreate(T.context, &d, &s));
                ur_sampler_addressing_mode_t mode;
                ck_assert_ur_ok(
                    urSamplerGetInfo(s, UR_SAMPLER_INFO_ADDRESSING_MODE, sizeof mode, &mode, NULL));
                ck_assert_int_eq(mode, a);
                ck_assert_ur_ok(urSamplerRelease(s));
            }
    ur_sampler_desc_t d = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, true,
                           UR_SAMPLER_ADDRESSING_MODE_REPEAT, UR_SAMPLER_FILTER_MODE_LINEAR};
    ur_sampler_handle_t s = NULL;
    ck_assert_ur_ok(urSamplerCreate(T.context, &d, &s));
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urSamplerGetNativeHandle(s, &native));
    ck_assert(native != 0);
    // The driver receives the Level Zero sampler and image handles as the arguments' values.
    ur_program_handle_t p = l0t_built("add_one.spv");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "add_one", &k));
    ur_exp_kernel_arg_properties_t arg = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                          NULL,
                                          UR_EXP_KERNEL_ARG_TYPE_SAMPLER,
                                          0,
                                          sizeof s,
                                          {.sampler = s}};
    size_t one = 1;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &one, &one, 1, &arg, NULL,
                                                     0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    uint64_t got = 0;
    size_t size = sizeof got;
    ck_assert_int_eq(T.sim.GetLaunchArg(0, 0, &size, &got, NULL), ZE_RESULT_SUCCESS);
    ck_assert_uint_eq(got, native);
    ur_mem_handle_t img = image_2d(2, 2);
    ur_native_handle_t img_native = 0;
    ck_assert_ur_ok(urMemGetNativeHandle(img, T.device, &img_native));
    arg.type = UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ;
    arg.value.memObjTuple.hMem = img;
    arg.value.memObjTuple.flags = UR_MEM_FLAG_READ_WRITE;
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &one, &one, 1, &arg, NULL,
                                                     0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    size = sizeof got;
    ck_assert_int_eq(T.sim.GetLaunchArg(0, 0, &size, &got, NULL), ZE_RESULT_SUCCESS);
    ck_assert_uint_eq(got, img_native);
    // Another kind of handle in the sampler slot.
    arg.type = UR_EXP_KERNEL_ARG_TYPE_SAMPLER;
    arg.value.sampler = (ur_sampler_handle_t)img;
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &one, &one, 1, &arg, NULL, 0,
                                                  NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SAMPLER);
    ck_assert_ur_ok(urMemRelease(img));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
    ck_assert_ur_ok(urSamplerRelease(s));
}
END_TEST

int main(void) {
    Suite *s = suite_create("level zero image");
    TCase *tc = l0t_tcase("urDeviceGetInfo");
    tcase_add_test(tc, device_reports_images);
    suite_add_tcase(s, tc);
    tc = l0t_tcase("urMemImageCreate");
    tcase_add_test(tc, copy_host_pointer_is_copied_in_with_its_pitch);
    tcase_add_test(tc, refusals_get_the_spec_results);
    suite_add_tcase(s, tc);
    tc = l0t_tcase("urEnqueueMemImageReadWrite");
    tcase_add_test(tc, every_mapped_format_round_trips_in_every_shape);
    suite_add_tcase(s, tc);
    tc = l0t_tcase("urEnqueueMemImageCopy");
    tcase_add_test(tc, copy_between_images_touching_edges);
    suite_add_tcase(s, tc);
    tc = l0t_tcase("urMemImageGetInfo");
    tcase_add_test(tc, info_and_native_handle);
    suite_add_tcase(s, tc);
    tc = l0t_tcase("urSamplerCreate");
    tcase_add_test(tc, samplers_answer_and_reach_kernels);
    suite_add_tcase(s, tc);
    return l0t_main(s);
}
