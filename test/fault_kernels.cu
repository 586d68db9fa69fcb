// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "fault_kernels.hpp"

#include <gpuchrono/core/cuda_error.hpp>

#include <cstdint>

namespace gpuchrono::test {

namespace {

__global__ void trap_kernel() {
    if (threadIdx.x == 0) __trap();
}

// The address is taken at run time so the compiler cannot see the fault coming; the first page of the
// address space is never mapped.
__global__ void illegal_address_kernel(std::uintptr_t address) {
    if (threadIdx.x == 0) *reinterpret_cast<volatile int*>(address) = 42;
}

}  // namespace

void launch_trap(cudaStream_t stream) {
    trap_kernel<<<1, 32, 0, stream>>>();
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching trap_kernel");
}

void launch_illegal_address(cudaStream_t stream) {
    illegal_address_kernel<<<1, 32, 0, stream>>>(std::uintptr_t{16});
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching illegal_address_kernel");
}

}  // namespace gpuchrono::test
