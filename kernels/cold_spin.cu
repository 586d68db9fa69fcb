// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "cold_spin.hpp"
#include "spin.hpp"

#include "globaltimer_spin.cuh"

#include <gpuchrono/core/cuda_error.hpp>

#include <cstdint>

namespace gpuchrono::kernels {

namespace {
__global__ void cold_spin(std::uint64_t ns) { spin_globaltimer(ns); }
}  // namespace

void launch_cold_spin(Duration d, cudaStream_t stream) {
    cold_spin<<<1, 32, 0, stream>>>(spin_length_ns(d, "launch_cold_spin"));
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching cold_spin (" + to_string(d) + ")");
}

}  // namespace gpuchrono::kernels
