// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Plain declaration of the %globaltimer stamp kernel's launcher (nccl_clock_stamp.cu), callable from host code.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace gpuchrono::examples {

// One thread writes %globaltimer (ns) to *device_out when it starts. Throws std::runtime_error if refused.
void launch_globaltimer_stamp(std::uint64_t* device_out, cudaStream_t stream);

}  // namespace gpuchrono::examples
