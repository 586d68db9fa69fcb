// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "vadd.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/policies/device_clock/device_probe.cuh>

#include <stdexcept>
#include <string>

namespace gpuchrono::kernels {

namespace {

__global__ void vadd_kernel(const float* x, const float* y, float* out, unsigned n, unsigned repeat, DeviceProbe probe,
                            std::uint32_t block_region) {
    ProbeRegion block(probe, block_region);
    const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n)
        for (unsigned r = 0; r < repeat; ++r) out[tid] = x[tid] + y[tid];
}

__global__ void vadd_loop_timed_kernel(const float* x, const float* y, float* out, unsigned n, unsigned repeat,
                                       DeviceProbe probe, std::uint32_t block_region, std::uint32_t add_region) {
    ProbeRegion block(probe, block_region);
    const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    ProbeLoop add(probe, add_region);
    for (unsigned r = 0; r < repeat; ++r) {
        auto iteration = add.iteration();
        if (tid < n) out[tid] = x[tid] + y[tid];
    }
}

}  // namespace

void launch_vadd(const float* x, const float* y, float* out, unsigned n, unsigned repeat, bool time_loop,
                 DeviceProbe probe, const VaddRegions& regions, cudaStream_t stream) {
    if (n == 0 || repeat == 0) throw std::invalid_argument("gpuchrono::kernels::launch_vadd: n and repeat must be > 0");
    if (x == nullptr || y == nullptr || out == nullptr)
        throw std::invalid_argument("gpuchrono::kernels::launch_vadd: null x, y or out");
    const unsigned blocks = (n + vadd_threads - 1) / vadd_threads;
    if (time_loop)
        vadd_loop_timed_kernel<<<blocks, vadd_threads, 0, stream>>>(x, y, out, n, repeat, probe, regions.block, regions.add);
    else
        vadd_kernel<<<blocks, vadd_threads, 0, stream>>>(x, y, out, n, repeat, probe, regions.block);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching vadd (" + std::to_string(blocks) + " x " +
                                                 std::to_string(vadd_threads) + ", repeat " + std::to_string(repeat) + ")");
}

int vadd_resident_blocks_per_sm(bool time_loop) {
    return time_loop ? resident_blocks_per_sm(vadd_loop_timed_kernel, static_cast<int>(vadd_threads))
                     : resident_blocks_per_sm(vadd_kernel, static_cast<int>(vadd_threads));
}

}  // namespace gpuchrono::kernels
