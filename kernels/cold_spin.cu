#include "cold_spin.hpp"

#include "globaltimer_spin.cuh"

#include <gpuchrono/cuda_error.hpp>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gpuchrono::kernels {

namespace {
__global__ void cold_spin(std::uint64_t ns) { spin_globaltimer(ns); }
}  // namespace

void launch_cold_spin(Duration d, cudaStream_t stream) {
    if (!d.is_finite() || !(d.ns() >= 0))
        throw std::invalid_argument("gpuchrono::kernels::launch_cold_spin: duration must be finite and >= 0, got " +
                                    to_string(d));
    cold_spin<<<1, 32, 0, stream>>>(static_cast<std::uint64_t>(std::llround(d.ns())));
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching cold_spin (" + to_string(d) + ")");
}

}  // namespace gpuchrono::kernels
