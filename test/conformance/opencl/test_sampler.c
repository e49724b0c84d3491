// SPDX-License-Identifier: MIT
// Samplers of the OpenCL adapter, through the loader: creation, info, references, native
// handles, and every addressing x filter x coordinate mode read by a kernel and checked against
// the host reference (test/support/urc_image_ref.c).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "oclt.h"
#include "urc_image_ref.h"

static ur_sampler_handle_t sampler(bool normalized, ur_sampler_addressing_mode_t mode,
                                   ur_sampler_filter_mode_t filter) {
    ur_sampler_desc_t d = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, normalized, mode, filter};
    ur_sampler_handle_t s = NULL;
    ck_assert_ur_ok(urSamplerCreate(T.context, &d, &s));
    return s;
}

START_TEST(every_mode_is_created_and_answered) {
    for (int n = 0; n < 2; ++n)
        for (int a = UR_SAMPLER_ADDRESSING_MODE_NONE;
             a <= UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT; ++a)
            for (int f = UR_SAMPLER_FILTER_MODE_NEAREST; f <= UR_SAMPLER_FILTER_MODE_LINEAR; ++f) {
                ur_sampler_handle_t s = sampler(n, a, f);
                ur_bool_t norm = 2;
                ur_sampler_addressing_mode_t mode;
                ur_sampler_filter_mode_t filter;
                ur_context_handle_t ctx = NULL;
                ck_assert_ur_ok(urSamplerGetInfo(s, UR_SAMPLER_INFO_NORMALIZED_COORDS, sizeof norm,
                                                 &norm, NULL));
                ck_assert_ur_ok(
                    urSamplerGetInfo(s, UR_SAMPLER_INFO_ADDRESSING_MODE, sizeof mode, &mode, NULL));
                ck_assert_ur_ok(
                    urSamplerGetInfo(s, UR_SAMPLER_INFO_FILTER_MODE, sizeof filter, &filter, NULL));
                ck_assert_ur_ok(
                    urSamplerGetInfo(s, UR_SAMPLER_INFO_CONTEXT, sizeof ctx, &ctx, NULL));
                ck_assert_int_eq(norm, n);
                ck_assert_int_eq(mode, a);
                ck_assert_int_eq(filter, f);
                ck_assert_ptr_eq(ctx, T.context);
                ck_assert_ur_ok(urSamplerRelease(s));
            }
}
END_TEST

START_TEST(bad_descriptors_are_refused) {
    ur_sampler_desc_t d = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, true,
                           UR_SAMPLER_ADDRESSING_MODE_CLAMP, UR_SAMPLER_FILTER_MODE_NEAREST};
    ur_sampler_handle_t s = NULL;
    ur_sampler_desc_t bad = d;
    bad.addressingMode = (ur_sampler_addressing_mode_t)5;
    ck_assert_ur(urSamplerCreate(T.context, &bad, &s), UR_RESULT_ERROR_INVALID_ENUMERATION);
    bad = d;
    bad.filterMode = (ur_sampler_filter_mode_t)2;
    ck_assert_ur(urSamplerCreate(T.context, &bad, &s), UR_RESULT_ERROR_INVALID_ENUMERATION);
    bad = d;
    bad.stype = UR_STRUCTURE_TYPE_IMAGE_DESC;
    ck_assert_ur(urSamplerCreate(T.context, &bad, &s), UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urSamplerCreate(NULL, &d, &s), UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urSamplerCreate(T.context, NULL, &s), UR_RESULT_ERROR_INVALID_NULL_POINTER);
    // A queue is not a context.
    ck_assert_ur(urSamplerCreate((ur_context_handle_t)T.queue, &d, &s),
                 UR_RESULT_ERROR_INVALID_CONTEXT);
    // Mip properties with an unknown mip filter.
    ur_exp_sampler_mip_properties_t mip = {
        UR_STRUCTURE_TYPE_EXP_SAMPLER_MIP_PROPERTIES, NULL, 0, 1, 0, (ur_sampler_filter_mode_t)7};
    bad = d;
    bad.pNext = &mip;
    ck_assert_ur(urSamplerCreate(T.context, &bad, &s), UR_RESULT_ERROR_INVALID_ENUMERATION);
    // A chain that loops.
    ur_exp_sampler_addr_modes_t loop = {UR_STRUCTURE_TYPE_EXP_SAMPLER_ADDR_MODES, NULL, {0}};
    loop.pNext = &loop;
    bad.pNext = &loop;
    ck_assert_ur(urSamplerCreate(T.context, &bad, &s), UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(references_count) {
    ur_sampler_handle_t s =
        sampler(true, UR_SAMPLER_ADDRESSING_MODE_REPEAT, UR_SAMPLER_FILTER_MODE_LINEAR);
    uint32_t n = 0;
    ck_assert_ur_ok(urSamplerRetain(s));
    ck_assert_ur_ok(urSamplerGetInfo(s, UR_SAMPLER_INFO_REFERENCE_COUNT, sizeof n, &n, NULL));
    ck_assert_uint_eq(n, 2);
    ck_assert_ur_ok(urSamplerRelease(s));
    ck_assert_ur_ok(urSamplerRelease(s));
    ck_assert_ur(urSamplerRetain((ur_sampler_handle_t)T.context), UR_RESULT_ERROR_INVALID_SAMPLER);
    uint8_t small;
    s = sampler(true, UR_SAMPLER_ADDRESSING_MODE_REPEAT, UR_SAMPLER_FILTER_MODE_LINEAR);
    ck_assert_ur(urSamplerGetInfo(s, UR_SAMPLER_INFO_CONTEXT, sizeof small, &small, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urSamplerGetInfo(s, (ur_sampler_info_t)9, sizeof n, &n, NULL),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    ck_assert_ur_ok(urSamplerRelease(s));
}
END_TEST

START_TEST(native_handle_round_trip) {
    ur_sampler_handle_t s =
        sampler(true, UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT, UR_SAMPLER_FILTER_MODE_LINEAR);
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urSamplerGetNativeHandle(s, &native));
    cl_addressing_mode mode = 0;
    ck_assert_int_eq(
        clGetSamplerInfo((cl_sampler)native, CL_SAMPLER_ADDRESSING_MODE, sizeof mode, &mode, NULL),
        CL_SUCCESS);
    ck_assert_uint_eq(mode, CL_ADDRESS_MIRRORED_REPEAT);
    ur_sampler_handle_t wrapped = NULL;
    ck_assert_ur_ok(urSamplerCreateWithNativeHandle(native, T.context, NULL, &wrapped));
    ur_sampler_addressing_mode_t a;
    ur_sampler_filter_mode_t f;
    ck_assert_ur_ok(urSamplerGetInfo(wrapped, UR_SAMPLER_INFO_ADDRESSING_MODE, sizeof a, &a, NULL));
    ck_assert_ur_ok(urSamplerGetInfo(wrapped, UR_SAMPLER_INFO_FILTER_MODE, sizeof f, &f, NULL));
    ck_assert_int_eq(a, UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT);
    ck_assert_int_eq(f, UR_SAMPLER_FILTER_MODE_LINEAR);
    ck_assert_ur_ok(urSamplerRelease(wrapped));
    ck_assert_ur_ok(urSamplerRelease(s)); // the native sampler was not taken over
}
END_TEST

// ---- sampling in a kernel
// ------------------------------------------------------------------------

enum { W = 4, H = 3, NU = 8 };

static ur_exp_kernel_arg_properties_t mem_arg(uint32_t index, ur_mem_handle_t m) {
    ur_exp_kernel_arg_properties_t a = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                        NULL,
                                        UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ,
                                        index,
                                        sizeof m,
                                        {.memObjTuple = {m, UR_MEM_FLAG_READ_WRITE}}};
    return a;
}

START_TEST(every_mode_reads_as_the_reference) {
    // Distinct texels in [0, 1]; coordinates chosen away from texel boundaries, inside and
    // outside the image on both sides.
    float texels[W * H * 4];
    for (size_t i = 0; i < W * H * 4; ++i)
        texels[i] = (float)((i * 37) % 97) / 96.0f;
    const float norm_c[NU] = {-0.73f, -0.1f, 0.05f, 0.3f, 0.55f, 0.93f, 1.2f, 1.77f};
    const float pix_c[NU] = {-1.7f, -0.2f, 0.3f, 1.6f, 2.2f, 3.4f, 4.6f, 5.3f};

    ur_image_format_t f = {UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_FLOAT};
    ur_image_desc_t d = {
        UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, UR_MEM_TYPE_IMAGE2D, W, H, 0, 0, 0, 0, 0, 0};
    ur_mem_handle_t img = NULL, coords = NULL, out = NULL;
    ck_assert_ur_ok(urMemImageCreate(T.context,
                                     UR_MEM_FLAG_READ_ONLY | UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER,
                                     &f, &d, texels, &img));
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE,
                                      NU * NU * 2 * sizeof(float), NULL, &coords));
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE,
                                      NU * NU * 4 * sizeof(float), NULL, &out));
    ur_program_handle_t prog = oclt_built_program("image_sample");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(prog, "image_sample", &k));
    urc_ref_image_t ref = {texels, W, H};
    int checked = 0;
    for (int n = 0; n < 2; ++n) {
        const float *c = n ? norm_c : pix_c;
        float grid[NU * NU * 2];
        for (int j = 0; j < NU; ++j)
            for (int i = 0; i < NU; ++i) {
                grid[(j * NU + i) * 2] = c[i];
                grid[(j * NU + i) * 2 + 1] = c[j] * (n ? 1.0f : (float)H / W);
            }
        for (int a = UR_SAMPLER_ADDRESSING_MODE_NONE;
             a <= UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT; ++a)
            for (int fm = 0; fm <= UR_SAMPLER_FILTER_MODE_LINEAR; ++fm) {
                // Coordinates whose read is undefined are moved to the image's centre: a
                // runtime may read outside the image for them (Intel's CPU runtime does, with
                // addressing NONE). A mode with no defined read is not launched.
                float uv[NU * NU * 2];
                int defined = 0;
                for (int i = 0; i < NU * NU; ++i) {
                    float tmp[4];
                    bool ok = urc_ref_sample(&ref, n, a, fm, grid[i * 2], grid[i * 2 + 1], tmp);
                    defined += ok;
                    uv[i * 2] = ok ? grid[i * 2] : (n ? 0.5f : W / 2.0f + 0.25f);
                    uv[i * 2 + 1] = ok ? grid[i * 2 + 1] : (n ? 0.5f : H / 2.0f + 0.25f);
                }
                if (defined == 0)
                    continue;
                ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, coords, true, 0, sizeof uv, uv, 0,
                                                        NULL, NULL));
                ur_sampler_handle_t s = sampler(n, a, fm);
                ur_exp_kernel_arg_properties_t args[4] = {mem_arg(0, img), mem_arg(1, NULL),
                                                          mem_arg(2, coords), mem_arg(3, out)};
                args[1].type = UR_EXP_KERNEL_ARG_TYPE_SAMPLER;
                args[1].size = sizeof s;
                args[1].value.sampler = s;
                size_t global = NU * NU;
                ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL,
                                                                 4, args, NULL, 0, NULL, NULL));
                float got[NU * NU * 4];
                ck_assert_ur_ok(
                    urEnqueueMemBufferRead(T.queue, out, true, 0, sizeof got, got, 0, NULL, NULL));
                for (int i = 0; i < NU * NU; ++i) {
                    float want[4];
                    if (!urc_ref_sample(&ref, n, a, fm, uv[i * 2], uv[i * 2 + 1], want))
                        continue; // undefined by the rules
                    for (int ch = 0; ch < 4; ++ch)
                        ck_assert_msg(fabsf(got[i * 4 + ch] - want[ch]) <= 1.0f / 128,
                                      "normalized %d mode %d filter %d at (%g, %g) channel %d: "
                                      "%g, expected %g",
                                      n, a, fm, uv[i * 2], uv[i * 2 + 1], ch, got[i * 4 + ch],
                                      want[ch]);
                    ++checked;
                }
                ck_assert_ur_ok(urSamplerRelease(s));
            }
    }
    ck_assert_int_gt(checked, 1000);
    // A handle of another kind in the sampler slot.
    ur_exp_kernel_arg_properties_t bad = mem_arg(1, NULL);
    bad.type = UR_EXP_KERNEL_ARG_TYPE_SAMPLER;
    bad.value.sampler = (ur_sampler_handle_t)img;
    size_t one = 1;
    ck_assert_ur(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &one, NULL, 1, &bad, NULL, 0,
                                                  NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SAMPLER);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(prog));
    ck_assert_ur_ok(urMemRelease(img));
    ck_assert_ur_ok(urMemRelease(coords));
    ck_assert_ur_ok(urMemRelease(out));
}
END_TEST

START_TEST(kernel_writes_an_image) {
    ur_image_format_t f = {UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_FLOAT};
    ur_image_desc_t d = {
        UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, UR_MEM_TYPE_IMAGE2D, 3, 2, 0, 0, 0, 0, 0, 0};
    ur_mem_handle_t img = NULL;
    ck_assert_ur_ok(urMemImageCreate(T.context, UR_MEM_FLAG_WRITE_ONLY, &f, &d, NULL, &img));
    ur_program_handle_t prog = oclt_built_program("image_sample");
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(prog, "image_fill", &k));
    float value[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    ur_exp_kernel_arg_properties_t args[2] = {mem_arg(0, img), mem_arg(1, NULL)};
    args[1].type = UR_EXP_KERNEL_ARG_TYPE_VALUE;
    args[1].size = sizeof value;
    args[1].value.value = value;
    size_t global[2] = {3, 2};
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 2, NULL, global, NULL, 2, args,
                                                     NULL, 0, NULL, NULL));
    float back[3 * 2 * 4];
    ur_rect_offset_t o = {0, 0, 0};
    ur_rect_region_t r = {3, 2, 1};
    ck_assert_ur_ok(urEnqueueMemImageRead(T.queue, img, true, o, r, 0, 0, back, 0, NULL, NULL));
    for (int i = 0; i < 6; ++i)
        ck_assert_mem_eq(back + i * 4, value, sizeof value);
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(prog));
    ck_assert_ur_ok(urMemRelease(img));
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl sampler");
    TCase *tc = oclt_tcase("urSamplerCreate");
    tcase_add_test(tc, every_mode_is_created_and_answered);
    tcase_add_test(tc, bad_descriptors_are_refused);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urSamplerRetain");
    tcase_add_test(tc, references_count);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urSamplerCreateWithNativeHandle");
    tcase_add_test(tc, native_handle_round_trip);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueKernelLaunchWithArgsExp");
    tcase_add_test(tc, every_mode_reads_as_the_reference);
    tcase_add_test(tc, kernel_writes_an_image);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
