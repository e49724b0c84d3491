// SPDX-License-Identifier: MIT
// The real provider: computes in double precision, so its image requires aspect fp64.
__device__ int vf_impl(int x) {
    double d = x;
    return (int)(d * 2.0) + 100;
}
