// SPDX-License-Identifier: MIT
// Smallest kernel: data[i] += 1. Built as SPIR-V (Intel CPU) and SPIR 1.2 bitcode (PoCL).
kernel void add_one(global int *data) { data[get_global_id(0)] += 1; }
