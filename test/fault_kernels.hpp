// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Kernels that fail on purpose, for the fault tests (fault_gpu_test.cpp). Each fault is sticky: the context
// that ran it refuses every later call, so each test that launches one runs in a process of its own.
// Plain C++ declarations (no CUDA syntax): host code that imports the module can call them.
#pragma once

#include <cuda_runtime_api.h>

namespace gpuchrono::test {

// One thread executes the PTX trap instruction: the launch fails (cudaErrorLaunchFailure on an H100).
void launch_trap(cudaStream_t stream);

// One thread writes through a pointer that no allocation covers: cudaErrorIllegalAddress.
void launch_illegal_address(cudaStream_t stream);

}  // namespace gpuchrono::test
