// SPDX-License-Identifier: MIT
// Object lifetimes (docs/shared-code.md, "Object lifetimes") and handle checks of the CUDA
// adapter: the cases every adapter shares, in ../common/lifetime_cases.c.
#include "../common/lifetime_cases.h"
#include "cudat.h"

int main(void) {
    Suite *s = suite_create("cuda lifetimes");
    TCase *tc = cudat_tcase("reference counts");
    lifetime_cases_add_counts(tc);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("threads");
    lifetime_cases_add_threads(tc);
    suite_add_tcase(s, tc);
    tc = cudat_tcase("handles");
    lifetime_cases_add_handles(tc);
    suite_add_tcase(s, tc);
    return cudat_main(s, false);
}
