#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs UR's conformance binaries on the CUDA GPU twice, with UR's CUDA adapter and with
# urc's, and prints the tests that pass with UR and not with urc, and the tests that
# urc fails where UR skips (a feature urc claims).
#   run-urcts.sh <unpacked urcts dir> <urc build dir>
# Environment: URCTS_OUT (results folder, default ./urcts-results), URCTS_JOBS (binaries
# run at once per adapter, default 6), URCTS_SERIAL=1 (the two adapters one after the
# other instead of side by side), URCTS_TIMEOUT (seconds per binary run, default 120),
# URCTS_BUDGET (seconds per adapter, default 165); for a dry run on another backend:
# URCTS_SELECTOR (default cuda:*), URCTS_UR_ADAPTER, URCTS_URC_ADAPTER (library paths).
set -u
if [ $# -ne 2 ]; then echo "usage: $0 <unpacked urcts dir> <urc build dir>" >&2; exit 2; fi
pack="$(cd "$1" && pwd)" || exit 2
urc="$(cd "$2" && pwd)" || exit 2
out="${URCTS_OUT:-$PWD/urcts-results}"
mkdir -p "$out"
jobs="${URCTS_JOBS:-6}"; tmo="${URCTS_TIMEOUT:-120}"; budget="${URCTS_BUDGET:-165}"
sel="${URCTS_SELECTOR:-cuda:*}"
ur_adapter="${URCTS_UR_ADAPTER:-$pack/lib/libur_adapter_cuda.so.0}"
urc_adapter="${URCTS_URC_ADAPTER:-$urc/lib/libur_adapter_cuda.so.0}"
[ -f "$urc_adapter" ] || { echo "no $urc_adapter" >&2; exit 2; }
run() { # name adapter
  python3 "$pack/urcts.py" run --bins "$pack/bin" --libs "$pack/lib" --kernels "$pack/kernels" \
    --adapter "$2" --selector "$sel" --out "$out/$1.json" --jobs "$jobs" \
    --timeout "$tmo" --budget "$budget" > "$out/$1.txt" 2>&1
}
# Debian's OpenCL ICD loader and libudev, only for a machine that lacks its own.
mkdir -p "$out/fallback"
for lib in "$pack"/fallback/*; do
  name="$(basename "$lib")"
  ldconfig -p 2>/dev/null | grep -qF "$name " || ln -sf "$lib" "$out/fallback/$name"
done
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$out/fallback"
start=$(date +%s)
if [ "${URCTS_SERIAL:-0}" = 1 ]; then
  run ur "$ur_adapter"; run urc "$urc_adapter"
else
  run ur "$ur_adapter" & run urc "$urc_adapter" & wait
fi
echo "== per binary (UR, then urc), $(( $(date +%s) - start )) s"
paste -d'\n' "$out/ur.txt" "$out/urc.txt" | sed 's/^/  /'
echo "== diff"
python3 "$pack/urcts.py" diff "$out/ur.json" "$out/urc.json"
rc=$?
echo "(crash/hang output: $out/ur.json.log, $out/urc.json.log)"
exit $rc
