# SPDX-License-Identifier: MIT
# Source this file from bash to choose the CPU OpenCL platform that tests and tools see.
#   URC_OCL=intel (default): only Intel's CPU runtime from .deps/ (scripts/install-deps);
#   URC_OCL=all: Intel's runtime and PoCL; URC_OCL=pocl: the system ICDs (PoCL) as usual.
# Without the Intel runtime installed, this changes nothing and PoCL stays the platform.
# Debian's loader (ocl-icd 2.3) reads OCL_ICD_VENDORS: a library path loads only that ICD, a
# folder replaces /etc/OpenCL/vendors. OCL_ICD_FILENAMES is the Khronos loader's name for it.
# LD_LIBRARY_PATH stays untouched: the runtime finds its libraries through RUNPATH, and its
# folder also holds a libOpenCL.so.1 that must not shadow the system loader.

urc_ocl_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
urc_ocl_icd="$urc_ocl_root/.deps/icd"
unset OCL_ICD_VENDORS OCL_ICD_FILENAMES
if [ "${URC_OCL:-intel}" != pocl ] && [ -f "$urc_ocl_icd/intel-cpu.icd" ]; then
  urc_ocl_lib="$(cat "$urc_ocl_icd/intel-cpu.icd")"
  if [ -f "$urc_ocl_lib" ]; then
    if [ "${URC_OCL:-intel}" = all ]; then
      export OCL_ICD_VENDORS="$urc_ocl_icd"
    else
      export OCL_ICD_VENDORS="$urc_ocl_lib" OCL_ICD_FILENAMES="$urc_ocl_lib"
    fi
  fi
  unset urc_ocl_lib
fi
unset urc_ocl_root urc_ocl_icd
