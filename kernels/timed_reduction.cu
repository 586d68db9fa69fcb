// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "timed_reduction.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/policies/device_clock/device_probe.cuh>

#include <stdexcept>
#include <string>

namespace gpuchrono::kernels {

namespace {

__global__ void timed_reduction(const float* input, float* output, DeviceProbe probe, std::uint32_t region) {
    extern __shared__ float shared[];
    const unsigned tid = threadIdx.x;
    ProbeRegion timed(probe, region);
    shared[tid] = input[tid];
    shared[tid + blockDim.x] = input[tid + blockDim.x];
    for (unsigned d = blockDim.x; d > 0; d /= 2) {
        __syncthreads();
        if (tid < d) {
            const float f0 = shared[tid];
            const float f1 = shared[tid + d];
            if (f1 < f0) shared[tid] = f1;
        }
    }
    if (tid == 0) output[blockIdx.x] = shared[0];
}

std::size_t shared_bytes(unsigned threads) { return sizeof(float) * 2 * threads; }

void check_threads(unsigned threads, const char* who) {
    if (threads == 0 || threads > 1024 || (threads & (threads - 1)) != 0)
        throw std::invalid_argument(std::string("gpuchrono::kernels::") + who +
                                    ": threads must be a power of two in 1..1024, got " + std::to_string(threads));
}

}  // namespace

void launch_timed_reduction(const float* input, float* output, DeviceProbe probe, cudaStream_t stream, unsigned blocks,
                            unsigned threads, std::uint32_t region) {
    check_threads(threads, "launch_timed_reduction");
    if (blocks == 0) throw std::invalid_argument("gpuchrono::kernels::launch_timed_reduction: blocks must be > 0");
    if (input == nullptr || output == nullptr)
        throw std::invalid_argument("gpuchrono::kernels::launch_timed_reduction: null input or output");
    timed_reduction<<<blocks, threads, shared_bytes(threads), stream>>>(input, output, probe, region);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching timed_reduction (" + std::to_string(blocks) + " x " +
                                                 std::to_string(threads) + ")");
}

int timed_reduction_resident_blocks_per_sm(unsigned threads) {
    check_threads(threads, "timed_reduction_resident_blocks_per_sm");
    return resident_blocks_per_sm(timed_reduction, static_cast<int>(threads), shared_bytes(threads));
}

}  // namespace gpuchrono::kernels
