// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "spin.hpp"

#include "globaltimer_spin.cuh"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/policies/device_clock/device_probe.cuh>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gpuchrono::kernels {

namespace {

__global__ void spin_kernel(std::uint64_t ns, DeviceProbe probe) {
    ProbeRegion region(probe, 0);
    spin_globaltimer(ns);
}

__global__ void empty_kernel() {}

}  // namespace

std::uint64_t spin_length_ns(Duration d, const char* who) {
    if (!d.is_finite() || !(d.ns() >= 0))
        throw std::invalid_argument(std::string("gpuchrono::kernels::") + who +
                                    ": duration must be finite and >= 0, got " + to_string(d));
    return static_cast<std::uint64_t>(std::llround(d.ns()));
}

void launch_spin(Duration d, cudaStream_t stream, unsigned blocks, unsigned threads_per_block, DeviceProbe probe) {
    const std::uint64_t ns = spin_length_ns(d, "launch_spin");
    if (blocks == 0 || threads_per_block == 0)
        throw std::invalid_argument("gpuchrono::kernels::launch_spin: blocks and threads_per_block must be > 0");
    spin_kernel<<<blocks, threads_per_block, 0, stream>>>(ns, probe);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching spin_kernel (" + to_string(d) + ")");
}

void launch_empty(cudaStream_t stream) {
    empty_kernel<<<1, 1, 0, stream>>>();
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching empty_kernel");
}

}  // namespace gpuchrono::kernels
