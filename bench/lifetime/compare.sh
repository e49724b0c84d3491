#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs bench_lifetime against two builds of one adapter, alternating, and prints each
# workload's best ns per pair (the lowest of every run: other load only adds time) for both
# and their ratio (after / before):
#
#   bench/lifetime/compare.sh <bench_lifetime> <adapter-before.so> <adapter-after.so> [rounds]
#
# Extra environment (LD_LIBRARY_PATH for a simulated driver, OpenCL's device selection) is
# passed through.
set -euo pipefail
bench="$1" before="$2" after="$3" rounds="${4:-5}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for ((i = 0; i < rounds; ++i)); do
  UR_ADAPTERS_FORCE_LOAD="$before" "$bench" --runs 5 >>"$out/before"
  UR_ADAPTERS_FORCE_LOAD="$after" "$bench" --runs 5 >>"$out/after"
done
lowest() { sort -g | head -1; }
printf '%-26s %12s %12s %8s\n' workload "before ns" "after ns" ratio
for w in $(awk '$2 != "unsupported" {print $1}' "$out/before" | sort -u); do
  b=$(awk -v w="$w" '$1 == w {print $3}' "$out/before" | lowest)
  a=$(awk -v w="$w" '$1 == w {print $3}' "$out/after" | lowest)
  printf '%-26s %12.1f %12.1f %8.3f\n' "$w" "$b" "$a" "$(awk -v a="$a" -v b="$b" 'BEGIN {print a / b}')"
done
