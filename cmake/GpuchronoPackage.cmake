# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# What an install carries besides the library and headers (modules/CMakeLists.txt installs those):
#   lib/cmake/gpuchrono/   find_package(gpuchrono [COMPONENTS module mpi]): gpuchrono::gpuchrono, and gpuchrono::module
#                          and gpuchrono::mpi (when built) from their own export sets, loaded only when asked for
#   lib/pkgconfig/         gpuchrono.pc, for Makefiles and plain nvcc command lines
#   share/doc/gpuchrono/   LICENSE, and copyright (Debian's machine-readable form of the same)
#   cpack                  a .deb and a .tar.gz of the same install
# Every one of them names the version, project(gpuchrono VERSION ...), and the license.
include_guard(GLOBAL)
include(CMakePackageConfigHelpers)
set(GPUCHRONO_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gpuchrono)
set(GPUCHRONO_LICENSE "Apache-2.0 WITH LLVM-exception")  # SPDX; pyproject.toml names the same
set(GPUCHRONO_DOC_DIR ${CMAKE_INSTALL_DATADIR}/doc/gpuchrono)

install(EXPORT gpuchrono-targets NAMESPACE gpuchrono:: DESTINATION ${GPUCHRONO_CMAKE_DIR})
# gpuchrono::mpi (the ping-pong clock offsets, docs/distributed.md) in its own export set too, loaded only for
# find_package(gpuchrono COMPONENTS mpi): its users need MPI, the others must not.
if(TARGET gpuchrono_mpi)
  install(EXPORT gpuchrono-mpi-targets NAMESPACE gpuchrono:: DESTINATION ${GPUCHRONO_CMAKE_DIR})
endif()
if(GPUCHRONO_MODULE)
  install(EXPORT gpuchrono-module-targets NAMESPACE gpuchrono:: DESTINATION ${GPUCHRONO_CMAKE_DIR}
          CXX_MODULES_DIRECTORY modules-info)
endif()
# Facts the config file checks against the consumer's own toolchain.
set(GPUCHRONO_BUILT_WITH_CXX "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
configure_package_config_file(cmake/gpuchrono-config.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/gpuchrono-config.cmake
  INSTALL_DESTINATION ${GPUCHRONO_CMAKE_DIR})
# The version file CMake writes, under a line naming the package and its license (find_package reads no more).
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/gpuchrono-config-version.cmake.in
  COMPATIBILITY SameMinorVersion)
file(READ ${CMAKE_CURRENT_BINARY_DIR}/gpuchrono-config-version.cmake.in _gpuchrono_version_file)
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/gpuchrono-config-version.cmake
  CONTENT "# gpuchrono ${PROJECT_VERSION}, ${GPUCHRONO_LICENSE} (${GPUCHRONO_DOC_DIR}/LICENSE)\n${_gpuchrono_version_file}"
  @ONLY)
install(FILES
  ${CMAKE_CURRENT_SOURCE_DIR}/cmake/gpuchrono-module-forwarding.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/gpuchrono-config.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/gpuchrono-config-version.cmake
  DESTINATION ${GPUCHRONO_CMAKE_DIR})

# pkg-config: the include folders of the library, the CUDA runtime and range-v3, and the link line of the static
# library with the cudart it was built against (absolute folders of the build machine's toolkit).
get_target_property(_gpuchrono_rangev3_includes range-v3::range-v3 INTERFACE_INCLUDE_DIRECTORIES)
set(GPUCHRONO_PC_CFLAGS "-std=c++20")
foreach(dir IN LISTS CUDAToolkit_INCLUDE_DIRS _gpuchrono_rangev3_includes)
  if(dir AND NOT dir MATCHES "^/usr/include/?$" AND NOT dir MATCHES "\\$<")
    string(APPEND GPUCHRONO_PC_CFLAGS " -I${dir}")
  endif()
endforeach()
if(GPUCHRONO_CUDART STREQUAL "CUDA::cudart_static")
  set(GPUCHRONO_PC_CUDART "-lcudart_static -lrt")
else()
  set(GPUCHRONO_PC_CUDART "-lcudart")
endif()
# The prefix relative to the .pc file, so an unpacked .tar.gz works wherever it lands.
file(RELATIVE_PATH GPUCHRONO_PC_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
configure_file(cmake/gpuchrono.pc.in ${CMAKE_CURRENT_BINARY_DIR}/gpuchrono.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gpuchrono.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The license text, and Debian's copyright file (/usr/share/doc/gpuchrono/copyright in the .deb): the same text
# under a machine-readable header, each line indented by one space and empty lines written " .".
file(READ ${PROJECT_SOURCE_DIR}/LICENSE _gpuchrono_license)  # read whole: its lines hold ';'
string(REGEX REPLACE "\n+$" "" _gpuchrono_license "${_gpuchrono_license}")
string(REPLACE "\n" "\n " _gpuchrono_license " ${_gpuchrono_license}")
set(_gpuchrono_previous "")
while(NOT _gpuchrono_license STREQUAL _gpuchrono_previous)
  set(_gpuchrono_previous "${_gpuchrono_license}")
  string(REPLACE "\n \n" "\n .\n" _gpuchrono_license "${_gpuchrono_license}")
endwhile()
set(_gpuchrono_copyright "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: gpuchrono

Files: *
Copyright: the gpuchrono developers
License: ${GPUCHRONO_LICENSE}
${_gpuchrono_license}
")
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/copyright CONTENT "${_gpuchrono_copyright}" @ONLY)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${CMAKE_CURRENT_BINARY_DIR}/copyright DESTINATION ${GPUCHRONO_DOC_DIR})

# cpack: `cpack --config build/X/CPackConfig.cmake` (or `cmake --build build/X --target package`) writes
# gpuchrono-<version>-<cuda>-Linux.deb and .tar.gz. The .deb installs under /usr.
set(CPACK_PACKAGE_NAME gpuchrono)
set(CPACK_PACKAGE_VENDOR "gpuchrono")
set(CPACK_PACKAGE_CONTACT "gpuchrono developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_FILE_NAME "gpuchrono-${PROJECT_VERSION}-cuda${GPUCHRONO_CUDA_MAJOR}.${GPUCHRONO_CUDA_MINOR}-${CMAKE_SYSTEM_NAME}")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# A control file has no license field: the extended description names it, and the copyright file holds it.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "RAII timers for CUDA work at the host, stream, kernel and GPU-activity levels, statistics,
reports, and detection of the common timing pitfalls. Headers, a static library, CMake and pkg-config files, the
gpuchrono command (run, diff, report, compare, merge) with its injection library, and the gpuchrono-report and
gpuchrono-compare tools. License: ${GPUCHRONO_LICENSE} (/usr/${GPUCHRONO_DOC_DIR}/copyright).")
# range-v3 is a usage requirement of the headers; the CUDA toolkit is the user's own (not a Debian package).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "librange-v3-dev (>= 0.12.0)")
# libgpuchrono_mpi.a (find_package(gpuchrono COMPONENTS mpi)) links MPI; only that component needs it, so it is
# suggested, not required (the config names MPI as missing when the component is asked for without it).
if(TARGET gpuchrono_mpi)
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "mpi-default-dev")
endif()
# The .deb installs under /usr; the .tar.gz holds the prefix's own tree (bin/, include/, lib/) to unpack anywhere.
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/GpuchronoCPackPerGenerator.cmake)
include(CPack)
