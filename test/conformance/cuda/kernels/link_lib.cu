// SPDX-License-Identifier: MIT
// Compiled with -rdc=true: defines the variable and the function link_main.cu uses.
__device__ int linked_var;

__device__ int linked_step(int x) {
    return x + 10;
}
