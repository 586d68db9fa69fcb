// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Ground truth per block: block b spins (b + 1) x a given step on %globaltimer inside one probe region, so
// every block's duration is known in advance and different from every other block's.
// Plain C++ declarations (no CUDA syntax): host code that imports the module can call them.
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/probe_layout.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpuchrono::kernels {

// How long block `block` of launch_block_spin spins.
constexpr Duration block_spin_length(Duration per_block, unsigned block) noexcept {
    return per_block * (static_cast<double>(block) + 1.0);
}

// Every thread of block b, right after the entry of region `region`, waits until %globaltimer has advanced
// by block_spin_length(per_block, b) from its own first read; the region then ends. Blocks: 1-D grid.
// Throws std::invalid_argument on a bad shape or duration, CudaError if the launch is refused.
void launch_block_spin(DeviceProbe probe, Duration per_block, cudaStream_t stream, unsigned blocks,
                       unsigned threads = 128, std::uint32_t region = 0);

}  // namespace gpuchrono::kernels
