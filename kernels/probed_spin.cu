#include "probed_spin.hpp"

#include "globaltimer_spin.cuh"

#include <gpuchrono/cuda_error.hpp>
#include <gpuchrono/device_probe.cuh>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gpuchrono::kernels {

namespace {

__global__ void probed_spin(std::uint64_t ns, DeviceProbe probe) {
    ProbeRegion region(probe, 0);
    spin_globaltimer(ns);
}

std::uint64_t checked_ns(Duration d, const char* who) {
    if (!d.is_finite() || !(d.ns() >= 0))
        throw std::invalid_argument(std::string("gpuchrono::kernels::") + who +
                                    ": duration must be finite and >= 0, got " + to_string(d));
    return static_cast<std::uint64_t>(std::llround(d.ns()));
}

}  // namespace

void launch_probed_spin(Duration d, DeviceProbe probe, cudaStream_t stream, unsigned blocks, unsigned threads) {
    const std::uint64_t ns = checked_ns(d, "launch_probed_spin");
    if (blocks == 0 || threads == 0)
        throw std::invalid_argument("gpuchrono::kernels::launch_probed_spin: blocks and threads must be > 0");
    probed_spin<<<blocks, threads, 0, stream>>>(ns, probe);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching probed_spin (" + to_string(d) + ")");
}

}  // namespace gpuchrono::kernels
