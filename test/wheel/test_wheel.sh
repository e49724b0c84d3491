#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_wheel.sh <source> <build> <simulated CUDA driver folder> <intel-sycl-rt> <dpctl>
# The wheel end to end (test/wheel/CMakeLists.txt says what it proves). Prints one
# "ok"/"FAIL" line per check and closes with "N passed, N failed".
set -euo pipefail
root="$1" build="$2" sim="$3" sycl_version="$4" dpctl_version="$5"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Everything the test makes (the wheel's own CMake build, the venv, logs) lies in one folder of
# the build tree's test-tmp/ that it removes when it ends (docs/testing.md).
work="$build/test-tmp/wheel.$$"
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1"; failed=$((failed + 1)); }
check() { # check <what> <command...>
  local what="$1"
  shift
  if "$@"; then ok "$what"; else fail "$what"; fi
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}

# Nothing of the caller's may steer libsycl, the adapters or the interposer: the point is
# "no variables".
for v in $(env | sed -n 's/^\(UR_[A-Z_]*\|URC_SYCL_[A-Z_]*\|SYCL_[A-Z_]*\|ONEAPI_[A-Z_]*\|PYTHONPATH\)=.*/\1/p'); do
  unset "$v"
done
unset LD_PRELOAD
export PIP_DISABLE_PIP_VERSION_CHECK=1

rm -rf "$work"
mkdir -p "$work"
URC_WHEEL_BUILD_DIR="$work/build" bash "$root/scripts/build-wheel" "$work/dist" > "$work/build-wheel.log" 2>&1 ||
  { tail -n 40 "$work/build-wheel.log"; fail "scripts/build-wheel"; finish; exit 1; }
whl="$(ls "$work"/dist/urc-*.whl)"
version="$(sed -n 's/^project(urc VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")"
echo "wheel: $(basename "$whl")"
check "wheel named urc-$version-py3-none-manylinux_*" \
  bash -c "[[ '$(basename "$whl")' == urc-$version-py3-none-manylinux_*_x86_64.whl ]]"
list="$work/wheel-files.txt"
python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$whl" > "$list"
for f in "urc-$version.data/data/lib/libur_adapter_cuda.so.0" urc/lib/libur_loader.so.0 \
  urc/lib/libur_loader.so urc/lib/libur_adapter_opencl.so.0 urc/lib/libur_adapter_level_zero.so.0 \
  urc/bin/urinfo urc/include/ur_api.h urc/include/unified-runtime/ur_api.h \
  urc/lib/pkgconfig/libur_loader.pc urc/lib/cmake/urc/urcConfig.cmake urc/__main__.py; do
  check "wheel holds $f" grep -qx "$f" "$list"
done
check "only the CUDA adapter is in the environment's lib/" \
  bash -c "[ \"\$(grep -c '^urc-$version.data/data/lib/libur_adapter' '$list')\" = 1 ]"

venv="$work/venv"
python3 -m venv "$venv"
py="$venv/bin/python"
if ! "$py" -m pip install --quiet "$whl" "intel-sycl-rt==$sycl_version" "dpctl==$dpctl_version" \
  > "$work/pip.log" 2>&1; then
  tail -n 20 "$work/pip.log"
  fail "pip install of the wheel with intel-sycl-rt $sycl_version and dpctl $dpctl_version"
  finish
  exit 1
fi
ok "pip install urc intel-sycl-rt==$sycl_version dpctl==$dpctl_version"
venv_lib="$venv/lib"
check "intel-cmplr-lib-ur's Level Zero adapter is Intel's, not urc's" \
  bash -c "[ -f '$venv_lib/libur_adapter_level_zero.so.0' ] && ! cmp -s '$venv_lib/libur_adapter_level_zero.so.0' '$venv'/lib/python3*/site-packages/urc/lib/libur_adapter_level_zero.so.0"

# SPIR-V on NVIDIA from a pip install: the helper lies outside the package folder, with its LLVM
# and translator libraries and libclc's bitcode beside it (cmake/UrcWheel.cmake).
if grep -qx "urc-$version.data/data/lib/urc/urc-spirv-ptx" "$list"; then
  check "the installed SPIR-V helper starts on the libraries beside it" \
    env -u LD_LIBRARY_PATH "$venv_lib/urc/urc-spirv-ptx" --version
  check "libclc's nvptx bitcode is installed beside the helper" \
    test -s "$venv_lib/urc/nvptx64--nvidiacl.bc"
  check "auditwheel left no copy of the helper's libraries in urc.libs" \
    bash -c "! ls '$venv'/lib/python3*/site-packages/urc.libs/libLLVM* 2>/dev/null"
fi

# dpctl_run <what>: the dpctl checks with the simulated driver first on the library path.
dpctl_run() {
  check "$1" env LD_LIBRARY_PATH="$sim${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$py" "$here/check_dpctl.py" "$venv" "$sim"
}
dpctl_run "dpctl lists the simulated CUDA device through the wheel's adapter (with intel-cmplr-lib-ur)"
check "python -m urc runs urinfo over the wheel's adapters" \
  bash -c "LD_LIBRARY_PATH='$sim' '$py' -m urc > '$work/urc.txt' 2>&1 && grep -q 'libur_adapter_cuda.so.0' '$work/urc.txt' && grep -qi 'cuda' '$work/urc.txt'"
check "python -m urc --check says libsycl loads urc's CUDA adapter" \
  bash -c "LD_LIBRARY_PATH='$sim' '$py' -m urc --check > '$work/check.txt' 2>&1"
check "python -m urc --check says why not when UR_ADAPTERS_FORCE_LOAD leaves it out" \
  bash -c "! UR_ADAPTERS_FORCE_LOAD=/nonexistent/libur_adapter_cuda.so.0 '$py' -m urc --check > '$work/check-no.txt' 2>&1 && grep -q 'UR_ADAPTERS_FORCE_LOAD is set' '$work/check-no.txt'"
mkdir -p "$work/shadow"
cp "$venv_lib/libur_adapter_cuda.so.0" "$work/shadow/"
check "python -m urc --check says why not when UR_ADAPTERS_SEARCH_PATH shadows it" \
  bash -c "! UR_ADAPTERS_SEARCH_PATH='$work/shadow' '$py' -m urc --check > '$work/check-shadow.txt' 2>&1 && grep -q 'shadows' '$work/check-shadow.txt'"
cat "$work/check.txt"
check "urc-sycl preloads the wheel's interposer and names the wheel's CUDA adapter" \
  bash -c "'$venv/bin/urc-sycl' env > '$work/urc-sycl.txt' && grep -q '^LD_PRELOAD=.*/site-packages/urc/lib/liburc_sycl_interpose.so' '$work/urc-sycl.txt' && grep -qx 'URC_SYCL_CUDA_ADAPTER=$venv_lib/libur_adapter_cuda.so.0' '$work/urc-sycl.txt'"
check "under urc-sycl, dpctl's SPIR-V images get NVIDIA twins" \
  bash -c "URC_SYCL_LOG=1 LD_LIBRARY_PATH='$sim' '$venv/bin/urc-sycl' '$py' -c 'import dpctl; dpctl.get_devices()' > '$work/twins.txt' 2>&1 && grep -q 'NVIDIA twins registered' '$work/twins.txt'"

# dpnp.tensor from dpnp's wheel, without the oneMKL wheels dpnp's top level needs (the way
# scripts/gpu-python-check runs it on NVIDIA GPUs), on Intel's CPU OpenCL runtime: proves the
# operations script and that loading, against NumPy.
dpnp_whl="$(ls "$root"/.deps/wheels/dpnp-*-cp3"$("$py" -c 'import sys; print(sys.version_info[1])')"-*.whl 2>/dev/null | head -n 1)"
intel_icd="$root/.deps/icd/intel-cpu.icd"
if [ -n "$dpnp_whl" ] && [ -f "$intel_icd" ]; then
  check "dpnp.tensor runs on the CPU OpenCL device, equal to NumPy (dpnp without oneMKL)" \
    bash -c "'$py' -m pip install --quiet --no-deps '$dpnp_whl' > '$work/dpnp-pip.log' 2>&1 &&
      OCL_ICD_FILENAMES=\$(cat '$intel_icd') OCL_ICD_VENDORS=\$(cat '$intel_icd') \
      '$py' '$root/test/sycl/dpnp_tensor_ops.py' --device opencl:cpu --size 65536 --reps 1 \
      > '$work/dpnp-ops.txt' 2>&1"
  grep -q '^summary' "$work/dpnp-ops.txt" || tail -n 20 "$work/dpnp-ops.txt"
fi

# A C program built against the wheel with pkg-config (-lur_loader through the linker script)
# runs on urc's loader from the wheel, with urc's CUDA adapter on the simulated driver.
pkg="$("$py" -c 'import urc; print(urc.lib_dir)')"
check "a C consumer builds with the wheel's pkg-config file and runs on urc's CUDA adapter" \
  bash -c "cc '$root/test/install/consumer/consumer.c' \$(PKG_CONFIG_PATH='$pkg/pkgconfig' pkg-config --cflags --libs libur_loader) -Wl,-rpath,'$pkg' -o '$work/consumer' && UR_ADAPTERS_FORCE_LOAD='$venv_lib/libur_adapter_cuda.so.0' LD_LIBRARY_PATH='$sim' '$work/consumer' | tee '$work/consumer.txt' | grep -q 'consumer: 1 adapter(s), first backend 3'"

"$py" -m pip uninstall --quiet --yes intel-cmplr-lib-ur > "$work/pip-uninstall-ur.log" 2>&1
check "no Level Zero adapter in lib/ without intel-cmplr-lib-ur" \
  bash -c "[ ! -e '$venv_lib/libur_adapter_level_zero.so.0' ]"
dpctl_run "dpctl lists the simulated CUDA device through the wheel's adapter (without intel-cmplr-lib-ur)"

# Uninstalling removes every file the wheel put down.
"$py" -c 'import importlib.metadata as m; [print(f.locate()) for f in m.files("urc")]' > "$work/installed.txt"
"$py" -m pip uninstall --quiet --yes urc > "$work/pip-uninstall.log" 2>&1
left=0
while read -r f; do
  if [ -e "$f" ]; then
    echo "left behind: $f"
    left=$((left + 1))
  fi
done < "$work/installed.txt"
check "pip uninstall urc removes all $(wc -l < "$work/installed.txt") files" [ "$left" = 0 ]
check "no urc folder is left in site-packages" bash -c "! ls -d '$venv'/lib/python3*/site-packages/urc 2>/dev/null"
finish
