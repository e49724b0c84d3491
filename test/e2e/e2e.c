// SPDX-License-Identifier: MIT
#include "e2e.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

e2e_bytes_t e2e_bytes(const void *payload, size_t n) {
    e2e_bytes_t b;
    memset(&b, 0, sizeof b);
    ck_assert_uint_le(n, sizeof b.data - 8);
    uint64_t bits = (uint64_t)n * 8;
    for (int i = 0; i < 8; ++i)
        b.data[i] = (uint8_t)(bits >> (8 * i));
    memcpy(b.data + 8, payload, n);
    b.size = 8 + n;
    return b;
}

e2e_bytes_t e2e_u32s(const uint32_t *values, size_t n) {
    uint8_t le[64];
    ck_assert_uint_le(n * 4, sizeof le);
    for (size_t i = 0; i < n; ++i)
        for (int k = 0; k < 4; ++k)
            le[4 * i + k] = (uint8_t)(values[i] >> (8 * k));
    return e2e_bytes(le, n * 4);
}

void e2e_setup_with_env(const char *name, const char *value) {
    ck_assert_int_eq(setenv(name, value, 1), 0);
    oclt_setup();
}

ur_program_handle_t e2e_program(const char *base, const ur_program_properties_t *props) {
    return oclt_program_in(E2E_KERNEL_DIR, base, props);
}

const char *e2e_build_log(ur_program_handle_t program) {
    static char log[8192];
    log[0] = '\0';
    ck_assert_ur_ok(
        urProgramGetBuildInfo(program, T.device, UR_PROGRAM_BUILD_INFO_LOG, sizeof log, log, NULL));
    return log;
}

const char *e2e_last_error(int32_t *code) {
    static char copy[2048];
    const char *msg = NULL;
    int32_t native = 0;
    urAdapterGetLastError(T.adapter, &msg, &native);
    snprintf(copy, sizeof copy, "%s", msg != NULL ? msg : "");
    if (code != NULL)
        *code = native;
    return copy;
}

void e2e_launch_buffer(ur_kernel_handle_t kernel, ur_mem_handle_t buffer, size_t global,
                       size_t local) {
    ur_exp_kernel_arg_properties_t arg = {UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES,
                                          NULL,
                                          UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ,
                                          0,
                                          sizeof buffer,
                                          {.memObjTuple = {buffer, UR_MEM_FLAG_READ_WRITE}}};
    ck_assert_ur_ok(urEnqueueKernelLaunchWithArgsExp(
        T.queue, kernel, 1, NULL, &global, local ? &local : NULL, 1, &arg, NULL, 0, NULL, NULL));
}

ur_mem_handle_t e2e_int_buffer(const int *values, size_t n) {
    ur_mem_handle_t m = NULL;
    ck_assert_ur_ok(
        urMemBufferCreate(T.context, UR_MEM_FLAG_READ_WRITE, n * sizeof(int), NULL, &m));
    ck_assert_ur_ok(
        urEnqueueMemBufferWrite(T.queue, m, true, 0, n * sizeof(int), values, 0, NULL, NULL));
    // A blocking write only promises the host copy was taken (OpenCL's rule); other queues may
    // use the buffer once the write has completed.
    ck_assert_ur_ok(urQueueFinish(T.queue));
    return m;
}

static char needle[128];
static atomic_int matches;

static void count_message(ur_logger_level_t level, const char *msg, void *user) {
    (void)level;
    (void)user;
    if (strstr(msg, needle) != NULL)
        atomic_fetch_add(&matches, 1);
}

void e2e_count_log(const char *text) {
    snprintf(needle, sizeof needle, "%s", text);
    atomic_store(&matches, 0);
    ck_assert_ur_ok(
        urAdapterSetLoggerCallback(T.adapter, count_message, NULL, UR_LOGGER_LEVEL_DEBUG));
}

int e2e_log_count(void) {
    return atomic_load(&matches);
}
