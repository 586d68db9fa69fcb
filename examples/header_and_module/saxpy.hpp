// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The kernel both paths time, and the .cu file's timed launch. Plain C++ declarations: the .cpp file, which
// imports the module, calls them; the .cu file, which includes <gpuchrono/gpuchrono.hpp>, defines them.
#pragma once

#include <gpuchrono/core/measurement.hpp>

#include <cuda_runtime_api.h>

namespace header_and_module {

// y[i] = a * x[i] + y[i] for i < n. Throws CudaError if the launch is refused.
void launch_saxpy(cudaStream_t stream, unsigned n, float a, const float* x, float* y);

// The same launch, timed inside the .cu file with ScopedTimer<EventPolicy> from the header.
gpuchrono::Measurement time_saxpy_in_cu(cudaStream_t stream, unsigned n, float a, const float* x, float* y);

}  // namespace header_and_module
