// Kernels for the thread-mode stream-wait tests (kernel_policy_gpu_test.cpp): one that runs until the host says
// stop, so that a test can tell, without any timing, whether a scope waited for it. Plain C++ declarations (no
// CUDA syntax): host code that imports the module can call them.
#pragma once

#include <cuda_runtime_api.h>

namespace gpuchrono::test {

// One thread reads `flag` (host memory mapped into the device: cudaHostAlloc(cudaHostAllocMapped), the device
// pointer from cudaHostGetDevicePointer) until it is no longer 0. Launched with <<<>>>.
void launch_wait_for_flag(const volatile int* flag, cudaStream_t stream);

// An empty kernel launched through the runtime's C function cudaLaunchKernel (not <<<>>>, which CUDA 13 compiles
// to __cudaLaunchKernel): CUPTI publishes the layout of this call's parameters.
void launch_empty_through_cuda_launch_kernel(cudaStream_t stream);

}  // namespace gpuchrono::test
