// SPDX-License-Identifier: MIT
// The image cases every adapter shares (image_cases.h).
#include "image_cases.h"

#include <stdio.h>
#include <string.h>

const ur_image_format_t image_cases_rgba8 = {UR_IMAGE_CHANNEL_ORDER_RGBA,
                                             UR_IMAGE_CHANNEL_TYPE_UNORM_INT8};
const ur_image_format_t image_cases_rgba32f = {UR_IMAGE_CHANNEL_ORDER_RGBA,
                                               UR_IMAGE_CHANNEL_TYPE_FLOAT};
#define rgba8   image_cases_rgba8
#define pattern image_cases_pattern
#define desc_of image_cases_desc_of

// What the round-trip case expects of the adapter (image_cases_add_transfers).
static const image_cases_formats_t *formats_wanted;

static const ur_mem_type_t shapes[] = {UR_MEM_TYPE_IMAGE1D, UR_MEM_TYPE_IMAGE1D_ARRAY,
                                       UR_MEM_TYPE_IMAGE2D, UR_MEM_TYPE_IMAGE2D_ARRAY,
                                       UR_MEM_TYPE_IMAGE3D};

ur_image_desc_t image_cases_desc_of(ur_mem_type_t type) {
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

ur_mem_handle_t image_cases_2d(const ur_image_format_t *f, size_t w, size_t h) {
    ur_image_desc_t d = {
        UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, UR_MEM_TYPE_IMAGE2D, w, h, 0, 0, 0, 0, 0, 0};
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(
        urMemImageCreate(urc_test_opened.context, UR_MEM_FLAG_READ_WRITE, f, &d, NULL, &m));
    return m;
}

uint8_t image_cases_pattern(size_t i) {
    return (uint8_t)(i * 7 + 3);
}

// The box a shape addresses (x, rows or 1D layers, slices or 2D layers).
static void extent_of(const ur_image_desc_t *d, size_t e[3]) {
    e[0] = d->width;
    e[1] = d->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? d->arraySize : d->height ? d->height : 1;
    e[2] = d->type == UR_MEM_TYPE_IMAGE2D_ARRAY ? d->arraySize : d->depth ? d->depth : 1;
}

// Offset of element (x, y, z) in a host layout: a 1D array's layers sit on the slice pitch.
static size_t at(ur_mem_type_t t, size_t es, size_t row, size_t slice, size_t x, size_t y,
                 size_t z) {
    return t == UR_MEM_TYPE_IMAGE1D_ARRAY ? x * es + y * slice : x * es + y * row + z * slice;
}

static ur_result_t create(ur_mem_flags_t flags, ur_image_format_t f, ur_image_desc_t d,
                          void *host) {
    ur_mem_handle_t m = NULL;
    ur_result_t r = urMemImageCreate(urc_test_opened.context, flags, &f, &d, host, &m);
    if (r == UR_RESULT_SUCCESS)
        urMemRelease(m);
    return r;
}

// ---- creation -----------------------------------------------------------------------------------

START_TEST(bad_descriptors_get_the_spec_results) {
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE2D), bad;
    const ur_mem_flags_t rw = UR_MEM_FLAG_READ_WRITE;
    ck_assert_ur_ok(create(rw, rgba8, d, NULL));
    bad = d;
    bad.stype = UR_STRUCTURE_TYPE_SAMPLER_DESC;
    ck_assert_ur(create(rw, rgba8, bad, NULL), UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    bad = d;
    bad.type = UR_MEM_TYPE_IMAGE_CUBEMAP_EXP;
    ck_assert_ur(create(rw, rgba8, bad, NULL), UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    bad = d;
    bad.numMipLevel = 1;
    ck_assert_ur(create(rw, rgba8, bad, NULL), UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    bad = d;
    bad.numSamples = 1;
    ck_assert_ur(create(rw, rgba8, bad, NULL), UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    bad = d;
    bad.rowPitch = 64; // pitches come only with host memory
    ck_assert_ur(create(rw, rgba8, bad, NULL), UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    bad = d;
    bad.width = 0;
    ck_assert_ur(create(rw, rgba8, bad, NULL), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    bad = d;
    bad.height = 0;
    ck_assert_ur(create(rw, rgba8, bad, NULL), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    bad = d;
    bad.width = SIZE_MAX;
    ck_assert_ur(create(rw, rgba8, bad, NULL), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    bad = d;
    bad.height = SIZE_MAX;
    ck_assert_ur(create(rw, rgba8, bad, NULL), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    bad = desc_of(UR_MEM_TYPE_IMAGE3D);
    bad.depth = SIZE_MAX;
    ck_assert_ur(create(rw, rgba8, bad, NULL), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    bad = desc_of(UR_MEM_TYPE_IMAGE2D_ARRAY);
    bad.arraySize = 0;
    ck_assert_ur(create(rw, rgba8, bad, NULL), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
    // Past the device's limit, though the bytes fit.
    size_t max_w = 0;
    ck_assert_ur_ok(urDeviceGetInfo(urc_test_opened.device, UR_DEVICE_INFO_IMAGE2D_MAX_WIDTH,
                                    sizeof max_w, &max_w, NULL));
    ck_assert_uint_gt(max_w, 0);
    bad = d;
    bad.width = max_w + 1;
    bad.height = 1;
    ck_assert_ur(create(rw, rgba8, bad, NULL), UR_RESULT_ERROR_INVALID_IMAGE_SIZE);
}
END_TEST

START_TEST(bad_formats_get_the_spec_results) {
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE2D);
    ur_image_format_t f = {(ur_image_channel_order_t)0x99, UR_IMAGE_CHANNEL_TYPE_UNORM_INT8};
    ck_assert_ur(create(UR_MEM_FLAG_READ_WRITE, f, d, NULL),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    f = (ur_image_format_t){UR_IMAGE_CHANNEL_ORDER_RGBA, (ur_image_channel_type_t)0x77};
    ck_assert_ur(create(UR_MEM_FLAG_READ_WRITE, f, d, NULL),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    // A packed type holds RGB only.
    f = (ur_image_format_t){UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565};
    ck_assert_ur(create(UR_MEM_FLAG_READ_WRITE, f, d, NULL),
                 UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
}
END_TEST

START_TEST(host_pointer_rules) {
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE2D);
    uint8_t host[5 * 3 * 4 * 2] = {0};
    ck_assert_ur(create(UR_MEM_FLAG_USE_HOST_POINTER, rgba8, d, NULL),
                 UR_RESULT_ERROR_INVALID_HOST_PTR);
    ck_assert_ur(create(UR_MEM_FLAG_READ_WRITE, rgba8, d, host), UR_RESULT_ERROR_INVALID_HOST_PTR);
    // A row pitch below the row, or not a multiple of the element size.
    ur_image_desc_t bad = d;
    bad.rowPitch = 16;
    ck_assert_ur(create(UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER, rgba8, bad, host),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    bad.rowPitch = 22;
    ck_assert_ur(create(UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER, rgba8, bad, host),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    // A slice pitch on a 2D image.
    bad = d;
    bad.slicePitch = 5 * 3 * 4;
    ck_assert_ur(create(UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER, rgba8, bad, host),
                 UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
}
END_TEST

START_TEST(copy_host_pointer_with_a_wide_row_pitch) {
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE2D);
    d.rowPitch = 5 * 4 + 12;
    uint8_t host[32 * 3], back[5 * 3 * 4];
    for (size_t i = 0; i < sizeof host; ++i)
        host[i] = (uint8_t)i;
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemImageCreate(urc_test_opened.context, UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER,
                                     &rgba8, &d, host, &m));
    ur_rect_offset_t o = {0, 0, 0};
    ur_rect_region_t r = {5, 3, 1};
    ck_assert_ur_ok(
        urEnqueueMemImageRead(urc_test_opened.queue, m, true, o, r, 0, 0, back, 0, NULL, NULL));
    for (size_t y = 0; y < 3; ++y)
        ck_assert_mem_eq(back + y * 20, host + y * 32, 20);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

// ---- reads and writes ---------------------------------------------------------------------------

// Writes the whole image from a tight pattern (non-blocking: the blocking read after it waits
// on the in-order queue), then reads back the box at the far corner (touching every far edge)
// into host memory with pitches wider than the region, and checks it.
static void round_trip(ur_mem_handle_t m, const ur_image_desc_t *d, size_t es, const char *what) {
    size_t e[3];
    extent_of(d, e);
    size_t row = e[0] * es, slice = d->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? row : row * e[1];
    size_t total = d->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? slice * e[1] : slice * e[2];
    uint8_t src[4096];
    ck_assert_uint_le(total, sizeof src);
    for (size_t i = 0; i < total; ++i)
        src[i] = pattern(i);
    ur_rect_offset_t o0 = {0, 0, 0};
    ur_rect_region_t all = {e[0], e[1], e[2]};
    ck_assert_ur_ok(
        urEnqueueMemImageWrite(urc_test_opened.queue, m, false, o0, all, 0, 0, src, 0, NULL, NULL));

    ur_rect_region_t r = {e[0] > 1 ? e[0] - 2 : 1, e[1] > 1 ? e[1] - 1 : 1, e[2]};
    ur_rect_offset_t o = {e[0] - r.width, e[1] - r.height, e[2] - r.depth};
    size_t hrow = r.width * es + 3 * es;
    size_t rows = d->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? 1 : r.height;
    size_t hslice = hrow * rows + 5 * es;
    // Slice pitches only mean something where the shape has slices (OpenCL wants 0 otherwise).
    if (d->type == UR_MEM_TYPE_IMAGE1D || d->type == UR_MEM_TYPE_IMAGE2D)
        hslice = 0;
    uint8_t back[8192];
    memset(back, 0xEE, sizeof back);
    ck_assert_ur_ok(urEnqueueMemImageRead(urc_test_opened.queue, m, true, o, r, hrow, hslice, back,
                                          0, NULL, NULL));
    size_t hs = hslice ? hslice : hrow * rows;
    for (size_t z = 0; z < r.depth; ++z)
        for (size_t y = 0; y < r.height; ++y)
            for (size_t x = 0; x < r.width; ++x)
                for (size_t b = 0; b < es; ++b) {
                    size_t want = at(d->type, es, row, slice, o.x + x, o.y + y, o.z + z) + b;
                    size_t got = at(d->type, es, hrow, hs, x, y, z) + b;
                    ck_assert_msg(back[got] == pattern(want),
                                  "%s: element (%zu,%zu,%zu) byte %zu: %u, expected %u", what, x, y,
                                  z, b, back[got], pattern(want));
                }
}

START_TEST(every_format_round_trips_in_every_shape) {
    const image_cases_formats_t *want = formats_wanted;
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
                ur_result_t r = urMemImageCreate(urc_test_opened.context, UR_MEM_FLAG_READ_WRITE,
                                                 &f, &d, NULL, &m);
                bool offered = want->offered != NULL
                                   ? want->offered(shapes[s], f)
                                   : r != UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT;
                if (!offered) {
                    ck_assert_msg(r == UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT,
                                  "%s: not offered, got %s", what, urc_test_result_name(r));
                    continue;
                }
                ck_assert_msg(r == UR_RESULT_SUCCESS, "%s: %s", what, urc_test_result_name(r));
                size_t es = 0;
                ck_assert_ur_ok(
                    urMemImageGetInfo(m, UR_IMAGE_INFO_ELEMENT_SIZE, sizeof es, &es, NULL));
                round_trip(m, &d, es, what);
                ck_assert_ur_ok(urMemRelease(m));
                ++tried;
            }
    }
    if (want->at_least)
        ck_assert_uint_ge(tried, want->count);
    else
        ck_assert_uint_eq(tried, want->count);
}
END_TEST

START_TEST(write_of_a_pitched_box_lands_inside_only) {
    ur_mem_handle_t m = image_cases_2d(&rgba8, 6, 4);
    uint8_t zero[6 * 4 * 4] = {0};
    ur_rect_offset_t o0 = {0, 0, 0};
    ur_rect_region_t all = {6, 4, 1};
    ck_assert_ur_ok(
        urEnqueueMemImageWrite(urc_test_opened.queue, m, true, o0, all, 0, 0, zero, 0, NULL, NULL));
    // A 2x2 box at (4, 2): touching the right and bottom edges, from host rows 20 bytes apart.
    uint8_t host[2 * 20];
    for (size_t i = 0; i < sizeof host; ++i)
        host[i] = (uint8_t)(100 + i);
    ur_rect_offset_t o = {4, 2, 0};
    ur_rect_region_t r = {2, 2, 1};
    ck_assert_ur_ok(
        urEnqueueMemImageWrite(urc_test_opened.queue, m, true, o, r, 20, 0, host, 0, NULL, NULL));
    uint8_t back[6 * 4 * 4];
    ck_assert_ur_ok(
        urEnqueueMemImageRead(urc_test_opened.queue, m, true, o0, all, 0, 0, back, 0, NULL, NULL));
    for (size_t y = 0; y < 4; ++y)
        for (size_t x = 0; x < 6; ++x)
            for (size_t c = 0; c < 4; ++c) {
                uint8_t got = back[(y * 6 + x) * 4 + c];
                bool inside = x >= 4 && y >= 2;
                uint8_t want = inside ? host[(y - 2) * 20 + (x - 4) * 4 + c] : 0;
                ck_assert_uint_eq(got, want);
            }
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(read_outside_is_invalid_size) {
    ur_mem_handle_t m = image_cases_2d(&rgba8, 4, 4);
    uint8_t back[256];
    ur_rect_region_t r = {2, 2, 1};
    ur_rect_offset_t past = {3, 0, 0}, wraps = {SIZE_MAX, 0, 0}, deep = {0, 0, 1};
    ck_assert_ur(
        urEnqueueMemImageRead(urc_test_opened.queue, m, true, past, r, 0, 0, back, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(
        urEnqueueMemImageRead(urc_test_opened.queue, m, true, wraps, r, 0, 0, back, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_SIZE);
    ur_rect_offset_t wraps_y = {0, SIZE_MAX, 0};
    ck_assert_ur(urEnqueueMemImageWrite(urc_test_opened.queue, m, true, wraps_y, r, 0, 0, back, 0,
                                        NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    // A 2D image has one slice: z must be 0 and depth 1.
    ck_assert_ur(
        urEnqueueMemImageRead(urc_test_opened.queue, m, true, deep, r, 0, 0, back, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_SIZE);
    ur_rect_offset_t o0 = {0, 0, 0};
    ur_rect_region_t two_deep = {2, 2, 2};
    ck_assert_ur(urEnqueueMemImageRead(urc_test_opened.queue, m, true, o0, two_deep, 0, 0, back, 0,
                                       NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    // A host row pitch smaller than the region's row.
    ck_assert_ur(
        urEnqueueMemImageRead(urc_test_opened.queue, m, true, o0, r, 7, 0, back, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(buffers_and_images_do_not_mix) {
    ur_mem_handle_t img = image_cases_2d(&rgba8, 4, 4), buf = NULL;
    ck_assert_ur_ok(
        urMemBufferCreate(urc_test_opened.context, UR_MEM_FLAG_READ_WRITE, 64, NULL, &buf));
    uint8_t host[64];
    ur_rect_offset_t o = {0, 0, 0};
    ur_rect_region_t r = {1, 1, 1};
    ck_assert_ur(
        urEnqueueMemImageRead(urc_test_opened.queue, buf, true, o, r, 0, 0, host, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(
        urEnqueueMemBufferRead(urc_test_opened.queue, img, true, 0, 4, host, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    size_t es;
    ck_assert_ur(urMemImageGetInfo(buf, UR_IMAGE_INFO_ELEMENT_SIZE, sizeof es, &es, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urMemRelease(img));
    ck_assert_ur_ok(urMemRelease(buf));
}
END_TEST

// ---- copies -------------------------------------------------------------------------------------

START_TEST(copy_between_images_touching_edges) {
    ur_mem_handle_t src = image_cases_2d(&rgba8, 8, 6), dst = image_cases_2d(&rgba8, 4, 4);
    uint8_t pat[8 * 6 * 4], zero[4 * 4 * 4] = {0}, back[4 * 4 * 4];
    for (size_t i = 0; i < sizeof pat; ++i)
        pat[i] = pattern(i);
    ur_rect_offset_t o0 = {0, 0, 0};
    ur_rect_region_t src_all = {8, 6, 1}, dst_all = {4, 4, 1};
    ck_assert_ur_ok(urEnqueueMemImageWrite(urc_test_opened.queue, src, false, o0, src_all, 0, 0,
                                           pat, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemImageWrite(urc_test_opened.queue, dst, false, o0, dst_all, 0, 0,
                                           zero, 0, NULL, NULL));
    // The source's bottom-right 3x3 corner to the destination's bottom-right corner.
    ur_rect_offset_t so = {5, 3, 0}, dso = {1, 1, 0};
    ur_rect_region_t r = {3, 3, 1};
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(
        urEnqueueMemImageCopy(urc_test_opened.queue, src, dst, so, dso, r, 0, NULL, &ev));
    ur_command_t cmd;
    ck_assert_ur_ok(urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_TYPE, sizeof cmd, &cmd, NULL));
    ck_assert_int_eq(cmd, UR_COMMAND_MEM_IMAGE_COPY);
    ck_assert_ur_ok(urEventWait(1, &ev));
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(urEnqueueMemImageRead(urc_test_opened.queue, dst, true, o0, dst_all, 0, 0, back,
                                          0, NULL, NULL));
    for (size_t y = 0; y < 4; ++y)
        for (size_t x = 0; x < 4; ++x)
            for (size_t c = 0; c < 4; ++c) {
                uint8_t want = (x >= 1 && y >= 1) ? pattern(((y + 2) * 8 + x + 4) * 4 + c) : 0;
                ck_assert_uint_eq(back[(y * 4 + x) * 4 + c], want);
            }
    // One past either image's edge, and different formats.
    ur_rect_offset_t past = {2, 1, 0};
    ck_assert_ur(urEnqueueMemImageCopy(urc_test_opened.queue, src, dst, so, past, r, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ur_rect_offset_t src_past = {6, 0, 0};
    ck_assert_ur(
        urEnqueueMemImageCopy(urc_test_opened.queue, src, dst, src_past, o0, r, 0, NULL, NULL),
        UR_RESULT_ERROR_INVALID_SIZE);
    ur_mem_handle_t other = image_cases_2d(&image_cases_rgba32f, 5, 3);
    ck_assert_ur(urEnqueueMemImageCopy(urc_test_opened.queue, src, other, o0, o0, r, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urMemRelease(other));
    ck_assert_ur_ok(urMemRelease(src));
    ck_assert_ur_ok(urMemRelease(dst));
}
END_TEST

// A volume made from host memory with wide row and slice pitches; its second slice copied
// into a 2D image and read back.
START_TEST(copy_from_a_3d_slice_into_a_2d_image) {
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE3D);
    d.rowPitch = 5 * 4 + 12;
    d.slicePitch = d.rowPitch * 4; // a spare row per slice
    uint8_t host[32 * 4 * 2], back[5 * 3 * 4];
    for (size_t i = 0; i < sizeof host; ++i)
        host[i] = (uint8_t)i;
    ur_mem_handle_t vol = NULL, flat = image_cases_2d(&rgba8, 5, 3);
    ck_assert_ur_ok(urMemImageCreate(urc_test_opened.context, UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER,
                                     &rgba8, &d, host, &vol));
    ur_rect_offset_t o0 = {0, 0, 0}, second = {0, 0, 1};
    ur_rect_region_t plane = {5, 3, 1};
    ck_assert_ur_ok(
        urEnqueueMemImageCopy(urc_test_opened.queue, vol, flat, second, o0, plane, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemImageRead(urc_test_opened.queue, flat, true, o0, plane, 0, 0, back,
                                          0, NULL, NULL));
    for (size_t y = 0; y < 3; ++y)
        ck_assert_mem_eq(back + y * 20, host + 128 + y * 32, 20);
    ck_assert_ur_ok(urMemRelease(vol));
    ck_assert_ur_ok(urMemRelease(flat));
}
END_TEST

// ---- info and native handles --------------------------------------------------------------------

START_TEST(info_answers_the_shape) {
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE2D_ARRAY);
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(
        urMemImageCreate(urc_test_opened.context, UR_MEM_FLAG_READ_WRITE, &rgba8, &d, NULL, &m));
    ur_image_format_t f;
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_FORMAT, sizeof f, &f, NULL));
    ck_assert_int_eq(f.channelOrder, rgba8.channelOrder);
    ck_assert_int_eq(f.channelType, rgba8.channelType);
    size_t v = 0, n = 0;
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_WIDTH, sizeof v, &v, &n));
    ck_assert_uint_eq(v, 5);
    ck_assert_uint_eq(n, sizeof(size_t));
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_HEIGHT, sizeof v, &v, NULL));
    ck_assert_uint_eq(v, 3);
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_ARRAY_SIZE, sizeof v, &v, NULL));
    ck_assert_uint_eq(v, 2);
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_DEPTH, sizeof v, &v, NULL));
    ck_assert_uint_eq(v, 0);
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_ELEMENT_SIZE, sizeof v, &v, NULL));
    ck_assert_uint_eq(v, 4);
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_ROW_PITCH, sizeof v, &v, NULL));
    ck_assert_uint_ge(v, 5 * 4);
    size_t row = v;
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_SLICE_PITCH, sizeof v, &v, NULL));
    ck_assert_uint_ge(v, row * 3);
    uint32_t mips = 9;
    ck_assert_ur_ok(urMemImageGetInfo(m, UR_IMAGE_INFO_NUM_MIP_LEVELS, sizeof mips, &mips, NULL));
    ck_assert_uint_eq(mips, 0);
    uint8_t small;
    ck_assert_ur(urMemImageGetInfo(m, UR_IMAGE_INFO_WIDTH, sizeof small, &small, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urMemImageGetInfo(m, (ur_image_info_t)99, sizeof v, &v, NULL),
                 UR_RESULT_ERROR_INVALID_ENUMERATION);
    size_t bytes = 0;
    ck_assert_ur_ok(urMemGetInfo(m, UR_MEM_INFO_SIZE, sizeof bytes, &bytes, NULL));
    ck_assert_uint_ge(bytes, 5 * 3 * 2 * 4);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

// An image wrapped from its own native handle (not owned) sees what the first one writes.
START_TEST(native_handle_round_trip) {
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE3D);
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(
        urMemImageCreate(urc_test_opened.context, UR_MEM_FLAG_READ_WRITE, &rgba8, &d, NULL, &m));
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urMemGetNativeHandle(m, urc_test_opened.device, &native));
    ck_assert(native != 0);
    ur_mem_handle_t wrapped = NULL;
    ck_assert_ur_ok(urMemImageCreateWithNativeHandle(native, urc_test_opened.context, &rgba8, &d,
                                                     NULL, &wrapped));
    uint8_t px[4] = {9, 8, 7, 6}, back[4] = {0};
    ur_rect_offset_t o = {4, 2, 1};
    ur_rect_region_t r = {1, 1, 1};
    ck_assert_ur_ok(
        urEnqueueMemImageWrite(urc_test_opened.queue, m, true, o, r, 0, 0, px, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemImageRead(urc_test_opened.queue, wrapped, true, o, r, 0, 0, back, 0,
                                          NULL, NULL));
    ck_assert_mem_eq(back, px, 4);
    ck_assert_ur_ok(urMemRelease(wrapped)); // not owned: the image lives on
    ck_assert_ur_ok(
        urEnqueueMemImageRead(urc_test_opened.queue, m, true, o, r, 0, 0, back, 0, NULL, NULL));
    ck_assert_mem_eq(back, px, 4);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

void image_cases_add_creation(TCase *tc) {
    tcase_add_test(tc, bad_descriptors_get_the_spec_results);
    tcase_add_test(tc, bad_formats_get_the_spec_results);
    tcase_add_test(tc, host_pointer_rules);
    tcase_add_test(tc, copy_host_pointer_with_a_wide_row_pitch);
}

void image_cases_add_transfers(TCase *tc, const image_cases_formats_t *formats) {
    formats_wanted = formats;
    tcase_add_test(tc, every_format_round_trips_in_every_shape);
    tcase_add_test(tc, write_of_a_pitched_box_lands_inside_only);
    tcase_add_test(tc, read_outside_is_invalid_size);
    tcase_add_test(tc, buffers_and_images_do_not_mix);
}

void image_cases_add_copies(TCase *tc) {
    tcase_add_test(tc, copy_between_images_touching_edges);
    tcase_add_test(tc, copy_from_a_3d_slice_into_a_2d_image);
}

void image_cases_add_info(TCase *tc) {
    tcase_add_test(tc, info_answers_the_shape);
    tcase_add_test(tc, native_handle_round_trip);
}

TCase *image_cases_add_all(Suite *s, TCase *(*tcase)(const char *name),
                           const image_cases_formats_t *formats) {
    TCase *creation = tcase("urMemImageCreate");
    image_cases_add_creation(creation);
    suite_add_tcase(s, creation);
    TCase *tc = tcase("urEnqueueMemImageReadWrite");
    image_cases_add_transfers(tc, formats);
    suite_add_tcase(s, tc);
    tc = tcase("urEnqueueMemImageCopy");
    image_cases_add_copies(tc);
    suite_add_tcase(s, tc);
    tc = tcase("urMemImageGetInfo");
    image_cases_add_info(tc);
    suite_add_tcase(s, tc);
    return creation;
}
