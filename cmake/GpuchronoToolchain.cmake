# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Every fact about the toolchain that the build depends on, decided once, here:
#   GPUCHRONO_CUDA_MAJOR / _MINOR  the CUDA toolkit in use (12.4 .. 13.x); what the sources choose by version
#                                  (CUPTI's record types, its soname) follows CUDA_VERSION/CUPTI_API_VERSION in
#                                  modules/src/cupti/toolkit.hpp, the one place that names them
#   GPUCHRONO_CUDART               CUDA::cudart_static or CUDA::cudart, after CMAKE_CUDA_RUNTIME_LIBRARY
#   GPUCHRONO_MODULE               build the C++20 module target gpuchrono::module (an option; ON only where the
#                                  toolchain can: CMake >= 3.28, a Ninja generator, clang >= 18 or g++ >= 14)
include_guard(GLOBAL)

find_package(CUDAToolkit REQUIRED)
if(CUDAToolkit_VERSION VERSION_LESS 12.4)
  message(FATAL_ERROR "gpuchrono needs CUDA 12.4 or newer (12.x or 13.x); the toolkit found is "
                      "${CUDAToolkit_VERSION} at ${CUDAToolkit_BIN_DIR}. Point CUDAToolkit_ROOT at a newer one.")
endif()
set(GPUCHRONO_CUDA_MAJOR ${CUDAToolkit_VERSION_MAJOR})
set(GPUCHRONO_CUDA_MINOR ${CUDAToolkit_VERSION_MINOR})

if(CMAKE_CUDA_RUNTIME_LIBRARY STREQUAL "Shared")
  set(GPUCHRONO_CUDART CUDA::cudart)
elseif(CMAKE_CUDA_RUNTIME_LIBRARY STREQUAL "Static")
  if(NOT TARGET CUDA::cudart_static)
    message(FATAL_ERROR "gpuchrono: the CUDA toolkit at ${CUDAToolkit_LIBRARY_DIR} has no libcudart_static.a; "
                        "configure with -DCMAKE_CUDA_RUNTIME_LIBRARY=Shared to link libcudart.so instead")
  endif()
  set(GPUCHRONO_CUDART CUDA::cudart_static)
else()
  message(FATAL_ERROR "gpuchrono: CMAKE_CUDA_RUNTIME_LIBRARY must be Static or Shared, not "
                      "'${CMAKE_CUDA_RUNTIME_LIBRARY}' (the library calls the CUDA runtime itself)")
endif()

# clang compiles CUDA newer than it knows (clang-19 knows up to 12.5) correctly, but warns on every file.
if(CMAKE_CUDA_COMPILER_ID STREQUAL "Clang")
  add_compile_options($<$<COMPILE_LANGUAGE:CUDA>:-Wno-unknown-cuda-version>)
endif()

# What building the module needs, each missing piece named.
set(_gpuchrono_module_missing)
if(CMAKE_VERSION VERSION_LESS 3.28)
  list(APPEND _gpuchrono_module_missing "CMake >= 3.28 (this is ${CMAKE_VERSION})")
endif()
if(NOT CMAKE_GENERATOR MATCHES "^Ninja( Multi-Config)?$")
  list(APPEND _gpuchrono_module_missing "a Ninja generator (this is \"${CMAKE_GENERATOR}\")")
endif()
if(NOT ((CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 18)
        OR (CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 14)))
  list(APPEND _gpuchrono_module_missing
       "clang >= 18 or g++ >= 14 (this is ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION})")
endif()
if(_gpuchrono_module_missing)
  set(_gpuchrono_module_default OFF)
else()
  set(_gpuchrono_module_default ON)
endif()
option(GPUCHRONO_MODULE "Build the C++20 module target gpuchrono::module (import gpuchrono;)" ${_gpuchrono_module_default})
if(GPUCHRONO_MODULE AND _gpuchrono_module_missing)
  list(JOIN _gpuchrono_module_missing ", " _gpuchrono_text)
  message(FATAL_ERROR "gpuchrono: GPUCHRONO_MODULE is ON but this toolchain cannot build C++20 modules; it lacks "
                      "${_gpuchrono_text}. Configure with -DGPUCHRONO_MODULE=OFF: everything but `import gpuchrono;` "
                      "works through the headers.")
endif()
if(NOT GPUCHRONO_MODULE AND _gpuchrono_module_missing)
  list(JOIN _gpuchrono_module_missing ", " _gpuchrono_text)
  message(STATUS "gpuchrono: module off (needs ${_gpuchrono_text}); the headers serve every use")
endif()
message(STATUS "gpuchrono: CUDA ${CUDAToolkit_VERSION} (${CMAKE_CUDA_COMPILER_ID} ${CMAKE_CUDA_COMPILER_VERSION}), "
               "architectures ${CMAKE_CUDA_ARCHITECTURES}, cudart ${CMAKE_CUDA_RUNTIME_LIBRARY}, module ${GPUCHRONO_MODULE}")
unset(_gpuchrono_module_missing)
unset(_gpuchrono_module_default)
unset(_gpuchrono_text)
