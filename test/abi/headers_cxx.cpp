// SPDX-License-Identifier: MIT
// The public headers must compile warning-free as C++17 too (built with -Werror).
#include "ur_api.h"
#include "ur_ddi.h"
#include "ur_print.h"

static_assert(sizeof(ur_dditable_t) == 1928, "ur_dditable_t layout");

int main() {
    return UR_RESULT_SUCCESS;
}
