// SPDX-License-Identifier: MIT
// Device images end to end on the OpenCL adapter (seeds 002 and 003): real SPIR-V images with
// SYCL metadata, as a SYCL runtime would pass them.
//
// Virtual functions: kernel image K (vf_kernel) uses set "A"; provider P (vf_provider, which
// computes in double) provides "A" and requires fp64 (aspect 6); its dummy twin D (vf_dummy,
// returns -1) provides "A" with `dummy-image` = 1 and the same requirement. Every image is
// compiled and all are passed to urProgramLink, K first: with fp64 the linked kernel computes
// P's values, and with URC_MASK_ASPECTS=fp64 it computes D's.
//
// Device requirements: an image that needs fp16 on a device without it (masked on Intel's
// runtime, for real on PoCL), sub-group and work-group sizes the device lacks: the build is
// refused with the seed's message in the build log and urAdapterGetLastError.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <urc_device_image.h>

#include "e2e.h"

#define FP16_MESSAGE                                                                               \
    "Kernel uses optional feature corresponding to 'aspect::fp16' but device does not support "    \
    "this aspect."

static const uint32_t fp64[] = {6};

// ---- images as a SYCL runtime holds them: binary descriptors ---------------------------------

/// One image's SPIR-V and its property sets, laid out as DPC++'s offload wrapper does.
typedef struct image_t {
    void *spirv;
    size_t size;
    urc_sycl_property_t vf[3];
    urc_sycl_property_t reqs[1];
    urc_sycl_property_set_t sets[2];
    urc_sycl_device_binary_t binary;
    e2e_bytes_t aspects;
    e2e_bytes_t set_name;
} image_t;

static void *read_spirv(const char *base, size_t *size) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.spv", E2E_KERNEL_DIR, base);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "%s missing", path);
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    void *data = malloc(*size);
    ck_assert_uint_eq(fread(data, 1, *size, f), *size);
    fclose(f);
    return data;
}

typedef enum { ROLE_KERNEL, ROLE_PROVIDER, ROLE_DUMMY } role_t;

/// Fills `im` for one role. String properties are written as DPC++ writes them, as byte arrays
/// without a terminator.
static void image_init(image_t *im, const char *base, role_t role) {
    memset(im, 0, sizeof *im);
    im->spirv = read_spirv(base, &im->size);
    im->set_name = e2e_bytes("A", 1);
    im->aspects = e2e_u32s(fp64, 1);
    size_t nvf = 0;
    im->vf[nvf++] = (urc_sycl_property_t){
        role == ROLE_KERNEL ? "uses-virtual-functions-set" : "virtual-functions-set",
        im->set_name.data, URC_SYCL_PROPERTY_TYPE_BYTE_ARRAY, im->set_name.size};
    if (role == ROLE_DUMMY)
        im->vf[nvf++] =
            (urc_sycl_property_t){"dummy-image", NULL, URC_SYCL_PROPERTY_TYPE_UINT32, 1};
    size_t nsets = 0;
    im->sets[nsets++] = (urc_sycl_property_set_t){"SYCL/virtual functions", im->vf, im->vf + nvf};
    if (role != ROLE_KERNEL) {
        im->reqs[0] = (urc_sycl_property_t){"aspects", im->aspects.data,
                                            URC_SYCL_PROPERTY_TYPE_BYTE_ARRAY, im->aspects.size};
        im->sets[nsets++] =
            (urc_sycl_property_set_t){"SYCL/device requirements", im->reqs, im->reqs + 1};
    }
    im->binary = (urc_sycl_device_binary_t){.version = 1,
                                            .kind = 4,
                                            .format = 2,
                                            .device_target_spec = "spir64",
                                            .compile_options = "",
                                            .link_options = "",
                                            .binary_start = im->spirv,
                                            .binary_end = (unsigned char *)im->spirv + im->size,
                                            .property_sets_begin = im->sets,
                                            .property_sets_end = im->sets + nsets};
}

/// What a SYCL runtime does with an image: metadata from the descriptor, then a program made
/// from its SPIR-V and compiled for the link.
static ur_program_handle_t compile_image(const image_t *im) {
    ur_program_metadata_t *md = NULL;
    uint32_t n = 0;
    ck_assert_ur_ok(urcMetadataFromDeviceBinary(&im->binary, &md, &n));
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, n, md};
    ur_program_handle_t p = NULL;
    ck_assert_ur_ok(urProgramCreateWithIL(T.context, im->binary.binary_start,
                                          (size_t)(im->binary.binary_end - im->binary.binary_start),
                                          &props, &p));
    urcMetadataArrayFree(md);
    ck_assert_ur_ok(urProgramCompile(T.context, p, NULL));
    return p;
}

// ---- images given directly as ur_program_metadata_t -------------------------------------------

/// Creates and compiles `base` with the properties of `role` written as metadata entries.
static ur_program_handle_t compile_direct(const char *base, role_t role, const char *set) {
    e2e_bytes_t aspects = e2e_u32s(fp64, 1);
    ur_program_metadata_t md[3];
    uint32_t n = 0;
    md[n++] = (ur_program_metadata_t){role == ROLE_KERNEL
                                          ? "SYCL/virtual functions/uses-virtual-functions-set"
                                          : "SYCL/virtual functions/virtual-functions-set",
                                      UR_PROGRAM_METADATA_TYPE_STRING,
                                      0,
                                      {.pString = (char *)set}};
    if (role != ROLE_KERNEL)
        md[n++] = (ur_program_metadata_t){"SYCL/device requirements/aspects",
                                          UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY,
                                          aspects.size,
                                          {.pData = aspects.data}};
    if (role == ROLE_DUMMY)
        md[n++] = (ur_program_metadata_t){"SYCL/virtual functions/dummy-image",
                                          UR_PROGRAM_METADATA_TYPE_UINT32,
                                          sizeof(uint32_t),
                                          {.data32 = 1}};
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, n, md};
    ur_program_handle_t p = e2e_program(base, &props);
    ck_assert_ur_ok(urProgramCompile(T.context, p, NULL));
    return p;
}

/// Runs the linked vf_kernel over {0, 1, 2, 4} and returns the results in `out`.
static void run_vf_kernel(ur_program_handle_t linked, int out[4]) {
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(linked, "vf_kernel", &k));
    const int in[4] = {0, 1, 2, 4};
    ur_mem_handle_t m = e2e_int_buffer(in, 4);
    e2e_launch_buffer(k, m, 4, 0);
    ck_assert_ur_ok(
        urEnqueueMemBufferRead(T.queue, m, true, 0, 4 * sizeof(int), out, 0, NULL, NULL));
    ck_assert_ur_ok(urMemRelease(m));
    ck_assert_ur_ok(urKernelRelease(k));
}

static void release_all(ur_program_handle_t *p, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (p[i] != NULL)
            ck_assert_ur_ok(urProgramRelease(p[i]));
}

/// True when the device reports `ext` in UR_DEVICE_INFO_EXTENSIONS.
static bool has_extension(const char *ext) {
    char list[8192] = "";
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_EXTENSIONS, sizeof list, list, NULL));
    size_t n = strlen(ext);
    for (const char *p = list; (p = strstr(p, ext)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return true;
    return false;
}

// ---- urProgramLink: virtual functions ---------------------------------------------------------

START_TEST(descriptor_images_with_fp64_link_the_provider) {
    oclt_setup();
    if (T.il) {
        ck_assert(has_extension("cl_khr_fp64"));
        image_t *im = calloc(3, sizeof *im);
        image_init(&im[0], "vf_kernel", ROLE_KERNEL);
        image_init(&im[1], "vf_provider", ROLE_PROVIDER);
        image_init(&im[2], "vf_dummy", ROLE_DUMMY);
        ur_program_handle_t in[3] = {compile_image(&im[0]), compile_image(&im[1]),
                                     compile_image(&im[2])};
        ur_program_handle_t linked = NULL;
        ck_assert_ur_ok(urProgramLink(T.context, 3, in, NULL, &linked));
        int out[4];
        run_vf_kernel(linked, out);
        // P's vf_a: (int)(x * 2.5 + 0.25) in double.
        ck_assert_int_eq(out[0], 0);
        ck_assert_int_eq(out[1], 2);
        ck_assert_int_eq(out[2], 5);
        ck_assert_int_eq(out[3], 10);
        ck_assert_ur_ok(urProgramRelease(linked));
        release_all(in, 3);
        for (int i = 0; i < 3; ++i)
            free(im[i].spirv);
        free(im);
    }
    oclt_teardown();
}
END_TEST

START_TEST(masked_fp64_links_the_dummy) {
    e2e_setup_with_env("URC_MASK_ASPECTS", "fp64");
    if (T.il) {
        ur_program_handle_t in[3] = {compile_direct("vf_kernel", ROLE_KERNEL, "A"),
                                     compile_direct("vf_provider", ROLE_PROVIDER, "A"),
                                     compile_direct("vf_dummy", ROLE_DUMMY, "A")};
        // P was not compiled for a device without fp64 (no speculative compilation).
        ck_assert_ptr_nonnull(strstr(e2e_build_log(in[1]), "Not compiled for this device"));
        ur_program_handle_t linked = NULL;
        ck_assert_ur_ok(urProgramLink(T.context, 3, in, NULL, &linked));
        int out[4];
        run_vf_kernel(linked, out);
        for (int i = 0; i < 4; ++i)
            ck_assert_int_eq(out[i], -1); // D's vf_a
        ck_assert_ur_ok(urProgramRelease(linked));
        release_all(in, 3);
    }
    oclt_teardown();
}
END_TEST

START_TEST(direct_metadata_with_fp64_links_the_provider) {
    oclt_setup();
    if (T.il) {
        // The dummy comes first among the candidates: order does not matter, only K's place.
        ur_program_handle_t in[3] = {compile_direct("vf_kernel", ROLE_KERNEL, "A"),
                                     compile_direct("vf_dummy", ROLE_DUMMY, "A"),
                                     compile_direct("vf_provider", ROLE_PROVIDER, "A")};
        ur_program_handle_t linked = NULL;
        ck_assert_ur_ok(urProgramLink(T.context, 3, in, NULL, &linked));
        int out[4];
        run_vf_kernel(linked, out);
        ck_assert_int_eq(out[3], 10);
        ck_assert_ur_ok(urProgramRelease(linked));
        release_all(in, 3);
    }
    oclt_teardown();
}
END_TEST

START_TEST(missing_provider_fails_with_the_set_named) {
    oclt_setup();
    if (T.il) {
        // K uses "A"; the only candidate provides "B".
        ur_program_handle_t in[2] = {compile_direct("vf_kernel", ROLE_KERNEL, "A"),
                                     compile_direct("vf_dummy", ROLE_DUMMY, "B")};
        ur_program_handle_t linked = NULL;
        ck_assert_ur(urProgramLink(T.context, 2, in, NULL, &linked),
                     UR_RESULT_ERROR_PROGRAM_LINK_FAILURE);
        ck_assert_ptr_nonnull(linked);
        const char *want = "Virtual-function set 'A' is used but no device image provides it.";
        ck_assert_str_eq(e2e_build_log(linked), want);
        ck_assert_str_eq(e2e_last_error(NULL), want);
        ur_program_build_status_t status = UR_PROGRAM_BUILD_STATUS_NONE;
        ck_assert_ur_ok(urProgramGetBuildInfo(linked, T.device, UR_PROGRAM_BUILD_INFO_STATUS,
                                              sizeof status, &status, NULL));
        ck_assert_int_eq(status, UR_PROGRAM_BUILD_STATUS_ERROR);
        // The refused link has no kernels.
        ur_kernel_handle_t k = NULL;
        ck_assert_ur(urKernelCreate(linked, "vf_kernel", &k),
                     UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE);
        ck_assert_ur_ok(urProgramRelease(linked));
        release_all(in, 2);
    }
    oclt_teardown();
}
END_TEST

START_TEST(masked_fp64_without_dummy_fails_naming_the_aspect) {
    e2e_setup_with_env("URC_MASK_ASPECTS", "fp64");
    if (T.il) {
        ur_program_handle_t in[2] = {compile_direct("vf_kernel", ROLE_KERNEL, "A"),
                                     compile_direct("vf_provider", ROLE_PROVIDER, "A")};
        ur_program_handle_t linked = NULL;
        ck_assert_ur(urProgramLink(T.context, 2, in, NULL, &linked),
                     UR_RESULT_ERROR_PROGRAM_LINK_FAILURE);
        ck_assert_ptr_nonnull(linked);
        ck_assert_str_eq(e2e_build_log(linked),
                         "Virtual-function set 'A' is used but none of the 1 device images "
                         "providing it can be linked for this device: Kernel uses optional "
                         "feature corresponding to 'aspect::fp64' but device does not support "
                         "this aspect.");
        ck_assert_ur_ok(urProgramRelease(linked));
        release_all(in, 2);
    }
    oclt_teardown();
}
END_TEST

START_TEST(refused_link_cannot_be_linked_again) {
    oclt_setup();
    if (T.il) {
        ur_program_handle_t k = compile_direct("vf_kernel", ROLE_KERNEL, "A");
        ur_program_handle_t linked = NULL;
        ck_assert_ur(urProgramLink(T.context, 1, &k, NULL, &linked),
                     UR_RESULT_ERROR_PROGRAM_LINK_FAILURE);
        ur_program_handle_t again = NULL;
        ck_assert_ur(urProgramLink(T.context, 1, &linked, NULL, &again),
                     UR_RESULT_ERROR_INVALID_PROGRAM);
        ck_assert_ptr_null(again);
        size_t n = 0;
        ck_assert_ur(urProgramGetInfo(linked, UR_PROGRAM_INFO_NUM_KERNELS, sizeof n, &n, NULL),
                     UR_RESULT_ERROR_INVALID_PROGRAM_EXECUTABLE);
        uint32_t devices = 0;
        ck_assert_ur_ok(
            urProgramGetInfo(linked, UR_PROGRAM_INFO_NUM_DEVICES, sizeof devices, &devices, NULL));
        ck_assert_uint_eq(devices, 1);
        ck_assert_ur_ok(urProgramRelease(linked));
        ck_assert_ur_ok(urProgramRelease(k));
    }
    oclt_teardown();
}
END_TEST

START_TEST(images_without_vf_properties_link_as_given) {
    oclt_setup();
    if (T.il) {
        ur_program_handle_t in[2] = {e2e_program("vf_kernel", NULL),
                                     e2e_program("vf_provider", NULL)};
        for (int i = 0; i < 2; ++i)
            ck_assert_ur_ok(urProgramCompile(T.context, in[i], NULL));
        ur_program_handle_t linked = NULL;
        ck_assert_ur_ok(urProgramLink(T.context, 2, in, NULL, &linked));
        int out[4];
        run_vf_kernel(linked, out);
        ck_assert_int_eq(out[3], 10);
        ck_assert_ur_ok(urProgramRelease(linked));
        release_all(in, 2);
    }
    oclt_teardown();
}
END_TEST

// ---- urProgramBuild / urProgramCompile: device requirements ----------------------------------

/// Builds `base` with one "SYCL/device requirements" entry and expects the refusal `message`.
static void expect_refused_build(const char *base, ur_program_metadata_t req, const char *message) {
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 1, &req};
    ur_program_handle_t p = e2e_program(base, &props);
    ck_assert_ur(urProgramBuild(T.context, p, NULL), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_str_eq(e2e_build_log(p), message);
    ck_assert_str_eq(e2e_last_error(NULL), message);
    ur_program_build_status_t status = UR_PROGRAM_BUILD_STATUS_NONE;
    ck_assert_ur_ok(urProgramGetBuildInfo(p, T.device, UR_PROGRAM_BUILD_INFO_STATUS, sizeof status,
                                          &status, NULL));
    ck_assert_int_eq(status, UR_PROGRAM_BUILD_STATUS_ERROR);
    ck_assert_ur_ok(urProgramRelease(p));
}

START_TEST(fp16_image_on_device_without_fp16_is_refused) {
    // Intel's CPU runtime has cl_khr_fp16, so it is masked there; PoCL lacks it for real.
    oclt_setup();
    bool real = !has_extension("cl_khr_fp16");
    oclt_teardown();
    if (real)
        oclt_setup();
    else
        e2e_setup_with_env("URC_MASK_ASPECTS", "fp16");
    static const uint32_t fp16[] = {5};
    e2e_bytes_t aspects = e2e_u32s(fp16, 1);
    ur_program_metadata_t md = {"SYCL/device requirements/aspects",
                                UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY,
                                aspects.size,
                                {.pData = aspects.data}};
    expect_refused_build("fp16_kernel", md, FP16_MESSAGE);
    oclt_teardown();
}
END_TEST

START_TEST(fp16_image_with_fp16_builds_and_runs) {
    oclt_setup();
    if (has_extension("cl_khr_fp16") && T.il) {
        static const uint32_t fp16[] = {5};
        e2e_bytes_t aspects = e2e_u32s(fp16, 1);
        ur_program_metadata_t md = {"SYCL/device requirements/aspects",
                                    UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY,
                                    aspects.size,
                                    {.pData = aspects.data}};
        ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 1, &md};
        ur_program_handle_t p = e2e_program("fp16_kernel", &props);
        ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
        ur_kernel_handle_t k = NULL;
        ck_assert_ur_ok(urKernelCreate(p, "half_kernel", &k));
        const uint16_t in[2] = {0x3c00, 0x4000}; // 1.0 and 2.0 as half
        ur_mem_handle_t a = NULL, b = NULL;
        ck_assert_ur_ok(urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, sizeof in, NULL, &a));
        ck_assert_ur_ok(
            urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, 2 * sizeof(float), NULL, &b));
        ck_assert_ur_ok(urEnqueueMemBufferWrite(T.queue, a, true, 0, sizeof in, in, 0, NULL, NULL));
        ur_exp_kernel_arg_properties_t args[2] = {{UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                                   NULL,
                                                   UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ,
                                                   0,
                                                   sizeof a,
                                                   {.memObjTuple = {a, UR_MEM_FLAG_READ_ONLY}}},
                                                  {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                                   NULL,
                                                   UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ,
                                                   1,
                                                   sizeof b,
                                                   {.memObjTuple = {b, UR_MEM_FLAG_WRITE_ONLY}}}};
        size_t global = 2;
        ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(T.queue, k, 1, NULL, &global, NULL, 2,
                                                         args, NULL, 0, NULL, NULL));
        float out[2] = {0, 0};
        ck_assert_ur_ok(
            urEnqueueMemBufferRead(T.queue, b, true, 0, sizeof out, out, 0, NULL, NULL));
        ck_assert(out[0] == 2.5f && out[1] == 4.5f);
        ck_assert_ur_ok(urMemRelease(a));
        ck_assert_ur_ok(urMemRelease(b));
        ck_assert_ur_ok(urKernelRelease(k));
        ck_assert_ur_ok(urProgramRelease(p));
    }
    oclt_teardown();
}
END_TEST

START_TEST(unsupported_sub_group_size_is_refused) {
    oclt_setup();
    ur_program_metadata_t md = {"SYCL/device requirements/reqd_sub_group_size",
                                UR_PROGRAM_METADATA_TYPE_UINT32,
                                sizeof(uint32_t),
                                {.data32 = 3}};
    expect_refused_build("add_one", md,
                         "Kernel has a required sub-group size of '3' but device does not "
                         "support this sub-group size.");
    oclt_teardown();
}
END_TEST

START_TEST(too_large_work_group_is_refused) {
    oclt_setup();
    static const uint32_t dims[] = {1u << 20, 1u << 20, 1};
    e2e_bytes_t wg = e2e_u32s(dims, 3);
    ur_program_metadata_t md = {"SYCL/device requirements/reqd_work_group_size",
                                UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY,
                                wg.size,
                                {.pData = wg.data}};
    expect_refused_build("add_one", md,
                         "Kernel has a required work-group size of '[1048576,1048576,1]' but "
                         "device does not support this work-group size.");
    oclt_teardown();
}
END_TEST

START_TEST(met_requirements_build) {
    oclt_setup();
    static const uint32_t dims[] = {4, 1, 1};
    e2e_bytes_t wg = e2e_u32s(dims, 3);
    ur_program_metadata_t md[2] = {{"SYCL/device requirements/reqd_work_group_size",
                                    UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY,
                                    wg.size,
                                    {.pData = wg.data}},
                                   {"SYCL/device requirements/reqd_sub_group_size",
                                    UR_PROGRAM_METADATA_TYPE_UINT32,
                                    sizeof(uint32_t),
                                    {.data32 = 0}}};
    // One of the device's own sub-group sizes, where it lists any.
    uint32_t sizes[32];
    size_t bytes = 0;
    uint32_t n = 1;
    if (urDeviceGetInfo(T.device, UR_DEVICE_INFO_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes,
                        &bytes) == UR_RESULT_SUCCESS &&
        bytes >= sizeof sizes[0]) {
        md[1].value.data32 = sizes[0];
        n = 2;
    }
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, n, md};
    ur_program_handle_t p = e2e_program("add_one", &props);
    ck_assert_ur_ok(urProgramBuild(T.context, p, NULL));
    ck_assert_ur_ok(urProgramRelease(p));
    oclt_teardown();
}
END_TEST

START_TEST(compile_checks_requirements_too) {
    e2e_setup_with_env("URC_MASK_ASPECTS", "fp64");
    if (T.il) {
        e2e_bytes_t aspects = e2e_u32s(fp64, 1);
        ur_program_metadata_t md = {"SYCL/device requirements/aspects",
                                    UR_PROGRAM_METADATA_TYPE_BYTE_ARRAY,
                                    aspects.size,
                                    {.pData = aspects.data}};
        ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 1, &md};
        ur_program_handle_t p = e2e_program("vf_provider", &props);
        ck_assert_ur(urProgramCompile(T.context, p, NULL), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
        ck_assert_str_eq(e2e_build_log(p),
                         "Kernel uses optional feature corresponding to 'aspect::fp64' but device "
                         "does not support this aspect.");
        ck_assert_ur_ok(urProgramRelease(p));
    }
    oclt_teardown();
}
END_TEST

START_TEST(build_without_requirements_has_no_urc_lines) {
    oclt_setup();
    ur_program_handle_t p = e2e_program("add_one", NULL);
    ck_assert_ur_ok(urProgramBuildExp(p, 1, &T.device, 0, NULL));
    ck_assert_ptr_null(strstr(e2e_build_log(p), "optional feature"));
    ck_assert_ptr_null(strstr(e2e_build_log(p), "but device does not support"));
    ck_assert_ur_ok(urProgramRelease(p));
    oclt_teardown();
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("e2e device images (OpenCL)");
    TCase *tc = tcase_create("urProgramLink virtual functions");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, descriptor_images_with_fp64_link_the_provider);
    tcase_add_test(tc, masked_fp64_links_the_dummy);
    tcase_add_test(tc, direct_metadata_with_fp64_links_the_provider);
    tcase_add_test(tc, missing_provider_fails_with_the_set_named);
    tcase_add_test(tc, masked_fp64_without_dummy_fails_naming_the_aspect);
    tcase_add_test(tc, refused_link_cannot_be_linked_again);
    tcase_add_test(tc, images_without_vf_properties_link_as_given);
    suite_add_tcase(s, tc);
    tc = tcase_create("urProgramBuild device requirements");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fp16_image_on_device_without_fp16_is_refused);
    tcase_add_test(tc, fp16_image_with_fp16_builds_and_runs);
    tcase_add_test(tc, unsupported_sub_group_size_is_refused);
    tcase_add_test(tc, too_large_work_group_is_refused);
    tcase_add_test(tc, met_requirements_build);
    tcase_add_test(tc, build_without_requirements_has_no_urc_lines);
    suite_add_tcase(s, tc);
    tc = tcase_create("urProgramCompile device requirements");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, compile_checks_requirements_too);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return oclt_main(suite());
}
