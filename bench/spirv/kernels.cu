// SPDX-License-Identifier: MIT
// The CUDA C twins of spirv_suite.cl's vec_add and reduce_sum for bench_spirv_cuda, with the
// CUDA adapter's convention for local arguments (a byte offset into dynamic shared memory).
extern "C" __global__ void vec_add(const float *a, const float *b, float *c) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];
}

extern "C" __global__ void reduce_sum(const float *in, float *partial, size_t tmp_offset) {
    extern __shared__ __align__(128) unsigned char shared_bytes[];
    float *tmp = (float *)(shared_bytes + tmp_offset);
    unsigned l = threadIdx.x, n = blockDim.x;
    tmp[l] = in[blockIdx.x * (size_t)n + l];
    __syncthreads();
    for (unsigned s = n / 2; s > 0; s /= 2) {
        if (l < s)
            tmp[l] += tmp[l + s];
        __syncthreads();
    }
    if (l == 0)
        partial[blockIdx.x] = tmp[0];
}
