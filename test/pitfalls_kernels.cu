#include "pitfalls_kernels.hpp"

#include <gpuchrono/cuda_error.hpp>

#include <cmath>
#include <cstdint>

namespace pitfalls_kernels {

namespace {
__global__ void cold_spin(std::uint64_t ns) {
    std::uint64_t start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start)::"memory");
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now)::"memory");
    } while (now - start < ns);
}
}  // namespace

void launch_cold_spin(gpuchrono::Duration d, cudaStream_t stream) {
    cold_spin<<<1, 32, 0, stream>>>(static_cast<std::uint64_t>(std::llround(d.ns())));
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the cold-launch test kernel");
}

}  // namespace pitfalls_kernels
