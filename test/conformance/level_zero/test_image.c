// SPDX-License-Identifier: MIT
// Images and samplers of the Level Zero adapter over the simulated driver (which keeps images
// as row-major host storage). The cases every adapter shares (creation and its refusals, round
// trips of every format in every shape, edge boxes, copies, info, native handles) are in
// ../common/image_cases.c; here: the device's answers, the formats Level Zero maps and the
// pitches it keeps, samplers, and image and sampler kernel arguments as the driver received
// them.
#include <level_zero/ze_api.h>
#include <stdint.h>

#include "../common/image_cases.h"
#include "l0t.h"

// Level Zero's plain layouts: orders R, Rx, A, RG, RGx, RA, RGBA, BGRA, ARGB, ABGR with the 12
// unpacked types, and RGB and RGBx with 5-6-5 and 10-10-10, in each of the 5 shapes.
static const image_cases_formats_t formats = {NULL, 5 * (10 * 12 + 2 * 2), false};

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

START_TEST(srgb_is_unmapped_and_pitches_are_tight) {
    ur_image_desc_t d = image_cases_desc_of(UR_MEM_TYPE_IMAGE3D);
    ur_image_format_t srgb = {UR_IMAGE_CHANNEL_ORDER_SRGBA, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8};
    ur_mem_handle_t m = NULL;
    ck_assert_ur(urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &srgb, &d, NULL, &m),
                 UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
    ck_assert_ur_ok(
        urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &image_cases_rgba8, &d, NULL, &m));
    size_t v = 0;
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_ROW_PITCH, sizeof v, &v, NULL));
    ck_assert_uint_eq(v, 20);
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_SLICE_PITCH, sizeof v, &v, NULL));
    ck_assert_uint_eq(v, 60);
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
    ur_mem_handle_t img = image_cases_2d(&image_cases_rgba8, 2, 2);
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
    tc = image_cases_add_all(s, l0t_tcase, &formats);
    tcase_add_test(tc, srgb_is_unmapped_and_pitches_are_tight);
    tc = l0t_tcase("urSamplerCreate");
    tcase_add_test(tc, samplers_answer_and_reach_kernels);
    suite_add_tcase(s, tc);
    return l0t_main(s);
}
