// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The seed nvperf's example (example/src/vadd.cu): out[i] = x[i] + y[i], repeated `repeat` times by every
// thread, with the block's start and end recorded by an in-kernel probe, and optionally the add itself timed
// as an accumulating loop region (nvperf's "loop timing").
// Plain C++ declarations (no CUDA syntax): host code that imports the module can call them.
#pragma once

#include <gpuchrono/core/probe_layout.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpuchrono::kernels {

struct VaddRegions {
    std::uint32_t block = 0;  // the whole block, like nvperf's NVPERF_EVENT_START/END around the kernel body
    std::uint32_t add = 1;    // the accumulating region around one add (used when timing the loop)
};

// Blocks of 256 threads over n elements ((n + 255) / 256 blocks). Each thread repeats its add `repeat` times:
// the compiler must keep every repetition, since out may alias x or y. With time_loop, every repetition is an
// iteration of the accumulating region `regions.add` (two block barriers each, so every thread runs every
// repetition, in bounds or not). Throws std::invalid_argument on a bad shape, CudaError if the launch is refused.
void launch_vadd(const float* x, const float* y, float* out, unsigned n, unsigned repeat, bool time_loop,
                 DeviceProbe probe, const VaddRegions& regions, cudaStream_t stream);

inline constexpr unsigned vadd_threads = 256;

// Blocks one SM holds at once for the kernel (its occupancy at vadd_threads).
int vadd_resident_blocks_per_sm(bool time_loop);

}  // namespace gpuchrono::kernels
