// SPDX-License-Identifier: MIT
// Compile-only: generic-pointer casts, integer gaps and half-precision math.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void casts(global int *g, local int *l, int x, global int *o) {
    int priv = x;
    generic int *p = x > 1 ? (generic int *)g : x ? (generic int *)l : (generic int *)&priv;
    o[0] = to_global(p) != 0;
    o[1] = to_local(p) != 0;
    o[2] = to_private(p) != 0;
}

kernel void integers(global char *c, global uchar *uc, global short *s, global ushort *us,
                     global int *i, global uint *u, global long *l, global ulong *m) {
    c[0] = ctz(c[1]);
    uc[0] = ctz(uc[1]);
    s[0] = ctz(s[1]);
    us[0] = ctz(us[1]);
    i[0] = ctz(i[1]);
    u[0] = ctz(u[1]);
    l[0] = ctz(l[1]);
    m[0] = ctz(m[1]);
}

kernel void half_math(global half *h, global int *n, global half *gh, local half *lh) {
    half x = h[0], y = h[1], z = h[2], ip;
    int e;
    h[3] = log1p(x) + exp(x) + log(x) + ceil(x) + floor(x) + trunc(x) + rsqrt(x) + acosh(x) +
           atanh(x) + exp2(x) + degrees(x) + radians(x) + sqrt(x) + sin(x) + cos(x) + tan(x) +
           fabs(x) + log2(x) + log10(x) + expm1(x) + round(x) + rint(x) + cbrt(x);
    h[4] = hypot(x, y) + nextafter(x, y) + fmin(x, y) + fmax(x, y) + pow(x, y) + fmod(x, y) +
           copysign(x, y) + atan2(x, y) + fma(x, y, z) + mad(x, y, z) + clamp(x, y, z);
    h[5] = ldexp(x, n[0]) + modf(x, &ip) + ip + frexp(y, &e) + pown(x, n[1]);
    h[6] = modf(x, gh) + modf(y, lh) + frexp(z, n + 2);
    n[3] = isnan(x) + isinf(x) + isfinite(x) + signbit(x) + isnormal(x) + e;
}

// Half vectors: element by element over the scalar functions (dpnp calls fmod on half4).
kernel void half_vectors(global half4 *h4, global half2 *h2, global half8 *h8, global short4 *s) {
    half4 a = h4[1], b = h4[2], c = h4[3];
    h4[0] = fmod(a, b) + sqrt(a) + fma(a, b, c) + fmax(a, b) + fmax(a, c.x) + clamp(a, c.y, c.z) +
            mix(a, b, c.w) + step(c.x, b) + smoothstep(c.x, c.y, a) + pow(a, b) + exp(c);
    h2[0] = fmin(h2[1], h2[2]) + atan2(h2[1], h2[2]) + hypot(h2[1], h2[2]) +
            nextafter(h2[1], h2[2]);
    h8[0] = copysign(h8[1], h8[2]) + rsqrt(h8[1]);
    s[0] = isnan(a) + isinf(b) + signbit(c);
}
