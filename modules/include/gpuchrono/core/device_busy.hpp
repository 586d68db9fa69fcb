// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Per-device busy time and span of GPU activities: what a KernelPolicy scope that launched on several devices
// did on each of them. Busy time is the union of the activities' intervals on that device (overlapping work
// on two streams counts once); span is the first start to the last end there. A single number for the whole
// scope would mix devices that ran side by side; Measurement::duration() stays the union over all devices.
#pragma once

#include <gpuchrono/core/kernel_activity.hpp>

#include <cstdint>
#include <vector>

namespace gpuchrono {

struct DeviceBusy {
    int device = -1;
    std::int64_t busy_ns = 0;
    std::int64_t span_ns = 0;
    std::uint64_t activities = 0;

    friend bool operator==(const DeviceBusy&, const DeviceBusy&) = default;
};

// One entry per device the activities ran on, by ascending device index.
std::vector<DeviceBusy> busy_per_device(const std::vector<KernelActivity>& activities);

}  // namespace gpuchrono
