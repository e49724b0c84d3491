// SPDX-License-Identifier: MIT
#include "oclt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

oclt_t T;

int oclt_main(Suite *suite) {
    return urc_test_main_with_platform(suite, "no OpenCL platform");
}

uint32_t oclt_device_u32(ur_device_info_t what) {
    uint32_t v = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, what, sizeof v, &v, NULL));
    return v;
}

void oclt_setup(void) {
    memset(&T, 0, sizeof T);
    urc_test_open(&T.adapter, &T.platform, &T.device, &T.context, &T.queue);
    char name[256] = "";
    ck_assert_ur_ok(urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_NAME, sizeof name, name, NULL));
    T.intel = strstr(name, "Intel") != NULL;
    size_t size = 0;
    // A device without IL answers an empty list (PoCL).
    T.il =
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_IL_VERSION, 0, NULL, &size) == UR_RESULT_SUCCESS &&
        size > 1;
    T.usm = oclt_device_u32(UR_DEVICE_INFO_USM_DEVICE_SUPPORT) != 0;
    ur_bool_t globals = false;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, UR_DEVICE_INFO_GLOBAL_VARIABLE_SUPPORT,
                                    sizeof globals, &globals, NULL));
    T.globals = globals;
}

void oclt_teardown(void) {
    if (T.queue != NULL)
        urQueueRelease(T.queue);
    if (T.context != NULL)
        urContextRelease(T.context);
    if (T.adapter != NULL)
        urAdapterRelease(T.adapter);
    urLoaderTearDown();
}

TCase *oclt_tcase(const char *name) {
    return urc_test_tcase(name, oclt_setup, oclt_teardown);
}

void *oclt_read_kernel(const char *file, size_t *size) {
    return urc_test_read_file(OCLT_KERNEL_DIR, file, size);
}

ur_program_handle_t oclt_program_in(const char *dir, const char *base,
                                    const ur_program_properties_t *props) {
    char file[256];
    snprintf(file, sizeof file, "%s.%s", base, T.il ? "spv" : "bc");
    size_t size = 0;
    void *data = urc_test_read_file(dir, file, &size);
    ck_assert_msg(data != NULL, "kernel file %s missing (device code tools absent?)", file);
    ur_program_handle_t program = NULL;
    if (T.il) {
        ck_assert_ur_ok(urProgramCreateWithIL(T.context, data, size, props, &program));
    } else {
        const uint8_t *bin = data;
        ck_assert_ur_ok(
            urProgramCreateWithBinary(T.context, 1, &T.device, &size, &bin, props, &program));
    }
    free(data);
    return program;
}

ur_program_handle_t oclt_program(const char *base, const ur_program_properties_t *props) {
    return oclt_program_in(OCLT_KERNEL_DIR, base, props);
}

ur_program_handle_t oclt_built_program(const char *base) {
    ur_program_handle_t program = oclt_program(base, NULL);
    ck_assert_ur_ok(urProgramBuild(T.context, program, NULL));
    return program;
}
