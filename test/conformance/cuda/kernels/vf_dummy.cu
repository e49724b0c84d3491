// SPDX-License-Identifier: MIT
// The dummy provider: linked instead of the real one on devices without fp64.
__device__ int vf_impl(int x) {
    return -x;
}
