// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "sum_of_cubes.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/policies/device_clock/device_probe.cuh>

#include <stdexcept>
#include <string>

namespace gpuchrono::kernels {

namespace {

// One atomic per block, not per thread: the reduction must not be what the two patterns are compared on.
__device__ __forceinline__ void add_block_sum(unsigned long long sum, unsigned long long* result) {
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    __shared__ unsigned long long warp_sums[32];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0) atomicAdd(result, sum);
    }
}

__device__ __forceinline__ unsigned long long cube(int v) {
    const long long x = v;
    return static_cast<unsigned long long>(x * x * x);
}

__global__ void sum_of_cubes_chunked(const int* values, std::size_t n, unsigned long long* result) {
    const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::size_t begin = n * t / threads, end = n * (t + 1) / threads;
    unsigned long long sum = 0;
    for (std::size_t i = begin; i < end; ++i) sum += cube(values[i]);
    add_block_sum(sum, result);
}

__global__ void sum_of_cubes_interleaved(const int* values, std::size_t n, unsigned long long* result) {
    const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    unsigned long long sum = 0;
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += threads)
        sum += cube(values[i]);
    add_block_sum(sum, result);
}

void check_threads(unsigned threads, const char* who) {
    if (threads < 32 || threads > 1024 || threads % 32 != 0)
        throw std::invalid_argument(std::string("gpuchrono::kernels::") + who +
                                    ": threads must be a multiple of 32 in 32..1024, got " + std::to_string(threads));
}

}  // namespace

const char* to_string(AccessPattern p) noexcept {
    return p == AccessPattern::chunked ? "contiguous chunk per thread" : "interleaved (coalesced)";
}

void launch_sum_of_cubes(AccessPattern pattern, const int* values, std::size_t n, unsigned long long* result,
                         unsigned blocks, unsigned threads, cudaStream_t stream) {
    check_threads(threads, "launch_sum_of_cubes");
    if (blocks == 0) throw std::invalid_argument("gpuchrono::kernels::launch_sum_of_cubes: blocks must be > 0");
    if (values == nullptr || result == nullptr)
        throw std::invalid_argument("gpuchrono::kernels::launch_sum_of_cubes: null values or result");
    if (pattern == AccessPattern::chunked)
        sum_of_cubes_chunked<<<blocks, threads, 0, stream>>>(values, n, result);
    else
        sum_of_cubes_interleaved<<<blocks, threads, 0, stream>>>(values, n, result);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), std::string("launching sum_of_cubes, ") + to_string(pattern) + " (" +
                                                 std::to_string(blocks) + " x " + std::to_string(threads) + ")");
}

int sum_of_cubes_resident_blocks_per_sm(AccessPattern pattern, unsigned threads) {
    check_threads(threads, "sum_of_cubes_resident_blocks_per_sm");
    return pattern == AccessPattern::chunked ? resident_blocks_per_sm(sum_of_cubes_chunked, static_cast<int>(threads))
                                             : resident_blocks_per_sm(sum_of_cubes_interleaved, static_cast<int>(threads));
}

}  // namespace gpuchrono::kernels
