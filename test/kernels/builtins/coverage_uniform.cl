// SPDX-License-Identifier: MIT
// spirv-chain: uniform-group-rewrite
// Compile-only: the collectives of SPV_KHR_uniform_group_instructions (mul, bitwise and logical
// operations), which OpenCL C cannot spell. spirv_chain.py rewrites each kernel's group
// additions (its name says into what) and its group any (into logical operations, in the order
// reduce, inclusive scan, exclusive scan for the work-group, then the same for the sub-group).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void mul_int(global int *p) {
    int x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void mul_uint(global uint *p) {
    uint x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void mul_long(global long *p) {
    long x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void mul_ulong(global ulong *p) {
    ulong x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void mul_float(global float *p) {
    float x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void mul_double(global double *p) {
    double x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void mul_half(global half *p) {
    half x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void bitwise_and_int(global int *p) {
    int x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void bitwise_and_uint(global uint *p) {
    uint x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void bitwise_and_long(global long *p) {
    long x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void bitwise_and_ulong(global ulong *p) {
    ulong x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void bitwise_or_int(global int *p) {
    int x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void bitwise_or_uint(global uint *p) {
    uint x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void bitwise_or_long(global long *p) {
    long x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void bitwise_or_ulong(global ulong *p) {
    ulong x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void bitwise_xor_int(global int *p) {
    int x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void bitwise_xor_uint(global uint *p) {
    uint x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void bitwise_xor_long(global long *p) {
    long x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void bitwise_xor_ulong(global ulong *p) {
    ulong x = p[0];
    p[1] = work_group_reduce_add(x);
    p[2] = work_group_scan_inclusive_add(x);
    p[3] = work_group_scan_exclusive_add(x);
    p[4] = sub_group_reduce_add(x);
    p[5] = sub_group_scan_inclusive_add(x);
    p[6] = sub_group_scan_exclusive_add(x);
}
kernel void logical_and(global int *p) {
    int x = p[0];
    p[1] = work_group_any(x);
    p[2] = work_group_any(x);
    p[3] = work_group_any(x);
    p[4] = sub_group_any(x);
    p[5] = sub_group_any(x);
    p[6] = sub_group_any(x);
}
kernel void logical_or(global int *p) {
    int x = p[0];
    p[1] = work_group_any(x);
    p[2] = work_group_any(x);
    p[3] = work_group_any(x);
    p[4] = sub_group_any(x);
    p[5] = sub_group_any(x);
    p[6] = sub_group_any(x);
}
kernel void logical_xor(global int *p) {
    int x = p[0];
    p[1] = work_group_any(x);
    p[2] = work_group_any(x);
    p[3] = work_group_any(x);
    p[4] = sub_group_any(x);
    p[5] = sub_group_any(x);
    p[6] = sub_group_any(x);
}
