// SPDX-License-Identifier: MIT
// Uses half arithmetic (cl_khr_fp16): out[i] = (float)(in[i] * 2 + 0.5) computed in half.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void half_kernel(global const half *in, global float *out) {
  size_t i = get_global_id(0);
  half h = in[i] * (half)2.0f + (half)0.5f;
  out[i] = (float)h;
}
