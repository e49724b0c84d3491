// SPDX-License-Identifier: MIT
#include "cudat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

cudat_t T;

// Metadata names made by cudat_map_global, freed at teardown.
static char *md_names[64];
static size_t md_name_count;

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
    int found = urc_test_probe_platform();
    if (found < 0)
        return EXIT_FAILURE;
    if (found == 0)
        return urc_test_skip(suite, "no CUDA device");
    if (needs_kernels && !have_kernels())
        return urc_test_skip(suite, "no device code (nvcc was absent at build time)");
    return urc_test_run(suite);
}

void cudat_setup(void) {
    memset(&T, 0, sizeof T);
    urc_test_open(&T.adapter, &T.platform, &T.device, &T.context, &T.queue);
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
    return urc_test_tcase(name, cudat_setup, cudat_teardown);
}

static void program_setup(void) {
    cudat_setup();
    T.program = cudat_built_program("globals.ptx", NULL);
}

static void program_teardown(void) {
    ck_assert_ur_ok(urProgramRelease(T.program));
    cudat_teardown();
}

TCase *cudat_program_tcase(const char *name) {
    return urc_test_tcase(name, program_setup, program_teardown);
}

void *cudat_read_kernel(const char *file, size_t *size) {
    void *data = urc_test_read_file(cudat_kernel_dir(), file, size);
    ck_assert_msg(data != NULL, "kernel file %s/%s missing", cudat_kernel_dir(), file);
    ck_assert_int_gt(*size, 0);
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
