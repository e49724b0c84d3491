// SPDX-License-Identifier: MIT
// SYCL's device assert as SPIR-V carries it: a call of __devicelib_assert_fail, which the
// translation to PTX turns into CUDA's __assertfail (docs/spirv.md).
extern void __devicelib_assert_fail(constant char *expr, constant char *file, int line,
                                    constant char *func, ulong gid0, ulong gid1, ulong gid2,
                                    ulong lid0, ulong lid1, ulong lid2);

kernel void assert_nonzero(global const int *v) {
    size_t i = get_global_id(0);
    if (v[i] == 0)
        __devicelib_assert_fail("v[i] != 0", "spirv_assert.cl", 11, "assert_nonzero", i, 0, 0,
                                get_local_id(0), 0, 0);
}
