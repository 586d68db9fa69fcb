// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "globaltimer_spin.cuh"
#include "region_demo.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/policies/device_clock/device_probe.cuh>

#include <cmath>
#include <stdexcept>
#include <string>

namespace gpuchrono::kernels {

namespace {

struct ShapeNs {
    std::uint64_t setup, step, finish;
    unsigned iterations;
};

__global__ void region_demo(DeviceProbe probe, RegionDemoIds ids, ShapeNs shape) {
    {
        ProbeRegion setup(probe, ids.setup);
        spin_globaltimer(shape.setup);
    }
    {
        ProbeRegion compute(probe, ids.compute);
        ProbeLoop step(probe, ids.step);
        const std::uint64_t n = shape.iterations + blockIdx.x % 4;  // region_demo_iterations
        for (std::uint64_t i = 0; i < n; ++i) {
            auto iteration = step.iteration();
            spin_globaltimer(shape.step);
        }
    }
    {
        ProbeRegion finish(probe, ids.finish);
        spin_globaltimer(shape.finish);
    }
}

std::uint64_t to_ns(Duration d, const char* what) {
    if (!(d.ns() >= 0) || !d.is_finite())
        throw std::invalid_argument(std::string("gpuchrono::kernels::launch_region_demo: ") + what +
                                    " must be finite and >= 0, got " + to_string(d));
    return static_cast<std::uint64_t>(std::llround(d.ns()));
}

}  // namespace

void launch_region_demo(DeviceProbe probe, const RegionDemoIds& ids, const RegionDemoShape& shape, cudaStream_t stream,
                        unsigned blocks, unsigned threads) {
    if (blocks == 0 || threads == 0 || threads > 1024)
        throw std::invalid_argument("gpuchrono::kernels::launch_region_demo: blocks must be > 0 and threads 1..1024, got " +
                                    std::to_string(blocks) + " x " + std::to_string(threads));
    const ShapeNs ns{to_ns(shape.setup, "setup"), to_ns(shape.step, "step"), to_ns(shape.finish, "finish"),
                     shape.iterations};
    region_demo<<<blocks, threads, 0, stream>>>(probe, ids, ns);
    GPUCHRONO_CUDA_CHECK(cudaGetLastError(), "launching region_demo (" + std::to_string(blocks) + " x " +
                                                 std::to_string(threads) + ")");
}

}  // namespace gpuchrono::kernels
