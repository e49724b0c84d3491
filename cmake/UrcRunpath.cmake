# SPDX-License-Identifier: MIT
# urc_runpath(<target> NONE|LIBRARY|PROGRAM): the same $ORIGIN-relative RUNPATH in the build tree
# and in the install, so nothing is rewritten at install time. CMake's rewrite pads the
# build-tree RUNPATH with empty entries, and an empty entry makes the dynamic linker search
# the current directory. Libraries find their siblings; programs find ../<libdir> (and the
# build tree's ../lib); NONE gives no RUNPATH at all.
function(urc_runpath target kind)
  if(kind STREQUAL "NONE")
    set(runpath "")
  elseif(kind STREQUAL "LIBRARY")
    set(runpath "$ORIGIN")
  else()
    set(runpath "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
    if(NOT CMAKE_INSTALL_LIBDIR STREQUAL "lib")
      string(APPEND runpath ":$ORIGIN/../lib")
    endif()
  endif()
  set_target_properties(${target} PROPERTIES BUILD_WITH_INSTALL_RPATH ON INSTALL_RPATH "${runpath}")
endfunction()
