// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A spin kernel in a translation unit of its own, which nothing but its launcher uses: its first launch in a
// process pays for loading its module (CUDA's lazy loading, the default since 12.2: docs/pitfalls-catalog.md row 4), so
// the first sample of a series that does not warm it up is far above the rest.
// Plain C++ declarations (no CUDA syntax): host code that imports the module can call them.
#pragma once

#include <gpuchrono/core/duration.hpp>

#include <cuda_runtime_api.h>

namespace gpuchrono::kernels {

// One block of 32 threads spins on %globaltimer for `d`. Throws std::invalid_argument for a negative or
// non-finite duration, CudaError if the launch is refused.
void launch_cold_spin(Duration d, cudaStream_t stream);

}  // namespace gpuchrono::kernels
