// SPDX-License-Identifier: MIT
// A 1 MiB device global for bench_device_global; non-static, so llvm-spirv exports it under
// its name and Intel's runtime finds it by that name.
global uint bench_big[262144];
global uint bench_small;

kernel void bench_touch(global uint *out) { out[0] = bench_big[0] + bench_small; }
