// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Ground-truth kernels: their duration is known in advance, so timing them measures a timer's bias.
// Plain C++ declarations (no CUDA syntax): host code that imports the module can call them.
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/probe_layout.hpp>

#include <cuda_runtime_api.h>

namespace gpuchrono::kernels {

// Every block spins until %globaltimer has advanced by `d` since that block started (exact to one
// %globaltimer step: 32 ns on an H100), inside probe region 0. With a DeviceProbe from DeviceClockPolicy the
// blocks record themselves; with the default (disabled) probe the region only synchronises the block, so
// EventPolicy and HostSyncPolicy time the very same code.
// Throws std::invalid_argument for a negative or non-finite duration or an empty shape, CudaError if the
// launch is refused.
void launch_spin(Duration d, cudaStream_t stream, unsigned blocks = 1, unsigned threads_per_block = 32,
                 DeviceProbe probe = {});

// An empty kernel: what a launch costs when the kernel does nothing.
void launch_empty(cudaStream_t stream);

// `d` in whole ns for a kernel argument; std::invalid_argument naming `who` if negative or not finite.
std::uint64_t spin_length_ns(Duration d, const char* who);

}  // namespace gpuchrono::kernels
