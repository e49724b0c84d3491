// SPDX-License-Identifier: MIT
// The simulated driver's mutable command lists (mutable.c), through the real Level Zero loader:
// ids, updates of arguments, group count and size, offset, kernels, signal and wait events
// reaching later executions, and the errors. The entry points come from
// zeDriverGetExtensionFunctionAddress; the loader's intercept mode would hand them its wrapped
// handles, so this suite does not run under it.
#define ZE_SIM_WANT_API_LOADER
#include "ze_sim.h"

#include <check.h>
#include <level_zero/ze_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../adapters/level_zero/ze_mutable_exp.h"

#define ck_assert_ze(expr, want)                                                                   \
    do {                                                                                           \
        ze_result_t got_ = (expr);                                                                 \
        ck_assert_msg(got_ == (want), "%s returned 0x%x, expected 0x%x", #expr, (unsigned)got_,    \
                      (unsigned)(want));                                                           \
    } while (0)
#define ck_assert_ze_ok(expr) ck_assert_ze((expr), ZE_RESULT_SUCCESS)

static ze_sim_api_t g_sim;
static ze_driver_handle_t g_driver;
static ze_device_handle_t g_device;
static ze_context_handle_t g_context;
static ze_module_handle_t g_module;
static ze_kernel_handle_t g_fill, g_reqd; // sim_fill(uint *dst, uint n, local uint *), sim_reqd()
static struct {
    urc_zeCommandListGetNextCommandIdExp_fn next_id;
    urc_zeCommandListGetNextCommandIdWithKernelsExp_fn next_id_with_kernels;
    urc_zeCommandListUpdateMutableCommandsExp_fn update;
    urc_zeCommandListUpdateMutableCommandSignalEventExp_fn update_signal;
    urc_zeCommandListUpdateMutableCommandWaitEventsExp_fn update_waits;
    urc_zeCommandListUpdateMutableCommandKernelsExp_fn update_kernels;
} mcl;

static void lookup(const char *name, void *field) {
    void *fn = NULL;
    ck_assert_ze_ok(zeDriverGetExtensionFunctionAddress(g_driver, name, &fn));
    ck_assert_ptr_nonnull(fn);
    memcpy(field, &fn, sizeof fn);
}

static ze_kernel_handle_t kernel(const char *name) {
    ze_kernel_desc_t kd = {ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, name};
    ze_kernel_handle_t k = NULL;
    ck_assert_ze_ok(zeKernelCreate(g_module, &kd, &k));
    return k;
}

static void setup(void) {
    ck_assert_ze_ok(zeInit(0));
    uint32_t n = 1;
    ck_assert_ze_ok(zeDriverGet(&n, &g_driver));
    n = 1;
    ck_assert_ze_ok(zeDeviceGet(g_driver, &n, &g_device));
    ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ck_assert_ze_ok(zeContextCreate(g_driver, &cd, &g_context));
    ck_assert_int_eq(ze_sim_api_load(&g_sim, ZE_SIM_LIBRARY), 0);
    g_sim.Reset();
    lookup("zeCommandListGetNextCommandIdExp", &mcl.next_id);
    lookup("zeCommandListGetNextCommandIdWithKernelsExp", &mcl.next_id_with_kernels);
    lookup("zeCommandListUpdateMutableCommandsExp", &mcl.update);
    lookup("zeCommandListUpdateMutableCommandSignalEventExp", &mcl.update_signal);
    lookup("zeCommandListUpdateMutableCommandWaitEventsExp", &mcl.update_waits);
    lookup("zeCommandListUpdateMutableCommandKernelsExp", &mcl.update_kernels);
    FILE *f = fopen(ZE_SIM_SPV_DIR "/globals.spv", "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    size_t size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *il = malloc(size);
    ck_assert_uint_eq(fread(il, 1, size, f), size);
    fclose(f);
    ze_module_desc_t md = {
        ZE_STRUCTURE_TYPE_MODULE_DESC, NULL, ZE_MODULE_FORMAT_IL_SPIRV, size, il, "", NULL};
    ck_assert_ze_ok(zeModuleCreate(g_context, g_device, &md, &g_module, NULL));
    free(il);
    g_fill = kernel("sim_fill");
    g_reqd = kernel("sim_reqd");
}

static void teardown(void) {
    ck_assert_ze_ok(zeKernelDestroy(g_fill));
    ck_assert_ze_ok(zeKernelDestroy(g_reqd));
    ck_assert_ze_ok(zeModuleDestroy(g_module));
    ck_assert_ze_ok(zeContextDestroy(g_context));
    ck_assert_uint_eq(g_sim.GetLiveObjectCount(), 0);
}

static ze_command_list_handle_t mutable_list(void) {
    ze_mutable_command_list_exp_desc_t m = {ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC, NULL,
                                            0};
    ze_command_list_desc_t d = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, &m, 0, 0};
    ze_command_list_handle_t l = NULL;
    ck_assert_ze_ok(zeCommandListCreate(g_context, g_device, &d, &l));
    return l;
}

static void run(ze_command_queue_handle_t q, ze_command_list_handle_t l) {
    ck_assert_ze_ok(zeCommandQueueExecuteCommandLists(q, 1, &l, NULL));
    ck_assert_ze_ok(zeCommandQueueSynchronize(q, UINT64_MAX));
}

static ze_command_queue_handle_t queue(void) {
    ze_command_queue_desc_t d = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_queue_handle_t q = NULL;
    ck_assert_ze_ok(zeCommandQueueCreate(g_context, g_device, &d, &q));
    return q;
}

static uint32_t launch_arg_u32(uint32_t index) {
    uint32_t v = 0;
    size_t size = sizeof v;
    ck_assert_ze_ok(g_sim.GetLaunchArg(0, index, &size, &v, NULL));
    return v;
}

START_TEST(device_reports_the_flags) {
    ze_mutable_command_list_exp_properties_t mp = {
        ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_PROPERTIES, NULL, 0, 0};
    ze_device_properties_t p = {.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, .pNext = &mp};
    ck_assert_ze_ok(zeDeviceGetProperties(g_device, &p));
    ck_assert_uint_eq(mp.mutableCommandFlags, 0x7f); // everything but graph arguments
}
END_TEST

// Arguments, group count and size, offset and kernel changed between executions.
START_TEST(updates_reach_later_executions) {
    ze_command_list_handle_t l = mutable_list();
    ze_command_queue_handle_t q = queue();
    uint32_t *dst = (uint32_t *)(uintptr_t)0x1000, n = 7;
    ck_assert_ze_ok(zeKernelSetArgumentValue(g_fill, 0, sizeof dst, &dst));
    ck_assert_ze_ok(zeKernelSetArgumentValue(g_fill, 1, sizeof n, &n));
    ck_assert_ze_ok(zeKernelSetArgumentValue(g_fill, 2, 64, NULL));
    ck_assert_ze_ok(zeKernelSetGroupSize(g_fill, 4, 1, 1));
    ze_mutable_command_id_exp_desc_t idd = {
        ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC, NULL,
        ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS | ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_COUNT |
            ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_SIZE | ZE_MUTABLE_COMMAND_EXP_FLAG_GLOBAL_OFFSET |
            ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_INSTRUCTION};
    ze_kernel_handle_t both[2] = {g_fill, g_reqd};
    uint64_t id = 0;
    ck_assert_ze_ok(mcl.next_id_with_kernels(l, &idd, 2, both, &id));
    ze_group_count_t g = {2, 1, 1};
    ck_assert_ze_ok(zeCommandListAppendLaunchKernel(l, g_fill, &g, NULL, 0, NULL));
    ck_assert_ze_ok(zeCommandListClose(l));
    run(q, l);
    ze_sim_launch_t rec;
    ck_assert_ze_ok(g_sim.GetLaunch(0, &rec));
    ck_assert_uint_eq(launch_arg_u32(1), 7);
    // Value, group count and size, offset: one chain.
    uint32_t n2 = 9;
    ze_group_count_t g2 = {5, 1, 1};
    ze_mutable_global_offset_exp_desc_t off = {
        ZE_STRUCTURE_TYPE_MUTABLE_GLOBAL_OFFSET_EXP_DESC, NULL, id, 3, 0, 0};
    ze_mutable_group_size_exp_desc_t gs = {
        ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC, &off, id, 8, 1, 1};
    ze_mutable_group_count_exp_desc_t gc = {ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC, &gs, id,
                                            &g2};
    ze_mutable_kernel_argument_exp_desc_t arg = {
        ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC, &gc, id, 1, sizeof n2, &n2};
    ze_mutable_commands_exp_desc_t all = {ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC, &arg, 0};
    ck_assert_ze_ok(mcl.update(l, &all));
    ck_assert_ze_ok(zeCommandListClose(l));
    run(q, l);
    ck_assert_ze_ok(g_sim.GetLaunch(0, &rec));
    ck_assert_uint_eq(launch_arg_u32(1), 9);
    ck_assert_uint_eq(rec.group_count[0], 5);
    ck_assert_uint_eq(rec.group_size[0], 8);
    ck_assert_uint_eq(rec.global_offset[0], 3);
    // A bad descriptor anywhere in the chain changes nothing.
    uint32_t n3 = 11;
    arg.pArgValue = &n3;
    off.commandId = id + 100;
    ck_assert_ze(mcl.update(l, &all), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    off.commandId = id;
    arg.argSize = 2;
    ck_assert_ze(mcl.update(l, &all), ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
    arg.argSize = sizeof n3;
    arg.argIndex = 3;
    ck_assert_ze(mcl.update(l, &all), ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    run(q, l);
    ck_assert_uint_eq(launch_arg_u32(1), 9);
    // A kernel switch: only kernels named with the id, and the arguments start unset.
    ze_kernel_handle_t k = g_reqd;
    ck_assert_ze_ok(mcl.update_kernels(l, 1, &id, &k));
    ck_assert_ze_ok(zeCommandListClose(l));
    run(q, l);
    ck_assert_ze_ok(g_sim.GetLaunch(0, &rec));
    ck_assert_str_eq(rec.kernel_name, "sim_reqd");
    k = g_fill;
    ck_assert_ze_ok(mcl.update_kernels(l, 1, &id, &k));
    run(q, l);
    ck_assert_ze_ok(g_sim.GetLaunch(0, &rec));
    ck_assert_str_eq(rec.kernel_name, "sim_fill");
    ck_assert_uint_eq(rec.num_args_set, 0);
    ck_assert_ze_ok(zeCommandListDestroy(l));
    ck_assert_ze_ok(zeCommandQueueDestroy(q));
}
END_TEST

// Signal and wait events of a recorded barrier; a NULL wait entry drops that dependency.
START_TEST(event_updates) {
    ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                               ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 4};
    ze_event_pool_handle_t pool = NULL;
    ck_assert_ze_ok(zeEventPoolCreate(g_context, &pd, 0, NULL, &pool));
    ze_event_handle_t ev[3];
    for (uint32_t i = 0; i < 3; ++i) {
        ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, i, 0, ZE_EVENT_SCOPE_FLAG_HOST};
        ck_assert_ze_ok(zeEventCreate(pool, &ed, &ev[i]));
    }
    ze_command_list_handle_t l = mutable_list();
    ze_command_queue_handle_t q = queue();
    ze_mutable_command_id_exp_desc_t idd = {ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC, NULL, 0};
    uint64_t id = 0;
    ck_assert_ze_ok(mcl.next_id(l, &idd, &id));
    ck_assert_ze_ok(zeCommandListAppendBarrier(l, ev[0], 1, &ev[1]));
    ck_assert_ze_ok(zeCommandListClose(l));
    ck_assert_ze(mcl.next_id(l, &idd, &id), ZE_RESULT_ERROR_INVALID_ARGUMENT); // closed
    // Now the barrier signals ev[2] and waits for nothing.
    ck_assert_ze_ok(mcl.update_signal(l, id, ev[2]));
    ze_event_handle_t none = NULL;
    ck_assert_ze_ok(mcl.update_waits(l, id, 1, &none));
    ck_assert_ze(mcl.update_waits(l, id, 2, ev), ZE_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ze_ok(zeCommandListClose(l));
    run(q, l);
    ck_assert_ze_ok(zeEventQueryStatus(ev[2]));
    ck_assert_ze(zeEventQueryStatus(ev[0]), ZE_RESULT_NOT_READY);
    // Kernel flags on a barrier, an unknown id, a list that is not mutable.
    ze_mutable_kernel_argument_exp_desc_t arg = {
        ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC, NULL, id, 0, 4, &id};
    ze_mutable_commands_exp_desc_t all = {ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC, &arg, 0};
    ck_assert_ze(mcl.update(l, &all), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ze(mcl.update_signal(l, id + 1, NULL), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ze_command_list_desc_t d = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, 0};
    ze_command_list_handle_t plain = NULL;
    ck_assert_ze_ok(zeCommandListCreate(g_context, g_device, &d, &plain));
    ck_assert_ze(mcl.next_id(plain, &idd, &id), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    ck_assert_ze_ok(zeCommandListDestroy(plain));
    ck_assert_ze_ok(zeCommandListDestroy(l));
    ck_assert_ze_ok(zeCommandQueueDestroy(q));
    for (uint32_t i = 0; i < 3; ++i)
        ck_assert_ze_ok(zeEventDestroy(ev[i]));
    ck_assert_ze_ok(zeEventPoolDestroy(pool));
}
END_TEST

int main(void) {
    setenv("ZE_ENABLE_ALT_DRIVERS", ZE_SIM_LIBRARY, 1);
    const char *intercept = getenv("ZE_ENABLE_LOADER_INTERCEPT");
    if (intercept != NULL && strcmp(intercept, "1") == 0)
        return 77; // the loader would give the extension functions its wrapped handles
    Suite *s = suite_create("ze_sim_mutable");
    TCase *tc = tcase_create("mutable command lists");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, device_reports_the_flags);
    tcase_add_test(tc, updates_reach_later_executions);
    tcase_add_test(tc, event_updates);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
