// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "cross_path.hpp"

#include <gpuchrono/policies/device_clock/device_probe.cuh>
#include <gpuchrono/gpuchrono.hpp>

#include <cstdint>

namespace cross_path {

namespace {
// Written with the installed probe header's clock read, as a user's own kernel would be.
__global__ void spin(std::uint64_t ns) {
    const std::uint64_t start = gpuchrono::read_globaltimer();
    while (gpuchrono::read_globaltimer() - start < ns) {
    }
}
}  // namespace

gpuchrono::Duration duration_made_by_nvcc(double ns) { return gpuchrono::Duration::from_ns(ns) * 2.0; }

gpuchrono::Measurement time_spin_in_cu(cudaStream_t stream, gpuchrono::Duration d) {
    gpuchrono::ScopedTimer<gpuchrono::EventPolicy> t(stream);
    spin<<<1, 32, 0, stream>>>(static_cast<std::uint64_t>(d.ns()));
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching the cross-path spin kernel");
    return t.stop();
}

}  // namespace cross_path
