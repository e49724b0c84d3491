// SPDX-License-Identifier: MIT
// urc's OpenCL C builtins for NVPTX: what libclc 15 lacks and SPIR-V kernels call once the
// translator has read them back in the OpenCL 2.0 environment. Compiled with clang-15 for
// nvptx64; half-precision entry points are in half.ll (clang 15 has no half for NVPTX).
//
// Every definition carries the exact symbol the translator emits (an asm label): clang's
// NVPTX mangling spells generic and private pointers alike and constant as AS4, unlike SPIR.
// Symbols, memory_order and memory_scope values follow OpenCL C 2.0 (relaxed 0, acquire 2,
// release 3, acq_rel 4, seq_cst 5; work_item 0, work_group 1, device 2, all_svm_devices 3,
// sub_group 4).
//
// Sub-groups are warps of 32 lanes cut from the work-group's linear id (x fastest), as CUDA
// forms warps; the last one of a work-group whose size is not a multiple of 32 is partial and
// its collectives involve only its members.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define URC_FN(ret, cname, sym, ...)                                                               \
    ret cname(__VA_ARGS__) __asm__(sym);                                                           \
    ret cname(__VA_ARGS__)

#define URC_ORDER_ACQUIRE    2
#define URC_ORDER_RELEASE    3
#define URC_ORDER_ACQ_REL    4
#define URC_ORDER_SEQ_CST    5
#define URC_SCOPE_WORK_ITEM  0
#define URC_SCOPE_WORK_GROUP 1
#define URC_SCOPE_DEVICE     2
#define URC_SCOPE_ALL        3
#define URC_SCOPE_SUB_GROUP  4

// ---- work-item and sub-group geometry ----

static inline uint urc_local_linear_id(void) {
    return __nvvm_read_ptx_sreg_tid_x() +
           __nvvm_read_ptx_sreg_ntid_x() *
               (__nvvm_read_ptx_sreg_tid_y() +
                __nvvm_read_ptx_sreg_ntid_y() * __nvvm_read_ptx_sreg_tid_z());
}

static inline uint urc_wg_size(void) {
    return __nvvm_read_ptx_sreg_ntid_x() * __nvvm_read_ptx_sreg_ntid_y() *
           __nvvm_read_ptx_sreg_ntid_z();
}

static inline uint urc_sg_size(void) {
    uint left = urc_wg_size() - (urc_local_linear_id() & ~31u);
    return left < 32 ? left : 32;
}

// The lanes of this work-item's sub-group: all 32 but in a partial last warp.
static inline uint urc_sg_mask(void) {
    uint n = urc_sg_size();
    return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}

static inline uint urc_sg_lane(void) {
    return urc_local_linear_id() & 31u;
}

URC_FN(uint, urc_get_sub_group_size, "_Z18get_sub_group_sizev", void) {
    return urc_sg_size();
}
URC_FN(uint, urc_get_max_sub_group_size, "_Z22get_max_sub_group_sizev", void) {
    return 32;
}
URC_FN(uint, urc_get_sub_group_local_id, "_Z22get_sub_group_local_idv", void) {
    return urc_sg_lane();
}
URC_FN(uint, urc_get_sub_group_id, "_Z16get_sub_group_idv", void) {
    return urc_local_linear_id() >> 5;
}
URC_FN(uint, urc_get_num_sub_groups, "_Z18get_num_sub_groupsv", void) {
    return (urc_wg_size() + 31) >> 5;
}
// CUDA work-groups are all of the enqueued size.
URC_FN(uint, urc_get_enqueued_num_sub_groups, "_Z27get_enqueued_num_sub_groupsv", void) {
    return (urc_wg_size() + 31) >> 5;
}

// OpenCL 2.0's linear ids count from the global offset, so the offset never enters them:
// the block's position times its size plus the thread's, linearised x fastest over the grid.
URC_FN(size_t, urc_get_global_linear_id, "_Z20get_global_linear_idv", void) {
    size_t gx = (size_t)__nvvm_read_ptx_sreg_nctaid_x() * __nvvm_read_ptx_sreg_ntid_x();
    size_t gy = (size_t)__nvvm_read_ptx_sreg_nctaid_y() * __nvvm_read_ptx_sreg_ntid_y();
    size_t x = (size_t)__nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() +
               __nvvm_read_ptx_sreg_tid_x();
    size_t y = (size_t)__nvvm_read_ptx_sreg_ctaid_y() * __nvvm_read_ptx_sreg_ntid_y() +
               __nvvm_read_ptx_sreg_tid_y();
    size_t z = (size_t)__nvvm_read_ptx_sreg_ctaid_z() * __nvvm_read_ptx_sreg_ntid_z() +
               __nvvm_read_ptx_sreg_tid_z();
    return (z * gy + y) * gx + x;
}
URC_FN(size_t, urc_get_local_linear_id, "_Z19get_local_linear_idv", void) {
    return urc_local_linear_id();
}

// ---- barriers and fences ----

// A fence at the given scope: membar.cta / .gl / .sys are fence.sc at that scope.
static inline void urc_fence(int scope) {
    switch (scope) {
    case URC_SCOPE_WORK_ITEM:
        break;
    case URC_SCOPE_SUB_GROUP:
    case URC_SCOPE_WORK_GROUP:
        __nvvm_membar_cta();
        break;
    case URC_SCOPE_DEVICE:
        __nvvm_membar_gl();
        break;
    default:
        __nvvm_membar_sys();
        break;
    }
}

// bar.sync already orders memory among the work-group; wider scopes need a fence too.
URC_FN(void, urc_work_group_barrier_scope, "_Z18work_group_barrierj12memory_scope", uint flags,
       int scope) {
    if ((flags & 2u) && (scope == URC_SCOPE_DEVICE || scope == URC_SCOPE_ALL))
        urc_fence(scope);
    __nvvm_bar_sync(0);
}
URC_FN(void, urc_work_group_barrier, "_Z18work_group_barrierj", uint flags) {
    (void)flags;
    __nvvm_bar_sync(0);
}
URC_FN(void, urc_sub_group_barrier_scope, "_Z17sub_group_barrierj12memory_scope", uint flags,
       int scope) {
    if ((flags & 2u) && (scope == URC_SCOPE_DEVICE || scope == URC_SCOPE_ALL))
        urc_fence(scope);
    __nvvm_bar_warp_sync(urc_sg_mask());
}
URC_FN(void, urc_sub_group_barrier, "_Z17sub_group_barrierj", uint flags) {
    (void)flags;
    __nvvm_bar_warp_sync(urc_sg_mask());
}
URC_FN(void, urc_atomic_work_item_fence, "_Z22atomic_work_item_fencej12memory_order12memory_scope",
       uint flags, int order, int scope) {
    (void)flags;
    if (order != 0)
        urc_fence(scope);
}

// ---- generic-pointer casts: the translator's __to_global / __to_local / __to_private ----
// cvta runs in inline assembly: an addrspacecast would let the optimiser fold generic-to-local
// of a pointer it knows came from global into a global-to-local cast, which NVPTX cannot
// lower (a dead branch is enough). Private pointers stay generic in translated kernels.

URC_FN(global void *, urc_to_global, "__to_global", generic void *p) {
    ulong a = 0;
    if (!__nvvm_isspacep_global(p))
        return (global void *)0;
    __asm__("cvta.to.global.u64 %0, %1;" : "=l"(a) : "l"((ulong)p));
    return (global void *)a;
}
URC_FN(local void *, urc_to_local, "__to_local", generic void *p) {
    ulong a = 0;
    if (!__nvvm_isspacep_shared(p))
        return (local void *)0;
    __asm__("cvta.to.shared.u64 %0, %1;" : "=l"(a) : "l"((ulong)p));
    return (local void *)a;
}
URC_FN(private void *, urc_to_private, "__to_private", generic void *p) {
    return __nvvm_isspacep_local(p) ? (private void *)p : (private void *)0;
}

// ---- integer gaps ----

#define URC_CTZ(T, M, BITS)                                                                        \
    URC_FN(T, urc_ctz_##M, "_Z3ctz" #M, T x) {                                                     \
        return (T)__builtin_ctz((uint)(x) | (1u << (BITS)));                                       \
    }
URC_CTZ(char, c, 8)
URC_CTZ(uchar, h, 8)
URC_CTZ(short, s, 16)
URC_CTZ(ushort, t, 16)
URC_FN(int, urc_ctz_i, "_Z3ctzi", int x) {
    return x ? __builtin_ctz((uint)x) : 32;
}
URC_FN(uint, urc_ctz_j, "_Z3ctzj", uint x) {
    return x ? __builtin_ctz(x) : 32;
}
URC_FN(long, urc_ctz_l, "_Z3ctzl", long x) {
    return x ? __builtin_ctzl((ulong)x) : 64;
}
URC_FN(ulong, urc_ctz_m, "_Z3ctzm", ulong x) {
    return x ? __builtin_ctzl(x) : 64;
}

// ---- sub-group data movement ----

static inline uint urc_shuffle32(uint x, uint src) {
    uint n = urc_sg_size();
    // A lane outside the sub-group reads its own value rather than an undefined one.
    if (src >= n)
        src = urc_sg_lane();
    return __nvvm_shfl_sync_idx_i32(urc_sg_mask(), x, src, 0x1f);
}

static inline ulong urc_shuffle64(ulong x, uint src) {
    uint2 v = as_uint2(x);
    v.x = urc_shuffle32(v.x, src);
    v.y = urc_shuffle32(v.y, src);
    return as_ulong(v);
}

// Intel's shuffle_down(current, next, delta): lane i reads current[i + delta] while that is in
// the sub-group, else next[i + delta - size]; shuffle_up(previous, current, delta) mirrors it.
#define URC_SHUFFLES(T, M, W, TO, FROM)                                                            \
    URC_FN(T, urc_shuffle_##M, "_Z23intel_sub_group_shuffle" #M "j", T x, uint lane) {             \
        return FROM(urc_shuffle##W(TO(x), lane));                                                  \
    }                                                                                              \
    URC_FN(T, urc_shuffle_xor_##M, "_Z27intel_sub_group_shuffle_xor" #M "j", T x, uint m) {        \
        return FROM(urc_shuffle##W(TO(x), urc_sg_lane() ^ m));                                     \
    }                                                                                              \
    URC_FN(T, urc_shuffle_down_##M, "_Z28intel_sub_group_shuffle_down" #M #M "j", T cur, T next,   \
           uint delta) {                                                                           \
        uint n = urc_sg_size(), i = urc_sg_lane() + delta;                                         \
        T a = FROM(urc_shuffle##W(TO(cur), i));                                                    \
        T b = FROM(urc_shuffle##W(TO(next), i - n));                                               \
        return i < n ? a : b;                                                                      \
    }                                                                                              \
    URC_FN(T, urc_shuffle_up_##M, "_Z26intel_sub_group_shuffle_up" #M #M "j", T prev, T cur,       \
           uint delta) {                                                                           \
        uint n = urc_sg_size(), lane = urc_sg_lane();                                              \
        T a = FROM(urc_shuffle##W(TO(cur), lane - delta));                                         \
        T b = FROM(urc_shuffle##W(TO(prev), lane + n - delta));                                    \
        return lane >= delta ? a : b;                                                              \
    }                                                                                              \
    URC_FN(T, urc_broadcast_##M, "_Z19sub_group_broadcast" #M "j", T x, uint lane) {               \
        return FROM(urc_shuffle##W(TO(x), lane));                                                  \
    }

#define URC_AS_BITS32(x)   ((uint)(x))
#define URC_CHAR_BITS(x)   ((char)(x))
#define URC_UCHAR_BITS(x)  ((uchar)(x))
#define URC_SHORT_BITS(x)  ((short)(x))
#define URC_USHORT_BITS(x) ((ushort)(x))
#define URC_INT_BITS(x)    ((int)(x))
#define URC_LONG_BITS(x)   ((long)(x))
#define URC_ULONG_BITS(x)  ((ulong)(x))
#define URC_IDENT(x)       (x)
// From a shuffle's or the scratch array's bits back to a 32-bit type.
#define URC_I32(x) as_int((uint)(x))
#define URC_F32(x) as_float((uint)(x))

URC_SHUFFLES(char, c, 32, URC_AS_BITS32, URC_CHAR_BITS)
URC_SHUFFLES(uchar, h, 32, URC_AS_BITS32, URC_UCHAR_BITS)
URC_SHUFFLES(short, s, 32, URC_AS_BITS32, URC_SHORT_BITS)
URC_SHUFFLES(ushort, t, 32, URC_AS_BITS32, URC_USHORT_BITS)
URC_SHUFFLES(int, i, 32, as_uint, as_int)
URC_SHUFFLES(uint, j, 32, URC_IDENT, URC_IDENT)
URC_SHUFFLES(float, f, 32, as_uint, as_float)
URC_SHUFFLES(long, l, 64, as_ulong, as_long)
URC_SHUFFLES(ulong, m, 64, URC_IDENT, URC_IDENT)
URC_SHUFFLES(double, d, 64, as_ulong, as_double)

// ---- votes ----

URC_FN(int, urc_sub_group_all, "_Z13sub_group_alli", int p) {
    return __nvvm_vote_all_sync(urc_sg_mask(), p != 0);
}
URC_FN(int, urc_sub_group_any, "_Z13sub_group_anyi", int p) {
    return __nvvm_vote_any_sync(urc_sg_mask(), p != 0);
}
URC_FN(uint4, urc_sub_group_ballot, "_Z16sub_group_balloti", int p) {
    return (uint4)(__nvvm_vote_ballot_sync(urc_sg_mask(), p != 0), 0, 0, 0);
}
URC_FN(int, urc_work_group_all, "_Z14work_group_alli", int p) {
    return __nvvm_bar0_and(p != 0);
}
URC_FN(int, urc_work_group_any, "_Z14work_group_anyi", int p) {
    return __nvvm_bar0_or(p != 0);
}

// ---- sub-group and work-group reductions and scans ----

// Work-group collectives exchange one value per sub-group through this shared array (half.ll
// never needs it: its collectives run in float).
local ulong *urc_wg_scratch(void);

#define URC_ADD(a, b)  ((a) + (b))
#define URC_MUL(a, b)  ((a) * (b))
#define URC_AND(a, b)  ((a) & (b))
#define URC_OR(a, b)   ((a) | (b))
#define URC_XOR(a, b)  ((a) ^ (b))
#define URC_LAND(a, b) ((a) && (b))
#define URC_LOR(a, b)  ((a) || (b))
#define URC_LXOR(a, b) (!(a) != !(b))
#define URC_MIN(a, b)  ((b) < (a) ? (b) : (a))
#define URC_MAX(a, b)  ((b) > (a) ? (b) : (a))
// llvm.minnum / llvm.maxnum: fmin and fmax without a call into libclc.
#define URC_FMINF(a, b) __builtin_fminf(a, b)
#define URC_FMAXF(a, b) __builtin_fmaxf(a, b)
#define URC_FMIND(a, b) __builtin_fmin(a, b)
#define URC_FMAXD(a, b) __builtin_fmax(a, b)

// URC_COLLECTIVES(type, mangled, op name, combine, identity, bit width, to bits, from bits,
// the lengths of the four name shapes: sub_group_reduce_OP, sub_group_scan_*_OP,
// work_group_reduce_OP, work_group_scan_*_OP)
#define URC_COLLECTIVES(T, M, OP, F, ID, W, TO, FROM, LSR, LSS, LWR, LWS)                          \
    static inline T urc_sg_iscan_##OP##_##M(T x) {                                                 \
        uint lane = urc_sg_lane();                                                                 \
        for (uint d = 1; d < 32; d <<= 1) {                                                        \
            T y = FROM(urc_shuffle##W(TO(x), lane >= d ? lane - d : lane));                        \
            if (lane >= d)                                                                         \
                x = F(y, x);                                                                       \
        }                                                                                          \
        return x;                                                                                  \
    }                                                                                              \
    static inline T urc_sg_reduce_##OP##_##M(T x) {                                                \
        T all = urc_sg_iscan_##OP##_##M(x);                                                        \
        return FROM(urc_shuffle##W(TO(all), urc_sg_size() - 1));                                   \
    }                                                                                              \
    static inline T urc_sg_escan_##OP##_##M(T x) {                                                 \
        uint lane = urc_sg_lane();                                                                 \
        T in = urc_sg_iscan_##OP##_##M(x);                                                         \
        T prev = FROM(urc_shuffle##W(TO(in), lane ? lane - 1 : 0));                                \
        return lane ? prev : (T)(ID);                                                              \
    }                                                                                              \
    URC_FN(T, urc_sub_group_reduce_##OP##_##M, "_Z" #LSR "sub_group_reduce_" #OP #M, T x) {        \
        return urc_sg_reduce_##OP##_##M(x);                                                        \
    }                                                                                              \
    URC_FN(T, urc_sub_group_iscan_##OP##_##M, "_Z" #LSS "sub_group_scan_inclusive_" #OP #M, T x) { \
        return urc_sg_iscan_##OP##_##M(x);                                                         \
    }                                                                                              \
    URC_FN(T, urc_sub_group_escan_##OP##_##M, "_Z" #LSS "sub_group_scan_exclusive_" #OP #M, T x) { \
        return urc_sg_escan_##OP##_##M(x);                                                         \
    }                                                                                              \
    /* The leading barrier keeps a previous collective's readers ahead of these writes. */         \
    URC_FN(T, urc_work_group_reduce_##OP##_##M, "_Z" #LWR "work_group_reduce_" #OP #M, T x) {      \
        local ulong *s = urc_wg_scratch();                                                         \
        T part = urc_sg_reduce_##OP##_##M(x);                                                      \
        uint n = (urc_wg_size() + 31) >> 5;                                                        \
        __nvvm_bar_sync(0);                                                                        \
        if (urc_sg_lane() == 0)                                                                    \
            s[urc_local_linear_id() >> 5] = (ulong)TO(part);                                       \
        __nvvm_bar_sync(0);                                                                        \
        T r = FROM(s[0]);                                                                          \
        for (uint i = 1; i < n; i++)                                                               \
            r = F(r, FROM(s[i]));                                                                  \
        return r;                                                                                  \
    }                                                                                              \
    static inline T urc_wg_prefix_##OP##_##M(T part) {                                             \
        local ulong *s = urc_wg_scratch();                                                         \
        uint sg = urc_local_linear_id() >> 5;                                                      \
        __nvvm_bar_sync(0);                                                                        \
        if (urc_sg_lane() == urc_sg_size() - 1)                                                    \
            s[sg] = (ulong)TO(part);                                                               \
        __nvvm_bar_sync(0);                                                                        \
        T r = (T)(ID);                                                                             \
        for (uint i = 0; i < sg; i++)                                                              \
            r = F(r, FROM(s[i]));                                                                  \
        return r;                                                                                  \
    }                                                                                              \
    URC_FN(T, urc_work_group_iscan_##OP##_##M, "_Z" #LWS "work_group_scan_inclusive_" #OP #M,      \
           T x) {                                                                                  \
        T in = urc_sg_iscan_##OP##_##M(x);                                                         \
        /* Once, outside F: the prefix holds barriers every work-item must reach. */               \
        T pre = urc_wg_prefix_##OP##_##M(in);                                                      \
        return F(pre, in);                                                                         \
    }                                                                                              \
    URC_FN(T, urc_work_group_escan_##OP##_##M, "_Z" #LWS "work_group_scan_exclusive_" #OP #M,      \
           T x) {                                                                                  \
        T in = urc_sg_iscan_##OP##_##M(x);                                                         \
        T ex = urc_sg_escan_##OP##_##M(x);                                                         \
        T pre = urc_wg_prefix_##OP##_##M(in);                                                      \
        return urc_sg_lane() ? F(pre, ex) : pre;                                                   \
    }

// add, mul, min, max for every type; SPV_KHR_uniform_group_instructions adds mul and the
// bitwise and logical operations below.
#define URC_COLLECTIVES_3(T, M, W, TO, FROM, MINV, MAXV, FMINOP, FMAXOP)                           \
    URC_COLLECTIVES(T, M, add, URC_ADD, 0, W, TO, FROM, 20, 28, 21, 29)                            \
    URC_COLLECTIVES(T, M, mul, URC_MUL, 1, W, TO, FROM, 20, 28, 21, 29)                            \
    URC_COLLECTIVES(T, M, min, FMINOP, MAXV, W, TO, FROM, 20, 28, 21, 29)                          \
    URC_COLLECTIVES(T, M, max, FMAXOP, MINV, W, TO, FROM, 20, 28, 21, 29)
#define URC_COLLECTIVES_BITWISE(T, M, W, TO, FROM)                                                 \
    URC_COLLECTIVES(T, M, bitwise_and, URC_AND, ~(T)0, W, TO, FROM, 28, 36, 29, 37)                \
    URC_COLLECTIVES(T, M, bitwise_or, URC_OR, 0, W, TO, FROM, 27, 35, 28, 36)                      \
    URC_COLLECTIVES(T, M, bitwise_xor, URC_XOR, 0, W, TO, FROM, 28, 36, 29, 37)

URC_COLLECTIVES_3(int, i, 32, as_uint, URC_I32, INT_MIN, INT_MAX, URC_MIN, URC_MAX)
URC_COLLECTIVES_3(uint, j, 32, URC_IDENT, URC_AS_BITS32, 0, UINT_MAX, URC_MIN, URC_MAX)
URC_COLLECTIVES_3(long, l, 64, as_ulong, as_long, LONG_MIN, LONG_MAX, URC_MIN, URC_MAX)
URC_COLLECTIVES_3(ulong, m, 64, URC_IDENT, URC_ULONG_BITS, 0, ULONG_MAX, URC_MIN, URC_MAX)
URC_COLLECTIVES_3(float, f, 32, as_uint, URC_F32, -INFINITY, INFINITY, URC_FMINF, URC_FMAXF)
URC_COLLECTIVES_3(double, d, 64, as_ulong, as_double, -INFINITY, INFINITY, URC_FMIND, URC_FMAXD)
URC_COLLECTIVES_BITWISE(int, i, 32, as_uint, URC_I32)
URC_COLLECTIVES_BITWISE(uint, j, 32, URC_IDENT, URC_AS_BITS32)
URC_COLLECTIVES_BITWISE(long, l, 64, as_ulong, as_long)
URC_COLLECTIVES_BITWISE(ulong, m, 64, URC_IDENT, URC_ULONG_BITS)
// The logical operations take and give int truth values (0 or 1).
URC_COLLECTIVES(int, i, logical_and, URC_LAND, 1, 32, as_uint, URC_I32, 28, 36, 29, 37)
URC_COLLECTIVES(int, i, logical_or, URC_LOR, 0, 32, as_uint, URC_I32, 27, 35, 28, 36)
URC_COLLECTIVES(int, i, logical_xor, URC_LXOR, 0, 32, as_uint, URC_I32, 28, 36, 29, 37)

// ---- work-group broadcast: the chosen work-item publishes its value through scratch ----

#define URC_WG_BROADCAST(T, M, TO, FROM)                                                           \
    static inline T urc_wg_broadcast_##M(T x, uint from) {                                         \
        local ulong *s = urc_wg_scratch();                                                         \
        __nvvm_bar_sync(0);                                                                        \
        if (urc_local_linear_id() == from)                                                         \
            s[0] = (ulong)TO(x);                                                                   \
        __nvvm_bar_sync(0);                                                                        \
        return FROM(s[0]);                                                                         \
    }                                                                                              \
    URC_FN(T, urc_work_group_broadcast1_##M, "_Z20work_group_broadcast" #M "m", T x, size_t a) {   \
        return urc_wg_broadcast_##M(x, (uint)a);                                                   \
    }                                                                                              \
    URC_FN(T, urc_work_group_broadcast2_##M, "_Z20work_group_broadcast" #M "mm", T x, size_t a,    \
           size_t b) {                                                                             \
        return urc_wg_broadcast_##M(x, (uint)(a + b * __nvvm_read_ptx_sreg_ntid_x()));             \
    }                                                                                              \
    URC_FN(T, urc_work_group_broadcast3_##M, "_Z20work_group_broadcast" #M "mmm", T x, size_t a,   \
           size_t b, size_t c) {                                                                   \
        return urc_wg_broadcast_##M(x, (uint)(a + __nvvm_read_ptx_sreg_ntid_x() *                  \
                                                      (b + c * __nvvm_read_ptx_sreg_ntid_y())));   \
    }

URC_WG_BROADCAST(int, i, as_uint, URC_I32)
URC_WG_BROADCAST(uint, j, URC_IDENT, URC_AS_BITS32)
URC_WG_BROADCAST(long, l, as_ulong, as_long)
URC_WG_BROADCAST(ulong, m, URC_IDENT, URC_ULONG_BITS)
URC_WG_BROADCAST(float, f, as_uint, URC_F32)
URC_WG_BROADCAST(double, d, as_ulong, as_double)

// ---- C11 atomics through generic pointers ----
// The PTX model's fence.sc (membar) around a relaxed atom at the operation's scope gives every
// OpenCL order: release and stronger fence before, acquire and stronger after.

static inline void urc_fence_before(int order, int scope) {
    if (order == URC_ORDER_RELEASE || order == URC_ORDER_ACQ_REL || order == URC_ORDER_SEQ_CST)
        urc_fence(scope);
}
static inline void urc_fence_after(int order, int scope) {
    if (order == URC_ORDER_ACQUIRE || order == URC_ORDER_ACQ_REL || order == URC_ORDER_SEQ_CST)
        urc_fence(scope);
}
static inline int urc_is_cta(int scope) {
    return scope <= URC_SCOPE_WORK_GROUP || scope == 4;
}

// An atom at the scope: .cta up to the work-group, the default .gpu, .sys beyond the device.
#define URC_ATOM(NAME, SFX, p, ...)                                                                \
    (urc_is_cta(scope)        ? __nvvm_atom_cta_##NAME##_gen_##SFX(p, __VA_ARGS__)                 \
     : scope == URC_SCOPE_ALL ? __nvvm_atom_sys_##NAME##_gen_##SFX(p, __VA_ARGS__)                 \
                              : __nvvm_atom_##NAME##_gen_##SFX(p, __VA_ARGS__))

#define URC_ATOMIC_NAME(op, n, M) "_Z" #n "atomic_" #op "_explicitPU3AS4VU7_Atomic" #M

#define URC_ATOMIC_RMW(T, M, op, n, NAME, SFX, AT)                                                 \
    URC_FN(T, urc_atomic_##op##_##M,                                                               \
           URC_ATOMIC_NAME(fetch_##op, n, M) #M "12memory_order12memory_scope",                    \
           volatile generic void *p, T v, int order, int scope) {                                  \
        urc_fence_before(order, scope);                                                            \
        T r = (T)URC_ATOM(NAME, SFX, (volatile generic AT *)p, (AT)v);                             \
        urc_fence_after(order, scope);                                                             \
        return r;                                                                                  \
    }

#define URC_ATOMIC_INT(T, M, SFX, AT)                                                              \
    URC_ATOMIC_RMW(T, M, add, 25, add, SFX, AT)                                                    \
    URC_ATOMIC_RMW(T, M, and, 25, and, SFX, AT)                                                    \
    URC_ATOMIC_RMW(T, M, or, 24, or, SFX, AT)                                                      \
    URC_ATOMIC_RMW(T, M, xor, 25, xor, SFX, AT)                                                    \
    URC_FN(T, urc_atomic_sub_##M,                                                                  \
           URC_ATOMIC_NAME(fetch_sub, 25, M) #M "12memory_order12memory_scope",                    \
           volatile generic void *p, T v, int order, int scope) {                                  \
        urc_fence_before(order, scope);                                                            \
        T r = (T)URC_ATOM(add, SFX, (volatile generic AT *)p, (AT)(-v));                           \
        urc_fence_after(order, scope);                                                             \
        return r;                                                                                  \
    }                                                                                              \
    URC_FN(T, urc_atomic_xchg_##M,                                                                 \
           URC_ATOMIC_NAME(exchange, 24, M) #M "12memory_order12memory_scope",                     \
           volatile generic void *p, T v, int order, int scope) {                                  \
        urc_fence_before(order, scope);                                                            \
        T r = (T)URC_ATOM(xchg, SFX, (volatile generic AT *)p, (AT)v);                             \
        urc_fence_after(order, scope);                                                             \
        return r;                                                                                  \
    }                                                                                              \
    URC_FN(T, urc_atomic_load_##M, URC_ATOMIC_NAME(load, 20, M) "12memory_order12memory_scope",    \
           volatile generic void *p, int order, int scope) {                                       \
        if (order == URC_ORDER_SEQ_CST)                                                            \
            urc_fence(scope);                                                                      \
        T r = *(volatile generic T *)p;                                                            \
        urc_fence_after(order, scope);                                                             \
        return r;                                                                                  \
    }                                                                                              \
    URC_FN(void, urc_atomic_store_##M,                                                             \
           URC_ATOMIC_NAME(store, 21, M) #M "12memory_order12memory_scope",                        \
           volatile generic void *p, T v, int order, int scope) {                                  \
        urc_fence_before(order, scope);                                                            \
        *(volatile generic T *)p = v;                                                              \
        if (order == URC_ORDER_SEQ_CST)                                                            \
            urc_fence(scope);                                                                      \
    }                                                                                              \
    URC_FN(bool, urc_atomic_cas_##M,                                                               \
           URC_ATOMIC_NAME(compare_exchange_strong, 39, M) "PU3AS4" #M #M                          \
                                                           "12memory_orderS4_12memory_scope",      \
           volatile generic void *p, generic T *expected, T desired, int success, int failure,     \
           int scope) {                                                                            \
        T want = *expected;                                                                        \
        urc_fence_before(success, scope);                                                          \
        T old = (T)URC_ATOM(cas, SFX, (volatile generic AT *)p, (AT)want, (AT)desired);            \
        if (old == want) {                                                                         \
            urc_fence_after(success, scope);                                                       \
            return true;                                                                           \
        }                                                                                          \
        urc_fence_after(failure, scope);                                                           \
        *expected = old;                                                                           \
        return false;                                                                              \
    }

URC_ATOMIC_INT(int, i, i, int)
URC_ATOMIC_INT(long, l, l, long)
URC_ATOMIC_RMW(int, i, min, 25, min, i, int)
URC_ATOMIC_RMW(int, i, max, 25, max, i, int)
URC_ATOMIC_RMW(uint, j, min, 25, min, ui, uint)
URC_ATOMIC_RMW(uint, j, max, 25, max, ui, uint)
URC_ATOMIC_RMW(long, l, min, 25, min, l, long)
URC_ATOMIC_RMW(long, l, max, 25, max, l, long)
URC_ATOMIC_RMW(ulong, m, min, 25, min, ul, ulong)
URC_ATOMIC_RMW(ulong, m, max, 25, max, ul, ulong)

// Floating point: add is native; min and max loop on compare-and-swap of the bits.
#define URC_ATOMIC_FP(T, M, IT, SFX, ISFX, TOI, FROMI, FMIN, FMAX)                                 \
    URC_ATOMIC_RMW(T, M, add, 25, add, SFX, T)                                                     \
    URC_FN(T, urc_atomic_sub_##M,                                                                  \
           URC_ATOMIC_NAME(fetch_sub, 25, M) #M "12memory_order12memory_scope",                    \
           volatile generic void *p, T v, int order, int scope) {                                  \
        urc_fence_before(order, scope);                                                            \
        T r = URC_ATOM(add, SFX, (volatile generic T *)p, -v);                                     \
        urc_fence_after(order, scope);                                                             \
        return r;                                                                                  \
    }                                                                                              \
    static inline T urc_atomic_fminmax_##M(volatile generic void *p, T v, int is_max, int order,   \
                                           int scope) {                                            \
        volatile generic IT *q = (volatile generic IT *)p;                                         \
        urc_fence_before(order, scope);                                                            \
        IT old = *q;                                                                               \
        for (;;) {                                                                                 \
            T cur = FROMI(old);                                                                    \
            T want = is_max ? FMAX(cur, v) : FMIN(cur, v);                                         \
            IT seen = URC_ATOM(cas, ISFX, q, old, TOI(want));                                      \
            if (seen == old)                                                                       \
                break;                                                                             \
            old = seen;                                                                            \
        }                                                                                          \
        urc_fence_after(order, scope);                                                             \
        return FROMI(old);                                                                         \
    }                                                                                              \
    URC_FN(T, urc_atomic_min_##M,                                                                  \
           URC_ATOMIC_NAME(fetch_min, 25, M) #M "12memory_order12memory_scope",                    \
           volatile generic void *p, T v, int order, int scope) {                                  \
        return urc_atomic_fminmax_##M(p, v, 0, order, scope);                                      \
    }                                                                                              \
    URC_FN(T, urc_atomic_max_##M,                                                                  \
           URC_ATOMIC_NAME(fetch_max, 25, M) #M "12memory_order12memory_scope",                    \
           volatile generic void *p, T v, int order, int scope) {                                  \
        return urc_atomic_fminmax_##M(p, v, 1, order, scope);                                      \
    }                                                                                              \
    URC_FN(T, urc_atomic_xchg_##M,                                                                 \
           URC_ATOMIC_NAME(exchange, 24, M) #M "12memory_order12memory_scope",                     \
           volatile generic void *p, T v, int order, int scope) {                                  \
        urc_fence_before(order, scope);                                                            \
        T r = FROMI(URC_ATOM(xchg, ISFX, (volatile generic IT *)p, TOI(v)));                       \
        urc_fence_after(order, scope);                                                             \
        return r;                                                                                  \
    }                                                                                              \
    URC_FN(T, urc_atomic_load_##M, URC_ATOMIC_NAME(load, 20, M) "12memory_order12memory_scope",    \
           volatile generic void *p, int order, int scope) {                                       \
        if (order == URC_ORDER_SEQ_CST)                                                            \
            urc_fence(scope);                                                                      \
        T r = *(volatile generic T *)p;                                                            \
        urc_fence_after(order, scope);                                                             \
        return r;                                                                                  \
    }                                                                                              \
    URC_FN(void, urc_atomic_store_##M,                                                             \
           URC_ATOMIC_NAME(store, 21, M) #M "12memory_order12memory_scope",                        \
           volatile generic void *p, T v, int order, int scope) {                                  \
        urc_fence_before(order, scope);                                                            \
        *(volatile generic T *)p = v;                                                              \
        if (order == URC_ORDER_SEQ_CST)                                                            \
            urc_fence(scope);                                                                      \
    }

URC_ATOMIC_FP(float, f, int, f, i, as_int, as_float, URC_FMINF, URC_FMAXF)
URC_ATOMIC_FP(double, d, long, d, l, as_long, as_double, URC_FMIND, URC_FMAXD)

// ---- integers: mad_hi, which libclc 15 lacks ----

#define URC_MAD_HI(T, M)                                                                           \
    URC_FN(T, urc_mad_hi_##M, "_Z6mad_hi" #M #M #M, T a, T b, T c) {                               \
        return mul_hi(a, b) + c;                                                                   \
    }
URC_MAD_HI(char, c)
URC_MAD_HI(uchar, h)
URC_MAD_HI(short, s)
URC_MAD_HI(ushort, t)
URC_MAD_HI(int, i)
URC_MAD_HI(uint, j)
URC_MAD_HI(long, l)
URC_MAD_HI(ulong, m)

// ---- pointer arguments in SPIR's spaces ----
// libclc spells a generic pointer as NVPTX's space 0 (P) and a constant one as AS4, where the
// translator writes PU3AS4 and PU3AS2; libclc's own AS4 overloads read constant memory, so a
// generic pointer must never reach them. SPIR's constant space is read as global memory on
// NVPTX (the translator maps it so), so its PU3AS2 overloads take global pointers. These
// forward to the overloads that fit.

#define URC_VLOAD(T, M, N, LEN)                                                                    \
    URC_FN(T##N, urc_vload##N##_generic_##M, "_Z" #LEN "vload" #N "mPU3AS4K" #M, size_t i,         \
           const generic T *p) {                                                                   \
        return vload##N(i, p);                                                                     \
    }                                                                                              \
    URC_FN(T##N, urc_vload##N##_constant_##M, "_Z" #LEN "vload" #N "mPU3AS2K" #M, size_t i,        \
           const global T *p) {                                                                    \
        return vload##N(i, p);                                                                     \
    }
#define URC_VSTORE(T, M, N, LEN)                                                                   \
    URC_FN(void, urc_vstore##N##_generic_##M, "_Z" #LEN "vstore" #N "Dv" #N "_" #M "mPU3AS4" #M,   \
           T##N v, size_t i, generic T *p) {                                                       \
        vstore##N(v, i, p);                                                                        \
    }
#define URC_VLOADS(T, M)                                                                           \
    URC_VLOAD(T, M, 2, 6)                                                                          \
    URC_VLOAD(T, M, 3, 6)                                                                          \
    URC_VLOAD(T, M, 4, 6)                                                                          \
    URC_VLOAD(T, M, 8, 6)                                                                          \
    URC_VLOAD(T, M, 16, 7)                                                                         \
    URC_VSTORE(T, M, 2, 7)                                                                         \
    URC_VSTORE(T, M, 3, 7)                                                                         \
    URC_VSTORE(T, M, 4, 7)                                                                         \
    URC_VSTORE(T, M, 8, 7)                                                                         \
    URC_VSTORE(T, M, 16, 8)
URC_VLOADS(char, c)
URC_VLOADS(uchar, h)
URC_VLOADS(short, s)
URC_VLOADS(ushort, t)
URC_VLOADS(int, i)
URC_VLOADS(uint, j)
URC_VLOADS(long, l)
URC_VLOADS(ulong, m)
URC_VLOADS(float, f)
URC_VLOADS(double, d)

// Math with a second result through a generic pointer: scalar and vector float and double.
#define URC_PTR_MATH(T, M, IT, IM)                                                                 \
    URC_FN(T, urc_modf_##M, "_Z4modf" #M "PU3AS4" #M, T x, generic T *p) {                         \
        return modf(x, p);                                                                         \
    }                                                                                              \
    URC_FN(T, urc_fract_##M, "_Z5fract" #M "PU3AS4" #M, T x, generic T *p) {                       \
        return fract(x, p);                                                                        \
    }                                                                                              \
    URC_FN(T, urc_sincos_##M, "_Z6sincos" #M "PU3AS4" #M, T x, generic T *p) {                     \
        return sincos(x, p);                                                                       \
    }                                                                                              \
    URC_FN(T, urc_frexp_##M, "_Z5frexp" #M "PU3AS4" #IM, T x, generic IT *p) {                     \
        return frexp(x, p);                                                                        \
    }                                                                                              \
    URC_FN(T, urc_lgamma_r_##M, "_Z8lgamma_r" #M "PU3AS4" #IM, T x, generic IT *p) {               \
        return lgamma_r(x, p);                                                                     \
    }                                                                                              \
    URC_FN(T, urc_remquo_##M, "_Z6remquo" #M #M "PU3AS4" #IM, T x, T y, generic IT *p) {           \
        return remquo(x, y, p);                                                                    \
    }
URC_PTR_MATH(float, f, int, i)
URC_PTR_MATH(double, d, int, i)

#define URC_PTR_MATH_V(T, M, N)                                                                    \
    URC_FN(T##N, urc_modf_##M##N, "_Z4modfDv" #N "_" #M "PU3AS4S_", T##N x, generic T##N *p) {     \
        return modf(x, p);                                                                         \
    }                                                                                              \
    URC_FN(T##N, urc_fract_##M##N, "_Z5fractDv" #N "_" #M "PU3AS4S_", T##N x, generic T##N *p) {   \
        return fract(x, p);                                                                        \
    }                                                                                              \
    URC_FN(T##N, urc_sincos_##M##N, "_Z6sincosDv" #N "_" #M "PU3AS4S_", T##N x, generic T##N *p) { \
        return sincos(x, p);                                                                       \
    }                                                                                              \
    URC_FN(T##N, urc_frexp_##M##N, "_Z5frexpDv" #N "_" #M "PU3AS4Dv" #N "_i", T##N x,              \
           generic int##N *p) {                                                                    \
        return frexp(x, p);                                                                        \
    }                                                                                              \
    URC_FN(T##N, urc_lgamma_r_##M##N, "_Z8lgamma_rDv" #N "_" #M "PU3AS4Dv" #N "_i", T##N x,        \
           generic int##N *p) {                                                                    \
        return lgamma_r(x, p);                                                                     \
    }                                                                                              \
    URC_FN(T##N, urc_remquo_##M##N, "_Z6remquoDv" #N "_" #M "S_PU3AS4Dv" #N "_i", T##N x, T##N y,  \
           generic int##N *p) {                                                                    \
        return remquo(x, y, p);                                                                    \
    }
#define URC_PTR_MATH_VECTORS(T, M)                                                                 \
    URC_PTR_MATH_V(T, M, 2)                                                                        \
    URC_PTR_MATH_V(T, M, 3)                                                                        \
    URC_PTR_MATH_V(T, M, 4)                                                                        \
    URC_PTR_MATH_V(T, M, 8)                                                                        \
    URC_PTR_MATH_V(T, M, 16)
URC_PTR_MATH_VECTORS(float, f)
URC_PTR_MATH_VECTORS(double, d)

// ---- native_* for float ----
// libclc 15 writes these with llvm.exp/log/sin/cos intrinsics, which the NVPTX back end of
// LLVM 15 turns into calls of expf, logf... that nothing defines. PTX's approximate
// instructions are what native_ means; these definitions are strong and win over libclc's
// linkonce_odr ones.

static inline float urc_native_exp2(float x) {
    return __nvvm_ex2_approx_f(x);
}
static inline float urc_native_log2(float x) {
    return __nvvm_lg2_approx_f(x);
}
static inline float urc_native_exp(float x) {
    return __nvvm_ex2_approx_f(x * M_LOG2E_F);
}
static inline float urc_native_exp10(float x) {
    return __nvvm_ex2_approx_f(x * 0x1.a934f0p+1f);
}
static inline float urc_native_log(float x) {
    return __nvvm_lg2_approx_f(x) * M_LN2_F;
}
static inline float urc_native_log10(float x) {
    return __nvvm_lg2_approx_f(x) * 0x1.344136p-2f;
}
static inline float urc_native_sin(float x) {
    return __nvvm_sin_approx_f(x);
}
static inline float urc_native_cos(float x) {
    return __nvvm_cos_approx_f(x);
}
static inline float urc_native_tan(float x) {
    return __nvvm_sin_approx_f(x) / __nvvm_cos_approx_f(x);
}
static inline float urc_native_powr(float x, float y) {
    return __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x));
}

// Vectors split in halves down to scalars.
#define URC_NATIVE1(NAME, LEN)                                                                     \
    URC_FN(float, urc_##NAME##_1, "_Z" #LEN #NAME "f", float x) {                                  \
        return urc_##NAME(x);                                                                      \
    }                                                                                              \
    URC_FN(float2, urc_##NAME##_2, "_Z" #LEN #NAME "Dv2_f", float2 x) {                            \
        return (float2)(urc_##NAME(x.s0), urc_##NAME(x.s1));                                       \
    }                                                                                              \
    URC_FN(float3, urc_##NAME##_3, "_Z" #LEN #NAME "Dv3_f", float3 x) {                            \
        return (float3)(urc_##NAME##_2(x.s01), urc_##NAME(x.s2));                                  \
    }                                                                                              \
    URC_FN(float4, urc_##NAME##_4, "_Z" #LEN #NAME "Dv4_f", float4 x) {                            \
        return (float4)(urc_##NAME##_2(x.lo), urc_##NAME##_2(x.hi));                               \
    }                                                                                              \
    URC_FN(float8, urc_##NAME##_8, "_Z" #LEN #NAME "Dv8_f", float8 x) {                            \
        return (float8)(urc_##NAME##_4(x.lo), urc_##NAME##_4(x.hi));                               \
    }                                                                                              \
    URC_FN(float16, urc_##NAME##_16, "_Z" #LEN #NAME "Dv16_f", float16 x) {                        \
        return (float16)(urc_##NAME##_8(x.lo), urc_##NAME##_8(x.hi));                              \
    }
URC_NATIVE1(native_exp, 10)
URC_NATIVE1(native_exp2, 11)
URC_NATIVE1(native_exp10, 12)
URC_NATIVE1(native_log, 10)
URC_NATIVE1(native_log2, 11)
URC_NATIVE1(native_log10, 12)
URC_NATIVE1(native_sin, 10)
URC_NATIVE1(native_cos, 10)
URC_NATIVE1(native_tan, 10)

URC_FN(float, urc_native_powr_1, "_Z11native_powrff", float x, float y) {
    return urc_native_powr(x, y);
}
URC_FN(float2, urc_native_powr_2, "_Z11native_powrDv2_fS_", float2 x, float2 y) {
    return (float2)(urc_native_powr(x.s0, y.s0), urc_native_powr(x.s1, y.s1));
}
URC_FN(float3, urc_native_powr_3, "_Z11native_powrDv3_fS_", float3 x, float3 y) {
    return (float3)(urc_native_powr_2(x.s01, y.s01), urc_native_powr(x.s2, y.s2));
}
URC_FN(float4, urc_native_powr_4, "_Z11native_powrDv4_fS_", float4 x, float4 y) {
    return (float4)(urc_native_powr_2(x.lo, y.lo), urc_native_powr_2(x.hi, y.hi));
}
URC_FN(float8, urc_native_powr_8, "_Z11native_powrDv8_fS_", float8 x, float8 y) {
    return (float8)(urc_native_powr_4(x.lo, y.lo), urc_native_powr_4(x.hi, y.hi));
}
URC_FN(float16, urc_native_powr_16, "_Z11native_powrDv16_fS_", float16 x, float16 y) {
    return (float16)(urc_native_powr_8(x.lo, y.lo), urc_native_powr_8(x.hi, y.hi));
}
