// SPDX-License-Identifier: MIT
// Bindless images of the CUDA adapter (urBindlessImages*Exp): image memory in every shape and
// with mip levels, its info, copies in every direction between host memory, images and pitched
// USM with sub-regions; kernels sample an image through a sampled handle (compared with the
// host reference sampler in every addressing x filter x coordinate mode, and the texture's own
// descriptor compared with the sampler asked for), write one through an unsampled handle, and
// the result is copied back; mip levels read at chosen levels of detail and a 3D texture of
// bytes read as integers (kernels/bindless.cu); refusals, support queries, device queries, four
// threads making and freeing images at once; external memory and semaphores. Runs on a GPU and on
// the simulated driver (test/cuda_sim), whose textures sample through the same reference.
#include <dlfcn.h>
#include <math.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cuda.h>
#include <cudaTypedefs.h>

#include "cudat.h"
#include "urc_image_ref.h"

static const ur_image_format_t rgba32f = {UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_FLOAT};
static const ur_image_format_t r8 = {UR_IMAGE_CHANNEL_ORDER_R, UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8};
// Normalised: CUDA filters textures that read floats only.
static const ur_image_format_t r8n = {UR_IMAGE_CHANNEL_ORDER_R, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8};

static ur_image_desc_t desc(ur_mem_type_t type, size_t w, size_t h, size_t d, size_t layers,
                            uint32_t levels) {
    ur_image_desc_t x = {
        UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, type, w, h, d, layers, 0, 0, levels, 0};
    return x;
}

static ur_result_t copy(const void *src, void *dst, const ur_image_desc_t *sd,
                        const ur_image_desc_t *dd, const ur_image_format_t *f,
                        ur_exp_image_copy_region_t r, ur_exp_image_copy_flags_t flags,
                        ur_exp_image_copy_input_types_t types) {
    return urBindlessImagesImageCopyExp(T.queue, src, dst, sd, dd, f, f, &r, flags, types, 0, NULL,
                                        NULL);
}

static size_t info_size(ur_exp_image_mem_native_handle_t m, ur_image_info_t prop) {
    size_t v = 0, got = 0;
    ck_assert_ur_ok(urBindlessImagesImageGetInfoExp(T.context, m, prop, &v, &got));
    ck_assert_uint_eq(got, sizeof v);
    return v;
}

// The shapes image memory takes, each as (descriptor, extent in elements, rows, slices).
typedef struct shape_t {
    ur_mem_type_t type;
    size_t w, h, d, layers;
} shape_t;

static const shape_t shapes[] = {
    {UR_MEM_TYPE_IMAGE1D, 9, 0, 0, 0}, {UR_MEM_TYPE_IMAGE1D_ARRAY, 7, 0, 0, 3},
    {UR_MEM_TYPE_IMAGE2D, 6, 5, 0, 0}, {UR_MEM_TYPE_IMAGE2D_ARRAY, 5, 4, 0, 3},
    {UR_MEM_TYPE_IMAGE3D, 5, 4, 3, 0}, {UR_MEM_TYPE_IMAGE_CUBEMAP_EXP, 4, 4, 0, 6},
};

static uint8_t pattern(size_t i) {
    return (uint8_t)(i * 13 + 5);
}

// Host layout of a whole shape, x fastest, then rows, then slices or layers.
static void extent_of(const shape_t *s, size_t e[3]) {
    e[0] = s->w;
    e[1] = s->h ? s->h : 1;
    e[2] = s->d ? s->d : s->layers ? s->layers : 1;
}

START_TEST(every_shape_allocates_answers_info_and_round_trips_a_box) {
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
        const shape_t *s = &shapes[k];
        ur_image_desc_t d = desc(s->type, s->w, s->h, s->d, s->layers, 1);
        ur_exp_image_mem_native_handle_t m = urc_test_image_alloc(T.context, T.device, &r8, &d);
        ck_assert_uint_eq(info_size(m, UR_IMAGE_INFO_WIDTH), s->w);
        ck_assert_uint_eq(info_size(m, UR_IMAGE_INFO_HEIGHT), s->h);
        ck_assert_uint_eq(info_size(m, UR_IMAGE_INFO_DEPTH), s->d);
        ck_assert_uint_eq(info_size(m, UR_IMAGE_INFO_ARRAY_SIZE), s->layers);
        ur_image_format_t f;
        ck_assert_ur_ok(
            urBindlessImagesImageGetInfoExp(T.context, m, UR_IMAGE_INFO_FORMAT, &f, NULL));
        ck_assert_mem_eq(&f, &r8, sizeof f);
        size_t e[3];
        extent_of(s, e);
        uint8_t src[512], back[512];
        size_t total = e[0] * e[1] * e[2];
        for (size_t i = 0; i < total; ++i)
            src[i] = pattern(i);
        ck_assert_ur_ok(copy(
            src, (void *)m, &d, &d, &r8, urc_test_copy_region(0, 0, 0, 0, 0, 0, e[0], e[1], e[2]),
            UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE, UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE));
        // The far corner box back into a host layout of the same shape, at the same place.
        size_t bw = e[0] > 2 ? e[0] - 2 : 1, bh = e[1] > 1 ? e[1] - 1 : 1, bd = e[2];
        size_t ox = e[0] - bw, oy = e[1] - bh;
        memset(back, 0xEE, sizeof back);
        ck_assert_ur_ok(copy((void *)m, back, &d, &d, &r8,
                             urc_test_copy_region(ox, oy, 0, ox, oy, 0, bw, s->h ? bh : 0, bd),
                             UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST,
                             UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_MEM));
        ck_assert_ur_ok(urQueueFinish(T.queue));
        for (size_t z = 0; z < e[2]; ++z)
            for (size_t y = 0; y < e[1]; ++y)
                for (size_t x = 0; x < e[0]; ++x) {
                    size_t i = (z * e[1] + y) * e[0] + x;
                    bool inside = x >= ox && y >= oy;
                    ck_assert_msg(back[i] == (inside ? pattern(i) : 0xEE),
                                  "shape %u element (%zu,%zu,%zu): %u", (unsigned)s->type, x, y, z,
                                  back[i]);
                }
        ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, m));
        // Freed memory is not ours any more: a second free is refused before the driver.
        ck_assert_ur(urBindlessImagesImageFreeExp(T.context, T.device, m),
                     UR_RESULT_ERROR_INVALID_VALUE);
    }
}
END_TEST

START_TEST(copies_between_images_pitched_usm_and_host) {
    enum { W = 8, H = 5 };
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, W, H, 0, 0, 1);
    ur_exp_image_mem_native_handle_t a = urc_test_image_alloc(T.context, T.device, &rgba32f, &d),
                                     b = urc_test_image_alloc(T.context, T.device, &rgba32f, &d);
    float src[W * H * 4], back[W * H * 4];
    for (int i = 0; i < W * H * 4; ++i)
        src[i] = (float)i;
    const size_t es = 16;
    ck_assert_ur_ok(
        copy(src, (void *)a, &d, &d, &rgba32f, urc_test_copy_region(0, 0, 0, 0, 0, 0, W * es, H, 1),
             UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE, UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE));
    // Image to image, shifted: b's (1..7, 1..4) = a's (0..6, 0..3).
    ck_assert_ur_ok(copy((void *)a, (void *)b, &d, &d, &rgba32f,
                         urc_test_copy_region(0, 0, 0, es, 1, 0, (W - 1) * es, H - 1, 1),
                         UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_DEVICE,
                         UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_IMAGE));
    // Image to pitched USM, USM to host.
    void *usm = NULL;
    size_t pitch = 0;
    ck_assert_ur_ok(
        urUSMPitchedAllocExp(T.context, T.device, NULL, NULL, W * es, H, es, &usm, &pitch));
    ck_assert_uint_ge(pitch, W * es);
    ur_image_desc_t pd = d;
    pd.rowPitch = pitch;
    ck_assert_ur_ok(copy(
        (void *)b, usm, &d, &pd, &rgba32f, urc_test_copy_region(0, 0, 0, 0, 0, 0, W * es, H, 1),
        UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_DEVICE, UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_MEM));
    memset(back, 0, sizeof back);
    ur_event_handle_t ev = NULL;
    ur_exp_image_copy_region_t all = urc_test_copy_region(0, 0, 0, 0, 0, 0, W * es, H, 1);
    ck_assert_ur_ok(urBindlessImagesImageCopyExp(T.queue, usm, back, &pd, &d, &rgba32f, &rgba32f,
                                                 &all, UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST,
                                                 UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_MEM, 0, NULL,
                                                 &ev));
    ck_assert_ur_ok(urEventWait(1, &ev));
    ck_assert_int_eq(cudat_event_command(ev), UR_COMMAND_MEM_IMAGE_COPY);
    ck_assert_ur_ok(urEventRelease(ev));
    for (int y = 1; y < H; ++y)
        for (int x = 1; x < W; ++x)
            ck_assert_mem_eq(back + (y * W + x) * 4, src + ((y - 1) * W + x - 1) * 4, es);
    // Host to pitched USM straight, and back through an image.
    ck_assert_ur_ok(copy(src, usm, &d, &pd, &rgba32f, all, UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE,
                         UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_MEM));
    ck_assert_ur_ok(copy(usm, (void *)a, &pd, &d, &rgba32f, all,
                         UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_DEVICE,
                         UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE));
    memset(back, 0, sizeof back);
    ck_assert_ur_ok(copy((void *)a, back, &d, &d, &rgba32f, all,
                         UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST,
                         UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_MEM));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_mem_eq(back, src, sizeof src);
    ck_assert_ur_ok(urUSMFree(T.context, usm));
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, a));
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, b));
}
END_TEST

START_TEST(mipmaps_have_levels_to_copy_sample_and_free) {
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 8, 4, 0, 0, 3);
    ur_exp_image_mem_native_handle_t mip = urc_test_image_alloc(T.context, T.device, &r8n, &d);
    ck_assert_uint_eq(info_size(mip, UR_IMAGE_INFO_WIDTH), 8);
    uint32_t levels = 0;
    ck_assert_ur_ok(urBindlessImagesImageGetInfoExp(T.context, mip, UR_IMAGE_INFO_NUM_MIP_LEVELS,
                                                    &levels, NULL));
    ck_assert_uint_eq(levels, 3);
    const size_t widths[3] = {8, 4, 2}, heights[3] = {4, 2, 1};
    for (uint32_t l = 0; l < 3; ++l) {
        ur_exp_image_mem_native_handle_t lv = 0;
        ck_assert_ur_ok(urBindlessImagesMipmapGetLevelExp(T.context, T.device, mip, l, &lv));
        ck_assert_uint_eq(info_size(lv, UR_IMAGE_INFO_WIDTH), widths[l]);
        ck_assert_uint_eq(info_size(lv, UR_IMAGE_INFO_HEIGHT), heights[l]);
        ur_image_desc_t ld = desc(UR_MEM_TYPE_IMAGE2D, widths[l], heights[l], 0, 0, 1);
        uint8_t src[32], back[32] = {0};
        for (size_t i = 0; i < widths[l] * heights[l]; ++i)
            src[i] = (uint8_t)(l * 50 + i);
        ur_exp_image_copy_region_t all =
            urc_test_copy_region(0, 0, 0, 0, 0, 0, widths[l], heights[l], 1);
        ck_assert_ur_ok(copy(src, (void *)lv, &ld, &ld, &r8n, all,
                             UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE,
                             UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE));
        ck_assert_ur_ok(copy((void *)lv, back, &ld, &ld, &r8n, all,
                             UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST,
                             UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_MEM));
        ck_assert_ur_ok(urQueueFinish(T.queue));
        ck_assert_mem_eq(back, src, widths[l] * heights[l]);
        // A level takes unsampled handles; it is freed with its mipmap only.
        ur_exp_image_native_handle_t surf = 0;
        ck_assert_ur_ok(
            urBindlessImagesUnsampledImageCreateExp(T.context, T.device, lv, &r8n, &ld, &surf));
        ck_assert_ur_ok(urBindlessImagesUnsampledImageHandleDestroyExp(T.context, T.device, surf));
        ck_assert_ur(urBindlessImagesImageFreeExp(T.context, T.device, lv),
                     UR_RESULT_ERROR_INVALID_VALUE);
    }
    ur_exp_image_mem_native_handle_t none = 0;
    ck_assert_ur(urBindlessImagesMipmapGetLevelExp(T.context, T.device, mip, 3, &none),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // The whole mipmap samples (one texture over every level); no surface covers it.
    ur_exp_sampler_mip_properties_t mp = {UR_STRUCTURE_TYPE_EXP_SAMPLER_MIP_PROPERTIES,
                                          NULL,
                                          0.0f,
                                          2.0f,
                                          4.0f,
                                          UR_SAMPLER_FILTER_MODE_LINEAR};
    ur_sampler_desc_t sd = {UR_STRUCTURE_TYPE_SAMPLER_DESC, &mp, true,
                            UR_SAMPLER_ADDRESSING_MODE_REPEAT, UR_SAMPLER_FILTER_MODE_LINEAR};
    ur_exp_image_native_handle_t tex = 0, surf = 0;
    ck_assert_ur_ok(
        urBindlessImagesSampledImageCreateExp(T.context, T.device, mip, &r8n, &d, &sd, &tex));
    ck_assert_ur_ok(urBindlessImagesSampledImageHandleDestroyExp(T.context, T.device, tex));
    ck_assert_ur(urBindlessImagesUnsampledImageCreateExp(T.context, T.device, mip, &r8n, &d, &surf),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urBindlessImagesImageFreeExp(T.context, T.device, mip),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urBindlessImagesMipmapFreeExp(T.context, T.device, mip));
    ck_assert_ur(urBindlessImagesMipmapFreeExp(T.context, T.device, mip),
                 UR_RESULT_ERROR_INVALID_VALUE);
}
END_TEST

// The texture descriptor behind a sampled handle, from the libcuda.so.1 the adapter opened
// (the real driver or the simulated one): false when the driver has no such query.
static bool texture_desc_of(ur_exp_image_native_handle_t h, CUDA_TEXTURE_DESC *td,
                            CUDA_RESOURCE_DESC *rd) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    PFN_cuTexObjectGetTextureDesc_v5000 get_td =
        lib ? (PFN_cuTexObjectGetTextureDesc_v5000)dlsym(lib, "cuTexObjectGetTextureDesc") : NULL;
    PFN_cuTexObjectGetResourceDesc_v5000 get_rd =
        lib ? (PFN_cuTexObjectGetResourceDesc_v5000)dlsym(lib, "cuTexObjectGetResourceDesc") : NULL;
    if (get_td == NULL || get_rd == NULL)
        return false;
    ck_assert_int_eq(get_td(td, (CUtexObject)h), CUDA_SUCCESS);
    ck_assert_int_eq(get_rd(rd, (CUtexObject)h), CUDA_SUCCESS);
    return true;
}

static CUaddress_mode cu_address(int mode) {
    switch (mode) {
    case UR_SAMPLER_ADDRESSING_MODE_CLAMP:
        return CU_TR_ADDRESS_MODE_BORDER;
    case UR_SAMPLER_ADDRESSING_MODE_REPEAT:
        return CU_TR_ADDRESS_MODE_WRAP;
    case UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT:
        return CU_TR_ADDRESS_MODE_MIRROR;
    default:
        return CU_TR_ADDRESS_MODE_CLAMP;
    }
}

// Samples every mode of a 2D RGBA float image held in `mem` (image memory or pitched USM, laid
// out by `d`) through texture_sample and compares with the reference; returns samples checked.
static int sample_every_mode(ur_exp_image_mem_native_handle_t mem, const ur_image_desc_t *d,
                             const float *texels, bool usm) {
    enum { NU = 8 };
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
    urc_ref_image_t ref = {texels, d->width, d->height};
    int checked = 0;
    for (int n = 0; n < 2; ++n)
        for (int a = 0; a <= UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT; ++a)
            for (int f = 0; f <= UR_SAMPLER_FILTER_MODE_LINEAR; ++f) {
                if (!n && (a == UR_SAMPLER_ADDRESSING_MODE_REPEAT ||
                           a == UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT))
                    continue; // undefined reads, and CUDA wraps normalised coordinates only
                const float *c = n ? norm_c : pix_c;
                for (int j = 0; j < NU; ++j)
                    for (int i = 0; i < NU; ++i) {
                        coords[(j * NU + i) * 2] = c[i];
                        coords[(j * NU + i) * 2 + 1] =
                            c[j] * (n ? 1.0f : (float)d->height / (float)d->width);
                    }
                // Addressing per dimension through the extension struct, as SYCL passes it.
                ur_exp_sampler_addr_modes_t am = {UR_STRUCTURE_TYPE_EXP_SAMPLER_ADDR_MODES,
                                                  NULL,
                                                  {(ur_sampler_addressing_mode_t)a,
                                                   (ur_sampler_addressing_mode_t)a,
                                                   (ur_sampler_addressing_mode_t)a}};
                ur_sampler_desc_t sd = {UR_STRUCTURE_TYPE_SAMPLER_DESC, &am, n != 0,
                                        UR_SAMPLER_ADDRESSING_MODE_NONE,
                                        (ur_sampler_filter_mode_t)f};
                ur_exp_image_native_handle_t tex = 0;
                ck_assert_ur_ok(urBindlessImagesSampledImageCreateExp(T.context, T.device, mem,
                                                                      &rgba32f, d, &sd, &tex));
                CUDA_TEXTURE_DESC td;
                CUDA_RESOURCE_DESC rd;
                if (texture_desc_of(tex, &td, &rd)) {
                    ck_assert_int_eq(td.addressMode[0], cu_address(a));
                    ck_assert_int_eq(td.addressMode[1], cu_address(a));
                    ck_assert_int_eq(td.filterMode,
                                     f ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT);
                    ck_assert_int_eq((td.flags & CU_TRSF_NORMALIZED_COORDINATES) != 0, n);
                    ck_assert_int_eq(rd.resType,
                                     usm ? CU_RESOURCE_TYPE_PITCH2D : CU_RESOURCE_TYPE_ARRAY);
                }
                int count = NU * NU;
                ur_exp_kernel_arg_properties_t args[4] = {
                    cudat_arg_value(0, &tex, sizeof tex), cudat_arg_pointer(1, coords),
                    cudat_arg_pointer(2, out), cudat_arg_value(3, &count, sizeof count)};
                ck_assert_ur_ok(cudat_launch(T.queue, k, NU * NU, NULL, 4, args, 0, NULL, NULL));
                ck_assert_ur_ok(urQueueFinish(T.queue));
                ck_assert_ur_ok(
                    urBindlessImagesSampledImageHandleDestroyExp(T.context, T.device, tex));
                for (int i = 0; i < NU * NU; ++i) {
                    float want[4];
                    if (!urc_ref_sample(&ref, n, a, f, coords[i * 2], coords[i * 2 + 1], want))
                        continue;
                    for (int ch = 0; ch < 4; ++ch)
                        ck_assert_msg(fabsf(out[i * 4 + ch] - want[ch]) <= 1.0f / 128,
                                      "%s: normalized %d mode %d filter %d at (%g, %g) channel "
                                      "%d: %g, expected %g",
                                      usm ? "USM" : "array", n, a, f, coords[i * 2],
                                      coords[i * 2 + 1], ch, out[i * 4 + ch], want[ch]);
                    ++checked;
                }
            }
    ck_assert_ur_ok(urUSMFree(T.context, coords));
    ck_assert_ur_ok(urUSMFree(T.context, out));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(p));
    return checked;
}

START_TEST(kernels_sample_images_through_sampled_handles) {
    enum { W = 4, H = 3 };
    float texels[W * H * 4];
    for (int i = 0; i < W * H * 4; ++i)
        texels[i] = (float)((i * 37) % 97) / 96.0f;
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, W, H, 0, 0, 1);
    ur_exp_image_mem_native_handle_t m = urc_test_image_alloc(T.context, T.device, &rgba32f, &d);
    ck_assert_ur_ok(copy(
        texels, (void *)m, &d, &d, &rgba32f, urc_test_copy_region(0, 0, 0, 0, 0, 0, W * 16, H, 1),
        UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE, UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    // 16 mode combinations x 64 samples, less those the rules leave undefined (as test_image).
    ck_assert_int_ge(sample_every_mode(m, &d, texels, false), 768);
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, m));
}
END_TEST

START_TEST(kernels_sample_pitched_usm_through_sampled_handles) {
    enum { W = 4, H = 3 };
    float texels[W * H * 4];
    for (int i = 0; i < W * H * 4; ++i)
        texels[i] = (float)((i * 53) % 89) / 88.0f;
    void *usm = NULL;
    size_t pitch = 0;
    ck_assert_ur_ok(
        urUSMPitchedAllocExp(T.context, T.device, NULL, NULL, W * 16, H, 16, &usm, &pitch));
    ur_image_desc_t host = desc(UR_MEM_TYPE_IMAGE2D, W, H, 0, 0, 1), d = host;
    d.rowPitch = pitch;
    ck_assert_ur_ok(
        copy(texels, usm, &host, &d, &rgba32f, urc_test_copy_region(0, 0, 0, 0, 0, 0, W * 16, H, 1),
             UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE, UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_MEM));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_int_ge(sample_every_mode((ur_exp_image_mem_native_handle_t)usm, &d, texels, true),
                     768);
    ck_assert_ur_ok(urUSMFree(T.context, usm));
}
END_TEST

START_TEST(kernels_write_and_read_through_unsampled_handles) {
    enum { W = 6, H = 4 };
    ur_program_handle_t p = cudat_built_program("images.ptx", NULL);
    ur_kernel_handle_t fill = NULL, read = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "surface_fill", &fill));
    ck_assert_ur_ok(urKernelCreate(p, "surface_read", &read));
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, W, H, 0, 0, 1);
    ur_exp_image_mem_native_handle_t m = urc_test_image_alloc(T.context, T.device, &rgba32f, &d);
    ur_exp_image_native_handle_t surf = 0;
    ck_assert_ur_ok(
        urBindlessImagesUnsampledImageCreateExp(T.context, T.device, m, &rgba32f, &d, &surf));
    ck_assert(surf != 0);
    int w = W, h = H;
    float value[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    ur_exp_kernel_arg_properties_t args[4] = {
        cudat_arg_value(0, &surf, sizeof surf), cudat_arg_value(1, &w, sizeof w),
        cudat_arg_value(2, &h, sizeof h), cudat_arg_value(3, value, sizeof value)};
    size_t global[2] = {W, H}, local[2] = {W, H};
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, fill, 2, NULL, global, local, 4, args,
                                                     NULL, 0, NULL, NULL));
    float back[W * H * 4];
    ur_exp_image_copy_region_t all = urc_test_copy_region(0, 0, 0, 0, 0, 0, W * 16, H, 1);
    ck_assert_ur_ok(copy((void *)m, back, &d, &d, &rgba32f, all,
                         UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST,
                         UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_MEM));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    for (int i = 0; i < W * H; ++i)
        ck_assert_mem_eq(back + i * 4, value, sizeof value);
    // Written by the host, read by a kernel through the same handle.
    float texels[W * H * 4];
    for (int i = 0; i < W * H * 4; ++i)
        texels[i] = (float)i;
    ck_assert_ur_ok(copy(texels, (void *)m, &d, &d, &rgba32f, all,
                         UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE,
                         UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE));
    float *out = NULL;
    ck_assert_ur_ok(
        urUSMSharedAlloc(T.context, T.device, NULL, NULL, sizeof texels, (void **)&out));
    args[3] = cudat_arg_pointer(3, out);
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, read, 2, NULL, global, local, 4, args,
                                                     NULL, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_mem_eq(out, texels, sizeof texels);
    ck_assert_ur_ok(urBindlessImagesUnsampledImageHandleDestroyExp(T.context, T.device, surf));
    // A handle is destroyed once, and by the entry point of its kind.
    ck_assert_ur(urBindlessImagesUnsampledImageHandleDestroyExp(T.context, T.device, surf),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urUSMFree(T.context, out));
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, m));
    ck_assert_ur_ok(urKernelRelease(fill));
    ck_assert_ur_ok(urKernelRelease(read));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(refusals_get_clear_results) {
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 4, 4, 0, 0, 1);
    ur_exp_image_mem_native_handle_t m = urc_test_image_alloc(T.context, T.device, &rgba32f, &d),
                                     out = 0;
    ur_exp_image_native_handle_t h = 0;
    // Values this adapter never handed out.
    const uintptr_t junk = (uintptr_t)0x1234560;
    size_t v;
    ck_assert_ur(urBindlessImagesImageGetInfoExp(T.context, junk, UR_IMAGE_INFO_WIDTH, &v, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urBindlessImagesImageFreeExp(T.context, T.device, junk),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urBindlessImagesMipmapGetLevelExp(T.context, T.device, m, 0, &out),
                 UR_RESULT_ERROR_INVALID_VALUE); // not a mipmap
    ck_assert_ur(
        urBindlessImagesUnsampledImageCreateExp(T.context, T.device, junk, &rgba32f, &d, &h),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urBindlessImagesSampledImageHandleDestroyExp(T.context, T.device, junk),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urBindlessImagesUnsampledImageHandleDestroyExp(T.context, T.device, 0),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Descriptors: a 0 extent, a cubemap that is not 6 square faces, too many levels, a format
    // CUDA arrays cannot hold.
    ur_image_desc_t bad = desc(UR_MEM_TYPE_IMAGE2D, 4, 0, 0, 0, 1);
    ck_assert_ur(urBindlessImagesImageAllocateExp(T.context, T.device, &rgba32f, &bad, &out),
                 UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    bad = desc(UR_MEM_TYPE_IMAGE_CUBEMAP_EXP, 4, 4, 0, 5, 1);
    ck_assert_ur(urBindlessImagesImageAllocateExp(T.context, T.device, &rgba32f, &bad, &out),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    bad = desc(UR_MEM_TYPE_IMAGE2D, 4, 4, 0, 0, 4);
    ck_assert_ur(urBindlessImagesImageAllocateExp(T.context, T.device, &rgba32f, &bad, &out),
                 UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    // Types that are no image type, or above the last one bindless images take (CUBEMAP_EXP).
    const uint32_t types[] = {UR_MEM_TYPE_IMAGE1D_ARRAY + 1, UR_MEM_TYPE_IMAGE_CUBEMAP_EXP - 1,
                              UR_MEM_TYPE_IMAGE_GATHER_EXP, UR_MEM_TYPE_IMAGE_GATHER_EXP + 1,
                              UR_MEM_TYPE_FORCE_UINT32};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i) {
        bad = desc((ur_mem_type_t)types[i], 4, 4, 1, 1, 1);
        ur_result_t r = urBindlessImagesImageAllocateExp(T.context, T.device, &rgba32f, &bad, &out);
        ck_assert_msg(r == UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR, "type 0x%x: %d",
                      types[i], (int)r);
    }
    ur_image_format_t bgra = {UR_IMAGE_CHANNEL_ORDER_BGRA, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8};
    ck_assert_ur(urBindlessImagesImageAllocateExp(T.context, T.device, &bgra, &d, &out),
                 UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
    // Copies: a host side as an image, two directions, a box past the edge, a width that is
    // not whole elements; nothing is enqueued and no event made.
    float host[64];
    ur_event_handle_t ev = NULL;
    ur_exp_image_copy_region_t r = urc_test_copy_region(0, 0, 0, 0, 0, 0, 64, 4, 1);
    ck_assert_ur(copy(host, (void *)m, &d, &d, &rgba32f, r, UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST,
                      UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(copy(host, (void *)m, &d, &d, &rgba32f, r,
                      UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE | UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST,
                      UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ur_exp_image_copy_region_t past = urc_test_copy_region(0, 0, 0, 16, 0, 0, 64, 4, 1);
    ck_assert_ur(urBindlessImagesImageCopyExp(T.queue, host, (void *)m, &d, &d, &rgba32f, &rgba32f,
                                              &past, UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE,
                                              UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE, 0, NULL,
                                              &ev),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ptr_null(ev);
    ur_exp_image_copy_region_t ragged = urc_test_copy_region(0, 0, 0, 0, 0, 0, 20, 4, 1);
    ck_assert_ur(copy(host, (void *)m, &d, &d, &rgba32f, ragged,
                      UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE,
                      UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(copy(host, (void *)junk, &d, &d, &rgba32f, r,
                      UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE,
                      UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // USM holds 1D and 2D images only.
    void *usm = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, 4096, &usm));
    ur_image_desc_t d3 = desc(UR_MEM_TYPE_IMAGE3D, 4, 4, 4, 0, 1);
    ur_sampler_desc_t sd = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, false,
                            UR_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE,
                            UR_SAMPLER_FILTER_MODE_NEAREST};
    ck_assert_ur(urBindlessImagesSampledImageCreateExp(T.context, T.device, (uintptr_t)usm,
                                                       &rgba32f, &d3, &sd, &h),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urUSMFree(T.context, usm));
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, m));
}
END_TEST

START_TEST(support_queries_and_device_infos_agree) {
    ur_bool_t yes = false;
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 64, 64, 0, 0, 1);
    ck_assert_ur_ok(urBindlessImagesGetImageMemoryHandleTypeSupportExp(
        T.context, T.device, &d, &rgba32f, UR_EXP_IMAGE_MEM_TYPE_OPAQUE_HANDLE, &yes));
    ck_assert(yes);
    ck_assert_ur_ok(urBindlessImagesGetImageUnsampledHandleSupportExp(
        T.context, T.device, &d, &rgba32f, UR_EXP_IMAGE_MEM_TYPE_OPAQUE_HANDLE, &yes));
    ck_assert(yes);
    ck_assert_ur_ok(urBindlessImagesGetImageSampledHandleSupportExp(
        T.context, T.device, &d, &rgba32f, UR_EXP_IMAGE_MEM_TYPE_USM_POINTER, &yes));
    ck_assert(yes);
    ck_assert_ur_ok(urBindlessImagesGetImageUnsampledHandleSupportExp(
        T.context, T.device, &d, &rgba32f, UR_EXP_IMAGE_MEM_TYPE_USM_POINTER, &yes));
    ck_assert(!yes);
    ur_image_desc_t d3 = desc(UR_MEM_TYPE_IMAGE3D, 8, 8, 8, 0, 1);
    ck_assert_ur_ok(urBindlessImagesGetImageMemoryHandleTypeSupportExp(
        T.context, T.device, &d3, &rgba32f, UR_EXP_IMAGE_MEM_TYPE_USM_POINTER, &yes));
    ck_assert(!yes);
    ur_image_format_t rgb = {UR_IMAGE_CHANNEL_ORDER_RGB, UR_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565};
    ck_assert_ur_ok(urBindlessImagesGetImageMemoryHandleTypeSupportExp(
        T.context, T.device, &d, &rgb, UR_EXP_IMAGE_MEM_TYPE_OPAQUE_HANDLE, &yes));
    ck_assert(!yes);
    ur_image_desc_t huge = desc(UR_MEM_TYPE_IMAGE2D, (size_t)1 << 30, 4, 0, 0, 1);
    ck_assert_ur_ok(urBindlessImagesGetImageSampledHandleSupportExp(
        T.context, T.device, &huge, &rgba32f, UR_EXP_IMAGE_MEM_TYPE_OPAQUE_HANDLE, &yes));
    ck_assert(!yes);
    static const struct {
        ur_device_info_t name;
        bool want;
    } infos[] = {
        {UR_DEVICE_INFO_BINDLESS_IMAGES_SUPPORT_EXP, true},
        {UR_DEVICE_INFO_BINDLESS_IMAGES_2D_USM_SUPPORT_EXP, true},
        {UR_DEVICE_INFO_MIPMAP_SUPPORT_EXP, true},
        {UR_DEVICE_INFO_MIPMAP_LEVEL_REFERENCE_SUPPORT_EXP, true},
        {UR_DEVICE_INFO_IMAGE_ARRAY_SUPPORT_EXP, true},
        {UR_DEVICE_INFO_CUBEMAP_SUPPORT_EXP, true},
        {UR_DEVICE_INFO_BINDLESS_SAMPLE_2D_USM_SUPPORT_EXP, true},
        {UR_DEVICE_INFO_BINDLESS_SAMPLE_1D_USM_SUPPORT_EXP, false},
        {UR_DEVICE_INFO_BINDLESS_IMAGES_GATHER_SUPPORT_EXP, false},
    };
    for (size_t i = 0; i < sizeof infos / sizeof infos[0]; ++i) {
        ur_bool_t b = !infos[i].want;
        ck_assert_ur_ok(urDeviceGetInfo(T.device, infos[i].name, sizeof b, &b, NULL));
        ck_assert_msg(b == infos[i].want, "device info %#x: %d", (unsigned)infos[i].name, b);
    }
}
END_TEST

START_TEST(kernels_read_mip_levels_and_integer_3d_textures) {
    ur_program_handle_t p = cudat_built_program("bindless.ptx", NULL);
    ur_kernel_handle_t mip_k = NULL, fetch_k = NULL;
    ck_assert_ur_ok(urKernelCreate(p, "mip_sample", &mip_k));
    ck_assert_ur_ok(urKernelCreate(p, "fetch3d_uint", &fetch_k));
    // An 8x8 R8 unorm mipmap of 4 levels, level l holding 40 * (l + 1) everywhere.
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 8, 8, 0, 0, 4);
    ur_exp_image_mem_native_handle_t mip = urc_test_image_alloc(T.context, T.device, &r8n, &d);
    for (uint32_t l = 0; l < 4; ++l) {
        ur_exp_image_mem_native_handle_t lv = 0;
        ck_assert_ur_ok(urBindlessImagesMipmapGetLevelExp(T.context, T.device, mip, l, &lv));
        size_t e = (size_t)8 >> l;
        ur_image_desc_t ld = desc(UR_MEM_TYPE_IMAGE2D, e, e, 0, 0, 1);
        uint8_t bytes[64];
        memset(bytes, 40 * (int)(l + 1), sizeof bytes);
        ck_assert_ur_ok(copy(
            bytes, (void *)lv, &ld, &ld, &r8n, urc_test_copy_region(0, 0, 0, 0, 0, 0, e, e, 1),
            UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE, UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE));
    }
    ck_assert_ur_ok(urQueueFinish(T.queue));
    // Point sampling between levels, levels clamped to [0, 2] by the sampler.
    ur_exp_sampler_mip_properties_t mp = {UR_STRUCTURE_TYPE_EXP_SAMPLER_MIP_PROPERTIES,
                                          NULL,
                                          0.0f,
                                          2.0f,
                                          1.0f,
                                          UR_SAMPLER_FILTER_MODE_NEAREST};
    ur_sampler_desc_t sd = {UR_STRUCTURE_TYPE_SAMPLER_DESC, &mp, true,
                            UR_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE,
                            UR_SAMPLER_FILTER_MODE_NEAREST};
    ur_exp_image_native_handle_t tex = 0;
    ck_assert_ur_ok(
        urBindlessImagesSampledImageCreateExp(T.context, T.device, mip, &r8n, &d, &sd, &tex));
    enum { N = 5 };
    const float lods[N] = {0.0f, 1.0f, 2.0f, 3.0f, -1.0f};
    const float want[N] = {40, 80, 120, 120, 40};
    float *in = NULL, *out = NULL;
    ck_assert_ur_ok(urUSMSharedAlloc(T.context, T.device, NULL, NULL, sizeof lods, (void **)&in));
    ck_assert_ur_ok(urUSMSharedAlloc(T.context, T.device, NULL, NULL, sizeof lods, (void **)&out));
    memcpy(in, lods, sizeof lods);
    float u = 0.5f, v = 0.5f;
    int n = N;
    ur_exp_kernel_arg_properties_t args[6] = {cudat_arg_value(0, &tex, sizeof tex),
                                              cudat_arg_value(1, &u, sizeof u),
                                              cudat_arg_value(2, &v, sizeof v),
                                              cudat_arg_pointer(3, in),
                                              cudat_arg_pointer(4, out),
                                              cudat_arg_value(5, &n, sizeof n)};
    ck_assert_ur_ok(cudat_launch(T.queue, mip_k, N, NULL, 6, args, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    for (int i = 0; i < N; ++i)
        ck_assert_msg(fabsf(out[i] - want[i] / 255.0f) < 1e-3f, "lod %g: %g, expected %g", lods[i],
                      out[i], want[i] / 255.0f);
    ck_assert_ur_ok(urBindlessImagesSampledImageHandleDestroyExp(T.context, T.device, tex));
    ck_assert_ur_ok(urBindlessImagesMipmapFreeExp(T.context, T.device, mip));
    // A 4x3x2 3D image of unsigned bytes reads back as integers (READ_AS_INTEGER).
    enum { W = 4, H = 3, D = 2 };
    ur_image_desc_t d3 = desc(UR_MEM_TYPE_IMAGE3D, W, H, D, 0, 1);
    ur_exp_image_mem_native_handle_t vol = urc_test_image_alloc(T.context, T.device, &r8, &d3);
    uint8_t bytes[W * H * D];
    for (int i = 0; i < W * H * D; ++i)
        bytes[i] = (uint8_t)(i * 11 + 3);
    ck_assert_ur_ok(
        copy(bytes, (void *)vol, &d3, &d3, &r8, urc_test_copy_region(0, 0, 0, 0, 0, 0, W, H, D),
             UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE, UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE));
    ur_sampler_desc_t nearest = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, false,
                                 UR_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE,
                                 UR_SAMPLER_FILTER_MODE_NEAREST};
    ck_assert_ur_ok(
        urBindlessImagesSampledImageCreateExp(T.context, T.device, vol, &r8, &d3, &nearest, &tex));
    unsigned *got = NULL;
    ck_assert_ur_ok(urUSMSharedAlloc(T.context, T.device, NULL, NULL, sizeof(unsigned) * W * H * D,
                                     (void **)&got));
    int w = W, h = H, dd = D;
    ur_exp_kernel_arg_properties_t fargs[5] = {
        cudat_arg_value(0, &tex, sizeof tex), cudat_arg_value(1, &w, sizeof w),
        cudat_arg_value(2, &h, sizeof h), cudat_arg_value(3, &dd, sizeof dd),
        cudat_arg_pointer(4, got)};
    ck_assert_ur_ok(cudat_launch(T.queue, fetch_k, W, NULL, 5, fargs, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    for (int i = 0; i < W * H * D; ++i)
        ck_assert_msg(got[i] == bytes[i], "element %d: %u, expected %u", i, got[i], bytes[i]);
    ck_assert_ur_ok(urBindlessImagesSampledImageHandleDestroyExp(T.context, T.device, tex));
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, vol));
    ck_assert_ur_ok(urUSMFree(T.context, in));
    ck_assert_ur_ok(urUSMFree(T.context, out));
    ck_assert_ur_ok(urUSMFree(T.context, got));
    ck_assert_ur_ok(urKernelRelease(mip_k));
    ck_assert_ur_ok(urKernelRelease(fetch_k));
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// Image memory and handles made and destroyed from several threads at once: each thread sees
// its own values and every free finds its memory.
static void *churn(void *arg) {
    (void)arg;
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 16, 8, 0, 0, 1);
    ur_sampler_desc_t sd = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, true,
                            UR_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE,
                            UR_SAMPLER_FILTER_MODE_LINEAR};
    for (int i = 0; i < 50; ++i) {
        ur_exp_image_mem_native_handle_t m = 0;
        ur_exp_image_native_handle_t tex = 0, surf = 0;
        size_t w = 0;
        if (urBindlessImagesImageAllocateExp(T.context, T.device, &rgba32f, &d, &m) !=
                UR_RESULT_SUCCESS ||
            urBindlessImagesImageGetInfoExp(T.context, m, UR_IMAGE_INFO_WIDTH, &w, NULL) !=
                UR_RESULT_SUCCESS ||
            w != 16 ||
            urBindlessImagesSampledImageCreateExp(T.context, T.device, m, &rgba32f, &d, &sd,
                                                  &tex) != UR_RESULT_SUCCESS ||
            urBindlessImagesUnsampledImageCreateExp(T.context, T.device, m, &rgba32f, &d, &surf) !=
                UR_RESULT_SUCCESS ||
            urBindlessImagesSampledImageHandleDestroyExp(T.context, T.device, tex) !=
                UR_RESULT_SUCCESS ||
            urBindlessImagesUnsampledImageHandleDestroyExp(T.context, T.device, surf) !=
                UR_RESULT_SUCCESS ||
            urBindlessImagesImageFreeExp(T.context, T.device, m) != UR_RESULT_SUCCESS)
            return (void *)1;
    }
    return NULL;
}

START_TEST(threads_make_and_free_images_at_once) {
    pthread_t t[4];
    for (int i = 0; i < 4; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, churn, NULL), 0);
    for (int i = 0; i < 4; ++i) {
        void *failed = NULL;
        pthread_join(t[i], &failed);
        ck_assert_ptr_null(failed);
    }
}
END_TEST

// The adapter's libcuda.so.1 is the simulated driver (it exports a call counter).
static void *driver(void) {
    return dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
}

static bool on_simulator(void) {
    void *lib = driver();
    return lib != NULL && dlsym(lib, "urc_cuda_sim_driver_calls") != NULL;
}

// Image memory freed while an image handle refers to it stays alive until the handle is
// destroyed (UR's CUDA adapter destroyed the array under the surface: a use-after-free when the
// handle went). The free answers SUCCESS and forgets the memory at once (a second free, a new
// handle or a copy are refused); the driver's array lives until the last handle is destroyed.
START_TEST(freed_memory_outlives_its_handles) {
    CUresult (*describe)(CUDA_ARRAY3D_DESCRIPTOR *, CUarray) = NULL;
    void *lib = driver();
    ck_assert_ptr_nonnull(lib);
    *(void **)&describe = dlsym(lib, "cuArray3DGetDescriptor_v2");
    ck_assert_ptr_nonnull(describe);
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 8, 8, 0, 0, 1);
    ur_exp_image_mem_native_handle_t m = urc_test_image_alloc(T.context, T.device, &rgba32f, &d);
    ur_exp_image_native_handle_t surf = 0, tex = 0;
    ck_assert_ur_ok(
        urBindlessImagesUnsampledImageCreateExp(T.context, T.device, m, &rgba32f, &d, &surf));
    ur_sampler_desc_t sd = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, false,
                            UR_SAMPLER_ADDRESSING_MODE_CLAMP, UR_SAMPLER_FILTER_MODE_NEAREST};
    ck_assert_ur_ok(
        urBindlessImagesSampledImageCreateExp(T.context, T.device, m, &rgba32f, &d, &sd, &tex));
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, m));
    ck_assert_ur(urBindlessImagesImageFreeExp(T.context, T.device, m),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ur_exp_image_native_handle_t more = 0;
    ck_assert_ur(
        urBindlessImagesUnsampledImageCreateExp(T.context, T.device, m, &rgba32f, &d, &more),
        UR_RESULT_ERROR_INVALID_VALUE);
    CUDA_ARRAY3D_DESCRIPTOR ad;
    ck_assert_int_eq(describe(&ad, (CUarray)m), CUDA_SUCCESS); // still there for the handles
    ck_assert_ur_ok(urBindlessImagesUnsampledImageHandleDestroyExp(T.context, T.device, surf));
    ck_assert_int_eq(describe(&ad, (CUarray)m), CUDA_SUCCESS); // the texture still holds it
    ck_assert_ur_ok(urBindlessImagesSampledImageHandleDestroyExp(T.context, T.device, tex));
    if (on_simulator()) // the real driver may hand the value out again at once
        ck_assert_int_ne(describe(&ad, (CUarray)m), CUDA_SUCCESS);
    // Without handles, the free destroys at once.
    m = urc_test_image_alloc(T.context, T.device, &rgba32f, &d);
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, m));
    if (on_simulator())
        ck_assert_int_ne(describe(&ad, (CUarray)m), CUDA_SUCCESS);
}
END_TEST

enum { EXT_SIZE = 2 << 20 }; // one 2 MiB granule, the H100's allocation granularity

static uint8_t ext_pattern(size_t i) {
    return (uint8_t)(i * 31 + 7);
}

// A file descriptor of EXT_SIZE bytes holding ext_pattern: on the simulator a memfd, on a GPU
// device memory exported by cuMemExportToShareableHandle (-1 when the driver cannot).
static int exported_memory(void) {
    if (on_simulator()) {
        int fd = memfd_create("urc_bindless_test", MFD_CLOEXEC);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(ftruncate(fd, EXT_SIZE), 0);
        uint8_t *p = mmap(NULL, EXT_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        ck_assert(p != MAP_FAILED);
        for (size_t i = 0; i < EXT_SIZE; ++i)
            p[i] = ext_pattern(i);
        munmap(p, EXT_SIZE);
        return fd;
    }
    void *lib = driver();
    PFN_cuMemCreate_v10020 create = (PFN_cuMemCreate_v10020)dlsym(lib, "cuMemCreate");
    PFN_cuMemExportToShareableHandle_v10020 export_ =
        (PFN_cuMemExportToShareableHandle_v10020)dlsym(lib, "cuMemExportToShareableHandle");
    PFN_cuMemAddressReserve_v10020 reserve =
        (PFN_cuMemAddressReserve_v10020)dlsym(lib, "cuMemAddressReserve");
    PFN_cuMemMap_v10020 map = (PFN_cuMemMap_v10020)dlsym(lib, "cuMemMap");
    PFN_cuMemSetAccess_v10020 access = (PFN_cuMemSetAccess_v10020)dlsym(lib, "cuMemSetAccess");
    PFN_cuMemcpyHtoD_v3020 htod = (PFN_cuMemcpyHtoD_v3020)dlsym(lib, "cuMemcpyHtoD_v2");
    if (!create || !export_ || !reserve || !map || !access || !htod)
        return -1;
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    CUmemGenericAllocationHandle h;
    if (create(&h, EXT_SIZE, &prop, 0) != CUDA_SUCCESS)
        return -1;
    // Written through a mapping of our own; the allocation lives on in the exported fd.
    CUdeviceptr va = 0;
    CUmemAccessDesc rw = {{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
    static uint8_t bytes[EXT_SIZE];
    for (size_t i = 0; i < EXT_SIZE; ++i)
        bytes[i] = ext_pattern(i);
    int fd = -1;
    if (reserve(&va, EXT_SIZE, 0, 0, 0) != CUDA_SUCCESS ||
        map(va, EXT_SIZE, 0, h, 0) != CUDA_SUCCESS ||
        access(va, EXT_SIZE, &rw, 1) != CUDA_SUCCESS || htod(va, bytes, EXT_SIZE) != CUDA_SUCCESS ||
        export_(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0) != CUDA_SUCCESS)
        return -1;
    return fd;
}

START_TEST(external_memory_maps_as_linear_memory_and_images) {
    ur_bool_t yes = false;
    ck_assert_ur_ok(urBindlessImagesSupportsImportingHandleTypeExp(
        T.device, UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, &yes));
    ck_assert(yes);
    ck_assert_ur_ok(urBindlessImagesSupportsImportingHandleTypeExp(
        T.device, UR_EXP_EXTERNAL_MEM_TYPE_WIN32_NT, &yes));
    ck_assert(!yes);
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_EXTERNAL_MEMORY_IMPORT_SUPPORT_EXP,
                                    sizeof yes, &yes, NULL));
    ck_assert(yes);
    ur_exp_external_mem_desc_t bare = {UR_STRUCTURE_TYPE_EXP_EXTERNAL_MEM_DESC, NULL};
    ur_exp_external_mem_handle_t ext = NULL;
    ck_assert_ur(urBindlessImagesImportExternalMemoryExp(T.context, T.device, EXT_SIZE,
                                                         UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, &bare,
                                                         &ext),
                 UR_RESULT_ERROR_INVALID_VALUE); // no file descriptor on the chain
    ck_assert_ur(urBindlessImagesImportExternalMemoryExp(
                     T.context, T.device, EXT_SIZE, UR_EXP_EXTERNAL_MEM_TYPE_WIN32_NT, &bare, &ext),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    int fd = exported_memory();
    if (fd < 0) {
        fprintf(stderr, "note: this driver exports no memory as a file descriptor; the external "
                        "memory case was not run\n");
        return;
    }
    ur_exp_file_descriptor_t file = {UR_STRUCTURE_TYPE_EXP_FILE_DESCRIPTOR, NULL, fd};
    ur_exp_external_mem_desc_t ed = {UR_STRUCTURE_TYPE_EXP_EXTERNAL_MEM_DESC, &file};
    ur_result_t r = urBindlessImagesImportExternalMemoryExp(
        T.context, T.device, EXT_SIZE, UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, &ed, &ext);
    if (r != UR_RESULT_SUCCESS && !on_simulator()) {
        // What CUDA takes as an opaque fd is the driver's business; say what this one said.
        fprintf(stderr, "note: importing a cuMemExportToShareableHandle fd as OPAQUE_FD: %s\n",
                urc_test_result_name(r));
        close(fd);
        return;
    }
    ck_assert_ur_ok(r);
    // Linear memory: a window at an offset reads what the exporter wrote.
    void *p = NULL;
    ck_assert_ur(urBindlessImagesMapExternalLinearMemoryExp(T.context, T.device, EXT_SIZE - 64, 128,
                                                            ext, &p),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(
        urBindlessImagesMapExternalLinearMemoryExp(T.context, T.device, 4096, 8192, ext, &p));
    uint8_t back[8192];
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, back, p, sizeof back, 0, NULL, NULL));
    for (size_t i = 0; i < sizeof back; ++i)
        ck_assert_msg(back[i] == ext_pattern(4096 + i), "byte %zu: %u", i, back[i]);
    ck_assert_ur_ok(urBindlessImagesFreeMappedLinearMemoryExp(T.context, T.device, p));
    ck_assert_ur(urBindlessImagesFreeMappedLinearMemoryExp(T.context, T.device, p),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Image memory: one level is an array (ImageFreeExp), several a mipmap (MipmapFreeExp).
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 64, 32, 0, 0, 1);
    ur_exp_image_mem_native_handle_t img = 0;
    r = urBindlessImagesMapExternalArrayExp(T.context, T.device, &r8, &d, ext, &img);
    if (r != UR_RESULT_SUCCESS && !on_simulator()) {
        // Whether memory exported this way maps as an array is the driver's business too.
        fprintf(stderr, "note: mapping the imported memory as an array: %s\n",
                urc_test_result_name(r));
        ck_assert_ur_ok(urBindlessImagesReleaseExternalMemoryExp(T.context, T.device, ext));
        return;
    }
    ck_assert_ur_ok(r);
    ck_assert_uint_eq(info_size(img, UR_IMAGE_INFO_WIDTH), 64);
    ur_exp_image_native_handle_t surf = 0;
    ck_assert_ur_ok(
        urBindlessImagesUnsampledImageCreateExp(T.context, T.device, img, &r8, &d, &surf));
    ck_assert_ur_ok(urBindlessImagesUnsampledImageHandleDestroyExp(T.context, T.device, surf));
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, img));
    d.numMipLevel = 2;
    ck_assert_ur_ok(urBindlessImagesMapExternalArrayExp(T.context, T.device, &r8n, &d, ext, &img));
    ur_exp_image_mem_native_handle_t level = 0;
    ck_assert_ur_ok(urBindlessImagesMipmapGetLevelExp(T.context, T.device, img, 1, &level));
    ck_assert_uint_eq(info_size(level, UR_IMAGE_INFO_WIDTH), 32);
    ck_assert_ur_ok(urBindlessImagesMipmapFreeExp(T.context, T.device, img));
    ck_assert_ur_ok(urBindlessImagesReleaseExternalMemoryExp(T.context, T.device, ext));
}
END_TEST

START_TEST(external_semaphores_order_queue_work) {
    ur_bool_t yes = false;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_EXTERNAL_SEMAPHORE_IMPORT_SUPPORT_EXP,
                                    sizeof yes, &yes, NULL));
    ck_assert(yes);
    int fd = memfd_create("urc_bindless_semaphore", MFD_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    ur_exp_file_descriptor_t file = {UR_STRUCTURE_TYPE_EXP_FILE_DESCRIPTOR, NULL, fd};
    ur_exp_external_semaphore_desc_t sd = {UR_STRUCTURE_TYPE_EXP_EXTERNAL_SEMAPHORE_DESC, &file};
    ur_exp_external_semaphore_handle_t sem = NULL;
    ur_result_t r = urBindlessImagesImportExternalSemaphoreExp(
        T.context, T.device, UR_EXP_EXTERNAL_SEMAPHORE_TYPE_OPAQUE_FD, &sd, &sem);
    if (!on_simulator()) {
        // A real driver takes only a semaphore another API exported (Vulkan, which is not
        // here): a plain file is refused with an error, not a crash.
        ck_assert_int_ne(r, UR_RESULT_SUCCESS);
        close(fd);
        return;
    }
    ck_assert_ur_ok(r);
    // Binary: signal, then a wait that consumes it, in queue order; both leave events.
    ur_event_handle_t ev[2] = {NULL, NULL};
    ck_assert_ur(urBindlessImagesSignalExternalSemaphoreExp(T.queue, sem, true, 1, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE); // a binary semaphore has no value
    ck_assert_ur_ok(
        urBindlessImagesSignalExternalSemaphoreExp(T.queue, sem, false, 0, 0, NULL, &ev[0]));
    ck_assert_ur_ok(
        urBindlessImagesWaitExternalSemaphoreExp(T.queue, sem, false, 0, 0, NULL, &ev[1]));
    ck_assert_ur_ok(urEventWait(2, ev));
    ck_assert_int_eq(cudat_event_command(ev[0]), UR_COMMAND_EXTERNAL_SEMAPHORE_SIGNAL_EXP);
    ck_assert_int_eq(cudat_event_command(ev[1]), UR_COMMAND_EXTERNAL_SEMAPHORE_WAIT_EXP);
    ck_assert_ur_ok(urEventRelease(ev[0]));
    ck_assert_ur_ok(urEventRelease(ev[1]));
    ck_assert_ur_ok(urBindlessImagesReleaseExternalSemaphoreExp(T.context, T.device, sem));
    // Timeline: a wait for 3 passes once 5 is signalled.
    fd = memfd_create("urc_bindless_timeline", MFD_CLOEXEC);
    file.fd = fd;
    ck_assert_ur_ok(urBindlessImagesImportExternalSemaphoreExp(
        T.context, T.device, UR_EXP_EXTERNAL_SEMAPHORE_TYPE_TIMELINE_FD, &sd, &sem));
    ck_assert_ur_ok(
        urBindlessImagesSignalExternalSemaphoreExp(T.queue, sem, true, 5, 0, NULL, NULL));
    ck_assert_ur_ok(urBindlessImagesWaitExternalSemaphoreExp(T.queue, sem, true, 3, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urBindlessImagesReleaseExternalSemaphoreExp(T.context, T.device, sem));
    ck_assert_ur(urBindlessImagesImportExternalSemaphoreExp(
                     T.context, T.device, UR_EXP_EXTERNAL_SEMAPHORE_TYPE_WIN32_NT, &sd, &sem),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
}
END_TEST

// What the adapter can tell of an import before the driver sees it: a semaphore's descriptor
// must be open and name no kernel memory device (/dev/null once imported as a semaphore on the
// simulator), an image mapped from imported memory must fit in it (the simulator made a fresh
// array of any size), and a wait or signal's wait list must agree with its count (a NULL list
// of one event was read).
START_TEST(external_imports_are_checked_before_the_driver) {
    int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    ck_assert_int_ge(null_fd, 0);
    int closed = dup(null_fd);
    ck_assert_int_ge(closed, 0);
    close(closed);
    ur_exp_file_descriptor_t file = {UR_STRUCTURE_TYPE_EXP_FILE_DESCRIPTOR, NULL, null_fd};
    ur_exp_external_semaphore_desc_t sd = {UR_STRUCTURE_TYPE_EXP_EXTERNAL_SEMAPHORE_DESC, &file};
    ur_exp_external_semaphore_handle_t sem = NULL;
    ck_assert_ur(urBindlessImagesImportExternalSemaphoreExp(
                     T.context, T.device, UR_EXP_EXTERNAL_SEMAPHORE_TYPE_OPAQUE_FD, &sd, &sem),
                 UR_RESULT_ERROR_INVALID_VALUE);
    file.fd = closed;
    ck_assert_ur(urBindlessImagesImportExternalSemaphoreExp(
                     T.context, T.device, UR_EXP_EXTERNAL_SEMAPHORE_TYPE_OPAQUE_FD, &sd, &sem),
                 UR_RESULT_ERROR_INVALID_VALUE);
    close(null_fd);
    if (!on_simulator())
        return; // a real driver imports only what another API exported
    file.fd = memfd_create("urc_bindless_semaphore", MFD_CLOEXEC);
    ck_assert_ur_ok(urBindlessImagesImportExternalSemaphoreExp(
        T.context, T.device, UR_EXP_EXTERNAL_SEMAPHORE_TYPE_OPAQUE_FD, &sd, &sem));
    ck_assert_ur(urBindlessImagesSignalExternalSemaphoreExp(T.queue, sem, false, 0, 1, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    ck_assert_ur(urBindlessImagesWaitExternalSemaphoreExp(T.queue, sem, false, 0, 1, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_EVENT_WAIT_LIST);
    // Imported memory is refused where a semaphore is expected, and the other way round.
    ur_exp_external_mem_handle_t ext = NULL;
    int fd = exported_memory();
    file.fd = fd;
    ur_exp_external_mem_desc_t ed = {UR_STRUCTURE_TYPE_EXP_EXTERNAL_MEM_DESC, &file};
    ck_assert_ur_ok(urBindlessImagesImportExternalMemoryExp(
        T.context, T.device, EXT_SIZE, UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, &ed, &ext));
    ck_assert_ur(urBindlessImagesWaitExternalSemaphoreExp(
                     T.queue, (ur_exp_external_semaphore_handle_t)ext, false, 0, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urBindlessImagesReleaseExternalMemoryExp(T.context, T.device,
                                                          (ur_exp_external_mem_handle_t)sem),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urMemRetain((ur_mem_handle_t)ext), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    // 2048 x 2048 bytes do not fit the 2 MiB imported; a mapping of no bytes is refused.
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 2048, 2048, 0, 0, 1);
    ur_exp_image_mem_native_handle_t img = 0;
    ck_assert_ur(urBindlessImagesMapExternalArrayExp(T.context, T.device, &r8, &d, ext, &img),
                 UR_RESULT_ERROR_INVALID_VALUE);
    void *p = NULL;
    ck_assert_ur(urBindlessImagesMapExternalLinearMemoryExp(T.context, T.device, 0, 0, ext, &p),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urBindlessImagesReleaseExternalMemoryExp(T.context, T.device, ext));
    ck_assert_ur_ok(urBindlessImagesReleaseExternalSemaphoreExp(T.context, T.device, sem));
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda bindless images");
    TCase *tc = cudat_tcase("urBindlessImagesImageAllocateExp");
    tcase_add_test(tc, every_shape_allocates_answers_info_and_round_trips_a_box);
    tcase_add_test(tc, mipmaps_have_levels_to_copy_sample_and_free);
    tcase_add_test(tc, refusals_get_clear_results);
    tcase_add_test(tc, freed_memory_outlives_its_handles);
    tcase_add_test(tc, support_queries_and_device_infos_agree);
    tcase_add_test(tc, threads_make_and_free_images_at_once);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urBindlessImagesImageCopyExp");
    tcase_add_test(tc, copies_between_images_pitched_usm_and_host);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urBindlessImagesSampledImageCreateExp");
    tcase_add_test(tc, kernels_sample_images_through_sampled_handles);
    tcase_add_test(tc, kernels_sample_pitched_usm_through_sampled_handles);
    tcase_add_test(tc, kernels_write_and_read_through_unsampled_handles);
    tcase_add_test(tc, kernels_read_mip_levels_and_integer_3d_textures);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("urBindlessImagesImportExternalMemoryExp");
    tcase_add_test(tc, external_memory_maps_as_linear_memory_and_images);
    tcase_add_test(tc, external_semaphores_order_queue_work);
    tcase_add_test(tc, external_imports_are_checked_before_the_driver);
    suite_add_tcase(s, tc);
    return cudat_main(s, true);
}
