// SPDX-License-Identifier: MIT
// common/image/image: formats and element sizes, descriptors, limits, regions, host pitches,
// samplers; and the host reference sampler of test/support.
#include <math.h>
#include <stdint.h>

#include "image/image.h"
#include "urc_image_ref.h"
#include "urc_test.h"

static ur_image_format_t fmt(ur_image_channel_order_t o, ur_image_channel_type_t t) {
    ur_image_format_t f = {o, t};
    return f;
}

static ur_image_desc_t desc(ur_mem_type_t type, size_t w, size_t h, size_t d, size_t layers) {
    ur_image_desc_t x = {UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, type, w, h, d, layers, 0, 0, 0, 0};
    return x;
}

START_TEST(element_sizes_follow_order_and_type) {
    ur_image_format_t f = fmt(UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_FLOAT);
    ck_assert_uint_eq(urc_image_element_size(&f), 16);
    f = fmt(UR_IMAGE_CHANNEL_ORDER_RG, UR_IMAGE_CHANNEL_TYPE_HALF_FLOAT);
    ck_assert_uint_eq(urc_image_element_size(&f), 4);
    f = fmt(UR_IMAGE_CHANNEL_ORDER_RGB, UR_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565);
    ck_assert_uint_eq(urc_image_element_size(&f), 2);
    f = fmt(UR_IMAGE_CHANNEL_ORDER_RGBX, UR_IMAGE_CHANNEL_TYPE_INT_101010);
    ck_assert_uint_eq(urc_image_element_size(&f), 4);
    // Pairs that cannot exist.
    f = fmt(UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_UNORM_SHORT_555);
    ck_assert_uint_eq(urc_image_element_size(&f), 0);
    f = fmt(UR_IMAGE_CHANNEL_ORDER_INTENSITY, UR_IMAGE_CHANNEL_TYPE_SIGNED_INT8);
    ck_assert_uint_eq(urc_image_element_size(&f), 0);
    f = fmt(UR_IMAGE_CHANNEL_ORDER_SRGBA, UR_IMAGE_CHANNEL_TYPE_FLOAT);
    ck_assert_uint_eq(urc_image_element_size(&f), 0);
    ck_assert_ur(urc_image_check_format(&f), UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
    f = fmt((ur_image_channel_order_t)77, UR_IMAGE_CHANNEL_TYPE_FLOAT);
    ck_assert_ur(urc_image_check_format(&f), UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    f = fmt(UR_IMAGE_CHANNEL_ORDER_R, (ur_image_channel_type_t)15);
    ck_assert_ur(urc_image_check_format(&f), UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
}
END_TEST

START_TEST(describe_fills_shape_and_pitches) {
    ur_image_format_t f = fmt(UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8);
    urc_image_t img;
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D_ARRAY, 5, 3, 9, 2);
    ck_assert_ur_ok(urc_image_describe(&img, &f, &d, NULL));
    ck_assert_uint_eq(img.element_size, 4);
    ck_assert_uint_eq(img.depth, 0); // ignored for a 2D array
    ck_assert_uint_eq(img.extent[2], 2);
    ck_assert_uint_eq(img.row_pitch, 20);
    ck_assert_uint_eq(img.slice_pitch, 60);
    ck_assert_uint_eq(img.size, 120);
    d = desc(UR_MEM_TYPE_IMAGE1D_ARRAY, 5, 0, 0, 3);
    ck_assert_ur_ok(urc_image_describe(&img, &f, &d, NULL));
    ck_assert_uint_eq(img.extent[1], 3);
    ck_assert_uint_eq(img.slice_pitch, 20); // one row per layer
    // Host pitches.
    char host[1];
    d = desc(UR_MEM_TYPE_IMAGE3D, 5, 3, 2, 0);
    d.rowPitch = 32;
    d.slicePitch = 128;
    ck_assert_ur_ok(urc_image_describe(&img, &f, &d, host));
    ck_assert_uint_eq(img.host_size, 256);
    d.slicePitch = 80; // not a multiple of the row pitch
    ck_assert_ur(urc_image_describe(&img, &f, &d, host),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    d.slicePitch = 64; // below a slice
    ck_assert_ur(urc_image_describe(&img, &f, &d, host),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
}
END_TEST

START_TEST(describe_refuses_empty_and_huge_images) {
    ur_image_format_t f = fmt(UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_FLOAT);
    urc_image_t img;
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 0, 3, 0, 0);
    ck_assert_ur(urc_image_describe(&img, &f, &d, NULL), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    d = desc(UR_MEM_TYPE_IMAGE3D, 4, 4, 0, 0);
    ck_assert_ur(urc_image_describe(&img, &f, &d, NULL), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    d = desc(UR_MEM_TYPE_IMAGE2D, SIZE_MAX / 8, 1, 0, 0);
    ck_assert_ur(urc_image_describe(&img, &f, &d, NULL), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    d = desc(UR_MEM_TYPE_IMAGE3D, 1 << 20, 1 << 20, 1 << 20, 0);
    ck_assert_ur(urc_image_describe(&img, &f, &d, NULL), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    d = desc(UR_MEM_TYPE_IMAGE_CUBEMAP_EXP, 4, 4, 1, 0);
    ck_assert_ur(urc_image_describe(&img, &f, &d, NULL),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
}
END_TEST

START_TEST(limits_name_the_dimension) {
    ur_image_format_t f = fmt(UR_IMAGE_CHANNEL_ORDER_R, UR_IMAGE_CHANNEL_TYPE_FLOAT);
    urc_image_t img;
    urc_image_limits_t lim = {0, 64, 32, 16, 16, 16, 4};
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 64, 32, 0, 0);
    ck_assert_ur_ok(urc_image_describe(&img, &f, &d, NULL));
    ck_assert_ur_ok(urc_image_check_limits(&img, &lim));
    d.height = 33;
    ck_assert_ur_ok(urc_image_describe(&img, &f, &d, NULL));
    ck_assert_ur(urc_image_check_limits(&img, &lim), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    d = desc(UR_MEM_TYPE_IMAGE1D_ARRAY, 64, 0, 0, 5);
    ck_assert_ur_ok(urc_image_describe(&img, &f, &d, NULL));
    ck_assert_ur(urc_image_check_limits(&img, &lim), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    d = desc(UR_MEM_TYPE_IMAGE3D, 16, 16, 17, 0);
    ck_assert_ur_ok(urc_image_describe(&img, &f, &d, NULL));
    ck_assert_ur(urc_image_check_limits(&img, &lim), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
}
END_TEST

START_TEST(regions_stay_inside_without_wrapping) {
    ur_image_format_t f = fmt(UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8);
    urc_image_t img;
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 8, 4, 0, 0);
    ck_assert_ur_ok(urc_image_describe(&img, &f, &d, NULL));
    ur_rect_offset_t o = {6, 2, 0};
    ur_rect_region_t r = {2, 2, 1};
    ck_assert_ur_ok(urc_image_check_region(&img, o, r));
    o.x = 7;
    ck_assert_ur(urc_image_check_region(&img, o, r), UR_RESULT_ERROR_INVALID_SIZE);
    o.x = UINT64_MAX;
    ck_assert_ur(urc_image_check_region(&img, o, r), UR_RESULT_ERROR_INVALID_SIZE);
    o = (ur_rect_offset_t){0, 0, 1};
    ck_assert_ur(urc_image_check_region(&img, o, r), UR_RESULT_ERROR_INVALID_SIZE);
    // Copies: the same format on both sides.
    urc_image_t other;
    ur_image_format_t g = fmt(UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_FLOAT);
    ck_assert_ur_ok(urc_image_describe(&other, &g, &d, NULL));
    o = (ur_rect_offset_t){0, 0, 0};
    ck_assert_ur(urc_image_check_copy(&img, &other, o, o, r), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urc_image_check_copy(&img, &img, o, o, r));
}
END_TEST

START_TEST(host_pitches_default_and_check) {
    ur_image_format_t f = fmt(UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8);
    urc_image_t img;
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE3D, 8, 4, 4, 0);
    ck_assert_ur_ok(urc_image_describe(&img, &f, &d, NULL));
    ur_rect_region_t r = {3, 2, 2};
    size_t row = 0, slice = 0, bytes = 0;
    ck_assert_ur_ok(urc_image_host_pitches(&img, &r, &row, &slice, &bytes));
    ck_assert_uint_eq(row, 12);
    ck_assert_uint_eq(slice, 24);
    ck_assert_uint_eq(bytes, 48);
    row = 16;
    slice = 0;
    ck_assert_ur_ok(urc_image_host_pitches(&img, &r, &row, &slice, &bytes));
    ck_assert_uint_eq(slice, 32);
    ck_assert_uint_eq(bytes, 32 + 16 + 12);
    row = 11;
    slice = 0;
    ck_assert_ur(urc_image_host_pitches(&img, &r, &row, &slice, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    row = 0;
    slice = 20;
    ck_assert_ur(urc_image_host_pitches(&img, &r, &row, &slice, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    row = SIZE_MAX / 2;
    slice = 0;
    ck_assert_ur(urc_image_host_pitches(&img, &r, &row, &slice, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    // A 1D array: layers on the slice pitch, which defaults to a row.
    d = desc(UR_MEM_TYPE_IMAGE1D_ARRAY, 8, 0, 0, 4);
    ck_assert_ur_ok(urc_image_describe(&img, &f, &d, NULL));
    r = (ur_rect_region_t){3, 2, 1};
    row = slice = 0;
    ck_assert_ur_ok(urc_image_host_pitches(&img, &r, &row, &slice, &bytes));
    ck_assert_uint_eq(slice, 12);
    ck_assert_uint_eq(bytes, 24);
}
END_TEST

START_TEST(copy_box_moves_only_the_box) {
    ur_image_format_t f = fmt(UR_IMAGE_CHANNEL_ORDER_R, UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8);
    urc_image_t img;
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 4, 3, 0, 0);
    ck_assert_ur_ok(urc_image_describe(&img, &f, &d, NULL));
    uint8_t src[12], dst[12] = {0};
    for (int i = 0; i < 12; ++i)
        src[i] = (uint8_t)(i + 1);
    const size_t so[3] = {1, 1, 0}, dso[3] = {0, 0, 0}, r[3] = {3, 2, 1};
    urc_image_copy_box(&img, dst, 4, 12, dso, src, 4, 12, so, r);
    const uint8_t want[12] = {6, 7, 8, 0, 10, 11, 12, 0, 0, 0, 0, 0};
    ck_assert_mem_eq(dst, want, 12);
}
END_TEST

START_TEST(sampler_reads_descriptor_and_chain) {
    urc_sampler_t s;
    ur_exp_sampler_addr_modes_t modes = {UR_STRUCTURE_TYPE_EXP_SAMPLER_ADDR_MODES,
                                         NULL,
                                         {UR_SAMPLER_ADDRESSING_MODE_REPEAT,
                                          UR_SAMPLER_ADDRESSING_MODE_CLAMP,
                                          UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT}};
    ur_exp_sampler_mip_properties_t mip = {UR_STRUCTURE_TYPE_EXP_SAMPLER_MIP_PROPERTIES,
                                           &modes,
                                           1.0f,
                                           4.0f,
                                           8.0f,
                                           UR_SAMPLER_FILTER_MODE_LINEAR};
    ur_sampler_desc_t d = {UR_STRUCTURE_TYPE_SAMPLER_DESC, &mip, true,
                           UR_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE,
                           UR_SAMPLER_FILTER_MODE_NEAREST};
    ck_assert_ur_ok(urc_sampler_describe(&s, &d));
    ck_assert_int_eq(s.addressing[0], UR_SAMPLER_ADDRESSING_MODE_REPEAT);
    ck_assert_int_eq(s.addressing[2], UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT);
    ck_assert_int_eq(s.mip_filter, UR_SAMPLER_FILTER_MODE_LINEAR);
    ck_assert(s.max_anisotropy == 8.0f);
    mip.maxAnisotropy = -1.0f;
    ck_assert_ur(urc_sampler_describe(&s, &d), UR_RESULT_ERROR_INVALID_VALUE);
    mip.maxAnisotropy = 1.0f;
    modes.pNext = &modes; // a loop
    ck_assert_ur(urc_sampler_describe(&s, &d), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(reference_sampler_follows_the_rules) {
    // One row of four texels, red channel 0, 1, 2, 3.
    float t[16] = {0};
    for (int i = 0; i < 4; ++i)
        t[i * 4] = (float)i;
    urc_ref_image_t img = {t, 4, 1};
    float out[4];
    const ur_sampler_filter_mode_t N = UR_SAMPLER_FILTER_MODE_NEAREST,
                                   L = UR_SAMPLER_FILTER_MODE_LINEAR;
    ck_assert(
        urc_ref_sample(&img, false, UR_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE, N, 9.0f, 0.5f, out));
    ck_assert(out[0] == 3.0f);
    ck_assert(urc_ref_sample(&img, false, UR_SAMPLER_ADDRESSING_MODE_CLAMP, N, -0.5f, 0.5f, out));
    ck_assert(out[0] == 0.0f && out[3] == 0.0f); // border
    ck_assert(
        urc_ref_sample(&img, false, UR_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE, L, 1.75f, 0.5f, out));
    ck_assert(fabsf(out[0] - 1.25f) < 1e-6f);
    ck_assert(urc_ref_sample(&img, true, UR_SAMPLER_ADDRESSING_MODE_REPEAT, N, 1.3f, 0.5f, out));
    ck_assert(out[0] == 1.0f); // frac 0.3 * 4 = 1.2
    ck_assert(
        urc_ref_sample(&img, true, UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT, N, 1.3f, 0.5f, out));
    ck_assert(out[0] == 2.0f); // |1.3 - 2| = 0.7 -> 2.8
    ck_assert(!urc_ref_sample(&img, false, UR_SAMPLER_ADDRESSING_MODE_REPEAT, N, 1.0f, 0.5f, out));
    ck_assert(!urc_ref_sample(&img, false, UR_SAMPLER_ADDRESSING_MODE_NONE, N, 4.5f, 0.5f, out));
}
END_TEST

int main(void) {
    Suite *s = suite_create("image");
    TCase *tc = tcase_create("urc_image_check_format");
    tcase_add_test(tc, element_sizes_follow_order_and_type);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_image_describe");
    tcase_add_test(tc, describe_fills_shape_and_pitches);
    tcase_add_test(tc, describe_refuses_empty_and_huge_images);
    tcase_add_test(tc, limits_name_the_dimension);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_image_check_region");
    tcase_add_test(tc, regions_stay_inside_without_wrapping);
    tcase_add_test(tc, host_pitches_default_and_check);
    tcase_add_test(tc, copy_box_moves_only_the_box);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_sampler_describe");
    tcase_add_test(tc, sampler_reads_descriptor_and_chain);
    tcase_add_test(tc, reference_sampler_follows_the_rules);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
