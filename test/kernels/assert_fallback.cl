// SPDX-License-Identifier: MIT
// Fallback assert: failing work-items fill the host-readable __SYCL_AssertHappenedMem record.
// Build with -cl-std=CL3.0 -Xclang -cl-ext=-__opencl_c_generic_address_space,-__opencl_c_pipes,
// -__opencl_c_device_enqueue so the atomics take global pointers: the Intel CPU runtime cannot
// link generic-pointer atomics from llvm-spirv 14 (_Z14atomic_cmpxchgPU3AS4Viii not found).

// Layout as on the host (x86-64): Flag 0, Expr 4, File 261, Func 518, Line 648, GID0 656 ..
// LID2 696, size 704.
typedef struct {
  int Flag; // 0 free, 1 being written, 2 complete
  char Expr[257];
  char File[257];
  char Func[129];
  int Line;
  ulong GID0, GID1, GID2, LID0, LID1, LID2;
} AssertHappened;

_Static_assert(sizeof(AssertHappened) == 704, "record size");
_Static_assert(__builtin_offsetof(AssertHappened, Func) == 518, "Func offset");
_Static_assert(__builtin_offsetof(AssertHappened, Line) == 648, "Line offset");
_Static_assert(__builtin_offsetof(AssertHappened, GID0) == 656, "GID0 offset");

// Non-static, so llvm-spirv exports it under this name and the host can find it.
global AssertHappened __SYCL_AssertHappenedMem;

#ifdef ASSERT_COUNT_WINNERS
// Tests can check that exactly one work-item wrote the record.
global int assert_winners;
#endif

static void copy_str(global char *dst, const constant char *src, int cap) {
  int i = 0;
  for (; i < cap - 1 && src[i] != 0; i++)
    dst[i] = src[i];
  dst[i] = 0;
}

static void fallback_assert(const constant char *expr, const constant char *file, int line,
                            const constant char *func) {
  volatile global atomic_int *flag = (volatile global atomic_int *)&__SYCL_AssertHappenedMem.Flag;
  int expected = 0;
  // Only the work-item that moves Flag from 0 to 1 writes; the others go on running.
  if (!atomic_compare_exchange_strong_explicit(flag, &expected, 1, memory_order_acq_rel,
                                               memory_order_relaxed, memory_scope_device))
    return;
#ifdef ASSERT_COUNT_WINNERS
  atomic_fetch_add_explicit((volatile global atomic_int *)&assert_winners, 1,
                            memory_order_relaxed, memory_scope_device);
#endif
  copy_str(__SYCL_AssertHappenedMem.Expr, expr, 257);
  copy_str(__SYCL_AssertHappenedMem.File, file, 257);
  copy_str(__SYCL_AssertHappenedMem.Func, func, 129);
  __SYCL_AssertHappenedMem.Line = line;
  __SYCL_AssertHappenedMem.GID0 = get_global_id(0);
  __SYCL_AssertHappenedMem.GID1 = get_global_id(1);
  __SYCL_AssertHappenedMem.GID2 = get_global_id(2);
  __SYCL_AssertHappenedMem.LID0 = get_local_id(0);
  __SYCL_AssertHappenedMem.LID1 = get_local_id(1);
  __SYCL_AssertHappenedMem.LID2 = get_local_id(2);
  // Release: a reader that sees 2 sees the whole record.
  atomic_store_explicit(flag, 2, memory_order_release, memory_scope_device);
}

// Work-items whose value is 0 assert (data[i] != 0).
kernel void assert_kernel(global int *data) {
  if (data[get_global_id(0)] == 0)
    fallback_assert("data[i] != 0", "assert_fallback.cl", __LINE__, __func__);
}
