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
std::array<std::atomic<bool>, tracked_devices> module_loaded{};  // per device; beyond 64 every call is a first use
constexpr int first_use_extra_launches = 4;

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
        // The first timer of a process did the most first-use work just now (NVML's initialisation, the event
        // floor with its synchronisations, the module load above): one launch after a pause that long still
        // returned late on the H100 VM (bench/launch_after_driver_work: 5 ms sleep + one launch, +3.9 us), and the
        // first EventPolicy scope read 6-12 us above the steady median (bench/kernel_policy [4]); with 4 more launches
        // 3.7-5.3 us, its timed launch call still 12-15 us instead of 4, and 16 did no better (3.4-9.8 us): four
        // take part of the cost outside the interval. The rest is NVML's loading: the user's own next launch after
        // it stays slow whatever is launched between (docs/pitfalls.md, "The first scope of a process"; prepare()).
        for (int i = 0; i < first_use_extra_launches; ++i) launch_once(stream);
        if (tracked) module_loaded[static_cast<std::size_t>(device)].store(true, std::memory_order_relaxed);
    }
    launch_once(stream);
}

}  // namespace gpuchrono::detail
