// SPDX-License-Identifier: MIT
// Virtual-function image selection at link time (seed 003): a kernel image using set "vf-set",
// a real provider that needs fp64 and its dummy twin. The real one is linked on a device with
// fp64; with URC_MASK_ASPECTS=fp64 the dummy is, and the kernel sees the dummy's answer.
#include <stdlib.h>
#include <string.h>

#include "cudat.h"

#define SET_NAME "vf-set"

static int run(bool mask_fp64) {
    if (mask_fp64)
        setenv("URC_MASK_ASPECTS", "fp64", 1);
    cudat_setup();
    md_list_t kernel_md = {0}, real_md = {0}, dummy_md = {0};
    const uint32_t fp64 = 6;
    md_bytes(&kernel_md, "SYCL/virtual functions/uses-virtual-functions-set", SET_NAME,
             strlen(SET_NAME));
    md_bytes(&real_md, "SYCL/virtual functions/virtual-functions-set", SET_NAME, strlen(SET_NAME));
    md_u32s(&real_md, "SYCL/device requirements/aspects", &fp64, 1);
    md_bytes(&dummy_md, "SYCL/virtual functions/virtual-functions-set", SET_NAME, strlen(SET_NAME));
    md_u32s(&dummy_md, "SYCL/device requirements/aspects", &fp64, 1);
    md_u32(&dummy_md, "SYCL/virtual functions/dummy-image", 1);
    ur_program_handle_t in[3] = {cudat_program("vf_kernel.ptx", &kernel_md),
                                 cudat_program("vf_real.ptx", &real_md),
                                 cudat_program("vf_dummy.ptx", &dummy_md)};
    md_free(&kernel_md);
    md_free(&real_md);
    md_free(&dummy_md);
    // Both providers define vf_impl: linking both would fail, so success shows one was picked.
    ur_program_handle_t linked = NULL;
    ck_assert_ur_ok(urProgramLink(T.context, 3, in, NULL, &linked));
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(linked, "vf_kernel", &k));
    int *d = NULL, result = 0;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, sizeof(int), (void **)&d));
    ur_exp_kernel_arg_properties_t arg = cudat_arg_pointer(0, d);
    size_t one = 1;
    ck_assert_ur_ok(cudat_launch(T.queue, k, 1, &one, 1, &arg, 0, NULL, NULL));
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, &result, d, sizeof result, 0, NULL, NULL));
    ck_assert_ur_ok(urUSMFree(T.context, d));
    ck_assert_ur_ok(urKernelRelease(k));
    ck_assert_ur_ok(urProgramRelease(linked));
    for (int i = 0; i < 3; ++i)
        ck_assert_ur_ok(urProgramRelease(in[i]));
    cudat_teardown();
    return result;
}

START_TEST(real_provider_linked_with_fp64) {
    ck_assert_int_eq(run(false), 102);
}
END_TEST

START_TEST(dummy_provider_linked_without_fp64) {
    ck_assert_int_eq(run(true), -1);
}
END_TEST

int main(void) {
    Suite *s = suite_create("cuda virtual-function link");
    TCase *tc = tcase_create("urProgramLink");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, real_provider_linked_with_fp64);
    tcase_add_test(tc, dummy_provider_linked_without_fp64);
    suite_add_tcase(s, tc);
    return cudat_main(s, true);
}
