// SPDX-License-Identifier: MIT
// Kernels that run urc's builtins on a GPU for test/conformance/cuda/test_builtins.c, which
// compares every result with a host reference. Translated to PTX through the SPIR-V chain
// (test/builtins/spirv_chain.py).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// Six answers per work-item.
kernel void sg_info(global uint *o) {
    global uint *r = o + get_global_id(0) * 6;
    r[0] = get_sub_group_size();
    r[1] = get_max_sub_group_size();
    r[2] = get_sub_group_local_id();
    r[3] = get_sub_group_id();
    r[4] = get_num_sub_groups();
    r[5] = get_enqueued_num_sub_groups();
}

// SG_RESULTS answers per work-item; shuffles read lanes of the work-item's own sub-group.
#define SG_RESULTS 12
#define SG_TEST(T)                                                                                 \
    kernel void sg_##T(global const T *in, global T *o) {                                          \
        size_t g = get_global_id(0);                                                               \
        T x = in[g];                                                                               \
        T x2 = x + x;                                                                              \
        global T *r = o + g * SG_RESULTS;                                                          \
        uint lane = get_sub_group_local_id(), n = get_sub_group_size();                            \
        r[0] = sub_group_reduce_add(x);                                                            \
        r[1] = sub_group_reduce_min(x);                                                            \
        r[2] = sub_group_reduce_max(x);                                                            \
        r[3] = sub_group_scan_inclusive_add(x);                                                    \
        r[4] = sub_group_scan_exclusive_add(x);                                                    \
        r[5] = sub_group_scan_inclusive_min(x);                                                    \
        r[6] = sub_group_scan_exclusive_max(x);                                                    \
        r[7] = sub_group_broadcast(x, 1);                                                          \
        r[8] = intel_sub_group_shuffle(x, (lane + 5) % n);                                         \
        r[9] = intel_sub_group_shuffle_xor(x, 1);                                                  \
        r[10] = intel_sub_group_shuffle_down(x, x2, 3);                                            \
        r[11] = intel_sub_group_shuffle_up(x, x2, 3);                                              \
    }

SG_TEST(int)
SG_TEST(long)
SG_TEST(float)
SG_TEST(double)
SG_TEST(half)

kernel void sg_char(global const char *in, global char *o) {
    size_t g = get_global_id(0);
    uint lane = get_sub_group_local_id(), n = get_sub_group_size();
    o[g] = intel_sub_group_shuffle(in[g], (lane + 5) % n);
}

kernel void votes(global const int *in, global uint *o) {
    size_t g = get_global_id(0);
    int x = in[g];
    global uint *r = o + g * 7;
    r[0] = sub_group_ballot(x & 1).x;
    r[1] = sub_group_all(x > -100) != 0;
    r[2] = sub_group_all(x & 1) != 0;
    r[3] = sub_group_any(x == 7) != 0;
    r[4] = work_group_all(x > -100) != 0;
    r[5] = work_group_all(x & 1) != 0;
    r[6] = work_group_any(x == 7) != 0;
}

#define WG_RESULTS 8
#define WG_TEST(T)                                                                                 \
    kernel void wg_##T(global const T *in, global T *o) {                                          \
        size_t g = get_global_id(0);                                                               \
        T x = in[g];                                                                               \
        global T *r = o + g * WG_RESULTS;                                                          \
        r[0] = work_group_reduce_add(x);                                                           \
        r[1] = work_group_reduce_min(x);                                                           \
        r[2] = work_group_reduce_max(x);                                                           \
        r[3] = work_group_scan_inclusive_add(x);                                                   \
        r[4] = work_group_scan_exclusive_add(x);                                                   \
        r[5] = work_group_scan_inclusive_min(x);                                                   \
        r[6] = work_group_scan_exclusive_max(x);                                                   \
        r[7] = work_group_broadcast(x, (size_t)37);                                                \
    }

WG_TEST(int)
WG_TEST(uint)
WG_TEST(long)
WG_TEST(ulong)
WG_TEST(float)
WG_TEST(double)
WG_TEST(half)

// Three answers per work-item: a, b from work-group barriers, c from sub-group barriers.
kernel void barriers(global int *o, local int *tmp) {
    uint l = get_local_id(0), n = get_local_size(0);
    uint sl = get_sub_group_local_id(), sn = get_sub_group_size(), base = l - sl;
    tmp[l] = (int)(l * 3 + 1);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    int a = tmp[(l + 1) % n];
    work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
    tmp[l] = a + 1;
    work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_scope_device);
    int b = tmp[(l + n - 1) % n];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    tmp[l] = b * 2;
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    int c = tmp[base + (sl + 1) % sn];
    sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);
    global int *r = o + get_global_id(0) * 3;
    r[0] = a;
    r[1] = b;
    r[2] = c;
}

// Every memory order (relaxed, acquire, release, acq_rel, seq_cst) with every scope
// (work_group, device, all_svm_devices): combination k = order * 3 + scope. A work-group-scope
// combination works on its work-group's slots, the others on slots every work-item shares.
#define GROUPS 4
constant memory_order orders[5] = {memory_order_relaxed, memory_order_acquire, memory_order_release,
                                   memory_order_acq_rel, memory_order_seq_cst};
constant memory_scope scopes[3] = {memory_scope_work_group, memory_scope_device,
                                   memory_scope_all_svm_devices};

kernel void atomics(global int *I, global long *L, global uint *U, global ulong *M, global float *F,
                    global double *D, global long *R, global int *S) {
    for (int k = 0; k < 15; k++) {
        memory_order o = orders[k / 3];
        memory_scope s = scopes[k % 3];
        int wg = k % 3 == 0;
        size_t slot = (size_t)k * GROUPS + (wg ? get_group_id(0) : 0);
        int id = wg ? (int)get_local_id(0) : (int)get_global_id(0);
        volatile generic atomic_int *ai = (volatile generic atomic_int *)(I + slot * 4);
        int old = atomic_fetch_add_explicit(ai, 1, o, s);
        atomic_fetch_add_explicit((volatile generic atomic_long *)(R + slot), (long)old,
                                  memory_order_relaxed, memory_scope_device);
        atomic_fetch_max_explicit(ai + 1, id, o, s);
        int seen = atomic_load_explicit(ai + 2, memory_order_relaxed, s);
        while (!atomic_compare_exchange_strong_explicit(ai + 2, &seen, seen + 1, o,
                                                        memory_order_relaxed, s))
            ;
        atomic_exchange_explicit(ai + 3, id, o, s);
        volatile generic atomic_long *al = (volatile generic atomic_long *)(L + slot * 2);
        atomic_fetch_add_explicit(al, (long)id, o, s);
        atomic_fetch_min_explicit(al + 1, -(long)id, o, s);
        volatile generic atomic_uint *au = (volatile generic atomic_uint *)(U + slot * 2);
        atomic_fetch_sub_explicit(au, 1u, o, s);
        atomic_fetch_and_explicit(au + 1, ~(1u << (id % 32)), o, s);
        volatile generic atomic_ulong *am = (volatile generic atomic_ulong *)(M + slot * 2);
        atomic_fetch_or_explicit(am, 1ul << (id % 64), o, s);
        atomic_fetch_xor_explicit(am + 1, (ulong)id, o, s);
        volatile generic atomic_float *af = (volatile generic atomic_float *)(F + slot * 3);
        atomic_fetch_add_explicit(af, 1.0f, o, s);
        atomic_fetch_max_explicit(af + 1, (float)id, o, s);
        atomic_fetch_min_explicit(af + 2, (float)id, o, s);
        volatile generic atomic_double *ad = (volatile generic atomic_double *)(D + slot * 3);
        atomic_fetch_add_explicit(ad, 1.0, o, s);
        atomic_fetch_max_explicit(ad + 1, (double)id, o, s);
        atomic_fetch_min_explicit(ad + 2, (double)id, o, s);
        // A store then a load of the work-item's own slot, with the orders each allows.
        memory_order so = k / 3 == 1 || k / 3 == 3 ? memory_order_release : o;
        memory_order lo = k / 3 == 2 || k / 3 == 3 ? memory_order_acquire : o;
        volatile generic atomic_int *mine =
            (volatile generic atomic_int *)(S + (size_t)k * get_global_size(0) + get_global_id(0));
        atomic_store_explicit(mine, id + 1000, so, s);
        int back = atomic_load_explicit(mine, lo, s);
        atomic_store_explicit(mine, back + 1, memory_order_relaxed, s);
    }
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
}

// Local memory through generic pointers: one counter per order, answers per work-group.
kernel void atomics_local(global int *o) {
    local int counters[5];
    local float sums[5];
    uint l = get_local_id(0);
    if (l < 5) {
        counters[l] = 0;
        sums[l] = 0.0f;
    }
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 5; k++) {
        atomic_fetch_add_explicit((volatile generic atomic_int *)&counters[k], 1, orders[k],
                                  memory_scope_work_group);
        atomic_fetch_add_explicit((volatile generic atomic_float *)&sums[k], 1.0f, orders[k],
                                  memory_scope_work_group);
    }
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 5) {
        o[get_group_id(0) * 10 + l] = counters[l];
        o[get_group_id(0) * 10 + 5 + l] = (int)sums[l];
    }
}

// Nine answers per work-item: to_global, to_local, to_private of a global, a local and a
// private pointer. The local one is not the first word of local memory: NVPTX's null local
// pointer is offset 0, so a valid pointer there would compare equal to null.
kernel void casts(global int *o, local int *lm) {
    int priv = 5;
    uint l = get_local_id(0) + 1;
    lm[l] = 1;
    generic int *p[3] = {(generic int *)(o + get_global_id(0) * 9), (generic int *)&lm[l],
                         (generic int *)&priv};
    int r[9];
    for (int i = 0; i < 3; i++) {
        r[i * 3 + 0] = to_global(p[i]) != 0;
        r[i * 3 + 1] = to_local(p[i]) != 0;
        r[i * 3 + 2] = to_private(p[i]) != 0;
    }
    // A pointer cast back to its space still reaches the same memory.
    local int *back = to_local(p[1]);
    back[0] += 1;
    for (int i = 0; i < 9; i++)
        o[get_global_id(0) * 9 + i] = r[i] + (i == 4 ? lm[l] - 2 : 0);
}

kernel void integers(global const ulong *in, global long *o) {
    size_t g = get_global_id(0);
    ulong x = in[g];
    global long *r = o + g * 8;
    r[0] = ctz((char)x);
    r[1] = ctz((uchar)x);
    r[2] = ctz((short)x);
    r[3] = ctz((ushort)x);
    r[4] = ctz((int)x);
    r[5] = ctz((uint)x);
    r[6] = ctz((long)x);
    r[7] = ctz(x);
}

// HALF_RESULTS answers per input (y is the next input); frexp's exponent and the predicates
// go to n.
#define HALF_RESULTS 17
kernel void half_math(global const half *in, global half *o, global int *n) {
    size_t g = get_global_id(0), count = get_global_size(0);
    half x = in[g], y = in[(g + 1) % count], ip;
    int e;
    global half *r = o + g * HALF_RESULTS;
    r[0] = log1p(x);
    r[1] = exp(x);
    r[2] = log(x);
    r[3] = ceil(x);
    r[4] = floor(x);
    r[5] = trunc(x);
    r[6] = rsqrt(x);
    r[7] = acosh(x);
    r[8] = atanh(x);
    r[9] = exp2(x);
    r[10] = degrees(x);
    r[11] = radians(x);
    r[12] = hypot(x, y);
    r[13] = nextafter(x, y);
    r[14] = ldexp(x, 3);
    r[15] = modf(x, &ip);
    r[16] = frexp(x, &e);
    n[g * 4 + 0] = e;
    n[g * 4 + 1] = isnan(x);
    n[g * 4 + 2] = signbit(x);
    n[g * 4 + 3] = as_ushort(ip);
}

// vload4/vstore4 through generic pointers to global, local and private memory and from
// constant memory; modf and frexp through generic pointers; mad_hi; native_*. Per work-item:
// o[4g..4g+3] = in + cin (four lanes), o[4N + 8g ...] the math results, n[3g ...] the ints.
kernel void pointers(global const float *in, constant float *cin, global float *o, global int *n,
                     local float *lm) {
    size_t g = get_global_id(0), count = get_global_size(0);
    uint l = get_local_id(0);
    float priv[4];
    float4 a = vload4(g, (generic const float *)in);
    float4 c = vload4(g, cin);
    vstore4(a + c, 0, (generic float *)priv);
    vstore4(vload4(0, (generic const float *)priv), l, (generic float *)lm);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    vstore4(vload4(l, (generic const float *)lm), g, (generic float *)o);
    float x = in[4 * g], ip;
    int e;
    global float *r = o + 4 * count + 8 * g;
    r[0] = modf(x * 1.75f, (generic float *)&ip);
    r[1] = ip;
    r[2] = frexp(x * 3.0f, (generic int *)&e);
    r[3] = native_exp(x / 8.0f);
    r[4] = native_log(fabs(x) + 1.0f);
    r[5] = native_sin(x);
    r[6] = native_cos(x);
    r[7] = native_powr(fabs(x) + 0.5f, 1.5f);
    n[3 * g] = e;
    n[3 * g + 1] = mad_hi((int)(g * 0x1234567u), 0x7654321, 5);
    n[3 * g + 2] = (int)mad_hi((uint)(g * 0x9abcdefu), 0xfedcba98u, 7u);
}
