// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The one kernel the NCCL example needs besides the spin: it stores %globaltimer as it starts, so that the
// clock-agreement mode can set a device's own clock beside the host's and CUPTI's.
#include "nccl_clock_stamp.hpp"

#include <gpuchrono/policies/device_clock/device_probe.cuh>

#include <stdexcept>
#include <string>

namespace {
__global__ void stamp_globaltimer(std::uint64_t* out) { *out = gpuchrono::read_globaltimer(); }
}  // namespace

namespace gpuchrono::examples {

void launch_globaltimer_stamp(std::uint64_t* device_out, cudaStream_t stream) {
    stamp_globaltimer<<<1, 1, 0, stream>>>(device_out);
    if (const cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        throw std::runtime_error(std::string("launching the %globaltimer stamp: ") + cudaGetErrorString(e));
}

}  // namespace gpuchrono::examples
