#include "launch_warmup.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>

#include <array>
#include <atomic>
#include <cstddef>

namespace gpuchrono::detail {

namespace {

__global__ void warmup_kernel() {}

constexpr int tracked_devices = 64;
std::array<std::atomic<bool>, tracked_devices> module_loaded{};  // per device; beyond 64 every call launches twice

void launch_once(cudaStream_t stream) {
    // cudaLaunchKernel returns this launch's own error; cudaGetLastError would also return one that an earlier
    // call of the user's left behind.
    GPUCHRONO_CUDA_CHECK(
        cudaLaunchKernel(reinterpret_cast<const void*>(&warmup_kernel), dim3(1), dim3(1), nullptr, 0, stream),
        "launching the warm-up kernel before a timer's interval");
}

}  // namespace

void launch_warmup_kernel(cudaStream_t stream, int device) {
    DeviceGuard on(device);  // a runtime launch goes to the current device's context
    const bool tracked = device >= 0 && device < tracked_devices;
    if (!tracked || !module_loaded[static_cast<std::size_t>(device)].load(std::memory_order_relaxed)) {
        launch_once(stream);
        if (tracked) module_loaded[static_cast<std::size_t>(device)].store(true, std::memory_order_relaxed);
    }
    launch_once(stream);
}

}  // namespace gpuchrono::detail
