// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The user API, by whichever way the including target can take it: `import gpuchrono;` when it links
// gpuchrono::module (which defines GPUCHRONO_IMPORT for C++ sources), the headers otherwise. One source file then
// builds with every toolchain: g++ and any generator through the headers, clang >= 18 + Ninja through the module.
// Write it after your other #includes (a module import comes after textual includes). Host C++ only.
#pragma once

#if defined(__CUDACC__)
#error "<gpuchrono/api.hpp> is for host C++ files; a .cu file includes <gpuchrono/gpuchrono.hpp>"
#endif

#if defined(GPUCHRONO_IMPORT) && GPUCHRONO_IMPORT
import gpuchrono;
#else
#include <gpuchrono/host.hpp>
#endif
