// SPDX-License-Identifier: MIT
// Object lifetimes (docs/shared-code.md, "Object lifetimes") and handle checks of the CUDA
// adapter: the cases every adapter shares, in ../common/lifetime_cases.c.
#include "../common/lifetime_cases.h"
#include "cudat.h"

// The shared cases run on this suite's handles.
static void bind(void) {
    lifetime_cases_bind(T.context, T.device, T.queue);
}

static TCase *tcase(const char *name) {
    TCase *tc = cudat_tcase(name);
    tcase_add_checked_fixture(tc, bind, NULL);
    return tc;
}

int main(void) {
    Suite *s = suite_create("cuda lifetimes");
    TCase *tc = tcase("reference counts");
    lifetime_cases_add_counts(tc);
    suite_add_tcase(s, tc);
    tc = tcase("threads");
    lifetime_cases_add_threads(tc);
    suite_add_tcase(s, tc);
    tc = tcase("handles");
    lifetime_cases_add_handles(tc);
    suite_add_tcase(s, tc);
    return cudat_main(s, false);
}
