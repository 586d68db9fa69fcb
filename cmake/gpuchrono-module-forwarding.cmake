# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Installed with the package; included by gpuchrono-config.cmake when the module component is found.
#
# CMake builds the BMI of an IMPORTED module (this package's gpuchrono::module) only for the targets that link it
# directly: an executable that links a library which links gpuchrono::module PUBLIC gets its compile definitions
# (so <gpuchrono/api.hpp> would import) but no BMI, and `import gpuchrono;` fails with "module 'gpuchrono' not
# found" (seen with CMake 3.28-4.1 and clang 19). So at the end of the top-level directory, every target that
# reaches gpuchrono::module only through other targets' link interfaces is linked to it directly, as its author
# would have to do, and CMake says so once per target.
include_guard(GLOBAL)

# Appends to `out` the targets defined in `dir` and below.
function(_gpuchrono_targets_below dir out)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _gpuchrono_targets_below("${sub}" more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# TRUE in `out` when a link item (a target name) reaches gpuchrono::module through link interfaces.
function(_gpuchrono_reaches_module item visited out)
  set(${out} FALSE PARENT_SCOPE)
  if(item STREQUAL "gpuchrono::module" OR item STREQUAL "gpuchrono::gpuchrono_module")
    set(${out} TRUE PARENT_SCOPE)
    return()
  endif()
  if(NOT TARGET "${item}" OR "${item}" IN_LIST visited)
    return()
  endif()
  list(APPEND visited "${item}")
  get_target_property(interface "${item}" INTERFACE_LINK_LIBRARIES)
  foreach(next IN LISTS interface)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" next "${next}")
    _gpuchrono_reaches_module("${next}" "${visited}" found)
    if(found)
      set(${out} TRUE PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

function(_gpuchrono_forward_module)
  _gpuchrono_targets_below("${CMAKE_SOURCE_DIR}" targets)
  foreach(target IN LISTS targets)
    get_target_property(type "${target}" TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
      continue()
    endif()
    get_target_property(direct "${target}" LINK_LIBRARIES)
    if(NOT direct OR "gpuchrono::module" IN_LIST direct)
      continue()
    endif()
    foreach(item IN LISTS direct)
      _gpuchrono_reaches_module("${item}" "" found)
      if(found)
        target_link_libraries("${target}" PRIVATE gpuchrono::module)
        message(STATUS "gpuchrono: ${target} reaches gpuchrono::module through ${item}; linking it directly, as CMake "
                       "builds an imported module's BMI only for the targets that link it")
        break()
      endif()
    endforeach()
  endforeach()
endfunction()

cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _gpuchrono_forward_module)
