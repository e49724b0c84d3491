// SPDX-License-Identifier: MIT
// Dispatch through the real loader with two fake adapters loaded at once: every one of the
// 241 slots, called with a handle of adapter A and then of adapter B, reaches that adapter's
// slot and no other; urAdapterGet reaches both; a NULL slot answers UNSUPPORTED_FEATURE.
#include <string.h>

#include "dispatch_calls.h"
#include "loader_test.h"
#include "ur_ddi.h"

// Counts every call either fake saw, over all slots.
static uint32_t total_calls(const fake_api_t *f) {
    uint32_t n = 0;
    for (uint32_t s = 0; s < URC_SLOT_COUNT; ++s)
        n += f->calls(s);
    return n;
}

static void check_route(const urc_dispatch_call_t *c, fake_api_t *to, fake_api_t *other) {
    void *h = to->generic_handle();
    to->reset_calls();
    other->reset_calls();
    ur_result_t result = c->call(h);
    ck_assert_msg(to->calls(c->slot) == 1,
                  "%s (slot %u, route %s) with a handle of fake %s: reached it %u times (%s)",
                  c->name, c->slot, c->route, to->tag, to->calls(c->slot),
                  urc_test_result_name(result));
    ck_assert_msg(to->last_route(c->slot) == h, "%s: fake %s saw another routing handle", c->name,
                  to->tag);
    ck_assert_msg(total_calls(to) == 1, "%s: fake %s saw %u calls", c->name, to->tag,
                  total_calls(to));
    ck_assert_msg(total_calls(other) == 0, "%s: the other fake (%s) saw %u calls", c->name,
                  other->tag, total_calls(other));
}

START_TEST(slot_reaches_the_handles_adapter) {
    const urc_dispatch_call_t *c = &urc_dispatch_calls[_i];
    ck_assert_uint_eq(c->slot, (unsigned)_i);
    fake_api_t a, b;
    lt_init_two(&a, &b);
    if (c->call == NULL) {
        // urAdapterGet has no routing handle: it visits every adapter once.
        ur_adapter_handle_t adapters[2];
        uint32_t count = 0;
        ck_assert_ur_ok(urAdapterGet(2, adapters, &count));
        ck_assert_uint_eq(count, 2);
        ck_assert_uint_eq(a.calls(c->slot), 1);
        ck_assert_uint_eq(b.calls(c->slot), 1);
        return;
    }
    check_route(c, &a, &b);
    check_route(c, &b, &a);
}
END_TEST

// A handle whose adapter left every slot empty.
static const ur_dditable_t empty_table;
static struct {
    const ur_dditable_t *ddi;
    char rest[64];
} empty_handle = {&empty_table, {0}};

START_TEST(null_slot_is_unsupported) {
    const urc_dispatch_call_t *c = &urc_dispatch_calls[_i];
    if (c->call == NULL)
        return;
    ck_assert_ur(c->call(&empty_handle), UR_RESULT_ERROR_UNSUPPORTED_FEATURE);
}
END_TEST

START_TEST(slot_count_matches_the_abi) {
    ck_assert_uint_eq(URC_SLOT_COUNT, 241);
    ck_assert_uint_eq(sizeof(ur_dditable_t), 241 * sizeof(void *));
}
END_TEST

int main(void) {
    Suite *s = suite_create("loader dispatch");
    TCase *tc = lt_tcase("every slot");
    tcase_add_loop_test(tc, slot_reaches_the_handles_adapter, 0, URC_SLOT_COUNT);
    tcase_add_test(tc, slot_count_matches_the_abi);
    suite_add_tcase(s, tc);
    tc = lt_tcase("empty slots");
    tcase_add_loop_test(tc, null_slot_is_unsupported, 0, URC_SLOT_COUNT);
    suite_add_tcase(s, tc);
    return urc_test_run(s);
}
