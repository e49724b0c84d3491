// SPDX-License-Identifier: MIT
// common/queue/command_rules and command_append: the rule table of queue commands, and the
// memory appends that call it once before the adapter's native operation.
#include <stdint.h>
#include <string.h>

#include "queue/command_append.h"
#include "queue/command_rules.h"
#include "urc_test.h"

// One 4096-byte "allocation"; everything else is memory the lookup does not know.
static _Alignas(64) char alloc[4096];

static bool lookup(void *backend, const void *ptr, const void **base, size_t *size) {
    (void)backend;
    if ((const char *)ptr < alloc || (const char *)ptr >= alloc + sizeof alloc)
        return false;
    *base = alloc;
    *size = sizeof alloc;
    return true;
}

static const urc_rules_t rules = {
    lookup, NULL, {256, {256, 128, 64}, {1u << 20, 1u << 16, 1u << 16}}};

START_TEST(usm_copies_stay_inside_their_allocations) {
    static char host[64];
    ck_assert_ur(urc_rule_usm_memcpy(&rules, alloc, host, 4096), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_rule_usm_memcpy(&rules, alloc, host, 0), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_memcpy(&rules, alloc, host, 4097), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_memcpy(&rules, host, alloc + 4000, 200),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_memcpy(&rules, alloc, alloc + 1, SIZE_MAX),
                 UR_RESULT_ERROR_INVALID_SIZE);
    // Host memory the lookup does not know is bounded only by the address space.
    ck_assert_ur(urc_rule_usm_memcpy(&rules, host, host + 1, 16), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_rule_usm_memcpy(&rules, host, (char *)UINTPTR_MAX - 4, 16),
                 UR_RESULT_ERROR_INVALID_SIZE);
}
END_TEST

START_TEST(usm_fills_follow_ur) {
    ck_assert_ur(urc_rule_usm_fill(&rules, alloc, 4, 4096), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_rule_usm_fill(&rules, alloc, 3, 12), UR_RESULT_SUCCESS); // no power-of-2 rule
    ck_assert_ur(urc_rule_usm_fill(&rules, alloc, 0, 16), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_fill(&rules, alloc, 4, 0), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_fill(&rules, alloc, 8, 4), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_fill(&rules, alloc, 4, 10), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_fill(&rules, alloc + 4000, 4, 200), UR_RESULT_ERROR_INVALID_SIZE);
}
END_TEST

START_TEST(usm_hints_need_a_range_inside_the_allocation) {
    ck_assert_ur(urc_rule_usm_hint(&rules, alloc, 4096), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_rule_usm_hint(&rules, alloc, 0), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_hint(&rules, alloc, 4097), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_hint(&rules, alloc, SIZE_MAX), UR_RESULT_ERROR_INVALID_SIZE);
}
END_TEST

START_TEST(usm_2d_commands_need_whole_rows) {
    // UR's conformance rule: pitch * height inside the allocation, the last row's tail too.
    ck_assert_ur(urc_rule_usm_memcpy_2d(&rules, alloc, 4096, alloc, 4096, 4096, 1),
                 UR_RESULT_SUCCESS);
    ck_assert_ur(urc_rule_usm_memcpy_2d(&rules, alloc, 4097, alloc, 4096, 4096, 1),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_memcpy_2d(&rules, alloc, 0, alloc, 4096, 16, 1),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_memcpy_2d(&rules, alloc, 16, alloc, 8, 16, 1),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_memcpy_2d(&rules, alloc, 16, alloc, 16, 16, 0),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_memcpy_2d(&rules, alloc, SIZE_MAX / 2, alloc, 16, 16, 3),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_fill_2d(&rules, alloc, 64, 4, 64, 64), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_rule_usm_fill_2d(&rules, alloc, 65, 4, 64, 64), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_fill_2d(&rules, alloc, 64, 3, 63, 64), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_fill_2d(&rules, alloc, 64, 0, 64, 1), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_fill_2d(&rules, alloc, 64, 4, 0, 1), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_usm_fill_2d(&rules, alloc, 32, 4, 64, 1), UR_RESULT_ERROR_INVALID_SIZE);
}
END_TEST

START_TEST(buffer_commands_stay_inside_the_buffer) {
    ck_assert_ur(urc_rule_buffer_range(64, 0, 64), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_rule_buffer_range(64, 0, 0), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_rule_buffer_range(64, 1, 64), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_buffer_range(64, SIZE_MAX, 2), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_buffer_fill(64, 0, 4, 64), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_rule_buffer_fill(64, 0, 3, 63), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_buffer_fill(64, 0, 8, 12), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_buffer_fill(64, 2, 4, 8), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_buffer_fill(64, 0, 4, 0), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_buffer_fill(64, 60, 4, 8), UR_RESULT_ERROR_INVALID_SIZE);
    urc_rect_side_t side;
    ur_rect_offset_t o = {0, 0, 0};
    ck_assert_ur(urc_rule_rect(&side, o, &(ur_rect_region_t){4, 4, 1}, 0, 0, 16),
                 UR_RESULT_SUCCESS);
    ck_assert_ur(urc_rule_rect(&side, o, &(ur_rect_region_t){0, 4, 1}, 0, 0, 16),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_rect(&side, o, &(ur_rect_region_t){4, 4, 0}, 0, 0, 16),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_rule_rect(&side, o, &(ur_rect_region_t){4, 5, 1}, 0, 0, 16),
                 UR_RESULT_ERROR_INVALID_SIZE);
}
END_TEST

START_TEST(launches_and_arguments) {
    size_t g[3] = {64, 1, 1}, l[3] = {512, 1, 1}, o[3] = {SIZE_MAX, 0, 0};
    ck_assert_ur(urc_rule_launch(&rules, 1, NULL, g, NULL), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_rule_launch(&rules, 1, NULL, g, l), UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
    ck_assert_ur(urc_rule_launch(&rules, 1, o, g, NULL), UR_RESULT_ERROR_INVALID_VALUE);
    g[0] = 0;
    ck_assert_ur(urc_rule_launch(&rules, 1, NULL, g, NULL), UR_RESULT_ERROR_INVALID_WORK_DIMENSION);
    ur_exp_kernel_arg_properties_t args[2];
    memset(args, 0, sizeof args);
    args[1].index = 1;
    ck_assert_ur(urc_rule_arg_indices(2, args, 2), UR_RESULT_SUCCESS);
    args[1].index = UINT32_MAX;
    ck_assert_ur(urc_rule_arg_indices(2, args, 2), UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    ck_assert_ur(urc_rule_arg_indices(2, args, UINT32_MAX), UR_RESULT_SUCCESS);
}
END_TEST

static uint32_t two_args(const void *kernel) {
    (void)kernel;
    return 2;
}

START_TEST(updates_follow_the_launch_rule) {
    urc_cb_caps_t caps = {true, false, 0xff};
    ur_exp_command_buffer_desc_t desc = {UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_DESC, NULL, true,
                                         false, false};
    urc_cb_t cb;
    ck_assert_ur(urc_cb_init(&cb, &desc, &caps, NULL), UR_RESULT_SUCCESS);
    cb.rules = rules;
    urc_cb_command_t cmd;
    size_t g[3] = {64, 1, 1}, l[3] = {8, 1, 1};
    ck_assert_ur(urc_cb_kernel_record(&cmd, &cb, &cb, 1, NULL, g, l, 0, NULL, NULL),
                 UR_RESULT_SUCCESS);
    ur_exp_command_buffer_update_kernel_launch_desc_t u;
    memset(&u, 0, sizeof u);
    u.newWorkDim = 1;
    ck_assert_ur(urc_rule_update(&rules, &cmd, &u, two_args), UR_RESULT_SUCCESS);
    size_t zero[3] = {0, 1, 1}, big[3] = {1024, 1, 1}, far[3] = {SIZE_MAX, 0, 0};
    u.pNewGlobalWorkSize = zero;
    ck_assert_ur(urc_rule_update(&rules, &cmd, &u, two_args),
                 UR_RESULT_ERROR_INVALID_WORK_DIMENSION);
    u.pNewGlobalWorkSize = NULL;
    u.pNewLocalWorkSize = big;
    ck_assert_ur(urc_rule_update(&rules, &cmd, &u, two_args),
                 UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
    u.pNewLocalWorkSize = NULL;
    u.pNewGlobalWorkOffset = far;
    ck_assert_ur(urc_rule_update(&rules, &cmd, &u, two_args), UR_RESULT_ERROR_INVALID_VALUE);
    u.pNewGlobalWorkOffset = NULL;
    void *p = NULL;
    ur_exp_command_buffer_update_pointer_arg_desc_t ptr = {
        UR_STRUCTURE_TYPE_EXP_COMMAND_BUFFER_UPDATE_POINTER_ARG_DESC, NULL, UINT32_MAX, NULL, &p};
    u.numNewPointerArgs = 1;
    u.pNewPointerArgList = &ptr;
    ck_assert_ur(urc_rule_update(&rules, &cmd, &u, two_args),
                 UR_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    ptr.argIndex = 1;
    ck_assert_ur(urc_rule_update(&rules, &cmd, &u, two_args), UR_RESULT_SUCCESS);
    // The append follows the same rule: a zero global size is refused at record time.
    urc_cb_command_t bad;
    ck_assert_ur(urc_cb_kernel_record(&bad, &cb, &cb, 1, NULL, zero, NULL, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_WORK_DIMENSION);
    ck_assert_ur(urc_cb_kernel_record(&bad, &cb, &cb, 1, NULL, g, big, 0, NULL, NULL),
                 UR_RESULT_ERROR_INVALID_WORK_GROUP_SIZE);
    urc_cb_command_fini(&cmd);
    urc_cb_fini(&cb);
}
END_TEST

// ---- the append layer: the rule runs once, and the native operation only after it ----

static struct {
    urc_cb_t cb;
    int copies, fills, rects, hints;
} fake;

static urc_cb_t *fake_buffer(ur_exp_command_buffer_handle_t h) {
    return h == (ur_exp_command_buffer_handle_t)&fake ? &fake.cb : NULL;
}

static char buffer_mem[256], other_context_mem[256];

static bool fake_mem(ur_mem_handle_t m, void **base, size_t *size, const void **context) {
    if (m != (ur_mem_handle_t)buffer_mem && m != (ur_mem_handle_t)other_context_mem)
        return false;
    *base = m;
    *size = sizeof buffer_mem;
    *context = m == (ur_mem_handle_t)buffer_mem ? (const void *)&fake : NULL;
    return true;
}

static ur_result_t fake_copy(ur_exp_command_buffer_handle_t h, void *dst, const void *src,
                             size_t size, const urc_append_sync_t *s) {
    (void)h, (void)dst, (void)src, (void)size, (void)s;
    ++fake.copies;
    return UR_RESULT_SUCCESS;
}

static ur_result_t fake_fill(ur_exp_command_buffer_handle_t h, void *dst, const void *pattern,
                             size_t psize, size_t size, const urc_append_sync_t *s) {
    (void)h, (void)dst, (void)pattern, (void)psize, (void)size, (void)s;
    ++fake.fills;
    return UR_RESULT_SUCCESS;
}

static ur_result_t fake_rect(ur_exp_command_buffer_handle_t h, const urc_append_rect_t *dst,
                             const urc_append_rect_t *src, const ur_rect_region_t *r,
                             const urc_append_sync_t *s) {
    (void)h, (void)r, (void)s;
    ck_assert(dst->host != src->host || (!dst->host && !src->host));
    ++fake.rects;
    return UR_RESULT_SUCCESS;
}

static ur_result_t fake_hint(ur_exp_command_buffer_handle_t h, const urc_append_sync_t *s) {
    (void)h, (void)s;
    ++fake.hints;
    return UR_RESULT_SUCCESS;
}

static const urc_append_ops_t ops = {fake_buffer, NULL,      fake_mem, fake_copy,
                                     fake_fill,   fake_rect, fake_hint};

START_TEST(appends_check_before_recording) {
    memset(&fake, 0, sizeof fake);
    fake.cb.rules = rules;
    fake.cb.context = &fake;
    ur_exp_command_buffer_handle_t h = (ur_exp_command_buffer_handle_t)&fake;
    ur_mem_handle_t m = (ur_mem_handle_t)buffer_mem;
    static const urc_append_sync_t s;
    char host[16] = {0};
    uint32_t pattern = 0;
    ck_assert_ur(urc_append_usm_memcpy(&ops, h, alloc, host, 16, &s), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_append_usm_memcpy(&ops, h, alloc, host, 4097, &s),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_append_usm_memcpy(&ops, h, alloc + 4000, host, 200, &s),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(
        urc_append_usm_memcpy(&ops, (ur_exp_command_buffer_handle_t)host, alloc, host, 16, &s),
        UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP);
    ck_assert_int_eq(fake.copies, 1);
    ck_assert_ur(urc_append_usm_fill(&ops, h, alloc, &pattern, 4, 4096, &s), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_append_usm_fill(&ops, h, alloc, &pattern, 4, 4097, &s),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_append_buffer_fill(&ops, h, m, &pattern, 4, 0, 256, &s), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_append_buffer_fill(&ops, h, m, &pattern, 3, 0, 255, &s),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_int_eq(fake.fills, 2);
    ck_assert_ur(urc_append_usm_hint(&ops, h, alloc, SIZE_MAX, &s), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_append_usm_hint(&ops, h, alloc, 0, &s), UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_append_usm_hint(&ops, h, alloc, 1, &s), UR_RESULT_SUCCESS);
    ck_assert_int_eq(fake.hints, 1);
    ck_assert_ur(urc_append_buffer_copy(&ops, h, m, m, 0, 128, 128, &s), UR_RESULT_SUCCESS);
    ck_assert_ur(urc_append_buffer_copy(&ops, h, m, m, 0, 129, 128, &s),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_append_buffer_transfer(&ops, h, true, m, SIZE_MAX, 2, host, &s),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_append_buffer_transfer(&ops, h, false, (ur_mem_handle_t)host, 0, 2, host, &s),
                 UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_ur(
        urc_append_buffer_copy(&ops, h, (ur_mem_handle_t)other_context_mem, m, 0, 0, 16, &s),
        UR_RESULT_ERROR_INVALID_MEM_OBJECT);
    ck_assert_int_eq(fake.copies, 2);
    ur_rect_offset_t o = {0, 0, 0};
    ck_assert_ur(urc_append_buffer_copy_rect(&ops, h, m, m, o, o, (ur_rect_region_t){16, 16, 1}, 16,
                                             0, 16, 0, &s),
                 UR_RESULT_SUCCESS);
    ck_assert_ur(urc_append_buffer_copy_rect(&ops, h, m, m, o, o, (ur_rect_region_t){0, 16, 1}, 16,
                                             0, 16, 0, &s),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_append_buffer_transfer_rect(
                     &ops, h, true, m, o, o, (ur_rect_region_t){16, 17, 1}, 16, 0, 16, 0, host, &s),
                 UR_RESULT_ERROR_INVALID_SIZE);
    ck_assert_ur(urc_append_buffer_transfer_rect(
                     &ops, h, false, m, o, o, (ur_rect_region_t){4, 4, 1}, 16, 0, 4, 0, host, &s),
                 UR_RESULT_SUCCESS);
    ck_assert_int_eq(fake.rects, 2);
}
END_TEST

int main(void) {
    Suite *s = suite_create("command_rules");
    TCase *tc = tcase_create("usm");
    tcase_add_test(tc, usm_copies_stay_inside_their_allocations);
    tcase_add_test(tc, usm_fills_follow_ur);
    tcase_add_test(tc, usm_hints_need_a_range_inside_the_allocation);
    tcase_add_test(tc, usm_2d_commands_need_whole_rows);
    suite_add_tcase(s, tc);
    tc = tcase_create("buffers");
    tcase_add_test(tc, buffer_commands_stay_inside_the_buffer);
    suite_add_tcase(s, tc);
    tc = tcase_create("launches");
    tcase_add_test(tc, launches_and_arguments);
    tcase_add_test(tc, updates_follow_the_launch_rule);
    suite_add_tcase(s, tc);
    tc = tcase_create("appends");
    tcase_add_test(tc, appends_check_before_recording);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
