// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "lead_spin.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>

#include <cstdint>

namespace gpuchrono::detail {

namespace {

__device__ std::uint64_t global_ns() {
    std::uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void lead_spin_kernel(std::uint64_t ns) {
    const std::uint64_t began = global_ns();
    while (global_ns() - began < ns) {
    }
}

}  // namespace

void launch_lead_spin(cudaStream_t stream, int device, Duration time) {
    DeviceGuard on(device);  // a runtime launch goes to the current device's context
    std::uint64_t ns = static_cast<std::uint64_t>(time.ns());
    void* args[] = {&ns};
    // The launch's own error, not one an earlier call of the user's left behind (cudaGetLastError would give that).
    GPUCHRONO_CUDA_CHECK(
        cudaLaunchKernel(reinterpret_cast<const void*>(&lead_spin_kernel), dim3(1), dim3(1), args, 0, stream),
        "launching the untimed spin a batch of long calls queues behind");
}

void queue_lead(cudaStream_t stream, int device, Duration per_call, const std::function<void()>& own_call) {
    if (per_call > lead_by_spin_above)
        launch_lead_spin(stream, device, lead_spin_time);
    else
        own_call();
}

}  // namespace gpuchrono::detail
