# SPDX-License-Identifier: MIT
# URC_SANITIZE="address;undefined" (or "thread") instruments every target.
foreach(san IN LISTS URC_SANITIZE)
  if(NOT san MATCHES "^(address|undefined|thread)$")
    message(FATAL_ERROR "URC_SANITIZE: unknown sanitizer '${san}'")
  endif()
  add_compile_options(-fsanitize=${san} -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${san})
endforeach()
# Shared libraries are linked with --no-undefined, except under clang's sanitizers: clang links
# the sanitizer runtime into executables only, and the libraries take it from there.
set(URC_LINK_NO_UNDEFINED -Wl,--no-undefined)
if(URC_SANITIZE AND CMAKE_C_COMPILER_ID MATCHES "Clang")
  set(URC_LINK_NO_UNDEFINED "")
endif()
if("undefined" IN_LIST URC_SANITIZE)
  # A UBSan finding fails the test instead of scrolling past.
  add_compile_options(-fno-sanitize-recover=undefined)
endif()
