// Kernels the pitfall tests need besides kernels/spin.hpp. Plain C++ declarations: the tests import the module.
#pragma once

#include <gpuchrono/duration.hpp>

#include <cuda_runtime_api.h>

namespace pitfalls_kernels {

// Spins like kernels::launch_spin, but is a kernel of its own that only the cold-launch test launches, so its
// first launch in a process is a first launch (under lazy loading, one that loads it).
void launch_cold_spin(gpuchrono::Duration d, cudaStream_t stream);

}  // namespace pitfalls_kernels
