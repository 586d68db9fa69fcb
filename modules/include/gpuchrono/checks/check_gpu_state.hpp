// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Decisions about the state of the GPU while timing (docs/pitfalls-catalog.md #5, #6 and #27), from what NVML reported
// (gpu_state.hpp reads it). Pure functions, so CPU tests can feed them any state.
#pragma once

#include <gpuchrono/core/finding.hpp>
#include <gpuchrono/gpu/gpu_state.hpp>  // GpuState, OtherProcesses

#include <optional>
#include <string>
#include <vector>

namespace gpuchrono {

// nvmlDeviceGetCurrentClocksEventReasons bits (nvml.h, NVML 12.2+; "ThrottleReasons" before).
namespace clock_event {
inline constexpr unsigned long long gpu_idle = 0x1;
inline constexpr unsigned long long applications_clocks_setting = 0x2;
inline constexpr unsigned long long sw_power_cap = 0x4;
inline constexpr unsigned long long hw_slowdown = 0x8;
inline constexpr unsigned long long sync_boost = 0x10;
inline constexpr unsigned long long sw_thermal_slowdown = 0x20;
inline constexpr unsigned long long hw_thermal_slowdown = 0x40;
inline constexpr unsigned long long hw_power_brake_slowdown = 0x80;
inline constexpr unsigned long long display_clock_setting = 0x100;
// Power or thermal capping (docs/pitfalls-catalog.md #6).
inline constexpr unsigned long long capping =
    sw_power_cap | hw_slowdown | sw_thermal_slowdown | hw_thermal_slowdown | hw_power_brake_slowdown;
}  // namespace clock_event

// "GpuIdle|SwPowerCap", "none" for 0.
std::string describe_clock_event_reasons(unsigned long long reasons);

// other-processes-on-device: another process had a compute context on the device around the reading, so its
// work may have time-sliced with the timed work or shared its SMs. Empty when `o` lists no other process.
std::optional<Finding> other_processes_finding(const OtherProcesses& o);

// An SM clock under this fraction of its maximum is low: nvbench's --throttle-threshold default (75%), below
// which nvbench discards a sample (docs/pitfalls-catalog.md #6).
inline constexpr double min_clock_fraction = 0.75;

// gpu-idle-clock (clock low with the GpuIdle reason), gpu-clock-throttled (a capping reason, whatever the
// clock), gpu-clock-low (clock low for another or no reason), gpu-shared (other processes), nvml-unavailable.
Findings check_gpu_state(const GpuState& state);

}  // namespace gpuchrono
