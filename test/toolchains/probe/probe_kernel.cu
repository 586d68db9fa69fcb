// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "probe_kernel.hpp"

namespace {
__global__ void write_one(int* out) { *out = 1; }
}  // namespace

// The host stub's address: proves the kernel's fatbinary was registered with the linked cudart, without launching.
const void* probe_kernel_address() { return reinterpret_cast<const void*>(&write_one); }

#define PROBE_STR2(x) #x
#define PROBE_STR(x) PROBE_STR2(x)
const char* cuda_compiler_description() {
#if defined(__NVCC__)
  return "nvcc " PROBE_STR(__CUDACC_VER_MAJOR__) "." PROBE_STR(__CUDACC_VER_MINOR__) "." PROBE_STR(
      __CUDACC_VER_BUILD__) " (host " __VERSION__ ")";
#elif defined(__clang__)
  return "clang " __clang_version__ " (CUDA)";
#else
  return "unknown CUDA compiler";
#endif
}
