// SPDX-License-Identifier: MIT
// Kernels test/sycl/ builds through SYCL: from this source (OpenCL C) and from its SPIR-V.

// y[i] = a * x[i] + y[i]
kernel void axpy(global const int *x, global int *y, int a) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

// out[i] = i * scale + offset, with a float and a long argument.
kernel void iota(global float *out, float scale, long offset) {
    size_t i = get_global_id(0);
    out[i] = (float)i * scale + (float)offset;
}
