# SPDX-License-Identifier: MIT
# urc_add_adapter(<name> <prefix> SOURCES ... [LIBRARIES ...])
# Builds libur_adapter_<name>.so.0 with UR's soname, its version node, the generated table and
# getters (adapters/<name>/generated/<prefix>_ddi.c) and nothing else exported.
function(urc_add_adapter name prefix)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES;INCLUDES" ${ARGN})
  set(target ur_adapter_${name})
  string(TOUPPER ${name} URC_ADAPTER_UPPER)
  set(map ${CMAKE_CURRENT_BINARY_DIR}/adapter.map)
  configure_file(${PROJECT_SOURCE_DIR}/common/generated/adapter.map.in ${map} @ONLY)
  add_library(${target} SHARED ${ARG_SOURCES} ${CMAKE_CURRENT_SOURCE_DIR}/generated/${prefix}_ddi.c)
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                             ${CMAKE_CURRENT_SOURCE_DIR}/generated ${ARG_INCLUDES})
  target_link_libraries(${target} PRIVATE urc_common ${ARG_LIBRARIES})
  target_link_options(${target} PRIVATE -Wl,--version-script=${map} ${URC_LINK_NO_UNDEFINED}
                      -Wl,--gc-sections)
  set_target_properties(${target} PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION 0
                        LINK_DEPENDS ${map})
  urc_runpath(${target} LIBRARY)
  install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)
endfunction()
