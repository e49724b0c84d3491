// SPDX-License-Identifier: MIT
// Device-image rules on the Level Zero adapter (seeds 002 and 003): "SYCL/device requirements"
// checked at build, compile and link, and the virtual-function selection of urProgramLink.
// Runs with URC_MASK_ASPECTS=fp64, so the simulated GPU (which has fp64) reports it absent.
//
// vf_kernel.spv uses vf_a (set "set-a"); vf_provider.spv provides it in double precision
// (needs fp64); vf_dummy.spv is the provider's dummy twin. Each input is compiled with its own
// option (-DK, -DP, -DD), and the simulator records the options of every input that reached
// zeModuleCreate, which shows what was linked.
#include <stdlib.h>
#include <string.h>

#include "l0t.h"
#include "md_builder.h"

#define VF "SYCL/virtual functions/"

static const char fp64_message[] = "Kernel uses optional feature corresponding to 'aspect::fp64' "
                                   "but device does not support this aspect.";

static ur_program_handle_t program_with(const char *file, md_list_t *l) {
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, l->n, l->e};
    ur_program_handle_t p = l0t_program(file, l->n > 0 ? &props : NULL);
    md_free(l);
    return p;
}

static ur_program_handle_t needs_fp64(const char *file) {
    md_list_t l = {0};
    uint32_t fp64 = 6;
    md_u32s(&l, "SYCL/device requirements/aspects", &fp64, 1);
    return program_with(file, &l);
}

static char *flags_of(uint32_t index) {
    size_t size = 0;
    if (T.sim.GetLastBuildFlags(index, &size, NULL) != ZE_RESULT_SUCCESS)
        return NULL;
    char *s = calloc(size + 1, 1);
    ck_assert_int_eq(T.sim.GetLastBuildFlags(index, &size, s), ZE_RESULT_SUCCESS);
    return s;
}

// ---- requirements ----

START_TEST(masked_aspect_disappears_from_the_queries) {
    uint32_t fp = 99;
    ck_assert_ur_ok(
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL));
    ck_assert_uint_eq(fp, 0);
    char ext[1024] = "";
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_EXTENSIONS, sizeof ext, ext, NULL));
    ck_assert_ptr_null(strstr(ext, "cl_khr_fp64"));
}
END_TEST

START_TEST(build_refuses_an_image_the_device_cannot_run) {
    ur_program_handle_t p = needs_fp64("globals.spv");
    ck_assert_ur(urProgramBuild(T.context, p, NULL), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    char *log = l0t_log(p);
    ck_assert_str_eq(log, fp64_message);
    free(log);
    const char *msg = NULL;
    int32_t code = 0;
    ck_assert_ur_ok(urAdapterGetLastError(T.adapter, &msg, &code));
    ck_assert_str_eq(msg, fp64_message);
    ur_program_build_status_t s = UR_PROGRAM_BUILD_STATUS_NONE;
    ck_assert_ur_ok(
        urProgramGetBuildInfo(p, T.device, UR_PROGRAM_BUILD_INFO_STATUS, sizeof s, &s, NULL));
    ck_assert_int_eq(s, UR_PROGRAM_BUILD_STATUS_ERROR);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(compile_refuses_an_image_the_device_cannot_run) {
    ur_program_handle_t p = needs_fp64("globals.spv");
    ck_assert_ur(urProgramCompile(T.context, p, NULL), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    char *log = l0t_log(p);
    ck_assert_str_eq(log, fp64_message);
    free(log);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

// ---- virtual functions ----

static ur_program_handle_t vf_program(const char *file, const char *option, int role) {
    md_list_t l = {0};
    if (role == 0) {
        md_str(&l, VF "uses-virtual-functions-set", "set-a");
    } else {
        // The dummy is the provider's emptied copy: same set, same requirements, marked dummy.
        uint32_t fp64 = 6;
        md_str(&l, VF "virtual-functions-set", "set-a");
        md_u32s(&l, "SYCL/device requirements/aspects", &fp64, 1);
        if (role == 2)
            md_u32(&l, VF "dummy-image", 1);
    }
    ur_program_handle_t p = program_with(file, &l);
    ck_assert_ur_ok(urProgramCompileExp(p, 1, &T.device, 0, option));
    return p;
}

// The real provider needs fp64, which is masked: its dummy twin is linked instead. Both are
// compiled (a provider is a candidate of the link's selection, so compile does not refuse it).
START_TEST(link_selects_the_dummy_provider) {
    ur_program_handle_t k = vf_program("vf_kernel.spv", "-DK", 0);
    ur_program_handle_t p = vf_program("vf_provider.spv", "-DP", 1);
    ur_program_handle_t d = vf_program("vf_dummy.spv", "-DD", 2);
    ur_program_handle_t in[3] = {k, p, d}, linked = NULL;
    ck_assert_ur_ok(urProgramLink(T.context, 3, in, NULL, &linked));
    char *f0 = flags_of(0), *f1 = flags_of(1), *f2 = flags_of(2);
    ck_assert_str_eq(f0, "-DK");
    ck_assert_str_eq(f1, "-DD");
    ck_assert_ptr_null(f2);
    free(f0);
    free(f1);
    ur_kernel_handle_t kernel = NULL;
    ck_assert_ur_ok(urKernelCreate(linked, "vf_kernel", &kernel));
    ck_assert_ur_ok(urKernelRelease(kernel));
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(d));
    ck_assert_ur_ok(urProgramRelease(p));
    ck_assert_ur_ok(urProgramRelease(k));
}
END_TEST

// A provider that is itself the main image must suit the device: the link refuses it with the
// seed's message and returns no program.
START_TEST(link_refuses_a_main_image_the_device_cannot_run) {
    ur_program_handle_t p = vf_program("vf_provider.spv", "-DP", 1);
    ur_program_handle_t linked = NULL;
    ck_assert_ur(urProgramLink(T.context, 1, &p, NULL, &linked),
                 UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
    ck_assert_ptr_null(linked);
    const char *msg = NULL;
    int32_t code = 0;
    ck_assert_ur_ok(urAdapterGetLastError(T.adapter, &msg, &code));
    ck_assert_str_eq(msg, fp64_message);
    ck_assert_ur_ok(urProgramRelease(p));
}
END_TEST

START_TEST(link_without_a_provider_is_a_link_failure) {
    ur_program_handle_t k = vf_program("vf_kernel.spv", "-DK", 0);
    ur_program_handle_t linked = NULL;
    ck_assert_ur(urProgramLink(T.context, 1, &k, NULL, &linked),
                 UR_RESULT_ERROR_PROGRAM_LINK_FAILURE);
    ck_assert_ptr_nonnull(linked);
    char *log = l0t_log(linked);
    ck_assert_ptr_nonnull(
        strstr(log, "Virtual-function set 'set-a' is used but no device image provides it."));
    free(log);
    ck_assert_ur_ok(urProgramRelease(linked));
    ck_assert_ur_ok(urProgramRelease(k));
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("level_zero_device_image");
    const urc_test_case_t cases[] = {
        {"urDeviceGetInfo", {masked_aspect_disappears_from_the_queries}},
        {"urProgramBuild", {build_refuses_an_image_the_device_cannot_run}},
        {"urProgramCompile", {compile_refuses_an_image_the_device_cannot_run}},
        {"urProgramLink",
         {link_refuses_a_main_image_the_device_cannot_run, link_selects_the_dummy_provider,
          link_without_a_provider_is_a_link_failure}},
    };
    urc_test_add_cases(s, l0t_tcase, cases, sizeof cases / sizeof cases[0]);
    return s;
}

int main(void) {
    return l0t_main(suite());
}
