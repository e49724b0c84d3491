// SPDX-License-Identifier: MIT
#define ZE_SIM_WANT_API_LOADER
#include "l0t.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

l0t_t T;

int l0t_main(Suite *suite) {
    return urc_test_main_with_platform(suite,
                                       "no Level Zero platform (is ZE_ENABLE_ALT_DRIVERS set?)");
}

void l0t_setup(void) {
    memset(&T, 0, sizeof T);
    urc_test_open(&T.adapter, &T.platform, &T.device, &T.context, &T.queue);
    // The same path the Level Zero loader opened, so this is the loader's instance.
    ck_assert_int_eq(ze_sim_api_load(&T.sim, L0T_SIM_LIBRARY), 0);
    T.sim.Reset();
}

void l0t_teardown(void) {
    if (T.user_pool != NULL)
        ck_assert_int_eq(zeEventPoolDestroy(T.user_pool), ZE_RESULT_SUCCESS);
    if (T.queue != NULL)
        ck_assert_ur_ok(urQueueRelease(T.queue));
    if (T.context != NULL)
        ck_assert_ur_ok(urContextRelease(T.context));
    // Everything the test made is released by now: the driver must hold nothing of ours.
    if (T.sim.library != NULL) {
        ck_assert_uint_eq(T.sim.GetLiveObjectCount(), 0);
        ck_assert_uint_eq(T.sim.GetLiveAllocationCount(), 0);
    }
    if (T.adapter != NULL)
        urAdapterRelease(T.adapter);
    urLoaderTearDown();
}

TCase *l0t_tcase(const char *name) {
    return urc_test_tcase(name, l0t_setup, l0t_teardown);
}

void *l0t_read(const char *file, size_t *size) {
    // The simulator's own test modules, then the shared test kernels.
    static const char *const dirs[] = {L0T_SIM_SPV_DIR, L0T_KERNEL_DIR};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; ++i) {
        void *data = urc_test_read_file(dirs[i], file, size);
        if (data != NULL)
            return data;
    }
    ck_abort_msg("device code %s missing (device code tools absent?)", file);
    return NULL;
}

ur_program_handle_t l0t_program(const char *file, const ur_program_properties_t *props) {
    size_t size = 0;
    void *data = l0t_read(file, &size);
    ur_program_handle_t program = NULL;
    ck_assert_ur_ok(urProgramCreateWithIL(T.context, data, size, props, &program));
    free(data);
    return program;
}

ur_program_handle_t l0t_built(const char *file) {
    ur_program_handle_t program = l0t_program(file, NULL);
    ck_assert_ur_ok(urProgramBuild(T.context, program, NULL));
    return program;
}

ur_queue_handle_t l0t_queue(ur_queue_flags_t flags) {
    ur_queue_properties_t props = {UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, NULL, flags};
    ur_queue_handle_t q = NULL;
    ck_assert_ur_ok(urQueueCreate(T.context, T.device, &props, &q));
    return q;
}

char *l0t_log(ur_program_handle_t program) {
    size_t size = 0;
    ck_assert_ur_ok(
        urProgramGetBuildInfo(program, T.device, UR_PROGRAM_BUILD_INFO_LOG, 0, NULL, &size));
    char *log = calloc(size + 1, 1);
    ck_assert_ur_ok(
        urProgramGetBuildInfo(program, T.device, UR_PROGRAM_BUILD_INFO_LOG, size, log, NULL));
    return log;
}

ur_command_t l0t_command(ur_event_handle_t event) {
    ur_command_t c = UR_COMMAND_FORCE_UINT32;
    ck_assert_ur_ok(urEventGetInfo(event, UR_EVENT_INFO_COMMAND_TYPE, sizeof c, &c, NULL));
    return c;
}

ur_event_status_t l0t_status(ur_event_handle_t event) {
    ur_event_status_t s = UR_EVENT_STATUS_FORCE_UINT32;
    ck_assert_ur_ok(
        urEventGetInfo(event, UR_EVENT_INFO_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL));
    return s;
}

ur_event_handle_t l0t_user_event(ze_event_handle_t *ze) {
    ur_native_handle_t native_ctx = 0;
    ck_assert_ur_ok(urContextGetNativeHandle(T.context, &native_ctx));
    if (T.user_pool == NULL) {
        ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                   ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 64};
        ck_assert_int_eq(
            zeEventPoolCreate((ze_context_handle_t)native_ctx, &pd, 0, NULL, &T.user_pool),
            ZE_RESULT_SUCCESS);
    }
    ck_assert_uint_lt(T.user_events, 64);
    ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, T.user_events++,
                          ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    ck_assert_int_eq(zeEventCreate(T.user_pool, &ed, ze), ZE_RESULT_SUCCESS);
    ur_event_native_properties_t props = {UR_STRUCTURE_TYPE_EVENT_NATIVE_PROPERTIES, NULL, true};
    ur_event_handle_t e = NULL;
    ck_assert_ur_ok(urEventCreateWithNativeHandle((ur_native_handle_t)*ze, T.context, &props, &e));
    return e;
}
