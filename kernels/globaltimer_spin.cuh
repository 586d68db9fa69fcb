// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Device helper shared by the ground-truth kernels: wait until %globaltimer has advanced by a known time.
#pragma once

#include <gpuchrono/policies/device_clock/device_probe.cuh>

#include <cstdint>

namespace gpuchrono::kernels {

// Returns once %globaltimer has advanced by at least `ns` since this thread's first read here (so within one
// %globaltimer step of `ns`, plus the read's own latency).
__device__ __forceinline__ void spin_globaltimer(std::uint64_t ns) {
    const std::uint64_t start = read_globaltimer();
    while (read_globaltimer() - start < ns) {
    }
}

}  // namespace gpuchrono::kernels
