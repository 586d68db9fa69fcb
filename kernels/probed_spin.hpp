// One kernel that every policy can time: each block spins on %globaltimer for a known time inside probe
// region 0. With a DeviceProbe from DeviceClockPolicy the blocks record themselves; with a default (disabled)
// probe the region only synchronises, so EventPolicy and HostSyncPolicy time the very same code.
// Plain C++ declarations (no CUDA syntax): host code that imports the module can call them.
#pragma once

#include <gpuchrono/duration.hpp>
#include <gpuchrono/probe_layout.hpp>

#include <cuda_runtime_api.h>

namespace gpuchrono::kernels {

// Throws std::invalid_argument for a negative or non-finite duration or an empty shape, CudaError if the
// launch is refused.
void launch_probed_spin(Duration d, DeviceProbe probe, cudaStream_t stream, unsigned blocks = 1, unsigned threads = 128);

}  // namespace gpuchrono::kernels
