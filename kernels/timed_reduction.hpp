// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The CUDA samples' "clock" experiment (seeds 000 and 001): every block finds the minimum of the same
// 2 x threads floats with a shared-memory tree reduction, and the probe times each block's work. The seed
// used clock() from thread 0 without a barrier before the start read and no SM check; here the region is a
// gpuchrono::ProbeRegion (barriers, clock64, %globaltimer, %smid).
// Plain C++ declarations (no CUDA syntax): host code that imports the module can call them.
#pragma once

#include <gpuchrono/core/probe_layout.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpuchrono::kernels {

// input: 2 x threads floats on the device; output: `blocks` floats, output[b] = min(input) for every b.
// threads: a power of two in 1..1024 (the tree halves it); each block uses 2 x threads floats of dynamic
// shared memory. Region `region` covers the copy in, the reduction and the write out.
// Throws std::invalid_argument on a bad shape, CudaError if the launch is refused.
void launch_timed_reduction(const float* input, float* output, DeviceProbe probe, cudaStream_t stream,
                            unsigned blocks = 64, unsigned threads = 256, std::uint32_t region = 0);

// The kernel's occupancy with `threads` threads (and its shared memory), for Options::resident_blocks_per_sm.
int timed_reduction_resident_blocks_per_sm(unsigned threads);

}  // namespace gpuchrono::kernels
