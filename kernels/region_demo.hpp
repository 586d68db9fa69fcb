// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A kernel with several named regions and a loop timed by an accumulating region, each of known length,
// for the tests and the examples of named regions (like the seed nvperf's named events and loop timing).
// Plain C++ declarations (no CUDA syntax): host code that imports the module can call them.
#pragma once

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/probe_layout.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpuchrono::kernels {

// The probe region ids the kernel uses (indices into DeviceClockPolicy::Options::regions).
struct RegionDemoIds {
    std::uint32_t setup = 0;
    std::uint32_t compute = 1;
    std::uint32_t step = 2;  // the accumulating region, inside compute
    std::uint32_t finish = 3;
};

// What each region does: spin on %globaltimer for this long (every thread).
struct RegionDemoShape {
    Duration setup = Duration::from_us(2);
    Duration step = Duration::from_us(1);
    Duration finish = Duration::from_us(2);
    unsigned iterations = 16;  // base iteration count; block b runs region_demo_iterations(shape, b)
};

// Blocks run different iteration counts, so a test can check every block's count exactly.
constexpr std::uint64_t region_demo_iterations(const RegionDemoShape& shape, unsigned block) noexcept {
    return shape.iterations + block % 4;
}

// Block b: ProbeRegion setup { spin setup } ; ProbeRegion compute { ProbeLoop step, with
// region_demo_iterations(shape, b) iterations { spin step } } ; ProbeRegion finish { spin finish }.
// Throws std::invalid_argument on a bad shape, CudaError if the launch is refused.
void launch_region_demo(DeviceProbe probe, const RegionDemoIds& ids, const RegionDemoShape& shape, cudaStream_t stream,
                        unsigned blocks, unsigned threads = 128);

}  // namespace gpuchrono::kernels
