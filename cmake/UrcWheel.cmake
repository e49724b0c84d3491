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

# The SPIR-V helper links libclc's nvptx bitcode into every module it translates. A machine that
# got urc from pip has no libclc-15 package, so the wheel carries the file in lib/urc/, where the
# CUDA adapter looks when the system has none (docs/spirv.md), and the helper's LLVM and
# translator libraries go there too.
#
# The helper is installed as <prefix>/lib/urc/urc-spirv-ptx, outside the package folder, so
# auditwheel's copies in site-packages/urc.libs are out of its reach (their relative path
# depends on the Python version). Its libraries go beside it instead, each named by its soname,
# found through a DT_RPATH of $ORIGIN (unlike RUNPATH, it also serves their own dependencies);
# scripts/build-wheel tells auditwheel to leave them where they are.
set(_urc_libclc /usr/lib/clc/nvptx64--nvidiacl.bc)
if(TARGET urc-spirv-ptx)
  set_target_properties(urc-spirv-ptx PROPERTIES INSTALL_RPATH "$ORIGIN")
  target_link_options(urc-spirv-ptx PRIVATE -Wl,--disable-new-dtags)
  if(EXISTS ${_urc_libclc})
    install(FILES ${_urc_libclc} DESTINATION lib/urc COMPONENT runtime)
  endif()
  install(CODE "
    file(GET_RUNTIME_DEPENDENCIES EXECUTABLES \"$<TARGET_FILE:urc-spirv-ptx>\"
      RESOLVED_DEPENDENCIES_VAR deps UNRESOLVED_DEPENDENCIES_VAR missing
      PRE_EXCLUDE_REGEXES \"^ld-linux\" \"^libc[.]so\" \"^libm[.]so\" \"^libstdc[+][+]\"
                          \"^libgcc_s\" \"^libpthread\" \"^libdl[.]\" \"^librt[.]\")
    if(missing)
      message(FATAL_ERROR \"urc-spirv-ptx: unresolved libraries: \${missing}\")
    endif()
    # Debian's libLLVM-15 has a RUNPATH of its own ($ORIGIN/../lib), which would hide the
    # helper's RPATH from its dependencies: each copy gets $ORIGIN instead (scripts/build-wheel
    # puts patchelf on PATH).
    find_program(patchelf patchelf REQUIRED)
    foreach(dep \${deps})
      get_filename_component(name \${dep} NAME)
      set(copy \"\${CMAKE_INSTALL_PREFIX}/lib/urc/\${name}\")
      configure_file(\${dep} \${copy} COPYONLY)
      execute_process(COMMAND \${patchelf} --set-rpath $ORIGIN \${copy} COMMAND_ERROR_IS_FATAL ANY)
    endforeach()
  " COMPONENT runtime)
endif()

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
