// SPDX-License-Identifier: MIT
// A kernel whose device assert fires when `value` is not zero.
#include <cassert>

extern "C" __global__ void assert_zero(int value) {
    assert(value == 0);
}
