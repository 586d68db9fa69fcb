// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "block_spin.hpp"
#include "globaltimer_spin.cuh"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/policies/device_clock/device_probe.cuh>

#include <cmath>
#include <stdexcept>
#include <string>

namespace gpuchrono::kernels {

namespace {

__global__ void block_spin(DeviceProbe probe, std::uint64_t per_block_ns, std::uint32_t region) {
    ProbeRegion timed(probe, region);
    spin_globaltimer((blockIdx.x + 1ull) * per_block_ns);
}

}  // namespace

void launch_block_spin(DeviceProbe probe, Duration per_block, cudaStream_t stream, unsigned blocks, unsigned threads,
                       std::uint32_t region) {
    if (!(per_block.ns() >= 0) || !per_block.is_finite())
        throw std::invalid_argument("gpuchrono::kernels::launch_block_spin: per_block must be finite and >= 0, got " +
                                    to_string(per_block));
    if (blocks == 0 || threads == 0 || threads > 1024)
        throw std::invalid_argument("gpuchrono::kernels::launch_block_spin: blocks must be > 0 and threads 1..1024, got " +
                                    std::to_string(blocks) + " x " + std::to_string(threads));
    block_spin<<<blocks, threads, 0, stream>>>(probe, static_cast<std::uint64_t>(std::llround(per_block.ns())), region);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching block_spin (" + std::to_string(blocks) + " blocks, " +
                                                 to_string(per_block) + " per block)");
}

}  // namespace gpuchrono::kernels
