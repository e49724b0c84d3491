// SPDX-License-Identifier: MIT
// Kernels of the bindless suite that images.cu lacks: a mipmapped texture read at a chosen
// level of detail, and a 3D texture of 8-bit integers read as integers (which needs the
// texture's READ_AS_INTEGER flag: without it CUDA returns normalised floats).

// out[i] = the texture at normalised (u, v) and level of detail lods[i].
extern "C" __global__ void mip_sample(cudaTextureObject_t tex, float u, float v, const float *lods,
                                      float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2DLod<float>(tex, u, v, lods[i]);
}

// out[(z * h + y) * w + x] = element (x, y, z) of a 3D texture of unsigned 8-bit integers,
// read at its centre with unnormalised coordinates.
extern "C" __global__ void fetch3d_uint(cudaTextureObject_t tex, int w, int h, int d,
                                        unsigned *out) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    for (int z = 0; z < d; ++z)
        for (int y = 0; y < h; ++y)
            if (x < w)
                out[(z * h + y) * w + x] =
                    tex3D<unsigned char>(tex, x + 0.5f, y + 0.5f, z + 0.5f);
}
