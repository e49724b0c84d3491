# SPDX-License-Identifier: MIT
# Device code built at build time, without a SYCL compiler:
#   urc_spirv_from_cl(<target> <out.spv> <in.cl> [FLAGS ...])        OpenCL C -> SPIR-V
#   urc_spirv_from_asm(<target> <out.spv> <in.spvasm> [ENV spv1.2])  SPIR-V assembly -> SPIR-V
#   urc_spir_from_cl(<target> <out.bc> <in.cl> [FLAGS ...])          OpenCL C -> SPIR 1.2 (PoCL)
# Each adds <out> to the custom target <target> of the current directory (made on first use,
# part of ALL); relative <out> is in the current binary dir, relative <in> in the source dir.
# Every SPIR-V output is checked with spirv-val. When a tool is missing, URC_HAVE_SPIRV_TOOLS
# is OFF and the functions only make the (empty) target, so tests that need device code skip.

get_filename_component(_urc_dc_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

# llvm-spirv-14 reads only LLVM 14 bitcode, so the matching clang comes first.
find_program(URC_CLANG_CL NAMES clang-14 clang)
find_program(URC_LLVM_SPIRV NAMES llvm-spirv-14 llvm-spirv HINTS /usr/lib/llvm-14/bin)
# scripts/install-deps puts a SPIRV-Tools into .deps/ that knows the HostAccessINTEL names,
# which Debian's 2023.1 lacks; it is searched first.
set(_urc_dc_tools "${_urc_dc_root}/.deps/spirv-tools/cmeel.prefix/bin")
find_program(URC_SPIRV_AS NAMES spirv-as HINTS "${_urc_dc_tools}")
find_program(URC_SPIRV_VAL NAMES spirv-val HINTS "${_urc_dc_tools}")

# Our .spvasm files spell the SPV_INTEL_global_variable_host_access names; ask spirv-as once.
if(URC_SPIRV_AS AND NOT DEFINED URC_SPIRV_AS_KNOWS_INTEL)
  set(_urc_dc_probe "${CMAKE_BINARY_DIR}/urc-spirv-as-probe")
  file(WRITE "${_urc_dc_probe}.spvasm" "OpCapability GlobalVariableHostAccessINTEL\n")
  execute_process(COMMAND "${URC_SPIRV_AS}" "${_urc_dc_probe}.spvasm" -o "${_urc_dc_probe}.spv"
                  RESULT_VARIABLE _urc_dc_rc OUTPUT_QUIET ERROR_QUIET)
  if(_urc_dc_rc EQUAL 0)
    set(URC_SPIRV_AS_KNOWS_INTEL ON CACHE INTERNAL "spirv-as knows HostAccessINTEL")
  else()
    set(URC_SPIRV_AS_KNOWS_INTEL OFF CACHE INTERNAL "spirv-as knows HostAccessINTEL")
  endif()
endif()

if(URC_CLANG_CL AND URC_LLVM_SPIRV AND URC_SPIRV_AS AND URC_SPIRV_VAL AND URC_SPIRV_AS_KNOWS_INTEL)
  set(URC_HAVE_SPIRV_TOOLS ON)
else()
  set(URC_HAVE_SPIRV_TOOLS OFF)
  message(STATUS "urc: device code disabled (clang-14, llvm-spirv-14 or a SPIRV-Tools with "
                 "HostAccessINTEL is missing; run scripts/install-deps)")
endif()

# Shared by the three functions: the target (always, so add_dependencies() on it works),
# then, with the tools, absolute paths and the output's folder; returns without them.
macro(_urc_dc_prepare target out in)
  if(NOT TARGET ${target})
    add_custom_target(${target} ALL)
  endif()
  if(NOT URC_HAVE_SPIRV_TOOLS)
    return()
  endif()
  get_filename_component(_out "${out}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  get_filename_component(_in "${in}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(_dir "${_out}" DIRECTORY)
  file(MAKE_DIRECTORY "${_dir}")
  target_sources(${target} PRIVATE "${_out}")
endmacro()

function(urc_spirv_from_cl target out in)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "" "FLAGS")
  _urc_dc_prepare(${target} "${out}" "${in}")
  # FLAGS come last so that a -cl-std there overrides the default.
  add_custom_command(
    OUTPUT "${_out}"
    COMMAND "${URC_CLANG_CL}" --target=spir64 -cl-std=CL2.0 -O2 -emit-llvm -c ${arg_FLAGS}
            -MD -MF "${_out}.d" -MT "${_out}" "${_in}" -o "${_out}.bc"
    COMMAND "${URC_LLVM_SPIRV}" "${_out}.bc" -o "${_out}"
    COMMAND "${URC_SPIRV_VAL}" "${_out}"
    DEPENDS "${_in}"
    DEPFILE "${_out}.d"
    COMMENT "OpenCL C -> SPIR-V ${out}"
    VERBATIM)
endfunction()

function(urc_spirv_from_asm target out in)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "ENV" "")
  if(NOT arg_ENV)
    set(arg_ENV spv1.2)
  endif()
  _urc_dc_prepare(${target} "${out}" "${in}")
  add_custom_command(
    OUTPUT "${_out}"
    COMMAND "${URC_SPIRV_AS}" --target-env ${arg_ENV} "${_in}" -o "${_out}"
    COMMAND "${URC_SPIRV_VAL}" "${_out}"
    DEPENDS "${_in}"
    COMMENT "SPIR-V assembly -> ${out}"
    VERBATIM)
endfunction()

# PoCL 3.1 takes no SPIR-V but loads spir64 bitcode through clCreateProgramWithBinary.
function(urc_spir_from_cl target out in)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "" "FLAGS")
  _urc_dc_prepare(${target} "${out}" "${in}")
  add_custom_command(
    OUTPUT "${_out}"
    COMMAND "${URC_CLANG_CL}" --target=spir64 -cl-std=CL1.2 -O2 -emit-llvm -c ${arg_FLAGS}
            -MD -MF "${_out}.d" -MT "${_out}" "${_in}" -o "${_out}"
    DEPENDS "${_in}"
    DEPFILE "${_out}.d"
    COMMENT "OpenCL C -> SPIR 1.2 ${out}"
    VERBATIM)
endfunction()
