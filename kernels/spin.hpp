// Ground-truth kernels: their duration is known in advance, so timing them measures a timer's bias.
// Plain C++ declarations (no CUDA syntax): host code that imports the module can call them.
#pragma once

#include <gpuchrono/duration.hpp>

#include <cuda_runtime_api.h>

namespace gpuchrono::kernels {

// Every block spins until %globaltimer has advanced by `d` since that block started (exact to one
// %globaltimer step: 32 ns on an H100). Throws CudaError if the launch is refused.
void launch_spin(Duration d, cudaStream_t stream, unsigned blocks = 1, unsigned threads_per_block = 32);

// An empty kernel: what a launch costs when the kernel does nothing.
void launch_empty(cudaStream_t stream);

}  // namespace gpuchrono::kernels
