// SPDX-License-Identifier: MIT
// Compile-only: builtins with pointer arguments in SPIR's generic and constant spaces (vloadn,
// vstoren, math with a second result), which libclc spells differently, and mad_hi.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void vectors_char(global char *g, constant char *c, local char *l, int x) {
    char priv[16];
    generic char *p = x ? (generic char *)g : x > 1 ? (generic char *)l : (generic char *)priv;
    vstore2(vload2(0, p) + vload2(1, c), 2, p);
    vstore3(vload3(0, p) + vload3(1, c), 2, p);
    vstore4(vload4(0, p) + vload4(1, c), 2, p);
    vstore8(vload8(0, p) + vload8(1, c), 2, p);
    vstore16(vload16(0, p) + vload16(1, c), 2, p);
    g[0] = priv[x];
    g[1] = mad_hi(g[2], g[3], g[4]);
}
kernel void vectors_uchar(global uchar *g, constant uchar *c, local uchar *l, int x) {
    uchar priv[16];
    generic uchar *p = x ? (generic uchar *)g : x > 1 ? (generic uchar *)l : (generic uchar *)priv;
    vstore2(vload2(0, p) + vload2(1, c), 2, p);
    vstore3(vload3(0, p) + vload3(1, c), 2, p);
    vstore4(vload4(0, p) + vload4(1, c), 2, p);
    vstore8(vload8(0, p) + vload8(1, c), 2, p);
    vstore16(vload16(0, p) + vload16(1, c), 2, p);
    g[0] = priv[x];
    g[1] = mad_hi(g[2], g[3], g[4]);
}
kernel void vectors_short(global short *g, constant short *c, local short *l, int x) {
    short priv[16];
    generic short *p = x ? (generic short *)g : x > 1 ? (generic short *)l : (generic short *)priv;
    vstore2(vload2(0, p) + vload2(1, c), 2, p);
    vstore3(vload3(0, p) + vload3(1, c), 2, p);
    vstore4(vload4(0, p) + vload4(1, c), 2, p);
    vstore8(vload8(0, p) + vload8(1, c), 2, p);
    vstore16(vload16(0, p) + vload16(1, c), 2, p);
    g[0] = priv[x];
    g[1] = mad_hi(g[2], g[3], g[4]);
}
kernel void vectors_ushort(global ushort *g, constant ushort *c, local ushort *l, int x) {
    ushort priv[16];
    generic ushort *p = x       ? (generic ushort *)g
                        : x > 1 ? (generic ushort *)l
                                : (generic ushort *)priv;
    vstore2(vload2(0, p) + vload2(1, c), 2, p);
    vstore3(vload3(0, p) + vload3(1, c), 2, p);
    vstore4(vload4(0, p) + vload4(1, c), 2, p);
    vstore8(vload8(0, p) + vload8(1, c), 2, p);
    vstore16(vload16(0, p) + vload16(1, c), 2, p);
    g[0] = priv[x];
    g[1] = mad_hi(g[2], g[3], g[4]);
}
kernel void vectors_int(global int *g, constant int *c, local int *l, int x) {
    int priv[16];
    generic int *p = x ? (generic int *)g : x > 1 ? (generic int *)l : (generic int *)priv;
    vstore2(vload2(0, p) + vload2(1, c), 2, p);
    vstore3(vload3(0, p) + vload3(1, c), 2, p);
    vstore4(vload4(0, p) + vload4(1, c), 2, p);
    vstore8(vload8(0, p) + vload8(1, c), 2, p);
    vstore16(vload16(0, p) + vload16(1, c), 2, p);
    g[0] = priv[x];
    g[1] = mad_hi(g[2], g[3], g[4]);
}
kernel void vectors_uint(global uint *g, constant uint *c, local uint *l, int x) {
    uint priv[16];
    generic uint *p = x ? (generic uint *)g : x > 1 ? (generic uint *)l : (generic uint *)priv;
    vstore2(vload2(0, p) + vload2(1, c), 2, p);
    vstore3(vload3(0, p) + vload3(1, c), 2, p);
    vstore4(vload4(0, p) + vload4(1, c), 2, p);
    vstore8(vload8(0, p) + vload8(1, c), 2, p);
    vstore16(vload16(0, p) + vload16(1, c), 2, p);
    g[0] = priv[x];
    g[1] = mad_hi(g[2], g[3], g[4]);
}
kernel void vectors_long(global long *g, constant long *c, local long *l, int x) {
    long priv[16];
    generic long *p = x ? (generic long *)g : x > 1 ? (generic long *)l : (generic long *)priv;
    vstore2(vload2(0, p) + vload2(1, c), 2, p);
    vstore3(vload3(0, p) + vload3(1, c), 2, p);
    vstore4(vload4(0, p) + vload4(1, c), 2, p);
    vstore8(vload8(0, p) + vload8(1, c), 2, p);
    vstore16(vload16(0, p) + vload16(1, c), 2, p);
    g[0] = priv[x];
    g[1] = mad_hi(g[2], g[3], g[4]);
}
kernel void vectors_ulong(global ulong *g, constant ulong *c, local ulong *l, int x) {
    ulong priv[16];
    generic ulong *p = x ? (generic ulong *)g : x > 1 ? (generic ulong *)l : (generic ulong *)priv;
    vstore2(vload2(0, p) + vload2(1, c), 2, p);
    vstore3(vload3(0, p) + vload3(1, c), 2, p);
    vstore4(vload4(0, p) + vload4(1, c), 2, p);
    vstore8(vload8(0, p) + vload8(1, c), 2, p);
    vstore16(vload16(0, p) + vload16(1, c), 2, p);
    g[0] = priv[x];
    g[1] = mad_hi(g[2], g[3], g[4]);
}
kernel void vectors_float(global float *g, constant float *c, local float *l, int x) {
    float priv[16];
    generic float *p = x ? (generic float *)g : x > 1 ? (generic float *)l : (generic float *)priv;
    vstore2(vload2(0, p) + vload2(1, c), 2, p);
    vstore3(vload3(0, p) + vload3(1, c), 2, p);
    vstore4(vload4(0, p) + vload4(1, c), 2, p);
    vstore8(vload8(0, p) + vload8(1, c), 2, p);
    vstore16(vload16(0, p) + vload16(1, c), 2, p);
    g[0] = priv[x];
}
kernel void vectors_double(global double *g, constant double *c, local double *l, int x) {
    double priv[16];
    generic double *p = x       ? (generic double *)g
                        : x > 1 ? (generic double *)l
                                : (generic double *)priv;
    vstore2(vload2(0, p) + vload2(1, c), 2, p);
    vstore3(vload3(0, p) + vload3(1, c), 2, p);
    vstore4(vload4(0, p) + vload4(1, c), 2, p);
    vstore8(vload8(0, p) + vload8(1, c), 2, p);
    vstore16(vload16(0, p) + vload16(1, c), 2, p);
    g[0] = priv[x];
}
kernel void pointer_math_float(global float *g, global int *n, int x) {
    float a = g[0], b;
    int e;
    generic float *pb = &b;
    generic int *pe = &e;
    g[1] = modf(a, pb) + fract(a, pb) + sincos(a, pb) + b + frexp(a, pe) + lgamma_r(a, pe) +
           remquo(a, g[2], pe);
    n[0] = e;
    {
        float2 va = vload2(0, g), vb;
        int2 ve;
        generic float2 *q = &vb;
        generic int2 *qe = &ve;
        vstore2(modf(va, q) + fract(va, q) + sincos(va, q) + vb + frexp(va, qe) + lgamma_r(va, qe) +
                    remquo(va, va, qe),
                1, g);
        vstore2(ve, 1, n);
    }
    {
        float3 va = vload3(0, g), vb;
        int3 ve;
        generic float3 *q = &vb;
        generic int3 *qe = &ve;
        vstore3(modf(va, q) + fract(va, q) + sincos(va, q) + vb + frexp(va, qe) + lgamma_r(va, qe) +
                    remquo(va, va, qe),
                1, g);
        vstore3(ve, 1, n);
    }
    {
        float4 va = vload4(0, g), vb;
        int4 ve;
        generic float4 *q = &vb;
        generic int4 *qe = &ve;
        vstore4(modf(va, q) + fract(va, q) + sincos(va, q) + vb + frexp(va, qe) + lgamma_r(va, qe) +
                    remquo(va, va, qe),
                1, g);
        vstore4(ve, 1, n);
    }
    {
        float8 va = vload8(0, g), vb;
        int8 ve;
        generic float8 *q = &vb;
        generic int8 *qe = &ve;
        vstore8(modf(va, q) + fract(va, q) + sincos(va, q) + vb + frexp(va, qe) + lgamma_r(va, qe) +
                    remquo(va, va, qe),
                1, g);
        vstore8(ve, 1, n);
    }
    {
        float16 va = vload16(0, g), vb;
        int16 ve;
        generic float16 *q = &vb;
        generic int16 *qe = &ve;
        vstore16(modf(va, q) + fract(va, q) + sincos(va, q) + vb + frexp(va, qe) +
                     lgamma_r(va, qe) + remquo(va, va, qe),
                 1, g);
        vstore16(ve, 1, n);
    }
}
kernel void pointer_math_double(global double *g, global int *n, int x) {
    double a = g[0], b;
    int e;
    generic double *pb = &b;
    generic int *pe = &e;
    g[1] = modf(a, pb) + fract(a, pb) + sincos(a, pb) + b + frexp(a, pe) + lgamma_r(a, pe) +
           remquo(a, g[2], pe);
    n[0] = e;
    {
        double2 va = vload2(0, g), vb;
        int2 ve;
        generic double2 *q = &vb;
        generic int2 *qe = &ve;
        vstore2(modf(va, q) + fract(va, q) + sincos(va, q) + vb + frexp(va, qe) + lgamma_r(va, qe) +
                    remquo(va, va, qe),
                1, g);
        vstore2(ve, 1, n);
    }
    {
        double3 va = vload3(0, g), vb;
        int3 ve;
        generic double3 *q = &vb;
        generic int3 *qe = &ve;
        vstore3(modf(va, q) + fract(va, q) + sincos(va, q) + vb + frexp(va, qe) + lgamma_r(va, qe) +
                    remquo(va, va, qe),
                1, g);
        vstore3(ve, 1, n);
    }
    {
        double4 va = vload4(0, g), vb;
        int4 ve;
        generic double4 *q = &vb;
        generic int4 *qe = &ve;
        vstore4(modf(va, q) + fract(va, q) + sincos(va, q) + vb + frexp(va, qe) + lgamma_r(va, qe) +
                    remquo(va, va, qe),
                1, g);
        vstore4(ve, 1, n);
    }
    {
        double8 va = vload8(0, g), vb;
        int8 ve;
        generic double8 *q = &vb;
        generic int8 *qe = &ve;
        vstore8(modf(va, q) + fract(va, q) + sincos(va, q) + vb + frexp(va, qe) + lgamma_r(va, qe) +
                    remquo(va, va, qe),
                1, g);
        vstore8(ve, 1, n);
    }
    {
        double16 va = vload16(0, g), vb;
        int16 ve;
        generic double16 *q = &vb;
        generic int16 *qe = &ve;
        vstore16(modf(va, q) + fract(va, q) + sincos(va, q) + vb + frexp(va, qe) +
                     lgamma_r(va, qe) + remquo(va, va, qe),
                 1, g);
        vstore16(ve, 1, n);
    }
}
