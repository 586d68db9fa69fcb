// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/checks/check_stream_state.hpp>
#include <gpuchrono/core/finding_catalog.hpp>

#include <cuda_runtime_api.h>

#include <string>

namespace gpuchrono {

std::optional<Finding> check_device_changed(int device_at_start, int device_at_stop, int timer_device,
                                            std::string_view policy) {
    if (device_at_start == device_at_stop) return std::nullopt;
    return make_finding(codes::timer_device_changed,
                        "the current device changed from " + std::to_string(device_at_start) + " to " +
                            std::to_string(device_at_stop) + " between the " + std::string(policy) +
                            " timer's start and stop; the timer only sees device " + std::to_string(timer_device) +
                            ", so work launched on device " +
                            std::to_string(device_at_stop == timer_device ? device_at_start : device_at_stop) +
                            " in the scope is not in its interval",
                        {{"device_at_start", static_cast<double>(device_at_start)},
                         {"device_at_stop", static_cast<double>(device_at_stop)},
                         {"timer_device", static_cast<double>(timer_device)}});
}

std::optional<Finding> check_legacy_stream(bool is_legacy, std::string_view policy) {
    if (!is_legacy) return std::nullopt;
    return make_finding(codes::legacy_default_stream,
                        "the " + std::string(policy) +
                            " timer runs on the legacy default stream, which waits for and blocks every blocking "
                            "stream of the device: the interval can include their work");
}

std::optional<Finding> check_blocking_sync(unsigned device_flags, int device) {
    if ((device_flags & cudaDeviceScheduleMask) != cudaDeviceScheduleBlockingSync) return std::nullopt;
    return make_finding(codes::blocking_sync_wait,
                        "device " + std::to_string(device) +
                            " schedules with cudaDeviceScheduleBlockingSync: the host sleeps in each "
                            "synchronisation and wakes late (+83 us on an H100), and the host-synchronised "
                            "interval includes that",
                        {{"device_flags", static_cast<double>(device_flags)}});
}

Finding capture_finding(int device) {
    return make_finding(codes::timer_in_stream_capture,
                        "the timed stream on device " + std::to_string(device) +
                            " was being captured into a graph: the events were recorded as graph nodes "
                            "(cudaEventRecordExternal); the duration is the interval of the graph's last "
                            "completed launch, and reading it before any launch fails");
}

}  // namespace gpuchrono
