# SPDX-License-Identifier: MIT
# The wheel (pyproject.toml, scikit-build-core; docs/wheel.md). CMake installs into the package
# folder (site-packages/urc); afterwards three things change, so that the install is right for
# pip:
# - Only the CUDA adapter, and the lib/urc/ folder of helpers it may open beside itself, move to
#   the wheel's data lib/ folder, which pip installs as the environment's lib/, beside
#   intel-sycl-rt's libsycl.so.9 that opens adapters by name. urc's Level Zero and OpenCL
#   adapters stay beside urc's loader: Intel's Level Zero adapter (intel-cmplr-lib-ur) lives in
#   that lib/ folder and must not be shadowed, and libsycl takes its built-in OpenCL adapter.
# - A wheel cannot hold symbolic links, so the libraries carry no VERSION (one file named by
#   the soname), adapters lose their unused link names and the loader's libur_loader.so becomes
#   a one-line linker script, which -lur_loader follows like the link.
# - Nothing refers to the build machine's paths.
if(NOT DEFINED SKBUILD_DATA_DIR)
  message(FATAL_ERROR "UrcWheel.cmake is for scikit-build-core builds (scripts/build-wheel)")
endif()
if(NOT CMAKE_INSTALL_LIBDIR STREQUAL "lib")
  message(FATAL_ERROR "the wheel needs CMAKE_INSTALL_LIBDIR=lib (the environment's lib/)")
endif()

set(_urc_wheel_libs ur_loader)
foreach(name opencl cuda level_zero)
  if(TARGET ur_adapter_${name})
    list(APPEND _urc_wheel_libs ur_adapter_${name})
  endif()
endforeach()
foreach(target ${_urc_wheel_libs})
  set_property(TARGET ${target} PROPERTY VERSION)
endforeach()

# Runs after every other install rule (CMP0082: rules run in the order they were declared).
install(CODE "
  set(lib \"\${CMAKE_INSTALL_PREFIX}/lib\")
  set(data \"${SKBUILD_DATA_DIR}/lib\")
  file(GLOB links \"\${lib}/libur_adapter_*.so\")
  if(links)
    file(REMOVE \${links})
  endif()
  # The wheel's urc-sycl is a Python command (python/urc/__main__.py) that knows where pip
  # put the CUDA adapter; the shell launcher only knows bin/../lib.
  file(REMOVE \"\${CMAKE_INSTALL_PREFIX}/bin/urc-sycl\")
  file(REMOVE \"\${lib}/libur_loader.so\")
  file(WRITE \"\${lib}/libur_loader.so\" \"INPUT(libur_loader.so.0)\\n\")
  file(MAKE_DIRECTORY \"\${data}\")
  if(EXISTS \"\${lib}/libur_adapter_cuda.so.0\")
    file(RENAME \"\${lib}/libur_adapter_cuda.so.0\" \"\${data}/libur_adapter_cuda.so.0\")
  endif()
  if(IS_DIRECTORY \"\${lib}/urc\")
    file(REMOVE_RECURSE \"\${data}/urc\")
    file(RENAME \"\${lib}/urc\" \"\${data}/urc\")
  endif()
")
