# SPDX-License-Identifier: MIT
# Installs a built tree into a fresh prefix, then builds and runs a small consumer against
# it twice: with the flags `pkg-config libur_loader` gives, and through find_package(urc).
# Run as: cmake -DBUILD_DIR=.. -DWORK_DIR=.. -DCONSUMER_DIR=.. -DC_COMPILER=..
#               -DPKG_CONFIG=.. -DLIBDIR=lib -DFAKE_ADAPTER=.. -P install_test.cmake
# fail(<message>): the work folder goes first, so a failed run leaves nothing behind either.
function(fail text)
  restore_manifest()
  file(REMOVE_RECURSE ${WORK_DIR})
  message(FATAL_ERROR "${text}")
endfunction()

# `cmake --install` writes install_manifest.txt into the build folder: put back what was there
# before the test (nothing, or the manifest of the user's own install).
set(manifest ${BUILD_DIR}/install_manifest.txt)
if(EXISTS ${manifest})
  file(READ ${manifest} manifest_before)
endif()
function(restore_manifest)
  if(DEFINED manifest_before)
    file(WRITE ${manifest} "${manifest_before}")
  else()
    file(REMOVE ${manifest})
  endif()
endfunction()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    fail("${what} failed (${result}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
restore_manifest()
foreach(f include/ur_api.h include/ur_ddi.h include/unified-runtime/ur_api.h
          ${LIBDIR}/libur_loader.so.0 ${LIBDIR}/pkgconfig/libur_loader.pc
          ${LIBDIR}/cmake/urc/urcConfig.cmake)
  if(NOT EXISTS ${prefix}/${f})
    fail("the install has no ${f}")
  endif()
endforeach()

# Installed RUNPATHs are $ORIGIN-relative (or absent) and stay inside the prefix.
include(${CMAKE_CURRENT_LIST_DIR}/runpath_rules.cmake)
file(GLOB installed_libs ${prefix}/${LIBDIR}/libur_*.so.0 ${prefix}/${LIBDIR}/liburc_*.so)
file(GLOB installed_tools ${prefix}/bin/*)
# Scripts (the urc-sycl launcher) have no RUNPATH to check.
foreach(f ${installed_tools})
  file(READ ${f} magic LIMIT 4 HEX)
  if(NOT magic STREQUAL "7f454c46")
    list(REMOVE_ITEM installed_tools ${f})
  endif()
endforeach()
check_runpath(${prefix} FALSE ${installed_libs} ${installed_tools})

# The fake adapter makes the answer known: one adapter, posing as OpenCL (backend 2).
set(ENV{UR_ADAPTERS_FORCE_LOAD} ${FAKE_ADAPTER})
set(expected "consumer: 1 adapter\\(s\\), first backend 2")

set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
run("pkg-config" ${PKG_CONFIG} --cflags --libs libur_loader)
string(STRIP "${last_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run("building with pkg-config" ${C_COMPILER} ${CONSUMER_DIR}/consumer.c ${flags}
    -Wl,-rpath,${prefix}/${LIBDIR} -o ${WORK_DIR}/consumer-pkg-config)
run("the pkg-config consumer" ${WORK_DIR}/consumer-pkg-config)
if(NOT last_output MATCHES "${expected}")
  fail("the pkg-config consumer printed: ${last_output}")
endif()
message(STATUS "pkg-config: ${last_output}")

run("configuring with find_package" ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/build
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${C_COMPILER})
run("building with find_package" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run("the find_package consumer" ${WORK_DIR}/build/consumer)
if(NOT last_output MATCHES "${expected}")
  fail("the find_package consumer printed: ${last_output}")
endif()
message(STATUS "find_package: ${last_output}")
file(REMOVE_RECURSE ${WORK_DIR})
