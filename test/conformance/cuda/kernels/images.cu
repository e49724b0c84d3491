// SPDX-License-Identifier: MIT
// Kernels of the image suite: an image argument arrives as a surface object and a sampler as
// the 32-bit word of its settings (UR's CUDA convention, which SYCL's device code reads).

// What the kernel received: out[0] the image's surface object, out[1] the sampler word.
extern "C" __global__ void image_args(unsigned long long surf, unsigned sampler,
                                      unsigned long long *out) {
    out[0] = surf;
    out[1] = sampler;
}

// Writes `value` into every element of a 2D RGBA float image through its surface.
extern "C" __global__ void surface_fill(cudaSurfaceObject_t surf, int width, int height,
                                        float4 value) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        surf2Dwrite(value, surf, x * (int)sizeof(float4), y);
}

// out[y * width + x] = the element (x, y) of a 2D RGBA float image, read through its surface.
extern "C" __global__ void surface_read(cudaSurfaceObject_t surf, int width, int height,
                                        float4 *out) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        out[y * width + x] = surf2Dread<float4>(surf, x * (int)sizeof(float4), y);
}

// out[i] = what a texture over an image returns at coords[i] (the GPU's own addressing and
// filtering, which the image suite compares with the host reference sampler).
extern "C" __global__ void texture_sample(cudaTextureObject_t tex, const float2 *coords,
                                          float4 *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float4>(tex, coords[i].x, coords[i].y);
}
