# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The third-party packages building the library needs, each with the names package managers give it, so that a
# machine without one stops configuring with one sentence that says what to install, not CMake's search report:
#   range-v3 0.12       a usage requirement of the statistics headers (consumers of the package need it too)
#   nlohmann-json 3.11  report files are JSON through it: private to the library, the installed package does
#                       not need it
# Nothing is fetched from the network in their place.
include_guard(GLOBAL)

# gpuchrono_require_packages(NAME;VERSION;DEBIAN;CONDA_FORGE;VCPKG ...): each group of five is one package; every
# missing one is named in a single FATAL_ERROR.
function(gpuchrono_require_packages)
  set(missing_names)
  set(debian)
  set(conda)
  set(vcpkg)
  set(rest ${ARGN})
  while(rest)
    list(POP_FRONT rest name version debian_name conda_name vcpkg_name)
    find_package(${name} ${version} CONFIG QUIET)
    if(NOT ${name}_FOUND)
      list(APPEND missing_names "${name} ${version}")
      list(APPEND debian ${debian_name})
      list(APPEND conda ${conda_name})
      list(APPEND vcpkg ${vcpkg_name})
    endif()
  endwhile()
  if(missing_names)
    list(JOIN missing_names " and " names_text)
    list(JOIN debian " " debian_text)
    list(JOIN conda " " conda_text)
    list(JOIN vcpkg " " vcpkg_text)
    message(FATAL_ERROR "gpuchrono needs ${names_text}, not found (or not in a version that fits): install with "
                        "`sudo apt-get install ${debian_text}` (Debian, Ubuntu), `conda install -c conda-forge "
                        "${conda_text}` or `vcpkg install ${vcpkg_text}`, or point CMAKE_PREFIX_PATH at an "
                        "installation.")
  endif()
endfunction()

# range-v3 ships an ExactVersion version file: 0.12 would not match 0.12.0.
gpuchrono_require_packages(
  range-v3      0.12.0 librange-v3-dev    range-v3      range-v3
  nlohmann_json 3.11   nlohmann-json3-dev nlohmann_json nlohmann-json)
