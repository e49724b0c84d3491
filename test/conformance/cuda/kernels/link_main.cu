// SPDX-License-Identifier: MIT
// Compiled with -rdc=true: uses a variable and a function defined in link_lib.cu.
extern __device__ int linked_var;
__device__ int linked_step(int x);

extern "C" __global__ void bump_linked() {
    linked_var = linked_step(linked_var);
}
