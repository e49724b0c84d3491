// SPDX-License-Identifier: MIT
// common/image/image_bindless: descriptors of image memory and of plain memory, mip levels, the
// sides of a copy, copy boxes (x in bytes, layers in z), limits, info; and the cubemap filter mode
// common/image/image's sampler reads for bindless textures; the checks of external descriptors.
#include <fcntl.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "image/image_bindless.h"
#include "urc_test.h"

static const ur_image_format_t rgba32f = {UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_FLOAT};
static const ur_image_format_t r8 = {UR_IMAGE_CHANNEL_ORDER_R, UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8};

static ur_image_desc_t desc(ur_mem_type_t type, size_t w, size_t h, size_t d, size_t layers,
                            uint32_t levels) {
    ur_image_desc_t x = {
        UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, type, w, h, d, layers, 0, 0, levels, 0};
    return x;
}

START_TEST(describe_puts_layers_in_z) {
    urc_bindless_t b;
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE1D_ARRAY, 7, 0, 0, 3, 0);
    ck_assert_ur_ok(urc_bindless_describe(&b, &rgba32f, &d, false));
    ck_assert_uint_eq(b.extent[0], 7);
    ck_assert_uint_eq(b.extent[1], 1);
    ck_assert_uint_eq(b.extent[2], 3);
    ck_assert_uint_eq(b.levels, 1);
    ck_assert_uint_eq(b.size, 7 * 16 * 3);
    d = desc(UR_MEM_TYPE_IMAGE_CUBEMAP_EXP, 4, 4, 0, 6, 1);
    ck_assert_ur_ok(urc_bindless_describe(&b, &r8, &d, false));
    ck_assert_uint_eq(b.extent[2], 6);
    ck_assert(urc_bindless_is_layered(b.type));
    d = desc(UR_MEM_TYPE_IMAGE3D, 5, 4, 3, 0, 0);
    ck_assert_ur_ok(urc_bindless_describe(&b, &r8, &d, false));
    ck_assert_uint_eq(b.extent[2], 3);
    ck_assert(!urc_bindless_is_layered(b.type));
}
END_TEST

START_TEST(describe_refuses_bad_shapes) {
    urc_bindless_t b;
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 4, 0, 0, 0, 1);
    ck_assert_ur(urc_bindless_describe(&b, &r8, &d, false), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    d = desc(UR_MEM_TYPE_IMAGE2D_ARRAY, 4, 4, 0, 0, 1);
    ck_assert_ur(urc_bindless_describe(&b, &r8, &d, false), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    d = desc(UR_MEM_TYPE_IMAGE_CUBEMAP_EXP, 4, 8, 0, 6, 1);
    ck_assert_ur(urc_bindless_describe(&b, &r8, &d, false),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    d = desc((ur_mem_type_t)0x7777, 4, 4, 0, 0, 1);
    ck_assert_ur(urc_bindless_describe(&b, &r8, &d, false),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    // 8 halves into 4 levels (8, 4, 2, 1); arrays take none.
    d = desc(UR_MEM_TYPE_IMAGE2D, 8, 3, 0, 0, 4);
    ck_assert_ur_ok(urc_bindless_describe(&b, &r8, &d, false));
    d.numMipLevel = 5;
    ck_assert_ur(urc_bindless_describe(&b, &r8, &d, false), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    d = desc(UR_MEM_TYPE_IMAGE2D_ARRAY, 8, 8, 0, 2, 2);
    ck_assert_ur(urc_bindless_describe(&b, &r8, &d, false),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    d = desc(UR_MEM_TYPE_IMAGE3D, SIZE_MAX / 2, 4, 4, 0, 1);
    ck_assert_ur(urc_bindless_describe(&b, &r8, &d, false), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    ur_image_format_t bad = {UR_IMAGE_CHANNEL_ORDER_RGBA, (ur_image_channel_type_t)99};
    d = desc(UR_MEM_TYPE_IMAGE2D, 4, 4, 0, 0, 1);
    ck_assert_ur(urc_bindless_describe(&b, &bad, &d, false),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
}
END_TEST

START_TEST(linear_memory_takes_the_row_pitch) {
    urc_bindless_t b;
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 4, 3, 0, 0, 1);
    d.rowPitch = 128;
    ck_assert_ur_ok(urc_bindless_describe(&b, &rgba32f, &d, true));
    ck_assert_uint_eq(b.row_pitch, 128);
    ck_assert_uint_eq(b.size, 128 * 3);
    // Image memory ignores it; plain memory refuses a pitch below a row or off the elements.
    ck_assert_ur_ok(urc_bindless_describe(&b, &rgba32f, &d, false));
    ck_assert_uint_eq(b.row_pitch, 64);
    d.rowPitch = 48;
    ck_assert_ur(urc_bindless_describe(&b, &rgba32f, &d, true),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    d.rowPitch = 72;
    ck_assert_ur(urc_bindless_describe(&b, &rgba32f, &d, true),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
}
END_TEST

START_TEST(levels_halve_and_stop_at_one) {
    urc_bindless_t b, l;
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE3D, 8, 4, 2, 0, 4);
    ck_assert_ur_ok(urc_bindless_describe(&b, &r8, &d, false));
    ck_assert_ur_ok(urc_bindless_level(&b, 2, &l));
    ck_assert_uint_eq(l.width, 2);
    ck_assert_uint_eq(l.height, 1);
    ck_assert_uint_eq(l.depth, 1);
    ck_assert_uint_eq(l.levels, 1);
    ck_assert_uint_eq(l.size, 2);
    ck_assert_ur(urc_bindless_level(&b, 4, &l), UR_RESULT_ERROR_INVALID_VALUE);
    d = desc(UR_MEM_TYPE_IMAGE1D, 16, 0, 0, 0, 3);
    ck_assert_ur_ok(urc_bindless_describe(&b, &r8, &d, false));
    ck_assert_ur_ok(urc_bindless_level(&b, 2, &l));
    ck_assert_uint_eq(l.width, 4);
    ck_assert_uint_eq(l.height, 0); // a dimension the type lacks stays 0
}
END_TEST

START_TEST(copy_sides_follow_direction_and_types) {
    bool si, di, sh, dh;
    ck_assert_ur_ok(urc_bindless_copy_sides(UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE,
                                            UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE, &r8, &r8,
                                            &si, &di, &sh, &dh));
    ck_assert(!si && di && sh && !dh);
    ck_assert_ur_ok(urc_bindless_copy_sides(UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_DEVICE,
                                            UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_MEM, &r8, &r8,
                                            &si, &di, &sh, &dh));
    ck_assert(si && !di && !sh && !dh);
    ck_assert_ur_ok(urc_bindless_copy_sides(UR_EXP_IMAGE_COPY_FLAG_HOST_TO_HOST,
                                            UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_MEM, &r8, &r8, &si,
                                            &di, &sh, &dh));
    ck_assert(sh && dh);
    // A host side cannot be an image; one direction exactly.
    ck_assert_ur(urc_bindless_copy_sides(UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST,
                                         UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE, &r8, &r8, &si,
                                         &di, &sh, &dh),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_bindless_copy_sides(UR_EXP_IMAGE_COPY_FLAG_HOST_TO_HOST,
                                         UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_IMAGE, &r8, &r8,
                                         &si, &di, &sh, &dh),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_bindless_copy_sides(0, UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_MEM, &r8, &r8, &si,
                                         &di, &sh, &dh),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Every side's format is checked, also an image side's, whose memory brings its own.
    ur_image_format_t bad = {(ur_image_channel_order_t)0x7777, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8};
    ck_assert_ur(urc_bindless_copy_sides(UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE,
                                         UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE, &r8, &bad, &si,
                                         &di, &sh, &dh),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
}
END_TEST

static ur_exp_image_copy_region_t region(uint64_t sx, uint64_t sy, uint64_t sz, uint64_t w,
                                         uint64_t h, uint64_t d) {
    ur_exp_image_copy_region_t r = {
        UR_STRUCTURE_TYPE_EXP_IMAGE_COPY_REGION, NULL, {sx, sy, sz}, {0, 0, 0}, {w, h, d}};
    return r;
}

START_TEST(copy_boxes_stay_inside_both_sides) {
    urc_bindless_t a, b;
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D_ARRAY, 4, 3, 0, 2, 1);
    ck_assert_ur_ok(urc_bindless_describe(&a, &rgba32f, &d, false));
    ck_assert_ur_ok(urc_bindless_describe(&b, &rgba32f, &d, false));
    urc_bindless_box_t box;
    ur_exp_image_copy_region_t r = region(16, 1, 1, 48, 2, 1);
    ck_assert_ur_ok(urc_bindless_check_copy(&a, &b, &r, &box));
    ck_assert_uint_eq(box.src[0], 16);
    ck_assert_uint_eq(box.src[2], 1);
    ck_assert_uint_eq(box.extent[0], 48);
    r = region(16, 1, 1, 64, 2, 1); // one element past the row
    ck_assert_ur(urc_bindless_check_copy(&a, &b, &r, &box), UR_RESULT_ERROR_INVALID_VALUE);
    r = region(0, 0, 2, 16, 1, 1); // a third layer
    ck_assert_ur(urc_bindless_check_copy(&a, &b, &r, &box), UR_RESULT_ERROR_INVALID_VALUE);
    r = region(8, 0, 0, 16, 1, 1); // half an element in
    ck_assert_ur(urc_bindless_check_copy(&a, &b, &r, &box), UR_RESULT_ERROR_INVALID_VALUE);
    r = region(0, 0, 0, 24, 1, 1); // a width of one and a half elements
    ck_assert_ur(urc_bindless_check_copy(&a, &b, &r, &box), UR_RESULT_ERROR_INVALID_VALUE);
    r = region(UINT64_MAX - 15, 0, 0, 32, 1, 1); // wraps
    ck_assert_ur(urc_bindless_check_copy(&a, &b, &r, &box), UR_RESULT_ERROR_INVALID_VALUE);
    // 0 in a dimension is taken as 1; elements must match.
    r = region(0, 0, 0, 16, 0, 0);
    ck_assert_ur_ok(urc_bindless_check_copy(&a, &b, &r, &box));
    ck_assert_uint_eq(box.extent[1], 1);
    ck_assert_uint_eq(box.extent[2], 1);
    ck_assert_ur_ok(urc_bindless_describe(&b, &r8, &d, false));
    ck_assert_ur(urc_bindless_check_copy(&a, &b, &r, &box), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(limits_and_info) {
    urc_bindless_t b;
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D_ARRAY, 64, 32, 0, 4, 1);
    ck_assert_ur_ok(urc_bindless_describe(&b, &rgba32f, &d, false));
    urc_image_limits_t lim = {0, 64, 32, 16, 16, 16, 4};
    ck_assert_ur_ok(urc_bindless_check_limits(&b, &lim));
    lim.max_array_size = 3;
    ck_assert_ur(urc_bindless_check_limits(&b, &lim), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    lim.max_array_size = 4;
    lim.max_2d_height = 31;
    ck_assert_ur(urc_bindless_check_limits(&b, &lim), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    size_t v = 0, got = 0;
    const urc_info_t out = {sizeof v, &v, &got};
    ck_assert_ur_ok(urc_bindless_info(&out, UR_IMAGE_INFO_ARRAY_SIZE, &b));
    ck_assert_uint_eq(v, 4);
    ck_assert_uint_eq(got, sizeof v);
    ck_assert_ur_ok(urc_bindless_info(&out, UR_IMAGE_INFO_DEPTH, &b));
    ck_assert_uint_eq(v, 0);
    ck_assert_ur_ok(urc_bindless_info(&out, UR_IMAGE_INFO_ROW_PITCH, &b));
    ck_assert_uint_eq(v, 64 * 16);
    ur_image_format_t f;
    const urc_info_t fout = {sizeof f, &f, NULL};
    ck_assert_ur_ok(urc_bindless_info(&fout, UR_IMAGE_INFO_FORMAT, &b));
    ck_assert_mem_eq(&f, &rgba32f, sizeof f);
}
END_TEST

START_TEST(sampler_reads_the_cubemap_filter_mode) {
    ur_exp_sampler_cubemap_properties_t cube = {UR_STRUCTURE_TYPE_EXP_SAMPLER_CUBEMAP_PROPERTIES,
                                                NULL, UR_EXP_SAMPLER_CUBEMAP_FILTER_MODE_SEAMLESS};
    ur_sampler_desc_t sd = {UR_STRUCTURE_TYPE_SAMPLER_DESC, &cube, true,
                            UR_SAMPLER_ADDRESSING_MODE_CLAMP, UR_SAMPLER_FILTER_MODE_LINEAR};
    urc_sampler_t s;
    ck_assert_ur_ok(urc_sampler_describe(&s, &sd));
    ck_assert(s.seamless_cubemap);
    cube.cubemapFilterMode = (ur_exp_sampler_cubemap_filter_mode_t)7;
    ck_assert_ur(urc_sampler_describe(&s, &sd), UR_RESULT_ERROR_INVALID_ENUMERATION);
    sd.pNext = NULL;
    ck_assert_ur_ok(urc_sampler_describe(&s, &sd));
    ck_assert(!s.seamless_cubemap);
}
END_TEST

// A descriptor whose size can be read (a memfd) bounds the import; one that tells none (an
// anonymous inode, like a driver's opaque descriptor) leaves only the device's memory as the
// bound; closed descriptors and /dev/null are refused.
START_TEST(external_descriptors_are_checked) {
    const uint64_t device = 1ull << 30;
    int mem = memfd_create("urc-external", MFD_CLOEXEC);
    ck_assert_int_ge(mem, 0);
    ck_assert_int_eq(ftruncate(mem, 8192), 0);
    ck_assert_ur_ok(urc_bindless_check_external_fd(mem, 8192, device));
    ck_assert_ur(urc_bindless_check_external_fd(mem, 8193, device), UR_RESULT_ERROR_INVALID_VALUE);
    int opaque = eventfd(0, EFD_CLOEXEC);
    ck_assert_int_ge(opaque, 0);
    ck_assert_ur_ok(urc_bindless_check_external_fd(opaque, device, device));
    ck_assert_ur(urc_bindless_check_external_fd(opaque, device + 1, device),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_bindless_check_external_fd(opaque, UINT64_MAX, device),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urc_bindless_check_external_fd(opaque, UINT64_MAX, 0)); // device unknown
    ck_assert_ur_ok(urc_bindless_check_external_fd(opaque, 0, device));     // a semaphore
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    ck_assert_ur(urc_bindless_check_external_fd(null, 4096, device), UR_RESULT_ERROR_INVALID_VALUE);
    close(null);
    close(opaque);
    close(mem);
    ck_assert_ur(urc_bindless_check_external_fd(mem, 4096, device), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urc_bindless_check_external_fd(-1, 0, device), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

int main(void) {
    Suite *s = suite_create("image_bindless");
    TCase *tc = tcase_create("urc_bindless_describe");
    tcase_add_test(tc, describe_puts_layers_in_z);
    tcase_add_test(tc, describe_refuses_bad_shapes);
    tcase_add_test(tc, linear_memory_takes_the_row_pitch);
    tcase_add_test(tc, levels_halve_and_stop_at_one);
    tcase_add_test(tc, limits_and_info);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_bindless_check_copy");
    tcase_add_test(tc, copy_sides_follow_direction_and_types);
    tcase_add_test(tc, copy_boxes_stay_inside_both_sides);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_bindless_check_external_fd");
    tcase_add_test(tc, external_descriptors_are_checked);
    suite_add_tcase(s, tc);
    tc = tcase_create("urc_sampler_describe");
    tcase_add_test(tc, sampler_reads_the_cubemap_filter_mode);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
