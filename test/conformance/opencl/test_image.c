// SPDX-License-Identifier: MIT
// Images of the OpenCL adapter, through the loader: creation and its refusals, round trips of
// every format the runtime offers in every shape, edge-touching regions with wide host pitches,
// image copies, info and native handles.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "oclt.h"

static const ur_mem_type_t shapes[] = {UR_MEM_TYPE_IMAGE1D, UR_MEM_TYPE_IMAGE1D_ARRAY,
                                       UR_MEM_TYPE_IMAGE2D, UR_MEM_TYPE_IMAGE2D_ARRAY,
                                       UR_MEM_TYPE_IMAGE3D};

// The extents tests use per shape: 5 wide, 3 rows or layers, 2 slices or layers.
static ur_image_desc_t desc_of(ur_mem_type_t type) {
    ur_image_desc_t d = {UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, type, 5, 0, 0, 0, 0, 0, 0, 0};
    switch (type) {
    case UR_MEM_TYPE_IMAGE1D_ARRAY:
        d.arraySize = 3;
        break;
    case UR_MEM_TYPE_IMAGE2D:
        d.height = 3;
        break;
    case UR_MEM_TYPE_IMAGE2D_ARRAY:
        d.height = 3;
        d.arraySize = 2;
        break;
    case UR_MEM_TYPE_IMAGE3D:
        d.height = 3;
        d.depth = 2;
        break;
    default:
        break;
    }
    return d;
}

// The box a shape addresses (x, rows or 1D layers, slices or 2D layers).
static void extent_of(const ur_image_desc_t *d, size_t e[3]) {
    e[0] = d->width;
    e[1] = d->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? d->arraySize : d->height ? d->height : 1;
    e[2] = d->type == UR_MEM_TYPE_IMAGE2D_ARRAY ? d->arraySize : d->depth ? d->depth : 1;
}

static const ur_image_format_t rgba8 = {UR_IMAGE_CHANNEL_ORDER_RGBA,
                                        UR_IMAGE_CHANNEL_TYPE_UNORM_INT8};

static ur_mem_handle_t image_2d(size_t w, size_t h) {
    ur_image_desc_t d = {
        UR_STRUCTURE_TYPE_IMAGE_DESC, NULL, UR_MEM_TYPE_IMAGE2D, w, h, 0, 0, 0, 0, 0, 0};
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &rgba8, &d, NULL, &m));
    return m;
}

static bool native_offers(cl_mem_object_type type, ur_image_format_t f) {
    static const cl_channel_order orders[] = {CL_A,         CL_R,    CL_RG,   CL_RA,   CL_RGB,
                                              CL_RGBA,      CL_BGRA, CL_ARGB, CL_ABGR, CL_INTENSITY,
                                              CL_LUMINANCE, CL_Rx,   CL_RGx,  CL_RGBx, CL_sRGBA};
    cl_context ctx = NULL;
    ck_assert_ur_ok(urContextGetNativeHandle(T.context, (ur_native_handle_t *)&ctx));
    cl_image_format formats[512];
    cl_uint n = 0;
    ck_assert_int_eq(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, type, 512, formats, &n),
                     CL_SUCCESS);
    for (cl_uint i = 0; i < n && i < 512; ++i)
        if (formats[i].image_channel_order == orders[f.channelOrder] &&
            formats[i].image_channel_data_type == (cl_channel_type)(CL_SNORM_INT8 + f.channelType))
            return true;
    return false;
}

static cl_mem_object_type cl_type_of(ur_mem_type_t t) {
    switch (t) {
    case UR_MEM_TYPE_IMAGE1D:
        return CL_MEM_OBJECT_IMAGE1D;
    case UR_MEM_TYPE_IMAGE1D_ARRAY:
        return CL_MEM_OBJECT_IMAGE1D_ARRAY;
    case UR_MEM_TYPE_IMAGE2D:
        return CL_MEM_OBJECT_IMAGE2D;
    case UR_MEM_TYPE_IMAGE2D_ARRAY:
        return CL_MEM_OBJECT_IMAGE2D_ARRAY;
    default:
        return CL_MEM_OBJECT_IMAGE3D;
    }
}

// Offset of element (x, y, z) in a host layout: a 1D array's layers sit on the slice pitch.
static size_t at(ur_mem_type_t t, size_t es, size_t row, size_t slice, size_t x, size_t y,
                 size_t z) {
    return t == UR_MEM_TYPE_IMAGE1D_ARRAY ? x * es + y * slice : x * es + y * row + z * slice;
}

static uint8_t pattern(size_t i) {
    return (uint8_t)(i * 7 + 3);
}

// Writes the whole image from a tight pattern, then reads back the box at the far corner
// (touching every far edge) into host memory with pitches wider than the region, and checks it.
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
    ck_assert_ur_ok(urEnqueueMemImageWrite(T.queue, m, true, o0, all, 0, 0, src, 0, NULL, NULL));

    ur_rect_region_t r = {e[0] > 1 ? e[0] - 2 : 1, e[1] > 1 ? e[1] - 1 : 1, e[2]};
    ur_rect_offset_t o = {e[0] - r.width, e[1] - r.height, e[2] - r.depth};
    size_t hrow = r.width * es + 3 * es;
    size_t rows = d->type == UR_MEM_TYPE_IMAGE1D_ARRAY ? 1 : r.height;
    size_t hslice = hrow * rows + 5 * es;
    // Row and slice pitches only mean something where the shape has rows and slices.
    if (d->type == UR_MEM_TYPE_IMAGE1D)
        hslice = 0;
    if (d->type == UR_MEM_TYPE_IMAGE2D)
        hslice = 0;
    uint8_t back[8192];
    memset(back, 0xEE, sizeof back);
    ck_assert_ur_ok(
        urEnqueueMemImageRead(T.queue, m, true, o, r, hrow, hslice, back, 0, NULL, NULL));
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

START_TEST(every_offered_format_round_trips_in_every_shape) {
    size_t tried = 0;
    for (unsigned s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        ur_image_desc_t d = desc_of(shapes[s]);
        for (unsigned o = UR_IMAGE_CHANNEL_ORDER_A; o <= UR_IMAGE_CHANNEL_ORDER_SRGBA; ++o)
            for (unsigned t = UR_IMAGE_CHANNEL_TYPE_SNORM_INT8; t <= UR_IMAGE_CHANNEL_TYPE_FLOAT;
                 ++t) {
                ur_image_format_t f = {(ur_image_channel_order_t)o, (ur_image_channel_type_t)t};
                char what[64];
                snprintf(what, sizeof what, "shape %u order %u type %u", (unsigned)shapes[s], o, t);
                bool offered = native_offers(cl_type_of(shapes[s]), f);
                ur_mem_handle_t m = NULL;
                ur_result_t r =
                    urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &f, &d, NULL, &m);
                if (!offered) {
                    ck_assert_msg(r == UR_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT,
                                  "%s: not offered, got %s", what, urc_test_result_name(r));
                    continue;
                }
                ck_assert_msg(r == UR_RESULT_SUCCESS, "%s: offered, got %s", what,
                              urc_test_result_name(r));
                size_t es = 0;
                ck_assert_ur_ok(
                    urMemImageGetInfo(m, UR_IMAGE_INFO_ELEMENT_SIZE, sizeof es, &es, NULL));
                round_trip(m, &d, es, what);
                ck_assert_ur_ok(urMemRelease(m));
                ++tried;
            }
    }
    // Every runtime offers at least OpenCL's minimum list in each shape.
    ck_assert_uint_ge(tried, 5 * 10);
}
END_TEST

START_TEST(write_of_a_pitched_box_lands_inside_only) {
    ur_mem_handle_t m = image_2d(6, 4);
    uint8_t zero[6 * 4 * 4] = {0};
    ur_rect_offset_t o0 = {0, 0, 0};
    ur_rect_region_t all = {6, 4, 1};
    ck_assert_ur_ok(urEnqueueMemImageWrite(T.queue, m, true, o0, all, 0, 0, zero, 0, NULL, NULL));
    // A 2x2 box at (4, 2): touching the right and bottom edges, from host rows 20 bytes apart.
    uint8_t host[2 * 20];
    for (size_t i = 0; i < sizeof host; ++i)
        host[i] = (uint8_t)(100 + i);
    ur_rect_offset_t o = {4, 2, 0};
    ur_rect_region_t r = {2, 2, 1};
    ck_assert_ur_ok(urEnqueueMemImageWrite(T.queue, m, true, o, r, 20, 0, host, 0, NULL, NULL));
    uint8_t back[6 * 4 * 4];
    ck_assert_ur_ok(urEnqueueMemImageRead(T.queue, m, true, o0, all, 0, 0, back, 0, NULL, NULL));
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
    ur_mem_handle_t m = image_2d(4, 4);
    uint8_t back[256];
    ur_rect_region_t r = {2, 2, 1};
    ur_rect_offset_t past = {3, 0, 0}, wraps = {SIZE_MAX, 0, 0}, deep = {0, 0, 1};
    ck_assert_ur(urEnqueueMemImageRead(T.queue, m, true, past, r, 0, 0, back, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urEnqueueMemImageRead(T.queue, m, true, wraps, r, 0, 0, back, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    // A 2D image has one slice: z must be 0 and depth 1.
    ck_assert_ur(urEnqueueMemImageRead(T.queue, m, true, deep, r, 0, 0, back, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ur_rect_offset_t o0 = {0, 0, 0};
    ur_rect_region_t two_deep = {2, 2, 2};
    ck_assert_ur(urEnqueueMemImageRead(T.queue, m, true, o0, two_deep, 0, 0, back, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    // A host row pitch smaller than the region's row.
    ck_assert_ur(urEnqueueMemImageRead(T.queue, m, true, o0, r, 7, 0, back, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

START_TEST(buffers_and_images_do_not_mix) {
    ur_mem_handle_t img = image_2d(4, 4), buf = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 64, NULL, &buf));
    uint8_t host[64];
    ur_rect_offset_t o = {0, 0, 0};
    ur_rect_region_t r = {1, 1, 1};
    ck_assert_ur(urEnqueueMemImageRead(T.queue, buf, true, o, r, 0, 0, host, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(urEnqueueMemBufferRead(T.queue, img, true, 0, 4, host, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    size_t es;
    ck_assert_ur(urMemImageGetInfo(buf, UR_IMAGE_INFO_ELEMENT_SIZE, sizeof es, &es, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urMemRelease(img));
    ck_assert_ur_ok(urMemRelease(buf));
}
END_TEST

// ---- creation refusals
// ---------------------------------------------------------------------------

static ur_result_t create(ur_mem_flags_t flags, ur_image_format_t f, ur_image_desc_t d,
                          void *host) {
    ur_mem_handle_t m = NULL;
    ur_result_t r = urMemImageCreate(T.context, flags, &f, &d, host, &m);
    if (r == UR_RESULT_SUCCESS)
        urMemRelease(m);
    return r;
}

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
    bad.rowPitch = 64; // pitches come only with host memory
    ck_assert_ur(create(rw, rgba8, bad, NULL), UR_RESULT_ERROR_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    bad = d;
    bad.width = 0;
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
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_IMAGE2D_MAX_WIDTH, sizeof max_w, &max_w, NULL));
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
    uint8_t host[32 * 3];
    for (size_t i = 0; i < sizeof host; ++i)
        host[i] = (uint8_t)i;
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(
        urMemImageCreate(T.context, UR_MEM_FLAG_ALLOC_COPY_HOST_POINTER, &rgba8, &d, host, &m));
    uint8_t back[5 * 3 * 4];
    ur_rect_offset_t o = {0, 0, 0};
    ur_rect_region_t r = {5, 3, 1};
    ck_assert_ur_ok(urEnqueueMemImageRead(T.queue, m, true, o, r, 0, 0, back, 0, NULL, NULL));
    for (size_t y = 0; y < 3; ++y)
        ck_assert_mem_eq(back + y * 20, host + y * 32, 20);
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

// ---- copies
// ---------------------------------------------------------------------------------------

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
    // The source's bottom-right 3x3 corner to the destination's bottom-right corner.
    ur_rect_offset_t so = {5, 3, 0}, dso = {1, 1, 0};
    ur_rect_region_t r = {3, 3, 1};
    ur_event_handle_t ev = NULL;
    ck_assert_ur_ok(urEnqueueMemImageCopy(T.queue, src, dst, so, dso, r, 0, NULL, &ev));
    ur_command_t cmd;
    ck_assert_ur_ok(urEventGetInfo(ev, UR_EVENT_INFO_COMMAND_TYPE, sizeof cmd, &cmd, NULL));
    ck_assert_int_eq(cmd, UR_COMMAND_MEM_IMAGE_COPY);
    ck_assert_ur_ok(urEventRelease(ev));
    ck_assert_ur_ok(
        urEnqueueMemImageRead(T.queue, dst, true, o0, dst_all, 0, 0, back, 0, NULL, NULL));
    for (size_t y = 0; y < 4; ++y)
        for (size_t x = 0; x < 4; ++x)
            for (size_t c = 0; c < 4; ++c) {
                uint8_t want = (x >= 1 && y >= 1) ? pattern(((y + 2) * 8 + x + 4) * 4 + c) : 0;
                ck_assert_uint_eq(back[(y * 4 + x) * 4 + c], want);
            }
    // One past either image's edge, and different formats.
    ur_rect_offset_t past = {2, 1, 0};
    ck_assert_ur(urEnqueueMemImageCopy(T.queue, src, dst, so, past, r, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ur_rect_offset_t src_past = {6, 0, 0};
    ck_assert_ur(urEnqueueMemImageCopy(T.queue, src, dst, src_past, o0, r, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ur_image_format_t f32 = {UR_IMAGE_CHANNEL_ORDER_RGBA, UR_IMAGE_CHANNEL_TYPE_FLOAT};
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE2D);
    ur_mem_handle_t other = NULL;
    ck_assert_ur_ok(urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &f32, &d, NULL, &other));
    ck_assert_ur(urEnqueueMemImageCopy(T.queue, src, other, o0, o0, r, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urMemRelease(other));
    ck_assert_ur_ok(urMemRelease(src));
    ck_assert_ur_ok(urMemRelease(dst));
}
END_TEST

START_TEST(copy_from_a_3d_slice_into_a_2d_image) {
    ur_image_desc_t d3 = desc_of(UR_MEM_TYPE_IMAGE3D);
    ur_mem_handle_t vol = NULL, flat = image_2d(5, 3);
    ck_assert_ur_ok(urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &rgba8, &d3, NULL, &vol));
    uint8_t pat[5 * 3 * 2 * 4], back[5 * 3 * 4];
    for (size_t i = 0; i < sizeof pat; ++i)
        pat[i] = pattern(i);
    ur_rect_offset_t o0 = {0, 0, 0}, second = {0, 0, 1};
    ur_rect_region_t all = {5, 3, 2}, plane = {5, 3, 1};
    ck_assert_ur_ok(urEnqueueMemImageWrite(T.queue, vol, true, o0, all, 0, 0, pat, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemImageCopy(T.queue, vol, flat, second, o0, plane, 0, NULL, NULL));
    ck_assert_ur_ok(
        urEnqueueMemImageRead(T.queue, flat, true, o0, plane, 0, 0, back, 0, NULL, NULL));
    ck_assert_mem_eq(back, pat + sizeof back, sizeof back);
    ck_assert_ur_ok(urMemRelease(vol));
    ck_assert_ur_ok(urMemRelease(flat));
}
END_TEST

// ---- info and native handles
// ---------------------------------------------------------------------

START_TEST(info_answers_the_shape) {
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE2D_ARRAY);
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(urMemImageCreate(T.context, UR_MEM_FLAG_READ_WRITE, &rgba8, &d, NULL, &m));
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

START_TEST(native_handle_round_trip) {
    ur_mem_handle_t m = image_2d(5, 3);
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urMemGetNativeHandle(m, T.device, &native));
    cl_mem_object_type type = 0;
    ck_assert_int_eq(clGetMemObjectInfo((cl_mem)native, CL_MEM_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    ck_assert_uint_eq(type, CL_MEM_OBJECT_IMAGE2D);
    ur_image_desc_t d = desc_of(UR_MEM_TYPE_IMAGE2D);
    ur_mem_handle_t wrapped = NULL;
    ck_assert_ur_ok(
        urMemImageCreateWithNativeHandle(native, T.context, &rgba8, &d, NULL, &wrapped));
    // What one handle writes the other reads.
    uint8_t px[4] = {1, 2, 3, 4}, back[4] = {0};
    ur_rect_offset_t o = {4, 2, 0};
    ur_rect_region_t r = {1, 1, 1};
    ck_assert_ur_ok(urEnqueueMemImageWrite(T.queue, m, true, o, r, 0, 0, px, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueMemImageRead(T.queue, wrapped, true, o, r, 0, 0, back, 0, NULL, NULL));
    ck_assert_mem_eq(back, px, 4);
    ck_assert_ur_ok(urMemRelease(wrapped));
    // A 3D description of a 2D image, and a buffer passed as an image.
    ur_image_desc_t d3 = desc_of(UR_MEM_TYPE_IMAGE3D);
    ck_assert_ur(urMemImageCreateWithNativeHandle(native, T.context, &rgba8, &d3, NULL, &wrapped),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ur_mem_handle_t buf = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 64, NULL, &buf));
    ck_assert_ur_ok(urMemGetNativeHandle(buf, T.device, &native));
    ck_assert_ur(urMemImageCreateWithNativeHandle(native, T.context, &rgba8, &d, NULL, &wrapped),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urMemRelease(buf));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl image");
    TCase *tc = oclt_tcase("urMemImageCreate");
    tcase_add_test(tc, bad_descriptors_get_the_spec_results);
    tcase_add_test(tc, bad_formats_get_the_spec_results);
    tcase_add_test(tc, host_pointer_rules);
    tcase_add_test(tc, copy_host_pointer_with_a_wide_row_pitch);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueMemImageReadWrite");
    tcase_add_test(tc, every_offered_format_round_trips_in_every_shape);
    tcase_add_test(tc, write_of_a_pitched_box_lands_inside_only);
    tcase_add_test(tc, read_outside_is_invalid_size);
    tcase_add_test(tc, buffers_and_images_do_not_mix);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urEnqueueMemImageCopy");
    tcase_add_test(tc, copy_between_images_touching_edges);
    tcase_add_test(tc, copy_from_a_3d_slice_into_a_2d_image);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urMemImageGetInfo");
    tcase_add_test(tc, info_answers_the_shape);
    suite_add_tcase(s, tc);
    tc = oclt_tcase("urMemImageCreateWithNativeHandle");
    tcase_add_test(tc, native_handle_round_trip);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
