// SPDX-License-Identifier: MIT
// Provider image P: exports vf_a(x) = (int)(x * 2.5 + 0.25) computed in double (needs fp64).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
int vf_a(int x) { return (int)((double)x * 2.5 + 0.25); }
