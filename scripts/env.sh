# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Sourced by the project's scripts: puts the CMake and Ninja that scripts/setup installed first on PATH.
gpuchrono_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PATH="$gpuchrono_root/.tools/venv/bin:$PATH"
# A compiler cache for every build the scripts start (CMake reads these on a build folder's first configure):
# CI builds the same sources in several jobs (the release and package builds, the consumer matrix's source-tree
# cases), and CCACHE_BASEDIR lets builds of one file in different folders share a result.
export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER-$gpuchrono_root/scripts/compiler-cache}
export CMAKE_CUDA_COMPILER_LAUNCHER=${CMAKE_CUDA_COMPILER_LAUNCHER-$gpuchrono_root/scripts/compiler-cache}
export CCACHE_BASEDIR=${CCACHE_BASEDIR-$gpuchrono_root}
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR-1}
