// SPDX-License-Identifier: MIT
// Compile-only: every C11 atomic builtin on every type through generic pointers.

#define RMW(T, op)                                                                                 \
    r[i++] = atomic_fetch_##op##_explicit(a, v[0], memory_order_relaxed, memory_scope_device);

#define COMMON(T)                                                                                  \
    volatile generic atomic_##T *a = (volatile generic atomic_##T *)(p + x);                       \
    int i = 0;                                                                                     \
    RMW(T, add)                                                                                    \
    RMW(T, sub)                                                                                    \
    RMW(T, min)                                                                                    \
    RMW(T, max)                                                                                    \
    r[i++] = atomic_load_explicit(a, memory_order_acquire, memory_scope_work_group);               \
    atomic_store_explicit(a, v[1], memory_order_release, memory_scope_all_svm_devices);            \
    r[i++] = atomic_exchange_explicit(a, v[2], memory_order_seq_cst, memory_scope_device);

#define INTEGER(T)                                                                                 \
    kernel void atomics_##T(global T *p, global T *r, global T *v, int x) {                        \
        COMMON(T)                                                                                  \
        RMW(T, and)                                                                                \
        RMW(T, or)                                                                                 \
        RMW(T, xor)                                                                                \
        T e = v[3];                                                                                \
        r[i++] = atomic_compare_exchange_strong_explicit(                                          \
            a, &e, v[4], memory_order_acq_rel, memory_order_acquire, memory_scope_device);         \
        r[i++] = atomic_compare_exchange_weak_explicit(a, &e, v[4], memory_order_seq_cst,          \
                                                       memory_order_relaxed, memory_scope_device); \
        r[i++] = e;                                                                                \
    }

#define FLOATING(T)                                                                                \
    kernel void atomics_##T(global T *p, global T *r, global T *v, int x) {                        \
        COMMON(T)                                                                                  \
    }

INTEGER(int)
INTEGER(uint)
INTEGER(long)
INTEGER(ulong)
FLOATING(float)
FLOATING(double)

kernel void fences(global int *p) {
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_device);
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_seq_cst, memory_scope_work_group);
    p[0] = 1;
}
