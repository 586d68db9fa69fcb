// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "launch_warmup.hpp"
#include "tracked_devices.hpp"

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/device.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <string>
#include <atomic>
#include <cstddef>

namespace gpuchrono::detail {

namespace {

__global__ void warmup_kernel() {}

std::array<std::atomic<bool>, tracked_devices> module_loaded{};
std::array<std::atomic<bool>, tracked_devices> settled{};  // settle_launches ran for the device; beyond tracked_devices every call is a first use
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
    const bool tracked = is_tracked_device(device);
    if (!tracked || !module_loaded[static_cast<std::size_t>(device)].load(std::memory_order_relaxed)) {
        launch_once(stream);
        // The first timer of a process did the most first-use work just now (NVML's initialisation, the event
        // floor with its synchronisations, the module load above): one launch after a pause that long still
        // returned late on the H100 VM (bench/launch_after_driver_work: 5 ms sleep + one launch, +3.9 us), and the
        // first EventPolicy scope read 6-12 us above the steady median (bench_first_scope [1]); with 4 more launches
        // 3.7-5.3 us, its timed launch call still 12-15 us instead of 4, and 16 did no better (3.4-9.8 us): four
        // take part of the cost outside the interval. The rest is NVML's loading: the user's own next launch after
        // it stays slow whatever is launched between (docs/pitfalls.md, "The first scope of a process"; prepare()).
        for (int i = 0; i < first_use_extra_launches; ++i) launch_once(stream);
        if (tracked) module_loaded[static_cast<std::size_t>(device)].store(true, std::memory_order_relaxed);
    }
    launch_once(stream);
}

bool launches_settled(int device) noexcept {
    return is_tracked_device(device) && settled[static_cast<std::size_t>(device)].load(std::memory_order_relaxed);
}

int settle_launches(cudaStream_t stream, int device, bool stream_idle) {
    using clock = std::chrono::steady_clock;
    DeviceGuard on(device);
    constexpr int min_launches = 8, settled_run = 3;
    constexpr auto budget = std::chrono::milliseconds(2);
    const auto began = clock::now();
    auto cheapest = clock::duration::max();
    int launches = 0, in_a_row = 0;
    while (launches < min_launches || (in_a_row < settled_run && clock::now() - began < budget)) {
        const auto t0 = clock::now();
        launch_once(stream);
        const auto took = clock::now() - t0;
        ++launches;
        cheapest = std::min(cheapest, took);
        in_a_row = took * 4 <= cheapest * 5 ? in_a_row + 1 : 0;
    }
    if (is_tracked_device(device)) {
        module_loaded[static_cast<std::size_t>(device)].store(true, std::memory_order_relaxed);
        settled[static_cast<std::size_t>(device)].store(true, std::memory_order_relaxed);
    }
    if (stream_idle)
        GPUCHRONO_CUDA_CHECK(cudaStreamSynchronize(stream), "waiting for the library's warm-up kernels on device " +
                                                                std::to_string(device) + " before a timer's first interval");
    return launches;
}

}  // namespace gpuchrono::detail
