# SPDX-License-Identifier: MIT
# The CPU OpenCL runtimes the OpenCL suites run on, and the way each suite runs once per runtime:
#   URC_OPENCL_RUNTIMES          the runtimes found: intel (the ICD file scripts/install-deps
#                                writes into .deps/icd), then pocl
#   URC_OPENCL_VENDOR_<runtime>  the ICD library OCL_ICD_VENDORS names for it (Debian's ocl-icd)
#   urc_add_opencl_check_test(<name> SOURCES ... [LIBRARIES ...] [LABELS ...])
#     <name> on the first runtime, <name>_<runtime> on each further one, through the real
#     loader with only the OpenCL adapter; labelled adapter:opencl and opencl:<runtime>.
include_guard(DIRECTORY)

set(URC_OPENCL_RUNTIMES)
set(_urc_intel_icd ${PROJECT_SOURCE_DIR}/.deps/icd/intel-cpu.icd)
if(EXISTS ${_urc_intel_icd})
  file(STRINGS ${_urc_intel_icd} _urc_intel_lib LIMIT_COUNT 1)
  if(EXISTS "${_urc_intel_lib}")
    list(APPEND URC_OPENCL_RUNTIMES intel)
    set(URC_OPENCL_VENDOR_intel "${_urc_intel_lib}")
  endif()
endif()
if(EXISTS /etc/OpenCL/vendors/pocl.icd)
  file(STRINGS /etc/OpenCL/vendors/pocl.icd _urc_pocl_lib LIMIT_COUNT 1)
  if(_urc_pocl_lib)
    list(APPEND URC_OPENCL_RUNTIMES pocl)
    set(URC_OPENCL_VENDOR_pocl "${_urc_pocl_lib}")
  endif()
endif()

function(urc_add_opencl_check_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES;LABELS" ${ARGN})
  set(force "UR_ADAPTERS_FORCE_LOAD=$<TARGET_FILE:ur_adapter_opencl>")
  set(labels ${ARG_LABELS} adapter:opencl)
  set(env "")
  list(LENGTH URC_OPENCL_RUNTIMES n)
  if(n GREATER 0)
    list(GET URC_OPENCL_RUNTIMES 0 first)
    set(env "OCL_ICD_VENDORS=${URC_OPENCL_VENDOR_${first}}")
    list(APPEND labels opencl:${first})
  endif()
  urc_add_check_test(${name} SOURCES ${ARG_SOURCES} LIBRARIES ${ARG_LIBRARIES} LABELS ${labels}
                     ENVIRONMENT "${force};${env}" DEPENDS ur_adapter_opencl)
  # The further runtimes run the same binary with another ICD.
  if(n GREATER 1)
    list(SUBLIST URC_OPENCL_RUNTIMES 1 -1 others)
    foreach(rt ${others})
      set(rt_labels ${ARG_LABELS} adapter:opencl opencl:${rt})
      add_test(NAME ${name}_${rt} COMMAND ${name})
      set_tests_properties(${name}_${rt} PROPERTIES LABELS "${rt_labels}"
        SKIP_RETURN_CODE 77 TIMEOUT 300
        ENVIRONMENT "CK_TAP_LOG_FILE_NAME=-;CK_DEFAULT_TIMEOUT=60;${force};OCL_ICD_VENDORS=${URC_OPENCL_VENDOR_${rt}}")
    endforeach()
  endif()
endfunction()
