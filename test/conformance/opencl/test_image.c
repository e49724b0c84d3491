// SPDX-License-Identifier: MIT
// Images of the OpenCL adapter, through the loader. The cases every adapter shares (creation
// and its refusals, round trips, edge boxes, copies, info, native handles) are in
// ../common/image_cases.c; here: the formats the runtime offers, and what the OpenCL object
// behind a native handle must be.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>

#include "../common/image_cases.h"
#include "oclt.h"

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

// What the runtime lists for the shape (clGetSupportedImageFormats).
static bool native_offers(ur_mem_type_t shape, ur_image_format_t f) {
    static const cl_channel_order orders[] = {CL_A,         CL_R,    CL_RG,   CL_RA,   CL_RGB,
                                              CL_RGBA,      CL_BGRA, CL_ARGB, CL_ABGR, CL_INTENSITY,
                                              CL_LUMINANCE, CL_Rx,   CL_RGx,  CL_RGBx, CL_sRGBA};
    cl_context ctx = NULL;
    ck_assert_ur_ok(urContextGetNativeHandle(T.context, (ur_native_handle_t *)&ctx));
    cl_image_format formats[512];
    cl_uint n = 0;
    ck_assert_int_eq(
        clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, cl_type_of(shape), 512, formats, &n),
        CL_SUCCESS);
    for (cl_uint i = 0; i < n && i < 512; ++i)
        if (formats[i].image_channel_order == orders[f.channelOrder] &&
            formats[i].image_channel_data_type == (cl_channel_type)(CL_SNORM_INT8 + f.channelType))
            return true;
    return false;
}

// Every runtime offers at least OpenCL's minimum list in each shape.
static const image_cases_formats_t formats = {native_offers, 5 * 10, true};

START_TEST(native_handle_is_the_cl_image) {
    ur_mem_handle_t m = image_cases_2d(&image_cases_rgba8, 5, 3);
    ur_native_handle_t native = 0;
    ck_assert_ur_ok(urMemGetNativeHandle(m, T.device, &native));
    cl_mem_object_type type = 0;
    ck_assert_int_eq(clGetMemObjectInfo((cl_mem)native, CL_MEM_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    ck_assert_uint_eq(type, CL_MEM_OBJECT_IMAGE2D);
    // A 3D description of a 2D image, and a buffer passed as an image.
    ur_mem_handle_t wrapped = NULL;
    ur_image_desc_t d = image_cases_desc_of(UR_MEM_TYPE_IMAGE2D);
    ur_image_desc_t d3 = image_cases_desc_of(UR_MEM_TYPE_IMAGE3D);
    ck_assert_ur(urMemImageCreateWithNativeHandle(native, T.context, &image_cases_rgba8, &d3, NULL,
                                                  &wrapped),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ur_mem_handle_t buf = NULL;
    ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 64, NULL, &buf));
    ck_assert_ur_ok(urMemGetNativeHandle(buf, T.device, &native));
    ck_assert_ur(
        urMemImageCreateWithNativeHandle(native, T.context, &image_cases_rgba8, &d, NULL, &wrapped),
        UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur_ok(urMemRelease(buf));
    ck_assert_ur_ok(urMemRelease(m));
}
END_TEST

int main(void) {
    Suite *s = suite_create("opencl image");
    image_cases_add_all(s, oclt_tcase, &formats);
    TCase *tc = oclt_tcase("urMemImageCreateWithNativeHandle");
    tcase_add_test(tc, native_handle_is_the_cl_image);
    suite_add_tcase(s, tc);
    return oclt_main(s);
}
