// SPDX-License-Identifier: MIT
// Dummy image D: exports a vf_a with the same signature and no fp64 use; returns -1.
int vf_a(int x) { return x - x - 1; }
