// SPDX-License-Identifier: MIT
#include "cudat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

cudat_t T;

// Metadata names made by cudat_map_global, freed at teardown.
static char *md_names[64];
static size_t md_name_count;

static uint32_t count_platforms(void) {
    if (urLoaderInit(0, NULL) != UR_RESULT_SUCCESS)
        return 0;
    ur_adapter_handle_t adapter = NULL;
    uint32_t n = 0, platforms = 0;
    if (urAdapterGet(1, &adapter, &n) != UR_RESULT_SUCCESS || n == 0)
        return 0;
    if (urPlatformGet(adapter, 0, NULL, &platforms) != UR_RESULT_SUCCESS)
        platforms = 0;
    return platforms;
}

const char *cudat_kernel_dir(void) {
    const char *dir = getenv("URC_CUDA_TEST_KERNELS");
    return dir != NULL && dir[0] != '\0' ? dir : CUDAT_KERNEL_DIR;
}

static bool have_kernels(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/globals.ptx", cudat_kernel_dir());
    return access(path, R_OK) == 0;
}

int cudat_main(Suite *suite, bool needs_kernels) {
    // Probe in a child: a process that initialised CUDA cannot use it after fork(), and Check
    // forks for every test.
    pid_t pid = fork();
    if (pid == 0)
        _exit(count_platforms() > 0 ? 0 : URC_TEST_SKIP);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return EXIT_FAILURE;
    const char *why = NULL;
    if (WEXITSTATUS(status) == URC_TEST_SKIP)
        why = "no CUDA device";
    else if (needs_kernels && !have_kernels())
        why = "no device code (nvcc was absent at build time)";
    if (why != NULL) {
        fprintf(stderr, "%s: skipped\n", why);
        srunner_free(srunner_create(suite));
        return URC_TEST_SKIP;
    }
    return urc_test_run(suite);
}

void cudat_setup(void) {
    memset(&T, 0, sizeof T);
    ck_assert_ur_ok(urLoaderInit(0, NULL));
    ck_assert_ur_ok(urAdapterGet(1, &T.adapter, NULL));
    ck_assert_ur_ok(urPlatformGet(T.adapter, 1, &T.platform, NULL));
    ck_assert_ur_ok(urDeviceGet(T.platform, UR_DEVICE_TYPE_ALL, 1, &T.device, NULL));
    ck_assert_ur_ok(urContextCreate(1, &T.device, NULL, &T.context));
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, NULL, &T.queue));
}

void cudat_teardown(void) {
    if (T.queue != NULL)
        ck_assert_ur_ok(urQueueRelease(T.queue));
    if (T.context != NULL)
        ck_assert_ur_ok(urContextRelease(T.context));
    if (T.adapter != NULL)
        urAdapterRelease(T.adapter);
    urLoaderTearDown();
    for (size_t i = 0; i < md_name_count; ++i)
        free(md_names[i]);
    md_name_count = 0;
}

TCase *cudat_tcase(const char *name) {
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, cudat_setup, cudat_teardown);
    tcase_set_timeout(tc, 120);
    return tc;
}

void *cudat_read_kernel(const char *file, size_t *size) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", cudat_kernel_dir(), file);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "kernel file %s missing", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    ck_assert_int_gt(n, 0);
    void *data = malloc((size_t)n);
    ck_assert_ptr_nonnull(data);
    ck_assert_uint_eq(fread(data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return data;
}

ur_program_handle_t cudat_program(const char *file, const md_list_t *metadata) {
    size_t size = 0;
    void *data = cudat_read_kernel(file, &size);
    const uint8_t *bin = data;
    ur_program_properties_t props = {UR_STRUCTURE_TYPE_PROGRAM_PROPERTIES, NULL, 0, NULL};
    if (metadata != NULL && metadata->n > 0) {
        props.count = metadata->n;
        props.pMetadatas = metadata->e;
    }
    ur_program_handle_t program = NULL;
    ck_assert_ur_ok(urProgramCreateWithBinary(T.context, 1, &T.device, &size, &bin,
                                              metadata != NULL ? &props : NULL, &program));
    free(data);
    return program;
}

ur_program_handle_t cudat_built_program(const char *file, const md_list_t *metadata) {
    ur_program_handle_t program = cudat_program(file, metadata);
    ur_result_t res = urProgramBuild(T.context, program, NULL);
    if (res != UR_RESULT_SUCCESS) {
        char log[4096] = "";
        urProgramGetBuildInfo(program, T.device, UR_PROGRAM_BUILD_INFO_LOG, sizeof log, log, NULL);
        ck_abort_msg("urProgramBuild(%s) returned %s; log: %s", file, urc_test_result_name(res),
                     log);
    }
    return program;
}

void cudat_map_global(md_list_t *md, const char *id, const char *symbol) {
    size_t n = strlen(id) + sizeof "@global_id_mapping";
    char *name = malloc(n);
    ck_assert_ptr_nonnull(name);
    snprintf(name, n, "%s@global_id_mapping", id);
    ck_assert_uint_lt(md_name_count, sizeof md_names / sizeof md_names[0]);
    md_names[md_name_count++] = name;
    md_bytes(md, name, symbol, strlen(symbol));
}

ur_exp_kernel_arg_properties_t cudat_arg_pointer(uint32_t index, const void *ptr) {
    ur_exp_kernel_arg_properties_t a;
    memset(&a, 0, sizeof a);
    a.stype = UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES;
    a.type = UR_EXP_KERNEL_ARG_TYPE_POINTER;
    a.index = index;
    a.size = sizeof(void *);
    a.value.pointer = ptr;
    return a;
}

ur_exp_kernel_arg_properties_t cudat_arg_value(uint32_t index, const void *value, size_t size) {
    ur_exp_kernel_arg_properties_t a;
    memset(&a, 0, sizeof a);
    a.stype = UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES;
    a.type = UR_EXP_KERNEL_ARG_TYPE_VALUE;
    a.index = index;
    a.size = size;
    a.value.value = value;
    return a;
}

ur_exp_kernel_arg_properties_t cudat_arg_local(uint32_t index, size_t size) {
    ur_exp_kernel_arg_properties_t a;
    memset(&a, 0, sizeof a);
    a.stype = UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES;
    a.type = UR_EXP_KERNEL_ARG_TYPE_LOCAL;
    a.index = index;
    a.size = size;
    return a;
}

ur_result_t cudat_launch(ur_queue_handle_t queue, ur_kernel_handle_t kernel, size_t global,
                         const size_t *local, uint32_t num_args,
                         const ur_exp_kernel_arg_properties_t *args, uint32_t num_events,
                         const ur_event_handle_t *events, ur_event_handle_t *event) {
    return urEnqueueKernelLaunchWithArgsExp(queue, kernel, 1, NULL, &global, local, num_args, args,
                                            NULL, num_events, events, event);
}

ur_command_t cudat_event_command(ur_event_handle_t event) {
    ur_command_t command = UR_COMMAND_FORCE_UINT32;
    ck_assert_ur_ok(
        urEventGetInfo(event, UR_EVENT_INFO_COMMAND_TYPE, sizeof command, &command, NULL));
    return command;
}
