// SPDX-License-Identifier: MIT
// Device globals and simple kernels for the CUDA adapter's tests (plain CUDA, extern "C" names).

// The variable the UR conformance suite uses: a kernel increments it.
__device__ int dev_var;
// Eight ints, for copies at non-zero offsets.
__device__ int dev_array[8];

extern "C" __global__ void inc_dev_var() {
    dev_var = dev_var + 1;
}

// out[i] = in[i] + 1 for i < n.
extern "C" __global__ void add_one(int *out, const int *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1;
}

// out[i] = value for every work-item: a by-value argument.
extern "C" __global__ void fill_value(int *out, int value) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

// A local-memory argument as SYCL passes it: an offset into the dynamic shared memory. Each
// work-group writes its ids through local memory and reads them back reversed.
extern "C" __global__ void local_reverse(int *out, unsigned long long local_offset) {
    extern __shared__ char smem[];
    int *tile = (int *)(smem + local_offset);
    int t = threadIdx.x;
    tile[t] = blockIdx.x * blockDim.x + t;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = tile[blockDim.x - 1 - t];
}

// dpctl's masked-extraction pattern: a local array of n + 1 elements, and every work-item
// reads the element after its own, past the end for those beyond n (the value is unused).
extern "C" __global__ void local_next(int *out, unsigned long long local_offset, int n) {
    extern __shared__ char smem[];
    int *tile = (int *)(smem + local_offset);
    int t = threadIdx.x;
    if (t <= n)
        tile[t] = t * 10;
    __syncthreads();
    int next = tile[t + 1];
    if (t < n)
        out[t] = next;
}

// DPC++'s pair for a global offset: the plain kernel, and "<name>_with_offset" taking the
// offset by value as the last parameter.
struct offset3 {
    unsigned x, y, z;
};

extern "C" __global__ void global_id(int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = i;
}

extern "C" __global__ void global_id_with_offset(int *out, offset3 offset) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = i + (int)offset.x;
}

// Spins for about `cycles` clock cycles, so a command is still running when the test looks.
extern "C" __global__ void spin(long long cycles) {
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

// A by-value argument larger than the launch's 2 KiB stack frame: out[0] = the sum.
struct big_values {
    int v[750];
};

extern "C" __global__ void big_sum(int *out, big_values values) {
    int sum = 0;
    for (int i = 0; i < 750; ++i)
        sum += values.v[i];
    out[0] = sum;
}

// data[i] += value: what the command-buffer tests replay and update.
extern "C" __global__ void add_value(int *data, int value) {
    data[blockIdx.x * blockDim.x + threadIdx.x] += value;
}
