# SPDX-License-Identifier: MIT
# Headers, pkg-config file and CMake package. Both are relocatable: they find the install
# prefix from their own location.
set(URC_PUBLIC_HEADERS ${PROJECT_SOURCE_DIR}/include/ur_api.h ${PROJECT_SOURCE_DIR}/include/ur_ddi.h
                       ${PROJECT_SOURCE_DIR}/include/ur_print.h)
file(GLOB URC_OWN_HEADERS ${PROJECT_SOURCE_DIR}/include/urc_*.h)
install(FILES ${URC_PUBLIC_HEADERS} ${URC_OWN_HEADERS}
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT devel)
# UR installs its headers under unified-runtime/ too; keep both spellings working.
install(FILES ${URC_PUBLIC_HEADERS}
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/unified-runtime COMPONENT devel)

configure_file(${PROJECT_SOURCE_DIR}/cmake/libur_loader.pc.in
               ${PROJECT_BINARY_DIR}/libur_loader.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/libur_loader.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT devel)

install(EXPORT urcTargets NAMESPACE urc:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/urc
        COMPONENT devel)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/urcConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/urcConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/urc)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/urcConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/urcConfig.cmake ${PROJECT_BINARY_DIR}/urcConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/urc COMPONENT devel)
