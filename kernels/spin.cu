#include "spin.hpp"

#include <gpuchrono/cuda_error.hpp>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gpuchrono::kernels {

namespace {

__device__ __forceinline__ std::uint64_t globaltimer_ns() {
    std::uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

__global__ void spin_kernel(std::uint64_t ns) {
    const std::uint64_t start = globaltimer_ns();
    while (globaltimer_ns() - start < ns) {
    }
}

__global__ void empty_kernel() {}

}  // namespace

void launch_spin(Duration d, cudaStream_t stream, unsigned blocks, unsigned threads_per_block) {
    if (!(d.ns() >= 0) || !d.is_finite())
        throw std::invalid_argument("gpuchrono::kernels::launch_spin: duration must be finite and >= 0, got " +
                                    to_string(d));
    if (blocks == 0 || threads_per_block == 0)
        throw std::invalid_argument("gpuchrono::kernels::launch_spin: blocks and threads_per_block must be > 0");
    spin_kernel<<<blocks, threads_per_block, 0, stream>>>(static_cast<std::uint64_t>(std::llround(d.ns())));
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching spin_kernel (" + to_string(d) + ")");
}

void launch_empty(cudaStream_t stream) {
    empty_kernel<<<1, 1, 0, stream>>>();
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching empty_kernel");
}

}  // namespace gpuchrono::kernels
