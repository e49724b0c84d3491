// SPDX-License-Identifier: MIT
// Compile-only: calls every sub-group and work-group builtin urc's library provides, for every
// type, so that the chain test sees each symbol the translator emits resolved.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define COLLECTIVE(T, op)                                                                          \
    o[i++] = work_group_reduce_##op(in[0]);                                                        \
    o[i++] = work_group_scan_inclusive_##op(in[1]);                                                \
    o[i++] = work_group_scan_exclusive_##op(in[2]);                                                \
    o[i++] = sub_group_reduce_##op(in[3]);                                                         \
    o[i++] = sub_group_scan_inclusive_##op(in[4]);                                                 \
    o[i++] = sub_group_scan_exclusive_##op(in[5]);

#define GROUPS(T)                                                                                  \
    kernel void groups_##T(global T *in, global T *o, ulong a) {                                   \
        int i = 0;                                                                                 \
        COLLECTIVE(T, add)                                                                         \
        COLLECTIVE(T, min)                                                                         \
        COLLECTIVE(T, max)                                                                         \
        o[i++] = work_group_broadcast(in[6], a);                                                   \
        o[i++] = work_group_broadcast(in[7], a, a);                                                \
        o[i++] = work_group_broadcast(in[8], a, a, a);                                             \
        o[i++] = sub_group_broadcast(in[9], (uint)a);                                              \
    }

GROUPS(int)
GROUPS(uint)
GROUPS(long)
GROUPS(ulong)
GROUPS(float)
GROUPS(double)
GROUPS(half)

#define SHUFFLES(T)                                                                                \
    kernel void shuffles_##T(global T *in, global T *o, uint a) {                                  \
        o[0] = intel_sub_group_shuffle(in[0], a);                                                  \
        o[1] = intel_sub_group_shuffle_xor(in[1], a);                                              \
        o[2] = intel_sub_group_shuffle_down(in[2], in[3], a);                                      \
        o[3] = intel_sub_group_shuffle_up(in[4], in[5], a);                                        \
    }

SHUFFLES(char)
SHUFFLES(uchar)
SHUFFLES(short)
SHUFFLES(ushort)
SHUFFLES(int)
SHUFFLES(uint)
SHUFFLES(long)
SHUFFLES(ulong)
SHUFFLES(float)
SHUFFLES(double)
SHUFFLES(half)

kernel void group_queries(global uint *o, global int *p) {
    o[0] = get_sub_group_size() + get_max_sub_group_size() + get_sub_group_local_id() +
           get_sub_group_id() + get_num_sub_groups() + get_enqueued_num_sub_groups();
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device);
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_sub_group);
    uint4 b = sub_group_ballot(p[0]);
    o[1] = b.x + b.y;
    o[2] = sub_group_all(p[1]) + sub_group_any(p[2]) + work_group_all(p[3]) + work_group_any(p[4]);
}
