// SPDX-License-Identifier: MIT
// Device code of bench_cuda: a small and a 1 MiB device global, and a kernel that does nothing
// unless given a pointer (so launch cost is all that is measured), and one taking pointers and
// values the way a typical SYCL kernel does.
__device__ int dev_var;
__device__ char dev_big[1 << 20];

extern "C" __global__ void touch(int *p) {
    if (p != 0)
        *p += 1;
}

extern "C" __global__ void touch4(int *p, int a, long long b, float *q) {
    if (p != 0)
        *p += a + (int)b;
    if (q != 0)
        *q += 1.0f;
}
