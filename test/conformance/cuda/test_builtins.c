// SPDX-License-Identifier: MIT
// urc's SPIR-V builtins on the GPU: test/kernels/builtins/gpu_builtins.cl, translated through
// the SPIR-V chain with urc_builtins.nvptx64.bc and libclc (test/builtins), runs through the
// CUDA adapter and every result is compared with a host reference. Work-groups of 80 and 200
// work-items end in a partial sub-group (16 and 8 lanes of a warp).
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudat.h"

#define PTX          "builtins_gpu.ptx"
#define SG_RESULTS   12
#define WG_RESULTS   8
#define HALF_RESULTS 17
#define GROUPS       4

static ur_program_handle_t program;

static void setup(void) {
    cudat_setup();
    program = cudat_built_program(PTX, NULL);
}

static void teardown(void) {
    if (program != NULL)
        urProgramRelease(program);
    program = NULL;
    cudat_teardown();
}

static void *dalloc(size_t bytes) {
    void *p = NULL;
    ck_assert_ur_ok(urUSMDeviceAlloc(T.context, T.device, NULL, NULL, bytes, &p));
    return p;
}

static void upload(void *dev, const void *host, size_t bytes) {
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, dev, host, bytes, 0, NULL, NULL));
}

static void download(void *host, const void *dev, size_t bytes) {
    ck_assert_ur_ok(urEnqueueUSMMemcpy(T.queue, true, host, dev, bytes, 0, NULL, NULL));
}

// Launches `name` over `global` work-items in groups of `local` with pointer arguments (a
// size of 0 in `locals` passes a pointer, otherwise that many bytes of local memory).
static void launch(const char *name, size_t global, size_t local, uint32_t n, void *const *ptrs,
                   const size_t *locals) {
    ur_kernel_handle_t k = NULL;
    ck_assert_ur_ok(urKernelCreate(program, name, &k));
    ur_exp_kernel_arg_properties_t args[8];
    for (uint32_t i = 0; i < n; i++)
        args[i] = locals != NULL && locals[i] ? cudat_arg_local(i, locals[i])
                                              : cudat_arg_pointer(i, ptrs[i]);
    ck_assert_ur_ok(cudat_launch(T.queue, k, global, &local, n, args, 0, NULL, NULL));
    ck_assert_ur_ok(urQueueFinish(T.queue));
    ck_assert_ur_ok(urKernelRelease(k));
}

// ---- half on the host ----

static float half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ffu;
    float f;
    if (exp == 0)
        f = ldexpf((float)man, -24);
    else if (exp == 31)
        f = man ? NAN : INFINITY;
    else
        f = ldexpf((float)(man | 0x400u), (int)exp - 25);
    uint32_t bits;
    memcpy(&bits, &f, 4);
    bits |= sign;
    memcpy(&f, &bits, 4);
    return f;
}

// Round to nearest even, as fptrunc does.
static uint16_t float_to_half(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    float a = fabsf(f);
    if (isnan(f))
        return sign | 0x7e00u;
    if (a >= 65520.0f)
        return sign | 0x7c00u;
    if (a < ldexpf(1.0f, -14)) { // subnormal or zero: a multiple of 2^-24
        float q = rintf(ldexpf(a, 24));
        return sign | (uint16_t)q;
    }
    int e;
    float m = frexpf(a, &e); // a = m * 2^e, m in [0.5, 1)
    float q = rintf(ldexpf(m, 11));
    if (q >= 2048.0f) {
        q /= 2.0f;
        e++;
    }
    return sign | (uint16_t)(((e + 14) << 10) | ((uint32_t)q & 0x3ffu));
}

// ---- sub-group geometry ----

static unsigned sg_size_of(size_t local, size_t lid) {
    size_t left = local - (lid & ~(size_t)31);
    return left < 32 ? (unsigned)left : 32;
}

START_TEST(sub_group_queries_in_a_partial_warp) {
    const size_t local = 80, global = 160;
    uint32_t *d = dalloc(global * 6 * 4), h[160 * 6];
    launch("sg_info", global, local, 1, (void *[]){d}, NULL);
    download(h, d, sizeof h);
    for (size_t g = 0; g < global; g++) {
        size_t l = g % local;
        uint32_t want[6] = {sg_size_of(local, l), 32, (uint32_t)(l % 32), (uint32_t)(l / 32), 3, 3};
        for (int i = 0; i < 6; i++)
            ck_assert_msg(h[g * 6 + i] == want[i], "work-item %zu answer %d: %u, expected %u", g, i,
                          h[g * 6 + i], want[i]);
    }
    urUSMFree(T.context, d);
}
END_TEST

// The reference of sg_<type> for work-item g, in doubles (inputs are small integers, so every
// sum is exact in every type).
static void sg_reference(const double *x, size_t local, size_t g, double *r) {
    size_t l = g % local, base = g - l % 32;
    unsigned n = sg_size_of(local, l), lane = (unsigned)(l % 32);
    double sum = 0, mn = INFINITY, mx = -INFINITY, isum = 0, imin = INFINITY, emax = -INFINITY;
    for (unsigned i = 0; i < n; i++) {
        double v = x[base + i];
        sum += v;
        mn = fmin(mn, v);
        mx = fmax(mx, v);
        if (i < lane)
            emax = fmax(emax, v);
        if (i <= lane) {
            isum += v;
            imin = fmin(imin, v);
        }
    }
    r[0] = sum;
    r[1] = mn;
    r[2] = mx;
    r[3] = isum;
    r[4] = isum - x[g];
    r[5] = imin;
    r[6] = emax;
    r[7] = x[base + 1];
    r[8] = x[base + (lane + 5) % n];
    r[9] = x[base + (lane ^ 1)];
    unsigned down = lane + 3;
    r[10] = down < n ? x[base + down] : 2 * x[base + down - n];
    r[11] = lane >= 3 ? 2 * x[base + lane - 3] : x[base + lane + n - 3];
}

static double input_value(size_t g) {
    return (double)((int)((g * 7 + 3) % 11) - 5);
}

// EMPTY_MAX: the identity an exclusive max scan gives the first lane.
#define SG_CASE(TY, NAME, TO, FROM, EMPTY_MAX)                                                     \
    START_TEST(sub_group_collectives_##NAME) {                                                     \
        enum { local = 80, global = 160 };                                                         \
        TY in[global], out[global * SG_RESULTS];                                                   \
        double x[global], r[SG_RESULTS];                                                           \
        for (size_t g = 0; g < global; g++) {                                                      \
            x[g] = input_value(g);                                                                 \
            in[g] = TO(x[g]);                                                                      \
        }                                                                                          \
        TY *din = dalloc(sizeof in), *dout = dalloc(sizeof out);                                   \
        upload(din, in, sizeof in);                                                                \
        launch("sg_" #NAME, global, local, 2, (void *[]){din, dout}, NULL);                        \
        download(out, dout, sizeof out);                                                           \
        for (size_t g = 0; g < global; g++) {                                                      \
            sg_reference(x, local, g, r);                                                          \
            if (g % local % 32 == 0)                                                               \
                r[6] = (EMPTY_MAX);                                                                \
            for (int i = 0; i < SG_RESULTS; i++)                                                   \
                ck_assert_msg(FROM(out[g * SG_RESULTS + i]) == r[i],                               \
                              #NAME " work-item %zu result %d: %g, expected %g", g, i,             \
                              (double)FROM(out[g * SG_RESULTS + i]), r[i]);                        \
        }                                                                                          \
        urUSMFree(T.context, din);                                                                 \
        urUSMFree(T.context, dout);                                                                \
    }                                                                                              \
    END_TEST

#define PLAIN(x)     (x)
#define TO_HALF(x)   float_to_half((float)(x))
#define FROM_HALF(x) ((double)half_to_float(x))
SG_CASE(int32_t, int, (int32_t), PLAIN, (double)INT_MIN)
SG_CASE(int64_t, long, (int64_t), PLAIN, (double)LLONG_MIN)
SG_CASE(float, float, (float), PLAIN, -INFINITY)
SG_CASE(double, double, (double), PLAIN, -INFINITY)
SG_CASE(uint16_t, half, TO_HALF, FROM_HALF, -INFINITY)

START_TEST(sub_group_shuffle_char) {
    enum { local = 80, global = 160 };
    int8_t in[global], out[global];
    for (size_t g = 0; g < global; g++)
        in[g] = (int8_t)(g * 37);
    int8_t *din = dalloc(global), *dout = dalloc(global);
    upload(din, in, global);
    launch("sg_char", global, local, 2, (void *[]){din, dout}, NULL);
    download(out, dout, global);
    for (size_t g = 0; g < global; g++) {
        size_t l = g % local, base = g - l % 32;
        unsigned n = sg_size_of(local, l);
        ck_assert_int_eq(out[g], in[base + (l % 32 + 5) % n]);
    }
    urUSMFree(T.context, din);
    urUSMFree(T.context, dout);
}
END_TEST

START_TEST(votes_in_sub_groups_and_work_groups) {
    enum { local = 80, global = 160 };
    int32_t in[global];
    uint32_t out[global * 7];
    for (size_t g = 0; g < global; g++)
        in[g] = (int32_t)input_value(g);
    in[100] = 7; // any() holds in one sub-group of the second work-group only
    int32_t *din = dalloc(sizeof in);
    uint32_t *dout = dalloc(sizeof out);
    upload(din, in, sizeof in);
    launch("votes", global, local, 2, (void *[]){din, dout}, NULL);
    download(out, dout, sizeof out);
    for (size_t g = 0; g < global; g++) {
        size_t l = g % local, base = g - l % 32, wbase = g - l;
        unsigned n = sg_size_of(local, l);
        uint32_t ballot = 0, all_odd = 1, any7 = 0, wall_odd = 1, wany7 = 0;
        for (unsigned i = 0; i < n; i++) {
            ballot |= (uint32_t)(in[base + i] & 1) << i;
            all_odd &= (uint32_t)(in[base + i] & 1);
            any7 |= in[base + i] == 7;
        }
        for (size_t i = 0; i < local; i++) {
            wall_odd &= (uint32_t)(in[wbase + i] & 1);
            wany7 |= in[wbase + i] == 7;
        }
        uint32_t want[7] = {ballot, 1, all_odd, any7, 1, wall_odd, wany7};
        for (int i = 0; i < 7; i++)
            ck_assert_msg(out[g * 7 + i] == want[i], "work-item %zu vote %d: %u, expected %u", g, i,
                          out[g * 7 + i], want[i]);
    }
    urUSMFree(T.context, din);
    urUSMFree(T.context, dout);
}
END_TEST

static void wg_reference(const double *x, size_t local, size_t g, double *r) {
    size_t l = g % local, base = g - l;
    double sum = 0, mn = INFINITY, mx = -INFINITY, isum = 0, imin = INFINITY, emax = -INFINITY;
    for (size_t i = 0; i < local; i++) {
        double v = x[base + i];
        sum += v;
        mn = fmin(mn, v);
        mx = fmax(mx, v);
        if (i < l)
            emax = fmax(emax, v);
        if (i <= l) {
            isum += v;
            imin = fmin(imin, v);
        }
    }
    r[0] = sum;
    r[1] = mn;
    r[2] = mx;
    r[3] = isum;
    r[4] = isum - x[g];
    r[5] = imin;
    r[6] = emax;
    r[7] = x[base + 37];
}

// Unsigned types take inputs of 0 to 10 and the identity of max (0) for the first work-item.
#define WG_CASE(TY, NAME, TO, FROM, SHIFT, EMPTY_MAX)                                              \
    START_TEST(work_group_collectives_##NAME) {                                                    \
        enum { local = 200, global = 400 };                                                        \
        static TY in[global], out[global * WG_RESULTS];                                            \
        static double x[global];                                                                   \
        double r[WG_RESULTS];                                                                      \
        for (size_t g = 0; g < global; g++) {                                                      \
            x[g] = input_value(g) + (SHIFT);                                                       \
            in[g] = TO(x[g]);                                                                      \
        }                                                                                          \
        TY *din = dalloc(sizeof in), *dout = dalloc(sizeof out);                                   \
        upload(din, in, sizeof in);                                                                \
        launch("wg_" #NAME, global, local, 2, (void *[]){din, dout}, NULL);                        \
        download(out, dout, sizeof out);                                                           \
        for (size_t g = 0; g < global; g++) {                                                      \
            wg_reference(x, local, g, r);                                                          \
            if (g % local == 0)                                                                    \
                r[6] = (EMPTY_MAX);                                                                \
            for (int i = 0; i < WG_RESULTS; i++)                                                   \
                ck_assert_msg(FROM(out[g * WG_RESULTS + i]) == r[i],                               \
                              #NAME " work-item %zu result %d: %g, expected %g", g, i,             \
                              (double)FROM(out[g * WG_RESULTS + i]), r[i]);                        \
        }                                                                                          \
        urUSMFree(T.context, din);                                                                 \
        urUSMFree(T.context, dout);                                                                \
    }                                                                                              \
    END_TEST

WG_CASE(int32_t, int, (int32_t), PLAIN, 0, (double)INT_MIN)
WG_CASE(uint32_t, uint, (uint32_t), PLAIN, 5, 0)
WG_CASE(int64_t, long, (int64_t), PLAIN, 0, (double)LLONG_MIN)
WG_CASE(uint64_t, ulong, (uint64_t), PLAIN, 5, 0)
WG_CASE(float, float, (float), PLAIN, 0, -INFINITY)
WG_CASE(double, double, (double), PLAIN, 0, -INFINITY)
WG_CASE(uint16_t, half, TO_HALF, FROM_HALF, 0, -INFINITY)

START_TEST(barriers_order_local_memory) {
    enum { local = 200, global = 400 };
    static int32_t out[global * 3];
    int32_t *dout = dalloc(sizeof out);
    launch("barriers", global, local, 2, (void *[]){dout, NULL},
           (size_t[]){0, local * sizeof(int32_t)});
    download(out, dout, sizeof out);
    for (size_t g = 0; g < global; g++) {
        size_t l = g % local, sl = l % 32, base = l - sl;
        unsigned sn = sg_size_of(local, l);
        int32_t a = (int32_t)(((l + 1) % local) * 3 + 1), b = (int32_t)(3 * l + 2);
        int32_t c = 2 * (int32_t)(3 * (base + (sl + 1) % sn) + 2);
        ck_assert_int_eq(out[g * 3 + 0], a);
        ck_assert_int_eq(out[g * 3 + 1], b);
        ck_assert_int_eq(out[g * 3 + 2], c);
    }
    urUSMFree(T.context, dout);
}
END_TEST

START_TEST(atomics_every_order_and_scope) {
    enum { local = 96, global = GROUPS * 96, slots = 15 * GROUPS };
    static int32_t I[slots * 4], S[15 * global];
    static int64_t L[slots * 2], R[slots];
    static uint32_t U[slots * 2];
    static uint64_t M[slots * 2];
    static float F[slots * 3];
    static double D[slots * 3];
    for (int s = 0; s < slots; s++) {
        I[s * 4 + 0] = 0, I[s * 4 + 1] = -1, I[s * 4 + 2] = 0, I[s * 4 + 3] = -1;
        L[s * 2 + 0] = 0, L[s * 2 + 1] = 0;
        U[s * 2 + 0] = 0, U[s * 2 + 1] = 0xffffffffu;
        M[s * 2 + 0] = 0, M[s * 2 + 1] = 0;
        F[s * 3 + 0] = 0, F[s * 3 + 1] = -1, F[s * 3 + 2] = 1e30f;
        D[s * 3 + 0] = 0, D[s * 3 + 1] = -1, D[s * 3 + 2] = 1e300;
        R[s] = 0;
    }
    void *d[8] = {dalloc(sizeof I), dalloc(sizeof L), dalloc(sizeof U), dalloc(sizeof M),
                  dalloc(sizeof F), dalloc(sizeof D), dalloc(sizeof R), dalloc(sizeof S)};
    const void *h[8] = {I, L, U, M, F, D, R, S};
    const size_t sz[8] = {sizeof I, sizeof L, sizeof U, sizeof M,
                          sizeof F, sizeof D, sizeof R, sizeof S};
    for (int i = 0; i < 8; i++)
        upload(d[i], h[i], sz[i]);
    launch("atomics", global, local, 8, d, NULL);
    download(I, d[0], sizeof I);
    download(L, d[1], sizeof L);
    download(U, d[2], sizeof U);
    download(M, d[3], sizeof M);
    download(F, d[4], sizeof F);
    download(D, d[5], sizeof D);
    download(R, d[6], sizeof R);
    download(S, d[7], sizeof S);
    static const char *orders[5] = {"relaxed", "acquire", "release", "acq_rel", "seq_cst"};
    static const char *scopes[3] = {"work_group", "device", "all_svm_devices"};
    for (int k = 0; k < 15; k++) {
        int wg = k % 3 == 0;
        for (int grp = 0; grp < (wg ? GROUPS : 1); grp++) {
            int s = k * GROUPS + grp;
            int64_t n = wg ? local : global;
            uint32_t and_bits = 0xffffffffu;
            uint64_t or_bits = 0, xor_bits = 0;
            for (int64_t i = 0; i < n; i++) {
                and_bits &= ~(1u << (i % 32));
                or_bits |= 1ull << (i % 64);
                xor_bits ^= (uint64_t)i;
            }
            const char *o = orders[k / 3], *sc = scopes[k % 3];
            ck_assert_msg(I[s * 4] == n, "%s %s add: %d of %ld", o, sc, I[s * 4], (long)n);
            ck_assert_msg(R[s] == n * (n - 1) / 2, "%s %s: fetch_add returned %ld in all", o, sc,
                          (long)R[s]);
            ck_assert_msg(I[s * 4 + 1] == n - 1, "%s %s max", o, sc);
            ck_assert_msg(I[s * 4 + 2] == n, "%s %s compare-exchange: %d", o, sc, I[s * 4 + 2]);
            ck_assert_msg(I[s * 4 + 3] >= 0 && I[s * 4 + 3] < n, "%s %s exchange", o, sc);
            ck_assert_msg(L[s * 2] == n * (n - 1) / 2, "%s %s long add", o, sc);
            ck_assert_msg(L[s * 2 + 1] == -(n - 1), "%s %s long min", o, sc);
            ck_assert_msg(U[s * 2] == (uint32_t)-n, "%s %s uint sub", o, sc);
            ck_assert_msg(U[s * 2 + 1] == and_bits, "%s %s uint and", o, sc);
            ck_assert_msg(M[s * 2] == or_bits, "%s %s ulong or", o, sc);
            ck_assert_msg(M[s * 2 + 1] == xor_bits, "%s %s ulong xor", o, sc);
            ck_assert_msg(
                F[s * 3] == (float)n && F[s * 3 + 1] == (float)(n - 1) && F[s * 3 + 2] == 0.0f,
                "%s %s float add/max/min: %g %g %g", o, sc, F[s * 3], F[s * 3 + 1], F[s * 3 + 2]);
            ck_assert_msg(
                D[s * 3] == (double)n && D[s * 3 + 1] == (double)(n - 1) && D[s * 3 + 2] == 0.0,
                "%s %s double add/max/min: %g %g %g", o, sc, D[s * 3], D[s * 3 + 1], D[s * 3 + 2]);
        }
        for (int g = 0; g < global; g++) {
            int id = wg ? g % local : g;
            ck_assert_int_eq(S[k * global + g], id + 1001);
        }
    }
    for (int i = 0; i < 8; i++)
        urUSMFree(T.context, d[i]);
}
END_TEST

START_TEST(atomics_on_local_memory_through_generic_pointers) {
    enum { local = 200, global = 600 };
    int32_t out[3 * 10], *d = dalloc(sizeof out);
    launch("atomics_local", global, local, 1, (void *[]){d}, NULL);
    download(out, d, sizeof out);
    for (int i = 0; i < 30; i++)
        ck_assert_msg(out[i] == local, "group %d counter %d: %d", i / 10, i % 10, out[i]);
    urUSMFree(T.context, d);
}
END_TEST

START_TEST(generic_casts_find_the_space) {
    enum { local = 64, global = 128 };
    int32_t out[global * 9], *d = dalloc(sizeof out);
    launch("casts", global, local, 2, (void *[]){d, NULL}, (size_t[]){0, (local + 1) * 4});
    download(out, d, sizeof out);
    static const int32_t want[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (int g = 0; g < global; g++)
        for (int i = 0; i < 9; i++)
            ck_assert_msg(out[g * 9 + i] == want[i], "work-item %d cast %d: %d", g, i,
                          out[g * 9 + i]);
    urUSMFree(T.context, d);
}
END_TEST

static long ctz_ref(uint64_t x, int bits) {
    for (int i = 0; i < bits; i++)
        if (x >> i & 1)
            return i;
    return bits;
}

START_TEST(ctz_of_every_integer_type) {
    enum { n = 64 };
    uint64_t in[n];
    int64_t out[n * 8];
    for (int i = 0; i < n; i++)
        in[i] = i == 0 ? 0 : i == 1 ? 0x8000000000000000ull : (0x5a5a5ull << (i % 60)) | (i > 40);
    uint64_t *din = dalloc(sizeof in);
    int64_t *dout = dalloc(sizeof out);
    upload(din, in, sizeof in);
    launch("integers", n, 32, 2, (void *[]){din, dout}, NULL);
    download(out, dout, sizeof out);
    static const int bits[8] = {8, 8, 16, 16, 32, 32, 64, 64};
    for (int i = 0; i < n; i++)
        for (int t = 0; t < 8; t++) {
            uint64_t mask = bits[t] == 64 ? ~0ull : (1ull << bits[t]) - 1;
            ck_assert_msg(out[i * 8 + t] == ctz_ref(in[i] & mask, bits[t]),
                          "ctz of %llx in %d bits: %ld", (unsigned long long)in[i], bits[t],
                          (long)out[i * 8 + t]);
        }
    urUSMFree(T.context, din);
    urUSMFree(T.context, dout);
}
END_TEST

// Edge values: signed zeros, ones, the largest half, infinities, NaN, the smallest and largest
// subnormals, the smallest normal, values near acosh's and atanh's domain ends.
static const uint16_t half_inputs[32] = {
    0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0x4000, 0x4300, 0xc180, 0x7bff, 0xfbff, 0x7c00,
    0xfc00, 0x7e00, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3bff, 0x3c01, 0x4900, 0xc900, 0x3400,
    0x5640, 0x2e66, 0xb266, 0x4248, 0x3e00, 0x4d00, 0xa400, 0x1000, 0x6400, 0x3a00};

static int half_ulps(uint16_t a, uint16_t b) {
    if ((a & 0x7fff) > 0x7c00 || (b & 0x7fff) > 0x7c00) // NaN matches only NaN
        return ((a & 0x7fff) > 0x7c00) == ((b & 0x7fff) > 0x7c00) ? 0 : 1000;
    int ia = a & 0x8000 ? -(a & 0x7fff) : a, ib = b & 0x8000 ? -(b & 0x7fff) : b;
    return abs(ia - ib);
}

START_TEST(half_math_against_float_references) {
    enum { n = 32 };
    uint16_t out[n * HALF_RESULTS];
    int32_t ints[n * 4];
    uint16_t *din = dalloc(sizeof half_inputs), *dout = dalloc(sizeof out);
    int32_t *dint = dalloc(sizeof ints);
    upload(din, half_inputs, sizeof half_inputs);
    launch("half_math", n, 32, 3, (void *[]){din, dout, dint}, NULL);
    download(out, dout, sizeof out);
    download(ints, dint, sizeof ints);
    static const char *names[HALF_RESULTS] = {
        "log1p", "exp",     "log",     "ceil",  "floor",     "trunc", "rsqrt", "acosh", "atanh",
        "exp2",  "degrees", "radians", "hypot", "nextafter", "ldexp", "modf",  "frexp"};
    // Functions rounded once from an exact float operation must match to the bit.
    static const int exact[HALF_RESULTS] = {0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
    int failures = 0;
    for (int i = 0; i < n; i++) {
        float x = half_to_float(half_inputs[i]), y = half_to_float(half_inputs[(i + 1) % n]);
        int e = 0;
        float ip = 0;
        float ref[HALF_RESULTS] = {log1pf(x),
                                   expf(x),
                                   logf(x),
                                   ceilf(x),
                                   floorf(x),
                                   truncf(x),
                                   1.0f / sqrtf(x),
                                   acoshf(x),
                                   atanhf(x),
                                   exp2f(x),
                                   x * (float)(180.0 / 3.14159265358979323846),
                                   x * (float)(3.14159265358979323846 / 180.0),
                                   hypotf(x, y),
                                   0,
                                   ldexpf(x, 3),
                                   modff(x, &ip),
                                   frexpf(x, &e)};
        for (int f = 0; f < HALF_RESULTS; f++) {
            uint16_t want = float_to_half(ref[f]);
            if (f == 13) { // nextafter on the half grid
                uint16_t hx = half_inputs[i], hy = half_inputs[(i + 1) % n];
                if (isnan(x) || isnan(y))
                    want = 0x7e00;
                else if (x == y)
                    want = hy;
                else if ((hx & 0x7fff) == 0)
                    want = (uint16_t)((hy & 0x8000) | 1);
                else
                    want = (uint16_t)((x < y) == !(hx & 0x8000) ? hx + 1 : hx - 1);
            }
            int ulps = half_ulps(out[i * HALF_RESULTS + f], want);
            if (ulps > (exact[f] ? 0 : 1)) {
                fprintf(stderr, "half %s(%a [0x%04x]) = 0x%04x, expected 0x%04x\n", names[f],
                        (double)x, half_inputs[i], out[i * HALF_RESULTS + f], want);
                failures++;
            }
        }
        if (!isnan(x) && !isinf(x))
            ck_assert_msg(ints[i * 4] == e, "frexp exponent of %a: %d", (double)x, ints[i * 4]);
        ck_assert_int_eq(ints[i * 4 + 1] != 0, isnan(x) != 0);
        ck_assert_int_eq(ints[i * 4 + 2] != 0, signbit(x) != 0);
        ck_assert_int_eq(half_ulps((uint16_t)ints[i * 4 + 3], float_to_half(ip)), 0);
    }
    ck_assert_int_eq(failures, 0);
    urUSMFree(T.context, din);
    urUSMFree(T.context, dout);
    urUSMFree(T.context, dint);
}
END_TEST

START_TEST(pointer_builtins_mad_hi_and_native) {
    enum { n = 64, local = 32 };
    static float in[4 * n], cin[4 * n], out[4 * n + 8 * n];
    static int32_t ints[3 * n];
    for (int i = 0; i < 4 * n; i++) {
        in[i] = (float)(i % 23) * 0.37f - 3.0f;
        cin[i] = (float)(i % 7) * 1.5f;
    }
    float *din = dalloc(sizeof in), *dc = dalloc(sizeof cin), *dout = dalloc(sizeof out);
    int32_t *dint = dalloc(sizeof ints);
    upload(din, in, sizeof in);
    upload(dc, cin, sizeof cin);
    launch("pointers", n, local, 5, (void *[]){din, dc, dout, dint, NULL},
           (size_t[]){0, 0, 0, 0, local * 4 * sizeof(float)});
    download(out, dout, sizeof out);
    download(ints, dint, sizeof ints);
    for (int i = 0; i < 4 * n; i++)
        ck_assert_msg(out[i] == in[i] + cin[i], "vload4/vstore4 element %d: %g, expected %g", i,
                      (double)out[i], (double)(in[i] + cin[i]));
    for (int g = 0; g < n; g++) {
        float x = in[4 * g], ip, *r = out + 4 * n + 8 * g;
        int e;
        float frac = modff(x * 1.75f, &ip), mant = frexpf(x * 3.0f, &e);
        ck_assert_msg(r[0] == frac && r[1] == ip, "modf(%g): %g %g", (double)(x * 1.75f),
                      (double)r[0], (double)r[1]);
        ck_assert_msg(r[2] == mant && ints[3 * g] == e, "frexp(%g)", (double)(x * 3.0f));
        // native_*: PTX's approximate instructions, a few ulp of float.
        float want[5] = {expf(x / 8.0f), logf(fabsf(x) + 1.0f), sinf(x), cosf(x),
                         powf(fabsf(x) + 0.5f, 1.5f)};
        for (int k = 0; k < 5; k++)
            ck_assert_msg(fabsf(r[3 + k] - want[k]) <= 1e-5f + 1e-5f * fabsf(want[k]),
                          "native function %d of %g: %.9g, expected %.9g", k, (double)x,
                          (double)r[3 + k], (double)want[k]);
        int32_t a = (int32_t)((uint32_t)g * 0x1234567u);
        uint32_t b = (uint32_t)g * 0x9abcdefu;
        ck_assert_int_eq(ints[3 * g + 1], (int32_t)(((int64_t)a * 0x7654321) >> 32) + 5);
        ck_assert_uint_eq((uint32_t)ints[3 * g + 2],
                          (uint32_t)(((uint64_t)b * 0xfedcba98u) >> 32) + 7u);
    }
    urUSMFree(T.context, din);
    urUSMFree(T.context, dc);
    urUSMFree(T.context, dout);
    urUSMFree(T.context, dint);
}
END_TEST

int main(void) {
    // The PTX comes from the SPIR-V chain at build time (LLVM 15, libclc): without it, skip.
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", cudat_kernel_dir(), PTX);
    if (access(path, R_OK) != 0) {
        printf("%s is missing (the SPIR-V builtins were not built)\n", path);
        return 77;
    }
    Suite *s = suite_create("cuda SPIR-V builtins");
    TCase *tc = urc_test_tcase("sub-groups", setup, teardown);
    tcase_add_test(tc, sub_group_queries_in_a_partial_warp);
    tcase_add_test(tc, sub_group_collectives_int);
    tcase_add_test(tc, sub_group_collectives_long);
    tcase_add_test(tc, sub_group_collectives_float);
    tcase_add_test(tc, sub_group_collectives_double);
    tcase_add_test(tc, sub_group_collectives_half);
    tcase_add_test(tc, sub_group_shuffle_char);
    tcase_add_test(tc, votes_in_sub_groups_and_work_groups);
    tcase_add_test(tc, barriers_order_local_memory);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("work-groups", setup, teardown);
    tcase_add_test(tc, work_group_collectives_int);
    tcase_add_test(tc, work_group_collectives_uint);
    tcase_add_test(tc, work_group_collectives_long);
    tcase_add_test(tc, work_group_collectives_ulong);
    tcase_add_test(tc, work_group_collectives_float);
    tcase_add_test(tc, work_group_collectives_double);
    tcase_add_test(tc, work_group_collectives_half);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("atomics", setup, teardown);
    tcase_add_test(tc, atomics_every_order_and_scope);
    tcase_add_test(tc, atomics_on_local_memory_through_generic_pointers);
    suite_add_tcase(s, tc);
    tc = urc_test_tcase("casts, integers, half", setup, teardown);
    tcase_add_test(tc, generic_casts_find_the_space);
    tcase_add_test(tc, ctz_of_every_integer_type);
    tcase_add_test(tc, half_math_against_float_references);
    tcase_add_test(tc, pointer_builtins_mad_hi_and_native);
    suite_add_tcase(s, tc);
    return cudat_main(s, false);
}
