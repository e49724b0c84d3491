// SPDX-License-Identifier: MIT
#include "oclt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

oclt_t T;

static uint32_t count_platforms(void) {
    if (urLoaderInit(0, NULL) != UR_RESULT_SUCCESS)
        return 0;
    ur_adapter_handle_t adapter = NULL;
    uint32_t n = 0;
    if (urAdapterGet(1, &adapter, &n) != UR_RESULT_SUCCESS || n == 0)
        return 0;
    uint32_t platforms = 0;
    urPlatformGet(adapter, 0, NULL, &platforms);
    return platforms;
}

int oclt_main(Suite *suite) {
    // Probe in a child: the OpenCL runtimes start threads, and Check forks for every test.
    pid_t pid = fork();
    if (pid == 0)
        _exit(count_platforms() > 0 ? 0 : URC_TEST_SKIP);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return EXIT_FAILURE;
    if (WEXITSTATUS(status) == URC_TEST_SKIP) {
        fprintf(stderr, "no OpenCL platform: skipped\n");
        srunner_free(srunner_create(suite));
        return URC_TEST_SKIP;
    }
    return urc_test_run(suite);
}

uint32_t oclt_device_u32(ur_device_info_t what) {
    uint32_t v = 0;
    ck_assert_ur_ok(urDeviceGetInfo(T.device, what, sizeof v, &v, NULL));
    return v;
}

void oclt_setup(void) {
    memset(&T, 0, sizeof T);
    ck_assert_ur_ok(urLoaderInit(0, NULL));
    ck_assert_ur_ok(urAdapterGet(1, &T.adapter, NULL));
    ck_assert_ur_ok(urPlatformGet(T.adapter, 1, &T.platform, NULL));
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_ALL, 1, &T.device, NULL));
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &T.context));
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &T.queue));
    char name[256] = "";
    ck_assert_ur_ok(urPlatformGetInfo(T.platform, UR_PLATFORM_INFO_NAME, sizeof name, name, NULL));
    T.intel = strstr(name, "Intel") != NULL;
    size_t size = 0;
    T.il =
        urDeviceGetInfo(T.device, UR_DEVICE_INFO_IL_VERSION, 0, NULL, &size) == UR_RESULT_SUCCESS;
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
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, oclt_setup, oclt_teardown);
    tcase_set_timeout(tc, 120);
    return tc;
}

void *oclt_read_kernel(const char *file, size_t *size) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", OCLT_KERNEL_DIR, file);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *data = malloc(n > 0 ? (size_t)n : 1);
    if (data != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

ur_program_handle_t oclt_program(const char *base, const ur_program_properties_t *props) {
    char file[256];
    snprintf(file, sizeof file, "%s.%s", base, T.il ? "spv" : "bc");
    size_t size = 0;
    void *data = oclt_read_kernel(file, &size);
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

ur_program_handle_t oclt_built_program(const char *base) {
    ur_program_handle_t program = oclt_program(base, NULL);
    ck_assert_ur_ok(urProgramBuild(T.context, program, NULL));
    return program;
}
