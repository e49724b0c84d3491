// SPDX-License-Identifier: MIT
// Reads a 2D image through a sampler at given coordinates (the sampler tests compare with the
// host reference in test/support/urc_image_ref.c), and writes an image through a kernel.
kernel void image_sample(read_only image2d_t img, sampler_t smp, global const float2 *coords,
                         global float4 *out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, smp, coords[i]);
}

kernel void image_fill(write_only image2d_t img, float4 value) {
    write_imagef(img, (int2)((int)get_global_id(0), (int)get_global_id(1)), value);
}
