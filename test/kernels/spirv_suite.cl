// SPDX-License-Identifier: MIT
// Kernels of the SPIR-V on CUDA suite (test/conformance/cuda/test_spirv.c): each one exercises
// a part of the translation (generic pointers, local memory, global offsets, 64-bit and double
// arithmetic, structs by value, 3-D ranges, many mixed arguments, vectors), and the suite
// checks its results against a host reference on a GPU.

kernel void vec_add(global const float *a, global const float *b, global float *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

// One partial sum per work-group, by a tree in local memory (the size a power of two).
kernel void reduce_sum(global const float *in, global float *partial, local float *tmp) {
    size_t l = get_local_id(0), n = get_local_size(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s /= 2) {
        if (l < s)
            tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        partial[get_group_id(0)] = tmp[0];
}

// out[i - offset] = the id and the offset a work-item sees.
kernel void offset_ids(global ulong *ids, global ulong *offsets) {
    size_t i = get_global_id(0) - get_global_offset(0);
    ids[i] = get_global_id(0);
    offsets[i] = get_global_offset(0);
}

// Writes through generic pointers that point at local and at global memory.
static void store_twice(int *p, int v) {
    p[0] = v;
    p[0] += v;
}

kernel void generic_ptrs(global int *out, local int *tmp) {
    size_t l = get_local_id(0), g = get_global_id(0);
    store_twice(&tmp[l], (int)g);
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = tmp[get_local_size(0) - 1 - l];
    store_twice(&out[g], v);
}

kernel void wide_math(global long *l, global double *d) {
    size_t i = get_global_id(0);
    l[i] = l[i] * 3 + ((long)i << 33);
    d[i] = sqrt(d[i]) + 1.0;
}

typedef struct pair_t {
    int a;
    float b;
    long c;
} pair_t;

kernel void struct_arg(pair_t p, global float *out) {
    size_t i = get_global_id(0);
    out[i] = (float)p.a * p.b + (float)p.c + (float)i;
}

kernel void range3d(global int *out) {
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t w = get_global_size(0), h = get_global_size(1);
    out[(z * h + y) * w + x] = (int)(x + 10 * y + 100 * z);
}

kernel void many_args(global long *out, char a, uchar b, short c, ushort d, int e, uint f,
                      long g, ulong h, float i, double j, global const int *k, int l, float m,
                      char n, long o, short p, double q, uint r) {
    size_t t = get_global_id(0);
    out[t] = a + b + c + d + e + f + g + (long)h + (long)i + (long)j + k[t] + l + (long)m + n +
             o + p + (long)q + r;
}

kernel void vec4_generic(global const float *in, global float *out) {
    size_t i = get_global_id(0);
    const float *src = in;
    float *dst = out;
    float4 v = vload4(i, src);
    vstore4(v * 2.0f, i, dst);
}

__attribute__((reqd_work_group_size(32, 1, 1))) kernel void fixed_wg(global int *out) {
    out[get_global_id(0)] = (int)get_local_size(0);
}

// The constant space: a kernel argument the host passes a device allocation for, and a
// program-scope table, read directly and through vload4. CUDA's constant bank is not where
// such an argument points, so both must be read as global memory.
constant int weights[4] = {3, 5, 7, 11};
kernel void constant_args(constant int *in, global int *out) {
    size_t i = get_global_id(0);
    int4 v = vload4(i / 4, in);
    out[i] = in[i] * weights[i % 4] + v.x;
}
