// SPDX-License-Identifier: MIT
// The kernel image of the virtual-function link test: calls a function that either the real
// provider image (needs fp64) or its dummy twin defines.
__device__ int vf_impl(int x);

extern "C" __global__ void vf_kernel(int *out) {
    *out = vf_impl(1);
}
