// SPDX-License-Identifier: MIT
// Kernels of the command-buffer suites: one with a value argument an update can change, and
// an empty one for launch-overhead benchmarks.
kernel void add_value(global int *data, int value) { data[get_global_id(0)] += value; }
kernel void empty_kernel(void) {}
// The kernel alternative of add_value in update tests.
kernel void sub_value(global int *data, int value) { data[get_global_id(0)] -= value; }
