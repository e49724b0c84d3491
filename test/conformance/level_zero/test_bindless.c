// SPDX-License-Identifier: MIT
// Bindless images of the Level Zero adapter (urBindlessImages*Exp) over the simulated driver:
// image memory in every shape Level Zero has, its info, unsampled and sampled handles (device
// offsets) over image memory and over pitched USM, copies in every direction between host
// memory, images and USM with sub-boxes and the bytes checked, refusals of values never made,
// freed or of the wrong kind, what Level Zero cannot do (mipmaps, cubemaps, semaphores),
// external memory (a memfd) mapped as linear memory and as an image, support queries and device
// queries, four threads at once. The simulated driver cannot run image instructions in kernels, so
// nothing here samples or writes an image from device code; on real Intel hardware (which this
// project has never had) that is the driver's part.
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "l0t.h"

static const ur_image_format_t rgba8 = {UR_IMAGE_CHANNEL_ORDER_RGBA,
                                        UR_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8};
static const ur_image_format_t r32f = {UR_IMAGE_CHANNEL_ORDER_R, UR_IMAGE_CHANNEL_TYPE_FLOAT};

static ur_image_desc_t desc(ur_mem_type_t type, size_t w, size_t h, size_t d, size_t layers) {
    ur_image_desc_t x = {UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, type, w, h, d, layers, 0, 0, 0, 0};
    return x;
}

static const ur_mem_type_t shapes[] = {UR_MEM_TYPE_IMAGE1D, UR_MEM_TYPE_IMAGE1D_ARRAY,
                                       UR_MEM_TYPE_IMAGE2D, UR_MEM_TYPE_IMAGE2D_ARRAY,
                                       UR_MEM_TYPE_IMAGE3D};

// A small image of each shape; its box (x elements, rows, slices or layers) in `e`.
static ur_image_desc_t shape(ur_mem_type_t t, size_t e[3]) {
    e[0] = 6, e[1] = 1, e[2] = 1;
    switch (t) {
    case UR_MEM_TYPE_IMAGE1D_ARRAY:
        e[2] = 3;
        return desc(t, 6, 0, 0, 3);
    case UR_MEM_TYPE_IMAGE2D:
        e[1] = 4;
        return desc(t, 6, 4, 0, 0);
    case UR_MEM_TYPE_IMAGE2D_ARRAY:
        e[1] = 4, e[2] = 2;
        return desc(t, 6, 4, 0, 2);
    case UR_MEM_TYPE_IMAGE3D:
        e[1] = 4, e[2] = 3;
        return desc(t, 6, 4, 3, 0);
    default:
        return desc(t, 6, 0, 0, 0);
    }
}

static ur_result_t copy(const void *src, void *dst, const ur_image_desc_t *sd,
                        const ur_image_desc_t *dd, const ur_image_format_t *f,
                        ur_exp_image_copy_region_t r, ur_exp_image_copy_flags_t flags,
                        ur_exp_image_copy_input_types_t types, ur_event_handle_t *ev) {
    return urBindlessImagesImageCopyExp(T.queue, src, dst, sd, dd, f, f, &r, flags, types, 0, NULL,
                                        ev);
}

static uint8_t pattern(size_t i) {
    return (uint8_t)(i * 13 + 5);
}

static size_t info_size(ur_exp_image_mem_native_handle_t m, ur_image_info_t prop) {
    size_t v = 12345;
    ck_assert_ur_ok(urBindlessImagesImageGetInfoExp(T.context, m, prop, &v, NULL));
    return v;
}

START_TEST(device_reports_what_level_zero_offers) {
    static const ur_device_info_t yes[] = {
        UR_DEVICE_INFO_BINDLESS_IMAGES_SUPPORT_EXP,
        UR_DEVICE_INFO_BINDLESS_IMAGES_SHARED_USM_SUPPORT_EXP,
        UR_DEVICE_INFO_BINDLESS_IMAGES_2D_USM_SUPPORT_EXP,
        UR_DEVICE_INFO_BINDLESS_SAMPLE_2D_USM_SUPPORT_EXP,
        UR_DEVICE_INFO_IMAGE_ARRAY_SUPPORT_EXP,
        UR_DEVICE_INFO_BINDLESS_SAMPLED_IMAGE_FETCH_2D_SUPPORT_EXP,
        UR_DEVICE_INFO_EXTERNAL_MEMORY_IMPORT_SUPPORT_EXP};
    static const ur_device_info_t no[] = {
        UR_DEVICE_INFO_MIPMAP_SUPPORT_EXP,
        UR_DEVICE_INFO_MIPMAP_LEVEL_REFERENCE_SUPPORT_EXP,
        UR_DEVICE_INFO_CUBEMAP_SUPPORT_EXP,
        UR_DEVICE_INFO_BINDLESS_IMAGES_GATHER_SUPPORT_EXP,
        UR_DEVICE_INFO_BINDLESS_IMAGES_1D_USM_SUPPORT_EXP,
        UR_DEVICE_INFO_BINDLESS_UNIQUE_ADDRESSING_PER_DIM_SUPPORT_EXP,
        UR_DEVICE_INFO_EXTERNAL_SEMAPHORE_IMPORT_SUPPORT_EXP};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; ++i) {
        ur_bool_t b = false;
        ck_assert_ur_ok(urDeviceGetInfo(T.device, yes[i], sizeof b, &b, NULL));
        ck_assert_msg(b, "device info %#x", (unsigned)yes[i]);
    }
    for (size_t i = 0; i < sizeof no / sizeof no[0]; ++i) {
        ur_bool_t b = true;
        ck_assert_ur_ok(urDeviceGetInfo(T.device, no[i], sizeof b, &b, NULL));
        ck_assert_msg(!b, "device info %#x", (unsigned)no[i]);
    }
}
END_TEST

// Every shape: info, both kinds of handle (distinct device offsets), and a sub-box written
// from the host, copied to a second image and read back with a wide host pitch.
START_TEST(every_shape_round_trips_through_two_images) {
    ur_mem_type_t t = shapes[_i];
    size_t e[3];
    ur_image_desc_t d = shape(t, e);
    ur_exp_image_mem_native_handle_t a = urc_test_image_alloc(T.context, T.device, &rgba8, &d),
                                     b = urc_test_image_alloc(T.context, T.device, &rgba8, &d);
    ck_assert_uint_eq(info_size(a, UR_IMAGE_INFO_WIDTH), 6);
    ck_assert_uint_eq(info_size(a, UR_IMAGE_INFO_HEIGHT), d.height);
    ck_assert_uint_eq(info_size(a, UR_IMAGE_INFO_DEPTH), d.depth);
    ck_assert_uint_eq(info_size(a, UR_IMAGE_INFO_ARRAY_SIZE), d.arraySize);
    ck_assert_uint_eq(info_size(a, UR_IMAGE_INFO_ELEMENT_SIZE), 4);
    ur_image_format_t f;
    ck_assert_ur_ok(urBindlessImagesImageGetInfoExp(T.context, a, UR_IMAGE_INFO_FORMAT, &f, NULL));
    ck_assert_int_eq(f.channelType, rgba8.channelType);

    ur_exp_image_native_handle_t u = 0, s = 0;
    ck_assert_ur_ok(
        urBindlessImagesUnsampledImageCreateExp(T.context, T.device, a, &rgba8, &d, &u));
    ur_sampler_desc_t sd = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, true,
                            UR_SAMPLER_ADDRESSING_MODE_CLAMP, UR_SAMPLER_FILTER_MODE_LINEAR};
    ck_assert_ur_ok(
        urBindlessImagesSampledImageCreateExp(T.context, T.device, a, &rgba8, &d, &sd, &s));
    ck_assert(u != 0 && s != 0 && u != s);

    // The whole image from the host, tight.
    size_t es = 4, bytes = e[0] * e[1] * e[2] * es;
    uint8_t *src = malloc(bytes), *back = malloc(bytes * 4);
    for (size_t i = 0; i < bytes; ++i)
        src[i] = pattern(i);
    ur_image_desc_t host = d;
    ck_assert_ur_ok(copy(src, (void *)a, &host, &d, &rgba8,
                         urc_test_copy_region(0, 0, 0, 0, 0, 0, e[0] * es, e[1], e[2]),
                         UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE,
                         UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE, NULL));
    // Image to image: the box from x 1, row 1 (where there are rows), the last slice.
    size_t w = e[0] - 1, h = e[1] > 1 ? e[1] - 1 : 1, y = e[1] > 1 ? 1 : 0, z = e[2] - 1;
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(copy((void *)a, (void *)b, &d, &d, &rgba8,
                         urc_test_copy_region(es, y, z, 0, 0, 0, w * es, h, 1),
                         UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_DEVICE,
                         UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_IMAGE, &ev));
    ck_assert_int_eq(l0t_command(ev), UR_COMMAND_MEM_IMAGE_COPY);
    ck_assert_ur_ok(urEventRelease(ev));
    // Back to the host with rows 3 elements wider than the box.
    ur_image_desc_t wide = desc(UR_MEM_TYPE_IMAGE2D, w, h, 0, 0);
    wide.rowPitch = (w + 3) * es;
    memset(back, 0xEE, bytes * 4);
    ck_assert_ur_ok(copy(
        (void *)b, back, &d, &wide, &rgba8, urc_test_copy_region(0, 0, 0, 0, 0, 0, w * es, h, 1),
        UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST, UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_MEM, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    for (size_t r = 0; r < h; ++r)
        for (size_t x = 0; x < w * es; ++x) {
            size_t from = ((z * e[1] + y + r) * e[0] + 1) * es + x;
            ck_assert_msg(back[r * wide.rowPitch + x] == src[from], "shape %d row %zu byte %zu",
                          (int)t, r, x);
        }
    ck_assert_uint_eq(back[w * es], 0xEE); // the padding is left alone

    ck_assert_ur_ok(urBindlessImagesUnsampledImageHandleDestroyExp(T.context, T.device, u));
    ck_assert_ur_ok(urBindlessImagesSampledImageHandleDestroyExp(T.context, T.device, s));
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, a));
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, b));
    free(src);
    free(back);
}
END_TEST

// Pitched USM: host to USM and USM to an image (memory copies at the driver's pitch), an image
// and a sampled handle over the USM itself, and an image copied into the USM seen through it.
START_TEST(pitched_usm_holds_images) {
    const size_t w = 5, h = 3, es = 4;
    void *usm = NULL;
    size_t pitch = 0;
    ck_assert_ur_ok(
        urUSMPitchedAllocExp(T.context, T.device, NULL, NULL, w * es, h, es, &usm, &pitch));
    ck_assert_uint_ge(pitch, w * es);
    ur_image_desc_t host = desc(UR_MEM_TYPE_IMAGE2D, w, h, 0, 0);
    ur_image_desc_t pd = host;
    pd.rowPitch = pitch;
    float src[15], back[15], mid[15];
    for (size_t i = 0; i < 15; ++i)
        src[i] = (float)i * 1.5f;
    ck_assert_ur_ok(copy(
        src, usm, &host, &pd, &r32f, urc_test_copy_region(0, 0, 0, 0, 0, 0, w * es, h, 1),
        UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE, UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_MEM, NULL));
    ur_exp_image_mem_native_handle_t img = urc_test_image_alloc(T.context, T.device, &r32f, &host);
    ck_assert_ur_ok(copy(
        usm, (void *)img, &pd, &host, &r32f, urc_test_copy_region(0, 0, 0, 0, 0, 0, w * es, h, 1),
        UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_DEVICE, UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE, NULL));
    ck_assert_ur_ok(copy((void *)img, back, &host, &host, &r32f,
                         urc_test_copy_region(0, 0, 0, 0, 0, 0, w * es, h, 1),
                         UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST,
                         UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_MEM, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_mem_eq(back, src, sizeof src);

    // Handles over the USM (a pitch of 0 means the driver's); a wrong pitch is refused.
    ur_exp_image_native_handle_t u = 0, s = 0;
    ck_assert_ur_ok(urBindlessImagesUnsampledImageCreateExp(T.context, T.device, (uintptr_t)usm,
                                                            &r32f, &pd, &u));
    ur_sampler_desc_t sd = {UR_STRUCTURE_TYPE_SAMPLER_DESC, NULL, false,
                            UR_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE,
                            UR_SAMPLER_FILTER_MODE_NEAREST};
    ck_assert_ur_ok(urBindlessImagesSampledImageCreateExp(T.context, T.device, (uintptr_t)usm,
                                                          &r32f, &host, &sd, &s));
    ur_image_desc_t bad = pd;
    bad.rowPitch = pitch + 4;
    ur_exp_image_native_handle_t x = 0;
    ck_assert_ur(urBindlessImagesUnsampledImageCreateExp(T.context, T.device, (uintptr_t)usm, &r32f,
                                                         &bad, &x),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    ur_image_desc_t one = desc(UR_MEM_TYPE_IMAGE1D, w, 0, 0, 0);
    ck_assert_ur(urBindlessImagesUnsampledImageCreateExp(T.context, T.device, (uintptr_t)usm, &r32f,
                                                         &one, &x),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);

    // Device to device back into the USM, a box at (1, 1): the bytes land at the pitch.
    for (size_t i = 0; i < 15; ++i)
        mid[i] = -1.0f;
    ck_assert_ur_ok(copy(
        mid, (void *)img, &host, &host, &r32f, urc_test_copy_region(0, 0, 0, 0, 0, 0, w * es, h, 1),
        UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE, UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE, NULL));
    ck_assert_ur_ok(copy(
        (void *)img, usm, &host, &pd, &r32f, urc_test_copy_region(0, 0, 0, es, 1, 0, 2 * es, 2, 1),
        UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_DEVICE, UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_MEM, NULL));
    ck_assert_ur_ok(copy(
        usm, back, &pd, &host, &r32f, urc_test_copy_region(0, 0, 0, 0, 0, 0, w * es, h, 1),
        UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST, UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_MEM, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    for (size_t r = 0; r < h; ++r)
        for (size_t c = 0; c < w; ++c) {
            bool inside = r >= 1 && c >= 1 && c < 3;
            ck_assert_msg(back[r * w + c] == (inside ? -1.0f : src[r * w + c]), "(%zu, %zu)", c, r);
        }

    ck_assert_ur_ok(urBindlessImagesUnsampledImageHandleDestroyExp(T.context, T.device, u));
    ck_assert_ur_ok(urBindlessImagesSampledImageHandleDestroyExp(T.context, T.device, s));
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, img));
    ck_assert_ur_ok(urUSMFree(T.context, usm));
}
END_TEST

// Host to host copies memory only, at both pitches.
START_TEST(host_to_host_copies_boxes) {
    uint8_t src[4 * 3 * 4], dst[8 * 3 * 4];
    for (size_t i = 0; i < sizeof src; ++i)
        src[i] = pattern(i);
    memset(dst, 0, sizeof dst);
    ur_image_desc_t sd = desc(UR_MEM_TYPE_IMAGE2D, 4, 3, 0, 0), dd = sd;
    dd.rowPitch = 8 * 4;
    ck_assert_ur_ok(
        copy(src, dst, &sd, &dd, &rgba8, urc_test_copy_region(4, 1, 0, 0, 0, 0, 8, 2, 1),
             UR_EXP_IMAGE_COPY_FLAG_HOST_TO_HOST, UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_MEM, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    for (size_t r = 0; r < 2; ++r)
        ck_assert_mem_eq(dst + r * 32, src + (r + 1) * 16 + 4, 8);
}
END_TEST

START_TEST(refusals_get_clear_results) {
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 4, 4, 0, 0);
    ur_exp_image_mem_native_handle_t m = urc_test_image_alloc(T.context, T.device, &rgba8, &d),
                                     bogus = 0x1234;
    ur_exp_image_native_handle_t h = 0;
    uint8_t host[64] = {0};
    // Values never made, freed, or of the other kind.
    ck_assert_ur(urBindlessImagesImageFreeExp(T.context, T.device, bogus),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(
        urBindlessImagesUnsampledImageCreateExp(T.context, T.device, bogus, &rgba8, &d, &h),
        UR_RESULT_ERROR_INVALID_VALUE);
    size_t v;
    ck_assert_ur(urBindlessImagesImageGetInfoExp(T.context, bogus, UR_IMAGE_INFO_WIDTH, &v, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(copy(host, (void *)bogus, &d, &d, &rgba8,
                      urc_test_copy_region(0, 0, 0, 0, 0, 0, 16, 4, 1),
                      UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE,
                      UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(
        urBindlessImagesUnsampledImageCreateExp(T.context, T.device, m, &rgba8, &d, &h));
    ck_assert_ur(urBindlessImagesSampledImageHandleDestroyExp(T.context, T.device, h),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urBindlessImagesUnsampledImageHandleDestroyExp(T.context, T.device, 0x40000),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urBindlessImagesUnsampledImageHandleDestroyExp(T.context, T.device, h));
    ck_assert_ur(urBindlessImagesUnsampledImageHandleDestroyExp(T.context, T.device, h),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // A handle's descriptor must be the memory's.
    ur_image_desc_t other = desc(UR_MEM_TYPE_IMAGE2D, 4, 3, 0, 0);
    ck_assert_ur(
        urBindlessImagesUnsampledImageCreateExp(T.context, T.device, m, &rgba8, &other, &h),
        UR_RESULT_ERROR_INVALID_VALUE);
    // Per-dimension addressing is not Level Zero's.
    ur_exp_sampler_addr_modes_t modes = {UR_STRUCTURE_TYPE_EXP_SAMPLER_ADDR_MODES,
                                         NULL,
                                         {UR_SAMPLER_ADDRESSING_MODE_CLAMP,
                                          UR_SAMPLER_ADDRESSING_MODE_REPEAT,
                                          UR_SAMPLER_ADDRESSING_MODE_CLAMP}};
    ur_sampler_desc_t sd = {UR_STRUCTURE_TYPE_SAMPLER_DESC, &modes, true,
                            UR_SAMPLER_ADDRESSING_MODE_CLAMP, UR_SAMPLER_FILTER_MODE_NEAREST};
    ck_assert_ur(urBindlessImagesSampledImageCreateExp(T.context, T.device, m, &rgba8, &d, &sd, &h),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    // Boxes outside a side, bad directions, a host side called an image.
    ck_assert_ur(copy(host, (void *)m, &d, &d, &rgba8,
                      urc_test_copy_region(0, 0, 0, 4, 0, 0, 16, 4, 1),
                      UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE,
                      UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(copy(host, (void *)m, &d, &d, &rgba8,
                      urc_test_copy_region(0, 0, 0, 0, 0, 0, 16, 4, 1),
                      UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE | UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST,
                      UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(copy((void *)m, host, &d, &d, &rgba8,
                      urc_test_copy_region(0, 0, 0, 0, 0, 0, 16, 4, 1),
                      UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE,
                      UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_MEM, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Device memory that is not USM.
    ck_assert_ur(copy(host, (void *)m, &d, &d, &rgba8,
                      urc_test_copy_region(0, 0, 0, 0, 0, 0, 16, 4, 1),
                      UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_DEVICE,
                      UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Freed memory is gone: a second free, a handle or a copy of it are refused.
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, m));
    ck_assert_ur(urBindlessImagesImageFreeExp(T.context, T.device, m),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(urBindlessImagesUnsampledImageCreateExp(T.context, T.device, m, &rgba8, &d, &h),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur(copy(host, (void *)m, &d, &d, &rgba8,
                      urc_test_copy_region(0, 0, 0, 0, 0, 0, 16, 4, 1),
                      UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE,
                      UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE, NULL),
                 UR_RESULT_ERROR_INVALID_VALUE);
    // Arguments first.
    ck_assert_ur(urBindlessImagesImageAllocateExp(T.context, T.device, NULL, &d, &m),
                 UR_RESULT_ERROR_INVALID_NULL_POINTER);
    ck_assert_ur(urBindlessImagesImageAllocateExp(NULL, T.device, &rgba8, &d, &m),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ur_image_desc_t zero = desc(UR_MEM_TYPE_IMAGE2D, 0, 4, 0, 0);
    ck_assert_ur(urBindlessImagesImageAllocateExp(T.context, T.device, &rgba8, &zero, &m),
                 UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    // Types that are no image type, or above the last one bindless images take (CUBEMAP_EXP).
    const uint32_t types[] = {UR_MEM_TYPE_IMAGE1D_ARRAY + 1, UR_MEM_TYPE_IMAGE_CUBEMAP_EXP - 1,
                              UR_MEM_TYPE_IMAGE_GATHER_EXP, UR_MEM_TYPE_IMAGE_GATHER_EXP + 1,
                              UR_MEM_TYPE_FORCE_UINT32};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i) {
        ur_image_desc_t odd = desc((ur_mem_type_t)types[i], 4, 4, 1, 1);
        ur_result_t r = urBindlessImagesImageAllocateExp(T.context, T.device, &rgba8, &odd, &m);
        ck_assert_msg(r == UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR, "type 0x%x: %d",
                      types[i], (int)r);
    }
}
END_TEST

// Mip levels, cubemaps and external semaphores are what Level Zero does not offer.
START_TEST(what_level_zero_lacks_is_unsupported) {
    ur_image_desc_t mip = desc(UR_MEM_TYPE_IMAGE2D, 8, 8, 0, 0);
    mip.numMipLevel = 3;
    ur_exp_image_mem_native_handle_t m = 0;
    ck_assert_ur(urBindlessImagesImageAllocateExp(T.context, T.device, &rgba8, &mip, &m),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ur_image_desc_t cube = desc(UR_MEM_TYPE_IMAGE_CUBEMAP_EXP, 8, 8, 0, 6);
    ck_assert_ur(urBindlessImagesImageAllocateExp(T.context, T.device, &rgba8, &cube, &m),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur(urBindlessImagesMipmapGetLevelExp(T.context, T.device, 0x1234, 1, &m),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur(urBindlessImagesMipmapFreeExp(T.context, T.device, 0x1234),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ur_exp_external_semaphore_handle_t sem = NULL;
    ur_exp_file_descriptor_t fd = {UR_STRUCTURE_TYPE_EXP_FILE_DESCRIPTOR, NULL, 3};
    ur_exp_external_semaphore_desc_t semd = {UR_STRUCTURE_TYPE_EXP_EXTERNAL_SEMAPHORE_DESC, &fd};
    ck_assert_ur(urBindlessImagesImportExternalSemaphoreExp(
                     T.context, T.device, UR_EXP_EXTERNAL_SEMAPHORE_TYPE_OPAQUE_FD, &semd, &sem),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
}
END_TEST

// External memory: a memfd (standing in for another API's export) imported once, mapped as
// linear memory and as a 2D image; both see the file's bytes, and writes through the linear
// mapping reach the file. Refusals: Windows types, boxes past the import, released handles.
START_TEST(external_memory_maps_as_linear_memory_and_images) {
    const size_t w = 8, h = 4, bytes = 4096;
    int mfd = memfd_create("l0t_external", MFD_CLOEXEC);
    ck_assert_int_ge(mfd, 0);
    ck_assert_int_eq(ftruncate(mfd, (off_t)bytes), 0);
    uint8_t *file = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
    ck_assert_ptr_ne(file, MAP_FAILED);
    for (size_t i = 0; i < bytes; ++i)
        file[i] = pattern(i);
    ur_bool_t ok = false;
    ck_assert_ur_ok(urBindlessImagesSupportsImportingHandleTypeExp(
        T.device, UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, &ok));
    ck_assert(ok);
    ck_assert_ur_ok(urBindlessImagesSupportsImportingHandleTypeExp(
        T.device, UR_EXP_EXTERNAL_MEM_TYPE_WIN32_NT, &ok));
    ck_assert(!ok);

    ur_exp_file_descriptor_t fd = {UR_STRUCTURE_TYPE_EXP_FILE_DESCRIPTOR, NULL, mfd};
    ur_exp_external_mem_desc_t md = {UR_STRUCTURE_TYPE_EXP_EXTERNAL_MEM_DESC, &fd};
    ur_exp_external_mem_handle_t ext = NULL, bad = NULL;
    ck_assert_ur(urBindlessImagesImportExternalMemoryExp(
                     T.context, T.device, bytes, UR_EXP_EXTERNAL_MEM_TYPE_WIN32_NT, &md, &bad),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ur_ok(urBindlessImagesImportExternalMemoryExp(
        T.context, T.device, bytes, UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, &md, &ext));

    // Linear memory from byte 256: it reads the file, and a write reaches it.
    void *lin = NULL;
    ck_assert_ur(
        urBindlessImagesMapExternalLinearMemoryExp(T.context, T.device, 256, bytes, ext, &lin),
        UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(
        urBindlessImagesMapExternalLinearMemoryExp(T.context, T.device, 256, 512, ext, &lin));
    uint8_t back[512];
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, back, lin, sizeof back, 0, NULL, NULL));
    ck_assert_mem_eq(back, file + 256, sizeof back);
    uint8_t ones[16];
    memset(ones, 0x11, sizeof ones);
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, lin, ones, sizeof ones, 0, NULL, NULL));
    ck_assert_mem_eq(file + 256, ones, sizeof ones);

    // A 2D image over the file's first bytes, copied out whole.
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, w, h, 0, 0);
    ur_exp_image_mem_native_handle_t img = 0;
    ck_assert_ur_ok(
        urBindlessImagesMapExternalArrayExp(T.context, T.device, &rgba8, &d, ext, &img));
    uint8_t pixels[8 * 4 * 4];
    ck_assert_ur_ok(copy(
        (void *)img, pixels, &d, &d, &rgba8, urc_test_copy_region(0, 0, 0, 0, 0, 0, w * 4, h, 1),
        UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST, UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_MEM, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_mem_eq(pixels, file, sizeof pixels);
    ur_image_desc_t huge = desc(UR_MEM_TYPE_IMAGE2D, 64, 64, 0, 0);
    ur_exp_image_mem_native_handle_t none = 0;
    ck_assert_ur(
        urBindlessImagesMapExternalArrayExp(T.context, T.device, &rgba8, &huge, ext, &none),
        UR_RESULT_ERROR_INVALID_VALUE);

    // The mappings outlive the imported handle; each is freed once.
    ck_assert_ur_ok(urBindlessImagesReleaseExternalMemoryExp(T.context, T.device, ext));
    // A released handle is no handle: INVALID_NULL_HANDLE (docs/released-handles.md).
    ck_assert_ur(urBindlessImagesReleaseExternalMemoryExp(T.context, T.device, ext),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urBindlessImagesMapExternalLinearMemoryExp(T.context, T.device, 0, 16, ext, &lin),
                 UR_RESULT_ERROR_INVALID_NULL_HANDLE);
    ck_assert_ur(urBindlessImagesFreeMappedLinearMemoryExp(T.context, T.device, back),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urBindlessImagesFreeMappedLinearMemoryExp(T.context, T.device, lin));
    ck_assert_ur(urBindlessImagesFreeMappedLinearMemoryExp(T.context, T.device, lin),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urBindlessImagesImageFreeExp(T.context, T.device, img));
    munmap(file, bytes);
    close(mfd);
}
END_TEST

// Imported memory is a handle like any other: the loader routes a call by its first word, so
// given where another kind is expected it is refused as that kind, not read as a dispatch table
// (it once began with its context's address); released, it is still answered. A linear mapping
// of no bytes is refused, as on CUDA.
START_TEST(external_memory_is_a_handle_of_its_own_kind) {
    int mfd = memfd_create("l0t_external_kind", MFD_CLOEXEC);
    ck_assert_int_ge(mfd, 0);
    ck_assert_int_eq(ftruncate(mfd, 4096), 0);
    ur_exp_file_descriptor_t fd = {UR_STRUCTURE_TYPE_EXP_FILE_DESCRIPTOR, NULL, mfd};
    ur_exp_external_mem_desc_t md = {UR_STRUCTURE_TYPE_EXP_EXTERNAL_MEM_DESC, &fd};
    ur_exp_external_mem_handle_t ext = NULL;
    ck_assert_ur_ok(urBindlessImagesImportExternalMemoryExp(
        T.context, T.device, 4096, UR_EXP_EXTERNAL_MEM_TYPE_OPAQUE_FD, &md, &ext));
    ck_assert_ur(urMemRetain((ur_mem_handle_t)ext), UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urContextRetain((ur_context_handle_t)ext), UR_RESULT_ERROR_INVALID_CONTEXT);
    ck_assert_ur(urQueueFinish((ur_queue_handle_t)ext), UR_RESULT_ERROR_INVALID_QUEUE);
    void *lin = NULL;
    ck_assert_ur(urBindlessImagesMapExternalLinearMemoryExp(T.context, T.device, 0, 0, ext, &lin),
                 UR_RESULT_ERROR_INVALID_VALUE);
    ck_assert_ur_ok(urBindlessImagesReleaseExternalMemoryExp(T.context, T.device, ext));
    ck_assert_int_ne(urMemRetain((ur_mem_handle_t)ext), UR_RESULT_SUCCESS);
    close(mfd);
}
END_TEST

START_TEST(support_queries_follow_level_zero) {
    struct {
        ur_image_desc_t d;
        ur_exp_image_mem_type_t kind;
        bool want;
    } cases[] = {
        {desc(UR_MEM_TYPE_IMAGE2D, 16, 16, 0, 0), UR_EXP_IMAGE_MEM_TYPE_OPAQUE_HANDLE, true},
        {desc(UR_MEM_TYPE_IMAGE3D, 16, 16, 4, 0), UR_EXP_IMAGE_MEM_TYPE_OPAQUE_HANDLE, true},
        {desc(UR_MEM_TYPE_IMAGE1D_ARRAY, 16, 0, 0, 4), UR_EXP_IMAGE_MEM_TYPE_OPAQUE_HANDLE, true},
        {desc(UR_MEM_TYPE_IMAGE2D, 16, 16, 0, 0), UR_EXP_IMAGE_MEM_TYPE_USM_POINTER, true},
        {desc(UR_MEM_TYPE_IMAGE1D, 16, 0, 0, 0), UR_EXP_IMAGE_MEM_TYPE_USM_POINTER, false},
        {desc(UR_MEM_TYPE_IMAGE_CUBEMAP_EXP, 16, 16, 0, 6), UR_EXP_IMAGE_MEM_TYPE_OPAQUE_HANDLE,
         false},
        {desc(UR_MEM_TYPE_IMAGE2D, 1u << 20, 16, 0, 0), UR_EXP_IMAGE_MEM_TYPE_OPAQUE_HANDLE, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        ur_bool_t a = !cases[i].want, b = !cases[i].want, c = !cases[i].want;
        ck_assert_ur_ok(urBindlessImagesGetImageMemoryHandleTypeSupportExp(
            T.context, T.device, &cases[i].d, &rgba8, cases[i].kind, &a));
        ck_assert_ur_ok(urBindlessImagesGetImageUnsampledHandleSupportExp(
            T.context, T.device, &cases[i].d, &rgba8, cases[i].kind, &b));
        ck_assert_ur_ok(urBindlessImagesGetImageSampledHandleSupportExp(
            T.context, T.device, &cases[i].d, &rgba8, cases[i].kind, &c));
        ck_assert_msg(a == cases[i].want && b == cases[i].want && c == cases[i].want, "case %zu",
                      i);
    }
    ur_image_desc_t mip = desc(UR_MEM_TYPE_IMAGE2D, 16, 16, 0, 0);
    mip.numMipLevel = 2;
    ur_bool_t a = true;
    ck_assert_ur_ok(urBindlessImagesGetImageMemoryHandleTypeSupportExp(
        T.context, T.device, &mip, &rgba8, UR_EXP_IMAGE_MEM_TYPE_OPAQUE_HANDLE, &a));
    ck_assert(!a);
}
END_TEST

// Four threads make, copy through and free images and handles at once on one queue; each
// checks its own bytes and that its handles stay distinct from the others'.
enum { THREADS = 4, ROUNDS = 25 };

static void *image_worker(void *arg) {
    uintptr_t id = (uintptr_t)arg;
    ur_image_desc_t d = desc(UR_MEM_TYPE_IMAGE2D, 8, 2, 0, 0);
    uint8_t src[64], back[64];
    for (int round = 0; round < ROUNDS; ++round) {
        ur_exp_image_mem_native_handle_t m = 0;
        ur_exp_image_native_handle_t h = 0;
        if (urBindlessImagesImageAllocateExp(T.context, T.device, &rgba8, &d, &m) !=
                UR_RESULT_SUCCESS ||
            urBindlessImagesUnsampledImageCreateExp(T.context, T.device, m, &rgba8, &d, &h) !=
                UR_RESULT_SUCCESS)
            return (void *)"make";
        for (size_t i = 0; i < sizeof src; ++i)
            src[i] = (uint8_t)(id * 31 + (uintptr_t)round + i);
        ur_exp_image_copy_region_t r = urc_test_copy_region(0, 0, 0, 0, 0, 0, 32, 2, 1);
        ur_event_handle_t ev = NULL;
        if (copy(src, (void *)m, &d, &d, &rgba8, r, UR_EXP_IMAGE_COPY_FLAG_HOST_TO_DEVICE,
                 UR_EXP_IMAGE_COPY_INPUT_TYPES_MEM_TO_IMAGE, NULL) != UR_RESULT_SUCCESS ||
            copy((void *)m, back, &d, &d, &rgba8, r, UR_EXP_IMAGE_COPY_FLAG_DEVICE_TO_HOST,
                 UR_EXP_IMAGE_COPY_INPUT_TYPES_IMAGE_TO_MEM, &ev) != UR_RESULT_SUCCESS ||
            urEventWait(1, &ev) != UR_RESULT_SUCCESS || urEventRelease(ev) != UR_RESULT_SUCCESS)
            return (void *)"copy";
        if (memcmp(src, back, sizeof src) != 0)
            return (void *)"bytes";
        if (urBindlessImagesUnsampledImageHandleDestroyExp(T.context, T.device, h) !=
                UR_RESULT_SUCCESS ||
            urBindlessImagesImageFreeExp(T.context, T.device, m) != UR_RESULT_SUCCESS)
            return (void *)"free";
    }
    return NULL;
}

START_TEST(threads_make_copy_and_free_at_once) {
    pthread_t t[THREADS];
    for (uintptr_t i = 0; i < THREADS; ++i)
        ck_assert_int_eq(pthread_create(&t[i], NULL, image_worker, (void *)i), 0);
    for (int i = 0; i < THREADS; ++i) {
        void *failed = NULL;
        pthread_join(t[i], &failed);
        ck_assert_msg(failed == NULL, "thread %d: %s", i, (const char *)failed);
    }
}
END_TEST

int main(void) {
    Suite *s = suite_create("level zero bindless images");
    TCase *tc = l0t_tcase("urBindlessImages");
    tcase_add_test(tc, device_reports_what_level_zero_offers);
    tcase_add_loop_test(tc, every_shape_round_trips_through_two_images, 0,
                        (int)(sizeof shapes / sizeof shapes[0]));
    tcase_add_test(tc, pitched_usm_holds_images);
    tcase_add_test(tc, host_to_host_copies_boxes);
    tcase_add_test(tc, refusals_get_clear_results);
    tcase_add_test(tc, what_level_zero_lacks_is_unsupported);
    tcase_add_test(tc, external_memory_maps_as_linear_memory_and_images);
    tcase_add_test(tc, external_memory_is_a_handle_of_its_own_kind);
    tcase_add_test(tc, support_queries_follow_level_zero);
    tcase_add_test(tc, threads_make_copy_and_free_at_once);
    suite_add_tcase(s, tc);
    return l0t_main(s);
}
