// SPDX-License-Identifier: MIT
// Kernel image K: calls vf_a, which it imports; link with vf_provider (P) or vf_dummy (D).
int vf_a(int x);
kernel void vf_kernel(global int *data) { data[get_global_id(0)] = vf_a(data[get_global_id(0)]); }
