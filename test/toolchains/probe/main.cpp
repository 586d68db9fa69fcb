// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Prints the toolkit's versions and CUPTI's kernel activity record (which version, its size and the offsets of the
// fields gpuchrono reads), then exits 0. Needs no GPU: cudaRuntimeGetVersion works without a driver.
#include <cstddef>
#include <cstdio>
#include <cuda_runtime.h>
#include <cupti.h>

#include "probe_kernel.hpp"

// CUPTI's newest kernel record, by CUPTI_API_VERSION (12.x counts 1.. up to 28 in 12.9; 13.x is 13MMPP). Read from
// the headers of each wheel: 12.9 Kernel9, 13.0 Kernel10, 13.1-13.2 Kernel11, 13.3 Kernel12, 13.4-13.5 Kernel13. A
// wrong guess fails to compile, it cannot misread.
#if CUPTI_API_VERSION >= 130400
using KernelRecord = CUpti_ActivityKernel13;
#define PROBE_RECORD "CUpti_ActivityKernel13"
#elif CUPTI_API_VERSION >= 130300
using KernelRecord = CUpti_ActivityKernel12;
#define PROBE_RECORD "CUpti_ActivityKernel12"
#elif CUPTI_API_VERSION >= 130100
using KernelRecord = CUpti_ActivityKernel11;
#define PROBE_RECORD "CUpti_ActivityKernel11"
#elif CUPTI_API_VERSION >= 130000
using KernelRecord = CUpti_ActivityKernel10;
#define PROBE_RECORD "CUpti_ActivityKernel10"
#else
using KernelRecord = CUpti_ActivityKernel9;
#define PROBE_RECORD "CUpti_ActivityKernel9"
#endif

int main() {
  int runtime = 0;
  const cudaError_t status = cudaRuntimeGetVersion(&runtime);
  std::printf("CUDA compiler: %s\n", cuda_compiler_description());
  std::printf("CUDART_VERSION %d, cudaRuntimeGetVersion %d (%s)\n", CUDART_VERSION, runtime, cudaGetErrorName(status));
  std::printf("CUPTI_API_VERSION %d, kernel record %s, sizeof %zu\n", CUPTI_API_VERSION, PROBE_RECORD,
              sizeof(KernelRecord));
  std::printf("offsets: start %zu end %zu deviceId %zu contextId %zu streamId %zu correlationId %zu name %zu "
              "gridX %zu blockX %zu\n",
              offsetof(KernelRecord, start), offsetof(KernelRecord, end), offsetof(KernelRecord, deviceId),
              offsetof(KernelRecord, contextId), offsetof(KernelRecord, streamId),
              offsetof(KernelRecord, correlationId), offsetof(KernelRecord, name), offsetof(KernelRecord, gridX),
              offsetof(KernelRecord, blockX));
  if (probe_kernel_address() == nullptr) {
    std::fprintf(stderr, "probe: the kernel's host stub has no address\n");
    return 1;
  }
  if (status != cudaSuccess || runtime != CUDART_VERSION) {
    std::fprintf(stderr, "probe: linked cudart reports %d (%s), headers say %d\n", runtime, cudaGetErrorName(status),
                 CUDART_VERSION);
    return 1;
  }
  return 0;
}
