// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Decisions about the stream and device a GPU timer runs on (docs/pitfalls-catalog.md #10, #12, #13, #14, #28): pure
// functions over what a policy read at start and stop.
#pragma once

#include <gpuchrono/core/finding.hpp>

#include <optional>
#include <string_view>

namespace gpuchrono {

// The thread's current device at start and at stop, and the device the timer's stream belongs to.
std::optional<Finding> check_device_changed(int device_at_start, int device_at_stop, int timer_device,
                                            std::string_view policy);

// `is_legacy`: the timed stream is the legacy default stream (0 or cudaStreamLegacy); see stream_state.hpp.
std::optional<Finding> check_legacy_stream(bool is_legacy, std::string_view policy);

// `device_flags`: cudaGetDeviceFlags of the timer's device; cudaDeviceScheduleBlockingSync is 0x04.
std::optional<Finding> check_blocking_sync(unsigned device_flags, int device);

// EventPolicy recorded its events into a graph being captured: always an info finding that says how to read it.
Finding capture_finding(int device);

}  // namespace gpuchrono
